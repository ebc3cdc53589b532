// Octree culling (contracts in culling/frustum.h).
#include "octree_fps/culling/frustum.h"

#include "octree_fps/geometry/frustum_inl.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {

void cullOctree(const Octree& octree, const Frustum& frustum, CullVisitor visitor, void* context,
                CullStats* ioStats) {
  const uint32_t nc = octree.nodeCount();
  if (nc == 0) return;
  CullStats st;
  struct Entry {
    uint32_t node;
    uint32_t mask;
  };
  // Preorder with a stack of (node, inherited plane mask). Siblings are pushed last-first; a
  // node's pending siblings plus its children never exceed kOctreeMaxChildren per level.
  Entry stack[kOctreeStackSize];
  uint32_t top = 0;
  stack[top++] = {0, kFrustumAllPlanes};
  while (top > 0) {
    const Entry e = stack[--top];
    const Aabb box = octree.nodeBounds(e.node);
    ++st.nodesVisited;
    uint32_t mask = e.mask;
    const Containment c = detail::classifyCounted(frustum, box.min, box.max, mask, st.planeTests);
    if (c == Containment::Outside) continue;
    if (c == Containment::Inside) {
      const TriangleRange r = octree.subtreeRange(e.node);
      ++st.rangesReported;
      st.trianglesVisible += r.count;
      visitor(context, e.node, r.first, r.count, true);
      continue;
    }
    const TriangleRange own = octree.ownRange(e.node);
    if (own.count > 0) {
      ++st.rangesReported;
      st.trianglesVisible += own.count;
      visitor(context, e.node, own.first, own.count, false);
    }
    // Children last-first, so that they pop in order (preorder, as the triangle slots).
    const uint32_t first = octree.firstChild(e.node);
    for (uint32_t i = octree.childCount(e.node); i-- > 0;) stack[top++] = {first + i, mask};
  }
  if (ioStats) *ioStats += st;
}

}  // namespace ofps
