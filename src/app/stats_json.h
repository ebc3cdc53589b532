#pragma once
// --stats-json output. Top-level objects: "level" (path, triangles, bounds, load_ms) and "run"
// (frames, mean frame time, GL errors); later parts add "octree", "culling", "controller",
// "props".
#include <string>

#include <nlohmann/json.hpp>

#include "app/level_session.h"
#include "controller/character_controller.h"

namespace ofps::app {

nlohmann::json levelStats(const LevelSession& session);
// nodes, leaves, depth, bytes, build_ms, trianglesPerLeaf, maxLevel (and a few more).
nlohmann::json octreeStats(const LevelSession& session);

// Final feet, velocity, grounded and the last step's query work.
nlohmann::json controllerStats(const CharacterController& c, uint64_t steps, double seconds);

// Writes `stats` pretty-printed; false with *error when the file cannot be written.
bool writeStatsJson(const std::string& path, const nlohmann::json& stats, std::string* error);

}  // namespace ofps::app
