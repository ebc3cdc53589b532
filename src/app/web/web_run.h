#pragma once
// The page's one windowed run (web_window.cpp), shared with the hooks the page's JavaScript calls
// (web_hooks.cpp). Main thread only (the page has no other).
#include <chrono>

#include "app/window/demo_state.h"

namespace ofps::app {

struct WebRun {
  DemoState state;
  std::chrono::steady_clock::time_point last;
  int status = 0;      // the run's exit status so far
  bool ended = false;  // the run ended by itself (--frames, a script's end); the loop stopped
};

// Null until runWindowed has started.
WebRun* webRun();

}  // namespace ofps::app
