#pragma once
// Recently loaded levels, newest first, kept in $XDG_CONFIG_HOME/octree-fps/recent.txt
// (or ~/.config/...). Failures to read or write are silent: the list is a convenience.
#include <string>
#include <vector>

namespace ofps::app {

std::vector<std::string> loadRecentFiles();
// Moves `path` to the front (absolute), keeps at most 10, and saves.
void rememberRecentFile(std::vector<std::string>& recent, const std::string& path);

// Level files found directly in `directory` (glb, gltf, obj, fbx, dae), sorted.
std::vector<std::string> findLevelFiles(const std::string& directory);

}  // namespace ofps::app
