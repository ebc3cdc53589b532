#pragma once
// --stats-json output. Top-level objects: "level" (path, triangles, bounds, load_ms) and "run"
// (frames, mean frame time, GL errors); later parts add "octree", "culling", "controller",
// "props".
#include <nlohmann/json.hpp>
#include <string>

#include "app/level_session.h"
#include "octree_fps/controller/character_controller.h"
#include "octree_fps/props/props_world.h"

namespace ofps::app {

nlohmann::json levelStats(const LevelSession& session);
// nodes, leaves, depth, bytes, build_ms, trianglesPerLeaf, maxLevel (and a few more).
nlohmann::json octreeStats(const LevelSession& session);

// Final feet, velocity, grounded and the last step's query work.
nlohmann::json controllerStats(const CharacterController& c, uint64_t steps, double seconds);

// total, visible, resting, grid cells occupied, the last step's broad phase and, under "cull",
// the last frame's props cull through the level's octree (culling/props_cull.h): nodes_visited,
// cells_tested, cells_occupied, props_tested, visible, brute_force_checks. visibleCull: that
// frame's cull (null headless: nothing is drawn, "visible" is null).
struct PropsCullFrame {
  uint32_t visible = 0;
  PropsCullStats cull;
};
nlohmann::json propsStats(const PropsWorld& props, const PropsCullFrame* visibleCull);

// The panel's line: "props: 417 visible · 38 of 1,202 cells tested · 96 props tested · brute
// force 1,272" (UTF-8 middle dots; thousands grouped with commas).
std::string propsCullLine(const PropsCullStats& cull);

// The camera the frame was culled with, enough to rebuild its frustum outside the program:
// eye (world, metres), yaw and pitch in degrees (yaw 0 looks along -Z, +90 along -X; pitch up
// positive), vertical field of view in degrees, aspect (width / height), near and far (metres),
// and the unit forward vector.
nlohmann::json cameraStats(const glm::vec3& eye, float yawRadians, float pitchRadians,
                           float verticalFovRadians, float aspect, float nearPlane, float farPlane,
                           const glm::vec3& forward);

// Writes `stats` pretty-printed; false with *error when the file cannot be written.
bool writeStatsJson(const std::string& path, const nlohmann::json& stats, std::string* error);

}  // namespace ofps::app
