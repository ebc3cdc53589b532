// PropsWorld::spawnRandom places props only over floor, so a spawn does not pour props out of
// the level: every prop has a walkable surface straight below its centre (checked against every
// triangle with the brute-force ray, not through the octree the spawner used), on a level built
// here and on a real one, and after a few simulated seconds few props have fallen below the
// kill plane.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "level/level.h"
#include "level/level_loader.h"
#include "octree_fps/props/props_world.h"
#include "octree_fps/spatial/brute_force.h"
#include "octree_fps/spatial/octree.h"
#include "support/test_paths.h"

namespace ofps::test {
namespace {

// Props whose centre has no surface with an upward normal of y >= 0.5 straight below it within
// bounds (the spawner's contract, props_world.h).
uint32_t propsWithoutFloor(const PropsWorld& w, const BruteForce& brute, float lowestY,
                           uint32_t layerMask) {
  uint32_t missing = 0;
  for (uint32_t i = 0; i < w.size(); ++i) {
    const glm::vec3 c = w.positions()[i];
    RayHit hit;
    const bool floor =
        brute.raycast(c, glm::vec3(0.0f, -1.0f, 0.0f), c.y - lowestY, layerMask, hit) &&
        hit.normal.y >= 0.5f;
    missing += floor ? 0u : 1u;
  }
  return missing;
}

void addQuad(std::vector<Triangle>& tris, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d) {
  tris.push_back({a, b, c});
  tris.push_back({a, c, d});
}

TEST(PropsSpawnFloor, GeneratedLevelOnlyOverItsFloor) {
  // Bounds 20 x 20 m; a flat floor under the half x > 0 only. Over x < 0: nothing on
  // -10 < x < -5 (props there would fall forever) and a 70-degree slope on -5 < x < 0 (they
  // would slide off it into the void).
  std::vector<Triangle> tris;
  addQuad(tris, {0, 0, -10}, {0, 0, 10}, {10, 0, 10}, {10, 0, -10});
  addQuad(tris, {-5, 0, -10}, {-5, 0, 10}, {0, 13.7f, 10}, {0, 13.7f, -10});
  Octree octree;
  ASSERT_TRUE(octree.build(tris).ok);
  const BruteForce brute(tris);
  const Aabb bounds{glm::vec3(-10.0f, -1.0f, -10.0f), glm::vec3(10.0f, 14.0f, 10.0f)};
  PropsParams params;
  params.killPlaneY = -20.0f;
  PropsWorld w(params);
  const uint32_t added = w.spawnRandom(1000, octree, bounds, 3);
  // Half the draws land over the floor, so 32 draws leave a prop unplaced with odds 2^-32.
  EXPECT_EQ(added, 1000u);
  EXPECT_EQ(propsWithoutFloor(w, brute, bounds.min.y, kOctreeAllLayers), 0u);
  uint32_t overFloor = 0;
  for (const glm::vec3& c : w.positions()) overFloor += c.x > 0.0f ? 1u : 0u;
  EXPECT_EQ(overFloor, w.size()) << "props placed where the level has no floor";
  for (int i = 0; i < 240; ++i) w.step(octree, 1.0f / 120.0f);
  // Props dropped onto a flat floor settle on it; a few may be knocked over the edge.
  EXPECT_LE(w.removedCount(), w.size() / 100);
}

TEST(PropsSpawnFloor, RealLevelKeepsItsProps) {
  const std::string path = sharedLevelCopy("levels/oa_dm5/oa_dm5.obj");
  if (path.empty()) GTEST_SKIP() << "no oa_dm5 in the shared folder";
  LevelLoadOptions o;
  o.rememberSettings = false;
  o.upAxis = 'z';
  o.scale = 0.0254f;  // Quake units are inches
  const LevelLoadResult r = loadLevel(path, o);
  ASSERT_TRUE(r.ok) << r.error;
  const Level& l = *r.level;
  Octree octree;
  ASSERT_TRUE(octree.build(l.collisionPositions, l.collisionIndices, l.collisionLayers).ok);
  const BruteForce brute =
      BruteForce::fromIndexed(l.collisionPositions, l.collisionIndices, l.collisionLayers);
  PropsParams params;
  params.layerMask = kLayerSolid;
  params.killPlaneY = killPlaneY(l);
  PropsWorld w(params);
  const uint32_t added = w.spawnRandom(2000, octree, octree.bounds(), 1);
  EXPECT_GT(added, 1900u) << "the spawner gave up on too many props";
  EXPECT_EQ(propsWithoutFloor(w, brute, octree.bounds().min.y, kLayerSolid), 0u);
  for (int i = 0; i < 5 * 120; ++i) w.step(octree, 1.0f / 120.0f);
  std::printf("oa_dm5: %u props spawned, %u removed after 5 s\n", w.size(), w.removedCount());
  // A prop with floor under it can still roll off a ledge into a pit; a handful, not hundreds.
  EXPECT_LE(w.removedCount(), w.size() / 100);
  std::string err;
  EXPECT_TRUE(w.validate(&err)) << err;
}

}  // namespace
}  // namespace ofps::test
