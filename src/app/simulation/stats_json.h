#pragma once
// --stats-json output. Top-level objects: "level" (path, triangles, bounds, load_ms) and "run"
// (frames, mean frame time, GL errors); later parts add "octree", "culling" (null headless: no
// view), "controller", "props".
#include <nlohmann/json.hpp>
#include <string>

#include "app/simulation/level_session.h"
#include "octree_fps/controller/character_controller.h"
#include "octree_fps/culling/occlusion_cull.h"
#include "octree_fps/culling/props_cull.h"
#include "octree_fps/culling/props_occlusion.h"
#include "octree_fps/props/props_world.h"

namespace ofps::app {

// A position of the level's local frame in the level file's coordinates (local + origin,
// Level::origin), as every position in --stats-json is written.
nlohmann::json fileCoordinates(const glm::vec3& local, const glm::dvec3& origin);

nlohmann::json levelStats(const LevelSession& session);
// nodes, leaves, depth, bytes, build_ms, trianglesPerLeaf, maxLevel (and a few more).
nlohmann::json octreeStats(const LevelSession& session);

// Final feet (in the level file's coordinates: + origin, Level::origin), velocity, grounded and
// the last step's query work.
nlohmann::json controllerStats(const CharacterController& c, uint64_t steps, double seconds,
                               const glm::dvec3& origin);

// total, visible, resting, removed (props that fell below the kill plane since the last spawn
// or clear), grid cells occupied, the last step's broad phase and, under "cull",
// the last frame's props cull through the level's octree (culling/props_cull.h): nodes_visited,
// cells_tested, cells_occupied, props_tested, visible, brute_force_checks. visibleCull: that
// frame's cull (null headless: nothing is drawn, "visible" is null).
struct PropsCullFrame {
  uint32_t visible = 0;
  PropsCullStats cull;
};
nlohmann::json propsStats(const PropsWorld& props, const PropsCullFrame* visibleCull);

// The panel's line: "props: 417 in the frustum · 38 of 1,202 cells tested · 96 props tested · brute
// force 1,272" (UTF-8 middle dots; thousands grouped with commas).
std::string propsCullLine(const PropsCullStats& cull);

// The camera the frame was culled with, enough to rebuild its frustum outside the program:
// eye (world, metres), yaw and pitch in degrees (yaw 0 looks along -Z, +90 along -X; pitch up
// positive), vertical field of view in degrees, aspect (width / height), near and far (metres),
// and the unit forward vector.
nlohmann::json cameraStats(const glm::dvec3& eye, float yawRadians, float pitchRadians,
                           float verticalFovRadians, float aspect, float nearPlane, float farPlane,
                           const glm::vec3& forward);

// culling.occlusion, the last frame's occlusion pass (culling/occlusion_cull.h): enabled (on and
// frustum culling on), nodes_tested (node boxes tested against the occlusion buffer),
// nodes_occluded, triangles_drawn_frustum_only (what the frustum cull alone draws),
// triangles_drawn, props_occluded (props in the frustum hidden by the buffer),
// prop_cells_tested and prop_cells_occluded (their grid cells tested first, and hidden), cpu_ms
// (the pass's wall time, level and props), temporal_coherence (the setting), nodes_assumed_visible
// and triangles_assumed_visible (drawn untested because they were visible last frame), work (the
// pass's metered work, OcclusionWork units), work_budget (the setting; null: none),
// budget_boxes_only (three quarters of the budget spent: box tests only from there),
// budget_exhausted (all of it spent: the frustum cull from there) and nodes_past_budget (drawn
// untested past the whole budget). When off, both
// triangle figures are what is drawn and the rest is 0. Headless runs draw nothing: their
// "culling" is null.
nlohmann::json occlusionStats(bool enabled, bool temporalCoherence, uint32_t workBudget,
                              const OcclusionCullStats& stats, uint32_t propsOccluded,
                              const PropsOcclusionStats& propCells, double cpuMs);

// Writes `stats` pretty-printed; false with *error when the file cannot be written.
bool writeStatsJson(const std::string& path, const nlohmann::json& stats, std::string* outError);

}  // namespace ofps::app
