// Property tests of the character controller: generated geometry (walls at 5-85
// degrees to the walk, corners of 30-170 degrees, stairs beside a wall, ledges of 0-1.5 step
// heights, pyramids and ridges, floor/ceiling wedges, ramps meeting floors), each walked at tick
// rates from 30 to 500 Hz, with invariants checked on EVERY step:
//  - never inside the level: the level's closest point to the capsule axis is at least
//    radius - 1 mm away;
//  - per-step horizontal displacement within |v| dt + skin (v: the larger of the speed the step
//    started with and the commanded speed), and over any 0.25 s window within commanded speed x
//    window + skin (no speed boost along walls);
//  - grounded: the gap to the level is skin within 1 mm (one rest height);
//  - grounded iff a walkable contact exists (contact normal within max_slope, a walkable face
//    meeting at the contact point), with 1.5 degrees of slack at the slope threshold; a step
//    taken onto a step's nose counts as support on that step (documented in the header).
// The reference distances and contacts are computed here by brute force over the test's own
// triangles with an independent segment-triangle distance, not with the controller's queries.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "controller_test_util.h"
#include "octree_fps/controller/character_controller.h"
#include "octree_fps/controller/controller_params.h"
#include "property_harness.h"
#include "scenario/script.h"

namespace ofps::test {
namespace {

// A wall through the origin along direction (sin a, 0, -cos a) ... as a thin box rotated about Y.
void rotatedBox(MeshBuilder& m, const glm::vec3& centre, const glm::vec3& half, float yawDeg) {
  const float c = std::cos(yawDeg * kDeg), s = std::sin(yawDeg * kDeg);
  auto P = [&](float x, float y, float z) {
    return centre + glm::vec3(c * x + s * z, y, -s * x + c * z);
  };
  const float hx = half.x, hy = half.y, hz = half.z;
  const glm::vec3 p[8] = {P(-hx, -hy, -hz), P(hx, -hy, -hz), P(hx, hy, -hz), P(-hx, hy, -hz),
                          P(-hx, -hy, hz),  P(hx, -hy, hz),  P(hx, hy, hz),  P(-hx, hy, hz)};
  m.quad(p[0], p[3], p[2], p[1]);
  m.quad(p[4], p[5], p[6], p[7]);
  m.quad(p[0], p[4], p[7], p[3]);
  m.quad(p[1], p[2], p[6], p[5]);
  m.quad(p[3], p[7], p[6], p[2]);
  m.quad(p[0], p[1], p[5], p[4]);
}

// ---- Walls and corners ----------------------------------------------------------------------

TEST(ControllerProperty, WallsAtFiveToEightyFiveDegreesNeverSpeedUp) {
  // A wall along Z at x = 1; walking with yaw -a reaches it at angle a and slides along it.
  Level lv;
  addGround(lv.mesh);
  lv.mesh.box({1.0f, 0.0f, -40.0f}, {1.5f, 3.0f, 40.0f});
  lv.build();
  uint32_t slid = 0;
  for (float hz : kRates) {
    for (float a = 5.0f; a <= 85.0f; a += 10.0f) {
      Checks chk;
      Walker w(lv, at(hz), {0.0f, 0.0f, 20.0f}, -a);
      w.run(0.3f, chk, label("settle, wall", a, hz));
      w.input.forward = true;
      const float z0 = w.ctrl.feet().z;
      w.run(2.5f, chk, label("wall", a, hz));
      EXPECT_EQ(chk.failures, 0u) << chk.first;
      // Touched the wall and slid along it at most at the walk speed's share along it.
      EXPECT_NEAR(w.ctrl.feet().x, 1.0f - 0.35f - 0.02f, 2e-3f) << a << " " << hz;
      const float along = z0 - w.ctrl.feet().z;
      EXPECT_LE(along, 4.5f * 2.5f * std::cos(a * kDeg) + 0.05f) << a << " " << hz;
      slid += along > 0.5f * 4.5f * std::cos(a * kDeg) ? 1 : 0;
    }
  }
  EXPECT_GE(slid, 40u);  // meaningful: the slides did happen
}

// Walking into the corner's vertex ends at rest there: the last 0.5 s moves less than 1 mm (a
// wide corner used to deflect the slide along one wall out along the other, and back).
TEST(ControllerProperty, CornersOfThirtyToHundredSeventyDegreesSettle) {
  for (float angle : {30.0f, 60.0f, 90.0f, 120.0f, 150.0f, 170.0f}) {
    // Two walls meeting at the origin, opening toward +Z with `angle` between them.
    Level lv;
    addGround(lv.mesh);
    const float half = 0.5f * angle;
    for (float side : {-1.0f, 1.0f}) {
      const float yaw = side * half;  // wall direction's angle from +Z (the opening's axis)
      const glm::vec3 dir(std::sin(yaw * kDeg), 0.0f, std::cos(yaw * kDeg));
      const glm::vec3 out(side * dir.z, 0.0f, -side * dir.x);  // away from the opening
      rotatedBox(lv.mesh, dir * 5.0f + out * 0.25f, {0.25f, 1.5f, 5.0f}, yaw);
    }
    lv.build();
    for (float hz : kRates) {
      Checks chk;
      chk.restGap = angle >= 90.0f;  // in an acute corner the walls may be the closest contact
      Walker w(lv, at(hz), {0.05f, 0.0f, 4.0f}, 0.0f);
      w.input.forward = true;
      w.run(3.0f, chk, label("corner", angle, hz));
      EXPECT_EQ(chk.failures, 0u) << chk.first;
      // Settled: the last 0.5 s moved less than a millimetre.
      const glm::vec3 end = w.ctrl.feet();
      const glm::vec3 earlier = w.history[w.history.size() - 1 - size_t(0.5f * hz)];
      EXPECT_LT(glm::length(end - earlier), 1e-3f) << angle << " " << hz;
      EXPECT_LT(end.z, 3.0f) << angle << " " << hz;
    }
  }
}

// ---- Stairs, ledges -------------------------------------------------------------------------

// Up six 25 cm steps beside a wall, walking straight or turned 10-25 degrees into the wall: the
// character slides along the wall, climbs every step (no hop off a nose at 30 Hz), ends on the
// landing at the rest height. 2 s: long enough to reach the landing, short of its far end.
TEST(ControllerProperty, StairsBesideAWallAreClimbedAtWalkSpeed) {
  Level lv;
  addGround(lv.mesh);
  lv.mesh.stairs(0.25f, 0.4f, 6, -2.0f, 1.0f, 0.0f, 6.0f);  // treads z in [-8.4, 0]
  lv.mesh.box({1.0f, 0.0f, -12.0f}, {1.5f, 4.0f, 4.0f});    // wall beside them at x = 1
  lv.build();
  for (float hz : kRates) {
    for (float a : {0.0f, 10.0f, 25.0f}) {
      Checks chk;
      Walker w(lv, at(hz), {0.3f, 0.0f, 2.0f}, -a);
      w.input.forward = true;
      w.run(2.0f, chk, label("stairs beside a wall", a, hz));
      EXPECT_EQ(chk.failures, 0u) << chk.first;
      EXPECT_NEAR(w.ctrl.feet().y, 1.5f + 0.02f, kTol)  // rest gap: the skin within 1 mm
          << a << " " << hz;
      EXPECT_TRUE(w.ctrl.grounded());
      EXPECT_LT(w.ctrl.feet().z, -3.0f) << a << " " << hz;
    }
  }
}

TEST(ControllerProperty, LedgesUpToOneAndAHalfStepHeights) {
  const ControllerParams def;
  for (float k : {0.0f, 0.05f, 0.3f, 0.6f, 0.9f, 1.0f, 1.1f, 1.5f}) {
    const float rise = k * def.stepHeight;
    Level lv;
    addGround(lv.mesh);
    if (rise > 0.0f) lv.mesh.box({-3.0f, 0.0f, -8.0f}, {3.0f, rise, 0.0f});
    lv.build();
    for (float hz : kRates) {
      Checks chk;
      Walker w(lv, at(hz), {0.0f, 0.0f, 1.5f}, 0.0f);
      w.input.forward = true;
      w.run(1.5f, chk, label("ledge up", k, hz));
      const bool climbs = rise <= def.stepHeight + 1e-4f;
      if (climbs) {
        EXPECT_NEAR(w.ctrl.feet().y, rise + def.skin, kTol) << k << " " << hz;
      } else {
        EXPECT_NEAR(w.ctrl.feet().y, def.skin, kTol) << k << " " << hz;
        EXPECT_GT(w.ctrl.feet().z, 0.3f) << k << " " << hz;
      }
      // And back down off it (walking off the ledge; the fall from where the edge contact gets
      // too steep has time to land).
      w.input.yaw = 180.0f * kDeg;
      w.run(2.0f, chk, label("ledge down", k, hz));
      EXPECT_NEAR(w.ctrl.feet().y, def.skin, kTol) << k << " " << hz;
      EXPECT_EQ(chk.failures, 0u) << chk.first;
    }
  }
}

TEST(ControllerProperty, LeavesALedgeWhereTheEdgeContactGetsTooSteep) {
  // Walking slowly off a 1 m ledge, grounded ends where the contact normal at the edge passes
  // max_slope: with the capsule radius R and the rest gap, at (R + gap) sin(max_slope) past it.
  for (float slope : {30.0f, 45.0f, 60.0f}) {
    Level lv;
    lv.mesh.box({-3.0f, 0.0f, 0.0f}, {3.0f, 1.0f, 6.0f});  // ledge top, edge at z = 0
    lv.mesh.box({-9.0f, -1.0f, -9.0f}, {9.0f, -0.5f, 9.0f});
    lv.build();
    for (float hz : kRates) {
      ControllerParams p = at(hz);
      p.maxSlopeDeg = slope;
      p.walkSpeed = 0.5f;
      Walker w(lv, p, {0.0f, 1.0f, 1.0f}, 0.0f);
      w.input.forward = true;
      Checks chk;
      float leftAt = 1e9f;
      for (int i = 0; i < int(4.0f * hz) && leftAt > 1e8f; ++i) {
        w.run(1.0f / hz, chk, label("ledge edge", slope, hz));
        if (!w.ctrl.grounded()) leftAt = -w.ctrl.feet().z;
      }
      EXPECT_EQ(chk.failures, 0u) << chk.first;
      const float expected = (p.radius + p.skin) * std::sin(slope * kDeg);
      EXPECT_NEAR(leftAt, expected, p.walkSpeed / hz + 2e-3f) << slope << " " << hz;
    }
  }
}

// ---- Pyramids, ridges, ramps, wedges --------------------------------------------------------

void pyramid(MeshBuilder& m, float slopeDeg, float half, bool ridge) {
  // Apex (or ridge along X) at height half * tan(slope) above y = 0, base [-half, half]^2.
  const float h = half * std::tan(slopeDeg * kDeg);
  const float rx = ridge ? half : 0.0f;
  const glm::vec3 a(-half, 0, -half), b(half, 0, -half), c(half, 0, half), d(-half, 0, half);
  const glm::vec3 t0(-rx, h, 0.0f), t1(rx, h, 0.0f);
  m.tri(a, t0, b);
  if (ridge) m.tri(b, t0, t1);
  m.tri(b, t1, c);
  m.tri(c, t1, d);
  if (ridge) m.tri(d, t1, t0);
  m.tri(d, t0, a);
}

// Dropped just off the apex, steep spikes and ridges are slid off (no walkable face meets at the
// apex, and one steep contact is no crevice); shallow ones hold the character, grounded.
TEST(ControllerProperty, SteepSpikesAndRidgesAreSlidOffShallowOnesHold) {
  for (bool ridge : {false, true}) {
    for (float slope : {30.0f, 60.0f}) {
      Level lv;
      addGround(lv.mesh);
      pyramid(lv.mesh, slope, 1.5f, ridge);
      lv.build();
      const float top = 1.5f * std::tan(slope * kDeg);
      for (float hz : kRates) {
        Checks chk;
        chk.restGap = slope < 45.0f;
        chk.windowSpeed = false;  // no input: gravity slides it off (per-step bound still on)
        Walker w(lv, at(hz), {0.003f, top + 0.3f, 0.004f}, 0.0f);
        w.run(3.0f, chk, label(ridge ? "ridge" : "spike", slope, hz));
        EXPECT_EQ(chk.failures, 0u) << chk.first;
        if (slope > 45.0f) {
          // Slid off: on the floor beside it, or at least well down its steep face.
          EXPECT_LT(w.ctrl.feet().y, 0.5f * top) << ridge << " " << slope << " " << hz;
        } else {
          EXPECT_GT(w.ctrl.feet().y, top - 0.2f) << ridge << " " << slope << " " << hz;
          EXPECT_TRUE(w.ctrl.grounded()) << ridge << " " << slope << " " << hz;
        }
      }
    }
  }
}

TEST(ControllerProperty, RampsMeetingFloorsKeepOneRestHeight) {
  for (float slope : {10.0f, 25.0f, 40.0f}) {
    Level lv;
    addGround(lv.mesh);
    // Up a ramp to a 1 m plateau, across it, and down a ramp on the far side.
    const float run = 1.0f / std::tan(slope * kDeg);
    lv.mesh.ramp(slope, 1.0f, -2.0f, 2.0f, 0.0f, 2.0f);
    MeshBuilder down;
    const float z2 = -run - 2.0f;
    lv.mesh.quad({-2.0f, 1.0f, z2}, {2.0f, 1.0f, z2}, {2.0f, 0.0f, z2 - run},
                 {-2.0f, 0.0f, z2 - run});
    lv.build();
    for (float hz : kRates) {
      Checks chk;
      Walker w(lv, at(hz), {0.0f, 0.0f, 1.5f}, 0.0f);
      w.input.forward = true;
      w.run(0.2f + (2.0f * run + 4.0f) / 4.5f, chk, label("ramp", slope, hz));
      EXPECT_EQ(chk.failures, 0u) << chk.first;
      EXPECT_LT(w.ctrl.feet().z, z2 - run - 0.3f) << slope << " " << hz;
      EXPECT_GT(w.groundedSteps, w.steps * 9 / 10) << slope << " " << hz;
    }
  }
}

// DISABLED (found by this test and not yet fixed): the spawn overlaps the ceiling (test geometry),
// and at 240 Hz the capsule ends touching the floor under the ceiling.
TEST(ControllerProperty, FloorCeilingWedgesAreNotSqueezedInto) {
  for (float angle : {8.0f, 15.0f, 30.0f}) {
    Level lv;
    addGround(lv.mesh);
    // A ceiling plane meeting the floor at z = -4, rising toward +Z at `angle` to 3 m.
    const float t = std::tan(angle * kDeg);
    const float run = 3.0f / t;
    lv.mesh.quad({-3.0f, 0.0f, -4.0f}, {3.0f, 0.0f, -4.0f}, {3.0f, 3.0f, run - 4.0f},
                 {-3.0f, 3.0f, run - 4.0f});
    lv.build();
    for (float hz : kRates) {
      Checks chk;
      chk.restGap = false;  // squeezed under the ceiling the top is the closest contact
      // Spawned where the ceiling is 2.4 m high (the standing capsule fits under it).
      Walker w(lv, at(hz), {0.0f, 0.0f, 2.4f / t - 4.0f}, 0.0f);
      w.input.forward = true;
      w.run(2.0f, chk, label("wedge", angle, hz));
      EXPECT_EQ(chk.failures, 0u) << chk.first;
      // Stopped where the capsule (grown by the skin) meets the ceiling.
      glm::vec3 a, b;
      w.ctrl.capsule(a, b);
      const glm::vec3 n = glm::normalize(glm::vec3(0.0f, -1.0f, t));  // ceiling, facing down
      const float dist = glm::dot(b - glm::vec3(0.0f, 0.0f, -4.0f), n);
      EXPECT_GE(dist, 0.35f + 0.02f - kTol) << angle << " " << hz;
      EXPECT_LT(dist, 0.35f + 0.02f + 0.05f) << angle << " " << hz;
    }
  }
}

// ---- Parameters -----------------------------------------------------------------------------

TEST(ControllerProperty, EveryParameterAloneAtItsRangeEndsWorks) {
  Level lv;
  addGround(lv.mesh);
  lv.build();
  uint32_t runs = 0, grounded = 0;
  for (const ParamInfo& info : paramInfos()) {
    for (float v : {info.minValue, info.maxValue}) {
      if (std::string(info.name) == "tick_hz" && v > 600.0f) continue;  // run time only
      std::ostringstream text;
      text << "set " << info.name << " " << v << "\nspawn 0 0 0\nat 0 hold forward\nend 0.5\n";
      const ScriptParseResult parsed = parseScript(text.str(), "alone.script");
      ASSERT_TRUE(parsed.ok) << info.name << " = " << v << ": " << parsed.error;
      ScenarioParams all;
      std::string err;
      ASSERT_TRUE(parsed.script.applyParams(all, &err)) << info.name << " = " << v << ": " << err;
      float got = 0.0f;
      ASSERT_TRUE(getParam(all, info.name, got));
      const ControllerParams& p = all.controller;
      EXPECT_EQ(got, v) << info.name;  // a set parameter is never changed
      CharacterController c(p);
      c.teleport({0.0f, 0.0f, 0.0f}, 0.0f);
      CharacterInput in;
      in.forward = true;
      for (int i = 0; i < 60; ++i) c.step(lv.octree, in, p.tickSeconds());
      EXPECT_TRUE(std::isfinite(c.feet().x) && std::isfinite(c.feet().y)) << info.name;
      // One rest height for every skin (0.1 mm to 0.5 m): the skin within 1 mm.
      if (c.grounded()) {
        ++grounded;
        EXPECT_NEAR(c.feet().y, p.skin, kTol) << info.name << " = " << v;
      }
      ++runs;
    }
  }
  EXPECT_EQ(runs, 2 * paramInfos().size() - 1);
  EXPECT_GT(grounded, runs * 3 / 4);  // meaningful: most ended standing on the floor
}

TEST(ControllerProperty, DependentDefaultsFollowTheSetParameters) {
  const ControllerParams def;
  ScenarioParams all;
  const ControllerParams& p = all.controller;
  std::string err;
  ScriptParseResult s = parseScript("set height 1.35\nend 1\n", "h.script");
  ASSERT_TRUE(s.ok) << s.error;  // three.js games_fps's capsule
  ASSERT_TRUE(s.script.applyParams(all, &err)) << err;
  EXPECT_FLOAT_EQ(p.height, 1.35f);
  EXPECT_NEAR(p.eyeHeight, def.eyeHeight * 1.35f / def.height, 1e-6f);
  EXPECT_NEAR(p.crouchHeight, def.crouchHeight * 1.35f / def.height, 1e-6f);
  // Set ones win; a combination invalid by itself still fails.
  all = ScenarioParams{};
  s = parseScript("set height 1.35\nset eye_height 1.3\nend 1\n", "h.script");
  ASSERT_TRUE(s.ok) << s.error;
  ASSERT_TRUE(s.script.applyParams(all, &err)) << err;
  EXPECT_FLOAT_EQ(p.eyeHeight, 1.3f);
  s = parseScript("set height 1.35\nset eye_height 1.5\nend 1\n", "h.script");
  EXPECT_FALSE(s.ok);
  // Radius alone drives height; skin alone drives radius.
  ControllerParams r;
  r.radius = 2.0f;
  CapsuleParamsSet radiusSet;
  radiusSet.radius = true;
  applyDependentDefaults(r, radiusSet);
  EXPECT_TRUE(validateParams(r, &err)) << err;
  EXPECT_FLOAT_EQ(r.height, 4.0f);
}

}  // namespace
}  // namespace ofps::test
