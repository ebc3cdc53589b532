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

#include <cmath>
#include <glm/common.hpp>
#include <limits>
#include <new>
#include <utility>

#include "level/assimp_import.h"
#include "level/import_settings.h"
#include "level/level_frame.h"
#include "level/level_materials.h"
#include "level/level_origin.h"
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
using loader::ImportedScene;
using loader::importScene;
using loader::MeshBuild;
using loader::Preflight;
using loader::preflightChecks;
using loader::toYUp;
using loader::walkNodes;
using loader::WalkResult;

LevelLoadResult fail(LevelLoadResult r, std::string message) {
  r.level.reset();
  r.error = std::move(message);
  return r;
}

LevelLoadResult loadLevelImpl(const std::string& path, const LevelLoadOptions& options) {
  LevelLoadResult result;
  auto progress = [&options](float f, const char* stage) {
    if (options.onProgress) options.onProgress(f, stage);
  };

  // 1. Checks before Assimp.
  const Preflight pre = preflightChecks(path, options);
  if (!pre.error.empty()) return fail(std::move(result), pre.error);
  const std::optional<char> optUp = pre.up;

  // 2. Assimp.
  const ImportedScene imported = importScene(path, pre, options);
  if (!imported.error.empty()) return fail(std::move(result), imported.error);
  const aiScene* scene = imported.scene;
  const bool incomplete = (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0;

  // 3. Node walk, file frame.
  progress(0.7f, "building meshes");
  WalkResult walk;
  walkNodes(*scene, path, options.allSolid, &walk);
  if (!walk.badIndexError.empty()) return fail(std::move(result), walk.badIndexError);
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
    return fail(std::move(result), msg);
  }

  // 4. Frame.
  Level level;
  level.path = path;
  std::string settingsWarning;
  const auto stored =
      options.ignoreStoredSettings ? std::nullopt : readImportSettings(path, &settingsWarning);
  if (!settingsWarning.empty()) result.warnings.push_back(settingsWarning);
  level.frame = chooseFrame(*scene, path, pre.ext, walk.meshes, optUp, options.scale, stored,
                            &result.warnings);
  const LevelImportFrame& frame = level.frame;

  // 5. Checks, then Y-up metres, then the degenerate count.
  uint32_t degenerate = 0;
  if (std::string why =
          checkAndConvertMeshes(walk.meshes, frame, path, &result.warnings, &degenerate);
      !why.empty()) {
    return fail(std::move(result), why);
  }
  level.degenerateTriangles = degenerate;
  const float fscale = frame.scale;

  // Spawn node.
  if (walk.spawnPriority > 0) {
    const aiVector3D o = walk.spawnMatrix * aiVector3D(0.0f, 0.0f, 0.0f);
    const aiVector3D f = aiMatrix3x3(walk.spawnMatrix) * aiVector3D(0.0f, 0.0f, -1.0f);
    const glm::vec3 pos = toYUp(glm::vec3(o.x, o.y, o.z), frame.upAxis) * fscale;
    const glm::vec3 fwd = toYUp(glm::vec3(f.x, f.y, f.z), frame.upAxis);
    bool finite = true;
    for (int k = 0; k < 3; ++k) finite = finite && std::isfinite(pos[k]) && std::isfinite(fwd[k]);
    if (finite) {
      level.spawn = pos;
      level.spawnSource = walk.spawnName;
      level.spawnYaw =
          (std::abs(fwd.x) + std::abs(fwd.z) > 1e-6f) ? std::atan2(-fwd.x, -fwd.z) + 0.0f : 0.0f;
    } else {
      result.warnings.push_back(path + ": spawn node '" + walk.spawnName +
                                "' has a non-finite transform; ignored");
    }
  }

  // 6. Materials (only those used load textures).
  progress(0.8f, "loading textures");
  std::vector<bool> used(scene->mNumMaterials, false);
  for (const MeshBuild& b : walk.meshes) {
    if (b.mesh.material < used.size()) used[b.mesh.material] = true;
  }
  convertMaterials(*scene, used, path, &level, &result.warnings);

  // Collision soup and bounds.
  progress(0.95f, "collision soup");
  size_t vcount = 0, icount = 0;
  for (const MeshBuild& b : walk.meshes) {
    vcount += b.mesh.positions.size();
    icount += b.mesh.indices.size();
  }
  level.collisionPositions.reserve(vcount);
  level.collisionIndices.reserve(icount);
  level.collisionLayers.reserve(icount / 3);
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  level.meshes.reserve(walk.meshes.size());
  for (MeshBuild& b : walk.meshes) {
    const auto base = static_cast<uint32_t>(level.collisionPositions.size());
    level.collisionPositions.insert(level.collisionPositions.end(), b.mesh.positions.begin(),
                                    b.mesh.positions.end());
    for (uint32_t idx : b.mesh.indices) level.collisionIndices.push_back(base + idx);
    level.collisionLayers.insert(level.collisionLayers.end(), b.mesh.indices.size() / 3,
                                 b.mesh.layers);
    for (uint32_t idx : b.mesh.indices) {
      lo = glm::min(lo, b.mesh.positions[idx]);
      hi = glm::max(hi, b.mesh.positions[idx]);
    }
    if (b.mesh.material >= level.materials.size()) b.mesh.material = 0;
    level.meshes.push_back(std::move(b.mesh));
  }
  level.boundsMin = lo;
  level.boundsMax = hi;
  // Far from the origin (survey or CAD coordinates): into a local frame (the demo's load line,
  // panel and --stats-json report the offset).
  loader::moveToLocalFrame(level, loader::localOrigin(lo, hi));

  // Remember what the user chose, beside the level (or per user).
  if (options.rememberSettings && (optUp || options.scale)) {
    ImportSettings s;
    s.upAxis = frame.upAxis;
    s.scale = frame.scale;
    const bool same =
        stored && stored->settings.upAxis == s.upAxis && stored->settings.scale == s.scale;
    if (!same) {
      std::string w;
      writeImportSettings(path, s, &w);
      if (!w.empty()) result.warnings.push_back(w);
    }
  } else if (options.rememberSettings && options.ignoreStoredSettings) {
    std::string w;
    forgetImportSettings(path, &w);
    if (!w.empty()) result.warnings.push_back(w);
  }

  progress(1.0f, "done");
  result.level = std::move(level);
  return result;
}

}  // namespace

LevelLoadResult loadLevel(const std::string& path, const LevelLoadOptions& options) {
  try {
    return loadLevelImpl(path, options);
  } catch (const std::bad_alloc&) {
    LevelLoadResult r;
    r.error = path + ": out of memory while loading";
    return r;
  } catch (const std::exception& e) {
    LevelLoadResult r;
    r.error = path + ": " + e.what();
    return r;
  }
}

}  // namespace ofps