// The panel's Level section: path field and Load with the load's progress and error right
// beside them, how the level was brought into Y-up metres with controls to change it (Reload),
// assets/, recent files, and the level's warnings.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
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
    textf("loading %s", ls.loader.path().c_str());
  }
  if (!ls.loadError.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
    textf("load failed, kept the current level: %s", ls.loadError.c_str());
    ImGui::PopStyleColor();
    if (!ls.failedLoadWarnings.empty() && ImGui::TreeNode("failed load's warnings")) {
      for (const std::string& w : ls.failedLoadWarnings) textf("%s", w.c_str());
      ImGui::TreePop();
    }
  }
}

// Up axis and scale for re-importing this level; Reload keeps the old level if it fails.
void frameControls(DemoState& s, PanelRequests& out) {
  LevelState& ls = s.level;
  const Level& level = ls.session->level;
  textf("frame: %s", frameSummary(level).c_str());
  if (level.origin != glm::dvec3(0.0)) {
    textf(
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
  // Each combo as wide as its longest item (plus the arrow), so no choice is cut; the scale
  // goes under the up axis when both do not fit on one line.
  const auto comboWidth = [](const char* const* items, int n) {
    float w = 0.0f;
    for (int i = 0; i < n; ++i) w = std::max(w, ImGui::CalcTextSize(items[i]).x);
    return w + ImGui::GetFrameHeight() + ImGui::GetStyle().FramePadding.x * 2.0f;
  };
  const float upWidth = comboWidth(ups, IM_ARRAYSIZE(ups));
  const float scaleWidth = comboWidth(scales, IM_ARRAYSIZE(scales));
  ImGui::SetNextItemWidth(upWidth);
  ImGui::Combo("up", &ls.upChoice, ups, IM_ARRAYSIZE(ups));
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < scaleWidth + ImGui::CalcTextSize("scale").x + 8.0f) {
    ImGui::NewLine();
  }
  ImGui::SetNextItemWidth(scaleWidth);
  ImGui::Combo("scale", &ls.scaleChoice, scales, IM_ARRAYSIZE(scales));
  if (ls.scaleChoice == 4) {
    ImGui::SetNextItemWidth(upWidth * 1.5f);
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
    sameLineDisabled("metres per unit must be > 0");
  }
}

// The path field and Load. Enter in the field loads too. While the field is not being edited it
// shows the end of the path ("...levels/oa_dm5.obj"), where the file's name is: ImGui's field
// shows a long text's start. A click on it edits the whole path.
void pathField(DemoState& s, PanelRequests& out) {
  LevelState& ls = s.level;
  const ImGuiStyle& style = ImGui::GetStyle();
  const float width = ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("Load").x -
                      style.FramePadding.x * 2.0f - style.ItemSpacing.x * 2.0f -
                      ImGui::CalcTextSize("(?)").x;
  ImGui::SetNextItemWidth(std::max(width, ImGui::GetFontSize() * 6.0f));
  if (ls.editingPath) {
    if (ls.focusPath) {
      ImGui::SetKeyboardFocusHere();
      ls.focusPath = false;
    }
    if (ImGui::InputText("##path", ls.pathField.data(), ls.pathField.size(),
                         ImGuiInputTextFlags_EnterReturnsTrue)) {
      out.loadLevel = ls.pathField.data();
    }
    // Back to showing the end once the field lets go of the keyboard (a frame or two after the
    // focus request, so the request itself is not mistaken for leaving).
    if (ImGui::IsItemActive()) {
      ls.editFrames = 0;
    } else if (++ls.editFrames > 2) {
      ls.editingPath = false;
    }
  } else {
    // The path's end that fits the field, with "..." where its start was cut.
    const char* path = ls.pathField.data();
    const float room = ImGui::CalcItemWidth() - style.FramePadding.x * 2.0f;
    const char* start = path;
    if (ImGui::CalcTextSize(path).x > room) {
      const float dots = ImGui::CalcTextSize("...").x;
      start = path + std::strlen(path);
      while (start > path && ImGui::CalcTextSize(start - 1).x + dots <= room) --start;
    }
    char shown[1024];
    std::snprintf(shown, sizeof shown, "%s%s", start == path ? "" : "...", start);
    ImGui::InputText("##pathview", shown, sizeof shown, ImGuiInputTextFlags_ReadOnly);
    if (ImGui::IsItemActivated()) {
      ls.editingPath = true;
      ls.focusPath = true;
      ls.editFrames = 0;
    }
  }
  ImGui::SameLine();
  if (ImGui::Button("Load")) out.loadLevel = ls.pathField.data();
  helpMarker(
      "The level's file; any format Assimp reads. Click the field to edit it; Enter or Load "
      "loads it. You can also drop a file onto the window.");
}

}  // namespace

void loaderPanel(DemoState& s, PanelRequests& out) {
  LevelState& ls = s.level;
  if (ls.revealSection) ImGui::SetNextItemOpen(true);
  if (!ImGui::CollapsingHeader("Level", ImGuiTreeNodeFlags_DefaultOpen)) return;
  pathField(s, out);
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
    textDisabledf("warning: %s", w.c_str());
    ImGui::PopTextWrapPos();
  }
}

}  // namespace ofps::app
