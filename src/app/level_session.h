#pragma once
// What the demo holds for one loaded level: the level itself plus everything derived from it
// (the collision octree, later the controller's world). Shared by the windowed and headless
// paths so both report the same numbers.
#include <memory>
#include <string>

#include "app/options.h"
#include "level/level.h"

namespace ofps::app {

struct LevelSession {
  Level level;
  double loadMs = 0.0;
};

// Loads options.levelPath with the options' --up/--scale/--all-solid. Progress and warnings go
// to stderr. Returns nullptr and sets *error when the level cannot be used.
std::unique_ptr<LevelSession> loadLevelSession(const std::string& path, const DemoOptions& options,
                                               std::string* error);

}  // namespace ofps::app
