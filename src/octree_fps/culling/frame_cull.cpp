// One frame's cull of the level and the props (contracts in frame_cull.h).
#include "octree_fps/culling/frame_cull.h"

#include "octree_fps/spatial/hash_grid.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {

uint32_t FrameCuller::cull(const Octree& octree, const DrawRanges& ranges, HashGrid& grid,
                           const Frustum& frustum, LevelCull mode, DrawRunList* outRuns,
                           std::span<uint32_t> outProps, CullStats* ioLevelStats,
                           PropsCullStats* ioPropsStats) {
  // Cells made since the last frame joined their nodes through the grid's events; this relinks
  // only when the links stopped holding (a rebuilt octree, a larger prop, a new cell size).
  links_.sync(grid, octree);
  DrawRanges::RunSink sink{&ranges, outRuns};
  CullVisitor visitor = nullptr;
  if (mode == LevelCull::All) {
    ranges.all(outRuns);
  } else {
    outRuns->clear();
    if (ranges.matches(octree)) visitor = &DrawRanges::appendRunVisitor;
  }
  return cullLevelAndProps(octree, frustum, grid, links_, visitor, &sink, outProps, ioLevelStats,
                           ioPropsStats);
}

}  // namespace ofps
