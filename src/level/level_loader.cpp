// Level loading on Assimp 5.2 + stb_image. See level_loader.h for the contract and
// level_conventions.md for the naming rules (collision layers, spawn) users rely on. This file
// runs the pipeline; each step is a part of its own (namespace ofps::loader).
//
// Pipeline (each step says what it guards against):
//   1. Checks before Assimp (preflight.h): options; missing, directory, empty, unreadable;
//      GLB containers, header counts, the memory budget, glTF extensions -> one clear error.
//   2. Assimp import (assimp_import.h) with ValidateDataStructure always on (Assimp 5.2.5's
//      Quake 3 importer segfaults without it), Triangulate, SortByPType (points/lines land in
//      meshes of their own, counted and dropped), GenNormals (flat, only where normals are
//      missing: hard level edges stay hard, and much cheaper than angle-limited smoothing),
//      FlipUVs (v = 0 at the image's top row). No JoinIdenticalVertices (costly on large OBJs
//      for little gain with flat normals), no FindDegenerates and no PreTransformVertices:
//      degenerate triangles stay (the octree counts them) and instancing stays visible as one
//      world-space copy per node.
//   3. Our own node walk (scene_walk.h): world transform per node, mirror transforms flip
//      winding, layer and visibility from names, spawn node.
//   4. Frame (level_frame.h): options > import settings > the file's own metadata > a
//      heuristic for formats that say nothing (OBJ, STL, PLY...). Z-up becomes Y-up by a
//      -90 deg rotation about X, (x, y, z) -> (x, z, -y): right-handed, never a mirror.
//   5. Input checks Assimp does not do (mesh_checks.h): non-finite or huge coordinates
//      (triangles dropped with a warning naming the mesh and vertex), out-of-range indices,
//      zero-area triangles (kept, counted), nothing left (error).
//   6. Materials and textures (level_materials.h; embedded or beside the file), missing ones
//      become a checker.
//   7. The spawn node, the collision soup and bounds, and the user's --up/--scale remembered.
#include "level/level_loader.h"

#include <assimp/scene.h>

#include <utility>

#include "level/assimp_import.h"
#include "level/import_settings.h"
#include "level/level_frame.h"
#include "level/level_materials.h"
#include "level/load_steps.h"
#include "level/load_text.h"
#include "level/mesh_checks.h"
#include "level/preflight.h"
#include "level/scene_walk.h"

namespace ofps {
namespace {

using loader::checkAndConvertMeshes;
using loader::chooseFrame;
using loader::convertMaterials;
using loader::countWord;
using loader::failLoad;
using loader::ImportedScene;
using loader::importScene;
using loader::MeshBuild;
using loader::Preflight;
using loader::preflightChecks;
using loader::toYUp;
using loader::walkNodes;
using loader::WalkResult;

LevelLoadResult loadLevelImpl(const std::string& path, const LevelLoadOptions& options) {
  LevelLoadResult result;
  auto progress = [&options](float f, const char* stage) {
    if (options.onProgress) options.onProgress(f, stage);
  };

  // 1. Checks before Assimp.
  const Preflight pre = preflightChecks(path, options);
  if (!pre.ok) return failLoad(std::move(result), pre.error);
  const std::optional<char> optUp = pre.up;

  // 2. Assimp.
  const ImportedScene imported = importScene(path, pre, options);
  if (!imported.ok) return failLoad(std::move(result), imported.error);
  const aiScene* scene = imported.scene;
  const bool incomplete = (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0;

  // 3. Node walk, file frame.
  progress(0.7f, "building meshes");
  WalkResult walk;
  walkNodes(*scene, path, options.allSolid, &walk);
  if (!walk.badIndexError.empty()) return failLoad(std::move(result), walk.badIndexError);
  if (walk.pointsDropped + walk.linesDropped > 0) {
    result.warnings.push_back(
        path + ": dropped " + countWord(walk.pointsDropped, "point", "points") + " and " +
        countWord(walk.linesDropped, "line", "lines") + " (only triangles are used)");
  }
  if (walk.meshes.empty()) {
    std::string msg = path + ": no triangles in the file";
    if (walk.pointsDropped + walk.linesDropped > 0) {
      msg += " (only " + countWord(walk.pointsDropped, "point", "points") + " and " +
             countWord(walk.linesDropped, "line", "lines") + ")";
    } else if (incomplete || scene->mNumMeshes == 0) {
      msg += " (no meshes)";
    }
    return failLoad(std::move(result), msg);
  }

  // 4. Frame.
  Level level;
  level.path = path;
  const auto stored = loader::storedImportSettings(path, options, &result.warnings);
  level.frame = chooseFrame(*scene, path, pre.ext, walk.meshes, optUp, options.scale, stored,
                            &result.warnings);
  const LevelImportFrame& frame = level.frame;

  // 5. Checks, then Y-up metres, then the degenerate count.
  uint32_t degenerate = 0;
  if (std::string why =
          checkAndConvertMeshes(walk.meshes, frame, path, &result.warnings, &degenerate);
      !why.empty()) {
    return failLoad(std::move(result), why);
  }
  level.degenerateTriangles = degenerate;

  // Spawn node.
  if (walk.spawnPriority > 0) {
    const aiVector3D o = walk.spawnMatrix * aiVector3D(0.0f, 0.0f, 0.0f);
    const aiVector3D f = aiMatrix3x3(walk.spawnMatrix) * aiVector3D(0.0f, 0.0f, -1.0f);
    loader::applySpawnNode(glm::vec3(o.x, o.y, o.z), glm::vec3(f.x, f.y, f.z), walk.spawnName, path,
                           &level, &result.warnings);
  }

  // 6. Materials (only those used load textures).
  progress(0.8f, "loading textures");
  std::vector<bool> used(scene->mNumMaterials, false);
  for (const MeshBuild& b : walk.meshes) {
    if (b.mesh.material < used.size()) used[b.mesh.material] = true;
  }
  convertMaterials(*scene, used, path, &level, &result.warnings);

  // Collision soup, bounds, the local frame, the frame choice remembered (load_steps.h).
  return loader::finishLoad(std::move(result), std::move(level), walk.meshes, path, options, optUp,
                            stored);
}

}  // namespace

LevelLoadResult loadLevel(const std::string& path, const LevelLoadOptions& options) {
  return loader::loadCatching(path, options, loadLevelImpl);
}

}  // namespace ofps