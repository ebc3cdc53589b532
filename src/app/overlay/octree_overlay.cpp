// Octree visualization: node boxes coloured by depth, within a chosen depth range, optionally
// only the nodes this frame's culling reached, and the frozen culling frustum. The Q view: what
// the character's queries touched (nodes, tested triangles, the triangles in contact) and the
// capsule they were asked for.
#include <algorithm>
#include <cstdio>
#include <glm/common.hpp>
#include <glm/vec4.hpp>
#include <vector>

#include "app/overlay/overlay_colors.h"
#include "app/window/demo_state.h"
#include "octree_fps/culling/frustum.h"

namespace ofps::app {
namespace {

// The capsule and the triangles it touches, at the frame the queries ran (flying runs none, and
// the record stays where it was so you can fly out and look at it). "Touches" is within the
// largest gap the controller leaves to what stops it (restGap: the skin and under a millimetre)
// plus a millimetre for rounding.
void recordCapsule(DemoState& s) {
  const CharacterController& c = s.sim.controller();
  QueryView& q = s.queries;
  c.capsule(q.capsuleA, q.capsuleB);
  q.capsuleRadius = s.params.controller.radius;
  const float reach = q.capsuleRadius + restGap(s.params.controller.skin) + 0.001f;
  q.contacts.clear();
  s.level.session->octree.overlapCapsule(
      q.capsuleA, q.capsuleB, reach, s.params.controller.layerMask,
      [&](uint32_t triangle) { q.contacts.push_back(triangle); });
  std::sort(q.contacts.begin(), q.contacts.end());
}

void outlineTriangle(gl::LineRenderer& lines, const Triangle& t, const glm::vec4& color) {
  lines.line(t.v0, t.v1, color);
  lines.line(t.v1, t.v2, color);
  lines.line(t.v2, t.v0, color);
}

void buildQueryView(DemoState& s, const Octree& octree) {
  QueryView& q = s.queries;
  if (q.trace.entered > 0) recordCapsule(s);
  // The nodes the queries entered (boxes by depth) and the triangles in them that were tested;
  // those in contact are drawn after, so they stay on top.
  for (const uint32_t node : q.shownNodes) {
    if (node >= octree.nodeCount()) continue;  // recorded before a rebuild
    glm::vec4 color = octreeDepthColor(octree.nodeLevel(node));
    color.a = kQueryBoxAlpha;
    s.gpu.lines.box(octree.nodeBounds(node), color);
    const TriangleRange own = octree.ownRange(node);
    for (uint32_t slot = own.first; slot < own.first + own.count; ++slot) {
      if (std::binary_search(q.contacts.begin(), q.contacts.end(), octree.triangleOrder()[slot])) {
        continue;
      }
      outlineTriangle(s.gpu.lines, octree.triangle(slot), kTestedTriangleColor);
    }
  }
  const Level& level = s.level.session->level;
  for (const uint32_t triangle : q.contacts) {
    const size_t base = static_cast<size_t>(triangle) * 3;
    if (base + 2 >= level.collisionIndices.size()) continue;  // recorded before a load
    const auto& p = level.collisionPositions;
    const auto& idx = level.collisionIndices;
    const Triangle t{p[idx[base]], p[idx[base + 1]], p[idx[base + 2]]};
    outlineTriangle(s.gpu.lines, t, kContactTriangleColor);
    // Hatched with the medians: a contact reads as a filled shape, not one more outline.
    s.gpu.lines.line(t.v0, (t.v1 + t.v2) * 0.5f, kContactTriangleColor);
    s.gpu.lines.line(t.v1, (t.v2 + t.v0) * 0.5f, kContactTriangleColor);
    s.gpu.lines.line(t.v2, (t.v0 + t.v1) * 0.5f, kContactTriangleColor);
  }
  if (q.capsuleRadius > 0.0f) {
    s.gpu.lines.capsule(q.capsuleA, q.capsuleB, q.capsuleRadius, kCapsuleColor);
  }
}

// What a node's box is drawn as: its tight bounds (what queries and culling test), or its cubic
// cell as the tutorials draw an octree. The build's root cell is the level's bounding cube
// (centred on the bounds, edge = the longest side) and a node at depth d sits in the depth-d
// cell holding the centres of its subtree's triangles (octree.h, "Straddling triangles"); its
// subtree's first slot is the first slot of its own range (preorder), so that triangle names
// the cell. A node's kept-triangles leaf has the node's depth and so its cell.
Aabb drawnBox(const Octree& octree, uint32_t n, bool cubic) {
  if (!cubic) return octree.nodeBounds(n);
  const Aabb root = octree.bounds();
  const glm::vec3 size = root.max - root.min;
  const float rootEdge = std::max(size.x, std::max(size.y, size.z));
  const glm::vec3 lo = (root.min + root.max) * 0.5f - glm::vec3(rootEdge * 0.5f);
  const uint32_t depth = octree.nodeLevel(n);
  const float edge = rootEdge / static_cast<float>(1u << std::min(depth, 30u));
  const uint32_t slot = octree.ownRange(n).first;
  if (slot >= octree.triangleCount() || !(edge > 0.0f)) return octree.nodeBounds(n);
  const Aabb t = octree.triangle(slot).bounds();
  const glm::vec3 c = (t.min + t.max) * 0.5f;
  const float cells = static_cast<float>(1u << std::min(depth, 30u));
  glm::vec3 index = glm::floor((c - lo) / edge);
  index = glm::clamp(index, glm::vec3(0.0f), glm::vec3(cells - 1.0f));
  const glm::vec3 min = lo + index * edge;
  return Aabb{min, min + glm::vec3(edge)};
}

}  // namespace

void resetOverlays(DemoState& s) {
  // The Q view's record names nodes and triangles of the tree it was made on.
  s.queries.shownNodes.clear();
  s.queries.contacts.clear();
  s.queries.capsuleRadius = 0.0f;
  const Octree& octree = s.level.session->octree;
  const int deepest = static_cast<int>(s.level.session->octreeReport.depth);
  std::vector<uint32_t>& perDepth = s.overlay.nodesPerDepth;
  perDepth.assign(static_cast<size_t>(deepest) + 1, 0);
  for (uint32_t n = 0; n < octree.nodeCount(); ++n) {
    const uint32_t d = octree.nodeLevel(n);
    if (d < perDepth.size()) ++perDepth[d];
  }
  if (s.options.overlayDepths) {
    // The user's range, as far as this tree reaches.
    s.overlay.maxDepth = std::min(s.options.overlayDepths->second, deepest);
    s.overlay.minDepth = std::min(s.options.overlayDepths->first, s.overlay.maxDepth);
    if (s.overlay.minDepth != s.options.overlayDepths->first ||
        s.overlay.maxDepth != s.options.overlayDepths->second) {
      std::fprintf(stderr,
                   "warning: --octree-overlay %d:%d: this octree's depths are 0 to %d; showing "
                   "%d:%d\n",
                   s.options.overlayDepths->first, s.options.overlayDepths->second, deepest,
                   s.overlay.minDepth, s.overlay.maxDepth);
    }
    return;
  }
  const DepthRange r = defaultOverlayDepths(perDepth);
  s.overlay.minDepth = r.min;
  s.overlay.maxDepth = r.max;
}

void buildOctreeOverlay(DemoState& s) {
  s.gpu.lines.clear();
  s.overlay.boxesDrawn = 0;
  if (!s.level.session) return;
  const Octree& octree = s.level.session->octree;
  if (s.culling.frozen) {
    s.gpu.lines.frustum(glm::inverse(s.culling.frozenViewProj), {1.0f, 1.0f, 1.0f, 1.0f});
  }
  if (s.overlay.queryNodes && !octree.empty()) {
    buildQueryView(s, octree);
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
        s.gpu.lines.box(drawnBox(octree, n, s.overlay.cubicCells), octreeDepthColor(depth));
        ++s.overlay.boxesDrawn;
      }
      // Nothing below the range is drawn: no need to go there.
      if (depth >= hi) continue;
      for (uint32_t i = 0; i < octree.childCount(n); ++i) stack[top++] = octree.firstChild(n) + i;
    }
    return;
  }
  for (uint32_t n = 0; n < octree.nodeCount(); ++n) {
    const uint32_t depth = octree.nodeLevel(n);
    if (depth < lo || depth > hi || (s.overlay.leavesOnly && !octree.isLeaf(n))) continue;
    s.gpu.lines.box(drawnBox(octree, n, s.overlay.cubicCells), octreeDepthColor(depth));
    ++s.overlay.boxesDrawn;
  }
}

}  // namespace ofps::app
