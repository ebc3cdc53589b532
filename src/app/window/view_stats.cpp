// --stats-json's "view": what the overlays showed on the last frame and which view settings the
// run used, so tests and scripts can check the view without reading pixels.
#include <nlohmann/json.hpp>

#include "app/panel/headline.h"
#include "app/window/demo_state.h"

namespace ofps::app {

nlohmann::json viewStats(const DemoState& s) {
  const GridView& g = s.grid;
  const Headline h = headlineOf(s);
  const auto& r = s.ui.panelRect;
  return {{"headline",
           {{"queries", h.queries},
            {"query_boxes", h.queryBoxes},
            {"query_triangles", h.queryTriangles},
            {"query_brute_force", h.queryBrute},
            {"culling", h.culling},
            {"cull_boxes", h.cullBoxes},
            {"cull_brute_force", h.cullBrute},
            {"drawn", h.drawn},
            {"lines", {headlineQueryLine(h), headlineCullLine(h)}}}},
          {"help_shown", s.ui.showHelp},
          {"toasts", s.ui.toast.history},
          {"toast",  // the one on the view at the end (its numbers are the last frame's)
           {{"title", s.ui.toast.kind == Toast::Kind::None ? "" : s.ui.toast.title},
            {"detail", s.ui.toast.kind == Toast::Kind::None ? "" : s.ui.toast.detail}}},
          {"panel", {{"x", r[0]}, {"y", r[1]}, {"width", r[2]}, {"height", r[3]}}},
          {"window", {{"width", s.frame.width}, {"height", s.frame.height}}},
          {"lines", s.gpu.lines.lineCount()},
          {"octree_boxes",
           {{"shown", s.overlay.show},
            {"drawn", s.overlay.boxesDrawn},
            {"min_depth", s.overlay.minDepth},
            {"max_depth", s.overlay.maxDepth},
            {"cubic_cells", s.overlay.cubicCells}}},
          {"query_view",
           {{"shown", s.overlay.queryNodes},
            {"entered", s.queries.trace.entered},
            {"nodes", s.queries.shownNodes.size()},
            {"contacts", s.queries.contacts.size()},
            {"capsule_radius", s.queries.capsuleRadius}}},
          {"grid",
           {{"shown", g.show},
            {"occupied_cells", g.occupiedCells},
            {"objects", g.objects},
            {"query_radius", g.queryRadius},
            {"cells_tested", g.cellsTested},
            {"objects_tested", g.objectsTested},
            {"hits", g.hits},
            {"brute_force_checks", g.bruteForce}}},
          {"crosshair", s.ui.crosshair},
          {"panel_shown", s.ui.showPanel},
          {"wireframe", s.gpu.wireframe},
          {"settings_file", s.ui.settings.path}};
}

}  // namespace ofps::app
