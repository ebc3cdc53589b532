// Frustum culling of a hash grid's objects, cell by cell (contracts in grid_cull.h).
#include "octree_fps/culling/grid_cull.h"

#include "octree_fps/culling/cell_boxes_inl.h"
#include "octree_fps/geometry/frustum_inl.h"
#include "octree_fps/geometry/simd4.h"

namespace ofps {

namespace {

template <class Emit>
uint32_t cullCells(const HashGrid& grid, const Frustum& frustum, Emit&& emit,
                   GridQueryStats* ioStats) {
  GridQueryStats st;
  st.bruteForceChecks = grid.objectCount();
  uint32_t hits = 0;
  const glm::vec3 grow(grid.maxExtent());
  // Reports the objects of a cell classified c (not Outside) with the planes left in mask.
  auto visitCell = [&](const GridCell& cell, Containment c, uint32_t mask) -> bool {
    if (c == Containment::Inside) {
      for (uint32_t i = cell.count; i-- > 0;) {
        const uint32_t id = grid.cellObject(cell, i);
        ++hits;
        if (!emit(id)) return false;
      }
      return true;
    }
    for (uint32_t i = cell.count; i-- > 0;) {
      const uint32_t id = grid.cellObject(cell, i);
      ++st.candidates;
      uint32_t m = mask;
      if (classifyAabb(frustum, grid.object(id).bounds(), m) == Containment::Outside) continue;
      ++hits;
      if (!emit(id)) return false;
    }
    return true;
  };
  // A border cell holds everything beyond the coordinate range: no finite bounds, so its objects
  // are tested one by one.
  auto isBorder = [](const GridCell& cell) { return HashGrid::isBorderCell(cell); };
  const size_t nc = grid.occupiedCells();
  size_t first = 0;
  // Four cells at a time: the loose bounds (cellBounds grown by maxExtent, the same float
  // operations) through the shared four-wide classifyAabb.
  {
    using simd::F4;
    const F4 g = simd::splat(grid.maxExtent());
    for (; first + 4 <= nc; first += 4) {
      const GridCell* c4 = &grid.cells()[first];
      // The blocks of the next group's cells (random places in the pool): fetch them early.
      if (first + 8 <= nc) {
        for (uint32_t l = 4; l < 8; ++l) simd::prefetch(grid.poolData(c4[l].head));
      }
      F4 lo[3], hi[3];
      detail::cellBoxes4(c4, grid.cellSize(), lo, hi);
      for (int a = 0; a < 3; ++a) {
        lo[a] = lo[a] - g;
        hi[a] = hi[a] + g;
      }
      uint32_t masks[4];
      const uint32_t outside = detail::classifyAabb4(frustum, lo, hi, kFrustumAllPlanes, masks);
      for (uint32_t l = 0; l < 4; ++l) {
        const GridCell& cell = c4[l];
        ++st.cellsVisited;
        Containment c = Containment::Intersecting;
        uint32_t mask = kFrustumAllPlanes;
        if (!isBorder(cell)) {
          if ((outside >> l) & 1u) continue;
          mask = masks[l];
          if (mask == 0) c = Containment::Inside;
        }
        if (!visitCell(cell, c, mask)) goto done;
      }
    }
  }
  for (; first < nc; ++first) {
    const GridCell& cell = grid.cells()[first];
    ++st.cellsVisited;
    uint32_t mask = kFrustumAllPlanes;
    Containment c = Containment::Intersecting;
    if (!isBorder(cell)) {
      Aabb b = grid.cellBounds(cell);
      b.min -= grow;
      b.max += grow;
      c = classifyAabb(frustum, b, mask);
      if (c == Containment::Outside) continue;
    }
    if (!visitCell(cell, c, mask)) goto done;
  }
done:
  st.hits += hits;
  if (ioStats) *ioStats += st;
  return hits;
}

}  // namespace

uint32_t cullGridFrustum(const HashGrid& grid, const Frustum& frustum, GridVisitor visitor,
                         void* context, GridQueryStats* ioStats) {
  return cullCells(
      grid, frustum, [&](uint32_t id) { return visitor(context, id); }, ioStats);
}

uint32_t cullGridFrustum(const HashGrid& grid, const Frustum& frustum, std::span<uint32_t> out,
                         GridQueryStats* ioStats) {
  uint32_t count = 0;
  cullCells(
      grid, frustum,
      [&](uint32_t id) {
        if (count < out.size()) out[count] = id;
        ++count;
        return true;
      },
      ioStats);
  return count;
}

}  // namespace ofps
