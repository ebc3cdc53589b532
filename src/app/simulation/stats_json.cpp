#include "app/simulation/stats_json.h"

#include <fstream>

#include "app/simulation/number_format.h"

namespace ofps::app {

nlohmann::json fileCoordinates(const glm::vec3& local, const glm::dvec3& origin) {
  return {double(local.x) + origin.x, double(local.y) + origin.y, double(local.z) + origin.z};
}

nlohmann::json levelStats(const LevelSession& session) {
  const Level& l = session.level;
  nlohmann::json j;
  j["path"] = l.path;
  j["triangles"] = l.triangleCount();
  j["drawn_triangles"] = session.drawRanges.drawnTriangles();
  j["collider_only_triangles"] = session.colliderOnlyTriangles;  // UCX_/collider: not drawn
  j["visual_only_triangles"] = session.visualOnlyTriangles;      // nocollide: never collide
  j["meshes"] = l.meshes.size();
  // Positions in the level file's coordinates: the local frame's origin added back (0 for every
  // level within 2 km of the origin, where these are the loader's floats unchanged).
  const glm::dvec3 o = l.origin;
  const auto file = [&o](const glm::vec3& p) { return fileCoordinates(p, o); };
  j["bounds"] = {file(l.boundsMin), file(l.boundsMax)};
  j["origin_offset"] = {o.x, o.y, o.z};
  j["load_ms"] = session.loadMs;
  j["spawn"] = file(session.spawn);
  j["spawn_source"] = session.spawnSource;
  j["kill_plane_y"] = double(killPlaneY(l)) + o.y;
  j["warnings"] = session.warnings;
  j["frame_guess"] = frameSummary(l);
  j["frame"] = {{"up", std::string(1, l.frame.upAxis)},
                {"scale", l.frame.scale},
                {"up_source", l.frame.upSource},
                {"scale_source", l.frame.scaleSource},
                {"guessed", l.frame.guessed}};
  return j;
}

nlohmann::json octreeStats(const LevelSession& session) {
  const OctreeBuildReport& r = session.octreeReport;
  return {{"nodes", r.nodeCount},
          {"leaves", r.leafCount},
          {"depth", r.depth},
          {"bytes", r.bytes},
          {"bytes_per_triangle",
           r.storedTriangles > 0 ? static_cast<double>(r.bytes) / r.storedTriangles : 0.0},
          {"build_ms", r.buildMs},
          {"triangles", r.storedTriangles},
          {"degenerate_triangles", r.degenerateTriangles},
          {"trianglesPerLeaf", session.octree.params().trianglesPerLeaf},
          {"maxLevel", session.octree.params().maxLevel}};
}

nlohmann::json controllerStats(const CharacterController& c, uint64_t steps, double seconds,
                               const glm::dvec3& origin) {
  const ControllerStepStats& st = c.lastStepStats();
  return {{"feet", fileCoordinates(c.feet(), origin)},
          {"velocity", {c.velocity().x, c.velocity().y, c.velocity().z}},
          {"grounded", c.grounded()},
          {"crouched", c.crouched()},
          {"flying", c.flying()},
          {"ground_slope_deg", c.groundSlope() * 57.29577951308232f},
          {"steps", steps},
          {"simulated_s", seconds},
          {"last_step",
           {{"queries", st.queryCount},
            {"nodes_visited", st.queries.nodesVisited},
            {"triangles_tested", st.queries.trianglesTested}}}};
}

nlohmann::json propsStats(const PropsWorld& props, const PropsCullFrame* visibleCull) {
  const PropsStepStats& st = props.lastStepStats();
  nlohmann::json j{{"total", props.liveCount()},
                   {"added", props.size()},
                   {"resting", props.restingCount()},
                   {"removed", props.removedCount()},
                   {"grid_cells_occupied", props.grid().occupiedCells()},
                   {"step",
                    {{"awake", st.awake},
                     {"contacts", st.contacts},
                     {"cells_visited", st.grid.cellsVisited},
                     {"candidates", st.grid.candidates},
                     {"hits", st.grid.hits},
                     {"brute_force_checks", st.grid.bruteForceChecks}}}};
  if (visibleCull != nullptr) {
    const PropsCullStats& c = visibleCull->cull;
    j["visible"] = visibleCull->visible;
    j["cull"] = {{"nodes_visited", c.nodesVisited},         {"cells_tested", c.cellsTested},
                 {"chunks_tested", c.chunksTested},         {"cells_occupied", c.cellsOccupied},
                 {"props_tested", c.propsTested},           {"visible", c.visible},
                 {"brute_force_checks", c.bruteForceChecks}};
  } else {
    j["visible"] = nullptr;
  }
  // The frame's totals: the step's broad phase plus the cull (cells tested, props tested).
  j["cells_visited"] = st.grid.cellsVisited + (visibleCull ? visibleCull->cull.cellsTested : 0);
  j["candidates"] = st.grid.candidates + (visibleCull ? visibleCull->cull.propsTested : 0);
  j["brute_force_checks"] =
      st.grid.bruteForceChecks + (visibleCull ? visibleCull->cull.bruteForceChecks : 0);
  return j;
}

std::string propsCullLine(const PropsCullStats& c) {
  // U+00B7 middle dot after a no-break space: a wrapped line never starts with the dot.
  const char* dot = "\xC2\xA0\xC2\xB7 ";
  return "props: " + withCommas(c.visible) + " in the frustum" + dot + withCommas(c.cellsTested) +
         " of " + withCommas(c.cellsOccupied) + " cells tested" + dot + withCommas(c.propsTested) +
         " props tested" + dot + "brute force " + withCommas(c.bruteForceChecks);
}

nlohmann::json cameraStats(const glm::dvec3& eye, float yawRadians, float pitchRadians,
                           float verticalFovRadians, float aspect, float nearPlane, float farPlane,
                           const glm::vec3& forward) {
  constexpr double kDeg = 57.29577951308232;
  return {{"eye", {eye.x, eye.y, eye.z}},
          {"yaw_deg", static_cast<double>(yawRadians) * kDeg},
          {"pitch_deg", static_cast<double>(pitchRadians) * kDeg},
          {"vertical_fov_deg", static_cast<double>(verticalFovRadians) * kDeg},
          {"aspect", aspect},
          {"near", nearPlane},
          {"far", farPlane},
          {"forward", {forward.x, forward.y, forward.z}}};
}

nlohmann::json occlusionStats(bool enabled, bool temporalCoherence, uint32_t workBudget,
                              const OcclusionCullStats& stats, uint32_t propsOccluded,
                              const PropsOcclusionStats& propCells, double cpuMs) {
  return {{"enabled", enabled},
          {"temporal_coherence", temporalCoherence},
          {"work", stats.work},
          {"work_budget",
           workBudget == kOcclusionNoBudget ? nlohmann::json() : nlohmann::json(workBudget)},
          {"budget_boxes_only", stats.budgetBoxesOnly > 0},
          {"budget_exhausted", stats.budgetExhausted > 0},
          {"nodes_past_budget", stats.nodesPastBudget},
          {"nodes_assumed_visible", stats.nodesAssumedVisible},
          {"triangles_assumed_visible", stats.trianglesAssumedVisible},
          {"occluders_rasterized", stats.occludersRasterized},
          {"occluders_prepassed", stats.occludersPrepassed},
          {"nodes_tested", stats.nodesOcclusionTested},
          {"nodes_occluded", stats.nodesOccluded},
          {"triangles_occluded", stats.trianglesOccluded},
          {"triangles_outside_frustum", stats.trianglesOutsideFrustum},
          {"triangles_drawn_frustum_only", stats.trianglesDrawnFrustumOnly},
          {"triangles_drawn", stats.trianglesDrawn},
          {"props_occluded", propsOccluded},
          {"prop_cells_tested", propCells.cellsTested},
          {"prop_cells_occluded", propCells.cellsOccluded},
          {"cpu_ms", cpuMs}};
}

bool writeStatsJson(const std::string& path, const nlohmann::json& stats, std::string* outError) {
  std::ofstream out(path);
  if (!out) {
    *outError = "cannot write stats JSON to " + path;
    return false;
  }
  out << stats.dump(2) << '\n';
  if (!out) {
    *outError = "error while writing stats JSON to " + path;
    return false;
  }
  return true;
}

}  // namespace ofps::app
