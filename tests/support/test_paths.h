#pragma once
// Paths to test inputs. The real levels live outside the repository in the team's shared
// folder (../shared next to the checkout, configurable with -DOCTREE_FPS_SHARED_DIR=...).
#include <string>

namespace ofps::test {

// Absolute path of a file under the shared folder, e.g. sharedPath("levels/oa_dm1/oa_dm1.obj").
std::string sharedPath(const std::string& relative);

// A private copy of a shared level file, for tests that load it through the level loader:
// the loader reads (and with --up/--scale writes) an import-settings file beside the level, so a
// test that loaded the shared file in place could write into the shared folder or be steered by
// a stray settings file there. The copy lives in a temporary folder made once per process and
// removed at exit. Returns "" when the shared file does not exist. Copies the one file only
// (every shared level is a single .glb or .obj).
std::string sharedLevelCopy(const std::string& relative);

// Absolute path of a file in this repository, e.g. sourcePath("assets/arena.glb").
std::string sourcePath(const std::string& relative);

// True when the file exists and can be opened for reading.
bool fileExists(const std::string& path);

}  // namespace ofps::test
