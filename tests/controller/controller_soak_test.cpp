// Soak test: a long random walk (random keys and turns, 100,000 fixed steps = 833 s of play at
// 120 Hz) on each real level of ../shared/levels. The character never leaves the level's bounds
// except by falling below them into a pit (which respawns it at the kill plane), and never ends a
// step inside geometry: checked every step with the octree's capsule overlap (capsule radius less
// the skin), and every 100th step also with the brute-force oracle, which must agree (a
// disagreement is settled by a slow segment-triangle distance, which counts only octree errors).
// Meaningfulness checks: the walk covered ground, was grounded much of the time, and jumped.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "controller_test_util.h"
#include "octree_fps/controller/character_controller.h"
#include "octree_fps/io/obj_reader.h"
#include "octree_fps/spatial/brute_force.h"
#include "support/enclosed_spawn.h"
#include "support/random_walker.h"
#include "support/test_paths.h"

namespace ofps::test {
namespace {

constexpr uint32_t kSoakSteps = 100000;
constexpr uint32_t kOracleEvery = 100;

struct SoakLevel {
  const char* path;
  bool quakeUnits;  // Z-up inches: (x, y, z) -> (x s, z s, -y s), s = 0.0254
};

void soak(const SoakLevel& lv) {
  const std::string path = sharedPath(lv.path);
  if (!fileExists(path)) GTEST_SKIP() << "missing " << path;
  ObjReadResult obj = readObj(path);
  ASSERT_TRUE(obj.ok) << obj.error;
  if (lv.quakeUnits) {
    constexpr float s = 0.0254f;
    for (glm::vec3& v : obj.mesh.positions) v = glm::vec3(v.x * s, v.z * s, -v.y * s);
  }
  ControllerParams params;
  Octree octree;
  const OctreeBuildReport rep = octree.build(obj.mesh.positions, obj.mesh.indices, {}, {});
  ASSERT_TRUE(rep.ok) << rep.error;
  const BruteForce brute = BruteForce::fromIndexed(obj.mesh.positions, obj.mesh.indices);
  const Aabb bounds = octree.bounds();

  glm::vec3 spawn;
  ASSERT_TRUE(findEnclosedSpawn(octree, params, spawn)) << "no enclosed spawn found";
  CharacterController ctrl(params);
  const float killY = bounds.min.y - 50.0f;
  ctrl.setSpawn(spawn, 0.0f);
  ctrl.setKillPlaneY(killY);
  ctrl.teleport(spawn, 0.0f);

  test::RandomWalker walker(42);
  const float dt = params.tickSeconds();
  const float slack = params.radius + 0.1f;
  uint32_t grounded = 0, jumps = 0, respawns = 0, outside = 0, inside = 0, oracleChecks = 0;
  uint32_t oracleMismatches = 0, nonEmptyChecks = 0;
  std::set<std::pair<int, int>> cells;  // 2 m cells visited
  std::vector<uint32_t> scratch(64);
  std::vector<uint32_t> bruteOut, nearOut(4096);
  const auto t0 = std::chrono::steady_clock::now();
  double stepSeconds = 0.0;
  for (uint32_t i = 0; i < kSoakSteps; ++i) {
    const CharacterInput& in = walker.next(dt);  // new keys every quarter second
    const auto s0 = std::chrono::steady_clock::now();
    ctrl.step(octree, in, dt);
    stepSeconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - s0).count();

    const glm::vec3 f = ctrl.feet();
    grounded += ctrl.grounded() ? 1 : 0;
    jumps += ctrl.velocity().y > 0.9f * params.jumpSpeed ? 1 : 0;
    respawns += ctrl.respawned() ? 1 : 0;
    cells.insert({int(std::floor(f.x / 2.0f)), int(std::floor(f.z / 2.0f))});
    // Inside the bounds, unless falling below them toward the kill plane.
    const bool inBounds = f.x >= bounds.min.x - slack && f.x <= bounds.max.x + slack &&
                          f.z >= bounds.min.z - slack && f.z <= bounds.max.z + slack &&
                          f.y <= bounds.max.y + 2.0f;
    if (!inBounds && !(f.y < bounds.min.y && f.y >= killY)) {
      if (++outside <= 5) {
        ADD_FAILURE() << "step " << i << ": feet (" << f.x << ", " << f.y << ", " << f.z
                      << ") left the level's bounds";
      }
    }
    glm::vec3 a, b;
    ctrl.capsule(a, b);
    const float r = params.radius - params.skin;
    const uint32_t n = octree.collectCapsule(a, b, r, kOctreeAllLayers, scratch);
    if (n > 0 && ++inside <= 5) {
      ADD_FAILURE() << "step " << i << ": capsule inside geometry by more than the skin at (" << f.x
                    << ", " << f.y << ", " << f.z << "), " << n << " triangles";
    }
    if (i % kOracleEvery == 0) {
      // The octree's answers the controller relies on, against brute force: the triangles near
      // the capsule (within radius + 0.25 m: the floor under it, walls beside it), so that most
      // checks compare non-empty sets.
      ++oracleChecks;
      const float rNear = params.radius + 0.25f;
      const uint32_t nn = octree.collectCapsule(a, b, rNear, kOctreeAllLayers, nearOut);
      const uint32_t bn = brute.overlapCapsule(a, b, rNear, kOctreeAllLayers, bruteOut);
      nonEmptyChecks += nn > 0 ? 1 : 0;
      std::vector<uint32_t> got(nearOut.begin(),
                                nearOut.begin() + std::min<size_t>(nn, nearOut.size()));
      std::sort(got.begin(), got.end());
      std::vector<uint32_t> want(bruteOut.begin(), bruteOut.end());
      std::sort(want.begin(), want.end());
      if (nn > nearOut.size()) {
        ADD_FAILURE() << "step " << i << ": " << nn
                      << " triangles near the capsule, more than the buffer";
      } else if (got != want) {
        // Settle a disagreement with a third, slow reference (controller_test_util's segment-
        // triangle distance): it counts against the octree only when the reference disagrees
        // with the octree.
        std::vector<uint32_t> ids = got;
        ids.insert(ids.end(), want.begin(), want.end());
        std::sort(ids.begin(), ids.end());
        ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
        std::vector<uint32_t> reference;
        for (uint32_t id : ids) {
          const Triangle t{obj.mesh.positions[obj.mesh.indices[3 * id]],
                           obj.mesh.positions[obj.mesh.indices[3 * id + 1]],
                           obj.mesh.positions[obj.mesh.indices[3 * id + 2]]};
          if (segmentTriangleDistance(a, b, t) <= rNear) reference.push_back(id);
        }
        if (reference != got && ++oracleMismatches <= 3) {
          ADD_FAILURE() << "step " << i << ": triangles near the capsule at (" << f.x << ", " << f.y
                        << ", " << f.z << "): octree " << nn << ", brute force " << bn
                        << ", reference " << reference.size();
        }
      }
    }
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf(
      "[soak] %s: %u tris, %u steps, mean step %.2f us, wall %.2f s, grounded %.0f%%, "
      "cells %zu, jumps %u, respawns %u\n",
      lv.path, octree.triangleCount(), kSoakSteps, 1e6 * stepSeconds / kSoakSteps, wall,
      100.0 * grounded / kSoakSteps, cells.size(), jumps, respawns);
  EXPECT_EQ(outside, 0u);
  EXPECT_EQ(inside, 0u);
  EXPECT_EQ(oracleMismatches, 0u) << "octree and brute-force capsule overlap disagree";
  // Meaningful: it went places, stood on ground, jumped.
  EXPECT_GT(cells.size(), 20u);
  EXPECT_GT(grounded, kSoakSteps / 4);
  EXPECT_GT(jumps, 50u);
  // The oracle compared real neighbourhoods, not empty sets, on most checks.
  EXPECT_GT(nonEmptyChecks, oracleChecks / 2) << nonEmptyChecks << " of " << oracleChecks;
}

TEST(ControllerSoak, CollisionWorld) {
  soak({"levels/collision-world/collision-world.obj", false});
}
TEST(ControllerSoak, OaDm1) {
  soak({"levels/oa_dm1/oa_dm1.obj", true});
}
TEST(ControllerSoak, OaDm5) {
  soak({"levels/oa_dm5/oa_dm5.obj", true});
}

}  // namespace
}  // namespace ofps::test
