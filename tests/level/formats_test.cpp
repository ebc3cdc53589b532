// Formats and conventions: glTF with embedded and external buffers and textures, node
// transforms (hierarchy, instancing, mirroring), spawn nodes, OBJ + MTL, Collada and FBX frames,
// naming conventions for collision layers, progress reports.
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <glm/geometric.hpp>
#include <string>
#include <vector>

#include "level/level_loader.h"
#include "level_test_util.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {
namespace {

using test::TempDir;
using test::testLoadOptions;
using test::writeFile;

std::string base64(const std::string& in) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v =
        (uint32_t(uint8_t(in[i])) << 16) | (uint32_t(uint8_t(in[i + 1])) << 8) | uint8_t(in[i + 2]);
    out += {t[v >> 18], t[(v >> 12) & 63], t[(v >> 6) & 63], t[v & 63]};
  }
  if (i + 1 == in.size()) {
    const uint32_t v = uint32_t(uint8_t(in[i])) << 16;
    out += {t[v >> 18], t[(v >> 12) & 63], '=', '='};
  } else if (i + 2 == in.size()) {
    const uint32_t v = (uint32_t(uint8_t(in[i])) << 16) | (uint32_t(uint8_t(in[i + 1])) << 8);
    out += {t[v >> 18], t[(v >> 12) & 63], t[(v >> 6) & 63], '='};
  }
  return out;
}

// One triangle facing +Y: (0,0,0) (1,0,0) (0,0,-1), normals +Y, UVs; 3 uint32 indices.
std::string triangleBuffer() {
  const float pos[9] = {0, 0, 0, 1, 0, 0, 0, 0, -1};
  const float nrm[9] = {0, 1, 0, 0, 1, 0, 0, 1, 0};
  const float uv[6] = {0, 0, 1, 0, 0, 1};
  const uint32_t idx[3] = {0, 1, 2};
  std::string b;
  b.append(reinterpret_cast<const char*>(pos), sizeof pos);
  b.append(reinterpret_cast<const char*>(nrm), sizeof nrm);
  b.append(reinterpret_cast<const char*>(uv), sizeof uv);
  b.append(reinterpret_cast<const char*>(idx), sizeof idx);
  return b;  // 36 + 36 + 24 + 12 = 108 bytes
}

// glTF JSON with one triangle mesh. `nodes` is the JSON array of nodes; the scene holds
// `sceneNodes`. bufferUri: "data:..." or a file name. imageUri: "" for an untextured material.
std::string gltfJson(const std::string& nodes, const std::string& sceneNodes,
                     const std::string& bufferUri, const std::string& imageUri = "") {
  std::string material =
      R"({"name":"mat","pbrMetallicRoughness":{"baseColorFactor":[0.2,0.4,0.6,1.0])";
  material += imageUri.empty() ? "}}" : R"(,"baseColorTexture":{"index":0}}})";
  std::string j =
      R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":)" + sceneNodes + "}],";
  j += R"("nodes":)" + nodes + ",";
  j +=
      R"("meshes":[{"name":"tri","primitives":[{"attributes":{"POSITION":0,"NORMAL":1,"TEXCOORD_0":2},"indices":3,"material":0}]}],)";
  j += R"("materials":[)" + material + "],";
  if (!imageUri.empty()) {
    j += R"("images":[{"uri":")" + imageUri + R"("}],"textures":[{"source":0}],)";
  }
  j +=
      R"("accessors":[)"
      R"({"bufferView":0,"componentType":5126,"count":3,"type":"VEC3","min":[0,0,-1],"max":[1,0,0]},)"
      R"({"bufferView":1,"componentType":5126,"count":3,"type":"VEC3"},)"
      R"({"bufferView":2,"componentType":5126,"count":3,"type":"VEC2"},)"
      R"({"bufferView":3,"componentType":5125,"count":3,"type":"SCALAR"}],)";
  j +=
      R"("bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":36},{"buffer":0,"byteOffset":36,"byteLength":36},)"
      R"({"buffer":0,"byteOffset":72,"byteLength":24},{"buffer":0,"byteOffset":96,"byteLength":12}],)";
  j += R"("buffers":[{"byteLength":108,"uri":")" + bufferUri + R"("}]})";
  return j;
}

std::string dataUri() {
  return "data:application/octet-stream;base64," + base64(triangleBuffer());
}

glm::vec3 faceNormal(const LevelMesh& m) {
  return glm::normalize(glm::cross(m.positions[m.indices[1]] - m.positions[m.indices[0]],
                                   m.positions[m.indices[2]] - m.positions[m.indices[0]]));
}

TEST(Gltf, EmbeddedBufferAndInstancing) {
  TempDir dir;
  const std::string path = dir.file("inst.gltf");
  writeFile(path, gltfJson(R"([{"name":"a","mesh":0},{"name":"b","mesh":0,"translation":[5,0,0]}])",
                           "[0,1]", dataUri()));
  const LevelLoadResult r = loadLevel(path, testLoadOptions());
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.level->meshes.size(), 2u);
  EXPECT_EQ(r.level->triangleCount(), 2u);
  EXPECT_EQ(r.level->meshes[0].name, "a/tri");
  EXPECT_EQ(r.level->meshes[1].name, "b/tri");
  EXPECT_FLOAT_EQ(r.level->meshes[1].positions[1].x, 6.0f);
  EXPECT_FLOAT_EQ(r.level->boundsMax.x, 6.0f);
  const LevelMaterial& mat = r.level->materials[r.level->meshes[0].material];
  EXPECT_NEAR(mat.baseColor.y, 0.4f, 1e-6f);
  EXPECT_EQ(mat.texture, -1);
}

TEST(Gltf, ExternalBufferHierarchyAndMirror) {
  TempDir dir;
  writeFile(dir.file("tri.bin"), triangleBuffer());
  const std::string path = dir.file("tree.gltf");
  // parent: translate (0,10,0); child: scale 2; mirrored: scale (-1,1,1).
  writeFile(path, gltfJson(R"([{"name":"parent","translation":[0,10,0],"children":[1]},)"
                           R"({"name":"child","mesh":0,"scale":[2,2,2]},)"
                           R"({"name":"mirrored","mesh":0,"scale":[-1,1,1]}])",
                           "[0,2]", "tri.bin"));
  const LevelLoadResult r = loadLevel(path, testLoadOptions());
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.level->meshes.size(), 2u);
  const LevelMesh& child = r.level->meshes[0];
  EXPECT_FLOAT_EQ(child.positions[1].x, 2.0f);
  EXPECT_FLOAT_EQ(child.positions[1].y, 10.0f);
  const LevelMesh& mirrored = r.level->meshes[1];
  EXPECT_FLOAT_EQ(mirrored.positions[1].x, -1.0f);
  // A mirror flips the winding back, so the triangle still faces its normal (+Y).
  EXPECT_GT(glm::dot(faceNormal(mirrored), mirrored.normals[0]), 0.99f);
  EXPECT_GT(faceNormal(mirrored).y, 0.99f);
  EXPECT_GT(faceNormal(child).y, 0.99f);
}

TEST(Gltf, SpawnNodePositionAndYaw) {
  TempDir dir;
  const std::string path = dir.file("spawn.gltf");
  const float s = std::sqrt(0.5f);
  // PlayerStart rotated +90 degrees about Y: looks along -X (yaw +90 degrees).
  writeFile(
      path,
      gltfJson(
          R"([{"name":"floor","mesh":0},{"name":"PlayerStart","translation":[1,2,3],"rotation":[0,)" +
              std::to_string(s) + ",0," + std::to_string(s) + "]}]",
          "[0,1]", dataUri()));
  const LevelLoadResult r = loadLevel(path, testLoadOptions());
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_TRUE(r.level->spawn.has_value());
  EXPECT_EQ(r.level->spawnSource, "PlayerStart");
  EXPECT_NEAR(glm::distance(*r.level->spawn, glm::vec3(1, 2, 3)), 0.0f, 1e-6f);
  EXPECT_NEAR(r.level->spawnYaw, 1.5707963f, 1e-5f);
}

TEST(Gltf, ExternalTextureBesideTheFile) {
  TempDir dir;
  test::writePng(dir.file("red.png"), 4, 2, 255, 0, 0);
  const std::string path = dir.file("tex.gltf");
  writeFile(path, gltfJson(R"([{"name":"floor","mesh":0}])", "[0]", dataUri(), "red.png"));
  const LevelLoadResult r = loadLevel(path, testLoadOptions());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.warnings.empty());
  const LevelMaterial& mat = r.level->materials[r.level->meshes[0].material];
  ASSERT_GE(mat.texture, 0);
  const LevelTexture& t = r.level->textures[static_cast<size_t>(mat.texture)];
  EXPECT_FALSE(t.isFallbackChecker);
  EXPECT_EQ(t.width, 4);
  EXPECT_EQ(t.height, 2);
  EXPECT_EQ(t.rgba[0], 255);
  EXPECT_EQ(t.rgba[1], 0);
}

TEST(Gltf, MissingTextureFallsBackToCheckerWithWarning) {
  TempDir dir;
  const std::string path = dir.file("notex.gltf");
  writeFile(path,
            gltfJson(R"([{"name":"floor","mesh":0}])", "[0]", dataUri(), "missing_albedo.png"));
  const LevelLoadResult r = loadLevel(path, testLoadOptions());
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("missing_albedo.png"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("notex.gltf"), std::string::npos) << r.warnings[0];
  const LevelMaterial& mat = r.level->materials[r.level->meshes[0].material];
  ASSERT_GE(mat.texture, 0);
  EXPECT_TRUE(r.level->textures[static_cast<size_t>(mat.texture)].isFallbackChecker);
}

TEST(Gltf, ProgressIsReportedInOrderAndEnds) {
  TempDir dir;
  const std::string path = dir.file("p.gltf");
  writeFile(path, gltfJson(R"([{"name":"floor","mesh":0}])", "[0]", dataUri()));
  std::vector<float> seen;
  LevelLoadOptions o = testLoadOptions();
  o.onProgress = [&seen](float p, const char* stage) {
    EXPECT_NE(stage, nullptr);
    seen.push_back(p);
  };
  ASSERT_TRUE(loadLevel(path, o).ok);
  ASSERT_GE(seen.size(), 3u);
  EXPECT_FLOAT_EQ(seen.front(), 0.0f);
  EXPECT_FLOAT_EQ(seen.back(), 1.0f);
  for (size_t i = 1; i < seen.size(); ++i) EXPECT_GE(seen[i], seen[i - 1]) << i;
}

TEST(Obj, MtlColourTextureAndNamingConventions) {
  TempDir dir;
  test::writePng(dir.file("green.png"), 2, 2, 0, 255, 0);
  writeFile(dir.file("room.mtl"),
            "newmtl painted\nKd 0.2 0.4 0.6\nmap_Kd green.png\n"
            "newmtl glass_nocollide\nKd 0.9 0.9 1.0\n"
            "newmtl plain\nKd 1 1 1\n");
  writeFile(dir.file("room.obj"),
            "mtllib room.mtl\n"
            "v 0 0 0\nv 1 0 0\nv 1 0 -1\nv 0 0 -1\n"
            "o floor\nusemtl painted\nf 1 2 3\nf 1 3 4\n"
            "o window\nusemtl glass_nocollide\nf 1 2 3\n"
            "o wall-colonly\nusemtl plain\nf 1 2 3\n"
            "o UCX_crate\nusemtl plain\nf 1 2 3\n");
  LevelLoadOptions o = testLoadOptions();
  o.upAxis = 'y';
  const LevelLoadResult r = loadLevel(dir.file("room.obj"), o);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.warnings.empty()) << r.warnings.front();
  ASSERT_EQ(r.level->meshes.size(), 4u);
  const LevelMesh& floor = r.level->meshes[0];
  const LevelMaterial& painted = r.level->materials[floor.material];
  EXPECT_EQ(painted.name, "painted");
  EXPECT_NEAR(painted.baseColor.z, 0.6f, 1e-6f);
  ASSERT_GE(painted.texture, 0);
  EXPECT_EQ(r.level->textures[static_cast<size_t>(painted.texture)].rgba[1], 255);
  EXPECT_EQ(floor.layers, kLayerSolid);
  EXPECT_TRUE(floor.visible);
  EXPECT_EQ(r.level->meshes[1].layers, 0u);  // material name carries nocollide
  EXPECT_TRUE(r.level->meshes[1].visible);
  EXPECT_EQ(r.level->meshes[2].layers, kLayerSolid);  // -colonly: collides, not drawn
  EXPECT_FALSE(r.level->meshes[2].visible);
  EXPECT_FALSE(r.level->meshes[3].visible);  // UCX_
}

TEST(Obj, MissingMtlTextureNamesTheFile) {
  TempDir dir;
  writeFile(dir.file("m.mtl"), "newmtl stone\nKd 1 1 1\nmap_Kd textures/stone_diffuse.tga\n");
  writeFile(dir.file("m.obj"), "mtllib m.mtl\nv 0 0 0\nv 1 0 0\nv 0 0 -1\nusemtl stone\nf 1 2 3\n");
  LevelLoadOptions o = testLoadOptions();
  o.upAxis = 'y';
  const LevelLoadResult r = loadLevel(dir.file("m.obj"), o);
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("stone_diffuse.tga"), std::string::npos) << r.warnings[0];
  EXPECT_TRUE(r.level->textures.at(0).isFallbackChecker);
}

TEST(Collada, UpAxisAndUnitFromTheFile) {
  TempDir dir;
  const std::string path = dir.file("z.dae");
  writeFile(path, R"(<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit name="centimeter" meter="0.01"/><up_axis>Z_UP</up_axis></asset>
  <library_geometries><geometry id="tri" name="tri"><mesh>
    <source id="p"><float_array id="pa" count="9">0 0 0 100 0 0 0 100 0</float_array>
      <technique_common><accessor source="#pa" count="3" stride="3">
        <param name="X" type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
      </accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles count="1"><input semantic="VERTEX" source="#v" offset="0"/><p>0 1 2</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="S" name="S">
    <node id="floor" name="floor"><instance_geometry url="#tri"/></node>
  </visual_scene></library_visual_scenes>
  <scene><instance_visual_scene url="#S"/></scene>
</COLLADA>
)");
  const LevelLoadResult r = loadLevel(path, testLoadOptions());
  ASSERT_TRUE(r.ok) << r.error;
  const LevelMesh& m = r.level->meshes.at(0);
  // Z-up centimetres: (100, 0, 0) -> (1, 0, 0) m; (0, 100, 0) -> (0, 0, -1) m.
  EXPECT_NEAR(glm::distance(m.positions[1], glm::vec3(1, 0, 0)), 0.0f, 1e-6f);
  EXPECT_NEAR(glm::distance(m.positions[2], glm::vec3(0, 0, -1)), 0.0f, 1e-6f);
  EXPECT_FALSE(r.level->frame.guessed);
}

TEST(Fbx, UpAxisAndUnitScaleFromMetadata) {
  TempDir dir;
  const std::string path = dir.file("inches.fbx");
  // ASCII FBX: Z up, 1 unit = 2.54 cm.
  writeFile(path,
            "; FBX 7.4.0 project file\n"
            "FBXHeaderExtension:  {\n\tFBXHeaderVersion: 1003\n\tFBXVersion: 7400\n}\n"
            "GlobalSettings:  {\n\tVersion: 1000\n\tProperties70:  {\n"
            "\t\tP: \"UpAxis\", \"int\", \"Integer\", \"\",2\n"
            "\t\tP: \"UpAxisSign\", \"int\", \"Integer\", \"\",1\n"
            "\t\tP: \"FrontAxis\", \"int\", \"Integer\", \"\",1\n"
            "\t\tP: \"FrontAxisSign\", \"int\", \"Integer\", \"\",-1\n"
            "\t\tP: \"CoordAxis\", \"int\", \"Integer\", \"\",0\n"
            "\t\tP: \"CoordAxisSign\", \"int\", \"Integer\", \"\",1\n"
            "\t\tP: \"UnitScaleFactor\", \"double\", \"Number\", \"\",2.54\n\t}\n}\n"
            "Objects:  {\n\tGeometry: 1000, \"Geometry::tri\", \"Mesh\" {\n"
            "\t\tVertices: *9 {\n\t\t\ta: 0,0,0,100,0,0,0,100,0\n\t\t}\n"
            "\t\tPolygonVertexIndex: *3 {\n\t\t\ta: 0,1,-3\n\t\t}\n\t\tGeometryVersion: 124\n\t}\n"
            "\tModel: 2000, \"Model::floor\", \"Mesh\" {\n\t\tVersion: 232\n\t}\n}\n"
            "Connections:  {\n\tC: \"OO\",2000,0\n\tC: \"OO\",1000,2000\n}\n");
  const LevelLoadResult r = loadLevel(path, testLoadOptions());
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->frame.upAxis, 'z');
  EXPECT_FLOAT_EQ(r.level->frame.scale, 0.0254f);
  const LevelMesh& m = r.level->meshes.at(0);
  EXPECT_NEAR(glm::distance(m.positions[1], glm::vec3(2.54f, 0, 0)), 0.0f, 1e-5f);
  EXPECT_NEAR(glm::distance(m.positions[2], glm::vec3(0, 0, -2.54f)), 0.0f, 1e-5f);
}

TEST(OtherFormats, StlAndPlyLoadThroughTheSamePath) {
  TempDir dir;
  writeFile(dir.file("t.stl"),
            "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
            "endloop\nendfacet\nendsolid t\n");
  writeFile(dir.file("t.ply"),
            "ply\nformat ascii 1.0\nelement vertex 4\nproperty float x\nproperty float y\n"
            "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
            "0 0 0\n1 0 0\n1 0 -1\n0 0 -1\n4 0 1 2 3\n");
  const LevelLoadOptions o = testLoadOptions('y');
  const LevelLoadResult stl = loadLevel(dir.file("t.stl"), o);
  ASSERT_TRUE(stl.ok) << stl.error;
  EXPECT_EQ(stl.level->triangleCount(), 1u);
  const LevelLoadResult ply = loadLevel(dir.file("t.ply"), o);
  ASSERT_TRUE(ply.ok) << ply.error;
  EXPECT_EQ(ply.level->triangleCount(), 2u);  // the quad, triangulated
  EXPECT_GT(faceNormal(ply.level->meshes.at(0)).y, 0.99f);
}

TEST(LargeLevel, MillionTrianglesLoadInSeconds) {
  TempDir dir;
  const std::string path = dir.file("big.obj");
  {
    // 708 x 708 grid of vertices: 999,698 triangles.
    const int n = 708;
    std::string text;
    text.reserve(40u << 20);
    char line[96];
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < n; ++i) {
        const int len = std::snprintf(line, sizeof line, "v %g %g %g\n", i * 0.5,
                                      std::sin(i * 0.1) * std::cos(j * 0.13) * 2.0, j * 0.5);
        text.append(line, static_cast<size_t>(len));
      }
    }
    for (int j = 0; j + 1 < n; ++j) {
      for (int i = 0; i + 1 < n; ++i) {
        const int a = j * n + i + 1, b = a + 1, c = a + n, d = c + 1;
        const int len =
            std::snprintf(line, sizeof line, "f %d %d %d\nf %d %d %d\n", a, c, b, b, c, d);
        text.append(line, static_cast<size_t>(len));
      }
    }
    writeFile(path, text);
  }
  int reports = 0;
  LevelLoadOptions o = testLoadOptions();
  o.onProgress = [&reports](float, const char*) { ++reports; };
  const auto t0 = std::chrono::steady_clock::now();
  const LevelLoadResult r = loadLevel(path, o);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->triangleCount(), 999698u);
  EXPECT_GT(reports, 5);
  // And the octree over it, as the demo builds it after loading.
  const auto t1 = std::chrono::steady_clock::now();
  Octree octree;
  const OctreeBuildReport rep = octree.build(r.level->collisionPositions, r.level->collisionIndices,
                                             r.level->collisionLayers);
  const double b = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
  ASSERT_TRUE(rep.ok) << rep.error;
  // About 1 s + 0.5 s on the 2-core dev machine (Release); generous for sanitizer builds.
  EXPECT_LT(s + b, 30.0) << "loading 1M triangles took " << s << " s, the octree " << b << " s";
  RecordProperty("load_seconds", std::to_string(s));
  RecordProperty("octree_build_seconds", std::to_string(b));
}

}  // namespace
}  // namespace ofps
