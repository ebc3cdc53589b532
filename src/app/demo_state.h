#pragma once
// Everything the windowed demo owns, in one struct (no scattered globals): the level session,
// GL renderers, camera, visualization toggles and UI state. Owned by runWindowed().
#include <array>
#include <memory>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>

#include "app/async_loader.h"
#include "app/view_camera.h"
#include "app/level_session.h"
#include "app/options.h"
#include "app/simulation.h"
#include "octree_fps/controller/fixed_step.h"
#include "octree_fps/culling/draw_ranges.h"
#include "render/level_renderer.h"
#include "render/line_renderer.h"
#include "render/prop_renderer.h"
#include "scenario/teams_demo.h"

struct GLFWwindow;

namespace ofps::app {

struct OctreeOverlay {
  bool show = false;            // O: draw node boxes
  int minDepth = 0;             // depth range drawn (root = 0)
  int maxDepth = 24;
  bool visibleOnly = true;      // only nodes the culling pass reached
  bool leavesOnly = false;
  bool queryNodes = false;      // Q: only the nodes and triangles this frame's character queries touched
};

struct CullingView {
  bool enabled = true;          // C: cull through the octree (off: draw everything)
  bool frozen = false;          // V: keep culling with the frustum of the moment it was frozen
  glm::mat4 frozenViewProj{1.0f};
  glm::mat4 cullViewProj{1.0f};  // the frustum culled with this frame (frozen or live)
  CullStats stats;              // last frame
  DrawRunList runs;             // last frame, reused (no per-frame allocation)
};

struct PropsView {
  std::vector<uint32_t> visibleIds;                 // this frame's props cull (ids)
  std::vector<gl::PropInstance> spheres, boxes;     // instance data, reused every frame
  PropsCullStats cullStats;                         // this frame's props cull (octree + grid)
  uint32_t drawCalls = 0;
  int spawnCount = 1000;                            // the panel's "spawn N" amount
  uint64_t spawnSeed = 1;
  bool teamsMode = false;                           // the grid tutorial's two teams
  TeamsDemo teams;
  float teamsCellSize = 2.0f;
  float teamsRadius = 2.0f;
  int teamsPerTeam = 1000;
};

struct DemoState {
  DemoOptions options;
  GLFWwindow* window = nullptr;
  std::unique_ptr<LevelSession> session;
  OctreeBuildParams octreeParams;
  gl::LevelRenderer renderer;
  gl::LineRenderer lines;
  gl::PropRenderer propRenderer;
  PropsView props;
  ViewCamera camera;              // follows the character's eye
  ControllerParams params;      // live-editable; the controller gets a copy each change
  Simulation sim;
  FixedStep clock;
  bool scriptWritten = false;   // --trace written once the script finished
  std::vector<uint32_t> traceNodes = std::vector<uint32_t>(8192);  // storage of queryTrace
  QueryTrace queryTrace;        // nodes the character's queries entered this frame
  // The last frame that ran queries (flying runs none: its record stays, so you can fly out
  // and look at it): unique node indices, sorted.
  std::vector<uint32_t> shownQueryNodes;
  bool mouseCaptured = false;
  bool firstMouse = true;
  double lastMouseX = 0.0, lastMouseY = 0.0;

  OctreeOverlay overlay;
  CullingView culling;
  bool wireframe = false;
  bool showPanel = true;
  bool vsync = true;            // swap interval 1; the panel toggles it

  AsyncLevelLoader loader;
  std::string loadError;        // last failed load, shown until the next load
  std::vector<std::string> loadWarnings;
  std::vector<std::string> recentFiles;
  std::vector<std::string> assetLevels;
  std::array<char, 1024> pathField{};

  std::array<float, 240> frameMs{};
  size_t frameIndex = 0;
  double lastCpuFrameMs = 0.0;
  float lastAspect = 1.0f;      // framebuffer width / height of the last frame (--stats-json)  // controller + culling + draw-list building, last frame
  std::string statusLine;
  bool screenshotRequested = false;
};

// UI and overlay pieces, each in its own file.
void drawPanel(DemoState& s);                 // demo_panel.cpp
void buildOctreeOverlay(DemoState& s);        // octree_overlay.cpp: fills s.lines
void requestLevelLoad(DemoState& s, const std::string& path);  // demo_window.cpp
void applyOctreeParams(DemoState& s);         // demo_window.cpp: rebuild + re-upload order
void resetTeams(DemoState& s);                // props_view.cpp: new agents over the level
// props_view.cpp: one traversal of the level's octree culls the level (s.culling.runs and
// stats; every triangle when culling is off) and the props (s.props), then the instance lists.
void cullFrame(DemoState& s, const glm::mat4& cullViewProj, float frameSeconds);
void propsPanel(DemoState& s);                // props_view.cpp

}  // namespace ofps::app
