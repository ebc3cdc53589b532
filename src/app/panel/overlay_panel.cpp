// The panel's Visualization section: octree boxes and their depth legend, wireframe, the Q view
// and its legend, the props grid view.
#include <imgui.h>

#include "app/overlay/legends.h"
#include "app/panel/headline.h"
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
  ImGui::Checkbox("cubic cells", &s.overlay.cubicCells);
  helpMarker(
      "Off: each node's box is the tight bounds of the triangles under it, what the queries "
      "and the culling test. On: the node's cubic cell, as tutorials draw an octree (the root "
      "is the level's bounding cube, each depth halves the edge); a node's triangles are sorted "
      "into cells by their centres.");
  if (s.overlay.show && !s.overlay.queryNodes) {
    octreeDepthLegend(s);
    if (ImGui::TreeNode("why more than 8 nodes at a depth?")) {
      wrappedText(
          "The tutorials' octree holds at most 8 cells at depth 1 (8^d at depth d). Here a "
          "triangle too big for a child's cell stays in its node, and those kept triangles get "
          "a leaf of their own at the node's depth: depth 1 can hold 8 cells and 8 such leaves. "
          "(Nodes without triangles of their own are then replaced by their children, up to 16 "
          "per node: that changes the tree's shape, not the depths.) Each box drawn is the "
          "tight bounds of the triangles under its node, which reach past the node's cell by "
          "up to 1.5 cell edges (a loose octree), so boxes of one depth overlap. Tick \"cubic "
          "cells\" to see the cells instead.",
          true);
      ImGui::TreePop();
    }
  }
  char lines[32];
  ImGui::Checkbox("what the queries touched (Q)", &s.overlay.queryNodes);
  helpMarker(
      "The octree nodes the controller's queries entered in the last step (boxes by depth), the "
      "triangles in them that were tested, those the capsule touches, and the capsule. Fly "
      "out (F) to look at them from outside.");
  if (s.overlay.queryNodes) {
    const Headline h = headlineOf(s);
    char a[32], b[32], c[32];
    textf(
        "the last step's %s queries tested %s node boxes (the headline's number) and entered %s "
        "of them; %s distinct nodes drawn",
        grouped(h.queries, a), grouped(h.queryBoxes, b), grouped(s.queries.trace.entered, c),
        grouped(s.queries.shownNodes.size(), lines));
    queryViewLegend(s);
  }
  gridPanel(s);
  ImGui::Checkbox("crosshair", &s.ui.crosshair);
  textDisabledf("the overlays above drew %s lines this frame",
                grouped(s.gpu.lines.lineCount(), lines));
}

}  // namespace ofps::app
