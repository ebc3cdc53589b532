// Mutation smoke tests: damaged copies of real files (bytes flipped, truncated, numbers in the
// glTF JSON replaced) must each load to a valid level or fail with a message naming the file.
// Never a crash, a hang, NaN in the output or an empty level. Fixed seeds: deterministic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <iterator>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include "level/level_loader.h"
#include "level_test_util.h"
#include "support/test_paths.h"

namespace ofps {
namespace {

using test::testLoadOptions;

void expectSane(const LevelLoadResult& r, const std::string& name, uint32_t seed) {
  if (!r.ok) {
    EXPECT_NE(r.error.find(name), std::string::npos) << "seed " << seed << ": " << r.error;
    return;
  }
  const Level& l = *r.level;
  EXPECT_GT(l.triangleCount(), 0u) << "seed " << seed;
  EXPECT_FALSE(l.materials.empty()) << "seed " << seed;
  for (const glm::vec3& p : l.collisionPositions) {
    ASSERT_TRUE(std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) << "seed " << seed;
  }
  for (uint32_t i : l.collisionIndices)
    ASSERT_LT(i, l.collisionPositions.size()) << "seed " << seed;
  for (const LevelMesh& m : l.meshes) {
    ASSERT_EQ(m.normals.size(), m.positions.size());
    ASSERT_EQ(m.uvs.size(), m.positions.size());
    ASSERT_LT(m.material, l.materials.size());
  }
}

TEST(Fuzz, MutatedGlbBytes) {
  const std::string glb = test::readFile(test::sourcePath("assets/arena.glb"));
  ASSERT_FALSE(glb.empty());
  test::TempDir dir;
  const std::string path = dir.file("mutated.glb");
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    std::string b = glb;
    const int flips = 1 << (rng() % 7);
    for (int k = 0; k < flips; ++k) b[rng() % b.size()] = static_cast<char>(rng() & 0xFF);
    if (rng() % 4 == 0) b.resize(rng() % b.size());
    test::writeFile(path, b);
    expectSane(loadLevel(path, testLoadOptions()), "mutated.glb", seed);
  }
}

TEST(Fuzz, MutatedGltfJsonNumbers) {
  // The GLB's JSON chunk as a .gltf with the buffer beside it; then integers in the JSON
  // (counts, offsets, indices) replaced by hostile values.
  const std::string glb = test::readFile(test::sourcePath("assets/arena.glb"));
  auto u32 = [&glb](size_t at) {
    uint32_t v;
    std::memcpy(&v, glb.data() + at, 4);
    return v;
  };
  const uint32_t jsonLength = u32(12);
  std::string json = glb.substr(20, jsonLength);
  const uint32_t binLength = u32(20 + jsonLength);
  test::TempDir dir;
  test::writeFile(dir.file("a.bin"), glb.substr(28 + jsonLength, binLength));
  const std::string buffers = "\"buffers\":[{\"byteLength\":" + std::to_string(binLength) + "}]";
  const size_t at = json.find(buffers);
  ASSERT_NE(at, std::string::npos);
  json.replace(
      at, buffers.size(),
      "\"buffers\":[{\"byteLength\":" + std::to_string(binLength) + ",\"uri\":\"a.bin\"}]");
  const std::string path = dir.file("mutated.gltf");
  test::writeFile(path, json);
  ASSERT_TRUE(loadLevel(path, testLoadOptions()).ok) << "the unmutated .gltf must load";

  const std::regex number("[0-9]+");
  const char* hostile[] = {"0", "1", "3", "255", "65535", "4294967295", "999999999", "-1"};
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    std::mt19937 rng(seed);
    std::string text = json;
    const int edits = 1 << (rng() % 3);
    for (int k = 0; k < edits; ++k) {
      std::vector<std::pair<size_t, size_t>> spans;
      for (auto it = std::sregex_iterator(text.begin(), text.end(), number);
           it != std::sregex_iterator(); ++it) {
        spans.emplace_back(static_cast<size_t>(it->position()), static_cast<size_t>(it->length()));
      }
      const auto [pos, len] = spans[rng() % spans.size()];
      text.replace(pos, len, hostile[rng() % std::size(hostile)]);
    }
    test::writeFile(path, text);
    expectSane(loadLevel(path, testLoadOptions()), "mutated.gltf", seed);
  }
}

TEST(Fuzz, MutatedObjText) {
  const std::string obj =
      test::readFile(test::sharedPath("levels/collision-world/collision-world.obj"));
  if (obj.empty()) GTEST_SKIP();
  test::TempDir dir;
  const std::string path = dir.file("mutated.obj");
  const char pool[] = "0123456789 -.eEnaif/\nvf#";
  for (uint32_t seed = 1; seed <= 30; ++seed) {
    std::mt19937 rng(seed);
    std::string b = obj;
    const int flips = 1 << (rng() % 8);
    for (int k = 0; k < flips; ++k) b[rng() % b.size()] = pool[rng() % (sizeof pool - 1)];
    test::writeFile(path, b);
    LevelLoadOptions o = testLoadOptions();
    o.upAxis = 'y';
    expectSane(loadLevel(path, o), "mutated.obj", seed);
  }
}

}  // namespace
}  // namespace ofps
