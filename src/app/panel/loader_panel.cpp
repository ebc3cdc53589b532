// The panel's Level section: path field and Load with the load's progress and error right
// beside them, how the level was brought into Y-up metres with controls to change it (Reload),
// assets/, recent files, and the level's warnings.
#include <imgui.h>

#include <filesystem>

#include "app/panel/panel_sections.h"
#include "app/panel/panel_widgets.h"
#include "app/window/demo_state.h"

namespace ofps::app {
namespace {

const ImVec4 kErrorColour(1.0f, 0.45f, 0.4f, 1.0f);

// Progress and the last error where the user just clicked, not at the panel's top.
void loadFeedback(DemoState& s) {
  LevelState& ls = s.level;
  if (ls.loader.busy()) {
    ImGui::ProgressBar(ls.loader.progress(), ImVec2(-1, 0), ls.loader.stage());
    ImGui::TextWrapped("loading %s", ls.loader.path().c_str());
  }
  if (!ls.loadError.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
    ImGui::TextWrapped("load failed, kept the current level: %s", ls.loadError.c_str());
    ImGui::PopStyleColor();
    if (!ls.failedLoadWarnings.empty() && ImGui::TreeNode("failed load's warnings")) {
      for (const std::string& w : ls.failedLoadWarnings) ImGui::TextWrapped("%s", w.c_str());
      ImGui::TreePop();
    }
  }
}

// Up axis and scale for re-importing this level; Reload keeps the old level if it fails.
void frameControls(DemoState& s, PanelRequests& out) {
  LevelState& ls = s.level;
  const Level& level = ls.session->level;
  ImGui::TextWrapped("frame: %s", frameSummary(level).c_str());
  if (level.origin != glm::dvec3(0.0)) {
    ImGui::TextWrapped(
        "far from the origin: simulated in a local frame, origin offset (%.0f, "
        "%.0f, %.0f) m",
        level.origin.x, level.origin.y, level.origin.z);
    helpMarker(
        "Single-precision floats resolve about 8 mm at 100 km, so the loader moves a level "
        "that reaches more than 2 km from the origin by whole metres to centre it. "
        "Scripts, traces, --camera, the probe and --stats-json still use the file's own "
        "coordinates.");
  }
  helpMarker(
      "How the file was brought into Y-up metres. Files that say nothing about it (OBJ, STL, "
      "PLY...) are guessed from which way most flat area faces and how big the level is. "
      "Pick the up axis and units and press Reload if the guess is wrong; the choice is "
      "remembered in a file beside the level (LEVEL.EXT.import.json). auto: what the file "
      "says, else the guess; auto for both forgets a remembered choice.");
  const char* ups[] = {"auto", "+Y", "+Z"};
  const char* scales[] = {"auto", "metres", "centimetres", "inches (Quake, 0.0254)", "custom"};
  const float width = ImGui::GetFontSize() * 7.0f;
  ImGui::SetNextItemWidth(width);
  ImGui::Combo("up", &ls.upChoice, ups, IM_ARRAYSIZE(ups));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(width * 1.4f);
  ImGui::Combo("scale", &ls.scaleChoice, scales, IM_ARRAYSIZE(scales));
  if (ls.scaleChoice == 4) {
    ImGui::SetNextItemWidth(width);
    ImGui::InputFloat("metres per unit", &ls.customScale, 0.0f, 0.0f, "%g");
  }
  const bool validScale = ls.scaleChoice != 4 || (ls.customScale > 0.0f && ls.customScale < 1e6f);
  ImGui::BeginDisabled(ls.loader.busy() || !validScale);
  if (ImGui::Button("Reload")) {
    FrameChoice c;
    if (ls.upChoice != 0) c.up = ls.upChoice == 2 ? 'z' : 'y';
    const float presets[] = {0.0f, 1.0f, 0.01f, 0.0254f};
    if (ls.scaleChoice == 4) {
      c.scale = ls.customScale;
    } else if (ls.scaleChoice != 0) {
      c.scale = presets[ls.scaleChoice];
    }
    out.loadLevel = level.path;
    out.reimport = c;
  }
  ImGui::EndDisabled();
  if (!validScale) {
    ImGui::SameLine();
    ImGui::TextDisabled("metres per unit must be > 0");
  }
}

}  // namespace

void loaderPanel(DemoState& s, PanelRequests& out) {
  LevelState& ls = s.level;
  if (ls.revealSection) ImGui::SetNextItemOpen(true);
  if (!ImGui::CollapsingHeader("Level", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::TextWrapped("%s", ls.session->level.path.c_str());
  ImGui::InputText("path", ls.pathField.data(), ls.pathField.size());
  ImGui::SameLine();
  if (ImGui::Button("Load")) out.loadLevel = ls.pathField.data();
  helpMarker("Any file Assimp reads. You can also drop a file onto the window.");
  loadFeedback(s);
  frameControls(s, out);
  if (ls.revealSection) {
    // Load, its outcome and the frame controls brought into view once, when a load starts or
    // fails, even if it was started from elsewhere (a dropped file, --swap-to).
    ImGui::SetScrollHereY(1.0f);
    ls.revealSection = false;
  }
  if (!ls.assetLevels.empty() && ImGui::TreeNode("assets/")) {
    for (const std::string& p : ls.assetLevels) {
      if (ImGui::Selectable(std::filesystem::path(p).filename().string().c_str())) {
        out.loadLevel = p;
      }
    }
    ImGui::TreePop();
  }
  if (!ls.recentFiles.empty() && ImGui::TreeNode("recent")) {
    for (const std::string& p : ls.recentFiles) {
      if (ImGui::Selectable(p.c_str())) out.loadLevel = p;
    }
    ImGui::TreePop();
  }
  // The loaded level's own warnings: a failed load since then has not replaced them.
  for (const std::string& w : ls.session->warnings) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextDisabled("warning: %s", w.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace ofps::app
