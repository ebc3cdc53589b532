#pragma once
// Props culled by the occlusion buffer, cells first: after OcclusionCuller::cull() has walked the
// level, the props a frustum cull kept (cullLevelAndProps) are tested against the same buffer.
// Props are not occluders (they move, and are few beside the level's triangles).
//
// Cells, then boxes: the props are grouped by the grid cell that holds them; a cell holding two or
// more of them is tested first with its loose bounds (OctreeCellLinks::looseCellBounds: the cell
// grown by the grid's largest object extent, padded, so every box the cell holds lies inside),
// and when those are hidden every prop of the group is hidden without its own test. A cell that
// is not hidden (or holds one prop of the list, or is a border cell without finite bounds) has
// each prop's box tested. Never hides a visible prop: OcclusionBuffer::boxHidden is conservative
// for any box, and a hidden box hides everything inside it.
//
// Frame and units: world space (the grid's and the culler's). The culler's buffer must be from a
// cull() with the view-projection the props are drawn with; before any cull() nothing is hidden.
// Thread-safety: reads the grid, refreshes the culler's buffer (its tile levels): one thread per
// culler. Allocation: only to grow `scratch` (keep one per view across frames).
// Complexity: O(n log n) for n ids (the grouping sort), plus one box test per tested cell and per
// prop of the cells that are not hidden.
#include <cstdint>
#include <span>
#include <vector>

namespace ofps {

class HashGrid;
class OcclusionCuller;

struct PropsOcclusionStats {
  uint32_t cellsTested = 0;    // cells whose loose bounds were tested (two or more props listed)
  uint32_t cellsOccluded = 0;  // of those, hidden (their props hidden untested)
  uint32_t propsTested = 0;    // props whose own box was tested
  uint32_t propsOccluded = 0;  // props left out, by their cell or their own box
};

// Removes from ids the props hidden behind the culler's buffer, keeping the others in their
// order; returns how many remain (ids[0, n)). Ids the grid does not hold are kept. hiddenOut,
// when given, receives the hidden ids (appended). ioStats, when given, is added to.
uint32_t occludeProps(OcclusionCuller& culler, const HashGrid& grid, std::span<uint32_t> ids,
                      std::vector<uint64_t>* scratch, std::vector<uint32_t>* hiddenOut = nullptr,
                      PropsOcclusionStats* ioStats = nullptr);

}  // namespace ofps
