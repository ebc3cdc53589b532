#include "octree_fps/culling/frustum.h"

#include <gtest/gtest.h>

#include <glm/gtc/matrix_transform.hpp>
#include <random>
#include <vector>

#include "octree_fps/spatial/octree.h"
#include "support/random_soup.h"

namespace ofps {
namespace {

bool insideClip(const glm::mat4& vp, const glm::vec3& p) {
  const glm::vec4 c = vp * glm::vec4(p, 1.0f);
  return c.w > 0.0f && std::fabs(c.x) <= c.w && std::fabs(c.y) <= c.w && std::fabs(c.z) <= c.w;
}

glm::mat4 camera(const glm::vec3& eye, const glm::vec3& at) {
  return glm::perspective(glm::radians(70.0f), 16.0f / 9.0f, 0.1f, 12.0f) *
         glm::lookAt(eye, at, glm::vec3(0, 1, 0));
}

TEST(Frustum, PlanesMatchClipSpace) {
  const glm::mat4 vp = camera({0, 0, 5}, {0, 0, 0});
  const Frustum f = Frustum::fromViewProjection(vp);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-15.0f, 15.0f);
  int inside = 0;
  for (int i = 0; i < 20000; ++i) {
    const glm::vec3 p(u(rng), u(rng), u(rng));
    bool in = true;
    float margin = 1e9f;
    for (const Plane& pl : f.planes) {
      const float d = pl.signedDistance(p);
      in = in && d >= 0.0f;
      margin = std::min(margin, std::fabs(d));
    }
    if (margin < 1e-3f) continue;
    ASSERT_EQ(in, insideClip(vp, p)) << i;
    inside += in;
  }
  EXPECT_GT(inside, 200);
  for (const Plane& pl : f.planes) EXPECT_NEAR(glm::length(pl.normal), 1.0f, 1e-5f);
}

TEST(Frustum, ClassifyIsConservativeAndMasksPlanes) {
  const glm::mat4 vp = camera({1, 2, 6}, {0, 0, 0});
  const Frustum f = Frustum::fromViewProjection(vp);
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> u(-12.0f, 12.0f), h(0.05f, 3.0f);
  int counts[3] = {0, 0, 0};
  for (int i = 0; i < 5000; ++i) {
    const Aabb box =
        Aabb::fromCenterHalfExtents({u(rng), u(rng), u(rng)}, {h(rng), h(rng), h(rng)});
    uint32_t mask = kFrustumAllPlanes;
    const Containment c = classifyAabb(f, box, mask);
    ++counts[static_cast<int>(c)];
    // Sample the box: Outside means no sample is inside; Inside means every sample is.
    for (int s = 0; s < 125; ++s) {
      const glm::vec3 t(static_cast<float>(s % 5) / 4.0f, static_cast<float>((s / 5) % 5) / 4.0f,
                        static_cast<float>(s / 25) / 4.0f);
      const glm::vec3 p = box.min + (box.max - box.min) * t;
      float margin = 1e9f;
      for (const Plane& pl : f.planes) margin = std::min(margin, std::fabs(pl.signedDistance(p)));
      if (margin < 1e-3f) continue;  // on a plane: clip space may round either way
      if (c == Containment::Outside) {
        ASSERT_FALSE(insideClip(vp, p)) << i;
      }
      if (c == Containment::Inside) {
        ASSERT_TRUE(insideClip(vp, p)) << i;
      }
    }
    if (c == Containment::Inside) {
      EXPECT_EQ(mask, 0u);
    }
    if (c == Containment::Intersecting) {
      EXPECT_NE(mask, 0u);
    }
  }
  EXPECT_GT(counts[0], 100);
  EXPECT_GT(counts[1], 100);
  EXPECT_GT(counts[2], 50);
}

TEST(Frustum, CullOctreeReportsEveryVisibleTriangleOnce) {
  const std::vector<Triangle> tris = test::makeRandomSoup(5);
  Octree o;
  ASSERT_TRUE(o.build(tris).ok);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-10.0f, 10.0f);
  uint64_t planeTests = 0, naivePlaneTests = 0;
  for (int view = 0; view < 50; ++view) {
    const glm::vec3 eye(u(rng), u(rng), u(rng));
    const glm::mat4 vp = camera(eye, glm::vec3(u(rng), u(rng), u(rng)) * 0.3f);
    const Frustum f = Frustum::fromViewProjection(vp);
    std::vector<int> seen(o.triangleCount(), 0);
    CullStats st;
    cullOctree(
        o, f,
        [&](uint32_t node, uint32_t first, uint32_t count, bool whole) {
          const TriangleRange r = whole ? o.subtreeRange(node) : o.ownRange(node);
          EXPECT_EQ(r.first, first);
          EXPECT_EQ(r.count, count);
          for (uint32_t s = first; s < first + count; ++s) ++seen[s];
        },
        &st);
    planeTests += st.planeTests;
    naivePlaneTests += 6ull * st.nodesVisited;
    for (uint32_t s = 0; s < o.triangleCount(); ++s) {
      ASSERT_LE(seen[s], 1) << "slot reported twice";
      const Triangle t = o.triangle(s);
      const bool vis = insideClip(vp, t.v0) || insideClip(vp, t.v1) || insideClip(vp, t.v2);
      if (vis) {
        ASSERT_EQ(seen[s], 1) << "visible triangle culled, view " << view;
      }
    }
  }
  EXPECT_LT(planeTests, naivePlaneTests) << "plane masking saves nothing";
}

}  // namespace
}  // namespace ofps
