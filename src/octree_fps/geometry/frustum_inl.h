#pragma once
// Internal to the core (src/octree_fps): the p-vertex/n-vertex box test with plane masking behind
// classifyAabb, in two forms that decide with the very same float operations, so that the
// octree's cull, the props cull and the grid's cull agree bit for bit:
// - classifyCounted: one box, counting the box-plane tests it runs (cullOctree's statistics);
// - classifyAabb4: four boxes at once (simd4.h lanes), for loops over grid cells.
// Pure functions: thread-safe, no allocation, nothing thrown.
#include <cstdint>
#include <glm/vec3.hpp>

#include "octree_fps/geometry/frustum.h"
#include "octree_fps/geometry/simd4.h"

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

// Four boxes: lane l is the box [lo[a] lane l, hi[a] lane l] on axis a (x, y, z). Each plane in
// mask is tested against every lane (classifyCounted stops at the first plane a box is outside
// of; the outcome, and the mask of a box not outside, are the same). Returns the set of lanes
// Outside (bit l); outMasks[l] is mask with the bits of the planes lane l is fully inside of
// cleared (0: Inside; meaningless for an outside lane). O(planes in the mask).
inline uint32_t classifyAabb4(const Frustum& frustum, const simd::F4 lo[3], const simd::F4 hi[3],
                              uint32_t mask, uint32_t outMasks[4]) {
  const simd::F4 zero = simd::splat(0.0f);
  uint32_t outside = 0;
  for (uint32_t l = 0; l < 4; ++l) outMasks[l] = mask;
  for (uint32_t i = 0; i < 6; ++i) {
    if (((mask >> i) & 1u) == 0) continue;
    const Plane& pl = frustum.planes[i];
    const simd::F4 nx = simd::splat(pl.normal.x), ny = simd::splat(pl.normal.y),
                   nz = simd::splat(pl.normal.z), d = simd::splat(pl.d);
    const bool sx = pl.normal.x >= 0.0f, sy = pl.normal.y >= 0.0f, sz = pl.normal.z >= 0.0f;
    // Left to right, as Plane::signedDistance: ((nx x + ny y) + nz z) + d.
    const simd::F4 sdP =
        nx * (sx ? hi[0] : lo[0]) + ny * (sy ? hi[1] : lo[1]) + nz * (sz ? hi[2] : lo[2]) + d;
    const simd::F4 sdN =
        nx * (sx ? lo[0] : hi[0]) + ny * (sy ? lo[1] : hi[1]) + nz * (sz ? lo[2] : hi[2]) + d;
    outside |= simd::less(sdP, zero);
    const uint32_t in = simd::lessEqual(zero, sdN);  // sdN >= 0 (false for NaN, as the scalar)
    for (uint32_t l = 0; l < 4; ++l) outMasks[l] &= ~(((in >> l) & 1u) << i);
  }
  return outside;
}

}  // namespace ofps::detail
