#pragma once
// The panel's sections, each in its own file; drawPanel (panel.cpp) lays them out.
// Main thread, inside an ImGui window.
#include "app/window/demo_state.h"

namespace ofps::app {

// start_block.cpp: the level, one line of keys, and the headline (headline.h), always first.
void startBlock(DemoState& s);
void framePanel(DemoState& s, PanelRequests& out);   // frame_panel.cpp
void overlayPanel(DemoState& s);                     // overlay_panel.cpp
void loaderPanel(DemoState& s, PanelRequests& out);  // loader_panel.cpp
// work_panel.cpp: "Work per frame", rolling log-scale plots of the octree's work beside brute
// force's; sampleWork records this frame's figures (once per frame, after the cull).
void sampleWork(DemoState& s);
void workPlotsPanel(DemoState& s);
void propsPanel(DemoState& s);      // props_panel.cpp
void occlusionPanel(DemoState& s);  // occlusion_panel.cpp: with the occlusion buffer's image
// toggle_toasts.cpp: a toggle key notes what it toggled; after the next cull its toast says the
// new state with that frame's numbers (and follows them while shown).
void noteToggle(DemoState& s, ToggleNote note);
void updateToggleToast(DemoState& s);
// teams_plot.cpp: the two-teams mode's grid cost against cell size (inside the Props section).
void teamsCostPlot(DemoState& s);

}  // namespace ofps::app
