// Scenario tests of the character controller on small geometry built in the test: each asserts
// what a player expects (where the feet end up, never below the floor, never inside the level by
// more than the skin). Fixed 120 Hz step, default parameters unless said.

#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>

#include "controller_test_util.h"
#include "octree_fps/controller/character_controller.h"

namespace ofps::test {
namespace {

constexpr float kBig = 40.0f;  // half-size of the test floors, m

ControllerParams defaults() {
  return ControllerParams{};
}

// A big floor at y = 0 under everything (a slab, so it also has thickness).
void addGround(MeshBuilder& m, uint32_t splits = 1) {
  m.floor(0.0f, -kBig, kBig, -kBig, kBig, splits, splits);
}

float horizSpeed(const CharacterController& c) {
  return std::hypot(c.velocity().x, c.velocity().z);
}

TEST(ControllerScenario, FallsAndLandsOnFlatGround) {
  MeshBuilder m;
  addGround(m);
  const Octree o = m.build();
  Sim s(o, defaults(), {0.0f, 2.0f, 0.0f});
  s.run(1.5);
  EXPECT_TRUE(s.ctrl.grounded());
  EXPECT_GE(s.ctrl.feet().y, 0.0f);
  EXPECT_LE(s.ctrl.feet().y, 2.0f * s.ctrl.params().skin + 1e-4f);
  EXPECT_EQ(s.ctrl.velocity(), glm::vec3(0.0f));
  EXPECT_GE(s.minFeetY, 0.0f);
  EXPECT_EQ(s.penetratingSteps, 0u);
}

TEST(ControllerScenario, WalksAtWalkSpeedAndStopsByFriction) {
  MeshBuilder m;
  addGround(m);
  const Octree o = m.build();
  Sim s(o, defaults(), {0.0f, 0.0f, 0.0f});
  s.run(0.2);
  s.input.forward = true;
  s.run(1.0);
  EXPECT_NEAR(horizSpeed(s.ctrl), 4.5f, 1e-3f);
  EXPECT_LT(s.ctrl.feet().z, -3.5f);  // yaw 0 walks along -Z
  EXPECT_NEAR(s.ctrl.feet().x, 0.0f, 1e-4f);
  s.input.forward = false;
  s.run(0.5);
  EXPECT_EQ(horizSpeed(s.ctrl), 0.0f);
  s.input.sprint = true;
  s.input.forward = true;
  s.setYawDeg(90.0f);  // along -X
  s.run(1.0);
  EXPECT_NEAR(horizSpeed(s.ctrl), 7.0f, 1e-3f);
  EXPECT_LT(s.ctrl.velocity().x, -6.9f);
  EXPECT_TRUE(s.ctrl.grounded());
  EXPECT_EQ(s.penetratingSteps, 0u);
}

TEST(ControllerScenario, StartInsideGeometryIsPushedOut) {
  MeshBuilder m;
  addGround(m);
  m.box({-0.5f, 0.0f, -0.5f}, {0.5f, 1.0f, 0.5f});
  const Octree o = m.build();
  // Feet 0.2 m into the box's side, standing on the floor.
  Sim s(o, defaults(), {0.7f, 0.0f, 0.0f});
  s.run(1.0 / 120.0);
  EXPECT_TRUE(s.ctrl.lastStepStats().depenetrated);
  EXPECT_FALSE(s.penetratesDeeperThanSkin());
  s.run(0.5);
  EXPECT_GE(s.ctrl.feet().x, 0.5f + 0.35f - 1e-3f);
  EXPECT_TRUE(s.ctrl.grounded());
}

TEST(ControllerScenario, StandingStillOnWalkableSlopeDoesNotCreep) {
  for (float angle : {15.0f, 30.0f, 44.0f}) {
    MeshBuilder m;
    addGround(m);
    m.ramp(angle, 4.0f, -3.0f, 3.0f, 0.0f, 4.0f);
    const Octree o = m.build();
    const float run = 4.0f / std::tan(glm::radians(angle));
    Sim s(o, defaults(), {0.0f, 3.0f, -run * 0.5f});
    s.run(1.0);
    ASSERT_TRUE(s.ctrl.grounded()) << angle;
    const glm::vec3 rest = s.ctrl.feet();
    s.run(3.0);
    EXPECT_EQ(s.ctrl.feet(), rest) << angle;  // not a micrometre of creep
    EXPECT_EQ(s.penetratingSteps, 0u) << angle;
  }
}

TEST(ControllerScenario, SlidesDownTooSteepSlopeAndCannotWalkUpIt) {
  MeshBuilder m;
  addGround(m);
  m.ramp(60.0f, 4.0f, -3.0f, 3.0f, 0.0f, 4.0f);
  const Octree o = m.build();
  const float run = 4.0f / std::tan(glm::radians(60.0f));
  {
    Sim s(o, defaults(), {0.0f, 2.5f, -run * 0.6f});
    s.run(3.0);
    EXPECT_LT(s.ctrl.feet().y, 0.05f);  // slid to the bottom
    EXPECT_TRUE(s.ctrl.grounded());
    EXPECT_EQ(s.penetratingSteps, 0u);
  }
  {
    Sim s(o, defaults(), {0.0f, 0.0f, 2.0f});
    s.input.forward = true;
    s.run(4.0);
    EXPECT_LT(s.maxFeetY, 0.3f);  // never got far up it
    EXPECT_LT(s.ctrl.feet().y, 0.1f);
    EXPECT_GT(s.ctrl.feet().z, -0.5f);
    EXPECT_EQ(s.penetratingSteps, 0u);
  }
}

TEST(ControllerScenario, WalksUpWalkableRampsToTheTop) {
  for (float angle : {15.0f, 30.0f, 45.0f}) {
    MeshBuilder m;
    addGround(m);
    m.ramp(angle, 2.0f, -3.0f, 3.0f, 0.0f, 6.0f);
    const Octree o = m.build();
    const float run = 2.0f / std::tan(glm::radians(angle));
    Sim s(o, defaults(), {0.0f, 0.0f, 2.0f});
    s.input.forward = true;
    s.run(double(run + 6.0f) / 4.5);
    EXPECT_NEAR(s.ctrl.feet().y, 2.0f, 2.0f * s.ctrl.params().skin + 1e-3f) << angle;
    EXPECT_TRUE(s.ctrl.grounded()) << angle;
    EXPECT_EQ(s.penetratingSteps, 0u) << angle;
  }
}

TEST(ControllerScenario, WalkingDownRampsAndStairsStaysGrounded) {
  struct Case {
    bool stairs;
    float value;  // angle or rise
  };
  for (Case c : {Case{false, 30.0f}, Case{false, 45.0f}, Case{true, 0.2f}, Case{true, 0.3f}}) {
    MeshBuilder m;
    addGround(m);
    float top;
    if (c.stairs) {
      m.stairs(c.value, 0.4f, 6, -2.0f, 2.0f, 0.0f, 3.0f);
      top = c.value * 6.0f;
    } else {
      m.ramp(c.value, 2.0f, -2.0f, 2.0f, 0.0f, 3.0f);
      top = 2.0f;
    }
    const Octree o = m.build();
    // Start on the top landing facing +Z (yaw 180) and walk down.
    const float topZ =
        c.stairs ? -0.4f * 6.0f - 1.5f : -2.0f / std::tan(glm::radians(c.value)) - 1.5f;
    Sim s(o, defaults(), {0.0f, top + 0.01f, topZ}, 180.0f);
    s.run(0.5);
    ASSERT_TRUE(s.ctrl.grounded());
    s.input.forward = true;
    uint32_t airborne = 0;
    float maxUp = 0.0f;
    s.run(2.0, [&](const Sim& sim) {
      if (!sim.ctrl.grounded()) ++airborne;
      maxUp = std::max(maxUp, sim.ctrl.velocity().y);
    });
    // Ramps: snapped every step, no bounce. Stairs: stick to the floor holds the character on
    // each nose it rolls over (the next tread is within stick_to_floor below), so it is grounded
    // on every step too (before stick to the floor it fell from each nose: 52 and 65 of 240
    // steps airborne for 0.2 and 0.3 m risers). Never moving up.
    EXPECT_EQ(airborne, 0u) << c.value;
    EXPECT_LT(s.ctrl.feet().y, 0.05f);
    EXPECT_GT(s.ctrl.feet().z, 1.0f);
    EXPECT_LE(maxUp, 1e-3f);
    EXPECT_EQ(s.penetratingSteps, 0u);
  }
}

TEST(ControllerScenario, ClimbsStepsUpToStepHeightOnly) {
  for (float rise : {0.1f, 0.2f, 0.3f, 0.34f, 0.36f, 0.45f}) {
    MeshBuilder m;
    addGround(m);
    m.stairs(rise, 0.4f, 5, -2.0f, 2.0f, 0.0f, 6.0f);  // landing z in [-8, -2]
    const Octree o = m.build();
    Sim s(o, defaults(), {0.0f, 0.0f, 2.0f});
    s.input.forward = true;
    s.run(2.0);  // 9 m at walk speed if nothing blocks
    const bool climbs = rise <= 0.35f;
    if (climbs) {
      EXPECT_NEAR(s.ctrl.feet().y, 5.0f * rise, 2.0f * s.ctrl.params().skin + 1e-3f) << rise;
      EXPECT_LT(s.ctrl.feet().z, -2.0f) << rise;
    } else {
      EXPECT_LT(s.ctrl.feet().y, 0.05f) << rise;
      EXPECT_GT(s.ctrl.feet().z, 0.3f) << rise;
    }
    EXPECT_TRUE(s.ctrl.grounded()) << rise;
    EXPECT_EQ(s.penetratingSteps, 0u) << rise;
  }
}

TEST(ControllerScenario, ThinWallStopsAnySpeed) {
  for (float speed : {4.5f, 30.0f, 300.0f, 3000.0f}) {
    MeshBuilder m;
    addGround(m);
    m.box({-5.0f, 0.0f, -3.005f}, {5.0f, 3.0f, -2.995f});  // 1 cm thick
    m.quad({-5.0f, 0.0f, -6.0f}, {5.0f, 0.0f, -6.0f}, {5.0f, 3.0f, -6.0f},
           {-5.0f, 3.0f, -6.0f});  // zero thickness
    const Octree o = m.build();
    ControllerParams p;
    p.walkSpeed = speed;
    p.accel = 10000.0f;
    Sim s(o, p, {0.0f, 0.0f, 0.0f});
    s.input.forward = true;
    float minZ = 0.0f;
    s.run(1.0, [&](const Sim& sim) { minZ = std::min(minZ, sim.ctrl.feet().z); });
    EXPECT_GT(minZ, -2.995f + 0.35f - 1e-3f) << speed;
    EXPECT_EQ(s.penetratingSteps, 0u) << speed;
    // From the other side, against the zero-thickness quad, falling fast diagonally too.
    Sim t(o, p, {0.0f, 2.0f, -4.0f});
    t.input.forward = true;
    t.ctrl.teleport({0.0f, 2.0f, -4.0f}, 0.0f);
    t.run(1.0, [&](const Sim& sim) { minZ = std::min(minZ, sim.ctrl.feet().z); });
    EXPECT_GT(t.ctrl.feet().z, -6.0f + 0.35f - 1e-3f) << speed;
    EXPECT_EQ(t.penetratingSteps, 0u) << speed;
  }
}

TEST(ControllerScenario, FastFallDoesNotTunnelThroughThinFloor) {
  MeshBuilder m;
  m.floor(0.0f, -2.0f, 2.0f, -2.0f, 2.0f);  // a single zero-thickness quad
  const Octree o = m.build();
  ControllerParams p;
  p.gravity = 1000.0f;
  p.maxFallSpeed = 1000.0f;
  Sim s(o, p, {0.0f, 500.0f, 0.0f});
  s.run(2.0);
  EXPECT_GE(s.minFeetY, 0.0f);
  EXPECT_TRUE(s.ctrl.grounded());
  EXPECT_EQ(s.penetratingSteps, 0u);
}

// Internal edges: a floor and a wall split into many triangles (a grid, and a fan of slivers)
// must feel like one plane: no bump in height, no catch in speed.
TEST(ControllerScenario, SeamsBetweenCoplanarTrianglesNeitherBumpNorCatch) {
  MeshBuilder m;
  m.floor(0.0f, -kBig, kBig, -kBig, kBig, 80, 80);  // 1 m quads
  // A wall at x = 3 made of 0.25 m quads, and a sliver fan floor region.
  for (int i = 0; i < 160; ++i) {
    for (int j = 0; j < 12; ++j) {
      const float z0 = -20.0f + 0.25f * float(i), y0 = 0.25f * float(j);
      m.quad({3.0f, y0, z0}, {3.0f, y0 + 0.25f, z0}, {3.0f, y0 + 0.25f, z0 + 0.25f},
             {3.0f, y0, z0 + 0.25f});
    }
  }
  const Octree o = m.build();
  // Walk diagonally into the wall (yaw -30: toward +X and -Z) so the capsule slides along it.
  Sim s(o, defaults(), {0.0f, 0.0f, 10.0f}, -30.0f);
  s.run(0.3);
  const float restY = s.ctrl.feet().y;
  s.input.forward = true;
  s.input.sprint = true;
  float minSpeedZ = 1e9f;
  s.run(3.0, [&](const Sim& sim) {
    if (sim.time > 1.0) minSpeedZ = std::min(minSpeedZ, -sim.ctrl.velocity().z);
  });
  // The rest gap may settle once within [skin, 1.1 skin]; seams add nothing.
  EXPECT_GE(s.minFeetY, restY - 1e-5f);
  EXPECT_LE(s.maxFeetY, restY + 0.1f * s.ctrl.params().skin + 1e-5f);
  // Sliding along the wall keeps the along-wall part of the sprint (7 cos 30) with no catches.
  EXPECT_NEAR(minSpeedZ, 7.0f * std::cos(glm::radians(30.0f)), 0.05f);
  EXPECT_LE(s.ctrl.feet().x, 3.0f - 0.35f - s.ctrl.params().skin + 1e-4f);
  EXPECT_GE(s.ctrl.feet().x, 3.0f - 0.35f - restGap(s.ctrl.params().skin) - 1e-4f);
  EXPECT_EQ(s.penetratingSteps, 0u);
}

TEST(ControllerScenario, LongAndSliverTrianglesWalkLikeAnyFloor) {
  MeshBuilder m;
  // One huge triangle (10 km) and a fan of 1000 slivers meeting at a point.
  m.tri({-5000.0f, 0.0f, 5000.0f}, {5000.0f, 0.0f, 5000.0f}, {0.0f, 0.0f, -5000.0f});
  const int n = 1000;
  for (int i = 0; i < n; ++i) {
    const float a0 = 6.2831853f * float(i) / float(n), a1 = 6.2831853f * float(i + 1) / float(n);
    m.tri({200.0f, 0.0f, 0.0f}, {200.0f + 20.0f * std::cos(a0), 0.0f, 20.0f * std::sin(a0)},
          {200.0f + 20.0f * std::cos(a1), 0.0f, 20.0f * std::sin(a1)});
  }
  const Octree o = m.build();
  for (float x : {0.0f, 200.0f}) {
    Sim s(o, defaults(), {x, 0.0f, 10.0f});
    s.run(0.3);
    const float restY = s.ctrl.feet().y;
    s.input.forward = true;
    s.run(4.0);
    EXPECT_NEAR(s.minFeetY, restY, 1e-5f) << x;
    EXPECT_NEAR(s.maxFeetY, restY, 1e-5f) << x;
    EXPECT_NEAR(horizSpeed(s.ctrl), 4.5f, 1e-3f) << x;
    EXPECT_TRUE(s.ctrl.grounded());
  }
}

TEST(ControllerScenario, CornersOfTwoAndThreePlanesHold) {
  MeshBuilder m;
  addGround(m);
  m.box({2.0f, 0.0f, -10.0f}, {3.0f, 3.0f, 10.0f});   // wall at x = 2
  m.box({-10.0f, 0.0f, -3.0f}, {3.0f, 3.0f, -2.0f});  // wall at z = -2 (corner at (2, -2))
  // An acute corner: a wall at 20 degrees to the x = 2 wall, meeting it at z = 8.
  m.quad({2.0f, 0.0f, 8.0f},
         {2.0f - 6.0f * std::sin(glm::radians(20.0f)), 0.0f,
          8.0f - 6.0f * std::cos(glm::radians(20.0f))},
         {2.0f - 6.0f * std::sin(glm::radians(20.0f)), 3.0f,
          8.0f - 6.0f * std::cos(glm::radians(20.0f))},
         {2.0f, 3.0f, 8.0f});
  const Octree o = m.build();
  for (float yaw : {-45.0f, -30.0f, -60.0f}) {
    Sim s(o, defaults(), {0.0f, 0.0f, 0.0f}, yaw);  // into the (2, -2) corner
    s.input.forward = true;
    s.input.sprint = true;
    s.run(2.0);
    const glm::vec3 f = s.ctrl.feet();
    EXPECT_LE(f.x, 2.0f - 0.35f);
    EXPECT_GE(f.z, -2.0f + 0.35f);
    EXPECT_NEAR(f.x, 2.0f - 0.35f - 0.02f, 5e-3f) << yaw;
    EXPECT_NEAR(f.z, -2.0f + 0.35f + 0.02f, 5e-3f) << yaw;
    // Jumping into the corner (three planes with the floor) changes nothing.
    s.input.jump = true;
    s.run(1.0);
    EXPECT_LE(s.ctrl.feet().x, 2.0f - 0.35f);
    EXPECT_GE(s.ctrl.feet().z, -2.0f + 0.35f);
    EXPECT_EQ(s.penetratingSteps, 0u) << yaw;
  }
  {
    // Into the acute corner: stuck in front of it, no jitter, no push through.
    Sim s(o, defaults(), {1.2f, 0.0f, 3.5f}, 180.0f);
    s.input.forward = true;
    s.run(2.0);
    const glm::vec3 rest = s.ctrl.feet();
    float drift = 0.0f;
    s.run(1.0,
          [&](const Sim& sim) { drift = std::max(drift, glm::length(sim.ctrl.feet() - rest)); });
    EXPECT_LT(drift, 1e-3f);
    EXPECT_LE(s.ctrl.feet().x, 2.0f - 0.35f);
    EXPECT_LT(s.ctrl.feet().z, 8.0f);
    EXPECT_EQ(s.penetratingSteps, 0u);
  }
}

TEST(ControllerScenario, AcuteVCreviceNeitherJittersNorLeaks) {
  for (float halfAngle : {10.0f, 25.0f, 40.0f}) {
    MeshBuilder m;
    // Two steep planes meeting at the bottom (y = 0, x = 0), opening upward, along Z.
    const float h = 6.0f, w = h * std::tan(glm::radians(halfAngle));
    m.quad({0, 0, -10}, {-w, h, -10}, {-w, h, 10}, {0, 0, 10});
    m.quad({0, 0, -10}, {0, 0, 10}, {w, h, 10}, {w, h, -10});
    const Octree o = m.build();
    Sim s(o, defaults(), {0.0f, 5.0f, 0.0f});
    s.input.forward = true;
    s.input.left = true;
    s.run(2.0);
    s.input = {};
    s.run(0.5);  // friction stops the slide along the crease
    EXPECT_TRUE(s.ctrl.grounded()) << "held up by the two planes: stands";
    const glm::vec3 rest = s.ctrl.feet();
    float drift = 0.0f;
    s.run(1.0,
          [&](const Sim& sim) { drift = std::max(drift, glm::length(sim.ctrl.feet() - rest)); });
    EXPECT_LT(drift, 1e-3f) << halfAngle;
    // Between the planes: |x| below the plane at the feet's height.
    const glm::vec3 f = s.ctrl.feet();
    EXPECT_LT(std::abs(f.x), f.y * std::tan(glm::radians(halfAngle)) + 0.35f) << halfAngle;
    EXPECT_GT(f.y, 0.0f) << halfAngle;
    EXPECT_EQ(s.penetratingSteps, 0u) << halfAngle;
  }
}

TEST(ControllerScenario, CrouchUnderLowCeilingAndStandWhenClear) {
  MeshBuilder m;
  addGround(m);
  m.box({-1.0f, 1.2f, -6.0f}, {1.0f, 1.5f, -2.0f});  // ceiling at 1.2 m over z in [-6, -2]
  const Octree o = m.build();
  {
    Sim s(o, defaults(), {0.0f, 0.0f, 0.0f});
    s.input.forward = true;
    s.run(2.0);
    EXPECT_GT(s.ctrl.feet().z, -2.0f + 0.35f - 1e-3f) << "walked under a 1.2 m ceiling standing";
  }
  Sim s(o, defaults(), {0.0f, 0.0f, 0.0f});
  s.input.crouch = true;
  s.input.forward = true;
  s.run(0.8);  // 2.5 m/s crouched: z about -1.9 .. -2
  s.run(0.6);
  EXPECT_LT(s.ctrl.feet().z, -3.0f);
  s.input.crouch = false;
  s.input.forward = false;
  s.run(0.5);
  EXPECT_TRUE(s.ctrl.crouched()) << "stood up under the ceiling";
  s.input.forward = true;
  s.run(2.0);  // walks out crouched, then stands
  EXPECT_LT(s.ctrl.feet().z, -6.0f);
  EXPECT_FALSE(s.ctrl.crouched());
  EXPECT_EQ(s.penetratingSteps, 0u);
}

TEST(ControllerScenario, SlopedCeilingEndsTheRise) {
  // A ceiling sloping up at 30 degrees toward +X, 2.1 m above the feet at x = 0: a jump (1.225 m
  // apex) hits it. Clipping the velocity against it alone would keep a rising part along the
  // slope, so the character would slide on up under the ceiling; a ceiling ends the rise: from
  // the hit on the feet go no higher.
  MeshBuilder m;
  addGround(m);
  const float t = std::tan(30.0f * 3.14159265f / 180.0f);
  m.quad({-3.0f, 2.1f - 3.0f * t, -3.0f}, {-3.0f, 2.1f - 3.0f * t, 3.0f},
         {3.0f, 2.1f + 3.0f * t, 3.0f}, {3.0f, 2.1f + 3.0f * t, -3.0f});
  const Octree o = m.build();
  for (float hz : {60.0f, 240.0f}) {
    ControllerParams p = defaults();
    p.tickHz = hz;
    Sim s(o, p, {0.0f, 0.0f, 0.0f});
    s.run(0.3);
    s.input.jump = true;
    bool hit = false;
    float yAtHit = 0.0f, vyBefore = 0.0f;
    s.run(1.0, [&](const Sim& sim) {
      const float vy = sim.ctrl.velocity().y;
      // The hit: the rise loses more in one step than twice what gravity takes.
      if (!hit && vyBefore > 1.0f && vyBefore - vy > 2.0f * p.gravity / hz) {
        hit = true;
        yAtHit = sim.ctrl.feet().y;
      }
      vyBefore = vy;
      if (hit) {
        EXPECT_LE(sim.ctrl.feet().y, yAtHit + 1e-3f) << hz << " Hz: still rising after the ceiling";
      }
    });
    EXPECT_TRUE(hit) << hz << " Hz: the jump never reached the ceiling";
    EXPECT_LT(yAtHit + 1.8f, 2.1f + 0.5f * t) << "hit near x = 0";
    EXPECT_EQ(s.penetratingSteps, 0u);
  }
}

TEST(ControllerScenario, CeilingEndsAJumpWithoutSticking) {
  MeshBuilder m;
  addGround(m);
  m.box({-2.0f, 2.2f, -2.0f}, {2.0f, 2.5f, 2.0f});
  const Octree o = m.build();
  Sim s(o, defaults(), {0.0f, 0.0f, 0.0f});
  s.run(0.3);
  s.input.jump = true;
  float maxY = 0.0f;
  int stepsAtCeiling = 0;
  s.run(1.0, [&](const Sim& sim) {
    maxY = std::max(maxY, sim.ctrl.feet().y);
    if (sim.ctrl.feet().y > 2.2f - 1.8f - 0.05f) ++stepsAtCeiling;
  });
  EXPECT_LE(maxY + 1.8f, 2.2f);
  EXPECT_LE(stepsAtCeiling, 8);  // no sticking at the ceiling (it would stay ~40 steps)
  EXPECT_TRUE(s.ctrl.grounded());
  EXPECT_EQ(s.penetratingSteps, 0u);
}

TEST(ControllerScenario, JumpHeightCoyoteTimeAndBuffer) {
  MeshBuilder m;
  m.box({-5.0f, -1.0f, -5.0f}, {5.0f, 0.0f, 5.0f});  // a platform; void beyond z < -5
  m.floor(-3.0f, -20.0f, 20.0f, -20.0f, 20.0f);
  const Octree o = m.build();
  {
    Sim s(o, defaults(), {0.0f, 0.0f, 0.0f});
    s.run(0.2);
    s.input.jump = true;  // held: one jump only
    s.run(2.0);
    EXPECT_NEAR(s.maxFeetY, 7.0f * 7.0f / (2.0f * 20.0f), 0.08f);  // 1.225 m
    EXPECT_TRUE(s.ctrl.grounded());
  }
  // Coyote: walk off the edge, press jump 50 ms after leaving the ground.
  for (double late : {0.05, 0.2}) {
    Sim s(o, defaults(), {0.0f, 0.0f, -4.0f});
    s.run(0.2);
    s.input.forward = true;
    double leftAt = -1.0;
    bool jumped = false;
    s.run(1.0, [&](const Sim& sim) {
      if (leftAt < 0 && !sim.ctrl.grounded()) leftAt = sim.time;
      if (sim.ctrl.velocity().y > 5.0f) jumped = true;
    });
    // The control run: walking off without pressing jump leaves the ground and never jumps.
    EXPECT_GT(leftAt, 0.0) << "the character walked off the platform";
    EXPECT_FALSE(jumped) << "no jump without a press";
    Sim t(o, defaults(), {0.0f, 0.0f, -4.0f});
    t.run(0.2);
    t.input.forward = true;
    double off = -1.0;
    jumped = false;
    t.run(1.0, [&](const Sim& sim) {
      Sim& mut = const_cast<Sim&>(sim);
      if (off < 0 && !sim.ctrl.grounded()) off = sim.time;
      if (off >= 0 && sim.time >= off + late) mut.input.jump = true;
      if (sim.ctrl.velocity().y > 5.0f) jumped = true;
    });
    EXPECT_EQ(jumped, late < 0.1) << late;
  }
  // Buffer: press jump shortly before landing.
  for (double early : {0.05, 0.25}) {
    Sim s(o, defaults(), {0.0f, 1.5f, 0.0f});
    bool landed = false, jumpedAfterLanding = false;
    double pressAt = -1.0;
    // Landing time from 1.5 m with g = 20: about sqrt(2 * 1.5 / 20) = 0.387 s.
    const double landing = std::sqrt(2.0 * 1.5 / 20.0);
    s.run(1.0, [&](const Sim& sim) {
      Sim& mut = const_cast<Sim&>(sim);
      if (pressAt < 0 && sim.time >= landing - early) {
        pressAt = sim.time;
        mut.input.jump = true;
      }
      if (sim.ctrl.grounded()) landed = true;
      if (landed && sim.ctrl.velocity().y > 5.0f) jumpedAfterLanding = true;
    });
    EXPECT_EQ(jumpedAfterLanding, early < 0.1) << early;
  }
}

TEST(ControllerScenario, LandingOnTheEdgeOfAStepSettles) {
  MeshBuilder m;
  addGround(m);
  m.box({-2.0f, 0.0f, -2.0f}, {2.0f, 0.3f, 0.0f});  // a 30 cm step, edge at z = 0
  const Octree o = m.build();
  for (float z = -0.4f; z <= 0.401f; z += 0.05f) {
    Sim s(o, defaults(), {0.0f, 1.0f, z});
    s.run(1.0);
    const glm::vec3 rest = s.ctrl.feet();
    float drift = 0.0f;
    s.run(0.5,
          [&](const Sim& sim) { drift = std::max(drift, glm::length(sim.ctrl.feet() - rest)); });
    EXPECT_LT(drift, 1e-4f) << z;
    EXPECT_TRUE(s.ctrl.grounded()) << z;
    EXPECT_GE(s.minFeetY, 0.0f) << z;
    EXPECT_EQ(s.penetratingSteps, 0u) << z;
  }
}

TEST(ControllerScenario, GapsNarrowAreCrossedWideAreFallenInto) {
  MeshBuilder m;
  m.box({-3.0f, -1.0f, -1.0f}, {3.0f, 0.0f, 4.0f});     // start platform, edge at z = -1
  m.box({-3.0f, -1.0f, -10.0f}, {3.0f, 0.0f, -1.3f});   // 0.3 m gap, edge at z = -1.3
  m.box({-3.0f, -1.0f, -20.0f}, {3.0f, 0.0f, -12.0f});  // 2 m gap
  m.floor(-4.0f, -20.0f, 20.0f, -30.0f, 30.0f);
  const Octree o = m.build();
  Sim s(o, defaults(), {0.0f, 0.0f, 2.0f});
  s.input.forward = true;
  s.run(1.5);  // z about -4.5
  EXPECT_LT(s.ctrl.feet().z, -3.0f);
  EXPECT_GT(s.ctrl.feet().y, -0.1f);
  EXPECT_TRUE(s.ctrl.grounded());
  s.run(2.0);
  EXPECT_LT(s.ctrl.feet().y, -3.9f);  // fell into the 2 m gap
  EXPECT_GE(s.minFeetY, -4.0f);
  EXPECT_EQ(s.penetratingSteps, 0u);
}

TEST(ControllerScenario, FarFromOriginBehavesTheSame) {
  for (glm::vec3 offset :
       {glm::vec3(10000.0f, 0.0f, 10000.0f), glm::vec3(-10000.0f, 500.0f, 7000.0f)}) {
    MeshBuilder m;
    m.offset = offset;
    addGround(m, 8);
    m.stairs(0.3f, 0.4f, 5, -2.0f, 2.0f, 0.0f, 9.0f);         // landing z in [-11, -2]
    m.box({-10.0f, 0.0f, -10.005f}, {10.0f, 3.0f, -9.995f});  // 1 cm wall on the landing
    const Octree o = m.build();
    Sim s(o, defaults(), offset + glm::vec3(0.0f, 0.0f, 2.0f));
    s.input.forward = true;
    s.run(4.0);
    const glm::vec3 f = s.ctrl.feet() - offset;
    EXPECT_NEAR(f.y, 1.5f, 0.05f);  // climbed the stairs
    EXPECT_GT(f.z, -9.995f + 0.35f - 2e-3f);
    EXPECT_LT(f.z, -9.0f);
    EXPECT_TRUE(s.ctrl.grounded());
    EXPECT_EQ(s.penetratingSteps, 0u);
    EXPECT_GE(s.minFeetY - offset.y, 0.0f);
  }
}

TEST(ControllerScenario, FlyModeIgnoresCollisionAndGravity) {
  MeshBuilder m;
  addGround(m);
  m.box({-5.0f, 0.0f, -3.0f}, {5.0f, 3.0f, -2.0f});
  const Octree o = m.build();
  Sim s(o, defaults(), {0.0f, 1.0f, 0.0f});
  s.ctrl.setFlying(true);
  s.input.forward = true;
  s.run(1.0);
  EXPECT_LT(s.ctrl.feet().z, -4.0f);  // through the wall
  EXPECT_NEAR(s.ctrl.feet().y, 1.0f, 1e-5f);
  EXPECT_TRUE(s.ctrl.flying());
  s.ctrl.setFlying(false);
  s.input = {};
  s.run(1.0);
  EXPECT_TRUE(s.ctrl.grounded());
}

TEST(ControllerScenario, KillPlaneRespawns) {
  MeshBuilder m;
  m.box({-2.0f, -1.0f, -2.0f}, {2.0f, 0.0f, 2.0f});
  const Octree o = m.build();
  Sim s(o, defaults(), {0.0f, 0.0f, 0.0f});
  s.ctrl.setKillPlaneY(-51.0f);
  s.ctrl.setSpawn({0.0f, 0.0f, 0.0f}, 0.0f);
  s.input.forward = true;
  bool respawned = false;
  s.run(4.0, [&](const Sim& sim) { respawned = respawned || sim.ctrl.respawned(); });
  EXPECT_TRUE(respawned);
  EXPECT_GE(s.minFeetY, -51.0f - 50.0f / 120.0f);
}

}  // namespace
}  // namespace ofps::test
