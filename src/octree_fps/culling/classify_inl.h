#pragma once
// Internal to src/octree_fps/culling: the p-vertex/n-vertex box test with plane masking behind
// classifyAabb, counting the box-plane tests it runs. Shared by cullOctree and the props cull
// (props_cull.cpp) so that both decide with the very same float operations.
#include <cstdint>

#include <glm/vec3.hpp>

#include "octree_fps/culling/frustum.h"

namespace ofps::detail {

inline Containment classifyCounted(const Frustum& frustum, const glm::vec3& bmin,
                                   const glm::vec3& bmax, uint32_t& ioMask, uint32_t& tests) {
  for (uint32_t i = 0; i < 6; ++i) {
    const uint32_t bit = 1u << i;
    if ((ioMask & bit) == 0) continue;
    ++tests;
    const Plane& pl = frustum.planes[i];
    // p-vertex: the corner farthest along the normal; n-vertex: the nearest.
    const glm::vec3 pv(pl.normal.x >= 0.0f ? bmax.x : bmin.x, pl.normal.y >= 0.0f ? bmax.y : bmin.y,
                       pl.normal.z >= 0.0f ? bmax.z : bmin.z);
    if (pl.signedDistance(pv) < 0.0f) return Containment::Outside;
    const glm::vec3 nv(pl.normal.x >= 0.0f ? bmin.x : bmax.x, pl.normal.y >= 0.0f ? bmin.y : bmax.y,
                       pl.normal.z >= 0.0f ? bmin.z : bmax.z);
    if (pl.signedDistance(nv) >= 0.0f) ioMask &= ~bit;
  }
  return ioMask == 0 ? Containment::Inside : Containment::Intersecting;
}

}  // namespace ofps::detail
