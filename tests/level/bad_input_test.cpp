// Bad input: each case ends in one clear error naming the file (and where, when known), or in a
// warning that says what was dropped and how much. Never a crash, a hang or a silent empty level.
// Every bad file is made here, in a temporary folder.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>

#include "level/level_loader.h"
#include "level_test_util.h"
#include "support/test_paths.h"

namespace ofps {
namespace {

using test::TempDir;
using test::testLoadOptions;
using test::writeFile;

// Loads a file that must fail; checks the message names the file and contains `what`. Y-up: no
// frame guess among the warnings.
void expectError(const std::string& path, const std::string& what,
                 const LevelLoadOptions& o = testLoadOptions('y')) {
  const LevelLoadResult r = loadLevel(path, o);
  ASSERT_FALSE(r.ok) << path << " loaded; it should not";
  EXPECT_NE(r.error.find(std::filesystem::path(path).filename().string()), std::string::npos)
      << "error does not name the file: " << r.error;
  EXPECT_NE(r.error.find(what), std::string::npos) << "expected '" << what << "' in: " << r.error;
}

// Loads a file that must succeed with a warning containing every one of `parts`.
LevelLoadResult expectWarning(const std::string& path, std::initializer_list<const char*> parts) {
  LevelLoadResult r = loadLevel(path, testLoadOptions('y'));
  EXPECT_TRUE(r.ok) << r.error;
  bool found = false;
  for (const std::string& w : r.warnings) {
    bool all = true;
    for (const char* p : parts) all = all && w.find(p) != std::string::npos;
    found = found || all;
  }
  EXPECT_TRUE(found) << "no warning with the expected parts; first: "
                     << (r.warnings.empty() ? "(none)" : r.warnings.front());
  return r;
}

TEST(BadInput, MissingPath) {
  TempDir dir;
  expectError(dir.file("no_such_level.glb"), "not found");
}

TEST(BadInput, EmptyPath) {
  const LevelLoadResult r = loadLevel("", testLoadOptions('y'));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("empty path"), std::string::npos) << r.error;
}

TEST(BadInput, Directory) {
  TempDir dir;
  std::filesystem::create_directory(dir.file("level.glb"));
  expectError(dir.file("level.glb"), "directory");
}

TEST(BadInput, EmptyFile) {
  TempDir dir;
  for (const char* name : {"empty.obj", "empty.glb", "empty.fbx"}) {
    writeFile(dir.file(name), "");
    expectError(dir.file(name), "empty");
  }
}

TEST(BadInput, TruncatedGlb) {
  TempDir dir;
  const std::string glb = test::readFile(test::sourcePath("assets/arena.glb"));
  ASSERT_GT(glb.size(), 2000u);
  writeFile(dir.file("cut.glb"), glb.substr(0, 1000));
  expectError(dir.file("cut.glb"), "truncated");
  writeFile(dir.file("cut8.glb"), glb.substr(0, 8));
  expectError(dir.file("cut8.glb"), "truncated");
  // Header intact but cut inside the JSON chunk: the header length is fixed up to match.
  std::string cutJson = glb.substr(0, 200);
  const uint32_t len = 200;
  std::memcpy(cutJson.data() + 8, &len, 4);
  writeFile(dir.file("cutjson.glb"), cutJson);
  expectError(dir.file("cutjson.glb"), "JSON chunk");
}

TEST(BadInput, CorruptGlbHeaderAndBody) {
  TempDir dir;
  const std::string glb = test::readFile(test::sourcePath("assets/arena.glb"));
  std::string magic = glb;
  magic[0] = 'X';
  writeFile(dir.file("magic.glb"), magic);
  expectError(dir.file("magic.glb"), "not a GLB");
  std::string version = glb;
  version[4] = 9;
  writeFile(dir.file("version.glb"), version);
  expectError(dir.file("version.glb"), "version 9");
  // Garbage over the JSON: Assimp's own parser must reject it.
  std::string body = glb;
  for (size_t i = 20; i < 400; ++i) body[i] = static_cast<char>('#' + (i % 7));
  writeFile(dir.file("body.glb"), body);
  expectError(dir.file("body.glb"), "Assimp");
}

TEST(BadInput, GltfWithMissingBuffer) {
  TempDir dir;
  writeFile(
      dir.file("nobin.gltf"),
      R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],)"
      R"("meshes":[{"primitives":[{"attributes":{"POSITION":0}}]}],)"
      R"("accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,1,0]}],)"
      R"("bufferViews":[{"buffer":0,"byteLength":36}],"buffers":[{"byteLength":36,"uri":"geometry_missing.bin"}]})");
  expectError(dir.file("nobin.gltf"), "Assimp");
}

TEST(BadInput, NanInfAndHugeCoordinatesAreDropped) {
  TempDir dir;
  writeFile(dir.file("nan.obj"), "v 0 0 0\nv 1 0 0\nv 0 nan 1\nv 0 0 -1\nf 1 2 3\nf 1 2 4\n");
  LevelLoadResult r =
      expectWarning(dir.file("nan.obj"), {"nan.obj", "dropped 1 triangle", "vertex 2"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.level->triangleCount(), 1u);
  for (int k = 0; k < 3; ++k) {
    EXPECT_TRUE(std::isfinite(r.level->boundsMin[k]) && std::isfinite(r.level->boundsMax[k]));
  }
  writeFile(dir.file("huge.obj"),
            "v 0 0 0\nv 1 0 0\nv 0 1e30 1\nv 0 0 -1\nf 1 2 3\nf 1 2 4\nf 2 3 4\n");
  r = expectWarning(dir.file("huge.obj"), {"huge.obj", "dropped 2 triangles", "1e+30"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.level->triangleCount(), 1u);
  EXPECT_LE(r.level->boundsMax.y, 1.0f);
  // Only bad triangles: an error, not an empty level.
  writeFile(dir.file("inf.obj"), "v 0 0 0\nv 1 0 0\nv 0 inf 1\nf 1 2 3\n");
  expectError(dir.file("inf.obj"), "no usable triangles");
}

TEST(BadInput, HugeAfterScaling) {
  // 1e6 units is fine in metres, but not at --scale 100 (1e8 m).
  TempDir dir;
  writeFile(dir.file("far.obj"), "v 0 0 0\nv 1 0 0\nv 0 0 -1\nv 1e6 0 0\nf 1 2 3\nf 1 2 4\n");
  LevelLoadOptions o = testLoadOptions('y');
  EXPECT_EQ(loadLevel(dir.file("far.obj"), o).level->triangleCount(), 2u);
  o.scale = 100.0f;
  const LevelLoadResult r = loadLevel(dir.file("far.obj"), o);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.level->triangleCount(), 1u);
}

TEST(BadInput, OutOfRangeIndices) {
  TempDir dir;
  writeFile(dir.file("oor.obj"), "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 3\nf 1 2 7\n");
  expectError(dir.file("oor.obj"), "out of range");
  writeFile(dir.file("oorneg.obj"), "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 -9\n");
  expectError(dir.file("oorneg.obj"), "out of range");
  // glTF index past the vertex count: Assimp's validation names the mesh and index.
  writeFile(
      dir.file("oor.gltf"),
      R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[{"mesh":0}],)"
      R"("meshes":[{"primitives":[{"attributes":{"POSITION":0},"indices":1}]}],)"
      R"("accessors":[{"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,0],"max":[1,0,1]},)"
      R"({"bufferView":1,"componentType":5125,"count":3,"type":"SCALAR"}],)"
      R"("bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":12}],)"
      R"("buffers":[{"byteLength":48,"uri":"data:application/octet-stream;base64,)"
      // positions (0,0,0) (1,0,0) (0,0,1); indices 0 1 9
      R"(AAAAAAAAAAAAAAAAAACAPwAAAAAAAAAAAAAAAAAAAAAAAIA/AAAAAAEAAAAJAAAA"}]})");
  const LevelLoadResult r = loadLevel(dir.file("oor.gltf"), testLoadOptions('y'));
  ASSERT_FALSE(r.ok);
  EXPECT_NE(r.error.find("oor.gltf"), std::string::npos) << r.error;
}

TEST(BadInput, ObjFaceCutShortSaysTruncated) {
  // The last 'f' line of a cut file keeps one or two indices; Assimp's own message is about its
  // mesh's primitive flags, so the loader names what it means for the file.
  TempDir dir;
  const std::string quad = "v 0 0 0\nv 1 0 0\nv 0 0 1\nv 1 0 1\nf 1 2 3\n";
  writeFile(dir.file("cut1.obj"), quad + "f 4");
  expectError(dir.file("cut1.obj"), "a face has fewer than three vertices");
  expectError(dir.file("cut1.obj"), "truncated?");
  writeFile(dir.file("cut2.obj"), quad + "f 2 4\n");
  expectError(dir.file("cut2.obj"), "a face has fewer than three vertices");
}

TEST(BadInput, OnlyPointsAndLines) {
  TempDir dir;
  writeFile(dir.file("lines.obj"), "v 0 0 0\nv 1 0 0\nv 0 0 1\nl 1 2\nl 2 3\np 1\n");
  expectError(dir.file("lines.obj"), "no triangles in the file (only 1 point and 2 lines)");
}

TEST(BadInput, PointsAndLinesBesideTrianglesAreCountedAndDropped) {
  TempDir dir;
  writeFile(dir.file("mixed.obj"),
            "v 0 0 0\nv 1 0 0\nv 0 0 1\nl 1 2\nl 2 3\nl 3 1\np 1\nf 1 2 3\n");
  const LevelLoadResult r =
      expectWarning(dir.file("mixed.obj"), {"mixed.obj", "dropped 1 point and 3 lines"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.level->triangleCount(), 1u);
}

TEST(BadInput, NoTriangles) {
  TempDir dir;
  writeFile(dir.file("verts.obj"), "v 0 0 0\nv 1 0 0\nv 0 0 1\n");
  expectError(dir.file("verts.obj"), "no triangles");
  writeFile(dir.file("comment.obj"), "# nothing here\n");
  expectError(dir.file("comment.obj"), "no triangles");
}

TEST(BadInput, OnlyDegenerateTriangles) {
  TempDir dir;
  writeFile(dir.file("flat.obj"), "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\nf 1 1 1\nf 2 3 2\n");
  expectError(dir.file("flat.obj"), "all 3 triangles are degenerate");
}

TEST(BadInput, SomeDegenerateTrianglesAreKeptAndCounted) {
  TempDir dir;
  writeFile(dir.file("some.obj"), "v 0 0 0\nv 1 0 0\nv 2 0 0\nv 0 0 1\nf 1 2 3\nf 1 2 4\n");
  const LevelLoadResult r =
      expectWarning(dir.file("some.obj"), {"some.obj", "1 triangle has zero area"});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.level->triangleCount(), 2u);  // kept: the octree counts them
  EXPECT_EQ(r.level->degenerateTriangles, 1u);
}

TEST(BadInput, Quake3Pk3AndBspEndInACleanError) {
  // Assimp 5.2.5's Quake 3 importer crashes on a damaged map even with validation on; the
  // loader must refuse these before Assimp runs.
  TempDir dir;
  const std::string bogusBsp =
      std::string("IBSP") + std::string("\x2e\x00\x00\x00", 4) + std::string(200, '\x7f');
  writeFile(dir.file("maps.pk3"), test::makeZip({{"maps/bogus.bsp", bogusBsp}}));
  expectError(dir.file("maps.pk3"), "Quake 3");
  writeFile(dir.file("bogus.bsp"), bogusBsp);
  expectError(dir.file("bogus.bsp"), "Quake 3");
  // Uppercase extension too.
  writeFile(dir.file("MAPS.PK3"), test::makeZip({{"maps/bogus.bsp", bogusBsp}}));
  expectError(dir.file("MAPS.PK3"), "Quake 3");
}

TEST(BadInput, UnknownFormatAndGarbage) {
  TempDir dir;
  std::string garbage;
  for (int i = 0; i < 4096; ++i) garbage.push_back(static_cast<char>((i * 7919 + 13) & 0xFF));
  for (const char* name : {"garbage.xyz", "garbage.fbx", "garbage.dae", "garbage.3ds",
                           "garbage.stl", "garbage.ply", "garbage.gltf", "garbage.obj"}) {
    writeFile(dir.file(name), garbage);
    const LevelLoadResult r = loadLevel(dir.file(name), testLoadOptions('y'));
    EXPECT_FALSE(r.ok && r.level->triangleCount() == 0) << name << ": silent empty level";
    if (!r.ok) {
      EXPECT_NE(r.error.find(name), std::string::npos) << r.error;
    }
  }
}

TEST(BadInput, InvalidOptions) {
  const std::string arena = test::sourcePath("assets/arena.glb");
  LevelLoadOptions o = testLoadOptions('y');
  o.upAxis = 'x';
  expectError(arena, "invalid up axis", o);
  o.upAxis = 'y';
  for (float bad : {0.0f, -1.0f, NAN, INFINITY}) {
    o.scale = bad;
    expectError(arena, "invalid scale", o);
  }
}

}  // namespace
}  // namespace ofps
