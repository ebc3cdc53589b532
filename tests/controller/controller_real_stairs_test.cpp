// Walking down the real staircases of the shared Quake levels (oa_dm1, oa_dm5; ons-reborn is open
// terrain with no run of three or more risers). The staircases were found by a search over the
// levels' triangles (treads 5-46 cm apart, 15-125 cm deep) and each descent checked by a scripted
// walk: where it starts (the top tread, feet in the demo's frame: Z-up Quake units turned Y-up,
// 0.0254 m a unit), which way and how long it walks, and the tread heights it must pass.
//
// Measured on every step from leaving the top tread to reaching the bottom one:
//  - oa_dm1's two staircases of 30.5 cm risers (12 Quake units) are walked down grounded on every
//    step with the default stick_to_floor (before it: 25 of 89 steps grounded);
//  - the 40.6 cm risers (16 units) of the others are deeper than the default step_height
//    (0.35 m) and so than stick_to_floor: the character falls from each nose, as before. With
//    Quake's own step height (18 units, 0.457 m: `set step_height 0.457`, which stick_to_floor
//    follows) they are walked down grounded on every step too.
//  - the character ends on the bottom tread, at the rest height, and never respawns.
// Skipped without the shared folder (README: "The tests on the real levels").

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "controller_test_util.h"
#include "octree_fps/controller/character_controller.h"
#include "octree_fps/io/obj_reader.h"
#include "support/test_paths.h"

namespace ofps::test {
namespace {

struct Descent {
  const char* level;  // under the shared folder
  float x, y, z, yawDeg;
  float holdSeconds;  // forward held this long (reaches the bottom tread)
  float top, bottom;  // tread heights, m
};

// Found and checked as described above (feet on the top tread; y is its height).
const Descent kLowRisers[] = {
    {"levels/oa_dm1/oa_dm1.obj", 24.171f, 1.219f, -18.694f, 90.0f, 0.81f, 1.219f, 0.0f},
    {"levels/oa_dm1/oa_dm1.obj", 24.171f, 1.219f, -33.528f, 90.0f, 0.81f, 1.219f, 0.0f},
};
const Descent kQuakeRisers[] = {
    {"levels/oa_dm1/oa_dm1.obj", 5.477f, 0.0f, -40.64f, 90.0f, 1.72f, 0.0f, -3.658f},
    {"levels/oa_dm1/oa_dm1.obj", -8.544f, 1.219f, -31.09f, 90.0f, 0.72f, 1.219f, 0.0f},
    {"levels/oa_dm5/oa_dm5.obj", 22.37f, 4.877f, -7.907f, 45.0f, 1.55f, 4.877f, 2.438f},
    {"levels/oa_dm5/oa_dm5.obj", 7.739f, 2.438f, -12.819f, 135.0f, 1.29f, 2.438f, 0.406f},
    {"levels/oa_dm5/oa_dm5.obj", 20.32f, 3.658f, 18.685f, 0.0f, 0.77f, 3.658f, 2.438f},
};

struct LoadedLevel {
  bool ok = false;
  Octree octree;
};

// The level in the demo's frame (the loader's guess for these files: Z-up, Quake units).
const LoadedLevel& load(const std::string& relative) {
  static std::vector<std::pair<std::string, LoadedLevel>> cache;
  for (auto& [name, lv] : cache) {
    if (name == relative) return lv;
  }
  cache.emplace_back(relative, LoadedLevel{});
  LoadedLevel& lv = cache.back().second;
  const std::string path = sharedPath(relative);
  if (!fileExists(path)) return lv;
  ObjReadResult obj = readObj(path);
  if (!obj.ok) return lv;
  constexpr float s = 0.0254f;
  for (glm::vec3& v : obj.mesh.positions) v = glm::vec3(v.x * s, v.z * s, -v.y * s);
  lv.ok = lv.octree.build(obj.mesh.positions, obj.mesh.indices, {}, {}).ok;
  return lv;
}

struct Result {
  uint32_t steps = 0, grounded = 0;  // from leaving the top tread to reaching the bottom one
  glm::vec3 end{0.0f};
  bool respawned = false, reachedBottom = false;
};

Result walkDown(const Octree& octree, const Descent& d, const ControllerParams& p) {
  CharacterController c(p);
  const glm::vec3 spawn(d.x, d.y, d.z);
  c.setSpawn(spawn, d.yawDeg * 0.017453292519943295f);
  c.teleport(spawn, d.yawDeg * 0.017453292519943295f);
  CharacterInput in;
  in.yaw = d.yawDeg * 0.017453292519943295f;
  in.forward = true;
  const float dt = p.tickSeconds();
  Result r;
  bool left = false;
  for (int i = 0; i < int((d.holdSeconds + 0.3f) / dt); ++i) {
    in.forward = float(i) * dt < d.holdSeconds;
    c.step(octree, in, dt);
    r.respawned = r.respawned || c.respawned();
    const float y = c.feet().y;
    if (!left && y < d.top + p.skin - 0.005f) left = true;
    if (left && !r.reachedBottom) {
      ++r.steps;
      r.grounded += c.grounded() ? 1u : 0u;
      if (y <= d.bottom + p.skin + 0.005f) r.reachedBottom = true;
    }
  }
  r.end = c.feet();
  return r;
}

void expectDescents(const Descent* begin, const Descent* end, float stepHeight) {
  for (float hz : {60.0f, 120.0f}) {
    for (const Descent* d = begin; d != end; ++d) {
      const LoadedLevel& lv = load(d->level);
      if (!lv.ok) GTEST_SKIP() << "missing or unreadable " << sharedPath(d->level);
      ControllerParams p;
      p.tickHz = hz;
      p.stepHeight = stepHeight;
      p.stickToFloor = stepHeight;  // as the script table makes it follow step_height
      const std::string what = std::string(d->level) + " at (" + std::to_string(d->x) + ", " +
                               std::to_string(d->z) + ") " + std::to_string(hz) + " Hz";
      const Result on = walkDown(lv.octree, *d, p);
      EXPECT_FALSE(on.respawned) << what;
      EXPECT_TRUE(on.reachedBottom) << what;
      EXPECT_NEAR(on.end.y, d->bottom + p.skin, 2e-3f) << what;
      EXPECT_EQ(on.grounded, on.steps) << what << ": " << on.grounded << " of " << on.steps;
      // Without stick to the floor the same walk drops from each nose: most steps airborne.
      p.stickToFloor = 0.0f;
      const Result off = walkDown(lv.octree, *d, p);
      EXPECT_TRUE(off.reachedBottom) << what;
      EXPECT_LT(off.grounded * 2, off.steps) << what << ": " << off.grounded << " of " << off.steps;
      std::printf("%s: grounded %u of %u steps (stick_to_floor 0: %u of %u)\n", what.c_str(),
                  on.grounded, on.steps, off.grounded, off.steps);
    }
  }
}

TEST(ControllerRealStairs, TwelveUnitRisersAreWalkedDownGroundedWithTheDefaults) {
  expectDescents(std::begin(kLowRisers), std::end(kLowRisers), ControllerParams{}.stepHeight);
}

TEST(ControllerRealStairs, SixteenUnitRisersWithQuakesStepHeight) {
  expectDescents(std::begin(kQuakeRisers), std::end(kQuakeRisers), 18.0f * 0.0254f);
}

}  // namespace
}  // namespace ofps::test
