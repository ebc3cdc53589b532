// The page's windowed run (src/app/web/web.cmake builds it instead of window/demo_window.cpp):
// the same setup and the same frame (runFrame, endOfFrame), driven by the browser's animation
// frames through emscripten_set_main_loop instead of a loop that blocks. The canvas follows the
// browser window's size; a run that ends by itself (--frames, a script's end) writes its outputs,
// stops the loop and tells the page (Module.ofpsRunEnded).
#include <GLFW/glfw3.h>
#include <emscripten/emscripten.h>

#include <chrono>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

#include "app/simulation/run_modes.h"
#include "app/web/web_run.h"
#include "app/window/demo_parts.h"

namespace ofps::app {
namespace {

WebRun* g_run = nullptr;

// The canvas fills the window (index.html's CSS stretches it; this keeps its pixels in step).
void followWindowSize(DemoState& s) {
  const int w = EM_ASM_INT({ return window.innerWidth; });
  const int h = EM_ASM_INT({ return window.innerHeight; });
  int cw = 0, ch = 0;
  glfwGetWindowSize(s.input.window, &cw, &ch);
  if (w > 0 && h > 0 && (w != cw || h != ch)) glfwSetWindowSize(s.input.window, w, h);
}

void webFrame() {
  WebRun& r = *g_run;
  DemoState& s = r.state;
  followWindowSize(s);
  glfwPollEvents();
  deliverKeyTaps(s);
  pollLoader(s);
  const auto now = std::chrono::steady_clock::now();
  const float dt = std::chrono::duration<float>(now - r.last).count();
  r.last = now;
  runFrame(s, dt);
  ++s.frame.count;
  if (endOfFrame(s, &r.status)) {
    r.status = writeRunOutputs(s, r.status);
    r.ended = true;
    emscripten_cancel_main_loop();
    const std::string call =
        "if (Module.ofpsRunEnded) Module.ofpsRunEnded(" + std::to_string(r.status) + ")";
    emscripten_run_script(call.c_str());
  }
  // The browser presents the canvas after this callback returns (no glfwSwapBuffers needed).
}

}  // namespace

WebRun* webRun() {
  return g_run;
}

int runWindowed(const DemoOptions& options) {
  // Lives as long as the page: the main loop outlives this function.
  g_run = new WebRun();
  DemoState& s = g_run->state;
  g_run->status = openDemo(s, options);
  if (g_run->status != 0) {
    // It never started (a bad script, a level it cannot read): the page shows why (the error
    // lines on stderr) instead of its loading bar.
    g_run->ended = true;
    const std::string call =
        "if (Module.ofpsRunEnded) Module.ofpsRunEnded(" + std::to_string(g_run->status) + ")";
    emscripten_run_script(call.c_str());
    return g_run->status;
  }
  g_run->last = std::chrono::steady_clock::now();
  emscripten_run_script("if (Module.ofpsStarted) Module.ofpsStarted()");
  // 0 fps: the browser's animation frames (vsync); simulate_infinite_loop: main does not return,
  // so the state above stays alive.
  emscripten_set_main_loop(webFrame, 0, 1);
  return 0;
}

}  // namespace ofps::app
