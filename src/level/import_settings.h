#pragma once
// Per-level import settings (the up axis and unit scale a user chose), remembered between runs
// the way engines keep per-asset import settings.
//
// Where they live (when both exist, the newer file wins):
//   1. beside the level:  LEVEL.EXT.import.json     e.g. oa_dm1.obj.import.json
//   2. per user:          $XDG_CONFIG_HOME/octree-fps/import-settings/<hash>.json
//                         ($HOME/.config when XDG_CONFIG_HOME is unset), <hash> = FNV-1a 64 of
//                         the level's absolute path, which the file also records as "level".
// Writing tries 1 and falls back to 2 when the level's folder is read-only: when writing fails,
// or when the folder has no write permission bit at all (respected even when running as root).
//
// Format: a small JSON object, e.g. {"up": "z", "scale": 0.0254}. Both keys are optional.
// Thread-safety: the functions touch only the files named; concurrent calls on different levels
// are safe.

#include <optional>
#include <string>

namespace ofps {

struct ImportSettings {
  std::optional<char> upAxis;  // 'y' or 'z'
  std::optional<float> scale;  // metres per file unit, > 0
};

// Path of the settings file beside the level.
std::string importSettingsPathBeside(const std::string& levelPath);
// Path of the per-user settings file for the level (absolute path hashed).
std::string importSettingsPathPerUser(const std::string& levelPath);

// Parses settings JSON text into *out. Returns false, with *out untouched and one message in
// *outError, on malformed text or bad values.
bool parseImportSettings(const std::string& text, ImportSettings* out,
                         std::string* outError = nullptr);
std::string formatImportSettings(const ImportSettings& settings, const std::string& levelPath);

struct LoadedImportSettings {
  ImportSettings settings;
  std::string path;  // the file they came from
};
// Reads the level's settings: beside it or per user, the newer when both exist. A file that
// exists but cannot be parsed adds a warning and the other one (if any) is tried.
std::optional<LoadedImportSettings> readImportSettings(const std::string& levelPath,
                                                       std::string* warning);

// Writes settings beside the level, else per user. Returns the path written, or "" with *warning
// set when neither could be written. *warning also notes a fallback to the per-user file.
std::string writeImportSettings(const std::string& levelPath, const ImportSettings& settings,
                                std::string* warning);

// Deletes the level's settings (beside it and per user), so its next load decides the frame
// again. Missing files are fine; *warning names a file that exists and could not be deleted.
void forgetImportSettings(const std::string& levelPath, std::string* warning);

}  // namespace ofps
