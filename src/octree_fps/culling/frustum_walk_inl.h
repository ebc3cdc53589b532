#pragma once
// The octree's frustum walk, written once: the level cull (cullOctree) and the props cull
// (cullLevelAndProps) are its clients, each adding its own work at the nodes through hooks.
// Internal (included by culling/*.cpp only); contracts of the walk in culling/frustum.h.
//
// Preorder on a fixed stack of (node, inherited plane mask), plane masking after Assarsson and
// Möller (2000): a node fully inside plane i clears bit i for its whole subtree. Per node:
// - outside: skipped with its subtree;
// - inside: its whole subtree range is reported, then hooks.inside(node); nothing below is
//   visited;
// - intersecting: its own range is reported (when not empty), then hooks.intersecting(node,
//   mask) with the planes the node still straddles, then its children are visited.
// Allocation-free, no exceptions; the hooks run in the walk's thread.

#include <cstdint>

#include "octree_fps/culling/frustum.h"
#include "octree_fps/geometry/frustum_inl.h"
#include "octree_fps/spatial/octree.h"

namespace ofps::detail {

// Hooks that add nothing: the level cull alone.
struct NoFrustumHooks {
  void inside(uint32_t /*node*/) {}
  void intersecting(uint32_t /*node*/, uint32_t /*mask*/) {}
};

// visitor may be null (only the hooks' work is wanted). Adds to st.
template <class Hooks>
inline void walkOctreeFrustum(const Octree& octree, const Frustum& frustum, CullVisitor visitor,
                              void* context, Hooks& hooks, CullStats& st) {
  if (octree.nodeCount() == 0) return;
  struct Entry {
    uint32_t node;
    uint32_t mask;
  };
  // A node's pending siblings plus its children never exceed kOctreeMaxChildren per level.
  Entry stack[kOctreeStackSize];
  uint32_t top = 0;
  stack[top++] = {0, kFrustumAllPlanes};
  while (top > 0) {
    const Entry e = stack[--top];
    const Aabb box = octree.nodeBounds(e.node);
    ++st.nodesVisited;
    uint32_t mask = e.mask;
    const Containment c = classifyCounted(frustum, box.min, box.max, mask, st.planeTests);
    if (c == Containment::Outside) continue;
    if (c == Containment::Inside) {
      const TriangleRange r = octree.subtreeRange(e.node);
      ++st.rangesReported;
      st.trianglesVisible += r.count;
      if (visitor != nullptr) visitor(context, e.node, r.first, r.count, true);
      hooks.inside(e.node);
      continue;
    }
    const TriangleRange own = octree.ownRange(e.node);
    if (own.count > 0) {
      ++st.rangesReported;
      st.trianglesVisible += own.count;
      if (visitor != nullptr) visitor(context, e.node, own.first, own.count, false);
    }
    hooks.intersecting(e.node, mask);
    // Children last-first, so that they pop in order (preorder, as the triangle slots).
    const uint32_t first = octree.firstChild(e.node);
    for (uint32_t i = octree.childCount(e.node); i-- > 0;) stack[top++] = {first + i, mask};
  }
}

}  // namespace ofps::detail
