// The saved view settings (ui_settings.h) in the running demo: read at start, unless
// --no-settings or $OCTREE_FPS_NO_SETTINGS, with the command line winning over the file; written
// at exit, except by runs that end themselves (--frames, --script: tests, screenshots, replays),
// so automation never changes what a user finds next time.
#include <cstdio>
#include <cstdlib>

#include "app/window/demo_state.h"

namespace ofps::app {
namespace {

// The command line's word on a setting beats the file's, for this run only.
void applyCommandLine(const DemoOptions& o, UiSettings& u) {
  if (o.hidePanel) u.showPanel = false;
  if (!o.occlusion) u.occlusion = false;
  if (!o.temporalCoherence) u.temporalCoherence = false;
  if (!o.vsync) u.vsync = false;
  if (!o.viewSmoothing) u.smoothView = false;
  if (o.overlayDepths) u.octreeBoxes = true;
  if (o.noOctreeOverlay) u.octreeBoxes = false;
  if (o.queryOverlay) u.queryView = true;
}

// What to save for a setting the command line forced: the file's value, unless the user changed
// it during the run (then the change is what they chose).
void keepFileWhereForced(const DemoOptions& o, const UiSettings& atStart, const UiSettings& file,
                         UiSettings& u) {
  auto keep = [](bool forced, bool& now, bool started, bool fromFile) {
    if (forced && now == started) now = fromFile;
  };
  keep(o.hidePanel, u.showPanel, atStart.showPanel, file.showPanel);
  keep(!o.occlusion, u.occlusion, atStart.occlusion, file.occlusion);
  keep(!o.temporalCoherence, u.temporalCoherence, atStart.temporalCoherence,
       file.temporalCoherence);
  keep(!o.vsync, u.vsync, atStart.vsync, file.vsync);
  keep(!o.viewSmoothing, u.smoothView, atStart.smoothView, file.smoothView);
  keep(o.overlayDepths.has_value() || o.noOctreeOverlay, u.octreeBoxes, atStart.octreeBoxes,
       file.octreeBoxes);
  keep(o.queryOverlay, u.queryView, atStart.queryView, file.queryView);
}

}  // namespace

UiSettings currentUiSettings(const DemoState& s) {
  UiSettings u;
  u.showPanel = s.ui.showPanel;
  u.panelWidth = s.ui.panelWidth;
  u.octreeBoxes = s.overlay.show;
  u.octreeVisibleOnly = s.overlay.visibleOnly;
  u.octreeLeavesOnly = s.overlay.leavesOnly;
  u.queryView = s.overlay.queryNodes;
  u.gridView = s.grid.show;
  u.gridQuery = s.grid.showQuery;
  u.gridQueryRadius = s.grid.queryRadius;
  u.crosshair = s.ui.crosshair;
  u.wireframe = s.gpu.wireframe;
  u.culling = s.culling.enabled;
  u.occlusion = s.occlusion.enabled;
  u.temporalCoherence = s.occlusion.temporalCoherence;
  u.vsync = s.gpu.vsync;
  u.smoothView = s.sim.viewSmoothing();
  return u;
}

void applyUiSettings(DemoState& s, const UiSettings& u) {
  s.ui.showPanel = u.showPanel;
  s.ui.panelWidth = u.panelWidth;
  s.overlay.show = u.octreeBoxes;
  s.overlay.visibleOnly = u.octreeVisibleOnly;
  s.overlay.leavesOnly = u.octreeLeavesOnly;
  s.overlay.queryNodes = u.queryView;
  s.grid.show = u.gridView;
  s.grid.showQuery = u.gridQuery;
  s.grid.queryRadius = u.gridQueryRadius;
  s.ui.crosshair = u.crosshair;
  s.gpu.wireframe = u.wireframe;
  s.culling.enabled = u.culling;
  s.occlusion.enabled = u.occlusion;
  s.occlusion.temporalCoherence = u.temporalCoherence;
  s.gpu.vsync = u.vsync;
  s.sim.setViewSmoothing(u.smoothView);
}

void loadSettingsAtStart(DemoState& s) {
  SettingsState& st = s.ui.settings;
  const char* off = std::getenv(kNoSettingsEnv);
  st.enabled = !s.options.noSettings && (off == nullptr || *off == '\0');
  st.path = st.enabled ? settingsPath() : std::string();
  UiSettings u;
  if (!st.path.empty()) {
    std::string warning;
    u = loadUiSettings(st.path, &warning);
    if (!warning.empty()) std::fprintf(stderr, "warning: %s\n", warning.c_str());
  }
  st.file = u;
  applyCommandLine(s.options, u);
  st.atStart = u;
  applyUiSettings(s, u);
}

void resetUiSettings(DemoState& s) {
  UiSettings u;
  applyCommandLine(s.options, u);
  applyUiSettings(s, u);
  s.ui.panelResetPending = true;
}

bool savesForUser(const DemoState& s) {
  return s.ui.settings.enabled && s.options.frames == 0 && s.options.scriptPath.empty();
}

void saveSettingsAtExit(const DemoState& s) {
  const SettingsState& st = s.ui.settings;
  if (st.path.empty() || !savesForUser(s)) return;
  UiSettings u = currentUiSettings(s);
  keepFileWhereForced(s.options, st.atStart, st.file, u);
  std::string error;
  if (!saveUiSettings(st.path, u, &error)) std::fprintf(stderr, "warning: %s\n", error.c_str());
}

}  // namespace ofps::app
