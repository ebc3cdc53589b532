// Spawn: the spawn node when there is one; else a walkable spot with room for the capsule,
// inside the level rather than on the roof of a closed (Quake) map.
#include "level/spawn_search.h"

#include <gtest/gtest.h>

#include <cmath>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <utility>
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

// Adds an axis-aligned box's 12 triangles to a soup, wound so that their normals point out of
// the box (`outward`: a crate, a pillar) or into it (a room seen from inside).
void addBox(std::vector<glm::vec3>& pos, std::vector<uint32_t>& idx, const glm::vec3& lo,
            const glm::vec3& hi, bool outward) {
  const glm::vec3 centre = (lo + hi) * 0.5f;
  for (int axis = 0; axis < 3; ++axis) {
    for (int side = 0; side < 2; ++side) {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      glm::vec3 q[4];
      for (int k = 0; k < 4; ++k) {
        q[k][axis] = side ? hi[axis] : lo[axis];
        q[k][u] = (k == 1 || k == 2) ? hi[u] : lo[u];
        q[k][v] = (k >= 2) ? hi[v] : lo[v];
      }
      const glm::vec3 n = glm::cross(q[1] - q[0], q[2] - q[0]);
      const bool pointsOut = glm::dot(n, q[0] - centre) > 0.0f;
      if (pointsOut != outward) std::swap(q[1], q[3]);
      const auto base = static_cast<uint32_t>(pos.size());
      for (const glm::vec3& p : q) pos.push_back(p);
      for (uint32_t k : {0u, 1u, 2u, 0u, 2u, 3u}) idx.push_back(base + k);
    }
  }
}

bool insideBox(const glm::vec3& feet, const glm::vec3& lo, const glm::vec3& hi) {
  return feet.x > lo.x && feet.x < hi.x && feet.z > lo.z && feet.z < hi.z && feet.y < hi.y - 1e-3f;
}

TEST(SpawnSearch, NeverInsideAClosedCrate) {
  // Property over generated rooms: a closed room (faces wound inwards, as a Quake map's) holding
  // one to six closed crates (wound outwards, as any exported box), one of them always over the
  // room's centre, where the search starts and ties go. Inside a crate the probes meet the
  // crate's own back faces; the spawn must be outside every crate, on the room's floor or on a
  // crate's top. Before the back-face rule the centre crate's inside won the tie (8 of 8 probes
  // hit there as anywhere in the room); the test fails without it.
  uint32_t state = 12345u;
  auto rnd = [&state](float lo, float hi) {
    state = state * 1664525u + 1013904223u;
    return lo + (hi - lo) * static_cast<float>(state >> 8) / 16777216.0f;
  };
  for (int trial = 0; trial < 24; ++trial) {
    std::vector<glm::vec3> pos;
    std::vector<uint32_t> idx;
    const float half = rnd(8.0f, 20.0f), height = rnd(4.0f, 8.0f);
    addBox(pos, idx, {-half, 0, -half}, {half, height, half}, false);
    std::vector<std::pair<glm::vec3, glm::vec3>> crates;
    const int count = 1 + trial % 6;
    for (int k = 0; k < count; ++k) {
      // Slots on a 3 x 3 grid keep crates apart; slot 4 is the centre.
      const int slot = k == 0 ? 4 : (4 + k * 2) % 9;
      const float cell = 2.0f * half / 3.0f;
      const glm::vec3 mid(-half + cell * (static_cast<float>(slot % 3) + 0.5f), 0.0f,
                          -half + cell * (static_cast<float>(slot / 3) + 0.5f));
      const float w = rnd(1.2f, 0.45f * cell), h = rnd(2.0f, height - 0.5f);
      const glm::vec3 lo = mid - glm::vec3(w, 0.0f, w), hi = mid + glm::vec3(w, h, w);
      addBox(pos, idx, lo, hi, true);
      crates.emplace_back(lo, hi);
    }
    const Level level = soupLevel(pos, idx);
    const Octree octree = buildOctree(level);
    const auto found = findSpawnPoint(level, octree);
    ASSERT_TRUE(found) << "trial " << trial;
    expectStandable(octree, found->feet);
    for (const auto& [lo, hi] : crates) {
      EXPECT_FALSE(insideBox(found->feet, lo, hi))
          << "trial " << trial << ": spawn (" << found->feet.x << ", " << found->feet.y << ", "
          << found->feet.z << ") is inside the crate (" << lo.x << ", " << lo.z << ")-(" << hi.x
          << ", " << hi.z << "), " << hi.y << " m tall";
    }
  }
}

TEST(SpawnSearch, InvertedWindingStillFindsASpot) {
  // A room wound inside out (its faces point out of it, as a closed crate's): the probes meet
  // back faces everywhere, so the level counts as inverted and back faces count instead. The
  // floor inside (8 of 8 probes meet a wall) still beats the roof (open all round).
  std::vector<glm::vec3> pos;
  std::vector<uint32_t> idx;
  addBox(pos, idx, {-10, 0, -10}, {10, 5, 10}, true);
  const Level level = soupLevel(pos, idx);
  const Octree octree = buildOctree(level);
  const auto found = findSpawnPoint(level, octree);
  ASSERT_TRUE(found);
  expectStandable(octree, found->feet);
  EXPECT_EQ(found->enclosure, 8u);
  EXPECT_LT(found->feet.y, 1e-3f);  // on the room's floor, not its roof
}

}  // namespace
}  // namespace ofps
