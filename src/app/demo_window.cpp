#include <glad/gl.h>
// glad must come before GLFW so GLFW does not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>

#include <glm/geometric.hpp>

#include "app/fly_camera.h"
#include "app/level_session.h"
#include "app/run_modes.h"
#include "app/stats_json.h"
#include "render/gl_debug.h"
#include "render/level_renderer.h"
#include "render/screenshot.h"

namespace ofps::app {
namespace {

constexpr float kDegToRad = 3.14159265358979f / 180.0f;
constexpr float kMouseRadiansPerPixel = 0.0025f;

// Everything the windowed demo owns, in one place (no scattered globals).
struct DemoState {
  GLFWwindow* window = nullptr;
  std::unique_ptr<LevelSession> session;
  gl::LevelRenderer renderer;
  FlyCamera camera;
  float flySpeed = 5.0f;  // metres per second
  bool mouseCaptured = false;
  bool firstMouse = true;
  double lastMouseX = 0.0, lastMouseY = 0.0;
  std::array<float, 120> frameMs{};
  size_t frameIndex = 0;
  std::string statusLine;
};

void onGlfwError(int code, const char* description) {
  std::fprintf(stderr, "GLFW error 0x%x: %s\n", code, description);
}

void setMouseCapture(DemoState& s, bool captured) {
  s.mouseCaptured = captured;
  s.firstMouse = true;
  glfwSetInputMode(s.window, GLFW_CURSOR, captured ? GLFW_CURSOR_DISABLED : GLFW_CURSOR_NORMAL);
}

void placeCamera(DemoState& s, const DemoOptions& options) {
  const Level& level = s.session->level;
  const glm::vec3 lo = level.boundsMin, hi = level.boundsMax;
  const glm::vec3 center = 0.5f * (lo + hi);
  const float diagonal = glm::length(hi - lo);
  s.flySpeed = std::clamp(diagonal * 0.05f, 2.0f, 200.0f);
  s.camera.farPlane = std::max(100.0f, diagonal * 2.0f);
  if (options.camera) {
    s.camera.position = options.camera->position;
    s.camera.yaw = options.camera->yawDegrees * kDegToRad;
    s.camera.pitch = options.camera->pitchDegrees * kDegToRad;
  } else if (level.spawn) {
    s.camera.position = *level.spawn + glm::vec3(0.0f, 1.7f, 0.0f);
    s.camera.yaw = level.spawnYaw;
    s.camera.pitch = -0.15f;
  } else {
    // An overview from a raised corner, looking at the middle of the level.
    s.camera.position = center + glm::vec3(0.35f, 0.3f, 0.35f) * (hi - lo) +
                        glm::vec3(0.0f, 0.1f * diagonal, 0.0f);
    s.camera.lookAt(center);
  }
}

void handleInput(DemoState& s, float dt) {
  GLFWwindow* w = s.window;
  const bool uiWantsKeys = ImGui::GetIO().WantCaptureKeyboard;
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
  if (uiWantsKeys) return;
  glm::vec3 move(0.0f);
  if (glfwGetKey(w, GLFW_KEY_W) == GLFW_PRESS) move += s.camera.forward();
  if (glfwGetKey(w, GLFW_KEY_S) == GLFW_PRESS) move -= s.camera.forward();
  if (glfwGetKey(w, GLFW_KEY_D) == GLFW_PRESS) move += s.camera.right();
  if (glfwGetKey(w, GLFW_KEY_A) == GLFW_PRESS) move -= s.camera.right();
  if (glfwGetKey(w, GLFW_KEY_SPACE) == GLFW_PRESS) move.y += 1.0f;
  if (glfwGetKey(w, GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS) move.y -= 1.0f;
  const float speed =
      s.flySpeed * (glfwGetKey(w, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ? 4.0f : 1.0f);
  if (glm::dot(move, move) > 0.0f) s.camera.position += glm::normalize(move) * speed * dt;
}

void onKey(GLFWwindow* window, int key, int /*scancode*/, int action, int /*mods*/) {
  auto* s = static_cast<DemoState*>(glfwGetWindowUserPointer(window));
  if (action != GLFW_PRESS || s == nullptr) return;
  if (key == GLFW_KEY_TAB) setMouseCapture(*s, !s->mouseCaptured);
  if (key == GLFW_KEY_ESCAPE) {
    if (s->mouseCaptured) {
      setMouseCapture(*s, false);
    } else {
      glfwSetWindowShouldClose(window, GLFW_TRUE);
    }
  }
}

void onMouseButton(GLFWwindow* window, int button, int action, int /*mods*/) {
  auto* s = static_cast<DemoState*>(glfwGetWindowUserPointer(window));
  if (s == nullptr || ImGui::GetIO().WantCaptureMouse) return;
  if (button == GLFW_MOUSE_BUTTON_LEFT && action == GLFW_PRESS && !s->mouseCaptured) {
    setMouseCapture(*s, true);
  }
}

void drawPanel(DemoState& s) {
  ImGui::SetNextWindowPos(ImVec2(10, 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowSize(ImVec2(340, 0), ImGuiCond_FirstUseEver);
  ImGui::Begin("octree-fps");
  const double ms = s.frameMs[(s.frameIndex + s.frameMs.size() - 1) % s.frameMs.size()];
  ImGui::Text("frame %.2f ms (%.0f fps)", ms, ms > 0.0 ? 1000.0 / ms : 0.0);
  ImGui::PlotLines("##frametime", s.frameMs.data(), static_cast<int>(s.frameMs.size()),
                   static_cast<int>(s.frameIndex % s.frameMs.size()), "frame ms", 0.0f, 50.0f,
                   ImVec2(0, 50));
  const Level& level = s.session->level;
  ImGui::Separator();
  ImGui::TextWrapped("level: %s", level.path.c_str());
  ImGui::Text("triangles: %zu (drawn: %llu)", level.triangleCount(),
              static_cast<unsigned long long>(s.renderer.uploadedTriangles()));
  ImGui::Text("draw calls: %u", s.renderer.drawCallsLastFrame());
  const glm::dvec3 eye(s.camera.position);
  ImGui::Text("camera: %.1f %.1f %.1f", eye.x, eye.y, eye.z);
  ImGui::SliderFloat("fly speed (m/s)", &s.flySpeed, 0.5f, 200.0f, "%.1f",
                     ImGuiSliderFlags_Logarithmic);
  if (!s.statusLine.empty()) ImGui::TextWrapped("%s", s.statusLine.c_str());
  ImGui::Separator();
  ImGui::TextDisabled("WASD move, Space/Ctrl up/down, Shift fast,");
  ImGui::TextDisabled("click or Tab: capture mouse, Esc: release / quit");
  ImGui::End();
}

}  // namespace

int runWindowed(const DemoOptions& options) {
  DemoState s;
  std::string error;
  s.session = loadLevelSession(options.levelPath, options, &error);
  if (!s.session) {
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
  glfwSwapInterval(options.vsync ? 1 : 0);
  gl::installDebugOutput();
  std::fprintf(stderr, "OpenGL %s on %s\n", reinterpret_cast<const char*>(glGetString(GL_VERSION)),
               reinterpret_cast<const char*>(glGetString(GL_RENDERER)));

  glfwSetWindowUserPointer(s.window, &s);
  // Ours first: ImGui's GLFW backend chains to callbacks installed before it.
  glfwSetKeyCallback(s.window, onKey);
  glfwSetMouseButtonCallback(s.window, onMouseButton);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini litter in the working directory
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(s.window, true);
  ImGui_ImplOpenGL3_Init("#version 330 core");

  int status = 0;
  if (!s.renderer.init(&error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    status = 1;
  } else {
    s.renderer.upload(s.session->level);
    placeCamera(s, options);
  }

  glEnable(GL_DEPTH_TEST);
  glEnable(GL_MULTISAMPLE);
  GLint srgb = GL_LINEAR;
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_BACK_LEFT,
                                        GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING, &srgb);
  if (srgb == GL_SRGB) glEnable(GL_FRAMEBUFFER_SRGB);
  gl::checkErrors("start-up");

  int frame = 0;
  auto last = std::chrono::steady_clock::now();
  double totalMs = 0.0;
  while (status == 0 && !glfwWindowShouldClose(s.window)) {
    glfwPollEvents();
    const auto now = std::chrono::steady_clock::now();
    const float dt =
        std::min(std::chrono::duration<float>(now - last).count(), 0.1f);  // no huge jumps
    last = now;
    s.frameMs[s.frameIndex++ % s.frameMs.size()] = dt * 1000.0f;
    totalMs += static_cast<double>(dt) * 1000.0;

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    handleInput(s, dt);
    drawPanel(s);
    ImGui::Render();

    int fbw = 0, fbh = 0;
    glfwGetFramebufferSize(s.window, &fbw, &fbh);
    glViewport(0, 0, fbw, fbh);
    // Clear to the fog colour so far geometry fades into the background.
    glClearColor(0.50f, 0.58f, 0.68f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
    if (fbw > 0 && fbh > 0) {
      gl::FrameParams fp;
      const glm::mat4 proj =
          s.camera.projection(static_cast<float>(fbw) / static_cast<float>(fbh));
      fp.viewProj = proj * s.camera.view();
      fp.cameraPos = s.camera.position;
      s.renderer.draw(fp);
    }
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    gl::checkErrors("frame");

    ++frame;
    const bool lastFrame = options.frames > 0 && frame >= options.frames;
    if (lastFrame) {
      if (!options.screenshotPath.empty()) {
        if (gl::writeScreenshotPng(options.screenshotPath, fbw, fbh, &error)) {
          std::fprintf(stderr, "screenshot written to %s\n", options.screenshotPath.c_str());
        } else {
          std::fprintf(stderr, "error: %s\n", error.c_str());
          status = 1;
        }
      }
      glfwSetWindowShouldClose(s.window, GLFW_TRUE);
    }
    glfwSwapBuffers(s.window);
  }

  if (!options.statsJsonPath.empty()) {
    nlohmann::json stats;
    stats["level"] = levelStats(*s.session);
    stats["run"] = {{"mode", "window"},
                    {"frames", frame},
                    {"mean_frame_ms", frame > 0 ? totalMs / frame : 0.0},
                    {"gl_errors", gl::errorCount()}};
    if (!writeStatsJson(options.statsJsonPath, stats, &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      status = 1;
    }
  }

  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  s.renderer.shutdown();
  glfwDestroyWindow(s.window);
  glfwTerminate();
  return status;
}

}  // namespace ofps::app
