// The windowed demo: GLFW window + OpenGL 3.3 core + Dear ImGui, the level drawn through the
// octree's frustum culling, and the octree overlay. This file is the run's outline; setup,
// frame, input, level handling and the run's automation are parts of their own (demo_parts.h).
// All collision, culling and movement math lives in the core library.
#include <GLFW/glfw3.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>

#include "app/simulation/run_modes.h"
#include "app/window/demo_parts.h"

namespace ofps::app {

int runWindowed(const DemoOptions& options) {
  DemoState s;
  int status = openDemo(s, options);
  if (s.input.window == nullptr) return status;
  auto last = std::chrono::steady_clock::now();
  // --max-fps: each frame starts no earlier than this far after the previous one.
  const auto minFrame = options.maxFps > 0
                            ? std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::duration<double>(1.0 / options.maxFps))
                            : std::chrono::nanoseconds(0);
  while (status == 0 && !glfwWindowShouldClose(s.input.window)) {
    std::this_thread::sleep_until(last + minFrame);
    glfwPollEvents();
    deliverKeyTaps(s);
    pollLoader(s);
    const auto now = std::chrono::steady_clock::now();
    // The real wall time: the panel and --stats-json show it as it is. The fixed-step clock
    // bounds how many steps a slow frame may run (FixedStep's maxStepsPerFrame).
    const float dt = std::chrono::duration<float>(now - last).count();
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
