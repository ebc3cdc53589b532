#include "app/overlay/legends.h"

#include <imgui.h>

#include <algorithm>
#include <cstdarg>

#include "app/overlay/overlay_colors.h"
#include "app/panel/panel_widgets.h"

namespace ofps::app {

void legendRow(const glm::vec4& color, const char* fmt, ...) {
  const float h = ImGui::GetTextLineHeight();
  const ImVec2 at = ImGui::GetCursorScreenPos();
  // Opaque swatch: the lines are drawn half transparent, but their hue is what identifies them.
  const ImVec2 lo(at.x, at.y + h * 0.15f), hi(at.x + h * 1.4f, at.y + h * 0.85f);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(lo, hi,
                    ImGui::ColorConvertFloat4ToU32(ImVec4(color.r, color.g, color.b, 1.0f)));
  // A light frame, so a dark swatch (the contacts' black) shows on the dark window.
  dl->AddRect(lo, hi, IM_COL32(200, 200, 200, 255));
  ImGui::Dummy(ImVec2(h * 1.4f, h));
  ImGui::SameLine();
  va_list args;
  va_start(args, fmt);
  ImGui::TextV(fmt, args);
  va_end(args);
}

void octreeDepthLegend(const DemoState& s) {
  const std::vector<uint32_t>& perDepth = s.overlay.nodesPerDepth;
  const int last = std::min(s.overlay.maxDepth, static_cast<int>(perDepth.size()) - 1);
  // Past one full turn of the ramp the colours repeat; say so instead of listing them all.
  const int shown = std::min(last, s.overlay.minDepth + static_cast<int>(kDepthColorCount) - 1);
  for (int d = s.overlay.minDepth; d <= shown; ++d) {
    char n[32];
    legendRow(octreeDepthColor(static_cast<uint32_t>(d)), "depth %d: %s nodes", d,
              grouped(perDepth[static_cast<size_t>(d)], n));
  }
  if (shown < last) {
    ImGui::TextDisabled("depths %d-%d repeat these colours", shown + 1, last);
  }
  ImGui::TextDisabled(s.overlay.cubicCells ? "boxes: the nodes' cubic cells"
                                           : "boxes: tight bounds, they may overlap");
}

void queryViewLegend(const DemoState& s) {
  ImGui::TextUnformatted("faint boxes: nodes entered, by depth");
  legendRow(kTestedTriangleColor, "triangles tested");
  legendRow(kContactTriangleColor, "triangles in contact, hatched (%zu)",
            s.queries.contacts.size());
  legendRow(kCapsuleColor, "the character's capsule");
}

void frozenLegend() {
  legendRow(glm::vec4(1.0f), "the frozen frustum (V)");
  legendRow(kOccludedColor, "culled by occlusion: behind walls");
  ImGui::TextDisabled("fly out (F) to look at them; V unfreezes");
}

void gridLegend(const DemoState& s) {
  legendRow(gridOccupancyColor(1), "cell with 1 object");
  legendRow(gridOccupancyColor(kGridOccupancyTop / 2), "%u objects", kGridOccupancyTop / 2);
  legendRow(gridOccupancyColor(kGridOccupancyTop), "%u or more", kGridOccupancyTop);
  if (s.grid.showQuery) {
    const GridView& g = s.grid;
    legendRow(kGridVisitedColor, "tested by the query (r %.1f m)",
              static_cast<double>(g.queryRadius));
    char a[32], b[32], c[32];
    ImGui::Text("query: %s cells, %s objects tested, %s within r", grouped(g.cellsTested, a),
                grouped(g.objectsTested, b), grouped(g.hits, c));
    ImGui::Text("brute force: %s objects tested", grouped(g.bruteForce, a));
  }
}

}  // namespace ofps::app
