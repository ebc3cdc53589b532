// The overlays' shared colours and the octree overlay's default depth range
// (app/overlay/overlay_colors.h): hand-worked trees, the legend's colours told apart where the
// legend lists them.
#include "app/overlay/overlay_colors.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace ofps::app {
namespace {

DepthRange rangeOf(const std::vector<uint32_t>& perDepth) {
  return defaultOverlayDepths(perDepth);
}

TEST(DefaultOverlayDepths, ShallowTreesShowWhatThereIs) {
  EXPECT_EQ(rangeOf({}).max, 0);
  EXPECT_EQ(rangeOf({1}).min, 0);
  EXPECT_EQ(rangeOf({1}).max, 0);
  const DepthRange two = rangeOf({1, 8});
  EXPECT_EQ(two.min, 0);
  EXPECT_EQ(two.max, 1);
  const DepthRange three = rangeOf({1, 8, 64});
  EXPECT_EQ(three.min, 0);
  EXPECT_EQ(three.max, 2);
}

TEST(DefaultOverlayDepths, CentredOnTheMiddleDepth) {
  // Depth 4: middle 2, three depths 1..3 (2 + 4 + 8 nodes, well under the budget).
  const DepthRange r = rangeOf({1, 2, 4, 8, 16});
  EXPECT_EQ(r.min, 1);
  EXPECT_EQ(r.max, 3);
  // Depth 9: middle 4 -> 3..5.
  const DepthRange nine = rangeOf({1, 8, 20, 40, 60, 80, 100, 120, 100, 50});
  EXPECT_EQ(nine.min, 3);
  EXPECT_EQ(nine.max, 5);
}

TEST(DefaultOverlayDepths, MovesShallowerWhileTooManyBoxes) {
  // Depth 15 (a large level): middle 7 -> 6..8 holds 3000 + 4000 + 5000 nodes; 5..7 holds
  // 2000 + 3000 + 4000; 4..6 holds 700 + 2000 + 3000; 3..5 holds 300 + 700 + 2000 = 3000;
  // 2..4 holds 64 + 300 + 700 = 1064 <= 1500.
  const std::vector<uint32_t> perDepth = {1,    8,    64,   300,  700,  2000, 3000, 4000,
                                          5000, 5000, 4000, 3000, 2000, 1000, 500,  100};
  const DepthRange r = rangeOf(perDepth);
  EXPECT_EQ(r.min, 2);
  EXPECT_EQ(r.max, 4);
  // Never above the root, however many nodes.
  const DepthRange crowded = rangeOf({1, 5000, 5000, 5000, 5000, 5000, 5000});
  EXPECT_EQ(crowded.min, 0);
  EXPECT_EQ(crowded.max, 2);
}

bool sameColor(const glm::vec4& a, const glm::vec4& b) {
  return a.r == b.r && a.g == b.g && a.b == b.b;
}

// Told apart at a glance on screen: some channel differs by at least a quarter.
bool lookAlike(const glm::vec4& a, const glm::vec4& b) {
  return std::abs(a.r - b.r) < 0.25f && std::abs(a.g - b.g) < 0.25f && std::abs(a.b - b.b) < 0.25f;
}

TEST(OverlayColors, DepthColorsDistinctOverOneTurnThenRepeat) {
  for (uint32_t a = 0; a < kDepthColorCount; ++a) {
    for (uint32_t b = a + 1; b < kDepthColorCount; ++b) {
      EXPECT_FALSE(lookAlike(octreeDepthColor(a), octreeDepthColor(b))) << a << " vs " << b;
    }
    EXPECT_TRUE(sameColor(octreeDepthColor(a), octreeDepthColor(a + kDepthColorCount)));
  }
  // The Q view's triangle colours differ from each other and from every depth's.
  EXPECT_FALSE(lookAlike(kTestedTriangleColor, kContactTriangleColor));
  EXPECT_FALSE(lookAlike(kCapsuleColor, kContactTriangleColor));
  for (uint32_t d = 0; d < kDepthColorCount; ++d) {
    EXPECT_FALSE(lookAlike(octreeDepthColor(d), kContactTriangleColor)) << d;
  }
  // The Q view's boxes are fainter than its triangles.
  EXPECT_LT(kQueryBoxAlpha, kTestedTriangleColor.a);
}

TEST(OverlayColors, OccupancyRunsFromBlueToRed) {
  const glm::vec4 one = gridOccupancyColor(1);
  const glm::vec4 top = gridOccupancyColor(kGridOccupancyTop);
  EXPECT_GT(one.b, one.r);                                                  // one object: blue
  EXPECT_GT(top.r, top.b);                                                  // full: red
  EXPECT_TRUE(sameColor(top, gridOccupancyColor(kGridOccupancyTop * 10)));  // saturates
  // Redness never drops as the count grows, blueness never rises.
  for (uint32_t n = 1; n < kGridOccupancyTop; ++n) {
    EXPECT_GE(gridOccupancyColor(n + 1).r + 1e-6f, gridOccupancyColor(n).r) << n;
    EXPECT_LE(gridOccupancyColor(n + 1).b, gridOccupancyColor(n).b + 1e-6f) << n;
  }
}

}  // namespace
}  // namespace ofps::app
