// Primitive tests against one triangle: hand-computed cases, and randomized checks against
// independent references (double precision, different formulas, sampling), so that a wrong
// primitive cannot agree with itself through the brute-force oracle.
#include "octree_fps/geometry/triangle_tests.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <vector>

namespace ofps {
namespace {

const Triangle kT{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};  // in z = 0, winding normal +Z
const Triangle kTFlipped{{0, 0, 0}, {0, 1, 0}, {1, 0, 0}};

void expectVecNear(const glm::vec3& a, const glm::vec3& b, float tol = 1e-5f) {
  EXPECT_NEAR(a.x, b.x, tol);
  EXPECT_NEAR(a.y, b.y, tol);
  EXPECT_NEAR(a.z, b.z, tol);
}

// ---- Hand-computed cases ------------------------------------------------------------------------

TEST(ClosestPoint, Regions) {
  expectVecNear(closestPointOnTriangle({0.25f, 0.25f, 1}, kT), {0.25f, 0.25f, 0});  // face
  expectVecNear(closestPointOnTriangle({-1, -1, 0}, kT), {0, 0, 0});                // vertex
  expectVecNear(closestPointOnTriangle({2, -1, 0}, kT), {1, 0, 0});                 // vertex
  expectVecNear(closestPointOnTriangle({0.5f, -1, 3}, kT), {0.5f, 0, 0});           // edge
  expectVecNear(closestPointOnTriangle({1, 1, 0}, kT), {0.5f, 0.5f, 0});            // hypotenuse
  expectVecNear(closestPointOnTriangle({0.2f, 0.2f, 0}, kT), {0.2f, 0.2f, 0});      // inside
  // Degenerate: a segment and a point.
  const Triangle seg{{0, 0, 0}, {2, 0, 0}, {1, 0, 0}};
  expectVecNear(closestPointOnTriangle({1.5f, 1, 0}, seg), {1.5f, 0, 0});
  const Triangle pt{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}};
  expectVecNear(closestPointOnTriangle({0, 0, 0}, pt), {1, 1, 1});
}

TEST(SphereTriangle, HandComputed) {
  EXPECT_TRUE(sphereOverlapsTriangle({0.25f, 0.25f, 0.5f}, 0.5f, kT));  // touches the face
  EXPECT_FALSE(sphereOverlapsTriangle({0.25f, 0.25f, 0.5f}, 0.499f, kT));
  EXPECT_TRUE(sphereOverlapsTriangle({0.25f, 0.25f, -0.5f}, 0.5f, kT));  // behind: two-sided
  EXPECT_TRUE(sphereOverlapsTriangle({-3, -4, 0}, 5.0f, kT));            // touches a vertex
  EXPECT_FALSE(sphereOverlapsTriangle({-3, -4, 0}, 4.999f, kT));
  EXPECT_TRUE(sphereOverlapsTriangle({0.5f, -0.5f, 0}, 0.5f, kT));  // touches an edge
  EXPECT_FALSE(sphereOverlapsTriangle({0.5f, -0.5f, 0}, 0.499f, kT));
  EXPECT_TRUE(sphereOverlapsTriangle({0.2f, 0.2f, 0}, 0.01f, kT));  // centre inside
  EXPECT_TRUE(sphereOverlapsTriangle({0.2f, 0.2f, 0}, 0.0f, kT));   // a point on it
  TriangleContact c;
  ASSERT_TRUE(sphereTriangleContact({0.25f, 0.25f, 0.3f}, 0.5f, kT, c));
  expectVecNear(c.normal, {0, 0, 1});
  EXPECT_NEAR(c.depth, 0.2f, 1e-6f);
  ASSERT_TRUE(sphereTriangleContact({0.25f, 0.25f, -0.3f}, 0.5f, kTFlipped, c));
  expectVecNear(c.normal, {0, 0, -1});  // from behind: pushed back the way it came
  EXPECT_NEAR(c.depth, 0.2f, 1e-6f);
  ASSERT_TRUE(sphereTriangleContact({0.5f, -0.3f, 0}, 0.5f, kT, c));
  expectVecNear(c.normal, {0, -1, 0});
  EXPECT_NEAR(c.depth, 0.2f, 1e-6f);
}

TEST(RayTriangle, HandComputed) {
  float t;
  ASSERT_TRUE(rayTriangle({0.25f, 0.25f, 1}, {0, 0, -1}, 10, kT, t));
  EXPECT_FLOAT_EQ(t, 1.0f);
  ASSERT_TRUE(rayTriangle({0.25f, 0.25f, -1}, {0, 0, 1}, 10, kT, t));  // back face
  EXPECT_FLOAT_EQ(t, 1.0f);
  EXPECT_TRUE(rayTriangle({0, 0, 1}, {0, 0, -1}, 10, kT, t));          // through a vertex
  EXPECT_TRUE(rayTriangle({0.5f, 0, 1}, {0, 0, -1}, 10, kT, t));       // through an edge
  EXPECT_TRUE(rayTriangle({0.5f, 0.5f, 1}, {0, 0, -1}, 10, kT, t));    // through the hypotenuse
  EXPECT_FALSE(rayTriangle({0.6f, 0.6f, 1}, {0, 0, -1}, 10, kT, t));   // just outside
  EXPECT_FALSE(rayTriangle({-1, 0.25f, 0}, {1, 0, 0}, 10, kT, t));     // in the plane: parallel
  EXPECT_FALSE(rayTriangle({0.25f, 0.25f, 1}, {0, 0, 1}, 10, kT, t));  // pointing away
  EXPECT_FALSE(rayTriangle({0.25f, 0.25f, 1}, {0, 0, -1}, 0.999f, kT, t));
  EXPECT_TRUE(rayTriangle({0.25f, 0.25f, 1}, {0, 0, -1}, 1.0f, kT, t));  // tMax closed
  EXPECT_TRUE(rayTriangle({0.25f, 0.25f, 0}, {0, 0, -1}, 1.0f, kT, t));  // origin on it: t = 0
  EXPECT_EQ(t, 0.0f);
  ASSERT_TRUE(rayTriangle({0.25f, 0.25f, 2}, {0, 0, -2}, 10, kT, t));  // t in units of dir
  EXPECT_FLOAT_EQ(t, 1.0f);
  const Triangle seg{{0, 0, 0}, {2, 0, 0}, {1, 0, 0}};
  EXPECT_FALSE(rayTriangle({1, 0, 1}, {0, 0, -1}, 10, seg, t));  // degenerate: never hit
  EXPECT_EQ(triangleNormalFacing(kT, {0, 0, 5}), glm::vec3(0, 0, 1));
  EXPECT_EQ(triangleNormalFacing(kT, {0, 0, -5}), glm::vec3(0, 0, -1));
  EXPECT_EQ(triangleNormalFacing(kTFlipped, {0, 0, 5}), glm::vec3(0, 0, 1));
}

TEST(CapsuleTriangle, HandComputed) {
  EXPECT_TRUE(capsuleOverlapsTriangle({0.25f, 0.25f, 1}, {0.25f, 0.25f, 2}, 1.0f, kT));
  EXPECT_FALSE(capsuleOverlapsTriangle({0.25f, 0.25f, 1}, {0.25f, 0.25f, 2}, 0.99f, kT));
  EXPECT_TRUE(capsuleOverlapsTriangle({0.25f, 0.25f, -1}, {0.25f, 0.25f, 1}, 0.0f, kT));  // crosses
  EXPECT_TRUE(
      capsuleOverlapsTriangle({-1, 0.5f, 0.5f}, {2, 0.5f, 0.5f}, 0.5f, kT));  // parallel above
  EXPECT_FALSE(capsuleOverlapsTriangle({-1, 0.5f, 0.5f}, {2, 0.5f, 0.5f}, 0.49f, kT));
  EXPECT_TRUE(capsuleOverlapsTriangle({-1, -0.5f, 0}, {2, -0.5f, 0}, 0.5f, kT));  // beside an edge
  EXPECT_FALSE(capsuleOverlapsTriangle({-1, -0.5f, 0}, {2, -0.5f, 0}, 0.49f, kT));
  EXPECT_TRUE(capsuleOverlapsTriangle({-3, -4, -1}, {-3, -4, 1}, 5.0f, kT));  // touches a vertex
  EXPECT_FALSE(capsuleOverlapsTriangle({-3, -4, -1}, {-3, -4, 1}, 4.999f, kT));
  TriangleContact c;
  // Segment crossing the face: pushed to the midpoint's side, deeper end lifted to r.
  ASSERT_TRUE(capsuleTriangleContact({0.25f, 0.25f, -0.2f}, {0.25f, 0.25f, 1.0f}, 0.1f, kT, c));
  expectVecNear(c.normal, {0, 0, 1});
  EXPECT_NEAR(c.depth, 0.3f, 1e-6f);
  ASSERT_TRUE(capsuleTriangleContact({-1, 0.5f, 0.3f}, {2, 0.5f, 0.3f}, 0.5f, kT, c));
  expectVecNear(c.normal, {0, 0, 1});
  EXPECT_NEAR(c.depth, 0.2f, 1e-6f);
}

TEST(BoxTriangle, HandComputed) {
  EXPECT_TRUE(boxOverlapsTriangle({{0.2f, 0.2f, 0}, {0.3f, 0.3f, 1}}, kT));  // touches face
  EXPECT_FALSE(boxOverlapsTriangle({{0.2f, 0.2f, 0.0001f}, {0.3f, 0.3f, 1}}, kT));
  EXPECT_TRUE(boxOverlapsTriangle({{0.2f, 0.2f, -1}, {0.3f, 0.3f, 0}}, kT));  // behind
  EXPECT_TRUE(boxOverlapsTriangle({{-1, -1, -1}, {0, 0, 0}}, kT));            // corner at vertex
  EXPECT_FALSE(boxOverlapsTriangle({{0.6f, 0.6f, -1}, {1, 1, 1}}, kT));       // past hypotenuse
  EXPECT_TRUE(boxOverlapsTriangle({{0.5f, 0.5f, -1}, {1, 1, 1}}, kT));        // touches it
  EXPECT_TRUE(boxOverlapsTriangle({{-5, -5, -5}, {5, 5, 5}}, kT));            // contains it
  EXPECT_TRUE(boxOverlapsTriangle({{0.1f, 0.1f, -0.01f}, {0.2f, 0.2f, 0.01f}}, kT));  // inside face
  // A segment triangle crossing the box diagonally without a vertex inside.
  const Triangle seg{{-1, 0.5f, 0.5f}, {2, 0.5f, 0.5f}, {0.5f, 0.5f, 0.5f}};
  EXPECT_TRUE(boxOverlapsTriangle({{0, 0, 0}, {1, 1, 1}}, seg));
  TriangleContact c;
  ASSERT_TRUE(boxTriangleContact({{0.2f, 0.2f, -0.1f}, {0.3f, 0.3f, 0.5f}}, kT, c));
  expectVecNear(c.normal, {0, 0, 1});
  EXPECT_NEAR(c.depth, 0.1f, 1e-6f);
}

TEST(SweepSphere, HandComputed) {
  SweepContact c;
  ASSERT_TRUE(sweepSphereTriangle({0.25f, 0.25f, 2}, 0.5f, {0, 0, -4}, kT, c));  // face
  EXPECT_NEAR(c.toi, 0.375f, 1e-6f);
  expectVecNear(c.normal, {0, 0, 1});
  expectVecNear(c.point, {0.25f, 0.25f, 0});
  EXPECT_FALSE(c.startsOverlapping);
  ASSERT_TRUE(sweepSphereTriangle({0.25f, 0.25f, -2}, 0.5f, {0, 0, 4}, kT, c));  // back face
  EXPECT_NEAR(c.toi, 0.375f, 1e-6f);
  expectVecNear(c.normal, {0, 0, -1});
  ASSERT_TRUE(sweepSphereTriangle({0.5f, -2, 0}, 0.5f, {0, 4, 0}, kT, c));  // edge, in plane
  EXPECT_NEAR(c.toi, 0.375f, 1e-6f);
  expectVecNear(c.normal, {0, -1, 0});
  ASSERT_TRUE(sweepSphereTriangle({-2, -2, 0}, 0.5f, {4, 4, 0}, kT, c));  // vertex
  EXPECT_NEAR(c.toi, (2.0f * std::sqrt(2.0f) - 0.5f) / (4.0f * std::sqrt(2.0f)), 1e-6f);
  expectVecNear(c.normal, glm::vec3(-1, -1, 0) / std::sqrt(2.0f));
  EXPECT_FALSE(sweepSphereTriangle({5, 5, 5}, 0.5f, {1, 0, 0}, kT, c));              // miss
  EXPECT_FALSE(sweepSphereTriangle({0.25f, 0.25f, 2}, 0.5f, {0, 0, 1}, kT, c));      // moving away
  EXPECT_FALSE(sweepSphereTriangle({0.25f, 0.25f, 2}, 0.5f, {0, 0, -1.4f}, kT, c));  // stops short
  // Touching exactly at the end counts.
  EXPECT_TRUE(sweepSphereTriangle({0.25f, 0.25f, 2}, 0.5f, {0, 0, -1.5f}, kT, c));
  // No tunnelling: a thin triangle, a huge displacement.
  ASSERT_TRUE(sweepSphereTriangle({0.25f, 0.25f, 1000}, 0.1f, {0, 0, -1e6f}, kT, c));
  EXPECT_NEAR(c.toi, (1000.0f - 0.1f) / 1e6f, 1e-7f);
  // Starting inside: toi 0 and the push-out direction.
  ASSERT_TRUE(sweepSphereTriangle({0.25f, 0.25f, 0.1f}, 0.5f, {1, 0, 0}, kT, c));
  EXPECT_EQ(c.toi, 0.0f);
  EXPECT_TRUE(c.startsOverlapping);
  expectVecNear(c.normal, {0, 0, 1});
}

TEST(SweepCapsule, HandComputed) {
  SweepContact c;
  ASSERT_TRUE(sweepCapsuleTriangle({0.25f, 0.25f, 2}, {0.25f, 0.25f, 3}, 0.5f, {0, 0, -4}, kT, c));
  EXPECT_NEAR(c.toi, 0.375f, 1e-6f);
  expectVecNear(c.normal, {0, 0, 1});
  // Segment interior against an edge (edge-edge case).
  ASSERT_TRUE(sweepCapsuleTriangle({0.5f, -2, -1}, {0.5f, -2, 1}, 0.5f, {0, 4, 0}, kT, c));
  EXPECT_NEAR(c.toi, 0.375f, 1e-6f);
  expectVecNear(c.normal, {0, -1, 0});
  expectVecNear(c.point, {0.5f, 0, 0});
  // Capsule side against a vertex.
  ASSERT_TRUE(sweepCapsuleTriangle({-2, -2, -1}, {-2, -2, 1}, 0.5f, {4, 4, 0}, kT, c));
  EXPECT_NEAR(c.toi, (2.0f * std::sqrt(2.0f) - 0.5f) / (4.0f * std::sqrt(2.0f)), 1e-6f);
  expectVecNear(c.point, {0, 0, 0});
  // Lying capsule falling flat onto the face.
  ASSERT_TRUE(sweepCapsuleTriangle({-3, 0.3f, 1}, {3, 0.3f, 1}, 0.25f, {0, 0, -2}, kT, c));
  EXPECT_NEAR(c.toi, 0.375f, 1e-6f);
  // Miss beside the triangle.
  EXPECT_FALSE(sweepCapsuleTriangle({3, 3, -1}, {3, 3, 1}, 0.5f, {0, 5, 0}, kT, c));
  // No tunnelling through a thin wall.
  ASSERT_TRUE(
      sweepCapsuleTriangle({0.2f, 0.2f, 500}, {0.2f, 0.2f, 501}, 0.05f, {0, 0, -1e5f}, kT, c));
  EXPECT_NEAR(c.toi, (500.0f - 0.05f) / 1e5f, 1e-7f);
}

// ---- Independent references --------------------------------------------------------------------

struct D3 {
  double x, y, z;
};
D3 d3(const glm::vec3& v) {
  return {v.x, v.y, v.z};
}
D3 operator-(D3 a, D3 b) {
  return {a.x - b.x, a.y - b.y, a.z - b.z};
}
D3 operator+(D3 a, D3 b) {
  return {a.x + b.x, a.y + b.y, a.z + b.z};
}
D3 operator*(D3 a, double s) {
  return {a.x * s, a.y * s, a.z * s};
}
double dot(D3 a, D3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
D3 cross(D3 a, D3 b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}

double refPointSegment(D3 p, D3 a, D3 b) {
  const D3 ab = b - a;
  const double l = dot(ab, ab);
  double t = l > 0 ? dot(p - a, ab) / l : 0;
  t = std::clamp(t, 0.0, 1.0);
  const D3 d = p - (a + ab * t);
  return std::sqrt(dot(d, d));
}

// Distance point-triangle by a different method: projection onto the plane with barycentric
// coordinates when inside, else the nearest edge.
double refPointTriangle(D3 p, const Triangle& tri) {
  const D3 a = d3(tri.v0), b = d3(tri.v1), c = d3(tri.v2);
  const D3 n = cross(b - a, c - a);
  const double nn = dot(n, n);
  double best =
      std::min({refPointSegment(p, a, b), refPointSegment(p, b, c), refPointSegment(p, c, a)});
  if (nn > 0) {
    const D3 q = p - n * (dot(p - a, n) / nn);
    const double u = dot(cross(c - b, q - b), n), v = dot(cross(a - c, q - c), n),
                 w = dot(cross(b - a, q - a), n);
    if (u >= 0 && v >= 0 && w >= 0) best = std::min(best, std::fabs(dot(p - a, n)) / std::sqrt(nn));
  }
  return best;
}

// Segment-triangle distance by dense sampling of the segment plus a crossing check.
double refSegmentTriangle(D3 p, D3 q, const Triangle& tri, int samples = 400) {
  double best = 1e300;
  for (int i = 0; i <= samples; ++i) {
    const double s = static_cast<double>(i) / samples;
    best = std::min(best, refPointTriangle(p + (q - p) * s, tri));
  }
  return best;
}

Triangle randomTriangle(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-2.0f, 2.0f);
  const int kind = static_cast<int>(rng() % 6u);
  glm::vec3 a(u(rng), u(rng), u(rng)), b(u(rng), u(rng), u(rng)), c(u(rng), u(rng), u(rng));
  if (kind == 0) c = a + (b - a) * 0.5f + glm::vec3(u(rng), u(rng), u(rng)) * 1e-3f;  // sliver
  if (kind == 1) c = a + (b - a) * 0.3f;                                              // segment
  if (kind == 2) a.z = b.z = c.z = 0.5f;  // axis-aligned
  return {a, b, c};
}

glm::vec3 randomPoint(std::mt19937& rng, float lim = 3.0f) {
  std::uniform_real_distribution<float> u(-lim, lim);
  return {u(rng), u(rng), u(rng)};
}

TEST(PrimitiveReference, ClosestPointAndSphereAgreeWithIndependentFormula) {
  std::mt19937 rng(101);
  std::uniform_real_distribution<float> ur(0.0f, 2.0f);
  int decided = 0;
  for (int i = 0; i < 20000; ++i) {
    const Triangle t = randomTriangle(rng);
    const glm::vec3 p = randomPoint(rng);
    const double ref = refPointTriangle(d3(p), t);
    const glm::vec3 cp = closestPointOnTriangle(p, t);
    const glm::vec3 d = p - cp;
    const double got = std::sqrt(static_cast<double>(glm::dot(d, d)));
    ASSERT_NEAR(got, ref, 1e-4 * (1.0 + ref)) << i;
    // The point returned is on the triangle.
    ASSERT_LT(refPointTriangle(d3(cp), t), 1e-4) << i;
    const float rf = ur(rng);
    const double r = rf;
    if (std::fabs(ref - r) > 1e-4) {
      ++decided;
      ASSERT_EQ(sphereOverlapsTriangle(p, rf, t), ref <= r) << i;
    }
  }
  EXPECT_GT(decided, 19000);
}

TEST(PrimitiveReference, RayAgreesWithDoublePrecisionPlaneIntersection) {
  std::mt19937 rng(102);
  int hits = 0, decided = 0;
  for (int i = 0; i < 20000; ++i) {
    const Triangle t = randomTriangle(rng);
    const glm::vec3 o = randomPoint(rng);
    // Aim at a random point near the triangle so about half the rays hit.
    std::uniform_real_distribution<float> u(-0.3f, 1.3f);
    const float bu = u(rng), bv = u(rng);
    const glm::vec3 target = t.v0 + (t.v1 - t.v0) * bu + (t.v2 - t.v0) * bv;
    const glm::vec3 dir = target - o;
    const D3 a = d3(t.v0), n = cross(d3(t.v1) - a, d3(t.v2) - a);
    const double denom = dot(n, d3(dir));
    const double nn = dot(n, n);
    if (nn == 0 || std::fabs(denom) < 1e-3 * std::sqrt(nn * dot(d3(dir), d3(dir)))) continue;
    const double tt = dot(n, a - d3(o)) / denom;
    const D3 q = d3(o) + d3(dir) * tt;
    const double w0 = dot(cross(d3(t.v2) - d3(t.v1), q - d3(t.v1)), n) / nn;
    const double w1 = dot(cross(d3(t.v0) - d3(t.v2), q - d3(t.v2)), n) / nn;
    const double w2 = dot(cross(d3(t.v1) - d3(t.v0), q - d3(t.v0)), n) / nn;
    if (isDegenerateTriangle(t)) continue;
    // Float Möller-Trumbore loses accuracy as 1/sin(smallest angle) on slivers and as
    // 1/cos(incidence) at grazing angles: widen the grazing band and the t tolerance by both.
    const D3 e0 = d3(t.v1) - a, e1 = d3(t.v2) - a, e2 = d3(t.v2) - d3(t.v1);
    const double l0 = dot(e0, e0), l1 = dot(e1, e1), l2 = dot(e2, e2);
    const double lmax = std::max({l0, l1, l2}), lmin = std::min({l0, l1, l2});
    const double sine = std::sqrt(nn / (lmax * (l0 + l1 + l2 - lmax - lmin)));
    const double cosIncidence = std::fabs(denom) / std::sqrt(nn * dot(d3(dir), d3(dir)));
    const double cond = 1.0 / (std::min(1.0, 10.0 * sine) * std::min(1.0, 10.0 * cosIncidence));
    if (std::min({std::fabs(w0), std::fabs(w1), std::fabs(w2)}) < 1e-5 * cond ||
        std::fabs(tt) < 1e-4) {
      continue;  // grazing an edge, or starting on the plane
    }
    const bool refHit = tt >= 0 && w0 >= 0 && w1 >= 0 && w2 >= 0;
    const double tTol = 1e-5 * cond * (1.0 + std::fabs(tt));
    float got;
    const bool hit = rayTriangle(o, dir, 10.0f, t, got);
    ++decided;
    ASSERT_EQ(hit, refHit) << i;
    if (hit) {
      ++hits;
      ASSERT_NEAR(got, tt, tTol) << i;
    }
  }
  EXPECT_GT(decided, 10000);
  EXPECT_GT(hits, decided / 8);
  EXPECT_LT(hits, decided * 4 / 5);
}

TEST(PrimitiveReference, CapsuleAgreesWithSampling) {
  std::mt19937 rng(103);
  std::uniform_real_distribution<float> ur(0.0f, 1.0f);
  int decided = 0, overlaps = 0;
  for (int i = 0; i < 5000; ++i) {
    const Triangle t = randomTriangle(rng);
    const glm::vec3 a = randomPoint(rng), b = a + randomPoint(rng, 1.5f);
    glm::vec3 s, q;
    const double got = std::sqrt(static_cast<double>(closestPointsSegmentTriangle(a, b, t, s, q)));
    const double ref = refSegmentTriangle(d3(a), d3(b), t);
    const double len = std::sqrt(dot(d3(b - a), d3(b - a)));
    // Sampling overestimates by at most half a sample step.
    ASSERT_LE(got, ref + 1e-4) << i;
    ASSERT_GE(got, ref - len / 800.0 - 1e-4) << i;
    // The returned points realise the distance.
    const glm::vec3 dd = s - q;
    ASSERT_NEAR(std::sqrt(static_cast<double>(glm::dot(dd, dd))), got, 1e-4) << i;
    const float rf = ur(rng);
    const double r = rf;
    if (std::fabs(ref - r) > len / 800.0 + 2e-4) {
      ++decided;
      const bool o = capsuleOverlapsTriangle(a, b, rf, t);
      overlaps += o;
      ASSERT_EQ(o, ref <= r) << i;
    }
  }
  EXPECT_GT(decided, 4500);
  EXPECT_GT(overlaps, decided / 40);
}

// Box-triangle by clipping the triangle polygon against the six slabs (Sutherland-Hodgman) in
// double: they overlap iff something is left.
bool refBoxTriangle(const Aabb& box, const Triangle& t, double grow) {
  std::vector<D3> poly = {d3(t.v0), d3(t.v1), d3(t.v2)};
  for (int axis = 0; axis < 3; ++axis) {
    for (int side = 0; side < 2; ++side) {
      const double lim = side == 0 ? static_cast<double>(box.min[axis]) - grow
                                   : static_cast<double>(box.max[axis]) + grow;
      auto inside = [&](const D3& p) {
        const double v = axis == 0 ? p.x : axis == 1 ? p.y : p.z;
        return side == 0 ? v >= lim : v <= lim;
      };
      std::vector<D3> out;
      for (size_t k = 0; k < poly.size(); ++k) {
        const D3 cur = poly[k], nxt = poly[(k + 1) % poly.size()];
        const bool ci = inside(cur), ni = inside(nxt);
        if (ci) out.push_back(cur);
        if (ci != ni) {
          const double cv = axis == 0 ? cur.x : axis == 1 ? cur.y : cur.z;
          const double nv = axis == 0 ? nxt.x : axis == 1 ? nxt.y : nxt.z;
          const double s = (lim - cv) / (nv - cv);
          out.push_back(cur + (nxt - cur) * s);
        }
      }
      poly.swap(out);
      if (poly.empty()) return false;
    }
  }
  return true;
}

TEST(PrimitiveReference, BoxAgreesWithPolygonClipping) {
  std::mt19937 rng(104);
  std::uniform_real_distribution<float> uh(0.05f, 1.0f);
  int decided = 0, overlaps = 0;
  for (int i = 0; i < 20000; ++i) {
    const Triangle t = randomTriangle(rng);
    const glm::vec3 c = randomPoint(rng, 2.5f);
    const Aabb box = Aabb::fromCenterHalfExtents(c, {uh(rng), uh(rng), uh(rng)});
    const bool lo = refBoxTriangle(box, t, -1e-4), hi = refBoxTriangle(box, t, 1e-4);
    if (lo != hi) continue;  // grazing
    ++decided;
    const bool got = boxOverlapsTriangle(box, t);
    overlaps += got;
    ASSERT_EQ(got, hi) << i;
    TriangleContact con;
    ASSERT_EQ(boxTriangleContact(box, t, con), got);
    if (got) {
      // Pushing by the contact separates (up to touching): shrink a hair and test.
      const Aabb moved{box.min + con.normal * con.depth, box.max + con.normal * con.depth};
      ASSERT_FALSE(refBoxTriangle(moved, t, -1e-4)) << i;
      // And the push is minimal on the tested axes: a little less still overlaps.
      if (con.depth > 1e-3f) {
        const float less = con.depth - 1e-3f;
        const Aabb partial{box.min + con.normal * less, box.max + con.normal * less};
        ASSERT_TRUE(refBoxTriangle(partial, t, 1e-5)) << i;
      }
    }
  }
  EXPECT_GT(decided, 19000);
  EXPECT_GT(overlaps, decided / 20);
}

TEST(PrimitiveReference, SphereAndCapsuleContactsSeparate) {
  std::mt19937 rng(105);
  std::uniform_real_distribution<float> ur(0.1f, 1.0f);
  int pushed = 0;
  for (int i = 0; i < 10000; ++i) {
    const Triangle t = randomTriangle(rng);
    const glm::vec3 a = randomPoint(rng, 2.0f), b = a + randomPoint(rng, 1.0f);
    const float rf = ur(rng);
    const double r = rf;
    TriangleContact c;
    if (sphereTriangleContact(a, rf, t, c)) {
      ++pushed;
      const double after = refPointTriangle(d3(a + c.normal * c.depth), t);
      ASSERT_NEAR(after, r, 1e-4) << i;  // exactly touching: the minimal push
    }
    if (capsuleTriangleContact(a, b, rf, t, c)) {
      const D3 o = d3(c.normal) * static_cast<double>(c.depth);
      const double after = refSegmentTriangle(d3(a) + o, d3(b) + o, t);
      ASSERT_GE(after, r - 1e-4) << i;  // separated (touching)
    }
  }
  EXPECT_GT(pushed, 500);
}

// ---- Push-out minimality, by support functions -------------------------------------------------
// For convex A (the shape pushed) and B (the triangle), the push along unit n that separates them
// (down to touching) is h(n) = max over B of n.x - min over A of n.x, and the penetration depth,
// the shortest separating translation, is the minimum of h over all unit n. The reference
// minimises h over 2,000 Fibonacci-sphere directions and refines the best few by pattern search:
// nothing here uses the SAT axes or the closest-point code under test.
struct PushShape {
  int kind;  // 0 sphere (a), 1 capsule (a, b), 2 box (a = centre, b = half extents)
  D3 a, b;
  double r;
};

double minAlong(const PushShape& s, D3 n) {
  if (s.kind == 0) return dot(n, s.a) - s.r;
  if (s.kind == 1) return std::min(dot(n, s.a), dot(n, s.b)) - s.r;
  return dot(n, s.a) - (std::fabs(n.x) * s.b.x + std::fabs(n.y) * s.b.y + std::fabs(n.z) * s.b.z);
}

double requiredPush(const PushShape& s, const Triangle& t, D3 n) {
  const double maxB = std::max({dot(n, d3(t.v0)), dot(n, d3(t.v1)), dot(n, d3(t.v2))});
  return maxB - minAlong(s, n);
}

D3 unitFromAngles(double theta, double phi) {
  return {std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi)};
}

double referencePenetrationDepth(const PushShape& s, const Triangle& t) {
  constexpr int kDirections = 2000;
  std::vector<std::pair<double, int>> coarse;
  coarse.reserve(kDirections);
  const double golden = std::numbers::pi * (3.0 - std::sqrt(5.0));
  auto fib = [&](int k) {
    const double y = 1.0 - 2.0 * (k + 0.5) / kDirections;
    return std::pair<double, double>(std::acos(y), golden * k);
  };
  for (int k = 0; k < kDirections; ++k) {
    const auto [th, ph] = fib(k);
    coarse.push_back({requiredPush(s, t, unitFromAngles(th, ph)), k});
  }
  std::partial_sort(coarse.begin(), coarse.begin() + 6, coarse.end());
  double best = coarse[0].first;
  for (int start = 0; start < 6; ++start) {
    auto [th, ph] = fib(coarse[start].second);
    double value = coarse[start].first;
    for (double step = 0.1; step > 1e-7; step *= 0.5) {
      bool moved = true;
      while (moved) {
        moved = false;
        for (const auto& [dt, dp] :
             {std::pair{step, 0.0}, {-step, 0.0}, {0.0, step}, {0.0, -step}}) {
          const double v = requiredPush(s, t, unitFromAngles(th + dt, ph + dp));
          if (v < value - 1e-12) {
            value = v;
            th += dt;
            ph += dp;
            moved = true;
          }
        }
      }
    }
    best = std::min(best, value);
  }
  return best;
}

// Does the closed segment [p, q] cross or touch the triangle's interior, clearly (not within
// `margin` of an edge)? Plane crossing in double, then barycentric signs.
int segmentCrossesTriangle(D3 p, D3 q, const Triangle& t, double margin) {
  const D3 a = d3(t.v0), b = d3(t.v1), c = d3(t.v2);
  const D3 n = cross(b - a, c - a);
  const double nn = dot(n, n);
  if (nn == 0) return -1;
  const double len = std::sqrt(nn);
  const double dp = dot(p - a, n) / len, dq = dot(q - a, n) / len;
  if ((dp > margin && dq > margin) || (dp < -margin && dq < -margin)) return 0;
  if (std::fabs(dp - dq) < margin) return -1;  // nearly in the plane: ambiguous
  const D3 x = p + (q - p) * (dp / (dp - dq));
  const double w0 = dot(cross(c - b, x - b), n) / len, w1 = dot(cross(a - c, x - c), n) / len,
               w2 = dot(cross(b - a, x - a), n) / len;
  const double m = std::min({w0, w1, w2});
  if (std::fabs(m) < margin || std::fabs(dp) < margin || std::fabs(dq) < margin) return -1;
  return m > 0 ? 1 : 0;
}

TEST(PrimitiveReference, PushOutsAreMinimal) {
  std::mt19937 rng(108);
  std::uniform_real_distribution<float> ur(0.1f, 1.0f), uh(0.05f, 0.8f);
  int checked[3] = {0, 0, 0}, crossings = 0;
  for (int i = 0; i < 9000; ++i) {
    const Triangle t = randomTriangle(rng);
    const int kind = i % 3;
    const glm::vec3 a = randomPoint(rng, 1.5f), b = a + randomPoint(rng, 1.0f);
    const glm::vec3 half(uh(rng), uh(rng), uh(rng));
    const float rf = ur(rng);
    TriangleContact c;
    bool got = false;
    PushShape shape{kind, d3(a), d3(b), rf};
    if (kind == 0) got = sphereTriangleContact(a, rf, t, c);
    if (kind == 1) got = capsuleTriangleContact(a, b, rf, t, c);
    if (kind == 2) {
      shape.b = d3(half);
      shape.r = 0;
      got = boxTriangleContact(Aabb::fromCenterHalfExtents(a, half), t, c);
    }
    if (!got) continue;
    const D3 n = d3(c.normal);
    ASSERT_NEAR(std::sqrt(dot(n, n)), 1.0, 1e-5) << i;
    // Pushing by depth along the normal just separates: neither short of it nor past it.
    const double along = requiredPush(shape, t, n);
    ASSERT_NEAR(c.depth, along, 2e-4) << "shape " << kind << " case " << i;
    const int crossing = kind == 1 ? segmentCrossesTriangle(d3(a), d3(b), t, 1e-3) : 0;
    if (crossing == -1 || (kind == 1 && isDegenerateTriangle(t))) continue;
    if (crossing == 1) {
      // The documented exception: a segment through the face is pushed along the face normal,
      // to the side of its midpoint, which is the shorter of the two normal pushes.
      ++crossings;
      ASSERT_LE(c.depth, requiredPush(shape, t, n * -1.0) + 2e-4) << i;
      continue;
    }
    // Everything else: no shorter translation separates.
    ASSERT_LE(c.depth, referencePenetrationDepth(shape, t) + 2e-4)
        << "shape " << kind << " case " << i;
    ++checked[kind];
  }
  EXPECT_GT(checked[0], 300);
  EXPECT_GT(checked[1], 300);
  EXPECT_GT(checked[2], 300);
  EXPECT_GT(crossings, 20);
}

TEST(PrimitiveReference, SweepsAgreeWithSampledDistance) {
  std::mt19937 rng(106);
  std::uniform_real_distribution<float> ur(0.05f, 0.6f);
  int hits = 0, misses = 0;
  for (int i = 0; i < 3000; ++i) {
    const Triangle t = randomTriangle(rng);
    const bool capsule = (i % 2) == 1;
    const glm::vec3 a = randomPoint(rng, 3.0f);
    const glm::vec3 b = capsule ? a + randomPoint(rng, 1.0f) : a;
    // Half the sweeps aim at a point of the triangle so that many of them hit.
    const glm::vec3 aim = t.v0 + (t.v1 - t.v0) * 0.3f + (t.v2 - t.v0) * 0.3f;
    const glm::vec3 d = (i % 4 < 2) ? (aim - a) * 1.5f : randomPoint(rng, 4.0f);
    const float rf = ur(rng);
    const double r = rf;
    auto distAt = [&](double s) {
      const D3 off = d3(d) * s;
      return capsule ? refSegmentTriangle(d3(a) + off, d3(b) + off, t, 50)
                     : refPointTriangle(d3(a) + off, t);
    };
    SweepContact c;
    const bool hit =
        capsule ? sweepCapsuleTriangle(a, b, rf, d, t, c) : sweepSphereTriangle(a, rf, d, t, c);
    const double stepTol = capsule ? std::sqrt(dot(d3(b - a), d3(b - a))) / 100.0 : 0.0;
    if (distAt(0.0) <= r + stepTol + 1e-4) continue;  // starts touching: covered elsewhere
    const int samples = 100;
    if (hit) {
      ++hits;
      ASSERT_FALSE(c.startsOverlapping);
      ASSERT_GE(c.toi, 0.0f);
      ASSERT_LE(c.toi, 1.0f);
      // At toi the distance is r; before it, never below r.
      ASSERT_NEAR(distAt(c.toi), r, 2e-3 + stepTol) << i;
      for (int k = 0; k < samples; ++k) {
        const double s = c.toi * k / samples;
        ASSERT_GE(distAt(s), r - 2e-3) << i << " at " << s;
      }
      // The contact point is on the triangle, a radius away from the moved shape, and the normal
      // points from it to the shape's nearest point and against the motion.
      const D3 off = d3(d) * static_cast<double>(c.toi);
      const D3 a1 = d3(a) + off, b1 = d3(b) + off, pt = d3(c.point);
      ASSERT_LT(refPointTriangle(pt, t), 2e-3) << i;
      ASSERT_NEAR(refPointSegment(pt, a1, b1), r, 2e-3 + stepTol) << i;
      const D3 ab = b1 - a1;
      const double l = dot(ab, ab);
      const double u = l > 0 ? std::clamp(dot(pt - a1, ab) / l, 0.0, 1.0) : 0.0;
      const D3 toShape = (a1 + ab * u) - pt;
      const double len = std::sqrt(dot(toShape, toShape));
      ASSERT_NEAR(std::sqrt(dot(d3(c.normal), d3(c.normal))), 1.0, 1e-4) << i;
      if (len > 1e-2 && r > 0.05) {
        ASSERT_GT(dot(toShape, d3(c.normal)) / len, 0.999) << i;
      }
      ASSERT_LE(dot(d3(c.normal), d3(d)), 1e-3 * std::sqrt(dot(d3(d), d3(d)))) << i;
    } else {
      ++misses;
      for (int k = 0; k <= samples; ++k) {
        ASSERT_GE(distAt(static_cast<double>(k) / samples), r - 2e-3 - stepTol) << i;
      }
    }
  }
  EXPECT_GT(hits, 500);
  EXPECT_GT(misses, 500);
}

TEST(PrimitiveReference, WindingNeverMatters) {
  std::mt19937 rng(107);
  for (int i = 0; i < 5000; ++i) {
    const Triangle t = randomTriangle(rng);
    const Triangle f{t.v0, t.v2, t.v1};
    const glm::vec3 p = randomPoint(rng), q = p + randomPoint(rng, 1.0f),
                    d = randomPoint(rng, 3.0f);
    const Aabb box = Aabb::fromCenterHalfExtents(p, glm::vec3(0.4f));
    float t0, t1;
    const bool h0 = rayTriangle(p, d, 10.0f, t, t0), h1 = rayTriangle(p, d, 10.0f, f, t1);
    ASSERT_EQ(h0, h1);
    if (h0) {
      ASSERT_NEAR(t0, t1, 1e-5f * (1.0f + t0));
    }
    ASSERT_EQ(boxOverlapsTriangle(box, t), boxOverlapsTriangle(box, f));
    SweepContact c0, c1;
    const bool s0 = sweepSphereTriangle(p, 0.3f, d, t, c0),
               s1 = sweepSphereTriangle(p, 0.3f, d, f, c1);
    ASSERT_EQ(s0, s1);
    if (s0) {
      ASSERT_NEAR(c0.toi, c1.toi, 1e-5f);
    }
    const bool k0 = sweepCapsuleTriangle(p, q, 0.3f, d, t, c0),
               k1 = sweepCapsuleTriangle(p, q, 0.3f, d, f, c1);
    ASSERT_EQ(k0, k1);
    if (k0) {
      ASSERT_NEAR(c0.toi, c1.toi, 1e-5f);
    }
  }
}

}  // namespace
}  // namespace ofps
