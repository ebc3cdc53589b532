// The windowed demo's setup and teardown: GLFW window with an OpenGL 3.3 core context, glad,
// Dear ImGui, the renderers, and the first level with what the command line asks for at start.
#include <glad/gl.h>
// glad must come before GLFW so GLFW does not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>
#ifdef __EMSCRIPTEN__
#include <emscripten/html5.h>
#endif

#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <utility>

#include "app/settings/recent_files.h"
#include "app/window/demo_parts.h"
#include "render/gl_debug.h"

namespace ofps::app {
namespace {

void onGlfwError(int code, const char* description) {
  std::fprintf(stderr, "GLFW error 0x%x: %s\n", code, description);
}

}  // namespace

bool openWindow(DemoState& s) {
  const DemoOptions& options = s.options;
  loadSettingsAtStart(s);  // before the window: it holds the vsync and panel choices
  glfwSetErrorCallback(onGlfwError);
  if (glfwInit() != GLFW_TRUE) {
    std::fprintf(stderr,
                 "error: cannot initialise GLFW (no display?). Run under xvfb-run or use "
                 "--headless.\n");
    return false;
  }
#ifdef __EMSCRIPTEN__
  // The page: WebGL2 (the link's -sMIN_WEBGL_VERSION=2), antialiased; no sRGB canvas exists.
  glfwWindowHint(GLFW_CLIENT_API, GLFW_OPENGL_ES_API);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 0);
  glfwWindowHint(GLFW_SAMPLES, 4);
#else
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_SAMPLES, 4);
  glfwWindowHint(GLFW_SRGB_CAPABLE, GLFW_TRUE);
#endif
  s.input.window = glfwCreateWindow(options.width, options.height, "octree-fps", nullptr, nullptr);
  if (s.input.window == nullptr) {
    std::fprintf(stderr, "error: cannot create a window with an OpenGL 3.3 core context\n");
    glfwTerminate();
    return false;
  }
  glfwMakeContextCurrent(s.input.window);
#ifdef __EMSCRIPTEN__
  // WebGL2's functions are linked in, nothing to load; multi-draw where the browser has it.
  ofpsWebMultiDraw() =
      emscripten_webgl_enable_WEBGL_multi_draw(emscripten_webgl_get_current_context()) != 0;
#else
  if (gladLoadGL(glfwGetProcAddress) == 0) {
    std::fprintf(stderr, "error: cannot load OpenGL 3.3 core functions\n");
    glfwDestroyWindow(s.input.window);
    glfwTerminate();
    return false;
  }
#endif
  glfwSwapInterval(s.gpu.vsync ? 1 : 0);
  gl::installDebugOutput();
  std::fprintf(stderr, "OpenGL %s on %s\n", reinterpret_cast<const char*>(glGetString(GL_VERSION)),
               reinterpret_cast<const char*>(glGetString(GL_RENDERER)));

  // Ours first: ImGui's GLFW backend chains to callbacks installed before it.
  installInputCallbacks(s);
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  ImGui::GetIO().IniFilename = nullptr;  // no imgui.ini litter in the working directory
  ImGui::StyleColorsDark();
  ImGui_ImplGlfw_InitForOpenGL(s.input.window, true);
#ifdef __EMSCRIPTEN__
  ImGui_ImplOpenGL3_Init("#version 300 es");
#else
  ImGui_ImplOpenGL3_Init("#version 330 core");
#endif
  return true;
}

namespace {

// The renderers, UI lists, the first level, --spawn-props, --teams and the script (null without
// one). Returns 0, or 1 when a renderer failed.
int startDemo(DemoState& s, std::unique_ptr<LevelSession> first, const Script* script) {
  const DemoOptions& options = s.options;
  std::string error;
  int status = 0;
  if (!s.gpu.renderer.init(&error) || !s.gpu.lines.init(&error) ||
      !s.gpu.propRenderer.init(&error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    status = 1;
  } else {
    if (s.ui.settings.enabled) s.level.recentFiles = loadRecentFiles();
    s.level.assetLevels =
        findLevelFiles(std::filesystem::path(defaultLevelPath()).parent_path().string());
    adoptSession(s, std::move(first), true);
    s.props.teamsMode = options.teams;
    // The script first: attaching it starts a new props world (its placed props are ids 0..),
    // and --spawn-props adds to that world.
    if (script != nullptr) {
      s.sim.attachScript(*s.level.session, *script, s.params, !options.tracePath.empty(),
                         !options.propsTracePath.empty());
    }
    if (options.spawnProps > 0) {
      s.props.spawnCount = static_cast<int>(options.spawnProps);
      const Octree& octree = s.level.session->octree;
      s.sim.props().spawnRandom(options.spawnProps, octree, octree.bounds(), s.props.spawnSeed++);
    }
  }

  glEnable(GL_DEPTH_TEST);
  glEnable(GL_MULTISAMPLE);
  GLint encoding = GL_LINEAR;
  glGetFramebufferAttachmentParameteriv(GL_FRAMEBUFFER, GL_BACK_LEFT,
                                        GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING, &encoding);
  s.gpu.srgb = encoding == GL_SRGB;
  gl::checkErrors("start-up");
  return status;
}

}  // namespace

void closeWindow(DemoState& s) {
  saveSettingsAtExit(s);
  ImGui_ImplOpenGL3_Shutdown();
  ImGui_ImplGlfw_Shutdown();
  ImGui::DestroyContext();
  s.gpu.renderer.shutdown();
  s.gpu.lines.shutdown();
  s.gpu.propRenderer.shutdown();
  s.gpu.occlusionImage.shutdown();
  glfwDestroyWindow(s.input.window);
  glfwTerminate();
}

int openDemo(DemoState& s, const DemoOptions& options) {
  s.options = options;
  s.ui.showPanel = !options.hidePanel;
  s.overlay.queryNodes = options.queryOverlay;
  startProbe(s.probe, options.probeShape);
  s.occlusion.enabled = options.occlusion;
  s.occlusion.temporalCoherence = options.temporalCoherence;
  if (options.occlusionBudget) s.occlusion.workBudget = *options.occlusionBudget;
  if (options.overlayDepths) {
    s.overlay.show = true;
    s.overlay.minDepth = options.overlayDepths->first;
  }
  // The script is read before the level so a typo costs no load.
  std::optional<Script> script;
  if (!options.scriptPath.empty()) {
    Script loaded;
    std::string error;
    if (!loadScriptFor(options.scriptPath, &s.params, &loaded, &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return 2;
    }
    script = std::move(loaded);
  }
  LevelSessionLoad first = loadLevelSession(options.levelPath, options, s.params.octree);
  if (!first.ok) {
    std::fprintf(stderr, "error: %s\n", first.error.c_str());
    return 1;
  }
  if (!openWindow(s)) {
    s.input.window = nullptr;  // openWindow closed what it had opened
    return 1;
  }
  return startDemo(s, std::move(first.session), script ? &*script : nullptr);
}

}  // namespace ofps::app
