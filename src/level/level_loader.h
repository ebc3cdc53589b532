#pragma once
// Loads any level Assimp reads (glTF/GLB, OBJ+MTL, FBX, DAE, ...) into an ofps::Level.
// Errors are values: a failed load returns a message naming the file and, where known, where in
// it the problem is. It never throws, crashes or hangs on bad input.
//
// What the loader reads besides triangles (frame and units, import-settings files, collision
// layers from names, spawn nodes, materials) is documented for level authors in
// src/level/level_conventions.md. In short:
// - Frame: options > LEVEL.EXT.import.json (or the per-user copy) > the file (glTF: Y-up
//   metres; FBX UpAxis/UnitScaleFactor; Collada up_axis/unit) > a guess for formats that say
//   nothing (OBJ, STL, ...), reported as a warning. Z-up turns into Y-up by rotating -90 deg
//   about X: (x, y, z) -> (x, z, -y).
// - Layers: names containing `nocollide` are visual only (layers 0); `UCX_...`, `...collider...`
//   and `...-colonly` collide but are not drawn.
// - Spawn: a node named `spawn`, `PlayerStart`, `info_player_start`, ... (origin = feet, -Z =
//   view); without one, see level/spawn_search.h.
// - Kept on purpose: zero-area triangles (counted, warned). Dropped with a warning: points,
//   lines, triangles with NaN/inf/huge coordinates. Errors: out-of-range indices, no usable
//   triangles, only zero-area triangles, Quake 3 .pk3/.bsp (Assimp 5.2 cannot load them).
// - Refused before Assimp runs: an OFF/PLY/binary STL header whose counts the file's size
//   cannot hold (level/header_checks.h); an import whose estimated memory is over
//   LevelLoadOptions::memoryBudgetBytes (level/memory_budget.h); a glTF requiring an extension
//   the loader does not handle (level/gltf_extensions.h). KHR_mesh_quantization and
//   EXT_meshopt_compression (gltfpack's output) are decoded before import.
// - Assimp's own crashes: the import runs in a separate process first (level/import_probe.h),
//   so a file Assimp crashes or hangs on ends in an error naming it, and the caller lives on.
// Cost: linear in the file's size and triangle count (measured times: bench/results/LOADING.md);
// progress goes to onProgress.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "level/level.h"

namespace ofps {

struct LevelLoadOptions {
  std::optional<char> upAxis;  // 'y' or 'z' (--up); unset = from the file / import settings
  std::optional<float> scale;  // metres per file unit (--scale); unset = file / settings
  bool allSolid = false;       // ignore nocollide naming: everything collides (colliders
                               // named UCX_ etc. stay hidden)
  // When upAxis or scale is set: write them to LEVEL.EXT.import.json beside the level (or, if
  // that folder is read-only, to the per-user location; see level/import_settings.h) so the
  // next load needs no flags. Nothing is written when neither is set.
  bool rememberSettings = true;
  // Re-import with exactly upAxis and scale (unset = from the file, else guessed): settings
  // remembered beside the level are not read. With rememberSettings and neither set, they are
  // forgotten (deleted), so the next plain load guesses again. The demo's Reload button.
  bool ignoreStoredSettings = false;
  // The loader's memory budget in bytes (--memory-budget-mb): an import whose estimated peak
  // memory is larger is refused with an error before Assimp runs (see level/memory_budget.h for
  // the estimate). Unset = defaultLevelMemoryBudget(), half the physical memory.
  std::optional<uint64_t> memoryBudgetBytes;
  // Import in a separate process first (level/import_probe.h), so that a file Assimp crashes or
  // hangs on ends in an error instead of taking the caller down. Needs the octree_import_probe
  // program: importProbePath, or by default the one beside the running executable; without it
  // the import runs in-process only.
  bool isolateImport = true;
  std::string importProbePath;
  // Called from the loading thread with progress in [0,1], non-decreasing, ending with 1.0 on
  // success; stage is a static string ("reading file", "post-processing", "building meshes",
  // "loading textures", "collision soup", "done"). May be empty.
  std::function<void(float progress, const char* stage)> onProgress;
};

struct LevelLoadResult {
  bool ok = false;             // the failure shape of CONTRIBUTING.md: ok, else one message
  std::optional<Level> level;  // set exactly when ok
  std::string error;           // one clear message when !ok
  // Each names the file and says what was dropped or assumed and how much: dropped points/lines,
  // non-finite or huge coordinates, zero-area triangles, missing textures, a guessed frame, an
  // import-settings file that was ignored or written elsewhere. Also filled on failure.
  std::vector<std::string> warnings;
};

// Thread-safety: may run on any thread; concurrent calls on different files are safe.
LevelLoadResult loadLevel(const std::string& path, const LevelLoadOptions& options = {});

}  // namespace ofps
