// The four-wide box classification (geometry/frustum_inl.h) against the scalar classifyAabb,
// lane by lane, on random planes and boxes: general positions, boxes touching a plane exactly,
// degenerate (point and flat) boxes, NaN coordinates, and random plane masks.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "octree_fps/geometry/frustum.h"
#include "octree_fps/geometry/frustum_inl.h"

namespace ofps {
namespace {

// A random plane set: mostly general unit normals, some axis-aligned (with signed zeros), so
// that exact touching can be built below.
Frustum randomPlanes(std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Frustum f;
  for (Plane& pl : f.planes) {
    if (rng() % 3 == 0) {
      const int axis = static_cast<int>(rng() % 3);
      glm::vec3 n(rng() % 2 ? 0.0f : -0.0f);
      n[axis] = rng() % 2 ? 1.0f : -1.0f;
      pl.normal = n;
    } else {
      glm::vec3 n(u(rng), u(rng), u(rng));
      if (glm::length(n) < 1e-3f) n = glm::vec3(0.0f, 1.0f, 0.0f);
      pl.normal = glm::normalize(n);
    }
    pl.d = 4.0f * u(rng);
  }
  return f;
}

Aabb randomBox(std::mt19937& rng, const Frustum& f) {
  std::uniform_real_distribution<float> u(-6.0f, 6.0f);
  std::uniform_real_distribution<float> size(0.0f, 3.0f);
  const glm::vec3 c(u(rng), u(rng), u(rng));
  glm::vec3 h(size(rng), size(rng), size(rng));
  const uint32_t kind = rng() % 8;
  if (kind == 0) h = glm::vec3(0.0f);                    // a point
  if (kind == 1) h[static_cast<int>(rng() % 3)] = 0.0f;  // flat
  Aabb b{c - h, c + h};
  if (kind == 2 || kind == 3) {
    // Touch an axis-aligned plane exactly with the box's p- or n-vertex face.
    const Plane& pl = f.planes[rng() % 6];
    for (int a = 0; a < 3; ++a) {
      if (std::fabs(pl.normal[a]) != 1.0f) continue;
      const bool farFace = kind == 2;
      const bool positive = pl.normal[a] > 0.0f;
      // The face chosen lies on the plane: normal[a] * x + d = 0, x = -d * normal[a].
      const float x = -pl.d * pl.normal[a];
      const float w = b.max[a] - b.min[a];
      if (farFace == positive) {
        b.max[a] = x;
        b.min[a] = x - w;
      } else {
        b.min[a] = x;
        b.max[a] = x + w;
      }
    }
  }
  if (kind == 4 && rng() % 16 == 0)
    b.min[static_cast<int>(rng() % 3)] = std::numeric_limits<float>::quiet_NaN();
  return b;
}

TEST(FrustumSimd, FourWideClassifyMatchesScalarLaneByLane) {
  std::mt19937 rng(20260301);
  uint32_t outside = 0, inside = 0, intersecting = 0, touching = 0;
  for (int round = 0; round < 20000; ++round) {
    const Frustum f = randomPlanes(rng);
    const uint32_t mask = rng() % 4 == 0 ? kFrustumAllPlanes : (rng() & kFrustumAllPlanes);
    Aabb boxes[4];
    for (Aabb& b : boxes) b = randomBox(rng, f);
    simd::F4 lo[3], hi[3];
    for (int a = 0; a < 3; ++a) {
      const float l[4] = {boxes[0].min[a], boxes[1].min[a], boxes[2].min[a], boxes[3].min[a]};
      const float h[4] = {boxes[0].max[a], boxes[1].max[a], boxes[2].max[a], boxes[3].max[a]};
      lo[a] = simd::load(l);
      hi[a] = simd::load(h);
    }
    uint32_t masks[4];
    const uint32_t out = detail::classifyAabb4(f, lo, hi, mask, masks);
    for (uint32_t l = 0; l < 4; ++l) {
      uint32_t m = mask;
      const Containment c = classifyAabb(f, boxes[l], m);
      ASSERT_EQ(((out >> l) & 1u) != 0, c == Containment::Outside)
          << "round " << round << " lane " << l;
      if (c == Containment::Outside) {
        ++outside;
        continue;
      }
      ASSERT_EQ(masks[l], m) << "round " << round << " lane " << l;
      (c == Containment::Inside ? inside : intersecting) += 1;
      for (uint32_t p = 0; p < 6; ++p) {
        if (((mask >> p) & 1u) == 0) continue;
        const Plane& pl = f.planes[p];
        const glm::vec3 pv(pl.normal.x >= 0.0f ? boxes[l].max.x : boxes[l].min.x,
                           pl.normal.y >= 0.0f ? boxes[l].max.y : boxes[l].min.y,
                           pl.normal.z >= 0.0f ? boxes[l].max.z : boxes[l].min.z);
        if (pl.signedDistance(pv) == 0.0f) ++touching;
      }
    }
  }
  // The sample exercised every answer, and boxes that touch a plane exactly (closed sets: not
  // outside) in numbers.
  EXPECT_GT(outside, 5000u);
  EXPECT_GT(inside, 2000u);
  EXPECT_GT(intersecting, 5000u);
  EXPECT_GT(touching, 500u);
}

}  // namespace
}  // namespace ofps
