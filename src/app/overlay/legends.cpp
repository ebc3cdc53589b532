#include "app/overlay/legends.h"

#include <imgui.h>

#include <algorithm>
#include <cstdarg>

#include "app/overlay/overlay_colors.h"

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
    legendRow(octreeDepthColor(static_cast<uint32_t>(d)), "depth %d: %u nodes", d,
              perDepth[static_cast<size_t>(d)]);
  }
  if (shown < last) {
    ImGui::TextDisabled("depths %d-%d repeat these colours", shown + 1, last);
  }
}

void queryViewLegend(const DemoState& s) {
  ImGui::TextUnformatted("faint boxes: nodes entered, by depth");
  legendRow(kTestedTriangleColor, "triangles tested");
  legendRow(kContactTriangleColor, "triangles in contact, hatched (%zu)",
            s.queries.contacts.size());
  legendRow(kCapsuleColor, "the character's capsule");
}

void gridLegend(const DemoState& s) {
  legendRow(gridOccupancyColor(1), "cell with 1 object");
  legendRow(gridOccupancyColor(kGridOccupancyTop / 2), "%u objects", kGridOccupancyTop / 2);
  legendRow(gridOccupancyColor(kGridOccupancyTop), "%u or more", kGridOccupancyTop);
  if (s.grid.showQuery) {
    const GridView& g = s.grid;
    legendRow(kGridVisitedColor, "tested by the query (r %.1f m)",
              static_cast<double>(g.queryRadius));
    ImGui::Text("query: %u cells, %u objects tested, %u within r", g.cellsTested, g.objectsTested,
                g.hits);
    ImGui::Text("brute force: %u objects tested", g.bruteForce);
  }
}

}  // namespace ofps::app
