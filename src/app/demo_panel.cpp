// The Dear ImGui panel: frame time, octree numbers and live rebuild sliders, culling and query
// work beside brute force, visualization toggles, level loader, screenshot, help.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "app/demo_state.h"

namespace ofps::app {
namespace {

void helpMarker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

// "1 234 567" reads faster than "1234567" beside another big number.
const char* grouped(uint64_t v, char (&buf)[32]) {
  char raw[32];
  std::snprintf(raw, sizeof raw, "%llu", static_cast<unsigned long long>(v));
  const int len = static_cast<int>(std::strlen(raw));
  int o = 0;
  for (int i = 0; i < len; ++i) {
    if (i > 0 && (len - i) % 3 == 0) buf[o++] = ' ';
    buf[o++] = raw[i];
  }
  buf[o] = '\0';
  return buf;
}

void framePanel(DemoState& s) {
  const size_t n = s.frameMs.size();
  const double ms = s.frameMs[(s.frameIndex + n - 1) % n];
  ImGui::Text("frame %.2f ms (%.0f fps)   CPU work %.3f ms", ms, ms > 0.0 ? 1000.0 / ms : 0.0,
              s.lastCpuFrameMs);
  helpMarker("CPU work: controller + culling + building the draw list, this frame.");
  if (ImGui::Checkbox("vsync", &s.vsync)) glfwSwapInterval(s.vsync ? 1 : 0);
  const float peak = *std::max_element(s.frameMs.begin(), s.frameMs.end());
  const float scale = peak <= 17.0f ? 20.0f : (peak <= 34.0f ? 40.0f : 120.0f);
  char label[32];
  std::snprintf(label, sizeof label, "frame ms (0-%.0f)", static_cast<double>(scale));
  ImGui::PlotLines("##frametime", s.frameMs.data(), static_cast<int>(n),
                   static_cast<int>(s.frameIndex % n), label, 0.0f, scale, ImVec2(-1, 50));
}

void octreePanel(DemoState& s) {
  if (!ImGui::CollapsingHeader("Octree", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const OctreeBuildReport& r = s.session->octreeReport;
  char a[32], b[32];
  ImGui::Text("%s triangles, %u nodes, %u leaves, depth %u", grouped(r.storedTriangles, a),
              r.nodeCount, r.leafCount, r.depth);
  ImGui::Text("%s bytes (%.1f per triangle), built in %.2f ms", grouped(r.bytes, b),
              r.storedTriangles ? static_cast<double>(r.bytes) / r.storedTriangles : 0.0,
              r.buildMs);
  if (r.degenerateTriangles > 0) {
    ImGui::TextDisabled("%u zero-area triangles kept as segments/points", r.degenerateTriangles);
  }
  int perLeaf = static_cast<int>(s.octreeParams.trianglesPerLeaf);
  int maxLevel = static_cast<int>(s.octreeParams.maxLevel);
  bool changed = ImGui::SliderInt("trianglesPerLeaf", &perLeaf, 1, 128, "%d",
                                  ImGuiSliderFlags_Logarithmic);
  helpMarker("A node with at most this many triangles becomes a leaf. Rebuilds the tree live.");
  changed |= ImGui::SliderInt("maxLevel", &maxLevel, 0, static_cast<int>(kOctreeMaxLevel));
  helpMarker("Deepest level of the tree (root = 0). Rebuilds the tree live.");
  if (changed) {
    s.octreeParams.trianglesPerLeaf = static_cast<uint32_t>(std::max(perLeaf, 1));
    s.octreeParams.maxLevel = static_cast<uint32_t>(std::max(maxLevel, 0));
    applyOctreeParams(s);
  }
}

void cullingPanel(DemoState& s) {
  if (!ImGui::CollapsingHeader("Culling", ImGuiTreeNodeFlags_DefaultOpen)) return;
  const CullStats& c = s.culling.stats;
  const uint32_t total = s.session->drawRanges.drawnTriangles();
  char a[32], b[32];
  ImGui::Checkbox("frustum culling (C)", &s.culling.enabled);
  ImGui::SameLine();
  if (ImGui::Checkbox("freeze (V)", &s.culling.frozen) && s.culling.frozen) {
    s.culling.frozenViewProj = s.culling.cullViewProj;
  }
  helpMarker("Freeze keeps culling with this frustum; fly out to see what was culled.");
  ImGui::Text("%u of %u nodes visited, %u plane tests", c.nodesVisited,
              s.session->octree.nodeCount(), c.planeTests);
  helpMarker("Brute force would test every node against 6 planes.");
  ImGui::Text("%zu ranges, %u draw call", s.culling.runs.first.size(),
              s.renderer.drawCallsLastFrame());
  ImGui::Text("%s of %s triangles drawn", grouped(s.culling.runs.triangles, a), grouped(total, b));
}

void controllerPanel(DemoState& s) {
  if (!ImGui::CollapsingHeader("Character", ImGuiTreeNodeFlags_DefaultOpen)) return;
  CharacterController& c = s.sim.controller();
  const glm::dvec3 feet(c.feet());
  const glm::dvec3 v(c.velocity());
  const double speed = std::sqrt(v.x * v.x + v.z * v.z);
  ImGui::Text("feet %.2f %.2f %.2f  %s%s%s", feet.x, feet.y, feet.z,
              c.grounded() ? "grounded" : "airborne", c.crouched() ? ", crouched" : "",
              c.flying() ? ", flying (F)" : "");
  ImGui::Text("speed %.2f m/s (vertical %.2f), slope under feet %.1f deg%s", speed, v.y,
              static_cast<double>(c.groundSlope()) * 57.29577951308232,
              c.onSteepSlope() ? " (too steep)" : "");
  const ControllerStepStats& st = c.lastStepStats();
  const uint64_t brute = static_cast<uint64_t>(st.queryCount) * s.session->octree.triangleCount();
  char a[32];
  ImGui::Text("last step: %u queries, %u of %u nodes visited", st.queryCount,
              st.queries.nodesVisited, s.session->octree.nodeCount());
  ImGui::Text("%u triangles tested, brute force: %s", st.queries.trianglesTested,
              grouped(brute, a));
  helpMarker("Brute force tests every triangle once per query.");
  if (s.sim.scripted()) {
    ImGui::Text("script: %.2f s simulated%s", s.sim.simulatedSeconds(),
                s.sim.scriptFinished() ? " (finished)" : "");
  }
  if (ImGui::TreeNode("parameters")) {
    bool changed = false;
    for (const ControllerParamInfo& info : controllerParamInfos()) {
      if (info.isInteger) continue;  // the octree's own sliders above cover those
      float* value = &(s.params.*(info.member));
      char label[64];
      std::snprintf(label, sizeof label, "%s (%s)", info.name, info.unit);
      const float before = *value;
      if (ImGui::SliderFloat(label, value, info.minValue, info.maxValue, "%.3f")) {
        ControllerParams trial = s.params;
        std::string error;
        if (validateParams(trial, &error)) {
          changed = true;
        } else {
          *value = before;  // keep the parameters consistent (e.g. crouch <= height)
          s.statusLine = error;
        }
      }
      helpMarker(info.help);
    }
    if (changed) {
      c.setParams(s.params);
      s.clock.setTickHz(s.params.tickHz);
    }
    ImGui::TreePop();
  }
}

void overlayPanel(DemoState& s) {
  if (!ImGui::CollapsingHeader("Visualization", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::Checkbox("octree boxes (O)", &s.overlay.show);
  ImGui::SameLine();
  ImGui::Checkbox("wireframe (T)", &s.wireframe);
  const int deepest = static_cast<int>(s.session->octreeReport.depth);
  ImGui::DragIntRange2("depths", &s.overlay.minDepth, &s.overlay.maxDepth, 0.1f, 0, deepest,
                       "from %d", "to %d");
  helpMarker("Only nodes at these depths are drawn; [ and ] move the range.");
  ImGui::Checkbox("only nodes in view", &s.overlay.visibleOnly);
  ImGui::SameLine();
  ImGui::Checkbox("leaves only", &s.overlay.leavesOnly);
  ImGui::Checkbox("only what the character's queries touched (Q)", &s.overlay.queryNodes);
  helpMarker("The octree nodes this frame's controller queries entered (boxes by depth) and "
             "the triangles in them that were tested (magenta).");
  if (s.overlay.queryNodes) {
    ImGui::Text("%u node entries this frame, %zu distinct nodes shown", s.queryTrace.entered,
                s.shownQueryNodes.size());
  }
  ImGui::Text("%zu lines", s.lines.lineCount());
}

void loaderPanel(DemoState& s) {
  if (!ImGui::CollapsingHeader("Level")) return;
  ImGui::TextWrapped("%s", s.session->level.path.c_str());
  ImGui::InputText("path", s.pathField.data(), s.pathField.size());
  ImGui::SameLine();
  if (ImGui::Button("Load")) requestLevelLoad(s, s.pathField.data());
  helpMarker("Any file Assimp reads. You can also drop a file onto the window.");
  if (!s.assetLevels.empty() && ImGui::TreeNode("assets/")) {
    for (const std::string& p : s.assetLevels) {
      if (ImGui::Selectable(std::filesystem::path(p).filename().string().c_str())) {
        requestLevelLoad(s, p);
      }
    }
    ImGui::TreePop();
  }
  if (!s.recentFiles.empty() && ImGui::TreeNode("recent")) {
    for (const std::string& p : s.recentFiles) {
      if (ImGui::Selectable(p.c_str())) requestLevelLoad(s, p);
    }
    ImGui::TreePop();
  }
  for (const std::string& w : s.loadWarnings) ImGui::TextDisabled("warning: %s", w.c_str());
}

}  // namespace

void drawPanel(DemoState& s) {
  if (!s.showPanel || !s.session) return;
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(450, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("octree-fps", &s.showPanel);
  framePanel(s);
  if (s.loader.busy()) {
    ImGui::ProgressBar(s.loader.progress(), ImVec2(-1, 0), s.loader.stage());
    ImGui::TextWrapped("loading %s", s.loader.path().c_str());
  }
  if (!s.loadError.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("load failed, kept the current level: %s", s.loadError.c_str());
    ImGui::PopStyleColor();
  }
  octreePanel(s);
  cullingPanel(s);
  controllerPanel(s);
  propsPanel(s);
  overlayPanel(s);
  loaderPanel(s);
  ImGui::Separator();
  if (ImGui::Button("Screenshot (F12)")) s.screenshotRequested = true;
  if (!s.statusLine.empty()) ImGui::TextWrapped("%s", s.statusLine.c_str());
  ImGui::TextDisabled("WASD move  Space jump  Shift sprint  Ctrl crouch  F fly  R respawn");
  ImGui::TextDisabled("click: mouse look, then throw  Tab/Esc release  G spawn N props");
  ImGui::TextDisabled("O octree  [ ] depths  Q query nodes  C cull");
  ImGui::TextDisabled("V freeze frustum  T wireframe  H panel  F12 screenshot  Esc quit");
  ImGui::End();
}

}  // namespace ofps::app
