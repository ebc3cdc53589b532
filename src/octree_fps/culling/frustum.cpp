// Octree culling (contracts in culling/frustum.h).
#include "octree_fps/culling/frustum.h"

#include "octree_fps/culling/frustum_walk_inl.h"

namespace ofps {

void cullOctree(const Octree& octree, const Frustum& frustum, CullVisitor visitor, void* context,
                CullStats* ioStats) {
  CullStats st;
  detail::NoFrustumHooks hooks;
  detail::walkOctreeFrustum(octree, frustum, visitor, context, hooks, st);
  if (ioStats) *ioStats += st;
}

}  // namespace ofps
