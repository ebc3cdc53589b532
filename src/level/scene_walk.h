#pragma once
// The loader's walk over Assimp's node tree (loader-internal): each node's world transform
// applied to its meshes (a mirror flips the winding), collision layer and visibility from the
// names (level_conventions.md), the spawn node, points and lines counted and dropped,
// out-of-range indices reported. Everything stays in the file's frame and units.
#include <assimp/matrix4x4.h>

#include <cstdint>
#include <string>
#include <vector>

#include "level/level.h"

struct aiScene;

namespace ofps::loader {

struct MeshBuild {
  LevelMesh mesh;
  std::string meshName;  // Assimp mesh name, for messages
};

struct WalkResult {
  std::vector<MeshBuild> meshes;
  uint64_t pointsDropped = 0;
  uint64_t linesDropped = 0;
  std::string badIndexError;  // first out-of-range index, if any
  int spawnPriority = 0;      // 0: no spawn node
  aiMatrix4x4 spawnMatrix;
  std::string spawnName;
};

// Meshes in file order; allSolid ignores the nocollide names. `path` names the file in messages.
void walkNodes(const aiScene& scene, const std::string& path, bool allSolid, WalkResult* out);

}  // namespace ofps::loader
