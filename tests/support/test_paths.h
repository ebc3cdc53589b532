#pragma once
// Paths to test inputs. The real levels live outside the repository in the team's shared
// folder (../shared next to the checkout, configurable with -DOCTREE_FPS_SHARED_DIR=...).
#include <string>

namespace ofps::test {

// Absolute path of a file under the shared folder, e.g. sharedPath("levels/oa_dm1/oa_dm1.obj").
std::string sharedPath(const std::string& relative);

// Absolute path of a file in this repository, e.g. sourcePath("assets/arena.glb").
std::string sourcePath(const std::string& relative);

// True when the file exists and can be opened for reading.
bool fileExists(const std::string& path);

}  // namespace ofps::test
