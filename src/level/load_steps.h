#pragma once
// The steps both level loaders take the same way (loader-internal): the native one
// (level_loader.cpp, Assimp) and the page's (web_level_loader.cpp, tinygltf and the core's OBJ
// reader). What differs between them is how a file becomes MeshBuilds in the file's frame; from
// the checked, converted meshes on, a level is put together, remembered and reported here, once.
// Thread-safety: functions of their arguments (rememberFrameChoice writes the settings file).
#include <optional>
#include <string>
#include <vector>

#include "level/import_settings.h"
#include "level/level.h"
#include "level/level_loader.h"
#include "level/scene_walk.h"

namespace ofps::loader {

// The failure shape of LevelLoadResult: no level, `ok` false, one message; the warnings gathered
// so far are kept (a failed load's warnings still reach the user).
LevelLoadResult failLoad(LevelLoadResult r, std::string message);

// The success shape: the level, `ok` true, no error; the warnings kept.
LevelLoadResult succeedLoad(LevelLoadResult r, Level level);

// The import settings remembered for `path` (none with `ignoreStoredSettings`); a settings file
// that could not be read becomes a warning.
std::optional<LoadedImportSettings> storedImportSettings(const std::string& path,
                                                         const LevelLoadOptions& options,
                                                         std::vector<std::string>* warnings);

// Moves the meshes (Y-up metres, checked) into `level`: the drawn meshes, the collision soup
// (positions, indices and one layer mask per triangle, in mesh order, so triangle ids follow the
// file), the bounds, then the local frame of a level far from the origin (level_origin.h). A
// mesh whose material index is out of range gets material 0.
void assembleLevel(std::vector<MeshBuild>& meshes, Level* level);

// Remembers what the user chose (an up axis given on the command line or the Level section, or a
// scale) beside the level, or per user (import_settings.h), unless the same is stored already;
// with `ignoreStoredSettings` and no choice ("auto" for both), forgets what was stored. Nothing
// happens without `options.rememberSettings`. Write failures become warnings.
void rememberFrameChoice(const std::string& path, const LevelLoadOptions& options,
                         const std::optional<char>& chosenUp, const LevelImportFrame& frame,
                         const std::optional<LoadedImportSettings>& stored,
                         std::vector<std::string>* warnings);

// Runs a loader's body so that nothing escapes it: out of memory and any exception a library
// throws become the failure shape, naming the file.
LevelLoadResult loadCatching(const std::string& path, const LevelLoadOptions& options,
                             LevelLoadResult (*body)(const std::string&, const LevelLoadOptions&));

}  // namespace ofps::loader
