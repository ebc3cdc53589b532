// The panel's Visualization section: octree boxes and their depth legend, wireframe, the Q view
// and its legend, the props grid view.
#include <imgui.h>

#include "app/overlay/legends.h"
#include "app/panel/panel_sections.h"
#include "app/panel/panel_widgets.h"
#include "app/window/demo_state.h"

namespace ofps::app {

void overlayPanel(DemoState& s) {
  if (!ImGui::CollapsingHeader("Visualization", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::Checkbox("octree boxes (O)", &s.overlay.show);
  ImGui::SameLine();
  ImGui::Checkbox("wireframe (T)", &s.gpu.wireframe);
  const int deepest = static_cast<int>(s.level.session->octreeReport.depth);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
  ImGui::DragIntRange2("depths", &s.overlay.minDepth, &s.overlay.maxDepth, 0.1f, 0, deepest,
                       "from %d", "to %d");
  helpMarker("Only nodes at these depths are drawn; [ and ] move the range.");
  ImGui::Checkbox("only nodes in view", &s.overlay.visibleOnly);
  ImGui::SameLine();
  ImGui::Checkbox("leaves only", &s.overlay.leavesOnly);
  if (s.overlay.show && !s.overlay.queryNodes) octreeDepthLegend(s);
  ImGui::Checkbox("what the queries touched (Q)", &s.overlay.queryNodes);
  helpMarker(
      "The octree nodes this frame's controller queries entered (boxes by depth), the "
      "triangles in them that were tested, those the capsule touches, and the capsule. Fly "
      "out (F) to look at them from outside.");
  if (s.overlay.queryNodes) {
    ImGui::Text("%u node entries this frame, %zu distinct nodes shown", s.queries.trace.entered,
                s.queries.shownNodes.size());
    queryViewLegend(s);
  }
  gridPanel(s);
  ImGui::Checkbox("crosshair", &s.ui.crosshair);
  ImGui::Text("%zu lines", s.gpu.lines.lineCount());
}

}  // namespace ofps::app
