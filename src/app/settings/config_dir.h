#pragma once
// Where the demo keeps what it remembers per user (saved view settings, recent files).
#include <filesystem>

namespace ofps::app {

// $XDG_CONFIG_HOME/octree-fps, else $HOME/.config/octree-fps; empty when neither is set (then
// nothing is remembered). Reads the environment on every call; creates nothing.
std::filesystem::path userConfigDir();

}  // namespace ofps::app
