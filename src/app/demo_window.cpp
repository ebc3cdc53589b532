// The windowed demo: GLFW window + OpenGL 3.3 core + Dear ImGui, the level drawn through the
// octree's frustum culling, and the octree overlay. Input and UI live here; all collision,
// culling and movement math lives in the core library.
#include <glad/gl.h>
// glad must come before GLFW so GLFW does not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <memory>
#include <string>

#include <glm/geometric.hpp>

#include "app/demo_state.h"
#include "app/recent_files.h"
#include "app/run_modes.h"
#include "app/stats_json.h"
#include "octree_fps/culling/frustum.h"
#include "render/gl_debug.h"
#include "render/screenshot.h"

namespace ofps::app {
namespace {

constexpr float kDegToRad = 3.14159265358979f / 180.0f;
constexpr float kMouseRadiansPerPixel = 0.0025f;

void onGlfwError(int code, const char* description) {
  std::fprintf(stderr, "GLFW error 0x%x: %s\n", code, description);
}

DemoState* stateOf(GLFWwindow* window) {
  return static_cast<DemoState*>(glfwGetWindowUserPointer(window));
}

void setMouseCapture(DemoState& s, bool captured) {
  s.mouseCaptured = captured;
  s.firstMouse = true;
  glfwSetInputMode(s.window, GLFW_CURSOR, captured ? GLFW_CURSOR_DISABLED : GLFW_CURSOR_NORMAL);
}

// Puts the character at the spawn point, or flying at --camera's pose on the first level.
void placeCharacter(DemoState& s, bool useOptionCamera) {
  const Level& level = s.session->level;
  const float diagonal = glm::length(level.boundsMax - level.boundsMin);
  s.camera.farPlane = std::max(100.0f, diagonal * 2.0f);
  s.sim.reset(*s.session, s.params);
  CharacterController& c = s.sim.controller();
  s.camera.yaw = s.session->spawnYaw;
  s.camera.pitch = 0.0f;
  if (useOptionCamera && s.options.camera) {
    s.camera.yaw = s.options.camera->yawDegrees * kDegToRad;
    s.camera.pitch = s.options.camera->pitchDegrees * kDegToRad;
    c.setFlying(true);
    c.teleport(s.options.camera->position - glm::vec3(0.0f, s.params.eyeHeight, 0.0f),
               s.camera.yaw);
  }
  s.camera.position = c.eye();
  s.clock = FixedStep(s.params.tickHz);
}

// Adopts a freshly built session: GL upload, camera, UI lists.
void adoptSession(DemoState& s, std::unique_ptr<LevelSession> session, bool useOptionCamera) {
  s.session = std::move(session);
  s.renderer.upload(s.session->level);
  s.renderer.setDrawOrder(s.session->level, s.session->drawRanges.drawOrder());
  s.overlay.maxDepth = static_cast<int>(s.session->octreeReport.depth);
  if (useOptionCamera && s.options.overlayDepths) {
    s.overlay.maxDepth = std::min(s.overlay.maxDepth, s.options.overlayDepths->second);
  }
  s.overlay.minDepth = std::min(s.overlay.minDepth, s.overlay.maxDepth);
  placeCharacter(s, useOptionCamera);
  s.sim.props().linkToLevel(s.session->octree);  // props cells to the new level's nodes
  resetTeams(s);
  rememberRecentFile(s.recentFiles, s.session->level.path);
  std::snprintf(s.pathField.data(), s.pathField.size(), "%s", s.session->level.path.c_str());
}

void pollLoader(DemoState& s) {
  auto result = s.loader.take();
  if (!result) return;
  s.loadWarnings = std::move(result->warnings);
  if (!result->session) {
    // A failed load keeps the current level; the error stays on screen until the next load.
    s.loadError = result->error;
    std::fprintf(stderr, "error: %s (kept %s)\n", result->error.c_str(),
                 s.session ? s.session->level.path.c_str() : "nothing");
    return;
  }
  s.loadError.clear();
  adoptSession(s, std::move(result->session), false);
}

// Mouse look, and the keys held now as the character's input.
CharacterInput readInput(DemoState& s) {
  GLFWwindow* w = s.window;
  if (s.mouseCaptured) {
    double x = 0.0, y = 0.0;
    glfwGetCursorPos(w, &x, &y);
    if (!s.firstMouse) {
      s.camera.turn(-static_cast<float>(x - s.lastMouseX) * kMouseRadiansPerPixel,
                    -static_cast<float>(y - s.lastMouseY) * kMouseRadiansPerPixel);
    }
    s.firstMouse = false;
    s.lastMouseX = x;
    s.lastMouseY = y;
  }
  CharacterInput in;
  in.yaw = s.camera.yaw;
  in.pitch = s.camera.pitch;
  if (ImGui::GetIO().WantCaptureKeyboard) return in;
  const auto down = [w](int key) { return glfwGetKey(w, key) == GLFW_PRESS; };
  in.forward = down(GLFW_KEY_W);
  in.back = down(GLFW_KEY_S);
  in.left = down(GLFW_KEY_A);
  in.right = down(GLFW_KEY_D);
  in.jump = down(GLFW_KEY_SPACE);
  in.sprint = down(GLFW_KEY_LEFT_SHIFT) || down(GLFW_KEY_RIGHT_SHIFT);
  in.crouch = down(GLFW_KEY_LEFT_CONTROL) || down(GLFW_KEY_RIGHT_CONTROL);
  return in;
}

// Runs the fixed steps due this frame and places the camera at the interpolated eye.
void simulate(DemoState& s, float frameSeconds) {
  const CharacterInput live = readInput(s);
  // Record what this frame's character queries enter (the Q overlay); storage is reused.
  s.queryTrace.nodes = s.traceNodes.data();
  s.queryTrace.capacity = static_cast<uint32_t>(s.traceNodes.size());
  s.queryTrace.entered = 0;
  s.sim.controller().setQueryTrace(s.overlay.queryNodes ? &s.queryTrace : nullptr);
  float alpha = 1.0f;
  uint32_t steps = 0;
  if (s.sim.scripted()) {
    // A script runs a fixed number of steps per frame (60 frames per simulated second) so a
    // windowed replay matches the headless one step for step, however slow the frames are.
    steps = static_cast<uint32_t>(std::ceil(s.params.tickHz / 60.0f));
  } else {
    steps = s.clock.advance(frameSeconds);
    alpha = s.clock.alpha();
  }
  for (uint32_t i = 0; i < steps; ++i) s.sim.step(*s.session, live);
  if (s.queryTrace.entered > 0) {
    const uint32_t n = s.queryTrace.stored();
    s.shownQueryNodes.assign(s.traceNodes.begin(), s.traceNodes.begin() + n);
    std::sort(s.shownQueryNodes.begin(), s.shownQueryNodes.end());
    s.shownQueryNodes.erase(std::unique(s.shownQueryNodes.begin(), s.shownQueryNodes.end()),
                            s.shownQueryNodes.end());
  }
  const CharacterController& c = s.sim.controller();
  if (s.sim.scripted()) {
    s.camera.yaw = c.yaw();
    s.camera.pitch = c.pitch();
  }
  s.camera.position = c.interpolatedEye(alpha);
}

void onKey(GLFWwindow* window, int key, int /*scancode*/, int action, int /*mods*/) {
  DemoState* s = stateOf(window);
  if (s == nullptr || action != GLFW_PRESS || ImGui::GetIO().WantCaptureKeyboard) return;
  switch (key) {
    case GLFW_KEY_TAB: setMouseCapture(*s, !s->mouseCaptured); break;
    case GLFW_KEY_ESCAPE:
      if (s->mouseCaptured) {
        setMouseCapture(*s, false);
      } else {
        glfwSetWindowShouldClose(window, GLFW_TRUE);
      }
      break;
    case GLFW_KEY_O: s->overlay.show = !s->overlay.show; break;
    case GLFW_KEY_LEFT_BRACKET:
      s->overlay.minDepth = std::max(0, s->overlay.minDepth - 1);
      s->overlay.maxDepth = std::max(s->overlay.minDepth, s->overlay.maxDepth - 1);
      break;
    case GLFW_KEY_RIGHT_BRACKET: {
      const int deepest = s->session ? static_cast<int>(s->session->octreeReport.depth) : 0;
      s->overlay.maxDepth = std::min(deepest, s->overlay.maxDepth + 1);
      s->overlay.minDepth = std::min(s->overlay.maxDepth, s->overlay.minDepth + 1);
      break;
    }
    case GLFW_KEY_C: s->culling.enabled = !s->culling.enabled; break;
    case GLFW_KEY_V:
      s->culling.frozen = !s->culling.frozen;
      if (s->culling.frozen) s->culling.frozenViewProj = s->culling.cullViewProj;
      break;
    case GLFW_KEY_T: s->wireframe = !s->wireframe; break;
    case GLFW_KEY_F: s->sim.controller().setFlying(!s->sim.controller().flying()); break;
    case GLFW_KEY_Q: s->overlay.queryNodes = !s->overlay.queryNodes; break;
    case GLFW_KEY_G:
      if (s->session) {
        s->sim.props().spawnRandom(static_cast<uint32_t>(s->props.spawnCount),
                                   s->session->octree, s->session->octree.bounds(),
                                   s->props.spawnSeed++);
      }
      break;
    case GLFW_KEY_R:
      if (s->session && !s->sim.scripted()) placeCharacter(*s, false);
      break;
    case GLFW_KEY_H: s->showPanel = !s->showPanel; break;
    case GLFW_KEY_F12: s->screenshotRequested = true; break;
    default: break;
  }
}

void onMouseButton(GLFWwindow* window, int button, int action, int /*mods*/) {
  DemoState* s = stateOf(window);
  if (s == nullptr || ImGui::GetIO().WantCaptureMouse) return;
  if (button != GLFW_MOUSE_BUTTON_LEFT || action != GLFW_PRESS) return;
  if (!s->mouseCaptured) {
    setMouseCapture(*s, true);
  } else if (s->session && !s->sim.scripted()) {
    s->sim.throwFromEye();  // as three.js's games_fps throws balls
  }
}

void onDrop(GLFWwindow* window, int count, const char** paths) {
  DemoState* s = stateOf(window);
  if (s != nullptr && count > 0) requestLevelLoad(*s, paths[0]);
}

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
          {"nodes_total", s.session->octree.nodeCount()},
          {"plane_tests", c.planeTests},
          {"ranges_drawn", s.culling.runs.first.size()},
          {"triangles_drawn", s.culling.runs.triangles},
          {"triangles_total", s.session->drawRanges.drawnTriangles()},
          {"draw_calls", s.renderer.drawCallsLastFrame()}};
}

}  // namespace

void requestLevelLoad(DemoState& s, const std::string& path) {
  if (path.empty()) return;
  if (!s.loader.start(path, s.options, s.octreeParams)) {
    s.statusLine = "a level is already loading";
    return;
  }
  s.loadError.clear();
  s.statusLine.clear();
}

void applyOctreeParams(DemoState& s) {
  std::string error;
  if (!s.session->rebuildOctree(s.octreeParams, &error)) {
    s.statusLine = error;
    return;
  }
  s.renderer.setDrawOrder(s.session->level, s.session->drawRanges.drawOrder());
  s.sim.props().linkToLevel(s.session->octree);  // new nodes: relink every props cell
  const int deepest = static_cast<int>(s.session->octreeReport.depth);
  s.overlay.maxDepth = std::min(s.overlay.maxDepth, deepest);
  s.overlay.minDepth = std::min(s.overlay.minDepth, s.overlay.maxDepth);
}

int runWindowed(const DemoOptions& options) {
  DemoState s;
  s.options = options;
  s.showPanel = !options.hidePanel;
  s.overlay.queryNodes = options.queryOverlay;
  if (options.overlayDepths) {
    s.overlay.show = true;
    s.overlay.minDepth = options.overlayDepths->first;
  }
  std::string error;
  auto first = loadLevelSession(options.levelPath, options, s.octreeParams, &error,
                                &s.loadWarnings);
  if (!first) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 1;
  }

  glfwSetErrorCallback(onGlfwError);
  if (glfwInit() != GLFW_TRUE) {
    std::fprintf(stderr,
                 "error: cannot initialise GLFW (no display?). Run under xvfb-run or use "
                 "--headless.\n");
    return 1;
  }
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, 4);
  glfwWindowHint(GLFW_SRGB_CAPABLE, GLFW_TRUE);
  s.window = glfwCreateWindow(options.width, options.height, "octree-fps", nullptr, nullptr);
  if (s.window == nullptr) {
    std::fprintf(stderr, "error: cannot create a window with an OpenGL 3.3 core context\n");
    glfwTerminate();
    return 1;
  }
  glfwMakeContextCurrent(s.window);
  if (gladLoadGL(glfwGetProcAddress) == 0) {
    std::fprintf(stderr, "error: cannot load OpenGL 3.3 core functions\n");
    glfwDestroyWindow(s.window);
    glfwTerminate();
    return 1;
  }
  s.vsync = options.vsync;
  glfwSwapInterval(s.vsync ? 1 : 0);
  gl::installDebugOutput();
  std::fprintf(stderr, "OpenGL %s on %s\n", reinterpret_cast<const char*>(glGetString(GL_VERSION)),
               reinterpret_cast<const char*>(glGetString(GL_RENDERER)));

  glfwSetWindowUserPointer(s.window, &s);
  // Ours first: ImGui's GLFW backend chains to callbacks installed before it.
  glfwSetKeyCallback(s.window, onKey);
  glfwSetMouseButtonCallback(s.window, onMouseButton);
  glfwSetDropCallback(s.window, onDrop);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini litter in the working directory
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(s.window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  int status = 0;
  if (!s.renderer.init(&error) || !s.lines.init(&error) || !s.propRenderer.init(&error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    status = 1;
  } else {
    s.recentFiles = loadRecentFiles();
    s.assetLevels = findLevelFiles(std::filesystem::path(defaultLevelPath()).parent_path().string());
    adoptSession(s, std::move(first), true);
    s.props.teamsMode = options.teams;
    if (options.spawnProps > 0) {
      s.props.spawnCount = static_cast<int>(options.spawnProps);
      s.sim.props().spawnRandom(options.spawnProps, s.session->octree, s.session->octree.bounds(),
                                s.props.spawnSeed++);
    }
    if (!options.scriptPath.empty()) {
      const auto script = loadScriptFor(options.scriptPath, *s.session, &s.params, &error);
      if (!script) {
        std::fprintf(stderr, "error: %s\n", error.c_str());
        status = 2;
      } else {
        s.renderer.setDrawOrder(s.session->level, s.session->drawRanges.drawOrder());
        s.sim.attachScript(*s.session, *script, s.params, !options.tracePath.empty(),
                           !options.propsTracePath.empty());
      }
    }
  }

  glEnable(GL_DEPTH_TEST);
  glEnable(GL_MULTISAMPLE);
  GLint encoding = GL_LINEAR;
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_BACK_LEFT,
                                        GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING, &encoding);
  const bool srgb = encoding == GL_SRGB;
  gl::checkErrors("start-up");

  int frame = 0;
  auto last = std::chrono::steady_clock::now();
  double totalMs = 0.0;
  while (status == 0 && !glfwWindowShouldClose(s.window)) {
    glfwPollEvents();
    pollLoader(s);
    const auto now = std::chrono::steady_clock::now();
    const float dt = std::min(std::chrono::duration<float>(now - last).count(), 0.1f);
    last = now;
    s.frameMs[s.frameIndex++ % s.frameMs.size()] = dt * 1000.0f;
    totalMs += static_cast<double>(dt) * 1000.0;

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();

    const auto cpuStart = std::chrono::steady_clock::now();
    simulate(s, dt);
    int fbw = 0, fbh = 0;
    glfwGetFramebufferSize(s.window, &fbw, &fbh);
    const float aspect = fbh > 0 ? static_cast<float>(fbw) / static_cast<float>(fbh) : 1.0f;
    const glm::mat4 viewProj = s.camera.projection(aspect) * s.camera.view();
    s.culling.cullViewProj = s.culling.frozen ? s.culling.frozenViewProj : viewProj;
    s.lastAspect = aspect;
    cullFrame(s, s.culling.cullViewProj, dt);  // level ranges and props: one traversal
    s.lastCpuFrameMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cpuStart)
            .count();
    buildOctreeOverlay(s);
    drawPanel(s);
    ImGui::Render();

    glViewport(0, 0, fbw, fbh);
    // The level is lit in linear space; sRGB conversion on write when the framebuffer has it.
    if (srgb) glEnable(GL_FRAMEBUFFER_SRGB);
    const gl::FrameParams fp{viewProj, s.camera.position};
    glClearColor(fp.fogColor.x, fp.fogColor.y, fp.fogColor.z, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (fbw > 0 && fbh > 0) {
      gl::FrameParams params = fp;
      params.wireframe = s.wireframe;
      s.renderer.draw(params, s.culling.runs);
      s.props.drawCalls =
          s.propRenderer.draw(viewProj, params.lightDir, s.props.spheres, s.props.boxes);
      s.lines.draw(viewProj, false);
    }
    if (srgb) glDisable(GL_FRAMEBUFFER_SRGB);  // ImGui's colours are already sRGB
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    gl::checkErrors("frame");

    ++frame;
    if (frame == 5 && !options.swapTo.empty()) requestLevelLoad(s, options.swapTo);
    // A frame limit waits for a requested swap to finish, so the run reports its outcome.
    bool lastFrame = options.frames > 0 && frame >= options.frames && !s.loader.busy();
    if (s.sim.scriptFinished() && !s.scriptWritten) {
      // The script is over: write its trace; without --frames the demo quits here.
      s.scriptWritten = true;
      if ((!options.tracePath.empty() &&
           !writeTextFile(options.tracePath, s.sim.traceCsv(), &error)) ||
          (!options.propsTracePath.empty() &&
           !writeTextFile(options.propsTracePath, s.sim.propsTraceCsv(), &error))) {
        std::fprintf(stderr, "error: %s\n", error.c_str());
        status = 1;
      }
      if (options.frames == 0) lastFrame = true;
    }
    if (s.screenshotRequested || (lastFrame && !options.screenshotPath.empty())) {
      const std::string path = (lastFrame && !options.screenshotPath.empty())
                                   ? options.screenshotPath
                                   : timestampedScreenshotPath();
      if (gl::writeScreenshotPng(path, fbw, fbh, &error)) {
        std::fprintf(stderr, "screenshot written to %s\n", path.c_str());
        s.statusLine = "screenshot: " + path;
      } else {
        std::fprintf(stderr, "error: %s\n", error.c_str());
        s.statusLine = error;
        if (lastFrame) status = 1;
      }
      s.screenshotRequested = false;
    }
    if (lastFrame) glfwSetWindowShouldClose(s.window, GLFW_TRUE);
    glfwSwapBuffers(s.window);
  }

  if (!options.propsPath.empty() && s.session &&
      !writeTextFile(options.propsPath, s.sim.propsCsv(), &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    status = 1;
  }
  if (!options.statsJsonPath.empty() && s.session) {
    nlohmann::json stats;
    stats["level"] = levelStats(*s.session);
    stats["octree"] = octreeStats(*s.session);
    stats["culling"] = cullingStats(s);
    stats["controller"] =
        controllerStats(s.sim.controller(), s.sim.steps(), s.sim.simulatedSeconds());
    PropsCullFrame propsFrame;
    propsFrame.visible = static_cast<uint32_t>(s.props.visibleIds.size());
    propsFrame.cull = s.props.cullStats;
    stats["props"] = propsStats(s.sim.props(), &propsFrame);
    stats["camera"] = cameraStats(s.camera.position, s.camera.yaw, s.camera.pitch,
                                  s.camera.verticalFovRadians, s.lastAspect, s.camera.nearPlane,
                                  s.camera.farPlane, s.camera.forward());
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
    stats["run"] = {{"mode", "window"},
                    {"frames", frame},
                    {"mean_frame_ms", frame > 0 ? totalMs / frame : 0.0},
                    {"cpu_frame_ms", s.lastCpuFrameMs},
                    {"gl_errors", gl::errorCount()},
                    {"last_load_error", s.loadError}};
    if (!writeStatsJson(options.statsJsonPath, stats, &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      status = 1;
    }
  }

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  s.renderer.shutdown();
  s.lines.shutdown();
  s.propRenderer.shutdown();
  glfwDestroyWindow(s.window);
  glfwTerminate();
  return status;
}

}  // namespace ofps::app
