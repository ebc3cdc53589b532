// --stats-json's "view": what the overlays showed on the last frame and which view settings the
// run used, so tests and scripts can check the view without reading pixels.
#include <nlohmann/json.hpp>

#include "app/window/demo_state.h"

namespace ofps::app {

nlohmann::json viewStats(const DemoState& s) {
  const GridView& g = s.grid;
  return {{"lines", s.gpu.lines.lineCount()},
          {"octree_boxes",
           {{"shown", s.overlay.show},
            {"min_depth", s.overlay.minDepth},
            {"max_depth", s.overlay.maxDepth}}},
          {"query_view",
           {{"shown", s.overlay.queryNodes},
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
