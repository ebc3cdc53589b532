// The panel's Level section: path field, Load, assets/, recent files, load warnings.
#include <imgui.h>

#include <filesystem>

#include "app/demo_state.h"
#include "app/panel_sections.h"
#include "app/panel_widgets.h"

namespace ofps::app {

void loaderPanel(DemoState& s, PanelRequests& out) {
  if (!ImGui::CollapsingHeader("Level")) return;
  ImGui::TextWrapped("%s", s.level.session->level.path.c_str());
  ImGui::InputText("path", s.level.pathField.data(), s.level.pathField.size());
  ImGui::SameLine();
  if (ImGui::Button("Load")) out.loadLevel = s.level.pathField.data();
  helpMarker("Any file Assimp reads. You can also drop a file onto the window.");
  if (!s.level.assetLevels.empty() && ImGui::TreeNode("assets/")) {
    for (const std::string& p : s.level.assetLevels) {
      if (ImGui::Selectable(std::filesystem::path(p).filename().string().c_str())) {
        out.loadLevel = p;
      }
    }
    ImGui::TreePop();
  }
  if (!s.level.recentFiles.empty() && ImGui::TreeNode("recent")) {
    for (const std::string& p : s.level.recentFiles) {
      if (ImGui::Selectable(p.c_str())) out.loadLevel = p;
    }
    ImGui::TreePop();
  }
  for (const std::string& w : s.level.loadWarnings) ImGui::TextDisabled("warning: %s", w.c_str());
}

}  // namespace ofps::app
