#pragma once
// --stats-json output. Top-level objects: "level" (path, triangles, bounds, load_ms) and "run"
// (frames, mean frame time, GL errors); later parts add "octree", "culling", "controller",
// "props".
#include <string>

#include <nlohmann/json.hpp>

#include "app/level_session.h"
#include "controller/character_controller.h"
#include "props/props_world.h"

namespace ofps::app {

nlohmann::json levelStats(const LevelSession& session);
// nodes, leaves, depth, bytes, build_ms, trianglesPerLeaf, maxLevel (and a few more).
nlohmann::json octreeStats(const LevelSession& session);

// Final feet, velocity, grounded and the last step's query work.
nlohmann::json controllerStats(const CharacterController& c, uint64_t steps, double seconds);

// total, visible, resting, grid cells occupied, and the last frame's cells visited, candidates
// and brute-force checks. visibleCull: the frame's frustum query over the grid (null headless:
// nothing is drawn, "visible" is null).
struct PropsCullFrame {
  uint32_t visible = 0;
  GridQueryStats grid;
};
nlohmann::json propsStats(const PropsWorld& props, const PropsCullFrame* visibleCull);

// Writes `stats` pretty-printed; false with *error when the file cannot be written.
bool writeStatsJson(const std::string& path, const nlohmann::json& stats, std::string* error);

}  // namespace ofps::app
