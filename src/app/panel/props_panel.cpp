// The panel's Props section: the props' numbers, Spawn N and Clear, the props cull's and contacts'
// work beside brute force's, and the two-teams mode with its cost plot (teams_plot.cpp).
#include <imgui.h>

#include <cstdio>

#include "app/panel/panel_sections.h"
#include "app/panel/panel_widgets.h"
#include "app/simulation/stats_json.h"
#include "app/window/demo_state.h"

namespace ofps::app {

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
