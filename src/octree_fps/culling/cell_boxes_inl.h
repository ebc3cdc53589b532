#pragma once
// Internal to the culling sources that classify a hash grid's cells four at a time against a
// frustum (grid_cull.cpp: the grid alone; props_cull.cpp: the cell groups on the level's walk):
// four cells' boxes computed lane by lane with HashGrid::cellBounds' float operations, so a lane's
// box has the scalar box's bits and the four-wide answers equal the scalar ones.
#include "octree_fps/geometry/simd4.h"

namespace ofps::detail {

// Cell: anything with int32_t x, y, z cell coordinates (GridCell, CellGroupEntry). Border cells
// (no finite bounds, HashGrid::isBorderCell) get a box too; callers test those apart.
template <class Cell>
inline void cellBoxes4(const Cell* c4, float cellSize, simd::F4 lo[3], simd::F4 hi[3]) {
  using simd::F4;
  const F4 cs = simd::splat(cellSize), one = simd::splat(1.0f);
  const F4 f[3] = {simd::fromInts(c4[0].x, c4[1].x, c4[2].x, c4[3].x),
                   simd::fromInts(c4[0].y, c4[1].y, c4[2].y, c4[3].y),
                   simd::fromInts(c4[0].z, c4[1].z, c4[2].z, c4[3].z)};
  for (int a = 0; a < 3; ++a) {
    lo[a] = f[a] * cs;
    hi[a] = (f[a] + one) * cs;
  }
}

}  // namespace ofps::detail
