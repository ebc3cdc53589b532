// The Dear ImGui panel: frame time, octree numbers and live rebuild sliders, culling and query
// work beside brute force, visualization toggles, level loader, screenshot, help. Every
// parameter slider comes from the one parameter table (scenario/param_edit.h). The panel edits
// view toggles in place; what needs the window (a rebuild, a load, vsync, a screenshot) it
// returns as PanelRequests for the frame to carry out.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "app/panel/panel_sections.h"
#include "app/panel/panel_widgets.h"
#include "app/window/demo_state.h"
#include "scenario/param_edit.h"

namespace ofps::app {
namespace {

// One slider per table row: the table's range and the value in s.params (so a script's `set`
// shows). Returns true when the row changed; a change the parameters reject is undone and its
// reason shown.
bool paramSliderRow(DemoState& s, const ParamInfo& info) {
  const ParamSlider spec = paramSlider(info);
  // Logarithmic where the range spans two decades (triangles_per_leaf 1-1024): a short drag near
  // 8 moves by one or two, not by hundreds.
  const bool wide =
      spec.logarithmic || (spec.minValue > 0.0f && spec.maxValue >= 100.0f * spec.minValue);
  const ImGuiSliderFlags flags = wide ? ImGuiSliderFlags_Logarithmic : 0;
  char label[64];
  if (info.unit[0] != '\0') {
    std::snprintf(label, sizeof label, "%s (%s)", info.name, info.unit);
  } else {
    std::snprintf(label, sizeof label, "%s", info.name);
  }
  float value = paramValue(s.params, info);
  bool moved = false;
  // Room for the label and the help marker after the slider, so the marker is never clipped.
  ImGui::SetNextItemWidth(std::max(
      ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize(label).x - ImGui::GetFontSize() * 2.5f,
      ImGui::GetFontSize() * 6.0f));
  if (spec.integer) {
    int v = static_cast<int>(value);
    moved = ImGui::SliderInt(label, &v, static_cast<int>(spec.minValue),
                             static_cast<int>(spec.maxValue), "%d", flags);
    value = static_cast<float>(v);
  } else {
    moved = ImGui::SliderFloat(label, &value, spec.minValue, spec.maxValue, "%.3f", flags);
  }
  helpMarker(info.help);
  if (!moved) return false;
  std::string error;
  if (!editParam(s.params, info, value, &error)) {
    s.ui.statusLine = error;  // the parameters stay consistent (e.g. crouch <= height)
    return false;
  }
  return true;
}

void octreePanel(DemoState& s, PanelRequests& out) {
  if (!ImGui::CollapsingHeader("Octree", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const OctreeBuildReport& r = s.level.session->octreeReport;
  char a[32], b[32], c[32], d[32];
  textf("%s triangles in %s nodes (%s leaves), depth %u", grouped(r.storedTriangles, a),
        grouped(r.nodeCount, b), grouped(r.leafCount, c), r.depth);
  textf("%s bytes (%.1f per triangle), built in %.2f ms", grouped(r.bytes, d),
        r.storedTriangles ? static_cast<double>(r.bytes) / r.storedTriangles : 0.0, r.buildMs);
  if (r.degenerateTriangles > 0) {
    textDisabledf("%s zero-area triangles kept as segments or points",
                  grouped(r.degenerateTriangles, a));
  }
  // Why the culling line counts fewer triangles than the octree holds (and which never block).
  const LevelSession& l = *s.level.session;
  if (l.colliderOnlyTriangles > 0) {
    textDisabledf("%s drawn; %s collide but are not drawn (collider meshes: UCX_, collider)",
                  grouped(l.drawRanges.drawnTriangles(), a), grouped(l.colliderOnlyTriangles, b));
  }
  if (l.visualOnlyTriangles > 0) {
    textDisabledf("%s are drawn but never collide (nocollide meshes)",
                  grouped(l.visualOnlyTriangles, a));
  }
  for (const ParamInfo& info : paramInfos()) {
    if (info.owner == ParamOwner::Octree && paramSliderRow(s, info)) out.rebuildOctree = true;
  }
}

void cullingPanel(DemoState& s) {
  if (!ImGui::CollapsingHeader("Culling", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const CullStats& c = s.culling.stats;
  const uint32_t total = s.level.session->drawRanges.drawnTriangles();
  char a[32], b[32], d[32], e[32];
  ImGui::Checkbox("frustum culling (C)", &s.culling.enabled);
  ImGui::SameLine();
  if (ImGui::Checkbox("freeze (V)", &s.culling.frozen) && s.culling.frozen) {
    s.culling.frozenViewProj = s.culling.cullViewProj;
  }
  helpMarker(
      "Freeze keeps culling with this frustum; fly out (F) to see what was culled. What "
      "occlusion culled is drawn red.");
  ImGui::Checkbox("occlusion culling (X)", &s.occlusion.enabled);
  helpMarker(
      "Walks the octree nearest first, drawing the opaque triangles of visible nodes into a "
      "256 x 128 software depth buffer, and skips every node, triangle and prop whose box is "
      "certainly behind what is already there. Conservative: the image does not change. "
      "Details in the Occlusion section.");
  textWithHelp(
      "Brute force would test every triangle against the frustum's 6 planes; the octree tests "
      "a node's box and skips or accepts its whole subtree.",
      "%s of %s nodes visited, %s plane tests; brute force: %s triangles tested",
      grouped(c.nodesVisited, a), grouped(s.level.session->octree.nodeCount(), b),
      grouped(c.planeTests, d), grouped(total, e));
  textf("%s of %s triangles drawn, %s ranges, %u draw call", grouped(s.culling.runs.triangles, a),
        grouped(total, b), grouped(s.culling.runs.first.size(), d),
        s.gpu.renderer.drawCallsLastFrame());
}

void controllerPanel(DemoState& s, PanelRequests& out) {
  if (!ImGui::CollapsingHeader("Character", ImGuiTreeNodeFlags_DefaultOpen)) return;
  CharacterController& c = s.sim.controller();
  // In the level file's coordinates, as scripts and traces write them (Level::origin).
  const glm::dvec3 feet = glm::dvec3(c.feet()) + s.level.session->level.origin;
  const glm::dvec3 v(c.velocity());
  const double speed = std::sqrt(v.x * v.x + v.z * v.z);
  textf("feet at (%.2f, %.2f, %.2f) m, %s%s%s", tidy(feet.x), tidy(feet.y), tidy(feet.z),
        c.grounded() ? "grounded" : "airborne", c.crouched() ? ", crouched" : "",
        c.flying() ? ", flying (F)" : "");
  textf("speed %.2f m/s (vertical %.2f m/s), slope under feet %.1f\xC2\xB0%s", tidy(speed),
        tidy(v.y), static_cast<double>(c.groundSlope()) * 57.29577951308232,
        c.onSteepSlope() ? " (too steep)" : "");
  const ControllerStepStats& st = c.lastStepStats();
  const uint64_t brute =
      static_cast<uint64_t>(st.queryCount) * s.level.session->octree.triangleCount();
  char a[32], b[32], d[32];
  textf("last step: %u queries, %s of %s nodes visited", st.queryCount,
        grouped(st.queries.nodesVisited, a), grouped(s.level.session->octree.nodeCount(), b));
  textWithHelp("Brute force tests every triangle once per query.",
               "%s triangles tested; brute force: %s", grouped(st.queries.trianglesTested, d),
               grouped(brute, a));
  bool smooth = s.sim.viewSmoothing();
  if (ImGui::Checkbox("smooth view over steps", &smooth)) s.sim.setViewSmoothing(smooth);
  helpMarker(
      "The camera follows a stair step, a curb or a nose over about 0.07 s (95 % in 0.2 "
      "s) instead of jumping by the riser; the capsule, its collisions and the traces are "
      "exact either way.");
  if (s.sim.scripted()) {
    textf("script: %.2f s simulated%s", s.sim.simulatedSeconds(),
          s.sim.scriptFinished() ? " (finished)" : "");
  }
  if (ImGui::TreeNode("parameters")) {
    // The controller's rows and the thrown props' (the octree's are under "Octree").
    for (const ParamInfo& info : paramInfos()) {
      if (info.owner != ParamOwner::Octree && paramSliderRow(s, info)) out.paramsChanged = true;
    }
    ImGui::TreePop();
  }
}

void framePanelSection(DemoState& s, PanelRequests& out) {
  if (!ImGui::CollapsingHeader("Frame time")) return;
  framePanel(s, out);
}

// The panel's place and size: at the top left, as tall as the window. It follows the window
// when the window is resized (the user's width kept), so a window that shrank and grew again
// does not leave a short panel behind.
void placePanel(DemoState& s) {
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  const bool resized = vp->Size.x != s.ui.lastViewportW || vp->Size.y != s.ui.lastViewportH;
  s.ui.lastViewportW = vp->Size.x;
  s.ui.lastViewportH = vp->Size.y;
  const ImGuiCond place =
      s.ui.panelResetPending || resized ? ImGuiCond_Always : ImGuiCond_FirstUseEver;
  s.ui.panelResetPending = false;
  const float width = std::min(s.ui.panelWidth, std::max(260.0f, vp->Size.x - 20.0f));
  ImGui::SetNextWindowPos(ImVec2(10, 10), place);
  ImGui::SetNextWindowSize(ImVec2(width, std::max(120.0f, vp->Size.y - 20.0f)), place);
  ImGui::SetNextWindowSizeConstraints(ImVec2(260.0f, 120.0f), ImVec2(vp->Size.x, vp->Size.y));
}

}  // namespace

PanelRequests drawPanel(DemoState& s) {
  PanelRequests out;
  s.ui.panelRect = {};
  if (!s.ui.showPanel || !s.level.session) return out;
  // Narrow enough to leave most of the view free; the user may drag it wider (or narrower, down
  // to the minimum where the sliders still fit), and long lines wrap instead of clipping.
  placePanel(s);
  ImGui::Begin("octree-fps", &s.ui.showPanel);
  s.ui.panelWidth = ImGui::GetWindowWidth();
  ImGui::PushTextWrapPos(0.0f);
  // Half the width for a slider that sets none, so the buttons after it (Spawn N, Clear) fit.
  ImGui::PushItemWidth(ImGui::GetContentRegionAvail().x * 0.5f);
  // What a learner meets first: the start block (level, keys, what the octree saved this frame),
  // the tool in use, the octree and its overlay, the character, culling; the internals
  // (occlusion, the plots, frame time) folded; the loader last.
  startBlock(s);
  probePanel(s);  // first after the start block: it is the tool being used when open
  octreePanel(s, out);
  overlayPanel(s);
  controllerPanel(s, out);
  cullingPanel(s);
  occlusionPanel(s);
  propsPanel(s);
  workPlotsPanel(s);
  framePanelSection(s, out);
  loaderPanel(s, out);
  ImGui::Separator();
  if (ImGui::Button("Screenshot (F12)")) out.screenshot = true;
  ImGui::SameLine();
  if (ImGui::Button("Reset settings")) {
    resetUiSettings(s);
    out.vsyncChanged = true;
  }
  helpMarker(
      "View toggles and the panel's width are saved at exit and come back at the next start; "
      "this puts the defaults back. --no-settings runs without the saved file.");
  if (!s.ui.statusLine.empty()) textf("%s", s.ui.statusLine.c_str());
  ImGui::PopItemWidth();
  ImGui::PopTextWrapPos();
  s.ui.panelRight = ImGui::GetWindowPos().x + ImGui::GetWindowSize().x;
  s.ui.panelRect = {ImGui::GetWindowPos().x, ImGui::GetWindowPos().y, ImGui::GetWindowSize().x,
                    ImGui::GetWindowSize().y};
  ImGui::End();
  return out;
}

}  // namespace ofps::app
