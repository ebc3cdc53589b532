// The windowed demo's level: loading (the first level, the loader's background loads), adopting
// a loaded session (GL upload, camera, UI lists), placing the character, and rebuilding the
// octree when params.octree changes.
#include <algorithm>
#include <cstdio>
#include <glm/geometric.hpp>

#include "app/demo_parts.h"
#include "app/recent_files.h"

namespace ofps::app {
namespace {

constexpr float kDegToRad = 3.14159265358979f / 180.0f;

}  // namespace

void placeCharacter(DemoState& s, bool useOptionCamera) {
  const Level& level = s.level.session->level;
  const float diagonal = glm::length(level.boundsMax - level.boundsMin);
  s.camera.farPlane = std::max(100.0f, diagonal * 2.0f);
  s.sim.reset(*s.level.session, s.params);
  CharacterController& c = s.sim.controller();
  s.camera.yaw = s.level.session->spawnYaw;
  s.camera.pitch = 0.0f;
  if (useOptionCamera && s.options.camera) {
    s.camera.yaw = s.options.camera->yawDegrees * kDegToRad;
    s.camera.pitch = s.options.camera->pitchDegrees * kDegToRad;
    c.setFlying(true);
    c.teleport(s.options.camera->position - glm::vec3(0.0f, s.params.controller.eyeHeight, 0.0f),
               s.camera.yaw);
  }
  s.camera.position = c.eye();
  s.frame.clock = FixedStep(s.params.controller.tickHz);
}

void adoptSession(DemoState& s, std::unique_ptr<LevelSession> session, bool useOptionCamera) {
  s.level.session = std::move(session);
  LevelSession& l = *s.level.session;
  s.gpu.renderer.upload(l.level);
  s.gpu.renderer.setDrawOrder(l.level, l.drawRanges.drawOrder());
  resetOverlays(s);
  placeCharacter(s, useOptionCamera);
  s.sim.props().linkToLevel(l.octree);  // props cells to the new level's nodes
  resetTeams(s);
  forgetProbe(s.probe);
  rememberRecentFile(s.level.recentFiles, l.level.path);
  std::snprintf(s.level.pathField.data(), s.level.pathField.size(), "%s", l.level.path.c_str());
}

void pollLoader(DemoState& s) {
  auto result = s.level.loader.take();
  if (!result) return;
  s.level.loadWarnings = std::move(result->warnings);
  if (!result->session) {
    // A failed load keeps the current level; the error stays on screen until the next load.
    s.level.loadError = result->error;
    std::fprintf(stderr, "error: %s (kept %s)\n", result->error.c_str(),
                 s.level.session ? s.level.session->level.path.c_str() : "nothing");
    return;
  }
  s.level.loadError.clear();
  adoptSession(s, std::move(result->session), false);
}

void requestLevelLoad(DemoState& s, const std::string& path) {
  if (path.empty()) return;
  if (!s.level.loader.start(path, s.options, s.params.octree)) {
    s.ui.statusLine = "a level is already loading";
    return;
  }
  s.level.loadError.clear();
  s.ui.statusLine.clear();
}

void applyOctreeParams(DemoState& s) {
  std::string error;
  LevelSession& l = *s.level.session;
  if (!l.rebuildOctree(s.params.octree, &error)) {
    s.ui.statusLine = error;
    return;
  }
  s.gpu.renderer.setDrawOrder(l.level, l.drawRanges.drawOrder());
  s.sim.props().linkToLevel(l.octree);  // new nodes: relink every props cell
  refreshProbe(s);
  resetOverlays(s);
}

}  // namespace ofps::app
