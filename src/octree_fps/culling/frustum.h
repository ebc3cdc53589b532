#pragma once
// View-frustum culling of octree nodes.
//
// Frame: world space (the same as the octree). Planes come from a view-projection matrix in
// GLM's column-major convention with OpenGL clip space (-w <= x, y, z <= w): Gribb and Hartmann,
// "Fast Extraction of Viewing Frustum Planes from the World-View-Projection Matrix" (2001).
// The box test is the p-vertex/n-vertex method (Haines and Wallace 1994; Assarsson and Möller,
// "Optimized View Frustum Culling Algorithms for Bounding Boxes", 2000) with plane masking: a box
// fully inside plane i clears bit i for everything inside it, so children skip that plane.
// Everything here is pure or const: thread-safe, no allocation, nothing thrown.

#include <array>
#include <cstdint>
#include <type_traits>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "octree_fps/geometry/aabb.h"

namespace ofps {

class Octree;

// The closed half-space dot(normal, x) + d >= 0 is "inside". normal is unit length.
struct Plane {
  glm::vec3 normal{0.0f, 1.0f, 0.0f};
  float d = 0.0f;
  float signedDistance(const glm::vec3& p) const { return normal.x * p.x + normal.y * p.y + normal.z * p.z + d; }
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
// touching a plane from outside counts as intersecting (closed sets).
Containment classifyAabb(const Frustum& frustum, const Aabb& box, uint32_t& ioPlaneMask);

struct CullStats {
  uint32_t nodesVisited = 0;     // nodes whose box was classified
  uint32_t planeTests = 0;       // box-plane tests run (plane masking makes this smaller)
  uint32_t rangesReported = 0;   // visitor calls
  uint32_t trianglesVisible = 0; // triangles in the reported ranges
};

// Called per visible range: `node` is the node, `range` its own triangles (wholeSubtree false:
// the node intersects the frustum, its children are classified separately) or its whole subtree
// (wholeSubtree true: the node is fully inside; its descendants are not visited or reported).
// Ranges are in triangle slots (Octree::triangleOrder()). Empty own ranges are not reported.
using CullVisitor = void (*)(void* context, uint32_t node, uint32_t first, uint32_t count,
                             bool wholeSubtree);

// Visits the octree's nodes whose bounds (Octree::nodeBounds: tight, rounded outward to the
// quantization grid) are not outside the frustum, in preorder, and
// reports their triangle ranges. Iterative on a fixed stack; adds to *ioStats when given.
void cullOctree(const Octree& octree, const Frustum& frustum, CullVisitor visitor, void* context,
                CullStats* ioStats = nullptr);

template <class F>
void cullOctree(const Octree& octree, const Frustum& frustum, F&& f, CullStats* ioStats = nullptr) {
  cullOctree(
      octree, frustum,
      [](void* ctx, uint32_t node, uint32_t first, uint32_t count, bool whole) {
        (*static_cast<std::remove_reference_t<F>*>(ctx))(node, first, count, whole);
      },
      &f, ioStats);
}

}  // namespace ofps
