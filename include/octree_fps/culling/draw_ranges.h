#pragma once
// The renderer's view of the octree: an index-buffer order in which every octree node's subtree
// is one contiguous run of drawn triangles, and the per-frame list of visible runs.
//
// The octree already permutes its triangles so that a subtree is a contiguous range of slots
// (octree.h). Some triangles are not drawn (invisible collider meshes), so DrawRanges keeps a
// prefix count over slots: slot range [a, b) maps to drawn-triangle range
// [drawnBefore[a], drawnBefore[b]). The renderer orders its index buffer by drawOrder(); each
// frame cull() walks the octree against the frustum (cullOctree, with plane masking) and emits
// the visible runs, merging runs that touch, ready for glMultiDrawElements.
//
// Units: triangle counts (multiply by 3 for indices). Thread-safety: build() is not thread-safe;
// cull() is const and allocation-free once the caller's output vectors have grown.
// Memory: 4 bytes per triangle (drawOrder) + 4 bytes per slot (prefix counts).

#include <cstdint>
#include <span>
#include <vector>

#include "octree_fps/culling/frustum.h"

namespace ofps {

class Octree;

// Visible runs of one frame, in drawn-triangle units, sorted and merged.
struct DrawRunList {
  std::vector<uint32_t> first;  // first drawn triangle of each run
  std::vector<uint32_t> count;  // triangles in each run
  uint32_t triangles = 0;       // sum of count
  void clear() {
    first.clear();
    count.clear();
    triangles = 0;
  }
};

class DrawRanges {
 public:
  // drawn[i] says whether ORIGINAL triangle i is drawn (size == octree's input triangle count,
  // or empty = every triangle drawn). Call after every octree (re)build.
  void build(const Octree& octree, std::span<const uint8_t> drawn);

  // Original triangle index of each drawn triangle, in index-buffer order.
  std::span<const uint32_t> drawOrder() const { return drawOrder_; }
  uint32_t drawnTriangles() const { return static_cast<uint32_t>(drawOrder_.size()); }

  // Drawn-triangle run of a slot range [first, first + count).
  uint32_t drawnBefore(uint32_t slot) const { return drawnBefore_[slot]; }

  // Appends the drawn triangles of the slot range [first, first + count) to *out as a run,
  // merged into the last run when the two touch. Slot ranges given in increasing order come out
  // sorted and fully merged (every cull here does so). O(1) amortized.
  void appendSlotRun(uint32_t first, uint32_t count, DrawRunList* out) const;

  // Appends the visible runs (merged where adjacent) to *out, which is cleared first.
  // ioStats receives the traversal's counters (nodes visited, plane tests, ...).
  void cull(const Octree& octree, const Frustum& frustum, DrawRunList* out,
            CullStats* ioStats = nullptr) const;

  // The cull's visitor: appends each reported slot range to the DrawRunList passed as context
  // (for a walk that reports more than the level, e.g. culling/frame_cull.h). The runs come out
  // sorted and merged when the list was cleared before the walk.
  struct RunSink {
    const DrawRanges* ranges;
    DrawRunList* out;
  };
  static void appendRunVisitor(void* runSink, uint32_t node, uint32_t first, uint32_t count,
                               bool wholeSubtree);
  // True when the prefix counts were built for this octree's triangle count (a rebuilt octree
  // with another count needs build() first; cull() reports nothing until then).
  bool matches(const Octree& octree) const;

  // Every drawn triangle as one run (culling off).
  void all(DrawRunList* out) const;

 private:
  std::vector<uint32_t> drawOrder_;
  std::vector<uint32_t> drawnBefore_;  // slotCount + 1 entries
};

}  // namespace ofps
