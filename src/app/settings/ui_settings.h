#pragma once
// The view settings a user expects to find again at the next start: the panel (shown, width),
// the overlays (octree boxes and their filters, the Q view, the grid view and its query radius,
// the crosshair), wireframe, culling, occlusion (and its temporal coherence), vsync and the smooth
// view over steps. Kept as
// JSON in $XDG_CONFIG_HOME/octree-fps/settings.json (or ~/.config/...). The octree depth range is
// not kept: it belongs to a level and is reset on every load.
//
// This file is GL-free (the JSON and the file); ui_settings_apply.cpp moves the values in and
// out of the running demo. Tested headless: tests/app/settings/ui_settings_test.cpp.
#include <optional>
#include <string>

namespace ofps::app {

struct UiSettings {
  bool showPanel = true;
  float panelWidth = 340.0f;  // px
  bool octreeBoxes = true;    // on at first start, with the depth legend
  bool octreeVisibleOnly = true;
  bool octreeLeavesOnly = false;
  bool queryView = false;
  bool gridView = false;
  bool gridQuery = true;
  float gridQueryRadius = 3.0f;  // m
  bool crosshair = true;
  bool wireframe = false;
  bool culling = true;
  bool occlusion = true;
  bool temporalCoherence = true;
  bool vsync = true;
  bool smoothView = true;  // the eye follows steps over a short time (ViewSmoothing)
  bool operator==(const UiSettings&) const = default;
};

// Environment variable that, set to anything, keeps the demo from reading or writing the file
// (as --no-settings does).
inline constexpr const char* kNoSettingsEnv = "OCTREE_FPS_NO_SETTINGS";

// $XDG_CONFIG_HOME/octree-fps/settings.json, else $HOME/.config/octree-fps/settings.json;
// empty when neither variable is set.
std::string settingsPath();

// Settings from JSON text. Keys missing or unknown are ignored (defaults stay). Text that is not a
// JSON object, or a key of the wrong type or out of range, gives *warning (one line naming what
// is wrong) and the defaults for the whole file: a half-applied file would surprise more.
UiSettings parseUiSettings(const std::string& text, std::string* warning);
std::string serializeUiSettings(const UiSettings& settings);

// The file at path: defaults without a warning when it does not exist; as parseUiSettings
// otherwise (the warning names the file).
UiSettings loadUiSettings(const std::string& path, std::string* warning);
// Writes the file (creating its folder); false with *error when it cannot.
bool saveUiSettings(const std::string& path, const UiSettings& settings, std::string* outError);

}  // namespace ofps::app
