#pragma once
// The two ways the demo runs. Both return the process exit status.
#include "app/simulation/options.h"

namespace ofps::app {

// Window + OpenGL 3.3 core + ImGui. Status 1 when no window/context can be made.
int runWindowed(const DemoOptions& options);

// No window, no GL: load, simulate, report.
int runHeadless(const DemoOptions& options);

}  // namespace ofps::app
