// The windowed demo: GLFW window + OpenGL 3.3 core + Dear ImGui, the level drawn through the
// octree's frustum culling, and the octree overlay. This file is the run's outline; setup,
// frame, input, level handling and the run's automation are parts of their own (demo_parts.h).
// All collision, culling and movement math lives in the core library.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "app/demo_parts.h"
#include "app/run_modes.h"

namespace ofps::app {

int runWindowed(const DemoOptions& options) {
  DemoState s;
  s.options = options;
  s.ui.showPanel = !options.hidePanel;
  s.overlay.queryNodes = options.queryOverlay;
  s.occlusion.enabled = options.occlusion;
  if (options.overlayDepths) {
    s.overlay.show = true;
    s.overlay.minDepth = options.overlayDepths->first;
  }
  std::string error;
  auto first = loadLevelSession(options.levelPath, options, s.params.octree, &error);
  if (!first) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 1;
  }
  if (!openWindow(s)) return 1;

  int status = startDemo(s, std::move(first));
  auto last = std::chrono::steady_clock::now();
  while (status == 0 && !glfwWindowShouldClose(s.input.window)) {
    glfwPollEvents();
    pollLoader(s);
    const auto now = std::chrono::steady_clock::now();
    const float dt = std::min(std::chrono::duration<float>(now - last).count(), 0.1f);
    last = now;
    runFrame(s, dt);
    ++s.frame.count;
    if (endOfFrame(s, &status)) glfwSetWindowShouldClose(s.input.window, GLFW_TRUE);
    glfwSwapBuffers(s.input.window);
  }

  status = writeRunOutputs(s, status);
  closeWindow(s);
  return status;
}

}  // namespace ofps::app
