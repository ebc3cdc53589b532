// The two-teams mode's lesson as a figure: the grid's checks for one frame of queries against
// the cell size, measured on the agents as they are (a sweep of cell sizes, log-spaced), with
// brute force's N x M line, the cheapest size and the slider's size marked. Both axes are log:
// the curve spans orders of magnitude and the sizes are ratios of R.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "app/panel/log_plot.h"
#include "app/panel/panel_sections.h"
#include "app/panel/panel_widgets.h"
#include "app/window/demo_state.h"

namespace ofps::app {
namespace {

constexpr uint32_t kSweepSizes = 12;

void measureSweep(PropsView& v) {
  const float r = v.teams.params().radius;
  const float cs = v.teams.params().cellSize;
  // From well below both R and the slider to well above them, so the valley is inside.
  const std::vector<float> sizes =
      logSpacedCellSizes(std::min(r, cs) / 6.0f, std::max(r, cs) * 6.0f, kSweepSizes);
  v.teamsCosts.clear();
  for (float size : sizes) v.teamsCosts.push_back(v.teams.measureCellSize(size));
  v.teamsCostsRadius = r;
  v.teamsCostsPerTeam = v.teams.params().perTeam;
}

}  // namespace

void teamsCostPlot(DemoState& s) {
  PropsView& v = s.props;
  const bool stale = v.teamsCosts.empty() || v.teamsCostsRadius != v.teams.params().radius ||
                     v.teamsCostsPerTeam != v.teams.params().perTeam;
  // A stale sweep is measured again once no slider is held: a sweep runs every agent's query
  // 12 times, too much for every frame of a drag at thousands of agents.
  const bool pressed = ImGui::Button("measure cost vs cell size");
  if (pressed || (stale && !ImGui::IsAnyItemActive())) measureSweep(v);
  char help[200];
  std::snprintf(help, sizeof help,
                "Every agent's query at the agents' current positions, once per cell size (%u "
                "sizes, log-spaced). Cost = cells visited + candidates tested. Brute force tests "
                "every enemy: 2 x N x N.",
                kSweepSizes);
  helpMarker(help);
  const std::vector<CellSizeCost>& costs = v.teamsCosts;
  if (costs.size() < 2) return;
  const size_t best = cheapestCellSize(costs);
  const double brute = static_cast<double>(costs.front().grid.bruteForceChecks);
  char ga[32], gb[32];
  textf("cheapest: cell %.2f m = %.2f R, %s checks (%.2f ms)",
        static_cast<double>(costs[best].cellSize),
        static_cast<double>(costs[best].cellSize / v.teams.params().radius),
        grouped(costs[best].cost(), ga), costs[best].ms);
  textf("brute force: %s checks", grouped(static_cast<uint64_t>(brute), gb));
  if (best == 0 || best + 1 == costs.size()) {
    // The minimum on the sweep's edge is only the cheapest measured: the curve may still fall.
    textColoredf(ImVec4(1.0f, 0.75f, 0.3f, 1.0f),
                 "cheapest at the sweep's %s end: the sweet spot may lie beyond it",
                 best == 0 ? "small" : "large");
  }

  double peak = brute;
  for (const CellSizeCost& c : costs) peak = std::max(peak, static_cast<double>(c.cost()));
  const int decades = std::max(1, static_cast<int>(std::ceil(std::log10(std::max(peak, 10.0)))));
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = ImGui::GetTextLineHeight() * 9.0f;
  ImGui::BeginChild("teams cost", ImVec2(width, height), true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float line = ImGui::GetTextLineHeight();
  const float left = origin.x + ImGui::CalcTextSize("100M").x + 6.0f;
  const float right = origin.x + avail.x - 4.0f;
  const float top = origin.y + line * 0.5f, bottom = origin.y + avail.y - line * 1.3f;
  const float x0 = std::log10(costs.front().cellSize), x1 = std::log10(costs.back().cellSize);
  const auto xOf = [&](float cellSize) {
    return left + (right - left) * (std::log10(cellSize) - x0) / std::max(x1 - x0, 1e-6f);
  };
  const auto yOf = [&](double count) {
    return bottom -
           (bottom - top) * std::min(log10Count(count) / static_cast<float>(decades), 1.0f);
  };
  const ImU32 grid = IM_COL32(255, 255, 255, 40), text = IM_COL32(200, 200, 200, 255);
  const int labelEvery = decades > 4 ? 2 : 1;
  for (int k = 0; k <= decades; ++k) {
    const float y = yOf(std::pow(10.0, k));
    draw->AddLine(ImVec2(left, y), ImVec2(right, y), grid);
    if (k % labelEvery != 0) continue;
    char buf[16];
    const char* label = powerOfTenLabel(k, buf);
    draw->AddText(ImVec2(left - 4.0f - ImGui::CalcTextSize(label).x, y - line * 0.5f), text, label);
  }
  // x labels: the smallest, R and the largest size.
  const float r = v.teams.params().radius;
  char buf[32];
  for (float size : {costs.front().cellSize, r, costs.back().cellSize}) {
    std::snprintf(buf, sizeof buf, size == r ? "R=%.2g" : "%.2g m", static_cast<double>(size));
    const float w = ImGui::CalcTextSize(buf).x;
    const float x = std::clamp(xOf(size) - w * 0.5f, left, right - w);
    draw->AddText(ImVec2(x, bottom + line * 0.2f), text, buf);
  }
  const ImU32 bruteColor = IM_COL32(240, 110, 80, 255);
  draw->AddLine(ImVec2(left, yOf(brute)), ImVec2(right, yOf(brute)), bruteColor, 1.5f);
  draw->AddText(ImVec2(right - ImGui::CalcTextSize("brute force").x, yOf(brute) + 1.0f), bruteColor,
                "brute force");
  ImVec2 points[kSweepSizes];
  const size_t n = std::min<size_t>(costs.size(), kSweepSizes);
  for (size_t i = 0; i < n; ++i) {
    points[i] = ImVec2(xOf(costs[i].cellSize), yOf(static_cast<double>(costs[i].cost())));
  }
  const ImU32 curve = IM_COL32(90, 200, 120, 255);
  draw->AddPolyline(points, static_cast<int>(n), curve, 0, 2.0f);
  for (size_t i = 0; i < n; ++i) draw->AddCircleFilled(points[i], 2.5f, curve);
  // The sweet spot: a ring on the cheapest measured size.
  draw->AddCircle(points[best], 6.0f, IM_COL32(255, 230, 80, 255), 0, 2.0f);
  // The slider's cell size: a vertical line (it may fall between two measured sizes).
  const float xc = xOf(v.teams.params().cellSize);
  draw->AddLine(ImVec2(xc, top), ImVec2(xc, bottom), IM_COL32(120, 170, 255, 220), 1.5f);
  draw->AddText(ImVec2(std::min(xc + 3.0f, right - ImGui::CalcTextSize("cell").x), top),
                IM_COL32(120, 170, 255, 255), "cell");
  ImGui::EndChild();
}

}  // namespace ofps::app
