#include "octree_fps/culling/draw_ranges.h"

#include "octree_fps/spatial/octree.h"

namespace ofps {

void DrawRanges::build(const Octree& octree, std::span<const uint8_t> drawn) {
  const std::span<const uint32_t> order = octree.triangleOrder();
  drawOrder_.clear();
  drawOrder_.reserve(order.size());
  drawnBefore_.resize(order.size() + 1);
  uint32_t n = 0;
  for (size_t slot = 0; slot < order.size(); ++slot) {
    drawnBefore_[slot] = n;
    const uint32_t original = order[slot];
    if (drawn.empty() || (original < drawn.size() && drawn[original] != 0)) {
      drawOrder_.push_back(original);
      ++n;
    }
  }
  drawnBefore_[order.size()] = n;
}

bool DrawRanges::matches(const Octree& octree) const {
  return !octree.empty() && drawnBefore_.size() == octree.triangleCount() + 1;
}

// Preorder visits ranges in increasing slot order, so merging with the last run joins every
// touching pair.
void DrawRanges::appendRunVisitor(void* runSink, uint32_t /*node*/, uint32_t first, uint32_t count,
                                  bool /*wholeSubtree*/) {
  const RunSink& sink = *static_cast<const RunSink*>(runSink);
  sink.ranges->appendSlotRun(first, count, sink.out);
}

void DrawRanges::cull(const Octree& octree, const Frustum& frustum, DrawRunList* out,
                      CullStats* ioStats) const {
  out->clear();
  if (!matches(octree)) return;
  RunSink sink{this, out};
  cullOctree(octree, frustum, &appendRunVisitor, &sink, ioStats);
}

void DrawRanges::appendSlotRun(uint32_t first, uint32_t count, DrawRunList* out) const {
  const uint32_t a = drawnBefore_[first];
  const uint32_t b = drawnBefore_[first + count];
  if (a == b) return;
  if (!out->first.empty() && out->first.back() + out->count.back() == a) {
    out->count.back() += b - a;
  } else {
    out->first.push_back(a);
    out->count.push_back(b - a);
  }
  out->triangles += b - a;
}

void DrawRanges::all(DrawRunList* out) const {
  out->clear();
  if (drawOrder_.empty()) return;
  out->first.push_back(0);
  out->count.push_back(drawnTriangles());
  out->triangles = drawnTriangles();
}

}  // namespace ofps
