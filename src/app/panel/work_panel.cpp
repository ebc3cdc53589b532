// The panel's "Work per frame": the last 240 frames of what the octree did beside what brute
// force would have done, for the character's queries and for the frustum cull. Log scale,
// because the two differ by orders of magnitude and a linear plot flattens the octree's line
// onto the axis. ImGui 1.86's PlotLines draws one series, so the lines are drawn here.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <initializer_list>

#include "app/panel/log_plot.h"
#include "app/panel/panel_sections.h"
#include "app/panel/panel_widgets.h"
#include "app/window/demo_state.h"

namespace ofps::app {
namespace {

struct Line {
  const char* name;
  ImU32 color;
  const WorkHistory::Series* values;
};

constexpr ImU32 kOctreeColor = IM_COL32(90, 200, 120, 255);
constexpr ImU32 kNodesColor = IM_COL32(110, 170, 255, 255);
constexpr ImU32 kBruteColor = IM_COL32(240, 110, 80, 255);

// Slot of the i-th oldest stored sample.
size_t slot(const WorkHistory& h, size_t i) {
  return (h.next + WorkHistory::kFrames - h.filled + i) % WorkHistory::kFrames;
}

void legend(const WorkHistory& h, std::initializer_list<Line> lines) {
  const size_t newest = (h.next + WorkHistory::kFrames - 1) % WorkHistory::kFrames;
  bool first = true;
  for (const Line& line : lines) {
    const float side = ImGui::GetTextLineHeight() * 0.7f;
    char buf[32];
    const double v = h.filled > 0 ? static_cast<double>((*line.values)[newest]) : 0.0;
    char text[96];
    std::snprintf(text, sizeof text, "%s %s", line.name, grouped(static_cast<uint64_t>(v), buf));
    // An entry that does not fit after the previous one starts a line (never wrapped inside).
    const ImGuiStyle& style = ImGui::GetStyle();
    const float width = side + style.ItemSpacing.x + ImGui::CalcTextSize(text).x;
    if (!first) {
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < width) ImGui::NewLine();
    }
    first = false;
    const ImVec2 p = ImGui::GetCursorScreenPos();
    const float pad = (ImGui::GetTextLineHeight() - side) * 0.5f;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(p.x, p.y + pad),
                                              ImVec2(p.x + side, p.y + pad + side), line.color);
    ImGui::Dummy(ImVec2(side, side));
    ImGui::SameLine();
    ImGui::TextUnformatted(text);
  }
}

void logPlot(const char* title, const WorkHistory& h, std::initializer_list<Line> lines) {
  ImGui::TextUnformatted(title);
  legend(h, lines);
  double peak = 1.0;
  for (const Line& line : lines) {
    for (size_t i = 0; i < h.filled; ++i) peak = std::max(peak, double((*line.values)[slot(h, i)]));
  }
  const int decades = std::max(1, static_cast<int>(std::ceil(std::log10(peak) - 1e-6)));
  const float width = ImGui::GetContentRegionAvail().x;
  const float height = ImGui::GetTextLineHeight() * 6.0f;
  ImGui::BeginChild(title, ImVec2(width, height), true,
                    ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoScrollWithMouse);
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const ImVec2 avail = ImGui::GetContentRegionAvail();
  const float labelWidth = ImGui::CalcTextSize("100M").x + 4.0f;
  const float half = ImGui::GetTextLineHeight() * 0.5f;
  const float left = origin.x + labelWidth, right = origin.x + avail.x;
  const float top = origin.y + half, bottom = origin.y + avail.y - half;
  const auto yOf = [&](float logValue) {
    return bottom - (bottom - top) * std::min(logValue / static_cast<float>(decades), 1.0f);
  };
  // A line and a label per power of ten; with many decades, every other label.
  const int labelEvery = decades > 4 ? 2 : 1;
  for (int k = 0; k <= decades; ++k) {
    const float y = yOf(static_cast<float>(k));
    draw->AddLine(ImVec2(left, y), ImVec2(right, y), IM_COL32(255, 255, 255, 40));
    if (k % labelEvery != 0) continue;
    char buf[16];
    const char* text = powerOfTenLabel(k, buf);
    draw->AddText(ImVec2(left - 4.0f - ImGui::CalcTextSize(text).x, y - half),
                  IM_COL32(200, 200, 200, 255), text);
  }
  std::array<ImVec2, WorkHistory::kFrames> points;
  const float dx = (right - left) / static_cast<float>(WorkHistory::kFrames - 1);
  // The newest sample at the right edge; older ones scroll left.
  const float x0 = right - dx * static_cast<float>(h.filled > 0 ? h.filled - 1 : 0);
  for (const Line& line : lines) {
    for (size_t i = 0; i < h.filled; ++i) {
      points[i] =
          ImVec2(x0 + dx * static_cast<float>(i), yOf(log10Count((*line.values)[slot(h, i)])));
    }
    if (h.filled >= 2) {
      draw->AddPolyline(points.data(), static_cast<int>(h.filled), line.color, 0, 1.5f);
    }
  }
  ImGui::EndChild();
}

}  // namespace

void sampleWork(DemoState& s) {
  if (!s.level.session) return;
  WorkHistory& w = s.work;
  const size_t i = w.next;
  const Octree& octree = s.level.session->octree;
  const ControllerStepStats& st = s.sim.controller().lastStepStats();
  w.queryTriangles[i] = static_cast<float>(st.queries.trianglesTested);
  w.queryNodes[i] = static_cast<float>(st.queries.nodesVisited);
  w.queryBrute[i] = static_cast<float>(st.queryCount) * static_cast<float>(octree.triangleCount());
  const CullStats& c = s.culling.stats;
  w.cullNodes[i] = static_cast<float>(c.nodesVisited);
  w.cullPlaneTests[i] = static_cast<float>(c.planeTests);
  // Brute force tests every drawable triangle against the frustum.
  w.cullBruteNodes[i] = static_cast<float>(s.level.session->drawRanges.drawnTriangles());
  w.trianglesDrawn[i] = static_cast<float>(s.culling.runs.triangles);
  w.trianglesTotal[i] = static_cast<float>(s.level.session->drawRanges.drawnTriangles());
  w.next = (i + 1) % WorkHistory::kFrames;
  w.filled = std::min(w.filled + 1, WorkHistory::kFrames);
}

void workPlotsPanel(DemoState& s) {
  if (!ImGui::CollapsingHeader("Work per frame")) return;
  textDisabledf("last %zu frames, log scale", WorkHistory::kFrames);
  helpMarker(
      "Each line is log10 of a count, so equal gaps are equal ratios: the gap between the octree "
      "and brute force is how many times less work the octree does.");
  const WorkHistory& h = s.work;
  logPlot("character queries (last step)", h,
          {{"triangles tested", kOctreeColor, &h.queryTriangles},
           {"nodes", kNodesColor, &h.queryNodes},
           {"brute force", kBruteColor, &h.queryBrute}});
  logPlot("frustum cull: boxes and triangles tested", h,
          {{"plane tests", kOctreeColor, &h.cullPlaneTests},
           {"node boxes", kNodesColor, &h.cullNodes},
           {"brute force (every triangle)", kBruteColor, &h.cullBruteNodes}});
  logPlot("triangles drawn", h,
          {{"drawn", kOctreeColor, &h.trianglesDrawn},
           {"level total", kBruteColor, &h.trianglesTotal}});
}

}  // namespace ofps::app
