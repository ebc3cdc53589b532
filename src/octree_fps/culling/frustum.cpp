// Frustum planes, box classification and octree culling (contracts in frustum.h).
#include "octree_fps/culling/frustum.h"

#include <cmath>

#include "octree_fps/culling/classify_inl.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {

Frustum Frustum::fromViewProjection(const glm::mat4& m) {
  // Row i of the matrix (GLM is column-major: m[col][row]).
  auto row = [&](int i) { return glm::vec4(m[0][i], m[1][i], m[2][i], m[3][i]); };
  const glm::vec4 r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
  const glm::vec4 p[6] = {r3 + r0, r3 - r0, r3 + r1, r3 - r1, r3 + r2, r3 - r2};
  Frustum f;
  for (int i = 0; i < 6; ++i) {
    const glm::vec3 n(p[i].x, p[i].y, p[i].z);
    const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
    const float inv = len > 0.0f ? 1.0f / len : 0.0f;
    f.planes[static_cast<size_t>(i)] = {n * inv, p[i].w * inv};
  }
  return f;
}


Containment classifyAabb(const Frustum& frustum, const Aabb& box, uint32_t& ioPlaneMask) {
  uint32_t tests = 0;
  return detail::classifyCounted(frustum, box.min, box.max, ioPlaneMask, tests);
}

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
  if (ioStats) {
    ioStats->nodesVisited += st.nodesVisited;
    ioStats->planeTests += st.planeTests;
    ioStats->rangesReported += st.rangesReported;
    ioStats->trianglesVisible += st.trianglesVisible;
  }
}

}  // namespace ofps
