// The bundled default level, assets/arena.glb: it loads through the real glTF path, and every
// feature listed in assets/arena.features.json is where the list says (checked with octree
// queries), so the controller's scenario tests can rely on those coordinates.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <map>
#include <nlohmann/json.hpp>

#include "level/level_loader.h"
#include "level_test_util.h"
#include "octree_fps/spatial/octree.h"
#include "support/test_paths.h"

namespace ofps {
namespace {

using test::testLoadOptions;

using nlohmann::json;

glm::vec3 vec(const json& j) {
  return {j[0].get<float>(), j[1].get<float>(), j[2].get<float>()};
}

class DefaultLevel : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    result_ =
        new LevelLoadResult(loadLevel(test::sourcePath("assets/arena.glb"), testLoadOptions()));
    std::ifstream f(test::sourcePath("assets/arena.features.json"));
    features_ = new json(json::parse(f));
    if (result_->ok) {
      const Level& l = *result_->level;
      octree_ = new Octree();
      octree_->build(l.collisionPositions, l.collisionIndices, l.collisionLayers);
    }
  }
  static void TearDownTestSuite() {
    delete result_;
    delete features_;
    delete octree_;
  }
  void SetUp() override { ASSERT_TRUE(result_->ok) << result_->error; }
  const Level& level() const { return *result_->level; }
  const json& feat(const char* name) const { return (*features_)["features"][name]; }

  // Height of the first solid surface straight below (x, from, z); NaN on a miss.
  static float floorBelow(float x, float z, float from = 20.0f) {
    RayHit hit;
    if (!octree_->raycast({x, from, z}, {0, -1, 0}, 100.0f, kLayerSolid, hit)) return NAN;
    return hit.point.y;
  }
  static std::optional<RayHit> ray(glm::vec3 o, glm::vec3 d, float tMax = 100.0f) {
    RayHit hit;
    if (!octree_->raycast(o, d, tMax, kLayerSolid, hit)) return std::nullopt;
    return hit;
  }

  static LevelLoadResult* result_;
  static json* features_;
  static Octree* octree_;
};
LevelLoadResult* DefaultLevel::result_ = nullptr;
json* DefaultLevel::features_ = nullptr;
Octree* DefaultLevel::octree_ = nullptr;

TEST_F(DefaultLevel, LoadsCleanlyWithSpawnBoundsAndKillPlane) {
  EXPECT_TRUE(result_->warnings.empty()) << result_->warnings.front();
  EXPECT_EQ(level().triangleCount(), (*features_)["triangles"].get<size_t>());
  EXPECT_EQ(level().degenerateTriangles, 0u);
  EXPECT_EQ(level().frame.upAxis, 'y');
  EXPECT_FALSE(level().frame.guessed);
  const glm::vec3 lo = vec((*features_)["bounds"]["min"]), hi = vec((*features_)["bounds"]["max"]);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(level().boundsMin[k], lo[k], 1e-5f);
    EXPECT_NEAR(level().boundsMax[k], hi[k], 1e-5f);
  }
  EXPECT_NEAR(killPlaneY(level()), (*features_)["kill_plane_y"].get<float>(), 1e-5f);
  ASSERT_TRUE(level().spawn.has_value());
  EXPECT_EQ(level().spawnSource, "spawn");
  const glm::vec3 spawn = vec(feat("spawn")["position"]);
  EXPECT_NEAR(glm::distance(*level().spawn, spawn), 0.0f, 1e-5f);
  EXPECT_NEAR(level().spawnYaw, 0.0f, 1e-6f);
  // The spawn stands on the floor.
  EXPECT_NEAR(floorBelow(spawn.x, spawn.z), 0.0f, 1e-5f);
}

TEST_F(DefaultLevel, MaterialsAndEmbeddedTexture) {
  std::map<std::string, const LevelMaterial*> byName;
  for (const LevelMaterial& m : level().materials) byName[m.name] = &m;
  ASSERT_TRUE(byName.count("floor"));
  const LevelMaterial& floor = *byName["floor"];
  ASSERT_GE(floor.texture, 0);
  const LevelTexture& t = level().textures[static_cast<size_t>(floor.texture)];
  EXPECT_FALSE(t.isFallbackChecker);
  EXPECT_EQ(t.width, 64);
  EXPECT_EQ(t.height, 64);
  EXPECT_EQ(t.rgba.size(), 64u * 64u * 4u);
  EXPECT_EQ(t.rgba[0], 200);  // the generator's light grey square at the top-left
  ASSERT_TRUE(byName.count("ramp"));
  EXPECT_NEAR(byName["ramp"]->baseColor.z, 0.80f, 1e-6f);
  EXPECT_EQ(byName["ramp"]->texture, -1);
}

TEST_F(DefaultLevel, CollisionLayersFromNames) {
  std::map<std::string, const LevelMesh*> byName;
  for (const LevelMesh& m : level().meshes) byName[m.name] = &m;
  for (const char* decor : {"grass_tufts", "banner", "fence_nocollide"}) {
    ASSERT_TRUE(byName.count(decor)) << decor;
    EXPECT_EQ(byName[decor]->layers, 0u) << decor;
    EXPECT_TRUE(byName[decor]->visible) << decor;
  }
  ASSERT_TRUE(byName.count("UCX_fence"));
  EXPECT_FALSE(byName["UCX_fence"]->visible);
  EXPECT_EQ(byName["UCX_fence"]->layers, kLayerSolid);
  for (const char* solid : {"floor", "stairs_45cm", "ramp_60deg", "thin_wall_1cm", "pit"}) {
    ASSERT_TRUE(byName.count(solid)) << solid;
    EXPECT_EQ(byName[solid]->layers, kLayerSolid) << solid;
    EXPECT_TRUE(byName[solid]->visible) << solid;
  }
  // Collision layers per triangle follow the meshes.
  size_t t = 0;
  for (const LevelMesh& m : level().meshes) {
    for (size_t k = 0; k < m.indices.size() / 3; ++k, ++t) {
      ASSERT_EQ(level().collisionLayers[t], m.layers) << m.name;
    }
  }
  // The fence does not block, its invisible collider does.
  const auto& ucx = feat("invisible_collider");
  const glm::vec3 from = vec(ucx["walk_into_from"]) + glm::vec3(0, 0.5f, 0);
  const auto hit = ray(from, vec(ucx["direction"]));
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->point.z, ucx["z_range"][1].get<float>(), 1e-4f);
  EXPECT_EQ(level().collisionLayers[hit->triangle], kLayerSolid);
}

TEST_F(DefaultLevel, AllSolidMakesDecorationCollide) {
  LevelLoadOptions o = testLoadOptions();
  o.allSolid = true;
  const LevelLoadResult r = loadLevel(test::sourcePath("assets/arena.glb"), o);
  ASSERT_TRUE(r.ok) << r.error;
  for (const LevelMesh& m : r.level->meshes) {
    EXPECT_EQ(m.layers, kLayerSolid) << m.name;
    EXPECT_EQ(m.visible, m.name != "UCX_fence") << m.name;  // colliders stay hidden
  }
}

TEST_F(DefaultLevel, PillarsAreOneMeshInstancedFourTimes) {
  int found = 0;
  for (const auto& p : feat("pillars")) {
    const std::string name = p["name"].get<std::string>() + "/pillar";
    for (const LevelMesh& m : level().meshes) {
      if (m.name != name) continue;
      ++found;
      glm::vec3 lo(1e9f), hi(-1e9f);
      for (const glm::vec3& v : m.positions) {
        lo = glm::min(lo, v);
        hi = glm::max(hi, v);
      }
      const glm::vec3 c = vec(p["centre"]);
      EXPECT_NEAR((lo.x + hi.x) / 2, c.x, 1e-4f) << name;
      EXPECT_NEAR((lo.z + hi.z) / 2, c.z, 1e-4f) << name;
      EXPECT_NEAR(hi.y, p["height"].get<float>(), 1e-5f) << name;
    }
  }
  EXPECT_EQ(found, 4);
}

TEST_F(DefaultLevel, StairsHaveTheirRises) {
  ASSERT_EQ(feat("stairs").size(), 4u);
  for (const auto& s : feat("stairs")) {
    const float xc = (s["x_range"][0].get<float>() + s["x_range"][1].get<float>()) / 2;
    const float z0 = s["first_riser_z"].get<float>(), tread = s["tread"].get<float>();
    const float rise = s["rise"].get<float>();
    for (int k = 1; k <= s["steps"].get<int>(); ++k) {
      EXPECT_NEAR(floorBelow(xc, z0 - (static_cast<float>(k) - 0.5f) * tread), k * rise, 1e-5f)
          << s["name"] << " step " << k;
    }
    const glm::vec3 landing = vec(s["landing_centre"]);
    EXPECT_NEAR(floorBelow(landing.x, landing.z), landing.y, 1e-5f) << s["name"];
  }
}

TEST_F(DefaultLevel, RampsHaveTheirAngles) {
  ASSERT_EQ(feat("ramps").size(), 4u);
  for (const auto& r : feat("ramps")) {
    const float xc = (r["x_range"][0].get<float>() + r["x_range"][1].get<float>()) / 2;
    const float zm = (r["foot_z"].get<float>() + r["top_z"].get<float>()) / 2;
    const auto hit = ray({xc, 20.0f, zm}, {0, -1, 0});
    ASSERT_TRUE(hit) << r["name"];
    EXPECT_NEAR(glm::degrees(std::acos(hit->normal.y)), r["angle_deg"].get<float>(), 0.01f)
        << r["name"];
    EXPECT_NEAR(hit->point.y, r["top_y"].get<float>() / 2, 1e-4f) << r["name"];
  }
}

TEST_F(DefaultLevel, ThinWallCorridorDoorwayPitLedgeOverhang) {
  // 1 cm wall.
  const auto& tw = feat("thin_wall");
  auto hit = ray(vec(tw["walk_into_from"]) + glm::vec3(0, 1, 0), vec(tw["direction"]));
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->point.z, tw["z_range"][1].get<float>(), 1e-5f);
  EXPECT_NEAR(tw["z_range"][1].get<float>() - tw["z_range"][0].get<float>(), 0.01f, 1e-6f);

  // Low corridor: 1.2 m clear inside.
  const auto& cor = feat("crouch_corridor");
  const float cz =
      (cor["inner_z_range"][0].get<float>() + cor["inner_z_range"][1].get<float>()) / 2;
  hit = ray({-22.0f, 0.1f, cz}, {0, 1, 0});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->point.y, cor["clear_height"].get<float>(), 1e-5f);
  EXPECT_NEAR(floorBelow(-22.0f, cz, 1.0f), 0.0f, 1e-5f);

  // Doorway: a 0.35 m capsule fits through the 0.8 m door, not through the 0.5 m gap.
  const auto& door = feat("doorway");
  const float dx =
      (door["door_x_range"][0].get<float>() + door["door_x_range"][1].get<float>()) / 2;
  const float wz =
      (door["wall_z_range"][0].get<float>() + door["wall_z_range"][1].get<float>()) / 2;
  auto touches = [&](float x) {
    return octree_->overlapCapsule({x, 0.4f, wz}, {x, 1.45f, wz}, 0.35f, kLayerSolid,
                                   [](uint32_t) { return false; }) > 0;
  };
  EXPECT_FALSE(touches(dx));
  const auto& gap = feat("narrow_gap");
  EXPECT_TRUE(touches((gap["x_range"][0].get<float>() + gap["x_range"][1].get<float>()) / 2));
  hit = ray({dx, 1.0f, wz - 2.0f}, {0, 0, 1}, 5.0f);
  EXPECT_FALSE(hit) << "the door opening is blocked";

  // Pit with a floor 2 m down; void shaft with nothing below.
  const auto& pit = feat("pit");
  const glm::vec3 fall = vec(pit["fall_in_at"]);
  EXPECT_NEAR(floorBelow(fall.x, fall.z), pit["bottom_y"].get<float>(), 1e-5f);
  const glm::vec3 shaft = vec(feat("void_shaft")["fall_in_at"]);
  EXPECT_TRUE(std::isnan(floorBelow(shaft.x, shaft.z)));

  // Ledge 1 m high; overhang 2 m above the floor.
  const auto& ledge = feat("jump_ledge");
  EXPECT_NEAR(floorBelow((ledge["x_range"][0].get<float>() + ledge["x_range"][1].get<float>()) / 2,
                         (ledge["z_range"][0].get<float>() + ledge["z_range"][1].get<float>()) / 2),
              ledge["top_y"].get<float>(), 1e-5f);
  const auto& ov = feat("overhang");
  hit = ray(vec(ov["stand_under_at"]) + glm::vec3(0, 0.1f, 0), {0, 1, 0});
  ASSERT_TRUE(hit);
  EXPECT_NEAR(hit->point.y, ov["underside_y"].get<float>(), 1e-5f);
}

TEST_F(DefaultLevel, RoundTripThroughObj) {
  test::TempDir dir;
  const std::string obj = dir.file("arena.obj");
  test::writeObj(obj, test::soupOf(level()));
  const LevelLoadResult r = loadLevel(obj, testLoadOptions('y', 1.0f));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(test::compareSoups(test::soupOf(*r.level), test::soupOf(level()), 1e-5f), "");
}

TEST(DefaultLevelGenerator, CommittedAssetsMatchTheGenerator) {
  test::TempDir dir;
  const std::string cmd = "python3 '" + test::sourcePath("scripts/make_default_level.py") + "' '" +
                          dir.path() + "' > /dev/null";
  if (std::system(cmd.c_str()) != 0) GTEST_SKIP() << "python3 not available";
  for (const char* f : {"arena.glb", "arena.features.json"}) {
    EXPECT_TRUE(test::readFile(dir.file(f)) ==
                test::readFile(test::sourcePath(std::string("assets/") + f)))
        << f << " differs from scripts/make_default_level.py output: rerun the generator";
  }
}

}  // namespace
}  // namespace ofps
