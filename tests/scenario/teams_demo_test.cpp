// The two-teams mode: the grid's "enemies within R" answers equal brute force's N x M loop for
// every agent, with far fewer checks, and the checks are lowest near cellSize ~ R.

#include "scenario/teams_demo.h"

#include <gtest/gtest.h>

#include <vector>

namespace ofps::test {
namespace {

TEST(TeamsDemo, GridAnswersEqualBruteForce) {
  TeamsParams p;
  p.perTeam = 800;
  p.radius = 2.0f;
  p.cellSize = 2.0f;
  TeamsDemo demo(p);
  std::vector<uint32_t> brute(demo.agentCount());
  uint64_t hits = 0, zero = 0;
  for (int frame = 0; frame < 30; ++frame) {
    demo.step(1.0f / 60.0f);
    const TeamsFrameStats& st = demo.lastStats();
    const uint64_t checks = demo.bruteForce(brute);
    EXPECT_EQ(checks, 2ull * 800ull * 800ull);
    EXPECT_EQ(st.grid.bruteForceChecks, checks);
    for (uint32_t i = 0; i < demo.agentCount(); ++i) {
      ASSERT_EQ(demo.enemiesNear()[i], brute[i]) << "agent " << i << " frame " << frame;
      zero += brute[i] == 0 ? 1u : 0u;
    }
    hits += st.grid.hits;
    EXPECT_LT(st.grid.candidates * 10, st.grid.bruteForceChecks);
  }
  // Meaningful: agents see some enemies, but not all of them see some.
  EXPECT_GT(hits, 30u * 200u);
  EXPECT_GT(zero, 30u * 50u);
  std::string err;
  EXPECT_TRUE(demo.teamGrid(0).validate(&err)) << err;
}

TEST(TeamsDemo, SweetSpotNearTheQueryRadius) {
  TeamsParams p;
  p.perTeam = 1000;
  p.radius = 2.0f;
  TeamsDemo demo(p);
  auto work = [&](float cs) {
    demo.setCellSize(cs);
    const TeamsFrameStats& st = demo.query();
    return st.grid.candidates + st.grid.cellsVisited;
  };
  const uint64_t tiny = work(0.25f), atR = work(2.0f), huge = work(16.0f);
  EXPECT_LT(atR, tiny);
  EXPECT_LT(atR, huge);
}

}  // namespace
}  // namespace ofps::test
