// The props' broad phase is exact: the pairs it offers are the props whose shapes touch each
// awake prop's query box, whatever the grid's cell size. So the simulation must not depend on the
// cell size at all: the same scene stepped with cells from 0.25 m to 1 km (one cell holding
// every prop: each query then tests every prop, a brute-force broad phase) gives the same bytes.
// A cell size that made the broad phase miss a pair (a range one cell short, a prop outside the
// cells its query visits) would change a contact and, within a few steps, the states.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "octree_fps/props/props_world.h"
#include "props_test_levels.h"

namespace ofps {
namespace {

struct Snapshot {
  std::vector<glm::vec3> position, velocity;
  std::vector<uint8_t> resting, removed;
  uint64_t contacts = 0;
};

// A pile: props dropped over a 6 x 6 m patch from up to 8 m, then fast spheres thrown into it
// from four sides (60-150 m/s, some grazing the pile's top), stepped at hz for seconds.
Snapshot run(const Octree& floor, float cellSize, float hz, float seconds) {
  PropsParams params;
  params.cellSize = cellSize;
  params.killPlaneY = -20.0f;
  PropsWorld w(params);
  const uint32_t added = w.spawnRandom(700, floor, Aabb{{-3, -0.5f, -3}, {3, 8, 3}}, 11);
  EXPECT_GT(added, 600u);
  for (int k = 0; k < 24; ++k) {
    const float a = 0.2618f * static_cast<float>(k);  // 15 degrees apart
    const glm::vec3 dir(std::cos(a), 0.0f, std::sin(a));
    const float speed = 60.0f + 4.0f * static_cast<float>(k);
    w.throwSphere(-dir * 9.0f + glm::vec3(0.0f, 0.3f + 0.1f * static_cast<float>(k % 5), 0.0f),
                  dir * speed, 0.02f + 0.02f * static_cast<float>(k % 4));
  }
  Snapshot s;
  const int steps = static_cast<int>(seconds * hz + 0.5f);
  for (int i = 0; i < steps; ++i) {
    w.step(floor, 1.0f / hz);
    s.contacts += w.lastStepStats().contacts;
  }
  std::string error;
  EXPECT_TRUE(w.validate(&error)) << error;
  s.position.assign(w.positions().begin(), w.positions().end());
  s.velocity.assign(w.velocities().begin(), w.velocities().end());
  s.resting.assign(w.resting().begin(), w.resting().end());
  s.removed.assign(w.removed().begin(), w.removed().end());
  return s;
}

bool sameBytes(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(glm::vec3)) == 0;
}

void expectSame(const Snapshot& ref, const Snapshot& s, float cellSize, float hz) {
  EXPECT_TRUE(sameBytes(ref.position, s.position)) << cellSize << " m cells, " << hz << " Hz";
  EXPECT_TRUE(sameBytes(ref.velocity, s.velocity)) << cellSize << " m cells, " << hz << " Hz";
  EXPECT_EQ(ref.resting, s.resting) << cellSize << " m cells, " << hz << " Hz";
  EXPECT_EQ(ref.removed, s.removed) << cellSize << " m cells, " << hz << " Hz";
  EXPECT_EQ(ref.contacts, s.contacts) << cellSize << " m cells, " << hz << " Hz";
}

TEST(PropsBroadPhase, StepIsIndependentOfTheCellSize) {
  const Octree floor = test::makeFloor();
  for (const float hz : {30.0f, 240.0f}) {
    const float seconds = hz < 100.0f ? 2.0f : 0.75f;
    // Reference: 1 km cells, every prop in one cell (the brute-force broad phase).
    const Snapshot ref = run(floor, 1000.0f, hz, seconds);
    EXPECT_GT(ref.contacts, 1000u) << "the scene must pile props up";
    for (const float cellSize : {0.25f, 0.7f, 2.0f, 6.0f}) {
      expectSame(ref, run(floor, cellSize, hz, seconds), cellSize, hz);
    }
  }
}

}  // namespace
}  // namespace ofps
