// The default level (assets/arena.glb): each feature of arena.features.json walked by a script,
// asserting the outcome its author wrote down for the default character sizes. Also the trace
// format and determinism of scripted runs.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <glm/geometric.hpp>
#include <memory>
#include <string>
#include <vector>

#include "level/level_loader.h"
#include "scenario/script.h"
#include "scenario/script_runner.h"
#include "support/arena_fixture.h"
#include "support/test_paths.h"

namespace ofps::test {
namespace {

const Arena& arena() {
  return defaultArena();
}

struct WalkResult {
  std::vector<TraceRow> rows;
  uint32_t penetratingRows = 0;  // rows where the capsule is inside the level deeper than skin
  float minY = 1e30f, maxY = -1e30f;
  const TraceRow& last() const { return rows.back(); }
};

WalkResult runScript(const std::string& text) {
  const Arena& a = arena();
  ScriptParseResult parsed = parseScript(text, "test.script");
  EXPECT_TRUE(parsed.ok) << parsed.error;
  ScenarioParams all;
  all.controller.layerMask = kLayerSolid;
  std::string err;
  EXPECT_TRUE(parsed.script.applyParams(all, &err)) << err;
  const ControllerParams& params = all.controller;
  ScriptRunner runner(parsed.script, params, all.throwing, a.level.spawn.value_or(glm::vec3(0.0f)),
                      a.level.spawnYaw, killPlaneY(a.level));
  WalkResult run;
  runner.run(a.octree, [&](const TraceRow& row) {
    run.rows.push_back(row);
    run.minY = std::min(run.minY, row.feet.y);
    run.maxY = std::max(run.maxY, row.feet.y);
    glm::vec3 p, q;
    runner.controller().capsule(p, q);
    if (a.octree.collectCapsule(p, q, params.radius - params.skin, kLayerSolid, {}) > 0) {
      ++run.penetratingRows;
    }
  });
  return run;
}

std::string spawnAt(float x, float z, float yawDeg) {
  return "spawn " + std::to_string(x) + " 0 " + std::to_string(z) + " " + std::to_string(yawDeg) +
         "\n";
}

TEST(ControllerArena, LoadsWithSpawn) {
  ASSERT_TRUE(arena().level.spawn.has_value());
  EXPECT_GT(arena().octree.triangleCount(), 1000u);
}

TEST(ControllerArena, StairsUpToThirtyCentimetresAreWalkedUp) {
  struct S {
    float x, landingY;
  };
  for (S s : {S{-26.0f, 0.5f}, S{-22.0f, 1.0f}, S{-18.0f, 1.5f}}) {
    // From z = 0 to the landing centre at z = -5 (5 m at 4.5 m/s).
    const WalkResult r = runScript(spawnAt(s.x, 0.0f, 0.0f) +
                                   "at 0 hold forward\nat 1.15 release forward\nend 1.8\n");
    EXPECT_NEAR(r.last().feet.y, s.landingY, 0.045f) << s.x;
    EXPECT_LT(r.last().feet.z, -4.0f) << s.x;
    EXPECT_GT(r.last().feet.z, -6.0f) << s.x;
    EXPECT_TRUE(r.last().grounded) << s.x;
    EXPECT_GE(r.minY, 0.0f) << s.x;
    EXPECT_EQ(r.penetratingRows, 0u) << s.x;
  }
}

TEST(ControllerArena, FortyFiveCentimetreStairsBlockWithoutJumping) {
  const WalkResult r = runScript(spawnAt(-14.0f, 0.0f, 0.0f) + "at 0 hold forward\nend 3\n");
  EXPECT_LT(r.maxY, 0.05f);
  EXPECT_GT(r.last().feet.z, -2.0f + 0.35f);
  EXPECT_EQ(r.penetratingRows, 0u);
}

TEST(ControllerArena, RampsUpToFortyFiveDegreesAreWalkedUpSixtySlidesBack) {
  struct R {
    float x, landingZ;
    bool walkable;
  };
  for (R ramp : {R{4.0f, -10.464102f, true}, R{9.0f, -6.464102f, true}, R{14.0f, -5.0f, true},
                 R{19.0f, -4.154701f, false}}) {
    const double release = double(std::abs(ramp.landingZ)) / 4.5 + 0.05;
    const WalkResult r =
        runScript(spawnAt(ramp.x, 0.0f, 0.0f) + "at 0 hold forward\nat " + std::to_string(release) +
                  " release forward\nend " + std::to_string(release + 1.5) + "\n");
    if (ramp.walkable) {
      EXPECT_NEAR(r.last().feet.y, 2.0f, 0.045f) << ramp.x;
      EXPECT_TRUE(r.last().grounded) << ramp.x;
    } else {
      EXPECT_LT(r.maxY, 0.4f) << ramp.x;
      EXPECT_LT(r.last().feet.y, 0.05f) << ramp.x;
    }
    EXPECT_GE(r.minY, 0.0f) << ramp.x;
    EXPECT_EQ(r.penetratingRows, 0u) << ramp.x;
  }
}

TEST(ControllerArena, ThinWallBlocksAtAnySpeed) {
  for (const char* speed : {"7", "30", "100"}) {
    const WalkResult r =
        runScript(std::string("set sprint_speed ") + speed + "\nset accel 10000\n" +
                  spawnAt(-7.0f, 0.0f, 0.0f) + "at 0 hold forward\nat 0 hold sprint\nend 1.5\n");
    float minZ = 1e9f;
    for (const TraceRow& row : r.rows) minZ = std::min(minZ, row.feet.z);
    EXPECT_GT(minZ, -3.995f + 0.35f) << speed;
    EXPECT_EQ(r.penetratingRows, 0u) << speed;
  }
}

TEST(ControllerArena, DoorwayPassesNarrowGapBlocks) {
  const WalkResult door = runScript(spawnAt(-2.0f, 17.0f, 180.0f) + "at 0 hold forward\nend 2\n");
  EXPECT_GT(door.last().feet.z, 20.1f + 0.35f);
  EXPECT_EQ(door.penetratingRows, 0u);
  const WalkResult gap = runScript(spawnAt(2.0f, 17.0f, 180.0f) + "at 0 hold forward\nend 2\n");
  // The round front enters the 0.5 m gap up to where both edges touch it (0.245 m), no more.
  EXPECT_LT(gap.last().feet.z, 19.9f - 0.24f);
  EXPECT_EQ(gap.penetratingRows, 0u);
}

TEST(ControllerArena, CrouchCorridorPassesCrouchedOnly) {
  const WalkResult standing =
      runScript(spawnAt(-16.0f, 13.0f, 90.0f) + "at 0 hold forward\nend 3\n");
  EXPECT_GT(standing.last().feet.x, -18.0f + 0.3f);
  const WalkResult crouched =
      runScript(spawnAt(-16.0f, 13.0f, 90.0f) +
                "at 0 hold crouch\nat 0 hold forward\nat 5.2 release crouch\n"
                "end 6\n");
  EXPECT_LT(crouched.last().feet.x, -26.0f);
  EXPECT_FALSE(crouched.last().crouched);  // stood up once out
  EXPECT_EQ(crouched.penetratingRows, 0u);
}

TEST(ControllerArena, LedgeNeedsAJump) {
  const WalkResult walk = runScript(spawnAt(17.5f, 16.5f, 180.0f) + "at 0 hold forward\nend 2\n");
  EXPECT_LT(walk.maxY, 0.05f);
  const WalkResult jump = runScript(spawnAt(17.5f, 16.5f, 180.0f) +
                                    "at 0 hold forward\nat 0.1 tap jump\nat 1.0 release forward\n"
                                    "end 2\n");
  EXPECT_NEAR(jump.last().feet.y, 1.0f, 0.045f);
  EXPECT_TRUE(jump.last().grounded);
  EXPECT_EQ(jump.penetratingRows, 0u);
}

TEST(ControllerArena, OverhangFitsStandingAndStopsAJump) {
  const WalkResult r = runScript(spawnAt(-11.0f, 25.0f, 0.0f) + "at 0.2 tap jump\nend 2\n");
  EXPECT_LE(r.maxY + 1.8f, 2.0f);
  EXPECT_GT(r.maxY, 0.1f);
  EXPECT_TRUE(r.last().grounded);
  EXPECT_EQ(r.penetratingRows, 0u);
}

TEST(ControllerArena, VoidShaftRespawns) {
  const WalkResult r = runScript(spawnAt(25.5f, 23.0f, 180.0f) +
                                 "at 0 hold forward\nat 0.6 release forward\nend 4\n");
  bool respawned = false;
  for (const TraceRow& row : r.rows) respawned = respawned || row.respawned;
  EXPECT_TRUE(respawned);
  EXPECT_GE(r.minY, killPlaneY(arena().level) - 1.0f);
}

TEST(ControllerArena, PitIsFallenIntoAndClimbedOutByItsStairs) {
  // Fall in, then walk to the foot of the exit stairs (x = 13.2 .. 10, z = 13 .. 14) and up.
  const WalkResult r = runScript(spawnAt(12.0f, 9.0f, 180.0f) +
                                 "at 0 hold forward\nat 0.55 release forward\n"
                                 "at 1.2 look 270 0\nat 1.2 hold forward\nat 1.6 release forward\n"
                                 "at 1.7 look 180 0\nat 1.7 hold forward\nat 2.0 release forward\n"
                                 "at 2.1 look 90 0\nat 2.1 hold forward\nend 5\n");
  EXPECT_GE(r.minY, -2.0f);
  EXPECT_LT(r.minY, -1.9f);  // was in the pit
  EXPECT_EQ(r.penetratingRows, 0u);
}

// The same script at 30, 60, 120, 240 and 500 Hz gives the same path. Up the 20 cm
// stairs, off the side of their landing (a 1 m fall), a jump, into the outer wall at 30 degrees
// and along it; every command time is a multiple of 0.1 s, so it starts on a step at every rate.
// Bound: 1 cm at every 0.1 s sample against the 500 Hz run, at 30, 60, 120 and 240 Hz (the
// goal was 5 cm; measured 4.5, 2.1, 0.9 and 0.7 mm). What makes it hold: the displacement
// integrates the accelerations exactly; a character placed on the ground walks with the
// ground's acceleration from its first step; rolling over an edge follows the circle about it
// exactly; a fall off a ledge starts where the support ended within the step (bisection, 1/16
// step). What remains is that 1/16 step and where within a step a contact falls.
TEST(ControllerArena, SamePathAtEveryTickRate) {
  const std::string body =
      spawnAt(-22.0f, 1.0f, 0.0f) + "at 0 hold forward\nat 1.3 look 60 0\nat 2.5 tap jump\nend 5\n";
  auto sampled = [&](int hz) {
    const WalkResult r = runScript("set tick_hz " + std::to_string(hz) + "\n" + body);
    EXPECT_EQ(r.penetratingRows, 0u) << hz;
    std::vector<glm::vec3> out;
    const int every = hz / 10;
    for (size_t i = 0; i < r.rows.size(); i += size_t(every)) out.push_back(r.rows[i].feet);
    return out;
  };
  const std::vector<glm::vec3> ref = sampled(500);
  ASSERT_EQ(ref.size(), 51u);
  // Meaningful: it climbed (landing at 1 m), fell, and slid along the wall at x = -30.
  EXPECT_GT(ref[12].y, 0.9f);
  EXPECT_LT(ref.back().y, 0.05f);
  EXPECT_NEAR(ref.back().x, -30.0f + 0.35f + 0.02f, 2e-3f);
  for (int hz : {30, 60, 120, 240}) {
    const std::vector<glm::vec3> path = sampled(hz);
    ASSERT_EQ(path.size(), ref.size()) << hz;
    float worst = 0.0f;
    size_t worstAt = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
      const float d = glm::length(path[i] - ref[i]);
      if (d > worst) {
        worst = d;
        worstAt = i;
      }
    }
    std::printf("[tick-rate] %d Hz vs 500 Hz: worst %.4f m at t = %.1f s, end %.4f m\n", hz,
                double(worst), 0.1 * double(worstAt),
                double(glm::length(path.back() - ref.back())));
    EXPECT_LT(worst, 0.01f) << hz << " Hz, at t = " << 0.1 * double(worstAt);
  }
}

TEST(ControllerScript, TraceIsDeterministicAndInTheScriptFormat) {
  const std::string text =
      "# a walk through the arena\nset tick_hz 120\nspawn 0 0 8 0\n"
      "at 0 hold forward\nat 0.5 hold sprint\nat 1 turn 45 0\nat 1.5 tap jump\n"
      "at 2 hold crouch\nat 2.5 release crouch\nat 3 turn -120 10\nat 3.2 throw\n"
      "at 4 fly on\nat 4.5 fly off\nat 5 release forward\nend 6\n";
  ScriptParseResult parsed = parseScript(text, "walk.script");
  ASSERT_TRUE(parsed.ok) << parsed.error;
  ScenarioParams all;
  ASSERT_TRUE(parsed.script.applyParams(all));
  const ControllerParams& params = all.controller;
  const Arena& a = arena();
  const std::string first =
      runScriptToCsv(parsed.script, params, a.octree, *a.level.spawn, 0.0f, killPlaneY(a.level));
  const std::string second =
      runScriptToCsv(parsed.script, params, a.octree, *a.level.spawn, 0.0f, killPlaneY(a.level));
  EXPECT_EQ(first, second);
  // Header, the t = 0 row and 720 steps.
  size_t lines = 0;
  for (char c : first) lines += c == '\n';
  EXPECT_EQ(lines, 1u + 1u + 720u);
  EXPECT_EQ(first.rfind(
                "t,x,y,z,vx,vy,vz,grounded,crouched,flying,respawned\n0,0,0,8,0,0,0,0,0,0,0\n", 0),
            0u)
      << first.substr(0, 200);
  EXPECT_NE(first.find("\n6,"), std::string::npos);        // the last row at t = 6
  EXPECT_NE(first.find(",0,0,1,0\n"), std::string::npos);  // flying rows
}

}  // namespace
}  // namespace ofps::test
