#pragma once
// The loader's Assimp import (loader-internal): in a separate process first (import_probe.h) so
// that a file Assimp crashes or hangs on costs an error and not the caller, then in this process
// with the project's import flags and progress; a decoded glTF is served from memory. Assimp's
// terse failures become one message naming the file and what went wrong.
#include <assimp/Importer.hpp>
#include <memory>
#include <string>

#include "level/level_loader.h"
#include "level/preflight.h"

struct aiScene;

namespace ofps::loader {

struct ImportedScene {
  std::unique_ptr<Assimp::Importer> importer;  // owns `scene`
  bool ok = false;                             // false: nothing was imported, see `error`
  const aiScene* scene = nullptr;              // non-null with a root node when ok
  std::string error;                           // the message when !ok
};

// Reports progress in [0, 0.7] through options.onProgress.
ImportedScene importScene(const std::string& path, const Preflight& pre,
                          const LevelLoadOptions& options);

}  // namespace ofps::loader
