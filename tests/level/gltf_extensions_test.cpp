// glTF required extensions. Hand-made quantized files with hand-computed bounds, every
// refused extension by name, damaged compressed data, and the real tool: gltfpack (installed by
// scripts/install-deps.sh) run on a copy of collision-world.glb with default settings
// (KHR_mesh_quantization), -noq, -c (EXT_meshopt_compression) and -vpn (normalized positions).
// The reference for gltfpack's output is the original file loaded through Assimp's own float
// path, which the decoder under test never touches.
#include "level/gltf_extensions.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "level/level_loader.h"
#include "level_test_util.h"
#include "support/test_paths.h"

namespace ofps {
namespace {

using nlohmann::json;
using test::TempDir;
using test::testLoadOptions;
using test::writeFile;

std::string le32(uint32_t v) {
  std::string s(4, '\0');
  for (int k = 0; k < 4; ++k) s[static_cast<size_t>(k)] = static_cast<char>((v >> (8 * k)) & 0xFF);
  return s;
}

// A GLB from a JSON document and a BIN chunk (both padded to 4 bytes here).
std::string makeGlb(std::string jsonText, std::string bin) {
  while (jsonText.size() % 4 != 0) jsonText += ' ';
  while (bin.size() % 4 != 0) bin += '\0';
  const size_t total = 12 + 8 + jsonText.size() + (bin.empty() ? 0 : 8 + bin.size());
  std::string glb = "glTF" + le32(2) + le32(static_cast<uint32_t>(total));
  glb += le32(static_cast<uint32_t>(jsonText.size())) + "JSON" + jsonText;
  if (!bin.empty()) glb += le32(static_cast<uint32_t>(bin.size())) + std::string("BIN\0", 4) + bin;
  return glb;
}

// The unit cube's corners, index = x + 2y + 4z, and its 12 triangles.
const uint16_t kCubeIndices[36] = {0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 4, 6, 0, 6, 2,
                                   1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3};

// A crate: the cube's corners stored with componentType `type` (each corner coordinate 0 -> lo,
// 1 -> hi raw integer), normalized or not, under a node with the given scale and translation.
std::string quantizedCrateGlb(int type, bool normalized, int lo, int hi, const json& scale,
                              const json& translation, const json& required) {
  const int size = (type == 5120 || type == 5121) ? 1 : 2;
  std::string bin;
  for (int i = 0; i < 36; ++i) bin.append(reinterpret_cast<const char*>(&kCubeIndices[i]), 2);
  const size_t positionsAt = bin.size();  // 72: 4-aligned
  for (int c = 0; c < 8; ++c) {
    std::string corner(8, '\0');  // stride 8: each element 4-byte aligned as the extension asks
    for (int k = 0; k < 3; ++k) {
      const int v = ((c >> k) & 1) ? hi : lo;
      std::memcpy(corner.data() + k * size, &v, static_cast<size_t>(size));  // little-endian
    }
    bin += corner;
  }
  json accessor = {{"bufferView", 1}, {"componentType", type}, {"count", 8},
                   {"type", "VEC3"},  {"min", {lo, lo, lo}},   {"max", {hi, hi, hi}}};
  if (normalized) accessor["normalized"] = true;
  json doc = {
      {"asset", {{"version", "2.0"}}},
      {"scene", 0},
      {"scenes", {{{"nodes", {0}}}}},
      {"nodes", {{{"mesh", 0}, {"name", "crate"}, {"scale", scale}, {"translation", translation}}}},
      {"meshes", {{{"primitives", {{{"attributes", {{"POSITION", 1}}}, {"indices", 0}}}}}}},
      {"accessors",
       {{{"bufferView", 0}, {"componentType", 5123}, {"count", 36}, {"type", "SCALAR"}}, accessor}},
      {"bufferViews",
       {{{"buffer", 0}, {"byteOffset", 0}, {"byteLength", 72}},
        {{"buffer", 0}, {"byteOffset", positionsAt}, {"byteLength", 64}, {"byteStride", 8}}}},
      {"buffers", {{{"byteLength", bin.size()}}}},
      {"extensionsUsed", required},
      {"extensionsRequired", required}};
  return makeGlb(doc.dump(), bin);
}

void expectBounds(const Level& l, glm::vec3 lo, glm::vec3 hi, float tol) {
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(l.boundsMin[k], lo[k], tol) << "axis " << k;
    EXPECT_NEAR(l.boundsMax[k], hi[k], tol) << "axis " << k;
  }
}

TEST(GltfExtensions, QuantizedCrateIntegerPositions) {
  // A crate of 4 x 2 x 4 m, 16-bit integer corners 0 and 1000 under a node scale of
  // (0.004, 0.002, 0.004) and translation (1, 0, -2): corners 0 -> 0 m, 1000 -> (4, 2, 4) m, so
  // bounds (1, 0, -2) .. (5, 2, 2).
  TempDir dir;
  writeFile(dir.file("crate.glb"), quantizedCrateGlb(5123, false, 0, 1000, {0.004, 0.002, 0.004},
                                                     {1, 0, -2}, {"KHR_mesh_quantization"}));
  const LevelLoadResult r = loadLevel(dir.file("crate.glb"), testLoadOptions());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->triangleCount(), 12u);
  EXPECT_EQ(r.level->degenerateTriangles, 0u) << "integer positions read as floats again";
  expectBounds(*r.level, {1, 0, -2}, {5, 2, 2}, 1e-5f);
}

TEST(GltfExtensions, QuantizedCrateNormalizedPositions) {
  // Signed 16-bit normalized: 32767 -> 1.0, and -32768 clamps to -1.0 (glTF 2.0, 3.11). Node
  // scale (2, 1, 2): bounds (-2, -1, -2) .. (2, 1, 2).
  TempDir dir;
  writeFile(dir.file("snorm16.glb"), quantizedCrateGlb(5122, true, -32768, 32767, {2, 1, 2},
                                                       {0, 0, 0}, {"KHR_mesh_quantization"}));
  LevelLoadResult r = loadLevel(dir.file("snorm16.glb"), testLoadOptions());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->triangleCount(), 12u);
  expectBounds(*r.level, {-2, -1, -2}, {2, 1, 2}, 1e-5f);
  // Unsigned 8-bit normalized: 0 -> 0, 255 -> 1; scale (3, 3, 3): bounds (0, 0, 0) .. (3, 3, 3).
  writeFile(dir.file("unorm8.glb"),
            quantizedCrateGlb(5121, true, 0, 255, {3, 3, 3}, {0, 0, 0}, {"KHR_mesh_quantization"}));
  r = loadLevel(dir.file("unorm8.glb"), testLoadOptions());
  ASSERT_TRUE(r.ok) << r.error;
  expectBounds(*r.level, {0, 0, 0}, {3, 3, 3}, 1e-5f);
}

TEST(GltfExtensions, QuantizedAccessorPastItsViewIsRefused) {
  TempDir dir;
  std::string glb =
      quantizedCrateGlb(5123, false, 0, 1000, {1, 1, 1}, {0, 0, 0}, {"KHR_mesh_quantization"});
  // 8 corners -> 9: the ninth runs 8 bytes past the 64-byte view.
  const size_t at = glb.find("\"count\":8");
  ASSERT_NE(at, std::string::npos);
  glb[at + 8] = '9';
  writeFile(dir.file("past.glb"), glb);
  const LevelLoadResult r = loadLevel(dir.file("past.glb"), testLoadOptions());
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("past.glb"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("runs past the end of bufferView 1"), std::string::npos) << r.error;
}

TEST(GltfExtensions, UnhandledRequiredExtensionsAreRefusedByName) {
  TempDir dir;
  struct Case {
    json required;
    std::vector<std::string> parts;
  };
  const Case cases[] = {
      {{"EXT_mesh_gpu_instancing"}, {"'EXT_mesh_gpu_instancing'", "-mi"}},
      {{"KHR_texture_basisu"}, {"'KHR_texture_basisu'", "-tc"}},
      {{"VENDOR_made_up"}, {"'VENDOR_made_up'", "does not support"}},
      {{"KHR_mesh_quantization", "ACME_one", "ACME_two"}, {"extensions 'ACME_one'", "'ACME_two'"}},
  };
  int n = 0;
  for (const Case& c : cases) {
    const std::string name = "ext" + std::to_string(n++) + ".glb";
    writeFile(dir.file(name),
              quantizedCrateGlb(5123, false, 0, 1000, {1, 1, 1}, {0, 0, 0}, c.required));
    const LevelLoadResult r = loadLevel(dir.file(name), testLoadOptions());
    ASSERT_FALSE(r.ok) << name << " loaded";
    EXPECT_NE(r.error.find(name), std::string::npos) << r.error;
    for (const std::string& p : c.parts) EXPECT_NE(r.error.find(p), std::string::npos) << r.error;
  }
}

// --- gltfpack -------------------------------------------------------------------------------

std::string findProgram(const char* name) {
  const char* env = std::getenv("PATH");
  std::string path = env != nullptr ? env : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= path.size()) {
    const size_t end = std::min(path.find(':', start), path.size());
    const std::string candidate = path.substr(start, end - start) + "/" + name;
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return {};
}

class Gltfpack : public ::testing::Test {
 protected:
  void SetUp() override {
    original_ = test::sharedLevelCopy("levels/collision-world/collision-world.glb");
    if (original_.empty()) GTEST_SKIP() << "no shared collision-world.glb";
    gltfpack_ = findProgram("gltfpack");
    ASSERT_FALSE(gltfpack_.empty()) << "gltfpack not found: scripts/install-deps.sh installs it";
    input_ = dir_.file("collision-world.glb");
    std::filesystem::copy_file(original_, input_);
    reference_ = loadLevel(input_, testLoadOptions());
    ASSERT_TRUE(reference_.ok) << reference_.error;
  }

  // Runs gltfpack with `flags` on the copy; returns the output path.
  std::string pack(const std::string& flags, const std::string& out) {
    const std::string cmd = "'" + gltfpack_ + "' -i '" + input_ + "' -o '" + dir_.file(out) + "' " +
                            flags + " >'" + dir_.file(out + ".log") + "' 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd << "\n"
                                           << test::readFile(dir_.file(out + ".log"));
    return dir_.file(out);
  }

  // gltfpack quantizes positions to 14 bits over the largest extent, one step for all axes.
  float positionStep() const {
    const glm::vec3 e = reference_.level->boundsMax - reference_.level->boundsMin;
    return std::max({e.x, e.y, e.z}) / 16383.0f;
  }

  void expectSameLevel(const std::string& path, float tolerance, const char* requiredExt) {
    const std::string text = test::readFile(path);
    if (requiredExt != nullptr) {
      ASSERT_NE(text.find(requiredExt), std::string::npos)
          << "gltfpack did not write " << requiredExt;
    }
    const LevelLoadResult r = loadLevel(path, testLoadOptions());
    ASSERT_TRUE(r.ok) << r.error;
    const Level& got = *r.level;
    const Level& want = *reference_.level;
    EXPECT_EQ(got.triangleCount(), want.triangleCount());
    EXPECT_EQ(got.degenerateTriangles, want.degenerateTriangles);
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(got.boundsMin[k], want.boundsMin[k], tolerance) << "axis " << k;
      EXPECT_NEAR(got.boundsMax[k], want.boundsMax[k], tolerance) << "axis " << k;
    }
    // Every triangle, not only the bounds: the same multiset within the tolerance.
    EXPECT_EQ(test::compareSoups(test::soupOf(got), test::soupOf(want), tolerance), "");
  }

  TempDir dir_;
  std::string original_, gltfpack_, input_;
  LevelLoadResult reference_;
};

TEST_F(Gltfpack, DefaultSettingsQuantized) {
  // Rounding to the nearest step: at most half a step per coordinate, plus float noise.
  expectSameLevel(pack("", "packed.glb"), 0.5f * positionStep() + 1e-4f, "KHR_mesh_quantization");
}

TEST_F(Gltfpack, NoQuantization) {
  expectSameLevel(pack("-noq", "noq.glb"), 1e-4f, nullptr);
}

TEST_F(Gltfpack, NormalizedPositions) {
  expectSameLevel(pack("-vpn", "vpn.glb"), 0.5f * positionStep() + 1e-4f, "KHR_mesh_quantization");
}

TEST_F(Gltfpack, MeshoptCompressed) {
  const std::string path = pack("-c", "compressed.glb");
  expectSameLevel(path, 0.5f * positionStep() + 1e-4f, "EXT_meshopt_compression");
  // Damage the compressed vertex stream's header byte (0xA0 in meshopt's vertex codec): the
  // decoder refuses it and so does the loader, naming the extension.
  std::string glb = test::readFile(path);
  const uint32_t jsonLength = static_cast<uint32_t>(static_cast<unsigned char>(glb[12])) |
                              (static_cast<uint32_t>(static_cast<unsigned char>(glb[13])) << 8);
  const json doc = json::parse(glb.substr(20, jsonLength));
  size_t binStart = 20 + jsonLength;
  binStart = (binStart + 3) & ~size_t{3};
  binStart += 8;
  bool damaged = false;
  for (const json& v : doc["bufferViews"]) {
    if (!v.contains("extensions")) continue;
    const json& mo = v["extensions"]["EXT_meshopt_compression"];
    if (mo["mode"] != "ATTRIBUTES") continue;
    const size_t at = binStart + mo["byteOffset"].get<size_t>();
    ASSERT_EQ(static_cast<unsigned char>(glb[at]), 0xA0u);
    glb[at] = '\x5A';
    damaged = true;
    break;
  }
  ASSERT_TRUE(damaged);
  writeFile(dir_.file("damaged.glb"), glb);
  const LevelLoadResult r = loadLevel(dir_.file("damaged.glb"), testLoadOptions());
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("damaged.glb"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("EXT_meshopt_compression data is damaged"), std::string::npos) << r.error;
}

TEST_F(Gltfpack, InstancingIsRefusedWithItsFlag) {
  // -mi writes EXT_mesh_gpu_instancing only when a mesh has several instances; collision-world
  // has none, so the extension is added by hand to gltfpack's output.
  const std::string glb = test::readFile(pack("", "inst.glb"));
  uint32_t jsonLength = 0, binLength = 0;
  std::memcpy(&jsonLength, glb.data() + 12, 4);
  json doc = json::parse(glb.substr(20, jsonLength));
  std::memcpy(&binLength, glb.data() + 20 + jsonLength, 4);
  doc["extensionsRequired"].push_back("EXT_mesh_gpu_instancing");
  writeFile(dir_.file("instanced.glb"),
            makeGlb(doc.dump(), glb.substr(28 + jsonLength, binLength)));
  const LevelLoadResult r = loadLevel(dir_.file("instanced.glb"), testLoadOptions());
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("instanced.glb"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("'EXT_mesh_gpu_instancing'"), std::string::npos) << r.error;
  EXPECT_NE(r.error.find("-mi"), std::string::npos) << r.error;
}

}  // namespace
}  // namespace ofps
