#include "level/load_steps.h"

#include <cmath>
#include <exception>
#include <glm/common.hpp>
#include <limits>
#include <new>
#include <utility>

#include "level/level_frame.h"
#include "level/level_origin.h"
#include "octree_fps/geometry/scalar_inl.h"

namespace ofps::loader {

namespace {

LevelLoadResult succeedLoad(LevelLoadResult r, Level level) {
  r.level = std::move(level);
  r.ok = true;
  r.error.clear();
  return r;
}

void assembleLevel(std::vector<MeshBuild>& meshes, Level* level) {
  size_t vcount = 0, icount = 0;
  for (const MeshBuild& b : meshes) {
    vcount += b.mesh.positions.size();
    icount += b.mesh.indices.size();
  }
  level->collisionPositions.reserve(level->collisionPositions.size() + vcount);
  level->collisionIndices.reserve(level->collisionIndices.size() + icount);
  level->collisionLayers.reserve(level->collisionLayers.size() + icount / 3);
  level->meshes.reserve(level->meshes.size() + meshes.size());
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  for (MeshBuild& b : meshes) {
    const auto base = static_cast<uint32_t>(level->collisionPositions.size());
    level->collisionPositions.insert(level->collisionPositions.end(), b.mesh.positions.begin(),
                                     b.mesh.positions.end());
    for (uint32_t idx : b.mesh.indices) {
      level->collisionIndices.push_back(base + idx);
      lo = glm::min(lo, b.mesh.positions[idx]);
      hi = glm::max(hi, b.mesh.positions[idx]);
    }
    level->collisionLayers.insert(level->collisionLayers.end(), b.mesh.indices.size() / 3,
                                  b.mesh.layers);
    if (b.mesh.material >= level->materials.size()) b.mesh.material = 0;
    level->meshes.push_back(std::move(b.mesh));
  }
  meshes.clear();
  level->boundsMin = lo;
  level->boundsMax = hi;
  // Far from the origin (survey or CAD coordinates): into a local frame (the demo's load line,
  // panel and --stats-json report the offset).
  moveToLocalFrame(*level, localOrigin(lo, hi));
}

void rememberFrameChoice(const std::string& path, const LevelLoadOptions& options,
                         const std::optional<char>& chosenUp, const LevelImportFrame& frame,
                         const std::optional<LoadedImportSettings>& stored,
                         std::vector<std::string>* warnings) {
  if (!options.rememberSettings) return;
  std::string w;
  if (chosenUp || options.scale) {
    ImportSettings s;
    s.upAxis = frame.upAxis;
    s.scale = frame.scale;
    const bool same =
        stored && stored->settings.upAxis == s.upAxis && stored->settings.scale == s.scale;
    if (!same) writeImportSettings(path, s, &w);
  } else if (options.ignoreStoredSettings) {
    forgetImportSettings(path, &w);
  }
  if (!w.empty()) warnings->push_back(w);
}

}  // namespace

LevelLoadResult failLoad(LevelLoadResult r, std::string message) {
  r.level.reset();
  r.ok = false;
  r.error = std::move(message);
  return r;
}

std::optional<LoadedImportSettings> storedImportSettings(const std::string& path,
                                                         const LevelLoadOptions& options,
                                                         std::vector<std::string>* warnings) {
  if (options.ignoreStoredSettings) return std::nullopt;
  std::string warning;
  std::optional<LoadedImportSettings> stored = readImportSettings(path, &warning);
  if (!warning.empty()) warnings->push_back(warning);
  return stored;
}

void applySpawnNode(const glm::vec3& origin, const glm::vec3& forward, const std::string& nodeName,
                    const std::string& path, Level* level, std::vector<std::string>* warnings) {
  const LevelImportFrame& frame = level->frame;
  const glm::vec3 pos = toYUp(origin, frame.upAxis) * frame.scale;
  const glm::vec3 fwd = toYUp(forward, frame.upAxis);
  if (!finite3(pos) || !finite3(fwd)) {
    warnings->push_back(path + ": spawn node '" + nodeName +
                        "' has a non-finite transform; ignored");
    return;
  }
  level->spawn = pos;
  level->spawnSource = nodeName;
  level->spawnYaw =
      (std::abs(fwd.x) + std::abs(fwd.z) > 1e-6f) ? std::atan2(-fwd.x, -fwd.z) + 0.0f : 0.0f;
}

LevelLoadResult finishLoad(LevelLoadResult r, Level level, std::vector<MeshBuild>& meshes,
                           const std::string& path, const LevelLoadOptions& options,
                           const std::optional<char>& chosenUp,
                           const std::optional<LoadedImportSettings>& stored) {
  if (options.onProgress) options.onProgress(0.95f, "collision soup");
  assembleLevel(meshes, &level);
  rememberFrameChoice(path, options, chosenUp, level.frame, stored, &r.warnings);
  if (options.onProgress) options.onProgress(1.0f, "done");
  return succeedLoad(std::move(r), std::move(level));
}

LevelLoadResult loadCatching(const std::string& path, const LevelLoadOptions& options,
                             LevelLoadResult (*body)(const std::string&, const LevelLoadOptions&)) {
  try {
    return body(path, options);
  } catch (const std::bad_alloc&) {
    return failLoad({}, path + ": out of memory while loading");
  } catch (const std::exception& e) {
    return failLoad({}, path + ": " + e.what());
  }
}

}  // namespace ofps::loader
