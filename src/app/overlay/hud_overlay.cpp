// Over the 3D view: a crosshair at its centre (where throws and the eye ray go) and, while an
// overlay is on, its legend in the bottom-right corner, so a screenshot explains itself.
#include <imgui.h>

#include "app/overlay/legends.h"
#include "app/window/demo_state.h"

namespace ofps::app {
namespace {

void crosshair() {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const ImVec2 c(vp->Pos.x + vp->Size.x * 0.5f, vp->Pos.y + vp->Size.y * 0.5f);
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  const float arm = 8.0f, gap = 3.0f;
  // A dark outline under a light cross: readable on bright and dark surfaces alike.
  for (const auto& [color, width] :
       {std::pair{IM_COL32(0, 0, 0, 160), 3.0f}, std::pair{IM_COL32(255, 255, 255, 230), 1.5f}}) {
    dl->AddLine(ImVec2(c.x - arm, c.y), ImVec2(c.x - gap, c.y), color, width);
    dl->AddLine(ImVec2(c.x + gap, c.y), ImVec2(c.x + arm, c.y), color, width);
    dl->AddLine(ImVec2(c.x, c.y - arm), ImVec2(c.x, c.y - gap), color, width);
    dl->AddLine(ImVec2(c.x, c.y + gap), ImVec2(c.x, c.y + arm), color, width);
  }
}

}  // namespace

void drawViewLegends(DemoState& s) {
  if (s.ui.crosshair) crosshair();
  if (!s.level.session) return;
  const bool octree = s.overlay.show && !s.overlay.queryNodes;
  const bool frozen = s.culling.frozen;
  if (!octree && !s.overlay.queryNodes && !s.grid.show && !frozen) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(vp->Pos.x + vp->Size.x - 10.0f, vp->Pos.y + vp->Size.y - 10.0f),
                          ImGuiCond_Always, ImVec2(1.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(0.65f);
  constexpr ImGuiWindowFlags kFlags =
      ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoFocusOnAppearing |
      ImGuiWindowFlags_NoNav | ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("legend", nullptr, kFlags)) {
    if (octree) {
      ImGui::TextUnformatted("octree boxes (O)");
      octreeDepthLegend(s);
    }
    if (s.overlay.queryNodes) {
      ImGui::TextUnformatted("query view (Q)");
      queryViewLegend(s);
    }
    if (s.grid.show) {
      if (octree || s.overlay.queryNodes) ImGui::Separator();
      ImGui::TextUnformatted(s.props.teamsMode ? "team A's grid (B)" : "props grid (B)");
      gridLegend(s);
    }
    if (frozen) {
      if (octree || s.overlay.queryNodes || s.grid.show) ImGui::Separator();
      frozenLegend();
    }
  }
  ImGui::End();
}

}  // namespace ofps::app
