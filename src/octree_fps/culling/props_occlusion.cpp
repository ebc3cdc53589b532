#include "octree_fps/culling/props_occlusion.h"

#include <algorithm>

#include "octree_fps/culling/occlusion_cull.h"
#include "octree_fps/culling/props_cull.h"
#include "octree_fps/spatial/hash_grid.h"

namespace ofps {

uint32_t occludeProps(OcclusionCuller& culler, const HashGrid& grid, std::span<uint32_t> ids,
                      std::vector<uint64_t>* scratch, std::vector<uint32_t>* hiddenOut,
                      PropsOcclusionStats* ioStats) {
  PropsOcclusionStats st;
  // (cell << 32 | position in ids), sorted: each cell's props side by side. The position's top
  // bit marks a hidden prop once decided. Ids the grid lacks get the largest cell and are kept.
  constexpr uint64_t kHidden = 0x80000000ull;
  std::vector<uint64_t>& keys = *scratch;
  keys.clear();
  for (uint32_t i = 0; i < ids.size(); ++i) {
    const uint64_t cell = grid.contains(ids[i]) ? grid.cellIndexOf(ids[i]) : 0xFFFFFFFFull;
    keys.push_back(cell << 32 | i);
  }
  std::sort(keys.begin(), keys.end());
  const float extent = grid.maxExtent();
  for (size_t a = 0; a < keys.size();) {
    const uint32_t cell = static_cast<uint32_t>(keys[a] >> 32);
    size_t b = a + 1;
    while (b < keys.size() && (keys[b] >> 32) == cell) ++b;
    if (cell == 0xFFFFFFFFu) break;  // not in the grid: kept (they sort last)
    bool cellHidden = false;
    if (b - a >= 2 && !HashGrid::isBorderCell(grid.cells()[cell])) {
      ++st.cellsTested;
      cellHidden = culler.boxHidden(OctreeCellLinks::looseCellBounds(grid, cell, extent));
      st.cellsOccluded += cellHidden ? 1u : 0u;
    }
    for (size_t k = a; k < b; ++k) {
      const uint32_t id = ids[static_cast<uint32_t>(keys[k])];
      bool hidden = cellHidden;
      if (!cellHidden) {
        ++st.propsTested;
        hidden = culler.boxHidden(grid.object(id).bounds());
      }
      if (hidden) keys[k] |= kHidden;
    }
    a = b;
  }
  // Back into the caller's order: the hidden bit by position, then the survivors compacted.
  // (The keys are re-sorted by position; the cell part is no longer needed.)
  for (uint64_t& k : keys) k &= 0xFFFFFFFFull;
  std::sort(keys.begin(), keys.end(),
            [](uint64_t x, uint64_t y) { return (x & ~kHidden) < (y & ~kHidden); });
  uint32_t kept = 0;
  for (const uint64_t k : keys) {
    const uint32_t id = ids[static_cast<uint32_t>(k & ~kHidden)];
    if ((k & kHidden) != 0) {
      ++st.propsOccluded;
      if (hiddenOut != nullptr) hiddenOut->push_back(id);
    } else {
      ids[kept++] = id;
    }
  }
  if (ioStats != nullptr) {
    ioStats->cellsTested += st.cellsTested;
    ioStats->cellsOccluded += st.cellsOccluded;
    ioStats->propsTested += st.propsTested;
    ioStats->propsOccluded += st.propsOccluded;
  }
  return kept;
}

}  // namespace ofps
