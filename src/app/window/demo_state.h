#pragma once
// Everything the windowed demo owns, in one struct (no scattered globals), grouped by the part
// of the demo that changes it. Owned by runWindowed(); used from the main thread only.
//   level      the loaded level and the loader (demo_level.cpp)
//   params     the one copy of each parameter struct: controller, thrown props, octree build
//              (scripts and the panel's sliders both change these; demo_level.cpp and
//              demo_frame.cpp hand them on)
//   sim        the character and props simulation (demo_frame.cpp steps it)
//   input      the window (opened by demo_setup.cpp), mouse capture (demo_input.cpp)
//   camera, queries, culling, occlusion, props, overlay   what a frame computes and shows
//              (demo_frame.cpp, draw_lists.cpp, occlusion_pass.cpp, octree_overlay.cpp)
//   gpu        renderers and draw toggles (demo_setup.cpp creates, demo_frame.cpp draws)
//   frame      frame timing (demo_frame.cpp)
//   automation what --swap-to, --frames and --script's end remember (demo_automation.cpp)
//   ui         panel visibility, status line, screenshot request (the panel, the keys)
#include <array>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/panel/toast.h"
#include "app/settings/ui_settings.h"
#include "app/simulation/async_loader.h"
#include "app/simulation/level_session.h"
#include "app/simulation/options.h"
#include "app/simulation/simulation.h"
#include "app/tool/probe_tool.h"
#include "app/window/view_camera.h"
#include "octree_fps/controller/fixed_step.h"
#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/culling/frame_cull.h"
#include "octree_fps/culling/props_occlusion.h"
#include "render/image_texture.h"
#include "render/level_renderer.h"
#include "render/line_renderer.h"
#include "render/prop_renderer.h"
#include "scenario/param_table.h"
#include "scenario/teams_demo.h"

struct GLFWwindow;

namespace ofps::app {

struct LevelState {
  std::unique_ptr<LevelSession> session;
  AsyncLevelLoader loader;
  std::string loadError;  // last failed load, shown until the next successful one
  // The failed load's own warnings (the level's are session->warnings, kept with it).
  std::vector<std::string> failedLoadWarnings;
  bool revealSection = false;  // open and scroll to the Level section once (a load started/failed)
  // The Level section's up axis and scale controls (loader_panel.cpp), set from each adopted
  // level's frame: 0 = auto; up 1 = +Y, 2 = +Z; scale 1 m, 2 cm, 3 inch, 4 customScale.
  int upChoice = 0;
  int scaleChoice = 0;
  float customScale = 1.0f;
  std::vector<std::string> recentFiles;
  std::vector<std::string> assetLevels;
  std::array<char, 1024> pathField{};
  // The path field is being edited (loader_panel.cpp): it shows the whole path; otherwise its
  // end. focusPath: give it the keyboard next frame; editFrames: frames it has not been active.
  bool editingPath = false;
  bool focusPath = false;
  int editFrames = 0;
};

struct InputState {
  GLFWwindow* window = nullptr;
  bool mouseCaptured = false;
  bool firstMouse = true;
  double lastMouseX = 0.0, lastMouseY = 0.0;
  // Key taps (pressed and released between two polls), which polling the key state would miss
  // at a low frame rate (demo_input.cpp): keys pressed since the last poll, and the taps shown to
  // ImGui as held for one frame. GLFW key codes below 512 (ImGui 1.86's KeysDown size).
  std::array<uint8_t, 512> pressedSincePoll{};
  std::array<int, 16> taps{};
  int tapCount = 0;   // taps seen in the callback since the last poll
  int tapsShown = 0;  // of taps, those set down in ImGui for this frame
  // The demo's keys pressed since the last frame, acted on after its panel (applyKeyPresses).
  std::array<int, 16> keyPresses{};
  int keyPressCount = 0;
};

struct OctreeOverlay {
  bool show = true;  // O: draw node boxes (on at first start: the point of the demo)
  // Draw each node's cubic cell (as the tutorials draw an octree) instead of its tight bounds.
  bool cubicCells = false;
  int minDepth = 0;  // depth range drawn (root = 0)
  int maxDepth = 24;
  bool visibleOnly = true;  // only nodes the culling pass reached
  bool leavesOnly = false;
  bool queryNodes = false;              // Q: only the nodes and triangles this frame's character
                                        // queries touched
  std::vector<uint32_t> nodesPerDepth;  // of the current octree (the legend's counts)
  uint32_t boxesDrawn = 0;              // node boxes in this frame's overlay (O's toast)
};

// What the character's queries entered (the Q view).
struct QueryView {
  std::vector<uint32_t> traceNodes = std::vector<uint32_t>(8192);  // storage of trace
  QueryTrace trace;  // nodes the character's queries entered this frame
  // The last frame that ran queries (flying runs none: its record stays, so you can fly out
  // and look at it): unique node indices, sorted.
  std::vector<uint32_t> shownNodes;
  // Of that frame: the character's capsule (segment and radius) and the level triangles it
  // touched (original indices, sorted), drawn apart from the merely tested ones.
  glm::vec3 capsuleA{0.0f}, capsuleB{0.0f};
  float capsuleRadius = 0.0f;
  std::vector<uint32_t> contacts;
};

// The props' sparse hash grid made visible (grid_overlay.cpp): occupied cells coloured by
// occupancy, and the cells one radius query around the character's eye tests.
struct GridView {
  bool show = false;         // B: draw the grid's occupied cells
  bool showQuery = true;     // highlight the cells the radius query tests
  float queryRadius = 3.0f;  // m
  uint32_t cellsTested = 0, objectsTested = 0, hits = 0, bruteForce = 0;  // last frame's query
  uint32_t occupiedCells = 0, objects = 0;
  std::vector<uint32_t> queryCells;  // dense cell indices, reused
};

struct CullingView {
  bool enabled = true;  // C: cull through the octree (off: draw everything)
  bool frozen = false;  // V: keep culling with the frustum of the moment it was frozen
  glm::mat4 frozenViewProj{1.0f};
  glm::mat4 cullViewProj{1.0f};  // the frustum culled with this frame (frozen or live)
  CullStats stats;               // last frame
  DrawRunList runs;              // last frame, reused (no per-frame allocation)
};

// Occlusion culling through the octree (culling/occlusion_cull.h), on top of the frustum cull.
struct OcclusionView {
  bool enabled = true;     // X: draw what the occlusion cull keeps (off: the frustum's runs)
  bool showBuffer = true;  // the panel's view of the occlusion buffer
  // OcclusionCullParams::temporalCoherence: last frame's visible nodes and triangles drawn
  // without their tests (re-tested every few frames); the panel's checkbox
  bool temporalCoherence = true;
  // OcclusionCullParams::workBudget (kOcclusionNoBudget: none); the panel's checkbox and slider,
  // --occlusion-budget
  uint32_t workBudget = OcclusionCullParams{}.workBudget;
  OcclusionCullStats stats;               // last frame (all zero when off or culling is off)
  DrawRunList frustumRuns;                // last frame's frustum-only runs, when on
  DrawRunList occludedRuns;               // frustumRuns minus the drawn runs, while frozen (V)
  uint32_t propsTested = 0;               // props in the frustum tested against the buffer
  uint32_t propsOccluded = 0;             // of those, hidden (not drawn)
  std::vector<uint32_t> occludedPropIds;  // those props' ids, while frozen (V): drawn in red
  PropsOcclusionStats propsStats;         // the props' test: cells first (props_occlusion.h)
  std::vector<uint64_t> propsScratch;     // its grouping keys, reused
  double cpuMs = 0.0;                     // last frame's occlusion pass (level and props), wall ms
  std::vector<uint8_t> bufferRgba;        // the buffer's debug image, reused
};

struct PropsView {
  FrameCuller culler;                            // the level-and-props cull, with its links
  std::vector<uint32_t> visibleIds;              // this frame's props cull (ids)
  std::vector<gl::PropInstance> spheres, boxes;  // instance data, reused every frame
  PropsCullStats cullStats;                      // this frame's props cull (octree + grid)
  uint32_t drawCalls = 0;
  int spawnCount = 1000;  // the panel's "spawn N" amount
  uint64_t spawnSeed = 1;
  bool teamsMode = false;  // the grid tutorial's two teams
  TeamsDemo teams;
  float teamsCellSize = 2.0f;
  float teamsRadius = 2.0f;
  int teamsPerTeam = 1000;
  // The last cost-against-cell-size sweep (teams_plot.cpp), and the R and team size it was
  // measured with (a change measures again).
  std::vector<CellSizeCost> teamsCosts;
  float teamsCostsRadius = 0.0f;
  uint32_t teamsCostsPerTeam = 0;
};

struct GpuState {
  gl::LevelRenderer renderer;
  gl::LineRenderer lines;
  gl::PropRenderer propRenderer;
  gl::ImageTexture occlusionImage;  // the occlusion buffer, as the panel shows it
  bool wireframe = false;
  bool vsync = true;  // swap interval 1; the panel toggles it
  bool srgb = false;  // the framebuffer encodes sRGB on write
};

struct FrameState {
  FixedStep clock;  // fixed steps due for live input
  std::array<float, 240> frameMs{};
  size_t frameIndex = 0;
  int count = 0;                 // frames finished
  double totalMs = 0.0;          // their wall time
  double lastCpuFrameMs = 0.0;   // controller + culling + draw-list building, last frame
  double totalCpuFrameMs = 0.0;  // the same, summed over every frame
  float lastAspect = 1.0f;       // framebuffer width / height of the last frame (--stats-json)
  int width = 0, height = 0;     // framebuffer size, pixels, this frame
  double maxMs = 0.0;            // the longest frame so far, wall ms
};

// The last kFrames frames' work, for the panel's log-scale plots (work_panel.cpp). Raw counts;
// slot frame % kFrames.
struct WorkHistory {
  static constexpr size_t kFrames = 240;
  using Series = std::array<float, kFrames>;
  Series queryTriangles{}, queryNodes{}, queryBrute{};     // the character's last step
  Series cullNodes{}, cullPlaneTests{}, cullBruteNodes{};  // the level's frustum cull
  Series trianglesDrawn{}, trianglesTotal{};
  size_t next = 0;    // slot of the next sample
  size_t filled = 0;  // samples stored, up to kFrames
};

// What the run's automation (demo_automation.cpp) remembers between frames.
struct AutomationState {
  bool scriptWritten = false;  // --trace written once the script finished
  // How many of options.swapMore have been started.
  size_t swapsMoreStarted = 0;
  // Loads that failed during the run (each kept the level before it); with --swap-to the run
  // then ends with status 1, so a scripted check of level swapping sees the failure.
  size_t loadsFailed = 0;
};

// The saved view settings (ui_settings_apply.cpp).
struct SettingsState {
  bool enabled = false;  // false: --no-settings or $OCTREE_FPS_NO_SETTINGS
  std::string path;      // the file; empty: nothing read or written
  UiSettings file;       // as read from the file (defaults when there was none)
  UiSettings atStart;    // the file's, with the command line's overrides: what the run began with
};

// What a key toggled, for its toast (toggle_notes.cpp).
enum class ToggleNote {
  None,
  Culling,
  Occlusion,
  Freeze,
  Respawn,
  Fly,
  Octree,
  Wireframe,
  Spawn,
  Queries,
  Grid,
  Probe
};

struct UiState {
  SettingsState settings;
  bool panelResetPending = false;  // "Reset settings": the panel's size and place next frame
  bool showPanel = true;
  float panelWidth = 340.0f;  // px; the panel's last width (saved with the settings)
  bool crosshair = true;
  std::string statusLine;
  bool screenshotRequested = false;
  Toast toast;              // over the view: the last load's outcome (toast.h)
  float panelRight = 0.0f;  // the panel's right edge this frame (0: hidden); the toast avoids it
  // The panel's place and size this frame, px (x, y, width, height; zero when hidden), for
  // --stats-json's view.panel.
  std::array<float, 4> panelRect{};
  float lastViewportW = 0.0f, lastViewportH = 0.0f;  // the window size the panel was placed for
  bool showHelp = false;  // F1: the key list over the view (help_overlay.cpp)
  // A toggle's key was pressed: its toast is written after the next cull, with that frame's
  // numbers, and kept up to date while it is shown (toggle_notes.cpp).
  ToggleNote note = ToggleNote::None;
  ToggleNote noteShown = ToggleNote::None;
};

struct DemoState {
  DemoOptions options;
  ScenarioParams params;
  LevelState level;
  Simulation sim;
  InputState input;
  ViewCamera camera;  // follows the character's eye
  QueryView queries;
  CullingView culling;
  OcclusionView occlusion;
  PropsView props;
  OctreeOverlay overlay;
  ProbeState probe;  // P: picking and the shape probes (probe_tool.h)
  GridView grid;
  GpuState gpu;
  FrameState frame;
  WorkHistory work;
  AutomationState automation;
  UiState ui;
};

// What the panel asks of the window this frame; the frame carries them out (demo_frame.cpp).
struct PanelRequests {
  std::optional<std::string> loadLevel;  // start loading this level
  std::optional<FrameChoice> reimport;   // with loadLevel: the Level section's Reload
  bool rebuildOctree = false;            // params.octree changed
  bool paramsChanged = false;            // params.controller or params.throwing changed
  bool vsyncChanged = false;             // gpu.vsync toggled
  bool screenshot = false;
};

// UI and overlay pieces, each in its own file.
PanelRequests drawPanel(DemoState& s);  // panel.cpp
void buildOctreeOverlay(DemoState& s);  // octree_overlay.cpp: fills s.gpu.lines
// octree_overlay.cpp: the overlays for a new octree (a load or a rebuild): the depth range
// (--octree-overlay's, clamped, or a few depths around the tree's middle) and the nodes per
// depth for the legend; the Q view's record of the old tree is dropped.
void resetOverlays(DemoState& s);
void buildGridOverlay(DemoState& s);  // grid_overlay.cpp: adds the grid's cells to s.gpu.lines
void gridPanel(DemoState& s);         // grid_overlay.cpp: its part of the Visualization section
// ui_settings_apply.cpp: the saved view settings (ui_settings.h) in and out of the demo.
UiSettings currentUiSettings(const DemoState& s);
void applyUiSettings(DemoState& s, const UiSettings& settings);
void loadSettingsAtStart(DemoState& s);  // then the command line's overrides
void resetUiSettings(DemoState& s);      // the defaults (and the command line's overrides)
void saveSettingsAtExit(const DemoState& s);
// Whether this run may write the user's files (the settings, the recent levels): not under
// --no-settings or $OCTREE_FPS_NO_SETTINGS, nor in runs that end themselves (--frames, --script).
bool savesForUser(const DemoState& s);
// view_stats.cpp: --stats-json's "view" (overlays shown, their numbers, the settings file).
nlohmann::json viewStats(const DemoState& s);
// hud_overlay.cpp: the crosshair and the legends of the overlays shown, over the view.
void drawViewLegends(DemoState& s);
void drawHelpOverlay(DemoState& s);  // help_overlay.cpp: F1's key list over the view
void resetTeams(DemoState& s);       // draw_lists.cpp: new agents over the level
// draw_lists.cpp: one traversal of the level's octree culls the level (s.culling.runs and
// stats; every triangle when culling is off) and the props (s.props), then the instance lists.
void updateDrawLists(DemoState& s, const glm::mat4& cullViewProj, float frameSeconds);
// occlusion_pass.cpp: the occlusion pass after the frustum cull (level runs, then the props
// the frustum kept; stats and CPU time).
void occlusionCull(DemoState& s, const glm::mat4& cullViewProj);

}  // namespace ofps::app
