#pragma once
// Level data handed from the loader to the core (collision triangles) and to the renderer
// (meshes, materials, textures). Frame: right-handed, Y up, metres. Everything is already in
// world space: node transforms, the file's up axis and unit scale, and the user's --up/--scale
// overrides have all been applied; a level far from the origin has also been moved into a local
// frame (Level::origin, level/level_origin.h).
//
// Ownership: a Level is a plain value; it owns all its arrays. No Assimp types leak out.
// Thread-safety: a Level is immutable after load; any thread may read it.

#include <cstdint>
#include <glm/ext/vector_double3.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <optional>
#include <string>
#include <vector>

namespace ofps {

// Collision layer bits (three.js Octree `layers`). Queries take a mask; a triangle is tested
// when (triangleLayers & queryMask) != 0.
inline constexpr uint32_t kLayerSolid = 1u << 0;  // collides with the character and props

struct LevelTexture {
  std::string source;              // file path or "embedded:N", for messages
  int width = 0;                   // pixels
  int height = 0;                  // pixels
  std::vector<uint8_t> rgba;       // width*height*4 bytes, row 0 at the top (as stb_image loads)
  bool isFallbackChecker = false;  // true when the real texture was missing or unreadable
};

struct LevelMaterial {
  std::string name;
  glm::vec4 baseColor{1.0f};  // linear RGBA factor
  int32_t texture = -1;       // index into Level::textures, -1 = untextured
};

struct LevelMesh {
  std::string name;                  // node name (instances get "node/mesh")
  std::vector<glm::vec3> positions;  // world space, metres
  std::vector<glm::vec3> normals;    // world space, unit length, same count as positions
  std::vector<glm::vec2> uvs;        // same count as positions (zeros when the file has none);
                                     // v = 0 is the image's top row, like LevelTexture::rgba, so
                                     // rgba uploads as is (the loader flips Assimp's bottom-up v)
  std::vector<uint32_t> indices;     // triangles, 3 per face
  uint32_t material = 0;             // index into Level::materials
  bool visible = true;               // false for UCX_/collider nodes: collide but are not drawn
  uint32_t layers = kLayerSolid;     // 0 for visual-only (nocollide) meshes
};

// How the file's frame and units were turned into Y-up metres, for the UI and messages.
struct LevelImportFrame {
  char upAxis = 'y';   // the file's up axis as used: 'y' or 'z'
  float scale = 1.0f;  // metres per file unit, as used
  // Where up axis and scale came from, one phrase each, e.g. "options", "settings file
  // /x/LEVEL.obj.import.json", "file (glTF is Y-up metres)", "guessed (...)".
  std::string upSource;
  std::string scaleSource;
  bool guessed = false;  // true when either came from the loader's heuristic
};

struct Level {
  std::string path;  // the file as given
  std::vector<LevelMesh> meshes;
  std::vector<LevelMaterial> materials;  // never empty after a successful load
  std::vector<LevelTexture> textures;

  // Collision soup: every triangle of every mesh (visible or not), world space, in mesh order.
  // layers[i] is triangle i's collision layer mask (0 = visual only).
  std::vector<glm::vec3> collisionPositions;
  std::vector<uint32_t> collisionIndices;  // 3 per triangle
  std::vector<uint32_t> collisionLayers;   // 1 per triangle

  glm::vec3 boundsMin{0.0f};  // over all meshes, world space
  glm::vec3 boundsMax{0.0f};

  std::optional<glm::vec3> spawn;  // feet position from a spawn node, if the file has one
  float spawnYaw = 0.0f;           // radians; 0 looks along -Z, +pi/2 along -X
  std::string spawnSource;         // the spawn node's name, "" when spawn is unset

  // The local frame's origin in the file's own coordinates (Y-up metres): file = local + origin.
  // Zero unless the level reached farther than 2 km from the origin (level/level_origin.h);
  // every position in this struct is local. Scripts, traces, --camera and the probe's report
  // use file coordinates: the demo adds or subtracts this at those edges.
  glm::dvec3 origin{0.0};
  LevelImportFrame frame;            // how the file was brought into Y-up metres
  uint32_t degenerateTriangles = 0;  // zero-area triangles kept in the collision soup

  size_t triangleCount() const { return collisionLayers.size(); }
};

// Height below which a falling character respawns (docs/script-format.md): the level's lowest
// point minus 50 m. World Y, metres.
inline constexpr float kKillPlaneDepth = 50.0f;
inline float killPlaneY(const Level& level) {
  return level.boundsMin.y - kKillPlaneDepth;
}

}  // namespace ofps
