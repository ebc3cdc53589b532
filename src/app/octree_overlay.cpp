// Octree visualization: node boxes coloured by depth, within a chosen depth range, optionally
// only the nodes this frame's culling reached, and the frozen culling frustum.
#include <algorithm>
#include <glm/vec4.hpp>
#include <vector>

#include "app/demo_state.h"
#include "octree_fps/culling/frustum.h"

namespace ofps::app {
namespace {

// A hue ramp over depth: shallow nodes red/orange, deep nodes blue/violet.
glm::vec4 depthColor(uint32_t depth) {
  static constexpr glm::vec4 ramp[] = {{1.00f, 0.25f, 0.20f, 0.9f}, {1.00f, 0.60f, 0.10f, 0.9f},
                                       {0.95f, 0.90f, 0.15f, 0.9f}, {0.40f, 0.90f, 0.25f, 0.9f},
                                       {0.15f, 0.85f, 0.80f, 0.9f}, {0.25f, 0.55f, 1.00f, 0.9f},
                                       {0.55f, 0.35f, 1.00f, 0.9f}, {0.90f, 0.35f, 0.90f, 0.9f}};
  return ramp[depth % (sizeof(ramp) / sizeof(ramp[0]))];
}

}  // namespace

void buildOctreeOverlay(DemoState& s) {
  s.gpu.lines.clear();
  if (!s.level.session) return;
  const Octree& octree = s.level.session->octree;
  if (s.culling.frozen) {
    s.gpu.lines.frustum(glm::inverse(s.culling.frozenViewProj), {1.0f, 1.0f, 1.0f, 1.0f});
  }
  if (s.overlay.queryNodes && !octree.empty()) {
    // Exactly what the character's queries touched this frame: the nodes they entered (boxes)
    // and those nodes' own triangles, which they tested (magenta outlines).
    const glm::vec4 hot(1.0f, 0.2f, 0.9f, 1.0f);
    for (const uint32_t node : s.queries.shownNodes) {
      if (node >= octree.nodeCount()) continue;  // recorded before a rebuild
      s.gpu.lines.box(octree.nodeBounds(node), depthColor(octree.nodeLevel(node)));
      const TriangleRange own = octree.ownRange(node);
      for (uint32_t slot = own.first; slot < own.first + own.count; ++slot) {
        const Triangle t = octree.triangle(slot);
        s.gpu.lines.line(t.v0, t.v1, hot);
        s.gpu.lines.line(t.v1, t.v2, hot);
        s.gpu.lines.line(t.v2, t.v0, hot);
      }
    }
    return;
  }
  if (!s.overlay.show || octree.empty()) return;
  const auto lo = static_cast<uint32_t>(s.overlay.minDepth);
  const auto hi = static_cast<uint32_t>(s.overlay.maxDepth);
  if (s.overlay.visibleOnly) {
    // Same traversal as the culling pass, descending through fully-inside nodes too so every
    // reached depth can be drawn.
    const Frustum frustum = Frustum::fromViewProjection(s.culling.cullViewProj);
    uint32_t stack[kOctreeStackSize];
    uint32_t top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const uint32_t n = stack[--top];
      uint32_t mask = kFrustumAllPlanes;
      if (classifyAabb(frustum, octree.nodeBounds(n), mask) == Containment::Outside) continue;
      const uint32_t depth = octree.nodeLevel(n);
      if (depth >= lo && depth <= hi && (!s.overlay.leavesOnly || octree.isLeaf(n))) {
        s.gpu.lines.box(octree.nodeBounds(n), depthColor(depth));
      }
      for (uint32_t i = 0; i < octree.childCount(n); ++i) stack[top++] = octree.firstChild(n) + i;
    }
    return;
  }
  for (uint32_t n = 0; n < octree.nodeCount(); ++n) {
    const uint32_t depth = octree.nodeLevel(n);
    if (depth < lo || depth > hi || (s.overlay.leavesOnly && !octree.isLeaf(n))) continue;
    s.gpu.lines.box(octree.nodeBounds(n), depthColor(depth));
  }
}

}  // namespace ofps::app
