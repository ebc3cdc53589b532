// The run difference the demo's frozen view draws in red (subtractRuns), against a per-triangle
// set difference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "octree_fps/culling/occlusion_cull.h"

namespace ofps {
namespace {

// Random sorted disjoint runs over [0, n).
DrawRunList randomRuns(std::mt19937& rng, uint32_t n, double density) {
  DrawRunList runs;
  std::uniform_int_distribution<uint32_t> gap(0, 6), len(1, 8);
  std::bernoulli_distribution take(density);
  uint32_t at = gap(rng);
  while (at < n) {
    const uint32_t count = std::min(len(rng), n - at);
    if (take(rng)) {
      runs.first.push_back(at);
      runs.count.push_back(count);
      runs.triangles += count;
    }
    at += count + gap(rng);
  }
  return runs;
}

std::vector<uint8_t> membership(const DrawRunList& runs, uint32_t n) {
  std::vector<uint8_t> in(n, 0);
  for (size_t i = 0; i < runs.first.size(); ++i) {
    for (uint32_t t = runs.first[i]; t < runs.first[i] + runs.count[i]; ++t) in[t] = 1;
  }
  return in;
}

TEST(SubtractRuns, MatchesPerTriangleSetDifference) {
  std::mt19937 rng(20261201);
  constexpr uint32_t kN = 300;
  int nonEmpty = 0, partial = 0;
  for (int trial = 0; trial < 500; ++trial) {
    const DrawRunList all = randomRuns(rng, kN, 0.8);
    const DrawRunList part = randomRuns(rng, kN, 0.5);
    DrawRunList out;
    out.first = {7};  // stale content: must be cleared
    out.count = {1};
    out.triangles = 1;
    subtractRuns(all, part, &out);
    const std::vector<uint8_t> a = membership(all, kN), b = membership(part, kN);
    std::vector<uint8_t> expected(kN);
    uint32_t expectedCount = 0;
    for (uint32_t t = 0; t < kN; ++t) {
      expected[t] = a[t] && !b[t];
      expectedCount += expected[t];
    }
    ASSERT_EQ(membership(out, kN), expected) << "trial " << trial;
    ASSERT_EQ(out.triangles, expectedCount);
    for (size_t i = 0; i < out.first.size(); ++i) {
      ASSERT_GT(out.count[i], 0u);
      if (i > 0) {
        ASSERT_GE(out.first[i], out.first[i - 1] + out.count[i - 1]);  // sorted, disjoint
      }
    }
    nonEmpty += expectedCount > 0;
    partial += expectedCount > 0 && expectedCount < all.triangles;
  }
  // Meaningful: most trials cut some runs and keep others.
  EXPECT_GT(partial, 400);
  EXPECT_GT(nonEmpty, 400);
}

}  // namespace
}  // namespace ofps
