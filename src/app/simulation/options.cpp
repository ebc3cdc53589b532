#include "app/simulation/options.h"

#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "octree_fps/culling/occlusion_cull.h"

namespace ofps::app {

std::string defaultLevelPath() {
  if (const char* env = std::getenv("OCTREE_FPS_ASSET_DIR"); env != nullptr && *env != '\0') {
    return std::string(env) + "/arena.glb";
  }
  return std::string(OCTREE_FPS_ASSET_DIR) + "/arena.glb";
}

namespace {

bool parseCamera(const std::string& text, CameraPose* outPose, std::string* outError) {
  std::vector<float> v;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    char* end = nullptr;
    const float f = std::strtof(item.c_str(), &end);
    if (end == item.c_str() || *end != '\0' || !std::isfinite(f)) {
      *outError = "--camera: '" + item + "' is not a finite number";
      return false;
    }
    v.push_back(f);
  }
  if (v.size() != 3 && v.size() != 5) {
    *outError = "--camera wants X,Y,Z or X,Y,Z,YAW,PITCH (metres, degrees), got '" + text + "'";
    return false;
  }
  CameraPose pose;
  pose.position = {v[0], v[1], v[2]};
  if (v.size() == 5) {
    pose.yawDegrees = v[3];
    pose.pitchDegrees = v[4];
  }
  *outPose = pose;
  return true;
}

// --occlusion-budget: a whole number of work units (as OcclusionCullParams::workBudget; 0 is the
// frustum cull alone) or "none" (kOcclusionNoBudget).
bool parseOcclusionBudget(const std::string& text, uint32_t* outUnits, std::string* outError) {
  if (text == "none") {
    *outUnits = kOcclusionNoBudget;
    return true;
  }
  const bool digits = !text.empty() && text.size() <= 10 &&
                      text.find_first_not_of("0123456789") == std::string::npos;
  const unsigned long long v = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0ull;
  if (!digits || v >= kOcclusionNoBudget) {
    *outError = "--occlusion-budget wants a whole number of work units from 0 to " +
                std::to_string(kOcclusionNoBudget - 1) + " (e.g. 600000) or 'none', got '" + text +
                "'";
    return false;
  }
  *outUnits = static_cast<uint32_t>(v);
  return true;
}

// A whole number from lo to hi. CLI::Range alone reports "Value abc not in range 0 to 100" for a
// value that is not a number at all; this says which of the two is wrong and quotes the value.
CLI::Validator wholeNumberIn(long long lo, long long hi) {
  const std::string range = std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [lo, hi, range](std::string& text) {
        const size_t sign = !text.empty() && text[0] == '-' ? 1 : 0;
        const bool digits =
            text.size() > sign && text.find_first_not_of("0123456789", sign) == std::string::npos;
        if (!digits) return "wants a whole number from " + range + ", got '" + text + "'";
        // More than 18 digits is beyond every range here (and beyond what strtoll can hold).
        const bool inRange = text.size() - sign <= 18 && [&] {
          const long long v = std::strtoll(text.c_str(), nullptr, 10);
          return v >= lo && v <= hi;
        }();
        if (!inRange) return "must lie from " + range + ", got " + text;
        return std::string();
      },
      "INT in [" + std::to_string(lo) + " - " + std::to_string(hi) + "]");
}

}  // namespace

std::optional<DemoOptions> parseOptions(int argc, char** argv, int* exitCode) {
  DemoOptions o;
  CLI::App cli{
      "octree_demo: walk a level whose collision and culling are done by a static triangle "
      "octree.\nLEVEL is any file Assimp reads (glTF/GLB, OBJ, FBX, DAE, ...)."};
  // Options are --name everywhere: on Windows CLI11 would also read "/name" as an option,
  // which takes an absolute POSIX path (Wine, MSYS) for one.
  cli.allow_windows_style_options(false);
  // CLI11's "X was given a disallowed flag override" for "--no-occlusion=false" and the like says
  // what to do instead; every other message is CLI11's own.
  cli.failure_message([](const CLI::App* app, const CLI::Error& e) {
    const std::string what = e.what();
    const std::string tail = " was given a disallowed flag override";
    if (what.size() > tail.size() &&
        what.compare(what.size() - tail.size(), tail.size(), tail) == 0) {
      const std::string flag = "--" + what.substr(0, what.size() - tail.size());
      return "error: " + flag + " takes no value: give " + flag + " alone, or leave it out\n";
    }
    return CLI::FailureMessage::simple(app, e);
  });
  cli.add_option("level", o.levelPath, "Level file to load (default: the bundled arena)");
  cli.add_option("--frames", o.frames, "Quit after N frames (0: run until closed)")
      ->check(wholeNumberIn(0, 100000000));
  cli.add_option("--screenshot", o.screenshotPath, "Write the last frame to this PNG file");
  cli.add_option("--stats-json", o.statsJsonPath, "Write level/octree/culling statistics as JSON");
  cli.add_flag("--headless", o.headless, "No window and no OpenGL: load, simulate, report");
  cli.add_option("--width", o.width, "Window width in pixels")->check(wholeNumberIn(64, 16384));
  cli.add_option("--height", o.height, "Window height in pixels")->check(wholeNumberIn(64, 16384));
  bool noVsync = false;
  cli.add_flag("--no-vsync", noVsync, "Do not wait for the display's refresh");
  cli.add_option("--max-fps", o.maxFps,
                 "Cap the frame rate at N frames per second by sleeping (0: no cap); shows how "
                 "the demo behaves on a slow machine")
      ->check(wholeNumberIn(0, 10000));
  std::string up;
  cli.add_option("--up", up, "The file's up axis, overriding file metadata and import settings")
      ->check(CLI::IsMember({"y", "z"}));
  float scale = 0.0f;
  const CLI::Validator positiveFinite(
      [](std::string& text) {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (end == text.c_str() || *end != '\0' || !std::isfinite(v) || v <= 0.0 || v > 1e6) {
          return "must be a positive number of metres per file unit (e.g. 0.0254), got '" + text +
                 "'";
        }
        return std::string();
      },
      "S>0");
  auto* scaleOpt = cli.add_option("--scale", scale, "Metres per file unit (e.g. 0.0254 for inches)")
                       ->check(positiveFinite);
  cli.add_flag("--all-solid", o.allSolid,
               "Ignore nocollide/UCX_ naming: every triangle collides and is drawn");
  uint64_t memoryBudgetMb = 0;
  auto* budgetOpt =
      cli.add_option("--memory-budget-mb", memoryBudgetMb,
                     "Refuse levels whose estimated loading memory exceeds N MB (default: half"
                     " the physical memory)")
          ->check(wholeNumberIn(1, 1ll << 30));
  std::string camera;
  cli.add_option("--camera", camera, "Start camera X,Y,Z[,YAW,PITCH] (metres, degrees)");
  std::string overlay;
  cli.add_option("--octree-overlay", overlay, "Show octree boxes of depths MIN:MAX (e.g. 2:5)");
  cli.add_flag("--no-panel", o.hidePanel, "Hide the ImGui panel (H toggles it)");
  bool noOcclusion = false;
  // A plain switch: "--no-occlusion=off" would read as a double negative, so it takes no value.
  cli.add_flag("--no-occlusion", noOcclusion,
               "Start with occlusion culling off: draw everything in the frustum (X toggles it)")
      ->disable_flag_override();
  bool noCoherence = false;
  cli.add_flag("--no-temporal-coherence", noCoherence,
               "Occlusion culling without frame-to-frame coherence: every node and triangle tested "
               "every frame (the panel toggles it)")
      ->disable_flag_override();
  bool noViewSmoothing = false;
  cli.add_flag("--no-view-smoothing", noViewSmoothing,
               "The camera at the capsule's eye exactly: no smoothing over stair steps (the panel "
               "toggles it; traces always report the capsule)")
      ->disable_flag_override();
  std::string occlusionBudget;
  cli.add_option("--occlusion-budget", occlusionBudget,
                 "Work budget of the occlusion pass, in units of about a nanosecond on the "
                 "reference machine (default 600000): past three quarters of it box tests only, "
                 "past all of it the frustum cull; 'none': no budget; 0: the frustum cull alone")
      ->type_name("UNITS|none");
  cli.add_flag("--no-settings", o.noSettings,
               "Neither read nor write the saved view settings (also: OCTREE_FPS_NO_SETTINGS=1)");
  std::vector<std::string> swaps;
  cli.add_option("--swap-to", swaps,
                 "After frame 5, load this level in the background as the UI's loader does "
                 "(a failed load keeps the current level); given again, each further level "
                 "loads once the one before has finished")
      ->take_all()
      ->allow_extra_args(false);
  cli.add_option("--probe", o.probeShape,
                 "Start in probe mode (P) with this probe: a click casts a ray or places the shape")
      ->check(CLI::IsMember({"ray", "sphere", "capsule", "box"}));
  cli.add_flag("--no-octree-overlay", o.noOctreeOverlay,
               "Start without the octree boxes (O), which are on at first start");
  cli.add_flag("--query-overlay", o.queryOverlay,
               "Start showing the nodes and triangles the character's queries touch (Q)");
  cli.add_option(
      "--script", o.scriptPath,
      "Drive the character with an input script (docs/script-format.md); quits at its end");
  cli.add_option("--trace", o.tracePath, "Write the character's state after every step (CSV)");
  cli.add_option("--spawn-props", o.spawnProps,
                 "Spawn N random props over the level at start (after a script's placed props)")
      ->check(wholeNumberIn(0, 100000));
  cli.add_flag("--teams", o.teams,
               "Start the two-teams mode (enemies within R: grid vs brute force)");
  cli.add_option("--props", o.propsPath, "Write every prop's final state at the end (CSV)");
  cli.add_option("--props-trace", o.propsTracePath,
                 "Write every prop's position after every step (CSV; needs --script)");

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = cli.exit(e);
    *exitCode = code == 0 ? 0 : 2;
    return std::nullopt;
  }
  if (!swaps.empty()) {
    o.swapTo = swaps.front();
    o.swapMore.assign(swaps.begin() + 1, swaps.end());
  }
  o.vsync = !noVsync;
  o.occlusion = !noOcclusion;
  o.temporalCoherence = !noCoherence;
  o.viewSmoothing = !noViewSmoothing;
  if (!occlusionBudget.empty()) {
    std::string error;
    uint32_t units = 0;
    if (parseOcclusionBudget(occlusionBudget, &units, &error)) {
      o.occlusionBudget = units;
    } else {
      std::fprintf(stderr, "octree_demo: %s\n", error.c_str());
      *exitCode = 2;
      return std::nullopt;
    }
  }
  if (!up.empty()) o.upAxis = up[0];
  if (budgetOpt->count() > 0) o.memoryBudgetMb = memoryBudgetMb;
  if (scaleOpt->count() > 0) {
    if (!std::isfinite(scale)) {
      std::fprintf(stderr, "octree_demo: --scale must be a finite positive number\n");
      *exitCode = 2;
      return std::nullopt;
    }
    o.scale = scale;
  }
  if (!camera.empty()) {
    std::string error;
    CameraPose pose;
    if (parseCamera(camera, &pose, &error)) {
      o.camera = pose;
    } else {
      std::fprintf(stderr, "octree_demo: %s\n", error.c_str());
      *exitCode = 2;
      return std::nullopt;
    }
  }
  if (!overlay.empty()) {
    int lo = -1, hi = -1;
    char tail = 0;
    if (std::sscanf(overlay.c_str(), "%d:%d%c", &lo, &hi, &tail) != 2 || lo < 0 || hi < lo) {
      std::fprintf(
          stderr,
          "octree_demo: --octree-overlay wants MIN:MAX depths with 0 <= MIN <= MAX, got '%s'\n",
          overlay.c_str());
      *exitCode = 2;
      return std::nullopt;
    }
    o.overlayDepths = std::make_pair(lo, hi);
  }
  if ((!o.tracePath.empty() || !o.propsTracePath.empty()) && o.scriptPath.empty()) {
    std::fprintf(stderr,
                 "octree_demo: --trace and --props-trace need --script (they record a scripted "
                 "run)\n");
    *exitCode = 2;
    return std::nullopt;
  }
  if (o.levelPath.empty()) o.levelPath = defaultLevelPath();
  return o;
}

}  // namespace ofps::app
