#pragma once
// The panel's sections, each in its own file; drawPanel (demo_panel.cpp) lays them out.
// Main thread, inside an ImGui window.
#include "app/demo_state.h"

namespace ofps::app {

void framePanel(DemoState& s, PanelRequests& out);   // frame_panel.cpp
void overlayPanel(DemoState& s);                     // overlay_panel.cpp
void loaderPanel(DemoState& s, PanelRequests& out);  // loader_panel.cpp

}  // namespace ofps::app
