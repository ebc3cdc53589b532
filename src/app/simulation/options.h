#pragma once
// Command-line options of octree_demo. Parsed with CLI11; `octree_demo --help` lists them.
#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ofps::app {

struct CameraPose {
  glm::vec3 position{0.0f};   // metres, world space
  float yawDegrees = 0.0f;    // 0 looks along -Z, 90 along -X
  float pitchDegrees = 0.0f;  // positive looks up
};

struct DemoOptions {
  std::string levelPath;       // empty = bundled default level
  int frames = 0;              // 0 = run until the window closes
  std::string screenshotPath;  // written after the last frame
  std::string statsJsonPath;
  bool headless = false;  // no window, no GL
  int width = 1280;
  int height = 720;
  bool vsync = true;
  int maxFps = 0;  // --max-fps N: sleep so frames start at most N times a second (0: no cap)
  std::optional<char> upAxis;  // --up y|z
  std::optional<float> scale;  // --scale S (metres per file unit)
  bool allSolid = false;
  std::optional<uint64_t> memoryBudgetMb;  // --memory-budget-mb N: the loader's budget (MB)
  std::optional<CameraPose> camera;        // --camera X,Y,Z,YAW,PITCH
  std::optional<std::pair<int, int>> overlayDepths;  // --octree-overlay MIN:MAX (shows boxes)
  bool hidePanel = false;                            // --no-panel
  bool noOctreeOverlay = false;  // --no-octree-overlay: start without the octree boxes (O)
  bool queryOverlay = false;     // --query-overlay: show what the character's queries touch
  std::string swapTo;            // --swap-to PATH: load PATH in the background after frame 5
  std::string scriptPath;        // --script FILE (docs/script-format.md)
  std::string tracePath;         // --trace OUT.csv
  std::string propsPath;         // --props OUT.csv: every prop's final state
  std::string propsTracePath;    // --props-trace OUT.csv: every prop after every step
  uint32_t spawnProps = 0;       // --spawn-props N: N random props over the level at start
  bool teams = false;            // --teams: start in the two-teams grid mode
  std::string probeShape;        // --probe ray|sphere|capsule|box: start in probe mode (P)
  bool occlusion = true;         // false with --no-occlusion: the frustum cull alone (X toggles)
  // false with --no-temporal-coherence: every occlusion pass starts afresh (the panel toggles)
  bool temporalCoherence = true;
  // false with --no-view-smoothing: the camera is the capsule's eye exactly, a step jumps it
  bool viewSmoothing = true;
  // --occlusion-budget UNITS|none: OcclusionCullParams::workBudget ("none": kOcclusionNoBudget);
  // unset, the default
  std::optional<uint32_t> occlusionBudget;
  bool noSettings = false;  // --no-settings: neither read nor write the saved view settings
  // Further --swap-to PATHs, each loaded once the one before has finished.
  std::vector<std::string> swapMore;
};

// Default level: assets/arena.glb from the source tree (or $OCTREE_FPS_ASSET_DIR).
std::string defaultLevelPath();

// Parses argv. Returns the options, or std::nullopt with *exitCode set (0 for --help,
// 2 for bad arguments, after CLI11 printed what is wrong).
std::optional<DemoOptions> parseOptions(int argc, char** argv, int* exitCode);

}  // namespace ofps::app
