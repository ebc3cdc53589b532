#pragma once
// The loader's checks before Assimp runs (loader-internal): the options, the path (missing,
// directory, empty, unreadable), GLB containers, format headers whose counts the file cannot
// hold, known importer hangs, the memory budget, glTF required extensions (decoding quantized
// and meshopt-compressed data), and Quake 3 maps Assimp cannot load. Each refusal is one
// message naming the file.
#include <cstdint>
#include <optional>
#include <string>

#include "level/gltf_extensions.h"
#include "level/level_loader.h"

namespace ofps::loader {

struct Preflight {
  bool ok = true;          // false: refuse the file with `error`
  std::string error;       // the message when !ok
  std::string ext;         // lower-case extension without the dot
  uint64_t size = 0;       // file size, bytes
  std::optional<char> up;  // options.upAxis, checked and lower-cased
  uint64_t budget = 0;     // memory budget in force, bytes
  GltfPrepared gltf;       // glTF: the decoded GLB to import instead, when one was needed
};

Preflight preflightChecks(const std::string& path, const LevelLoadOptions& options);

}  // namespace ofps::loader
