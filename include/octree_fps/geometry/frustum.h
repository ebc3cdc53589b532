#pragma once
// View-frustum primitives: planes, the frustum from a view-projection matrix, and the box test.
//
// Frame: world space (the same as the boxes tested). Planes come from a view-projection matrix in
// GLM's column-major convention with OpenGL clip space (-w <= x, y, z <= w): Gribb and Hartmann,
// "Fast Extraction of Viewing Frustum Planes from the World-View-Projection Matrix" (2001).
// The box test is the p-vertex/n-vertex method (Haines and Wallace 1994; Assarsson and Möller,
// "Optimized View Frustum Culling Algorithms for Bounding Boxes", 2000) with plane masking: a box
// fully inside plane i clears bit i for everything inside it, so children skip that plane.
// The counting and four-wide forms of the test are in geometry/frustum_inl.h (internal to the
// core).
// Everything here is pure or const: thread-safe, no allocation, nothing thrown.

#include <array>
#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "octree_fps/geometry/aabb.h"

namespace ofps {

// The closed half-space dot(normal, x) + d >= 0 is "inside". normal is unit length.
struct Plane {
  glm::vec3 normal{0.0f, 1.0f, 0.0f};
  float d = 0.0f;
  float signedDistance(const glm::vec3& p) const {
    return normal.x * p.x + normal.y * p.y + normal.z * p.z + d;
  }
};

inline constexpr uint32_t kFrustumAllPlanes = 0x3Fu;  // one bit per plane

struct Frustum {
  // Left, right, bottom, top, near, far; normals point inward.
  std::array<Plane, 6> planes{};

  // From projection * view (GLM column-major, OpenGL clip space -w..w). Planes are normalised.
  static Frustum fromViewProjection(const glm::mat4& viewProjection);
};

enum class Containment : uint8_t {
  Outside,       // entirely outside at least one plane
  Intersecting,  // neither (conservative: may in fact be outside near a frustum corner)
  Inside,        // entirely inside every plane tested
};

// Classifies the closed box against the planes whose bits are set in ioPlaneMask, and clears the
// bit of every plane the box is fully inside of (pass the result to the box's children). A box
// touching a plane from outside counts as intersecting (closed sets). O(planes in the mask).
Containment classifyAabb(const Frustum& frustum, const Aabb& box, uint32_t& ioPlaneMask);

}  // namespace ofps
