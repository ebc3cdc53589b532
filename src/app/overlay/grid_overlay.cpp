// The props' sparse hash grid made visible: every occupied cell as a box coloured by how many
// objects it holds, and one radius query around the aim point (where the eye ray meets the
// level) with the cells it tested highlighted and its work beside brute force's. In the teams
// mode the grid shown is team A's (the one team B's agents query).
#include <imgui.h>

#include <algorithm>
#include <glm/vec4.hpp>

#include "app/overlay/legends.h"
#include "app/overlay/overlay_colors.h"
#include "app/panel/panel_widgets.h"
#include "app/window/demo_state.h"

namespace ofps::app {
namespace {

// Past this many cells the boxes stop being readable and the line buffer grows large.
constexpr uint32_t kMaxCellsDrawn = 20000;
constexpr float kAimDistance = 60.0f;  // m; the query sits here when the eye ray hits nothing

const HashGrid& shownGrid(DemoState& s) {
  return s.props.teamsMode ? s.props.teams.teamGrid(0) : s.sim.props().grid();
}

glm::vec3 aimPoint(DemoState& s) {
  const glm::vec3 eye = s.camera.position, dir = s.camera.forward();
  RayHit hit;
  if (s.level.session->octree.raycast(eye, dir, kAimDistance, kOctreeAllLayers, hit)) {
    return hit.point;
  }
  return eye + dir * kAimDistance;
}

}  // namespace

void buildGridOverlay(DemoState& s) {
  GridView& g = s.grid;
  if (!g.show || !s.level.session) return;
  const HashGrid& grid = shownGrid(s);
  g.occupiedCells = grid.occupiedCells();
  g.objects = grid.objectCount();
  uint32_t drawn = 0;
  for (const GridCell& cell : grid.cells()) {
    if (HashGrid::isBorderCell(cell)) continue;  // unbounded: holds everything out of range
    if (++drawn > kMaxCellsDrawn) break;
    s.gpu.lines.box(grid.cellBounds(cell), gridOccupancyColor(cell.count));
  }
  g.cellsTested = g.objectsTested = g.hits = g.bruteForce = 0;
  if (!g.showQuery) return;
  const glm::vec3 centre = aimPoint(s);
  g.queryCells.resize(std::max<size_t>(grid.occupiedCells(), 1));
  GridQueryStats st;
  const uint32_t n = grid.radiusQueryCells(centre, g.queryRadius, g.queryCells, &st);
  g.cellsTested = std::min<uint32_t>(n, static_cast<uint32_t>(g.queryCells.size()));
  g.objectsTested = static_cast<uint32_t>(st.candidates);
  g.bruteForce = static_cast<uint32_t>(st.bruteForceChecks);
  g.hits = grid.queryRadius(centre, g.queryRadius, [](uint32_t) {});
  // Slightly grown so the highlight is not hidden under the cell's own box.
  const glm::vec3 grow(grid.cellSize() * 0.04f);
  for (uint32_t i = 0; i < g.cellsTested; ++i) {
    const GridCell& cell = grid.cells()[g.queryCells[i]];
    if (HashGrid::isBorderCell(cell)) continue;
    const Aabb b = grid.cellBounds(cell);
    s.gpu.lines.box(Aabb{b.min - grow, b.max + grow}, kGridVisitedColor);
  }
  // The query's sphere, as a wire ball (a capsule of zero length).
  s.gpu.lines.capsule(centre, centre, g.queryRadius, kGridVisitedColor * glm::vec4(1, 1, 1, 0.6f));
}

void gridPanel(DemoState& s) {
  GridView& g = s.grid;
  ImGui::Checkbox("props grid cells (B)", &g.show);
  helpMarker(
      "The occupied cells of the props' sparse hash grid (team A's in the teams mode), "
      "coloured by how many objects each holds. Spawn props (G) to fill it.");
  if (!g.show) return;
  const HashGrid& grid = shownGrid(s);
  char a[32], b[32];
  textf("%s objects in %s occupied cells", grouped(g.objects, a), grouped(g.occupiedCells, b));
  // The cell size here, beside the query it changes, so its sweet spot (about the query's
  // radius) can be found by watching "objects tested" and "cells" move.
  float cell = grid.cellSize();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
  if (ImGui::SliderFloat("cell size (m)", &cell, 0.25f, 20.0f, "%.2f",
                         ImGuiSliderFlags_Logarithmic)) {
    if (s.props.teamsMode) {
      s.props.teamsCellSize = cell;
      s.props.teams.setCellSize(cell);
    } else {
      PropsParams params = s.sim.props().params();
      params.cellSize = cell;
      s.sim.props().setParams(params);
    }
  }
  helpMarker(
      "Small cells: a query visits many cells; large cells: it tests many objects per cell. "
      "The least work is near a cell as large as the query's radius (the props' default, 2 m, "
      "was the fastest for 10,000 props of 0.1-0.5 m). The props move the same at any size: "
      "the grid only finds candidates. The grid is rebuilt at the next step.");
  if (g.occupiedCells > kMaxCellsDrawn) {
    textDisabledf("first %s cells drawn", grouped(kMaxCellsDrawn, a));
  }
  ImGui::Checkbox("radius query at the aim point", &g.showQuery);
  if (g.showQuery) {
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
    ImGui::SliderFloat("radius (m)", &g.queryRadius, 0.25f, 20.0f, "%.2f",
                       ImGuiSliderFlags_Logarithmic);
  }
  gridLegend(s);
}

}  // namespace ofps::app
