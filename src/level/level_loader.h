#pragma once
// Loads any level Assimp reads (glTF/GLB, OBJ+MTL, FBX, DAE, ...) into an ofps::Level.
// Errors are values: a failed load returns a message naming the file and, where known, where in
// it the problem is. It never throws, crashes or hangs on bad input.

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "level/level.h"

namespace ofps {

struct LevelLoadOptions {
  std::optional<char> upAxis;     // 'y' or 'z' (--up); unset = from the file / import settings
  std::optional<float> scale;     // metres per file unit (--scale); unset = file / settings
  bool allSolid = false;          // ignore nocollide/collider naming: everything collides
  bool rememberSettings = true;   // write the chosen --up/--scale beside the level
  // Called from the loading thread with progress in [0,1]; may be empty.
  std::function<void(float progress, const char* stage)> onProgress;
};

struct LevelLoadResult {
  std::optional<Level> level;          // set on success
  std::string error;                   // one clear message when level is empty
  std::vector<std::string> warnings;   // dropped points/lines, degenerate faces, missing textures
  bool ok() const { return level.has_value(); }
};

// Thread-safety: may run on any thread; concurrent calls on different files are safe.
LevelLoadResult loadLevel(const std::string& path, const LevelLoadOptions& options = {});

}  // namespace ofps
