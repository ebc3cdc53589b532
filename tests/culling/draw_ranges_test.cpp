// DrawRanges: the renderer's octree-ordered index buffer and per-frame visible runs.
// Oracle: a drawn triangle whose own bounds are not outside the frustum (classified on its own,
// all six planes, no octree involved) must be inside one of the runs cull() returns.
#include "octree_fps/culling/draw_ranges.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <random>
#include <set>
#include <vector>

#include "octree_fps/spatial/octree.h"
#include "support/random_soup.h"

namespace ofps {
namespace {

glm::mat4 randomCamera(std::mt19937& rng, float extent) {
  std::uniform_real_distribution<float> pos(-extent, extent);
  std::uniform_real_distribution<float> fov(0.5f, 1.6f);
  std::uniform_real_distribution<float> far(extent * 0.2f, extent * 3.0f);
  const glm::vec3 eye(pos(rng), pos(rng), pos(rng));
  glm::vec3 target(pos(rng), pos(rng), pos(rng));
  if (glm::length(target - eye) < 1e-3f) target += glm::vec3(1.0f, 0.0f, 0.0f);
  glm::vec3 up(0.0f, 1.0f, 0.0f);
  if (std::abs(glm::dot(glm::normalize(target - eye), up)) > 0.99f) up = {1.0f, 0.0f, 0.0f};
  return glm::perspective(fov(rng), 16.0f / 9.0f, 0.05f, far(rng)) * glm::lookAt(eye, target, up);
}

// Checks the run list's shape: sorted, disjoint, never touching (merged), sums right.
void expectWellFormed(const DrawRunList& runs, uint32_t drawnTotal) {
  ASSERT_EQ(runs.first.size(), runs.count.size());
  uint64_t sum = 0;
  for (size_t i = 0; i < runs.first.size(); ++i) {
    EXPECT_GT(runs.count[i], 0u);
    EXPECT_LE(static_cast<uint64_t>(runs.first[i]) + runs.count[i], drawnTotal);
    if (i > 0) {
      EXPECT_GT(runs.first[i], runs.first[i - 1] + runs.count[i - 1]) << "not merged";
    }
    sum += runs.count[i];
  }
  EXPECT_EQ(sum, runs.triangles);
}

TEST(DrawRanges, DrawOrderIsAPermutationOfTheDrawnTriangles) {
  const std::vector<Triangle> soup = test::makeRandomSoup(11);
  Octree octree;
  ASSERT_TRUE(octree.build(soup).ok);
  std::vector<uint8_t> drawn(soup.size());
  std::mt19937 rng(5);
  for (auto& d : drawn) d = static_cast<uint8_t>(rng() % 4 != 0);  // a quarter hidden
  DrawRanges ranges;
  ranges.build(octree, drawn);
  std::vector<uint32_t> expected;
  for (uint32_t i = 0; i < drawn.size(); ++i) {
    if (drawn[i]) expected.push_back(i);
  }
  std::vector<uint32_t> got(ranges.drawOrder().begin(), ranges.drawOrder().end());
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, expected);
  // Every node's subtree maps to exactly the drawn triangles of its slot range.
  for (uint32_t n = 0; n < octree.nodeCount(); ++n) {
    const TriangleRange r = octree.subtreeRange(n);
    uint32_t drawnInRange = 0;
    for (uint32_t slot = r.first; slot < r.first + r.count; ++slot) {
      drawnInRange += drawn[octree.triangleOrder()[slot]];
    }
    EXPECT_EQ(ranges.drawnBefore(r.first + r.count) - ranges.drawnBefore(r.first), drawnInRange);
  }
}

TEST(DrawRanges, CullNeverDropsAPossiblyVisibleTriangle) {
  uint64_t checked = 0, visible = 0, culled = 0;
  for (uint32_t seed = 0; seed < 12; ++seed) {
    const std::vector<Triangle> soup = test::makeRandomSoup(100 + seed);
    std::mt19937 rng(seed);
    OctreeBuildParams params;
    params.trianglesPerLeaf = 1 + rng() % 16;
    params.maxLevel = rng() % 10;
    Octree octree;
    ASSERT_TRUE(octree.build(soup, {}, params).ok);
    std::vector<uint8_t> drawn(soup.size());
    for (auto& d : drawn) d = static_cast<uint8_t>(rng() % 8 != 0);
    DrawRanges ranges;
    ranges.build(octree, drawn);
    // Position of each original triangle in the draw order.
    std::vector<int64_t> position(soup.size(), -1);
    for (uint32_t i = 0; i < ranges.drawnTriangles(); ++i) position[ranges.drawOrder()[i]] = i;

    DrawRunList runs;
    for (int pose = 0; pose < 60; ++pose) {
      const Frustum frustum = Frustum::fromViewProjection(randomCamera(rng, 12.0f));
      ranges.cull(octree, frustum, &runs);
      expectWellFormed(runs, ranges.drawnTriangles());
      std::vector<uint8_t> inRuns(ranges.drawnTriangles(), 0);
      for (size_t i = 0; i < runs.first.size(); ++i) {
        std::fill_n(inRuns.begin() + runs.first[i], runs.count[i], 1);
      }
      for (uint32_t t = 0; t < soup.size(); ++t) {
        if (!drawn[t]) continue;
        uint32_t mask = kFrustumAllPlanes;
        const bool maybeVisible =
            classifyAabb(frustum, soup[t].bounds(), mask) != Containment::Outside;
        ++checked;
        if (maybeVisible) {
          ++visible;
          ASSERT_TRUE(inRuns[static_cast<size_t>(position[t])])
              << "seed " << seed << " pose " << pose << ": triangle " << t << " dropped";
        } else if (!inRuns[static_cast<size_t>(position[t])]) {
          ++culled;
        }
      }
    }
  }
  // Meaningfulness: the poses saw some triangles and culled many others.
  EXPECT_GT(visible, checked / 20);
  EXPECT_GT(culled, checked / 5);
}

TEST(DrawRanges, AllIsOneRunAndEmptyOctreeDrawsNothing) {
  const std::vector<Triangle> soup = test::makeRandomSoup(3);
  Octree octree;
  ASSERT_TRUE(octree.build(soup).ok);
  DrawRanges ranges;
  ranges.build(octree, {});
  DrawRunList runs;
  ranges.all(&runs);
  ASSERT_EQ(runs.first.size(), 1u);
  EXPECT_EQ(runs.count[0], soup.size());

  Octree empty;
  DrawRanges none;
  none.build(empty, {});
  none.cull(empty, Frustum::fromViewProjection(glm::mat4(1.0f)), &runs);
  EXPECT_TRUE(runs.first.empty());
  none.all(&runs);
  EXPECT_TRUE(runs.first.empty());
}

}  // namespace
}  // namespace ofps
