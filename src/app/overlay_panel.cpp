// The panel's Visualization section: octree boxes, depth range, wireframe, the Q view.
#include <imgui.h>

#include "app/demo_state.h"
#include "app/panel_sections.h"
#include "app/panel_widgets.h"

namespace ofps::app {

void overlayPanel(DemoState& s) {
  if (!ImGui::CollapsingHeader("Visualization", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::Checkbox("octree boxes (O)", &s.overlay.show);
  ImGui::SameLine();
  ImGui::Checkbox("wireframe (T)", &s.gpu.wireframe);
  const int deepest = static_cast<int>(s.level.session->octreeReport.depth);
  ImGui::DragIntRange2("depths", &s.overlay.minDepth, &s.overlay.maxDepth, 0.1f, 0, deepest,
                       "from %d", "to %d");
  helpMarker("Only nodes at these depths are drawn; [ and ] move the range.");
  ImGui::Checkbox("only nodes in view", &s.overlay.visibleOnly);
  ImGui::SameLine();
  ImGui::Checkbox("leaves only", &s.overlay.leavesOnly);
  ImGui::Checkbox("only what the character's queries touched (Q)", &s.overlay.queryNodes);
  helpMarker(
      "The octree nodes this frame's controller queries entered (boxes by depth) and "
      "the triangles in them that were tested (magenta).");
  if (s.overlay.queryNodes) {
    ImGui::Text("%u node entries this frame, %zu distinct nodes shown", s.queries.trace.entered,
                s.queries.shownNodes.size());
  }
  ImGui::Text("%zu lines", s.gpu.lines.lineCount());
}

}  // namespace ofps::app
