// The character stands on props: the controller sweeps against them (PropsObstacles) as well as
// the level. A character dropped onto a resting box lands on its top, stays grounded there, and
// the box stays where it was; without the obstacles it would fall through to the floor.

#include <gtest/gtest.h>

#include <vector>

#include "octree_fps/controller/character_controller.h"
#include "octree_fps/props/props_obstacles.h"
#include "octree_fps/props/props_world.h"
#include "props_test_levels.h"
#include "scenario/script_props.h"

namespace ofps::test {
namespace {

struct Result {
  glm::vec3 feet;
  bool grounded;
  glm::vec3 box;
};

Result dropOntoBox(bool withObstacles) {
  const Octree floor = makeFloor();
  PropsWorld world;
  const uint32_t box = world.addBox({0.0f, 0.5f, 0.0f}, {0.6f, 0.5f, 0.6f});
  const float dt = 1.0f / 120.0f;
  for (int i = 0; i < 120; ++i) world.step(floor, dt);  // let it settle
  CharacterController c;
  c.teleport({0.0f, 2.5f, 0.0f}, 0.0f);
  const PropsObstacles obstacles(world);
  const CharacterInput idle;
  for (int i = 0; i < 240; ++i) {
    c.step(floor, idle, dt, withObstacles ? &obstacles : nullptr);
    const CharacterCapsule capsule = characterCapsule(c);
    world.step(floor, dt, &capsule);
  }
  return {c.feet(), c.grounded(), world.positions()[box]};
}

TEST(CharacterOnProps, LandsAndStandsOnABox) {
  const Result r = dropOntoBox(true);
  EXPECT_TRUE(r.grounded);
  EXPECT_NEAR(r.feet.y, 1.0f, 0.05f) << "feet on the box's top (y = 1)";
  EXPECT_NEAR(r.box.x, 0.0f, 0.02f);
  EXPECT_NEAR(r.box.y, 0.5f, 0.02f) << "the box still rests on the floor";
  EXPECT_NEAR(r.box.z, 0.0f, 0.02f);
}

TEST(CharacterOnProps, WithoutObstaclesTheBoxIsPushedAside) {
  // The control case: the level alone does not hold the character up; it reaches the floor
  // and the props world pushes the box out from under it.
  const Result r = dropOntoBox(false);
  EXPECT_NEAR(r.feet.y, 0.0f, 0.05f);
  EXPECT_GT(std::abs(r.box.x) + std::abs(r.box.z), 0.3f);
}

}  // namespace
}  // namespace ofps::test
