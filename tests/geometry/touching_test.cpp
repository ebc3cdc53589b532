// "Touching counts" (closed sets) where it matters most: shapes resting exactly on axis-aligned
// floors and walls, the common case in levels. A sphere whose centre is exactly its radius above
// a floor touches it; the octree (scalar and four-wide paths) must say so too.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "octree_fps/geometry/triangle_tests.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {
namespace {

// Random floor (y = h), wall (x = h) or wall (z = h) triangles, and points on them, with
// coordinates on a 1/64 grid so that "centre = plane + radius" is exact in float.
struct RestCase {
  Triangle tri;
  glm::vec3 center;
  float radius;
};

std::vector<RestCase> restCases(uint32_t seed, int count) {
  std::mt19937 rng(seed);
  auto grid = [&](int lo, int hi) {
    return static_cast<float>(std::uniform_int_distribution<int>(lo, hi)(rng)) / 64.0f;
  };
  std::vector<RestCase> cases;
  for (int i = 0; i < count; ++i) {
    const int axis = i % 3;  // 0: x = h, 1: y = h, 2: z = h
    const float h = grid(-640, 640);
    const float r = grid(1, 128);
    // A right triangle in the plane, with the point's projection well inside it.
    const float u0 = grid(-640, 640), w0 = grid(-640, 640);
    const float size = grid(256, 640);
    const float u = u0 + size * 0.25f, w = w0 + size * 0.25f;
    auto at = [&](float a, float b, float off) {
      glm::vec3 p;
      p[axis] = h + off;
      p[(axis + 1) % 3] = a;
      p[(axis + 2) % 3] = b;
      return p;
    };
    const float side = (i / 3) % 2 ? 1.0f : -1.0f;  // from above and from below the plane
    cases.push_back({Triangle{at(u0, w0, 0), at(u0 + size, w0, 0), at(u0, w0 + size, 0)},
                     at(u, w, side * r), r});
  }
  return cases;
}

TEST(Touching, ASphereRestingOnAnAxisAlignedPlaneTouchesIt) {
  int failures = 0;
  for (const RestCase& c : restCases(11, 3000)) {
    const bool touching = sphereOverlapsTriangle(c.center, c.radius, c.tri);
    TriangleContact contact;
    const bool contacted = sphereTriangleContact(c.center, c.radius, c.tri, contact);
    if (!touching || !contacted || contact.depth != 0.0f) ++failures;
  }
  EXPECT_EQ(failures, 0) << "resting spheres read as apart (or sunk)";
}

TEST(Touching, ACapsuleStandingOnAnAxisAlignedPlaneTouchesIt) {
  int failures = 0;
  for (const RestCase& c : restCases(12, 3000)) {
    // The capsule's lower sphere is the resting sphere; its axis points away from the plane.
    const glm::vec3 away = glm::normalize(c.center - closestPointOnTriangle(c.center, c.tri));
    if (!capsuleOverlapsTriangle(c.center, c.center + away * 1.5f, c.radius, c.tri)) ++failures;
  }
  EXPECT_EQ(failures, 0);
}

TEST(Touching, TheOctreeFindsEveryRestingSphereOnEveryPath) {
  const std::vector<RestCase> cases = restCases(13, 600);
  std::vector<Triangle> tris;
  for (const RestCase& c : cases) tris.push_back(c.tri);
  Octree octree;
  octree.build(std::span<const Triangle>(tris));
  int missed = 0, notOverlapping = 0;
  for (uint32_t i = 0; i < cases.size(); ++i) {
    bool found = false;
    octree.overlapSphere(cases[i].center, cases[i].radius, ~0u, [&](uint32_t t) {
      if (t == i) found = true;
    });
    if (!found) ++missed;
    PushOut out;
    if (!octree.sphereIntersect(cases[i].center, cases[i].radius, ~0u, out)) ++notOverlapping;
  }
  EXPECT_EQ(missed, 0) << "overlapSphere missed resting spheres";
  EXPECT_EQ(notOverlapping, 0) << "sphereIntersect called resting spheres apart";
}

}  // namespace
}  // namespace ofps
