#pragma once
// The level's frame (loader-internal): which axis is up and how many metres a file unit is.
// The choice, first that applies: the caller's options, the import-settings file beside the
// level, what the file itself says (glTF, FBX, Collada, X3D), else a guess from the geometry
// (OBJ, STL, PLY, ... say nothing). Z-up becomes Y-up by a -90 degree rotation about X,
// (x, y, z) -> (x, z, -y): right-handed, never a mirror.
#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <vector>

#include "level/import_settings.h"
#include "level/level.h"
#include "level/scene_walk.h"

struct aiScene;

namespace ofps::loader {

// The loader's guess for a file that says nothing about its frame (see level_frame.cpp for the
// evidence and the thresholds). `why` says what was guessed from what, for the warning.
struct FrameGuess {
  char up = 'y';
  float scale = 1.0f;      // metres per file unit
  double width = 0.0;      // the level's horizontal size in file units, in the guessed frame
  bool ambiguous = false;  // no clear evidence: Y-up assumed
  std::string why;
};
FrameGuess guessFrame(const std::vector<MeshBuild>& meshes);

// Picks the frame (level.h's LevelImportFrame: axis, scale, where each came from, guessed or
// not) for a walked scene; a guess adds a warning that says how to override it. ext is the
// lower-case extension without the dot; `stored` what readImportSettings found.
LevelImportFrame chooseFrame(const aiScene& scene, const std::string& path, const std::string& ext,
                             const std::vector<MeshBuild>& meshes, std::optional<char> optionUp,
                             std::optional<float> optionScale,
                             const std::optional<LoadedImportSettings>& stored,
                             std::vector<std::string>* warnings);

// A point or direction from a file whose up axis is `up` ('y' or 'z') in the Y-up frame.
inline glm::vec3 toYUp(const glm::vec3& p, char up) {
  return up == 'z' ? glm::vec3(p.x, p.z, -p.y) : p;  // -90 deg about X: right-handed rotation
}

}  // namespace ofps::loader
