// The windowed demo's level: loading (the first level, the loader's background loads), adopting
// a loaded session (GL upload, camera, UI lists), placing the character, and rebuilding the
// octree when params.octree changes.
#include <glad/gl.h>
// glad must come before GLFW so GLFW does not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <glm/geometric.hpp>

#include "app/settings/recent_files.h"
#include "app/window/demo_parts.h"
#include "octree_fps/geometry/scalar_inl.h"

namespace ofps::app {
namespace {

// The toast of a successful load: the level, how its frame was decided, its warnings' count.
void showLoadedToast(DemoState& s) {
  const LevelSession& l = *s.level.session;
  std::string detail = frameSummary(l.level);
  const glm::dvec3 o = l.level.origin;
  if (o != glm::dvec3(0.0)) {
    char buf[160];
    std::snprintf(buf, sizeof buf,
                  "\nfar from the origin: local frame, origin offset (%.0f, %.0f, %.0f) m", o.x,
                  o.y, o.z);
    detail += buf;
  }
  if (!l.warnings.empty()) {
    detail += "\n" + std::to_string(l.warnings.size()) +
              (l.warnings.size() == 1 ? " warning" : " warnings") + " in the Level section";
  }
  showToast(s.ui.toast, Toast::Kind::Success,
            "Loaded " + std::filesystem::path(l.level.path).filename().string(), detail,
            ImGui::GetTime());
}

}  // namespace

void placeCharacter(DemoState& s, bool useOptionCamera) {
  const Level& level = s.level.session->level;
  const float diagonal = glm::length(level.boundsMax - level.boundsMin);
  s.camera.farPlane = std::max(100.0f, diagonal * 2.0f);
  s.sim.reset(*s.level.session, s.params);
  CharacterController& c = s.sim.controller();
  // reset() set the view to the spawn's yaw and a level pitch; --camera sets its own.
  if (useOptionCamera && s.options.camera) {
    s.sim.setView(s.options.camera->yawDegrees * kDegToRad,
                  s.options.camera->pitchDegrees * kDegToRad);
    c.setFlying(true);
    // --camera is in the level file's coordinates; the level may sit in a local frame.
    const glm::vec3 eye(glm::dvec3(s.options.camera->position) - level.origin);
    c.teleport(eye - glm::vec3(0.0f, s.params.controller.eyeHeight, 0.0f), s.sim.viewYaw());
  }
  s.camera.yaw = s.sim.viewYaw();
  s.camera.pitch = s.sim.viewPitch();
  s.camera.position = c.eye();
  s.frame.clock = FixedStep(s.params.controller.tickHz);
}

// The Level section's controls show how the level was loaded: a frame the user chose (options,
// remembered settings) as that choice, one from the file or the guess as auto, so Reload
// without touching them loads the level the same way.
void syncFrameControls(LevelState& ls) {
  const LevelImportFrame& f = ls.session->level.frame;
  auto chosen = [](const std::string& source) {
    return source.rfind("options", 0) == 0 || source.rfind("settings", 0) == 0;
  };
  ls.upChoice = chosen(f.upSource) ? (f.upAxis == 'z' ? 2 : 1) : 0;
  ls.scaleChoice = 0;
  if (chosen(f.scaleSource)) {
    ls.scaleChoice = f.scale == 1.0f ? 1 : f.scale == 0.01f ? 2 : f.scale == 0.0254f ? 3 : 4;
    ls.customScale = f.scale;
  }
}

void adoptSession(DemoState& s, std::unique_ptr<LevelSession> session, bool useOptionCamera) {
  s.level.session = std::move(session);
  LevelSession& l = *s.level.session;
  s.gpu.renderer.upload(l.level);
  s.gpu.renderer.setDrawOrder(l.level, l.drawRanges.drawOrder());
  resetOverlays(s);
  placeCharacter(s, useOptionCamera);
  resetTeams(s);
  forgetProbe(s.probe);
  rememberRecentFile(s.level.recentFiles, l.level.path, savesForUser(s));
  std::snprintf(s.level.pathField.data(), s.level.pathField.size(), "%s", l.level.path.c_str());
  syncFrameControls(s.level);
  // The window's title names the level, as a task bar or window list shows it.
  const std::string title =
      "octree-fps: " + std::filesystem::path(l.level.path).filename().string();
  if (s.input.window != nullptr) glfwSetWindowTitle(s.input.window, title.c_str());
  // The first level's guessed frame is said on the view too, not only on stderr.
  if (useOptionCamera && l.level.frame.guessed) showLoadedToast(s);
}

void reportLoadFailure(DemoState& s, const std::string& error, std::vector<std::string> warnings) {
  // A failed load keeps the current level and its warnings; the error stays beside the Load
  // button and on the view until the next successful load.
  s.level.loadError = error;
  ++s.automation.loadsFailed;
  s.level.failedLoadWarnings = std::move(warnings);
  s.level.revealSection = true;
  const std::string kept = s.level.session ? s.level.session->level.path : "nothing";
  std::fprintf(stderr, "error: %s (kept %s)\n", error.c_str(), kept.c_str());
  showToast(s.ui.toast, Toast::Kind::Error,
            "Load failed, kept " + std::filesystem::path(kept).filename().string(), error,
            ImGui::GetTime());
}

void pollLoader(DemoState& s) {
  auto result = s.level.loader.take();
  if (!result) return;
  if (!result->ok) {
    reportLoadFailure(s, result->error, std::move(result->warnings));
    return;
  }
  s.level.loadError.clear();
  s.level.failedLoadWarnings.clear();
  adoptSession(s, std::move(result->session), false);
  showLoadedToast(s);
}

void requestLevelLoad(DemoState& s, const std::string& path,
                      const std::optional<FrameChoice>& reimport) {
  if (path.empty()) return;
  if (!s.level.loader.start(path, s.options, s.params.octree, reimport)) {
    s.ui.statusLine = "a level is already loading";
    return;
  }
  // The last error stays until a load succeeds: this one may fail the same way.
  s.level.revealSection = true;
  s.ui.statusLine.clear();
}

void drawLevelToast(DemoState& s) {
  std::optional<ToastProgress> progress;
  if (s.level.loader.busy()) {
    progress =
        ToastProgress{s.level.loader.progress(), s.level.loader.stage(), s.level.loader.path()};
  }
  drawToast(s.ui.toast, ImGui::GetTime(), progress ? &*progress : nullptr, s.ui.panelRight);
  s.ui.panelRight = 0.0f;  // the panel sets it again when it is drawn
}

void applyOctreeParams(DemoState& s) {
  std::string error;
  LevelSession& l = *s.level.session;
  if (!l.rebuildOctree(s.params.octree, &error)) {
    s.ui.statusLine = error;
    return;
  }
  s.gpu.renderer.setDrawOrder(l.level, l.drawRanges.drawOrder());
  refreshProbe(s);
  // The depth range drawn is the user's: kept when the new tree still reaches it.
  const int minDepth = s.overlay.minDepth, maxDepth = s.overlay.maxDepth;
  resetOverlays(s);
  if (maxDepth <= static_cast<int>(l.octreeReport.depth)) {
    s.overlay.minDepth = minDepth;
    s.overlay.maxDepth = maxDepth;
  }
}

}  // namespace ofps::app
