// The loader's guess of up axis and units for files that say nothing (OBJ): generated levels
// whose right answer a person sees at a glance, loaded through loadLevel as a user's would be.
// The expected frames come from what each level is (storeys, rooms, sizes), not from the code.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "level/level_loader.h"
#include "level_test_util.h"

namespace ofps {
namespace {

using test::Soup;
using test::TempDir;
using test::testLoadOptions;

constexpr float kInch = 0.0254f;

void addQuad(Soup& s, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d) {
  const auto base = static_cast<uint32_t>(s.positions.size());
  for (const glm::vec3& p : {a, b, c, d}) s.positions.push_back(p);
  for (uint32_t i : {0u, 1u, 2u, 0u, 2u, 3u}) s.indices.push_back(base + i);
}

// An axis-aligned box's six faces (a closed room, or a slab when thin).
void addBox(Soup& s, glm::vec3 lo, glm::vec3 hi) {
  const float x0 = lo.x, y0 = lo.y, z0 = lo.z, x1 = hi.x, y1 = hi.y, z1 = hi.z;
  addQuad(s, {x0, y0, z0}, {x1, y0, z0}, {x1, y1, z0}, {x0, y1, z0});  // z0
  addQuad(s, {x0, y0, z1}, {x0, y1, z1}, {x1, y1, z1}, {x1, y0, z1});  // z1
  addQuad(s, {x0, y0, z0}, {x0, y0, z1}, {x1, y0, z1}, {x1, y0, z0});  // y0
  addQuad(s, {x0, y1, z0}, {x1, y1, z0}, {x1, y1, z1}, {x0, y1, z1});  // y1
  addQuad(s, {x0, y0, z0}, {x0, y1, z0}, {x0, y1, z1}, {x0, y0, z1});  // x0
  addQuad(s, {x1, y0, z0}, {x1, y0, z1}, {x1, y1, z1}, {x1, y1, z0});  // x1
}

LevelLoadResult loadSoup(const TempDir& dir, const Soup& soup) {
  const std::string path = dir.file("level.obj");
  test::writeObj(path, soup);
  return loadLevel(path, testLoadOptions());
}

glm::vec3 size(const Level& l) {
  return l.boundsMax - l.boundsMin;
}

// A Quake map's room: 8,048 u square, 600 u (15 m) high in Z. Floor and ceiling are the
// largest faces; 8,048 m across would be absurd, 8,048 inches (204 m) is an arena.
TEST(FrameGuess, QuakeBoxRoomIsZUpInches) {
  TempDir dir;
  Soup soup;
  addBox(soup, {0, 0, 0}, {8048, 8048, 600});
  const LevelLoadResult r = loadSoup(dir, soup);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->frame.upAxis, 'z') << r.level->frame.upSource;
  EXPECT_FLOAT_EQ(r.level->frame.scale, kInch) << r.level->frame.scaleSource;
  EXPECT_TRUE(r.level->frame.guessed);
  EXPECT_NEAR(size(*r.level).y, 600 * kInch, 1e-3f);  // 15.24 m tall
}

// The shape of the map from issue #18: 8,048 u long, taller in Z (600) than deep in Y (400),
// three storeys (floors at z = 0, 200, 400 under a roof at 600) along most of its length. The
// extent alone says Y is up (Y is the shallower axis), but the floors say Z: a person sees a
// three-storey hall 204 m long, not an 8 km wall 400 m high.
TEST(FrameGuess, LongHallTallerInZThanYIsZUpInches) {
  TempDir dir;
  Soup soup;
  addBox(soup, {0, 0, 0}, {8048, 400, 600});
  addBox(soup, {0, 0, 196}, {7000, 400, 200});  // storey floors, 4 u thick slabs
  addBox(soup, {0, 0, 396}, {7000, 400, 400});
  const LevelLoadResult r = loadSoup(dir, soup);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->frame.upAxis, 'z') << r.level->frame.upSource;
  EXPECT_FLOAT_EQ(r.level->frame.scale, kInch) << r.level->frame.scaleSource;
  const glm::vec3 s = size(*r.level);
  EXPECT_NEAR(s.x, 8048 * kInch, 1e-2f);  // 204 m long
  EXPECT_NEAR(s.y, 600 * kInch, 1e-3f);   // 15 m high
}

// A room of 30 x 20 m, 4 m high in Y: metres, Y-up, as a glTF-minded exporter writes it.
TEST(FrameGuess, YUpMetreRoomStaysYUpMetres) {
  TempDir dir;
  Soup soup;
  addBox(soup, {0, 0, 0}, {30, 4, 20});
  addBox(soup, {10, 0, 8}, {12, 1, 10});  // a crate
  const LevelLoadResult r = loadSoup(dir, soup);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->frame.upAxis, 'y') << r.level->frame.upSource;
  EXPECT_FLOAT_EQ(r.level->frame.scale, 1.0f) << r.level->frame.scaleSource;
  EXPECT_NEAR(size(*r.level).y, 4.0f, 1e-4f);
}

// A closed cube: nothing says which way is up or what the units are. The loader assumes
// Y-up metres (the glTF convention) and says that it assumed, so the user knows to check.
TEST(FrameGuess, CubeIsAmbiguousAndSaysSo) {
  TempDir dir;
  Soup soup;
  addBox(soup, {0, 0, 0}, {10, 10, 10});
  const LevelLoadResult r = loadSoup(dir, soup);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->frame.upAxis, 'y');
  EXPECT_FLOAT_EQ(r.level->frame.scale, 1.0f);
  EXPECT_TRUE(r.level->frame.guessed);
  EXPECT_NE(r.level->frame.upSource.find("assumed"), std::string::npos) << r.level->frame.upSource;
  bool warned = false;
  for (const std::string& w : r.warnings) warned = warned || w.find("assumed") != std::string::npos;
  EXPECT_TRUE(warned);
}

// A bare floor (the first thing a user tries): every face points up, none along Z. The reason
// given says so in words; it printed a ratio of 1e31 before ("1599999999999999912920369579268x").
TEST(FrameGuess, FlatFloorIsYUpAndSaysWhyInWords) {
  TempDir dir;
  Soup soup;
  addQuad(soup, {-200, 0, -200}, {-200, 0, 200}, {200, 0, 200}, {200, 0, -200});
  const LevelLoadResult r = loadSoup(dir, soup);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->frame.upAxis, 'y') << r.level->frame.upSource;
  EXPECT_NE(r.level->frame.upSource.find("the surface faces along Y, none along Z"),
            std::string::npos)
      << r.level->frame.upSource;
  for (const std::string& w : r.warnings) {
    EXPECT_EQ(w.find("99999"), std::string::npos) << w;
  }
}

// Y-up and boxy like a compiled brush map, 5,000 units square and 300 high: a box-built hall
// 5 km across and 300 m high is not plausible; 5,000 inches (127 m) and 7.6 m high is.
TEST(FrameGuess, ThousandsWideBoxyYUpLevelIsInches) {
  TempDir dir;
  Soup soup;
  addBox(soup, {0, 0, 0}, {5000, 300, 5000});
  addBox(soup, {1000, 0, 1000}, {1200, 128, 1200});
  const LevelLoadResult r = loadSoup(dir, soup);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->frame.upAxis, 'y') << r.level->frame.upSource;
  EXPECT_FLOAT_EQ(r.level->frame.scale, kInch) << r.level->frame.scaleSource;
}

// Rolling Y-up terrain 4,000 units across and a few hundred high, like a racing track in
// metres (SuperTuxKart's black_forest is 4.4 km): hills, not boxes, so it stays metres.
TEST(FrameGuess, ThousandsWideTerrainStaysMetres) {
  TempDir dir;
  Soup soup;
  const int n = 40;
  const float cell = 100.0f;
  auto height = [](float x, float z) {
    return 150.0f * std::sin(x / 150.0f) * std::cos(z / 170.0f) + 150.0f;
  };
  for (int i = 0; i <= n; ++i) {
    for (int j = 0; j <= n; ++j) {
      const float x = i * cell, z = j * cell;
      soup.positions.push_back({x, height(x, z), z});
    }
  }
  for (int i = 0; i < n; ++i) {
    for (int j = 0; j < n; ++j) {
      const uint32_t a = i * (n + 1) + j, b = a + 1, c = a + (n + 1), d = c + 1;
      for (uint32_t v : {a, b, d, a, d, c}) soup.indices.push_back(v);
    }
  }
  const LevelLoadResult r = loadSoup(dir, soup);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->frame.upAxis, 'y') << r.level->frame.upSource;
  EXPECT_FLOAT_EQ(r.level->frame.scale, 1.0f) << r.level->frame.scaleSource;
}

}  // namespace
}  // namespace ofps
