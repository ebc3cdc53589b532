#pragma once
// Exact primitive tests of one shape against one triangle: the building blocks of every octree
// query and of the brute-force oracle (include/octree_fps/spatial/brute_force.h).
//
// Conventions, for every function here:
// - Units and frame are the caller's (the demo: world space, metres). No function assumes a unit
//   scale: there is no absolute epsilon anywhere. Comparisons are exact float comparisons on
//   closed sets ("touching counts": a sphere whose surface touches a vertex overlaps it). Scaling
//   all inputs by a power of two gives bit-identical answers; scaling by 1000 or 0.001 gives the
//   same answers except for inputs that graze within float rounding.
// - Triangles are two-sided: winding never changes an answer (a back-facing wall still blocks).
//   Where a direction must be chosen and geometry cannot decide it (a sphere centre exactly on
//   the triangle's plane), the winding normal v0->v1->v2 (right-handed) is used, and this is said.
// - Degenerate triangles (zero area: collinear or coincident vertices) are treated as the segment
//   or point they are. The ray test never hits them (a ray meets a segment only by grazing).
// - Radii are >= 0; a radius of 0 makes a sphere a point and a capsule a segment.
// - Thread-safety: all functions are pure. No function allocates or throws.
//
// Sources: Ericson, "Real-Time Collision Detection" (2005): closest point on triangle (§5.1.5),
// segment-segment (§5.1.9), triangle-box SAT (§5.2.9, after Akenine-Möller 2001). Möller and
// Trumbore, "Fast, Minimum Storage Ray/Triangle Intersection" (1997). Swept sphere: Fauerby,
// "Improved Collision detection and Response" (2003) and Ericson §5.5.7. Swept capsule: see
// sweepCapsuleTriangle below.

#include <cstdint>
#include <glm/vec3.hpp>

#include "octree_fps/geometry/aabb.h"

namespace ofps {

// ---- Distances ---------------------------------------------------------------------------------

// The point of the closed triangle nearest to p.
glm::vec3 closestPointOnTriangle(const glm::vec3& p, const Triangle& tri);

// Closest points between closed segments [p1, q1] and [p2, q2]. Writes the parameters
// (outS along segment 1, outT along segment 2, both in [0, 1]) and the two points; returns the
// squared distance. Zero-length segments are points. For parallel segments any closest pair is
// returned (deterministically).
float closestPointsSegmentSegment(const glm::vec3& p1, const glm::vec3& q1, const glm::vec3& p2,
                                  const glm::vec3& q2, float& outS, float& outT,
                                  glm::vec3& outOnFirst, glm::vec3& outOnSecond);

// Closest points between the closed segment [p, q] and the closed triangle; returns the squared
// distance (0 when the segment touches or crosses the triangle; then both points are a common
// point).
float closestPointsSegmentTriangle(const glm::vec3& p, const glm::vec3& q, const Triangle& tri,
                                   glm::vec3& outOnSegment, glm::vec3& outOnTriangle);

// ---- Ray ---------------------------------------------------------------------------------------

// Ray origin + t * dir against the closed triangle, two-sided. dir need not be unit length; t is
// measured in multiples of dir (a distance when dir is unit). Hits with t in [0, tMax] count.
// Returns false for a ray in the triangle's plane and for degenerate triangles. On a hit writes
// outT. Möller-Trumbore without division until a hit is certain.
bool rayTriangle(const glm::vec3& origin, const glm::vec3& dir, float tMax, const Triangle& tri,
                 float& outT);

// Unit geometric normal of the triangle that faces the point `toward` (for a ray hit pass the
// ray origin). Zero vector for a degenerate triangle.
glm::vec3 triangleNormalFacing(const Triangle& tri, const glm::vec3& toward);

// ---- Overlap (closed sets: touching counts) ----------------------------------------------------

bool sphereOverlapsTriangle(const glm::vec3& center, float radius, const Triangle& tri);
// Capsule: every point within `radius` of the segment [a, b].
bool capsuleOverlapsTriangle(const glm::vec3& a, const glm::vec3& b, float radius,
                             const Triangle& tri);
// Axis-aligned box, closed. Separating-axis test on the 13 axes (Akenine-Möller), no epsilon.
bool boxOverlapsTriangle(const Aabb& box, const Triangle& tri);
// The same two tests with isDegenerateTriangle(tri) computed by the caller (the octree stores
// it per triangle); `degenerate` must equal it, then the answers are identical.
bool sphereOverlapsTriangle(const glm::vec3& center, float radius, const Triangle& tri,
                            bool degenerate);
bool capsuleOverlapsTriangle(const glm::vec3& a, const glm::vec3& b, float radius,
                             const Triangle& tri, bool degenerate);

// ---- Contacts: how to push a shape out of one triangle ------------------------------------------

// Translating the shape by normal * depth makes it just touch the triangle (not overlap).
// normal is unit length and points from the triangle toward the shape; depth >= 0.
struct TriangleContact {
  glm::vec3 normal{0.0f};
  float depth = 0.0f;
};

// Returns false when the shapes do not overlap (outContact untouched).
// Sphere: normal along (centre - closest point), depth = radius - distance: the exact minimal
// translation. A centre exactly on the triangle uses the winding normal and depth = radius.
bool sphereTriangleContact(const glm::vec3& center, float radius, const Triangle& tri,
                           TriangleContact& outContact);
// Capsule: when the segment does not touch the triangle, the exact minimal translation along
// (segment point - triangle point), depth = radius - distance. When the segment touches or
// crosses the triangle, the push is along the triangle normal toward the side of the segment's
// midpoint (winding normal if the midpoint is on the plane), with the depth that lifts the
// deeper endpoint to `radius` above the plane; for a degenerate triangle, perpendicular to both
// segments. Not always the minimal translation in that case, but it always separates.
bool capsuleTriangleContact(const glm::vec3& a, const glm::vec3& b, float radius,
                            const Triangle& tri, TriangleContact& outContact);
// Box: the exact minimal translation (penetration depth) found on the 13 separating axes.
bool boxTriangleContact(const Aabb& box, const Triangle& tri, TriangleContact& outContact);

// ---- Sweeps: the first time of contact of a moving shape ----------------------------------------

struct SweepContact {
  float toi = 1.0f;        // time of impact in [0, 1]: the shape moved by toi * displacement
  glm::vec3 point{0.0f};   // contact point on the triangle at toi
  glm::vec3 normal{0.0f};  // unit, from the triangle toward the shape at toi
  bool startsOverlapping = false;  // true when the shape overlaps at t = 0 (then toi = 0 and
                                   // normal is the push-out direction of the *Contact functions)
};

// The shape moves by t * displacement, t in [0, 1]. Returns true and the earliest t at which the
// closed shape touches the closed triangle; false if it never does. Analytic, no stepping: a
// shape cannot tunnel through a thin triangle at any speed.
// Sphere: the minimum over the face-plane contact (point inside the triangle), the three edge
// cylinders and the three vertex spheres (Fauerby 2003, Ericson §5.5.7).
bool sweepSphereTriangle(const glm::vec3& center, float radius, const glm::vec3& displacement,
                         const Triangle& tri, SweepContact& outContact);
// Capsule [a, b] with radius r: the capsule first touches T at the first t where the distance
// between the moved segment and T equals r. At that moment the closest pair of features is one
// of: a segment endpoint vs the triangle (the swept spheres at a and b), a triangle vertex vs the
// segment interior (ray from the vertex along -displacement against the capsule's cylinder), or a
// triangle edge vs the segment interior (the distance between the two lines changes linearly
// with t; solve for r and check both closest points lie inside their segments). The minimum of
// these candidates is exact.
bool sweepCapsuleTriangle(const glm::vec3& a, const glm::vec3& b, float radius,
                          const glm::vec3& displacement, const Triangle& tri,
                          SweepContact& outContact);

}  // namespace ofps

#include "octree_fps/geometry/triangle_tests_inl.h"
