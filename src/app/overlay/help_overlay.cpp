// F1: the whole key list over the view, in the middle, until F1 (or its Close button) hides it.
// The same list as the README's Controls table; the start block shows the first few keys.
#include <imgui.h>

#include <algorithm>

#include "app/window/demo_state.h"

namespace ofps::app {
namespace {

struct KeyRow {
  const char* key;
  const char* action;
};

// The page (WebAssembly) differs where a browser does: a page cannot quit, Ctrl with W, S or D
// is the browser's (so Z crouches and sinks), and screenshots are downloads.
#ifdef __EMSCRIPTEN__
constexpr bool kPage = true;
#else
constexpr bool kPage = false;
#endif

constexpr KeyRow kKeys[] = {
    {"Left click", "capture the mouse for mouse look; once captured, click throws a ball"},
    {"Tab / Esc", kPage ? "release the mouse (Tab toggles)"
                        : "release the mouse (Tab toggles); Esc with the mouse released quits"},
    {"W A S D", "walk"},
    {"Space", "jump"},
    {"Left Shift", "sprint"},
    {kPage ? "Z" : "Left Ctrl",
     kPage ? "crouch (standing up waits for headroom; Ctrl too, but Ctrl+W closes the tab)"
           : "crouch (standing up waits for headroom)"},
    {"F", kPage ? "fly / noclip on and off (Space rises, Z sinks)"
                : "fly / noclip on and off (Space rises, Ctrl sinks)"},
    {"R", "respawn at the spawn point (clears the props)"},
    {"O", "octree boxes on and off (the legend names the depths)"},
    {"[ and ]", "move the range of octree depths drawn"},
    {"Q",
     "only what this frame's character queries touched: nodes, tested and touching "
     "triangles, the capsule"},
    {"P", "probe mode: a left click casts a ray or places a sphere, capsule or box"},
    {"B", "the props' hash grid, and one radius query at the aim point"},
    {"G", "spawn N random props (N in the Props section)"},
    {"C", "frustum culling on and off"},
    {"X", "occlusion culling on and off"},
    {"V", "freeze the culling frustum (fly out with F to see what was culled)"},
    {"T", "wireframe"},
    {"H", "hide / show the panel"},
    {"F1", "this list"},
    {"F12",
     kPage ? "screenshot, handed to the browser as a download" : "screenshot into screenshots/"},
};

}  // namespace

void drawHelpOverlay(DemoState& s) {
  if (!s.ui.showHelp) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const float width = std::min(vp->WorkSize.x - 20.0f, ImGui::GetFontSize() * 44.0f);
  ImGui::SetNextWindowPos(
      ImVec2(vp->WorkPos.x + vp->WorkSize.x * 0.5f, vp->WorkPos.y + vp->WorkSize.y * 0.5f),
      ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.92f);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoSavedSettings |
                                      ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoResize;
  if (ImGui::Begin("Keys (F1 closes)", &s.ui.showHelp, kFlags)) {
    if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
      ImGui::TableSetupColumn("key", ImGuiTableColumnFlags_WidthFixed);
      ImGui::TableSetupColumn("action", ImGuiTableColumnFlags_WidthStretch);
      for (const KeyRow& row : kKeys) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.45f, 1.0f), "%s", row.key);
        ImGui::TableSetColumnIndex(1);
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextUnformatted(row.action);
        ImGui::PopTextWrapPos();
      }
      ImGui::EndTable();
    }
    ImGui::TextDisabled("The panel's sections hold the same toggles; hover a (?) for more.");
  }
  ImGui::End();
}

}  // namespace ofps::app
