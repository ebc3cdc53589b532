#pragma once
// One frame's frustum cull of a level and its props: the draw runs of the level's triangles and
// the ids of the visible props, from one walk of the level's octree (props_cull.h), with the links
// between the props' grid cells and the octree's nodes kept here. What a renderer calls once per
// frame; the demo does.
//
// Frame: world space, Y up, right-handed; the level's octree, its DrawRanges and the props' grid
// share it. Exact: the visible props are those brute force reports (cullPropsBruteForce), the runs
// those DrawRanges::cull reports, whatever the state of the links.
// Ownership: FrameCuller becomes the grid's cell listener on its first cull (the grid keeps a
// pointer); either may be destroyed first. Not copyable.
// Threads: cull() relinks when needed (mutating the grid's listener state): one thread, while
// nothing else reads or mutates the grid. Allocation: only when it relinks (a new octree build, a
// larger prop, a new cell size, or the occupied cells grew or shrank by a factor).

#include <cstdint>
#include <span>

#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/culling/frustum.h"
#include "octree_fps/culling/props_cull.h"

namespace ofps {

class HashGrid;
class Octree;

// What a frame's cull does with the level.
enum class LevelCull : uint8_t {
  Frustum,  // the runs the frustum leaves (one walk with the props)
  All,      // every drawn triangle (culling off); the props are still culled by the octree walk
};

class FrameCuller {
 public:
  // Syncs the links (OctreeCellLinks::sync), then writes the level's runs to *outRuns (cleared
  // first; nothing when `ranges` was not built for this octree) and the visible props' ids to
  // outProps (up to its size); returns the props' total count, which may exceed it. ioLevelStats
  // and ioPropsStats are added to (the level's walk counts even when mode is All, as the props
  // ride on it). Cost: see cullLevelAndProps.
  uint32_t cull(const Octree& octree, const DrawRanges& ranges, HashGrid& grid,
                const Frustum& frustum, LevelCull mode, DrawRunList* outRuns,
                std::span<uint32_t> outProps, CullStats* ioLevelStats = nullptr,
                PropsCullStats* ioPropsStats = nullptr);

  // The links (for statistics, validation, the benchmarks' tuning).
  OctreeCellLinks& links() { return links_; }
  const OctreeCellLinks& links() const { return links_; }

 private:
  OctreeCellLinks links_;
};

}  // namespace ofps
