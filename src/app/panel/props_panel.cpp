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
  char a[32], b[32], c[32], d[32];
  // "drawn": after the frustum and occlusion culls; the cull line below counts the frustum's.
  textWithHelp(
      "Drawn: sent to the GPU, in the frustum and not proven hidden. Both culls are "
      "conservative: a prop they keep may still be behind a wall on screen (occlusion culling "
      "tests boxes against a small depth buffer of the nearest walls, within a work budget), "
      "but a prop they cull is never visible.",
      "%s props, %s drawn, %s resting, %s grid cells", grouped(world.liveCount(), a),
      grouped(v.visibleIds.size(), b), grouped(world.restingCount(), c),
      grouped(world.grid().occupiedCells(), d));
  if (world.size() > 0) {
    // Every prop added is live or removed; the removed ones are said, not silently dropped.
    textf("removed: %s of %s added since Clear (fell below the kill plane, y %.1f m)",
          grouped(world.removedCount(), a), grouped(world.size(), b),
          static_cast<double>(world.params().killPlaneY));
  }
  textWithHelp(
      "The level's octree traversal culls the props too: each grid cell is linked to the "
      "deepest octree node containing it, in a chunk of that node's cells (8 cells a side). "
      "Cells under culled nodes or chunks are skipped, cells under fully visible ones accepted "
      "untested. Brute force classifies every prop.",
      "%s", propsCullLine(v.cullStats).c_str());
  textf("contacts: %s cells, %s candidates, %s hits; brute force %s",
        grouped(st.grid.cellsVisited, a), grouped(st.grid.candidates, b), grouped(st.grid.hits, c),
        grouped(st.grid.bruteForceChecks, d));
  textf("%u instanced draw calls (one per shape)", v.drawCalls);
  ImGui::SliderInt("##spawnN", &v.spawnCount, 1, static_cast<int>(kPropMaxSpawn), "%d",
                   ImGuiSliderFlags_Logarithmic);
  ImGui::SameLine();
  if (ImGui::Button("Spawn N")) {
    world.spawnRandom(static_cast<uint32_t>(v.spawnCount), s.level.session->octree,
                      s.level.session->octree.bounds(), v.spawnSeed++);
  }
  ImGui::SameLine();
  if (ImGui::Button("Clear")) world.clear();
  textDisabledf("click (mouse captured) throws a ball; G spawns N");

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
    helpMarker(
        "The grid's checks are lowest near cell size = R: smaller cells mean more cells per "
        "query, larger ones more candidates per cell.");
    const TeamsFrameStats& t = v.teams.lastStats();
    textf("grid: %s candidates + %s cells visited", grouped(t.grid.candidates, a),
          grouped(t.grid.cellsVisited, b));
    textf("brute force: %s checks (N x M)", grouped(t.grid.bruteForceChecks, a));
    textf("%s enemy pairs within R", grouped(t.enemyPairsInRange, a));
    teamsCostPlot(s);
  }
}

}  // namespace ofps::app
