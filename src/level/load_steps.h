#pragma once
// The steps both level loaders take the same way (loader-internal): the native one
// (level_loader.cpp, Assimp) and the page's (web_level_loader.cpp, tinygltf and the core's OBJ
// reader). What differs between them is how a file becomes MeshBuilds in the file's frame; from
// the checked, converted meshes on, a level is put together, remembered and reported here, once.
// Thread-safety: functions of their arguments (rememberFrameChoice writes the settings file).
#include <glm/vec3.hpp>
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

// The import settings remembered for `path` (none with `ignoreStoredSettings`); a settings file
// that could not be read becomes a warning.
std::optional<LoadedImportSettings> storedImportSettings(const std::string& path,
                                                         const LevelLoadOptions& options,
                                                         std::vector<std::string>* warnings);

// Sets the level's spawn from a spawn node (level_conventions.md): `origin` and `forward` are the
// node's origin and its -Z axis in the file's frame and units (a point and a direction); they are
// brought into Y-up metres with `frame`, and the yaw faces the forward's horizontal part (0 along
// -Z). A non-finite transform leaves no spawn and adds a warning naming the node.
void applySpawnNode(const glm::vec3& origin, const glm::vec3& forward, const std::string& nodeName,
                    const std::string& path, Level* level, std::vector<std::string>* warnings);

// The steps that end every successful load, in order: the meshes (Y-up metres, checked) moved
// into `level` (the drawn meshes; the collision soup: positions, indices and one layer mask per
// triangle, in mesh order, so triangle ids follow the file; the bounds; a mesh whose material is
// out of range gets material 0), then the local frame of a level far from the origin
// (level_origin.h), then the user's frame choice remembered (an up axis chosen on the command
// line or in the Level section, or a scale, written beside the level or per user unless the
// same is stored already; "auto" for both with `ignoreStoredSettings` forgets what was stored;
// nothing without `options.rememberSettings`; write failures become warnings), and the success
// shape: the level, `ok` true, no error, the warnings kept. Reports progress 0.95 and 1.0.
LevelLoadResult finishLoad(LevelLoadResult r, Level level, std::vector<MeshBuild>& meshes,
                           const std::string& path, const LevelLoadOptions& options,
                           const std::optional<char>& chosenUp,
                           const std::optional<LoadedImportSettings>& stored);

// Runs a loader's body so that nothing escapes it: out of memory and any exception a library
// throws become the failure shape, naming the file.
LevelLoadResult loadCatching(const std::string& path, const LevelLoadOptions& options,
                             LevelLoadResult (*body)(const std::string&, const LevelLoadOptions&));

}  // namespace ofps::loader
