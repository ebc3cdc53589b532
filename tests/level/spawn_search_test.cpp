// Spawn: the spawn node when there is one; else a walkable spot with room for the capsule,
// inside the level rather than on the roof of a closed (Quake) map.
#include "level/spawn_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/trigonometric.hpp>
#include <vector>

#include "level/level_loader.h"
#include "level_test_util.h"
#include "octree_fps/spatial/octree.h"
#include "support/test_paths.h"

namespace ofps {
namespace {

using test::testLoadOptions;

Octree buildOctree(const Level& l) {
  Octree o;
  const OctreeBuildReport rep =
      o.build(l.collisionPositions, l.collisionIndices, l.collisionLayers);
  EXPECT_TRUE(rep.ok) << rep.error;
  // The loader's zero-area count is the octree's (the same test).
  if (!l.meshes.empty()) {
    EXPECT_EQ(rep.degenerateTriangles, l.degenerateTriangles);
  }
  return o;
}

// Checks that `feet` stands on walkable ground with room for the default capsule.
void expectStandable(const Octree& octree, const glm::vec3& feet, const SpawnSearchParams& p = {}) {
  RayHit hit;
  ASSERT_TRUE(octree.raycast(feet + glm::vec3(0, 0.5f, 0), {0, -1, 0}, 1.0f, kLayerSolid, hit));
  EXPECT_NEAR(hit.point.y, feet.y, 1e-3f);
  EXPECT_GE(hit.normal.y, std::cos(glm::radians(p.maxSlopeDegrees)) - 1e-4f);
  const glm::vec3 a = feet + glm::vec3(0, p.clearance + p.radius, 0);
  const glm::vec3 b = feet + glm::vec3(0, p.clearance + p.height - p.radius, 0);
  EXPECT_EQ(octree.overlapCapsule(a, b, p.radius, kLayerSolid, [](uint32_t) { return false; }), 0u);
}

TEST(SpawnSearch, NodeWinsWhenPresent) {
  const LevelLoadResult r = loadLevel(test::sourcePath("assets/arena.glb"));
  ASSERT_TRUE(r.ok) << r.error;
  const Octree octree = buildOctree(*r.level);
  float yaw = -1.0f;
  bool fallback = true;
  const glm::vec3 s = resolveSpawn(*r.level, octree, &yaw, {}, &fallback);
  EXPECT_EQ(s, *r.level->spawn);
  EXPECT_FALSE(fallback);
  EXPECT_EQ(yaw, r.level->spawnYaw);
}

TEST(SpawnSearch, ArenaWithoutSpawnNodeGetsAStandableSpot) {
  LevelLoadResult r = loadLevel(test::sourcePath("assets/arena.glb"));
  ASSERT_TRUE(r.ok) << r.error;
  Level level = *r.level;
  level.spawn.reset();
  const Octree octree = buildOctree(level);
  const auto found = findSpawnPoint(level, octree);
  ASSERT_TRUE(found);
  expectStandable(octree, found->feet);
  EXPECT_GT(found->candidates, 100u);
  // Inside the arena walls, not on top of them.
  EXPECT_LT(found->feet.y, 3.0f);
  EXPECT_GT(std::abs(found->feet.x), -1.0f);
  EXPECT_LT(std::abs(found->feet.x), 30.0f);
  EXPECT_LT(std::abs(found->feet.z), 30.0f);
}

TEST(SpawnSearch, QuakeLevelsSpawnInsideNotOnTheSkyRoof) {
  for (const char* file : {"levels/oa_dm1/oa_dm1.obj", "levels/oa_dm5/oa_dm5.obj"}) {
    const std::string path = test::sharedLevelCopy(file);
    if (path.empty()) continue;
    const LevelLoadResult r = loadLevel(path, testLoadOptions());
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_FALSE(r.level->spawn.has_value());  // the OBJs carry no entities
    const Octree octree = buildOctree(*r.level);
    const auto found = findSpawnPoint(*r.level, octree);
    ASSERT_TRUE(found) << file;
    expectStandable(octree, found->feet);
    // Enclosed: the probes hit walls and ceilings all round.
    EXPECT_EQ(found->enclosure, 8u) << file;
    // Something solid above the head (a ceiling or the sky brush), i.e. not on the roof.
    RayHit up;
    EXPECT_TRUE(
        octree.raycast(found->feet + glm::vec3(0, 1.7f, 0), {0, 1, 0}, 1000.0f, kLayerSolid, up))
        << file << " spawn on the roof at " << found->feet.x << " " << found->feet.y << " "
        << found->feet.z;
  }
}

Level soupLevel(std::vector<glm::vec3> positions, std::vector<uint32_t> indices) {
  Level level;
  level.collisionPositions = std::move(positions);
  level.collisionIndices = std::move(indices);
  level.collisionLayers.assign(level.collisionIndices.size() / 3, kLayerSolid);
  level.boundsMin = glm::vec3(1e9f);
  level.boundsMax = glm::vec3(-1e9f);
  for (const glm::vec3& p : level.collisionPositions) {
    level.boundsMin = glm::min(level.boundsMin, p);
    level.boundsMax = glm::max(level.boundsMax, p);
  }
  return level;
}

TEST(SpawnSearch, NoWalkableFloorReturnsNothing) {
  // A vertical wall and a 70 degree slope: nothing to stand on.
  const Level level = soupLevel({{0, 0, 0},
                                 {4, 0, 0},
                                 {4, 3, 0},
                                 {0, 3, 0},
                                 {0, 0, 2},
                                 {4, 0, 2},
                                 {4, 5.5f, 4},
                                 {0, 5.5f, 4}},
                                {0, 1, 2, 0, 2, 3, 4, 5, 6, 4, 6, 7});
  const Octree octree = buildOctree(level);
  EXPECT_FALSE(findSpawnPoint(level, octree));
  bool fallback = false;
  resolveSpawn(level, octree, nullptr, {}, &fallback);
  EXPECT_TRUE(fallback);
}

TEST(SpawnSearch, LowRoomIsSkippedForTheFloorAboveIt) {
  // Floor at y = 0 under a 1 m ceiling: a 1.8 m capsule does not fit. The ceiling's top, open
  // above, is the only place to stand.
  const Level level = soupLevel(
      {{0, 0, 0}, {4, 0, 0}, {4, 0, 4}, {0, 0, 4}, {0, 1, 0}, {4, 1, 0}, {4, 1, 4}, {0, 1, 4}},
      {0, 2, 1, 0, 3, 2, 4, 6, 5, 4, 7, 6});
  const Octree octree = buildOctree(level);
  const auto found = findSpawnPoint(level, octree);
  ASSERT_TRUE(found);
  EXPECT_NEAR(found->feet.y, 1.0f, 1e-5f);
  SpawnSearchParams crouched;
  crouched.height = 0.9f;
  const auto low = findSpawnPoint(level, octree, crouched);
  ASSERT_TRUE(low);
  expectStandable(octree, low->feet, crouched);
}

}  // namespace
}  // namespace ofps
