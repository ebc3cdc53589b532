// The eight-lane (AVX2) ray kernel against the four-lane baseline (octree.h "SIMD kernels"): on
// random soups (slivers, huge triangles, triangles on split planes, duplicates, degenerate ones),
// with random layers and small and wide trees, on axis-aligned rays starting in node face planes,
// and on the shared levels, every ray must give the SAME bits under both kernels (hit or miss, t,
// triangle, point, normal) and the same work counters. The oracle tests compare whichever kernel
// the machine selects with brute force; this file pins the other one to it.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "octree_fps/spatial/brute_force.h"
#include "octree_fps/spatial/octree.h"
#include "support/random_soup.h"
#include "support/simd_scope.h"

namespace ofps {
namespace {

using test::SimdScope;

struct RayAnswer {
  bool hit = false;
  bool any = false;  // rayAny's answer (its work counters may differ between kernels: octree.h)
  RayHit h;
  QueryStats stats;
};

RayAnswer castWith(OctreeSimd simd, const Octree& octree, const glm::vec3& o, const glm::vec3& d,
                   float tMax, uint32_t mask) {
  EXPECT_TRUE(octreeUseSimd(simd));
  RayAnswer a;
  a.hit = octree.raycast(o, d, tMax, mask, a.h, &a.stats);
  a.any = octree.rayAny(o, d, tMax, mask);
  return a;
}

bool sameBits(const glm::vec3& a, const glm::vec3& b) {
  return std::memcmp(&a, &b, sizeof(a)) == 0;
}

// Casts one ray under both kernels; returns an empty string when they agree bit for bit. Counts
// the baseline's hits and misses in *ioHitsMisses, so a test can check that it exercised both.
std::string compareKernels(const Octree& octree, const glm::vec3& o, const glm::vec3& d, float tMax,
                           uint32_t mask, uint32_t (&ioHitsMisses)[2]) {
  const RayAnswer base = castWith(OctreeSimd::kBaseline, octree, o, d, tMax, mask);
  const RayAnswer wide = castWith(OctreeSimd::kAvx2, octree, o, d, tMax, mask);
  ++ioHitsMisses[base.hit ? 0 : 1];
  std::string why;
  if (base.hit != wide.hit) why += " hit differs;";
  // The nearest-hit answer of the baseline is the reference for both kernels' any-hit answer.
  if (base.any != base.hit) why += " baseline rayAny differs from raycast;";
  if (wide.any != base.hit) why += " avx2 rayAny differs from raycast;";
  if (base.hit && wide.hit) {
    if (std::memcmp(&base.h.t, &wide.h.t, sizeof(float)) != 0) why += " t differs;";
    if (base.h.triangle != wide.h.triangle) why += " triangle differs;";
    if (!sameBits(base.h.point, wide.h.point)) why += " point differs;";
    if (!sameBits(base.h.normal, wide.h.normal)) why += " normal differs;";
  }
  if (base.stats.nodesVisited != wide.stats.nodesVisited) why += " nodesVisited differs;";
  if (base.stats.trianglesTested != wide.stats.trianglesTested) why += " trianglesTested differs;";
  return why;
}

class OctreeSimdTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!octreeSimdAvailable(OctreeSimd::kAvx2)) {
      GTEST_SKIP() << "no AVX2 kernel on this CPU or build: only the baseline runs here";
    }
  }
  SimdScope scope_;
};

TEST(OctreeSimdSelection, BaselineIsAlwaysAvailableAndSelectable) {
  SimdScope scope;
  EXPECT_TRUE(octreeSimdAvailable(OctreeSimd::kBaseline));
  EXPECT_TRUE(octreeUseSimd(OctreeSimd::kBaseline));
  EXPECT_EQ(octreeSimd(), OctreeSimd::kBaseline);
  // Selecting what the machine lacks changes nothing.
  if (!octreeSimdAvailable(OctreeSimd::kAvx2)) {
    EXPECT_FALSE(octreeUseSimd(OctreeSimd::kAvx2));
    EXPECT_EQ(octreeSimd(), OctreeSimd::kBaseline);
  }
  EXPECT_STREQ(octreeSimdName(OctreeSimd::kAvx2), "avx2");
}

TEST_F(OctreeSimdTest, RandomSoupsGiveTheSameBits) {
  uint32_t hitsMisses[2] = {0, 0};
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    const std::vector<Triangle> tris = test::makeRandomSoup(seed);
    std::mt19937 rng(seed * 7919u);
    std::vector<uint32_t> layers(tris.size());
    for (uint32_t& l : layers) l = 1u << (rng() % 4);
    const Aabb box = test::boundsOf(tris);
    for (uint32_t leaf : {1u, 2u, 8u, 32u}) {
      for (bool withLayers : {false, true}) {
        Octree octree;
        OctreeBuildParams params;
        params.trianglesPerLeaf = leaf;
        octree.build(tris,
                     withLayers ? std::span<const uint32_t>(layers) : std::span<const uint32_t>(),
                     params);
        test::QueryPlacer place(tris, box, seed * 31u + leaf);
        for (uint32_t i = 0; i < 400; ++i) {
          const glm::vec3 o = place.nearSurface(3.0f, 0.3f);
          const glm::vec3 d = place.unitVector() * place.uniform(0.1f, 4.0f);
          const float tMax =
              (i % 5 == 0) ? std::numeric_limits<float>::infinity() : place.uniform(0.0f, 30.0f);
          const uint32_t mask = withLayers ? static_cast<uint32_t>(rng() % 16u) : kOctreeAllLayers;
          const std::string why = compareKernels(octree, o, d, tMax, mask, hitsMisses);
          ASSERT_TRUE(why.empty())
              << "seed " << seed << " leaf " << leaf << " ray " << i << ":" << why;
        }
      }
    }
  }
  // Both outcomes were compared many times (a soup the rays all miss would prove little).
  EXPECT_GT(hitsMisses[0], 2000u);
  EXPECT_GT(hitsMisses[1], 2000u);
}

// Rays along an axis whose origin lies exactly in faces of node boxes (the dequantized bounds the
// kernels compute): zero direction components meet 0 * inf = NaN in the slab test, which both
// kernels must drop the same way. Origins on the soups' own planes (x, y or z = 0, +-2, +-4)
// too, where triangles lie.
TEST_F(OctreeSimdTest, AxisRaysInFacePlanesGiveTheSameBits) {
  const std::vector<Triangle> tris = test::makeRandomSoup(11);
  Octree octree;
  OctreeBuildParams params;
  params.trianglesPerLeaf = 2;
  octree.build(tris, {}, params);
  ASSERT_GT(octree.nodeCount(), 20u);
  const glm::vec3 axes[] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  std::mt19937 rng(99);
  uint32_t hitsMisses[2] = {0, 0};
  auto check = [&](const glm::vec3& o, const glm::vec3& d) {
    const std::string why = compareKernels(octree, o, d, 40.0f, kOctreeAllLayers, hitsMisses);
    ASSERT_TRUE(why.empty()) << "origin (" << o.x << ", " << o.y << ", " << o.z << "), dir (" << d.x
                             << ", " << d.y << ", " << d.z << "):" << why;
  };
  for (uint32_t node = 0; node < octree.nodeCount(); ++node) {
    const Aabb b = octree.nodeBounds(node);
    for (int axis = 0; axis < 3; ++axis) {
      for (int side = 0; side < 2; ++side) {
        const glm::vec3& d = axes[2 * axis + side];
        // The two other coordinates on the box's faces or corners, the moving one before,
        // inside or after the box.
        glm::vec3 o;
        for (int k = 0; k < 3; ++k) {
          o[k] = (rng() & 1u) ? b.min[k] : b.max[k];
        }
        const float span = b.max[axis] - b.min[axis];
        for (float f : {-1.5f, 0.0f, 0.5f, 1.0f, 2.5f}) {
          o[axis] = b.min[axis] + f * span;
          check(o, d);
          if (::testing::Test::HasFatalFailure()) return;
        }
      }
    }
  }
  const float planes[] = {-4.0f, -2.0f, 0.0f, 2.0f, 4.0f};
  for (float a : planes) {
    for (float c : planes) {
      for (const glm::vec3& d : axes) {
        glm::vec3 o;
        if (d.x != 0.0f)
          o = {-9.0f * d.x, a, c};
        else if (d.y != 0.0f)
          o = {a, -9.0f * d.y, c};
        else
          o = {a, c, -9.0f * d.z};
        check(o, d);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
  EXPECT_GT(hitsMisses[0], octree.nodeCount() * 3u);
  EXPECT_GT(hitsMisses[1], octree.nodeCount() * 3u);
}

TEST_F(OctreeSimdTest, EmptyAndTinyOctreesGiveTheSameBits) {
  Octree empty;
  uint32_t hitsMisses[2] = {0, 0};
  EXPECT_TRUE(
      compareKernels(empty, {0, 0, 0}, {1, 0, 0}, 10.0f, kOctreeAllLayers, hitsMisses).empty());
  // One to nine triangles: every partial block and the last block read on its own.
  const std::vector<Triangle> soup = test::makeRandomSoup(5);
  for (size_t n = 1; n <= 9; ++n) {
    const std::vector<Triangle> tris(soup.begin(), soup.begin() + static_cast<std::ptrdiff_t>(n));
    Octree octree;
    octree.build(tris);
    test::QueryPlacer place(tris, test::boundsOf(tris), static_cast<uint32_t>(n));
    for (uint32_t i = 0; i < 200; ++i) {
      const glm::vec3 o = place.nearSurface(2.0f, 0.2f);
      const std::string why =
          compareKernels(octree, o, place.unitVector(), 50.0f, kOctreeAllLayers, hitsMisses);
      ASSERT_TRUE(why.empty()) << n << " triangles, ray " << i << ":" << why;
    }
  }
  EXPECT_GT(hitsMisses[0], 100u);  // the tiny octrees are hit, not only missed
}

// An octree with over 16 MiB of triangle blocks, where the ray walks prefetch ahead
// (octree_traversal_inl.h lookAhead()): no smaller test reaches that path. Both kernels must
// still agree bit for bit, and the baseline with brute force on the triangle hit and its t.
TEST_F(OctreeSimdTest, LargeOctreeWithLookAheadGivesTheSameBits) {
  test::SoupOptions options;
  options.regular = 500000;  // 500k triangles: 18 MB of blocks
  const std::vector<Triangle> tris = test::makeRandomSoup(11, options);
  Octree octree;
  octree.build(tris);
  ASSERT_GE(octree.triangleBlocks().size_bytes(), size_t{16} << 20);
  const BruteForce brute(tris);
  test::QueryPlacer place(tris, test::boundsOf(tris), 11u);
  uint32_t hitsMisses[2] = {0, 0};
  for (uint32_t i = 0; i < 300; ++i) {
    const glm::vec3 o = place.nearSurface(1.0f, 0.5f);
    const glm::vec3 d = place.unitVector();
    const float tMax = (i % 3 == 0) ? std::numeric_limits<float>::infinity() : 0.5f;
    const std::string why = compareKernels(octree, o, d, tMax, kOctreeAllLayers, hitsMisses);
    ASSERT_TRUE(why.empty()) << "ray " << i << ":" << why;
    if (i % 10 == 0) {  // brute force is O(n) per ray
      RayHit a, b;
      ASSERT_TRUE(octreeUseSimd(OctreeSimd::kBaseline));
      const bool hitA = octree.raycast(o, d, tMax, kOctreeAllLayers, a);
      const bool hitB = brute.raycast(o, d, tMax, kOctreeAllLayers, b);
      ASSERT_EQ(hitA, hitB) << "ray " << i;
      if (hitA) {
        EXPECT_EQ(a.triangle, b.triangle) << "ray " << i;
        EXPECT_EQ(a.t, b.t) << "ray " << i;
      }
    }
  }
  // Both outcomes compared (the soup is dense: 39 of the 300 rays miss).
  EXPECT_GT(hitsMisses[0], 50u);
  EXPECT_GT(hitsMisses[1], 20u);
}

class OctreeSimdLevelTest : public OctreeSimdTest,
                            public ::testing::WithParamInterface<const char*> {};

TEST_P(OctreeSimdLevelTest, SharedLevelGivesTheSameBits) {
  std::vector<Triangle> tris;
  std::string why;
  if (!test::loadSharedLevel(GetParam(), tris, &why)) GTEST_SKIP() << why;
  Octree octree;
  octree.build(tris);
  const Aabb box = test::boundsOf(tris);
  const float diagonal = glm::length(box.max - box.min);
  test::QueryPlacer place(tris, box, 2024u);
  uint32_t hitsMisses[2] = {0, 0};
  for (uint32_t i = 0; i < 3000; ++i) {
    const glm::vec3 o = place.nearSurface(0.05f * diagonal, 0.5f);
    const glm::vec3 d = place.unitVector();
    const std::string diff = compareKernels(octree, o, d, diagonal, kOctreeAllLayers, hitsMisses);
    ASSERT_TRUE(diff.empty()) << GetParam() << " ray " << i << ":" << diff;
  }
  EXPECT_GT(hitsMisses[0], 300u);  // the rays do reach the level
}

INSTANTIATE_TEST_SUITE_P(Levels, OctreeSimdLevelTest,
                         ::testing::Values("levels/collision-world/collision-world.obj",
                                           "levels/oa_dm1/oa_dm1.obj", "levels/oa_dm5/oa_dm5.obj"));

}  // namespace
}  // namespace ofps
