// The two-teams mode's cost sweep (TeamsDemo::measureCellSize): at every cell size the measured
// queries find exactly the enemies brute force finds, the sweep leaves the demo's own grids
// alone, and the cheapest cell size lies inside the sweep near the query radius.

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "scenario/teams_demo.h"

namespace ofps::test {
namespace {

TEST(TeamsCost, LogSpacedSizesAreEvenRatios) {
  const std::vector<float> s = logSpacedCellSizes(0.5f, 32.0f, 7);  // 0.5 x 2^k
  ASSERT_EQ(s.size(), 7u);
  for (size_t i = 0; i < s.size(); ++i) {
    EXPECT_NEAR(s[i], 0.5f * std::pow(2.0f, static_cast<float>(i)), 1e-4f * s[i]) << i;
  }
}

TEST(TeamsCost, EveryCellSizeFindsWhatBruteForceFinds) {
  TeamsParams p;
  p.perTeam = 600;
  p.radius = 2.0f;
  p.cellSize = 2.0f;
  TeamsDemo demo(p);
  for (int frame = 0; frame < 10; ++frame) demo.step(1.0f / 60.0f);
  std::vector<uint32_t> near(demo.agentCount());
  demo.bruteForce(near);
  const uint64_t bruteHits = std::accumulate(near.begin(), near.end(), uint64_t{0});
  ASSERT_GT(bruteHits, 1000u) << "agents must meet for the comparison to mean anything";
  const TeamsFrameStats before = demo.lastStats();
  for (float size : logSpacedCellSizes(0.25f, 60.0f, 12)) {
    const CellSizeCost c = demo.measureCellSize(size);
    EXPECT_EQ(c.cellSize, size);
    EXPECT_EQ(c.grid.hits, bruteHits) << "cell size " << size;
    EXPECT_EQ(c.grid.bruteForceChecks, 2ull * 600ull * 600ull);
    EXPECT_GE(c.grid.candidates, c.grid.hits);
  }
  // The demo's grids, cell size and figures are untouched.
  EXPECT_EQ(demo.params().cellSize, 2.0f);
  EXPECT_EQ(demo.lastStats().grid.candidates, before.grid.candidates);
  EXPECT_EQ(demo.teamGrid(0).cellSize(), 2.0f);
  // Measured at the demo's own cell size, the sweep's work is the demo's frame work.
  const CellSizeCost same = demo.measureCellSize(2.0f);
  const TeamsFrameStats& now = demo.query();
  EXPECT_EQ(same.grid.cellsVisited, now.grid.cellsVisited);
  EXPECT_EQ(same.grid.candidates, now.grid.candidates);
}

TEST(TeamsCost, CheapestCellSizeIsInsideTheSweepNearR) {
  TeamsParams p;
  p.perTeam = 1000;
  p.radius = 2.0f;
  TeamsDemo demo(p);
  std::vector<CellSizeCost> costs;
  for (float size : logSpacedCellSizes(p.radius / 8.0f, p.radius * 8.0f, 12)) {
    costs.push_back(demo.measureCellSize(size));
  }
  const size_t best = cheapestCellSize(costs);
  for (const CellSizeCost& c : costs) EXPECT_LE(costs[best].cost(), c.cost());
  // Tiny cells: many lookups per query; huge cells: every enemy nearby is a candidate. The
  // valley lies between, within a factor of 4 of R (teams_demo.h).
  EXPECT_GT(best, 0u);
  EXPECT_LT(best, costs.size() - 1);
  EXPECT_GE(costs[best].cellSize, p.radius / 4.0f);
  EXPECT_LE(costs[best].cellSize, p.radius * 4.0f);
  EXPECT_LT(costs[best].cost() * 10, costs[best].grid.bruteForceChecks);
}

}  // namespace
}  // namespace ofps::test
