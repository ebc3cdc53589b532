#pragma once
// Recently loaded levels, newest first, kept in $XDG_CONFIG_HOME/octree-fps/recent.txt
// (or ~/.config/...). Failures to read or write are silent: the list is a convenience. Like the
// saved view settings, the file is neither read nor written under --no-settings (or
// $OCTREE_FPS_NO_SETTINGS), and runs that end themselves (--frames, --script) only read it, so
// tests and CI never change what a user finds next time.
#include <string>
#include <vector>

namespace ofps::app {

std::vector<std::string> loadRecentFiles();
// Moves `path` to the front (absolute) and keeps at most 10; saves the list when `save`.
void rememberRecentFile(std::vector<std::string>& recent, const std::string& path, bool save);

// Level files found directly in `directory` (glb, gltf, obj, fbx, dae), sorted.
std::vector<std::string> findLevelFiles(const std::string& directory);

}  // namespace ofps::app
