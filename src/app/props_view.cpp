// The demo's view of the props: one frustum traversal of the level's octree culls the level's
// draw ranges and the props together (culling/props_cull.h), then the occlusion pass
// (occlusion_view.cpp) keeps what the occlusion buffer does not hide; instance lists for the prop
// renderer, the two-teams mode, and the panel section with the cull's work beside brute force's.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/demo_state.h"
#include "app/overlay_colors.h"
#include "app/panel_sections.h"
#include "app/panel_widgets.h"
#include "app/stats_json.h"
#include "octree_fps/culling/frustum.h"

namespace ofps::app {

void resetTeams(DemoState& s) {
  TeamsParams p = s.props.teams.params();
  p.perTeam = static_cast<uint32_t>(std::max(s.props.teamsPerTeam, 1));
  p.radius = s.props.teamsRadius;
  p.cellSize = s.props.teamsCellSize;
  if (s.level.session) {
    // Agents wander over the level's footprint, a little above its floor.
    const Level& l = s.level.session->level;
    // Heights: from the spawn point's floor up, where the player sees them.
    const float floorY = s.level.session->spawn.y;
    p.bounds = Aabb{glm::vec3(l.boundsMin.x, floorY + 0.5f, l.boundsMin.z),
                    glm::vec3(l.boundsMax.x, floorY + 2.5f, l.boundsMax.z)};
  }
  s.props.teams.reset(p);
}

void updateDrawLists(DemoState& s, const glm::mat4& cullViewProj, float frameSeconds) {
  PropsView& v = s.props;
  PropsWorld& world = s.sim.props();
  const Octree& octree = s.level.session->octree;
  const Frustum frustum = Frustum::fromViewProjection(cullViewProj);
  v.cullStats = {};
  s.culling.stats = {};
  v.visibleIds.resize(world.size());
  const bool occlude = s.culling.enabled && s.occlusion.enabled;
  // One traversal: the level's visible runs and the visible props (culling/frame_cull.h). With
  // occlusion on, these runs are the frustum-only comparison, and occlusionCull() writes the
  // drawn ones. Culling off: every run, and no level statistics.
  const uint32_t visible =
      v.culler.cull(octree, s.level.session->drawRanges, world.grid(), frustum,
                    s.culling.enabled ? LevelCull::Frustum : LevelCull::All,
                    occlude ? &s.occlusion.frustumRuns : &s.culling.runs, v.visibleIds,
                    s.culling.enabled ? &s.culling.stats : nullptr, &v.cullStats);
  v.visibleIds.resize(std::min<size_t>(visible, v.visibleIds.size()));
  occlusionCull(s, cullViewProj);  // drops occluded runs and props (or records that it is off)
  v.spheres.clear();
  v.boxes.clear();
  const auto positions = world.positions();
  const auto half = world.halfExtents();
  const auto shapes = world.shapes();
  const auto resting = world.resting();
  auto instance = [&](uint32_t id, const glm::vec4& color) {
    (shapes[id] == PropShape::Sphere ? v.spheres : v.boxes)
        .push_back({positions[id], half[id], color});
  };
  for (uint32_t id : v.visibleIds) {
    // Awake props are bright, resting ones darker: sleeping is visible at a glance.
    glm::vec4 color = shapes[id] == PropShape::Sphere ? glm::vec4(0.95f, 0.55f, 0.15f, 1.0f)
                                                      : glm::vec4(0.3f, 0.7f, 0.95f, 1.0f);
    if (resting[id] != 0) color = glm::vec4(glm::vec3(color) * 0.55f, 1.0f);
    instance(id, color);
  }
  // Frozen view (V): the props occlusion hid, in the red of the level's occluded triangles.
  for (uint32_t id : s.occlusion.occludedPropIds) instance(id, kOccludedColor);
  if (v.teamsMode) {
    v.teams.step(frameSeconds);
    v.teams.query();
    const auto agents = v.teams.positions();
    const auto near = v.teams.enemiesNear();
    for (uint32_t i = 0; i < agents.size(); ++i) {
      uint32_t mask = kFrustumAllPlanes;
      const Aabb box = Aabb::fromCenterHalfExtents(agents[i], glm::vec3(0.25f));
      if (classifyAabb(frustum, box, mask) == Containment::Outside) continue;
      const bool teamA = v.teams.teamOf(i) == 0;
      // Team colour; dark when no enemy is within R, bright when one is.
      glm::vec4 color =
          teamA ? glm::vec4(0.95f, 0.25f, 0.2f, 1.0f) : glm::vec4(0.2f, 0.4f, 1.0f, 1.0f);
      if (i >= near.size() || near[i] == 0) color = glm::vec4(glm::vec3(color) * 0.35f, 1.0f);
      v.spheres.push_back({agents[i], glm::vec3(0.25f), color});
    }
  }
}

void propsPanel(DemoState& s) {
  if (!ImGui::CollapsingHeader("Props", ImGuiTreeNodeFlags_DefaultOpen)) return;
  PropsView& v = s.props;
  PropsWorld& world = s.sim.props();
  const PropsStepStats& st = world.lastStepStats();
  // "drawn": after the frustum and occlusion culls; the cull line below counts the frustum's.
  ImGui::Text("%u props, %zu drawn, %u resting, %u grid cells", world.liveCount(),
              v.visibleIds.size(), world.restingCount(), world.grid().occupiedCells());
  using ull = unsigned long long;
  if (world.size() > 0) {
    // Every prop added is live or removed; the removed ones are said, not silently dropped.
    ImGui::TextWrapped("removed: %u of %u added since Clear (fell below the kill plane, y %.1f m)",
                       world.removedCount(), world.size(),
                       static_cast<double>(world.params().killPlaneY));
  }
  // The marker goes first: after a wrapped line, SameLine would put it past the window's edge
  // (it follows the item's first line), where it was clipped away.
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "The level's octree traversal culls the props too: each grid cell is\n"
        "linked to the deepest octree node containing it, in a chunk of that\n"
        "node's cells (8 cells a side). Cells under culled nodes or chunks are\n"
        "skipped, cells under fully visible ones accepted untested.\n"
        "Brute force classifies every prop.");
  }
  ImGui::SameLine();
  ImGui::TextWrapped("%s", propsCullLine(v.cullStats).c_str());
  ImGui::Text("contacts: %llu cells, %llu candidates, %llu hits; brute force %llu",
              static_cast<ull>(st.grid.cellsVisited), static_cast<ull>(st.grid.candidates),
              static_cast<ull>(st.grid.hits), static_cast<ull>(st.grid.bruteForceChecks));
  ImGui::Text("%u instanced draw calls (one per shape)", v.drawCalls);
  ImGui::SliderInt("##spawnN", &v.spawnCount, 1, static_cast<int>(kPropMaxSpawn), "%d",
                   ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine();
  if (ImGui::Button("Spawn N")) {
    world.spawnRandom(static_cast<uint32_t>(v.spawnCount), s.level.session->octree,
                      s.level.session->octree.bounds(), v.spawnSeed++);
  }
  ImGui::SameLine();
  if (ImGui::Button("Clear")) world.clear();
  ImGui::TextDisabled("click (mouse captured) throws a ball; G spawns N");

  ImGui::Checkbox("two teams (grid vs brute force)", &v.teamsMode);
  if (v.teamsMode) {
    bool changed = ImGui::SliderInt("per team", &v.teamsPerTeam, 10, 20000, "%d",
                                    ImGuiSliderFlags_Logarithmic);
    changed |= ImGui::SliderFloat("R (m)", &v.teamsRadius, 0.25f, 10.0f, "%.2f");
    if (changed) resetTeams(s);
    if (ImGui::SliderFloat("cell size (m)", &v.teamsCellSize, 0.25f, 20.0f, "%.2f",
                           ImGuiSliderFlags_Logarithmic)) {
      v.teams.setCellSize(v.teamsCellSize);
    }
    markerAfterItem();
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "The grid's checks are lowest near cell size = R: smaller cells mean\n"
          "more cells per query, larger ones more candidates per cell.");
    }
    const TeamsFrameStats& t = v.teams.lastStats();
    ImGui::Text("grid: %llu candidates + %llu cells visited",
                static_cast<unsigned long long>(t.grid.candidates),
                static_cast<unsigned long long>(t.grid.cellsVisited));
    ImGui::Text("brute force: %llu checks (N x M)",
                static_cast<unsigned long long>(t.grid.bruteForceChecks));
    ImGui::Text("%llu enemy pairs within R", static_cast<unsigned long long>(t.enemyPairsInRange));
    teamsCostPlot(s);
  }
}

}  // namespace ofps::app
