// Every level in ../shared/levels/ loads with the triangle count and bounds its SOURCES.md gives,
// the right way up and the right size, whether the frame is guessed or given explicitly; and the
// canonical OBJs give the same triangles as the original files.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <ostream>
#include <string>

#include "level/level_loader.h"
#include "level_test_util.h"
#include "octree_fps/io/obj_reader.h"
#include "support/test_paths.h"

namespace ofps {
namespace {

using test::testLoadOptions;

struct SharedLevel {
  const char* file;    // under levels/
  uint32_t triangles;  // SOURCES.md, canonical
  glm::vec3 lo, hi;    // SOURCES.md bounds, file units and axes
  char up;             // SOURCES.md up axis
  float scale;         // metres per file unit
};

// Test names and failure messages show the file, not the struct's bytes.
void PrintTo(const SharedLevel& s, std::ostream* os) {
  *os << s.file;
}

// Quake units: 1 u = 1 inch = 0.0254 m.
constexpr float kQuake = 0.0254f;

const SharedLevel kLevels[] = {
    {"collision-world/collision-world.glb",
     1788,
     {-73.80f, -0.13f, -50.50f},
     {40.29f, 23.45f, 43.69f},
     'y',
     1.0f},
    {"collision-world/collision-world.obj",
     1788,
     {-73.80f, -0.13f, -50.50f},
     {40.29f, 23.45f, 43.69f},
     'y',
     1.0f},
    {"oa_dm1/oa_dm1.obj", 7460, {-704, 536, -232}, {1152, 1672, 320}, 'z', kQuake},
    {"oa_dm5/oa_dm5.obj", 40542, {9.27f, -1072, -150}, {1368, 864.27f, 384}, 'z', kQuake},
    {"ons-reborn/ons-reborn.obj", 124167, {-8192, -8192, -64}, {8192, 8192, 6464}, 'z', kQuake},
};

// SOURCES.md bounds carried into the demo's frame: Z-up becomes Y-up by (x, y, z) -> (x, z, -y).
void expectedBounds(const SharedLevel& s, glm::vec3* lo, glm::vec3* hi) {
  if (s.up == 'z') {
    *lo = glm::vec3(s.lo.x, s.lo.z, -s.hi.y) * s.scale;
    *hi = glm::vec3(s.hi.x, s.hi.z, -s.lo.y) * s.scale;
  } else {
    *lo = s.lo * s.scale;
    *hi = s.hi * s.scale;
  }
}

void checkLevel(const SharedLevel& s, const LevelLoadResult& r) {
  ASSERT_TRUE(r.ok) << r.error;
  const Level& level = *r.level;
  EXPECT_EQ(level.triangleCount(), s.triangles) << s.file;
  EXPECT_EQ(level.frame.upAxis, s.up) << s.file << ": " << level.frame.upSource;
  EXPECT_FLOAT_EQ(level.frame.scale, s.scale) << s.file << ": " << level.frame.scaleSource;
  glm::vec3 lo, hi;
  expectedBounds(s, &lo, &hi);
  // SOURCES.md rounds bounds to 2 decimals: +-0.006 file units.
  const float tol = 0.006f * s.scale + 1e-5f;
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(level.boundsMin[k], lo[k], tol) << s.file << " axis " << k;
    EXPECT_NEAR(level.boundsMax[k], hi[k], tol) << s.file << " axis " << k;
  }
  // The right way up and the right size: these are levels wider than tall, a few storeys high.
  const glm::vec3 size = level.boundsMax - level.boundsMin;
  EXPECT_LT(size.y, size.x) << s.file;
  EXPECT_LT(size.y, size.z) << s.file;
  EXPECT_GT(size.y, 3.0f) << s.file;
  EXPECT_LT(size.y, 200.0f) << s.file;
  // Every triangle is kept, degenerate ones included, and the soup is consistent.
  EXPECT_EQ(level.collisionIndices.size(), 3 * level.triangleCount());
  size_t meshTris = 0;
  for (const LevelMesh& m : level.meshes) meshTris += m.indices.size() / 3;
  EXPECT_EQ(meshTris, level.triangleCount());
}

class SharedLevels : public ::testing::TestWithParam<SharedLevel> {};

TEST_P(SharedLevels, GuessedFrameMatchesSources) {
  const SharedLevel& s = GetParam();
  const std::string path = test::sharedLevelCopy(std::string("levels/") + s.file);
  if (path.empty()) GTEST_SKIP() << s.file << " not in the shared folder";
  const LevelLoadResult r = loadLevel(path, testLoadOptions());
  checkLevel(s, r);
}

TEST_P(SharedLevels, ExplicitFrameMatchesSources) {
  const SharedLevel& s = GetParam();
  const std::string path = test::sharedLevelCopy(std::string("levels/") + s.file);
  if (path.empty()) GTEST_SKIP() << s.file << " not in the shared folder";
  const LevelLoadResult r = loadLevel(path, testLoadOptions(s.up, s.scale));
  checkLevel(s, r);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.level->frame.upSource, "options (--up)");
  EXPECT_FALSE(r.level->frame.guessed);
}

INSTANTIATE_TEST_SUITE_P(Levels, SharedLevels, ::testing::ValuesIn(kLevels),
                         [](const ::testing::TestParamInfo<SharedLevel>& p) {
                           std::string n = p.param.file;
                           n = n.substr(n.find('/') + 1);
                           for (char& c : n) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return n;
                         });

TEST(SharedLevels, QuakeLevelIsRotatedNotMirrored) {
  // A vertex (x, y, z) of the Z-up file must land at (x, z, -y) * 0.0254: a rotation about X
  // keeps the frame right-handed, so triangle winding (and facing) is preserved.
  const std::string path = test::sharedLevelCopy("levels/oa_dm1/oa_dm1.obj");
  if (path.empty()) GTEST_SKIP();
  const ObjReadResult canon = readObj(path);
  ASSERT_TRUE(canon.ok) << canon.error;
  const LevelLoadResult r = loadLevel(path, testLoadOptions());
  ASSERT_TRUE(r.ok) << r.error;
  test::Soup expected{canon.mesh.positions, canon.mesh.indices};
  for (glm::vec3& p : expected.positions) p = glm::vec3(p.x, p.z, -p.y) * kQuake;
  EXPECT_EQ(test::compareSoups(test::soupOf(*r.level), expected, 1e-4f), "");
}

TEST(SharedLevels, RoundTripGlbAgainstCanonicalObj) {
  // The canonical OBJ (assimp export -ptv, read here by the core's own OBJ reader, no Assimp)
  // and the original GLB through the loader give the same triangles. The GLB's node transforms
  // (scale 1.3708, translation (8.83, -7.50, 60.54)) must have been applied.
  const std::string glb = test::sharedLevelCopy("levels/collision-world/collision-world.glb");
  const std::string obj = test::sharedLevelCopy("levels/collision-world/collision-world.obj");
  if (glb.empty() || obj.empty()) GTEST_SKIP();
  const ObjReadResult canon = readObj(obj);
  ASSERT_TRUE(canon.ok) << canon.error;
  const LevelLoadResult r = loadLevel(glb);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(
      test::compareSoups(test::soupOf(*r.level), {canon.mesh.positions, canon.mesh.indices}, 1e-4f),
      "");
}

TEST(SharedLevels, RoundTripObjLoaderAgainstCanonicalReader) {
  // Through Assimp (no frame change) the canonical OBJ gives exactly its own triangles, the
  // zero-area ones included.
  for (const char* file : {"levels/oa_dm1/oa_dm1.obj", "levels/oa_dm5/oa_dm5.obj"}) {
    const std::string path = test::sharedLevelCopy(file);
    if (path.empty()) continue;
    const ObjReadResult canon = readObj(path);
    ASSERT_TRUE(canon.ok) << canon.error;
    const LevelLoadResult r = loadLevel(path, testLoadOptions('y', 1.0f));
    ASSERT_TRUE(r.ok) << r.error;
    EXPECT_GT(r.level->degenerateTriangles, 0u) << file;
    EXPECT_EQ(test::compareSoups(test::soupOf(*r.level), {canon.mesh.positions, canon.mesh.indices},
                                 1e-3f),
              "")
        << file;
  }
}

}  // namespace
}  // namespace ofps
