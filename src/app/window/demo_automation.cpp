// What a windowed run does by itself, for scripted checks and CI: the level swap after frame 5
// (--swap-to), the frame limit (--frames), the trace files when a script ends, the screenshot
// of the last frame (--screenshot) or of F12, and the files written when the run ends (--props,
// --stats-json).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>
#include <vector>

#include "app/simulation/stats_json.h"
#include "app/window/demo_parts.h"
#include "render/gl_debug.h"
#include "render/screenshot.h"

namespace ofps::app {
namespace {

// The frame after which --swap-to starts its load: late enough that the first level has been
// drawn, early enough for a short --frames run.
constexpr int kSwapFrame = 5;

std::string timestampedScreenshotPath() {
  const std::time_t now = std::time(nullptr);
  char name[64];
  std::strftime(name, sizeof name, "octree-fps-%Y%m%d-%H%M%S.png", std::localtime(&now));
  std::error_code ec;
  std::filesystem::create_directories("screenshots", ec);
  return std::string("screenshots/") + name;
}

nlohmann::json cullingStats(const DemoState& s) {
  const CullStats& c = s.culling.stats;
  return {{"enabled", s.culling.enabled},
          {"frozen", s.culling.frozen},
          {"nodes_visited", c.nodesVisited},
          {"nodes_total", s.level.session->octree.nodeCount()},
          {"plane_tests", c.planeTests},
          {"ranges_drawn", s.culling.runs.first.size()},
          {"triangles_drawn", s.culling.runs.triangles},
          {"triangles_total", s.level.session->drawRanges.drawnTriangles()},
          {"draw_calls", s.gpu.renderer.drawCallsLastFrame()},
          {"occlusion",
           occlusionStats(s.culling.enabled && s.occlusion.enabled, s.occlusion.temporalCoherence,
                          s.occlusion.workBudget, s.occlusion.stats, s.occlusion.propsOccluded,
                          s.occlusion.propsStats, s.occlusion.cpuMs)}};
}

// The q-quantile (nearest rank) of the frame times still in the panel's graph (the last 240
// frames, fewer in a short run).
double recentFramePercentile(const FrameState& f, double q) {
  const size_t n = std::min(f.frameIndex, f.frameMs.size());
  if (n == 0) return 0.0;
  std::vector<float> ms(f.frameMs.begin(), f.frameMs.begin() + static_cast<std::ptrdiff_t>(n));
  const size_t rank =
      std::min(n - 1, static_cast<size_t>(std::ceil(q * static_cast<double>(n))) - 1);
  std::nth_element(ms.begin(), ms.begin() + static_cast<std::ptrdiff_t>(rank), ms.end());
  return ms[rank];
}

}  // namespace

bool endOfFrame(DemoState& s, int* ioStatus) {
  const DemoOptions& options = s.options;
  const int frame = s.frame.count;
  std::string error;
  if (frame == kSwapFrame && !options.swapTo.empty()) requestLevelLoad(s, options.swapTo);
  size_t& more = s.automation.swapsMoreStarted;
  if (frame > kSwapFrame && more < options.swapMore.size() && !s.level.loader.busy()) {
    requestLevelLoad(s, options.swapMore[more++]);
  }
  // A frame limit waits for the requested swaps to finish, so the run reports their outcome.
  bool lastFrame = options.frames > 0 && frame >= options.frames && !s.level.loader.busy() &&
                   more == options.swapMore.size();
  if (s.sim.scriptFinished() && !s.automation.scriptWritten) {
    // The script is over: write its trace; without --frames the demo quits here.
    s.automation.scriptWritten = true;
    if ((!options.tracePath.empty() &&
         !writeTextFile(options.tracePath, s.sim.traceCsv(), &error)) ||
        (!options.propsTracePath.empty() &&
         !writeTextFile(options.propsTracePath, s.sim.propsTraceCsv(), &error))) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      *ioStatus = 1;
    }
    if (options.frames == 0) lastFrame = true;
  }
  if (s.ui.screenshotRequested || (lastFrame && !options.screenshotPath.empty())) {
    const std::string path = (lastFrame && !options.screenshotPath.empty())
                                 ? options.screenshotPath
                                 : timestampedScreenshotPath();
    if (gl::writeScreenshotPng(path, s.frame.width, s.frame.height, &error)) {
      std::fprintf(stderr, "screenshot written to %s\n", path.c_str());
      s.ui.statusLine = "screenshot: " + path;
    } else {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      s.ui.statusLine = error;
      if (lastFrame) *ioStatus = 1;
    }
    s.ui.screenshotRequested = false;
  }
  return lastFrame;
}

int writeRunOutputs(const DemoState& s, int status) {
  const DemoOptions& options = s.options;
  std::string error;
  if (!options.swapTo.empty() && s.automation.loadsFailed > 0) {
    const size_t requested = 1 + options.swapMore.size();
    std::fprintf(
        stderr,
        "error: %zu of %zu level load%s failed (--swap-to; each kept the level before it)\n",
        s.automation.loadsFailed, requested, requested == 1 ? "" : "s");
    status = std::max(status, 1);
  }
  if (!options.propsPath.empty() && s.level.session &&
      !writeTextFile(options.propsPath, s.sim.propsCsv(), &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    status = 1;
  }
  if (options.statsJsonPath.empty() || !s.level.session) return status;
  if (!writeStatsJson(options.statsJsonPath, runStatsJson(s), &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    status = 1;
  }
  return status;
}

nlohmann::json runStatsJson(const DemoState& s) {
  if (!s.level.session) return nlohmann::json::object();
  const int frames = s.frame.count;
  nlohmann::json stats;
  stats["level"] = levelStats(*s.level.session);
  stats["level"]["load_error"] = s.level.loadError;  // the last failed load, until one succeeds
  stats["octree"] = octreeStats(*s.level.session);
  stats["culling"] = cullingStats(s);
  stats["controller"] = controllerStats(s.sim.controller(), s.sim.steps(), s.sim.simulatedSeconds(),
                                        s.level.session->level.origin);
  stats["controller"]["jumps"] = s.sim.jumps();
  PropsCullFrame propsFrame;
  propsFrame.visible = static_cast<uint32_t>(s.props.visibleIds.size());
  propsFrame.cull = s.props.cullStats;
  stats["props"] = propsStats(s.sim.props(), &propsFrame);
  stats["camera"] =
      cameraStats(glm::dvec3(s.camera.position) + s.level.session->level.origin, s.camera.yaw,
                  s.camera.pitch, s.camera.verticalFovRadians, s.frame.lastAspect,
                  s.camera.nearPlane, s.camera.farPlane, s.camera.forward());
  if (s.props.teamsMode) {
    const TeamsFrameStats& t = s.props.teams.lastStats();
    stats["teams"] = {{"per_team", s.props.teams.params().perTeam},
                      {"radius", s.props.teams.params().radius},
                      {"cell_size", s.props.teams.params().cellSize},
                      {"cells_visited", t.grid.cellsVisited},
                      {"candidates", t.grid.candidates},
                      {"hits", t.grid.hits},
                      {"brute_force_checks", t.grid.bruteForceChecks},
                      {"enemy_pairs_in_range", t.enemyPairsInRange}};
  }
  // The panel's editable state a test types into (tests/app/check_input.py).
  stats["ui"] = {{"path_field", std::string(s.level.pathField.data())}};
  stats["probe"] = probeStats(s.probe, s.level.session->level.origin);
  stats["view"] = viewStats(s);
  stats["run"] = {{"mode", "window"},
                  {"frames", frames},
                  {"mean_frame_ms", frames > 0 ? s.frame.totalMs / frames : 0.0},
                  {"max_frame_ms", s.frame.maxMs},
                  {"p95_frame_ms_recent", recentFramePercentile(s.frame, 0.95)},
                  {"cpu_frame_ms", s.frame.lastCpuFrameMs},
                  {"mean_cpu_frame_ms", frames > 0 ? s.frame.totalCpuFrameMs / frames : 0.0},
                  {"gl_errors", gl::errorCount()},
                  {"last_load_error", s.level.loadError}};
  return stats;
}

}  // namespace ofps::app
