// The occlusion kernels give the same bits for every instruction set (occlusion_isa_inl.h): along
// scripted walks through the bundled arena and the shared levels, a culler running the baseline
// kernels and one running the AVX2 kernels, each with its own history, must draw the same runs,
// count the same statistics and leave the same occlusion buffer, pixel for pixel, every frame;
// and random boxes (as props are tested after the level's cull) must get the same answers from
// both buffers. Skipped where the CPU (or the compiler) has no AVX2 kernels.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <glm/geometric.hpp>
#include <random>
#include <string>
#include <vector>

#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/culling/occlusion_cull.h"
#include "octree_fps/io/obj_reader.h"
#include "octree_fps/spatial/octree.h"
#include "support/culling_levels.h"
#include "support/floor_triangles.h"
#include "support/scripted_walk.h"
#include "support/simd_scope.h"
#include "support/test_paths.h"

namespace ofps {
namespace {

using IsaLevel = test::CullingLevel;

using test::SimdScope;

// Floor spots with 1.9 m of headroom: the walks' starting points.
std::vector<glm::vec3> floorSpots(const IsaLevel& level, const Octree& octree, uint32_t count,
                                  uint32_t seed) {
  const std::vector<uint32_t> floors =
      test::floorTriangles(level.positions, level.indices, level.drawn);
  std::mt19937 rng(seed);
  std::vector<glm::vec3> spots;
  glm::vec3 spot;
  for (int tries = 0; tries < 20000 && spots.size() < count && !floors.empty(); ++tries) {
    if (test::randomFloorSpot(level.positions, level.indices, floors, octree, rng, &spot)) {
      spots.push_back(spot + glm::vec3(0.0f, 0.05f, 0.0f));
    }
  }
  return spots;
}

void expectSameStats(const OcclusionCullStats& a, const OcclusionCullStats& b, size_t frame) {
  EXPECT_EQ(a.nodesTested, b.nodesTested) << "frame " << frame;
  EXPECT_EQ(a.nodesFrustumCulled, b.nodesFrustumCulled) << "frame " << frame;
  EXPECT_EQ(a.nodesOcclusionTested, b.nodesOcclusionTested) << "frame " << frame;
  EXPECT_EQ(a.nodesOccluded, b.nodesOccluded) << "frame " << frame;
  EXPECT_EQ(a.trianglesDrawnFrustumOnly, b.trianglesDrawnFrustumOnly) << "frame " << frame;
  EXPECT_EQ(a.trianglesDrawn, b.trianglesDrawn) << "frame " << frame;
  EXPECT_EQ(a.trianglesOccluded, b.trianglesOccluded) << "frame " << frame;
  EXPECT_EQ(a.trianglesOutsideFrustum, b.trianglesOutsideFrustum) << "frame " << frame;
  EXPECT_EQ(a.occludersRasterized, b.occludersRasterized) << "frame " << frame;
  EXPECT_EQ(a.occluderPixels, b.occluderPixels) << "frame " << frame;
  EXPECT_EQ(a.nodesAssumedVisible, b.nodesAssumedVisible) << "frame " << frame;
  EXPECT_EQ(a.trianglesAssumedVisible, b.trianglesAssumedVisible) << "frame " << frame;
  EXPECT_EQ(a.work, b.work) << "frame " << frame;
  EXPECT_EQ(a.budgetBoxesOnly, b.budgetBoxesOnly) << "frame " << frame;
  EXPECT_EQ(a.budgetExhausted, b.budgetExhausted) << "frame " << frame;
  EXPECT_EQ(a.nodesPastBudget, b.nodesPastBudget) << "frame " << frame;
}

void checkSameBits(const IsaLevel& level, const std::string& name) {
  if (!octreeSimdAvailable(OctreeSimd::kAvx2)) GTEST_SKIP() << "no AVX2 kernels here";
  SimdScope guard;
  Octree octree;
  const OctreeBuildReport report = octree.build(level.positions, level.indices);
  ASSERT_TRUE(report.ok) << report.error;
  DrawRanges ranges;
  ranges.build(octree, level.drawn);
  const std::vector<glm::vec3> feet = floorSpots(level, octree, 4, 5);
  ASSERT_FALSE(feet.empty()) << name << ": no floor spot with headroom";
  const std::vector<glm::mat4> frames = test::scriptedWalks(octree, feet, 4, 48);
  ASSERT_FALSE(frames.empty()) << name;

  OcclusionCuller baseline, avx2;
  baseline.build(octree, ranges);
  avx2.build(octree, ranges);
  const Aabb bounds = octree.bounds();
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  DrawRunList runsA, runsB;
  uint64_t drawn = 0, pixelsWritten = 0, boxesHidden = 0, exhausted = 0;
  for (size_t f = 0; f < frames.size(); ++f) {
    OcclusionCullStats statsA, statsB;
    // Every other walk with the second test after all occluders (retestDrawn); the fourth on a
    // work budget small enough to run out (OcclusionCullParams::workBudget: the meter must read
    // the same on both kernel sets, or the drawn sets would part).
    OcclusionCullParams params;
    params.retestDrawn = (f / 48) % 2 == 1;
    if (f / 48 == 3) params.workBudget = 5'000;
    ASSERT_TRUE(octreeUseSimd(OctreeSimd::kBaseline));
    baseline.cull(octree, ranges, frames[f], &runsA, &statsA, params);
    ASSERT_TRUE(octreeUseSimd(OctreeSimd::kAvx2));
    avx2.cull(octree, ranges, frames[f], &runsB, &statsB, params);
    ASSERT_EQ(runsA.first, runsB.first) << name << " frame " << f;
    ASSERT_EQ(runsA.count, runsB.count) << name << " frame " << f;
    expectSameStats(statsA, statsB, f);
    exhausted += statsA.budgetExhausted;
    const std::span<const float> a = baseline.buffer().inverseDepth();
    const std::span<const float> b = avx2.buffer().inverseDepth();
    ASSERT_EQ(a.size(), b.size());
    ASSERT_EQ(std::memcmp(a.data(), b.data(), a.size_bytes()), 0)
        << name << " frame " << f << ": the occlusion buffers differ";
    drawn += runsA.triangles;
    for (float v : a) pixelsWritten += v > 0.0f ? 1 : 0;
    // Boxes of 0.1 to 5 m anywhere in the level's bounds (each buffer keeps the kernels its
    // begin() chose, whatever octreeSimd() says now).
    for (int k = 0; k < 32; ++k) {
      const glm::vec3 c =
          bounds.min + (bounds.max - bounds.min) * glm::vec3(u(rng), u(rng), u(rng));
      const glm::vec3 half = glm::vec3(u(rng), u(rng), u(rng)) * 2.5f + 0.05f;
      const Aabb box{c - half, c + half};
      const bool hiddenA = baseline.boxHidden(box);
      ASSERT_EQ(hiddenA, avx2.boxHidden(box)) << name << " frame " << f << " box " << k;
      boxesHidden += hiddenA ? 1 : 0;
    }
  }
  // Not vacuous: the walks drew, wrote pixels, and hid some of the boxes.
  EXPECT_GT(drawn, 0u) << name;
  EXPECT_GT(pixelsWritten, 0u) << name;
  EXPECT_GT(boxesHidden, 0u) << name;
  EXPECT_GT(exhausted, 0u) << name;  // the budget ran out at least once
  std::printf(
      "[ isa ] %s: %zu frames, same bits; %llu boxes of %zu hidden; %llu culls ran out of "
      "their work budget\n",
      name.c_str(), frames.size(), static_cast<unsigned long long>(boxesHidden), frames.size() * 32,
      static_cast<unsigned long long>(exhausted));
}

void checkShared(const std::string& name, bool zUp) {
  IsaLevel level;
  if (!test::loadCanonicalLevel(name, zUp, &level)) GTEST_SKIP() << name << " not present";
  checkSameBits(level, name);
}

TEST(OcclusionIsa, DefaultArena) {
  checkSameBits(test::arenaCullingLevel(), "arena");
}
TEST(OcclusionIsa, CollisionWorld) {
  checkShared("collision-world", false);
}
TEST(OcclusionIsa, OaDm1) {
  checkShared("oa_dm1", true);
}
TEST(OcclusionIsa, OaDm5) {
  checkShared("oa_dm5", true);
}
TEST(OcclusionIsa, OnsReborn) {
  checkShared("ons-reborn", true);
}

}  // namespace
}  // namespace ofps
