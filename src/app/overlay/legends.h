#pragma once
// The overlays' legends as ImGui rows, drawn inside whatever window is current: the panel's
// Visualization section and the corner of the view (hud_overlay.cpp) show the same rows, in
// the colours the overlays draw with (overlay_colors.h). Main thread, inside an ImGui frame.
#include <imgui.h>

#include <glm/vec4.hpp>

#include "app/window/demo_state.h"

namespace ofps::app {

// A colour swatch the height of a text line, then the formatted text on the same line.
void legendRow(const glm::vec4& color, const char* fmt, ...) IM_FMTARGS(2);
// Octree boxes: one row per depth of the shown range (colour, depth, nodes at that depth).
void octreeDepthLegend(const DemoState& s);
// The Q view: nodes by depth, tested triangles, triangles in contact, the capsule.
void queryViewLegend(const DemoState& s);
// The frozen view (V): the frustum's lines and what occlusion culled.
void frozenLegend();
// The grid view: cell colours by occupancy, the query's cells.
void gridLegend(const DemoState& s);

}  // namespace ofps::app
