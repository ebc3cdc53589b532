// Octree visualization: node boxes coloured by depth, within a chosen depth range, optionally
// only the nodes this frame's culling reached, and the frozen culling frustum.
#include <glm/vec4.hpp>

#include "app/demo_state.h"
#include "culling/frustum.h"

namespace ofps::app {
namespace {

// A hue ramp over depth: shallow nodes red/orange, deep nodes blue/violet.
glm::vec4 depthColor(uint32_t depth) {
  static constexpr glm::vec4 ramp[] = {
      {1.00f, 0.25f, 0.20f, 0.9f}, {1.00f, 0.60f, 0.10f, 0.9f}, {0.95f, 0.90f, 0.15f, 0.9f},
      {0.40f, 0.90f, 0.25f, 0.9f}, {0.15f, 0.85f, 0.80f, 0.9f}, {0.25f, 0.55f, 1.00f, 0.9f},
      {0.55f, 0.35f, 1.00f, 0.9f}, {0.90f, 0.35f, 0.90f, 0.9f}};
  return ramp[depth % (sizeof(ramp) / sizeof(ramp[0]))];
}

}  // namespace

void buildOctreeOverlay(DemoState& s) {
  s.lines.clear();
  if (!s.session) return;
  const Octree& octree = s.session->octree;
  if (s.culling.frozen) {
    s.lines.frustum(glm::inverse(s.culling.frozenViewProj), {1.0f, 1.0f, 1.0f, 1.0f});
  }
  if (s.overlay.queryNodes && !octree.empty()) {
    // The volume the character's queries searched this frame: its capsule at the start and
    // end of the frame, grown by the snap probe and skin.
    const CharacterController& c = s.sim.controller();
    const float r = c.params().radius + c.params().skin;
    Aabb swept;
    for (const glm::vec3& feet : {s.feetBeforeFrame, c.feet()}) {
      swept.grow(feet + glm::vec3(-r, -c.params().snapDistance, -r));
      swept.grow(feet + glm::vec3(r, c.currentHeight() + c.params().stepHeight, r));
    }
    for (uint32_t n = 0; n < octree.nodeCount();) {
      if (!octree.nodeBounds(n).overlaps(swept)) {
        n = octree.nodes()[n].skip;
        continue;
      }
      s.lines.box(octree.nodeBounds(n), depthColor(octree.nodeLevel(n)));
      ++n;
    }
    glm::vec3 a, b;
    c.capsule(a, b);
    const Level& level = s.session->level;
    // Triangles within reach of the capsule (touching it or within the skin), highlighted.
    octree.overlapCapsule(a, b, r * 1.5f, kOctreeAllLayers, [&](uint32_t original) {
      const size_t i = static_cast<size_t>(original) * 3;
      const glm::vec3& p0 = level.collisionPositions[level.collisionIndices[i]];
      const glm::vec3& p1 = level.collisionPositions[level.collisionIndices[i + 1]];
      const glm::vec3& p2 = level.collisionPositions[level.collisionIndices[i + 2]];
      const glm::vec4 hot(1.0f, 0.2f, 0.9f, 1.0f);
      s.lines.line(p0, p1, hot);
      s.lines.line(p1, p2, hot);
      s.lines.line(p2, p0, hot);
    });
    return;
  }
  if (!s.overlay.show || octree.empty()) return;
  const auto lo = static_cast<uint32_t>(s.overlay.minDepth);
  const auto hi = static_cast<uint32_t>(s.overlay.maxDepth);
  if (s.overlay.visibleOnly) {
    // Same traversal as the culling pass, descending through fully-inside nodes too so every
    // reached depth can be drawn.
    const Frustum frustum = Frustum::fromViewProjection(s.culling.cullViewProj);
    for (uint32_t n = 0; n < octree.nodeCount();) {
      uint32_t mask = kFrustumAllPlanes;
      if (classifyAabb(frustum, octree.nodeBounds(n), mask) == Containment::Outside) {
        n = octree.nodes()[n].skip;  // skip the whole subtree
        continue;
      }
      const uint32_t depth = octree.nodeLevel(n);
      if (depth >= lo && depth <= hi && (!s.overlay.leavesOnly || octree.isLeaf(n))) {
        s.lines.box(octree.nodeBounds(n), depthColor(depth));
      }
      ++n;
    }
    return;
  }
  for (uint32_t n = 0; n < octree.nodeCount(); ++n) {
    const uint32_t depth = octree.nodeLevel(n);
    if (depth < lo || depth > hi || (s.overlay.leavesOnly && !octree.isLeaf(n))) continue;
    s.lines.box(octree.nodeBounds(n), depthColor(depth));
  }
}

}  // namespace ofps::app
