// Throwing from the eye. The eye is inside the thrower's capsule, so a thrown sphere starts
// inside the character: it must fly out as a free projectile (never pushed up and out of the
// capsule's top, which put balls 0.2-0.7 m above the crosshair), the character must not stumble
// on it meanwhile, and once it is out the character pushes it like any prop. Also: a velocity
// too large to square in float is clamped to maxSpeed (it used to stop the prop), and the props
// fall with a script's `set gravity`.
#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <string>
#include <vector>

#include "octree_fps/controller/character_controller.h"
#include "octree_fps/props/props_obstacles.h"
#include "octree_fps/props/props_world.h"
#include "props_test_levels.h"
#include "scenario/script.h"
#include "scenario/script_props.h"

namespace ofps::test {
namespace {

constexpr float kDegToRad = 0.017453292519943295f;

// A character standing still on the floor (settled for 0.5 s) at tick rate hz.
CharacterController standingCharacter(const Octree& floor, float hz) {
  ControllerParams p;
  p.tickHz = hz;
  CharacterController c(p);
  c.teleport({0.0f, 0.0f, 0.0f}, 0.0f);
  const int steps = static_cast<int>(0.5f * hz);
  for (int i = 0; i < steps; ++i) c.step(floor, CharacterInput{}, 1.0f / hz);
  return c;
}

bool insideCapsule(const CharacterController& c, const glm::vec3& p, float r) {
  glm::vec3 a, b;
  c.capsule(a, b);
  const glm::vec3 ab = b - a;
  const float t = glm::clamp(glm::dot(p - a, ab) / glm::dot(ab, ab), 0.0f, 1.0f);
  return glm::length(p - (a + ab * t)) < c.params().radius + r;
}

// Property over tick rates, view angles, radii and speeds: while a thrown sphere is still inside
// its thrower, every step moves it exactly as free flight under gravity (semi-implicit Euler,
// the props' integrator) unless the level stopped it, and the character pushes nothing.
TEST(PropsThrow, ASphereLeavesItsThrowerAsAFreeProjectile) {
  const Octree floor = makeFloor();
  int cases = 0, stepsChecked = 0, leftInside = 0;
  for (const float hz : {20.0f, 60.0f, 144.0f, 500.0f}) {
    const CharacterController base = standingCharacter(floor, hz);
    const float dt = 1.0f / hz;
    for (int yawDeg = 0; yawDeg < 360; yawDeg += 45) {
      for (const int pitchDeg : {-80, -30, 0, 30, 80}) {
        for (const float radius : {0.01f, 0.15f, 0.5f}) {
          for (const float speed : {1.0f, 15.0f, 100.0f}) {
            CharacterController c = base;
            PropsWorld w;
            const float yaw = static_cast<float>(yawDeg) * kDegToRad;
            const float pitch = static_cast<float>(pitchDeg) * kDegToRad;
            const uint32_t id =
                w.throwSphere(c.eye(), viewDirection(yaw, pitch) * speed + c.velocity(), radius);
            ++cases;
            const PropsObstacles obstacles(w);
            const int maxSteps = static_cast<int>(hz);  // one second
            int s = 0;
            for (; s < maxSteps && w.leavingThrower()[id]; ++s) {
              const glm::vec3 feet = c.feet();
              c.step(floor, CharacterInput{}, dt, &obstacles);
              ASSERT_EQ(c.feet(), feet) << "the thrower moved: it met its own ball";
              const glm::vec3 p0 = w.positions()[id];
              glm::vec3 v = w.velocities()[id];
              v.y -= w.params().gravity * dt;
              const glm::vec3 free = p0 + v * dt;
              const CharacterCapsule capsule = characterCapsule(c);
              const bool startsInside = insideCapsule(c, p0, radius * 0.999f);
              w.step(floor, dt, &capsule);
              EXPECT_EQ(w.lastStepStats().characterPushes, 0u);
              // The flag clears at the start of the first step that begins with the ball out.
              if (!w.leavingThrower()[id]) {
                EXPECT_FALSE(startsInside) << "cleared while inside";
              }
              const glm::vec3 p1 = w.positions()[id];
              // The floor (y = 0) is the only thing that may change the flight.
              const bool nearFloor = std::min(p1.y, free.y) < radius * 1.05f + 1e-3f;
              if (!nearFloor) {
                ASSERT_LT(glm::length(p1 - free), 1e-4f * (1.0f + glm::length(free)))
                    << hz << " Hz, yaw " << yawDeg << ", pitch " << pitchDeg << ", r " << radius
                    << ", " << speed << " m/s, step " << s << ": pushed from the free flight";
              }
              ++stepsChecked;
            }
            if (w.leavingThrower()[id]) {
              // Still inside after a second: only a ball dropped at the thrower's feet.
              ++leftInside;
              EXPECT_LT(w.positions()[id].y, c.params().radius + radius)
                  << hz << " Hz, yaw " << yawDeg << ", pitch " << pitchDeg << ", r " << radius
                  << ", " << speed << " m/s";
            }
          }
        }
      }
    }
  }
  EXPECT_GT(stepsChecked, cases);  // most throws take more than one step to get out
  // Straight down and slow throws drop at the feet; most leave.
  EXPECT_LT(leftInside, cases / 2);
}

// Once out, the thrower's own ball is an obstacle like any prop: walking at it, the character
// never enters it (it steps onto it or is stopped), and its walk differs from the same walk on
// an empty floor.
TEST(PropsThrow, TheThrowersBallIsAnObstacleOnceItIsOut) {
  const Octree floor = makeFloor();
  const float hz = 120.0f, dt = 1.0f / hz;
  const CharacterController start = standingCharacter(floor, hz);
  auto walk = [&](bool throwBall, glm::vec3* outBall) {
    CharacterController c = start;
    PropsWorld w;
    // Thrown level and slowly along -Z (yaw 0): it lands about 0.8 m ahead and slides to rest.
    uint32_t id = kPropInvalid;
    if (throwBall) id = w.throwSphere(c.eye(), viewDirection(0.0f, 0.0f) * 2.0f, 0.2f);
    const PropsObstacles obstacles(w);
    bool wasOut = false;
    for (int i = 0; i < static_cast<int>(4.0f * hz); ++i) {
      CharacterInput in;
      in.forward = i > static_cast<int>(1.5f * hz);  // walk after it
      c.step(floor, in, dt, &obstacles);
      const CharacterCapsule capsule = characterCapsule(c);
      w.step(floor, dt, &capsule);
      if (id == kPropInvalid) continue;
      if (!w.leavingThrower()[id]) wasOut = true;
      if (wasOut) {
        EXPECT_FALSE(w.leavingThrower()[id]) << "a ball that left its thrower never goes back";
        EXPECT_FALSE(insideCapsule(c, w.positions()[id], 0.2f * 0.95f)) << "step " << i;
      }
    }
    if (id != kPropInvalid) {
      EXPECT_TRUE(wasOut);
      *outBall = w.positions()[id];
    }
    return c.feet();
  };
  glm::vec3 ball(0.0f);
  const glm::vec3 withBall = walk(true, &ball);
  const glm::vec3 empty = walk(false, nullptr);
  EXPECT_LT(ball.z, -0.3f) << "the ball landed ahead";
  EXPECT_LT(empty.z, ball.z - 1.0f) << "the free walk passes the ball's place";
  EXPECT_GT(glm::length(withBall - empty), 0.01f) << "the ball changed the walk";
}

TEST(PropsThrow, HugeVelocitiesAreClampedNotStopped) {
  const Octree floor = makeFloor();
  for (const float speed : {1e3f, 1e19f, 1e20f, 1e30f, 3e38f}) {
    PropsWorld w;
    const uint32_t id = w.addSphere({0.0f, 5.0f, 0.0f}, 0.1f, {speed, 0.0f, -speed});
    w.step(floor, 1.0f / 60.0f);
    const glm::vec3 v = w.velocities()[id];
    EXPECT_NEAR(glm::length(v), w.params().maxSpeed, 1e-3f * w.params().maxSpeed) << speed;
    EXPECT_GT(v.x, 80.0f) << speed;
    EXPECT_LT(v.z, -80.0f) << speed;
  }
}

// `set gravity` is the world's gravity: the props fall with it too.
TEST(PropsThrow, PropsFallWithTheScriptsGravity) {
  const Octree floor = makeFloor();
  for (const float g : {5.0f, 20.0f, 40.0f}) {
    const std::string text =
        "set gravity " + std::to_string(g) + "\nset tick_hz 100\nprop sphere 5 30 5 0.1\nend 1\n";
    ScriptParseResult parsed = parseScript(text, "g.script");
    ASSERT_TRUE(parsed.ok) << parsed.error;
    ScenarioParams all;
    ASSERT_TRUE(parsed.script.applyParams(all));
    PropsWorld world;
    runScriptWithProps(parsed.script, all.controller, all.throwing, floor, {0.0f, 0.0f, 0.0f}, 0.0f,
                       -100.0f, PropsParams{}, nullptr, nullptr, nullptr, &world);
    // 100 steps of semi-implicit Euler: y = 30 - g dt^2 n (n + 1) / 2.
    const double dt = 0.01, n = 100.0;
    const double expect = 30.0 - static_cast<double>(g) * dt * dt * n * (n + 1.0) / 2.0;
    EXPECT_NEAR(world.positions()[0].y, expect, 1e-3) << "gravity " << g;
  }
}

}  // namespace
}  // namespace ofps::test
