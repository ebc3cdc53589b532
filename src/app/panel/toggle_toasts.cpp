// The toasts of the toggle keys (C, X, V, R, F, O, T, G, Q, B, P): a key's effect is said on the
// view, where the user looks, with the frame's numbers ("frustum culling off: 1,048 of 1,048
// triangles drawn"). The key only notes what it toggled; the text is written after the next
// cull, so its numbers are those of the new state, and kept up to date while it is shown.
#include <imgui.h>

#include <cstdio>
#include <string>

#include "app/panel/headline.h"
#include "app/panel/panel_sections.h"
#include "app/panel/panel_widgets.h"
#include "app/window/demo_state.h"

namespace ofps::app {
namespace {

struct Note {
  std::string title;
  std::string detail;
};

Note noteText(const DemoState& s, ToggleNote note) {
  char a[32], b[32], c[32], d[32];
  char line[256];
  const uint32_t total = s.level.session->drawRanges.drawnTriangles();
  const uint32_t drawn = s.culling.runs.triangles;
  switch (note) {
    case ToggleNote::Culling:
      if (!s.culling.enabled) {
        std::snprintf(line, sizeof line, "%s of %s triangles drawn: every one, seen or not",
                      grouped(drawn, a), grouped(total, b));
        return {"frustum culling off (C)", line};
      }
      std::snprintf(line, sizeof line,
                    "%s of %s triangles drawn; the octree tested %s node boxes to choose them",
                    grouped(drawn, a), grouped(total, b), grouped(s.culling.stats.nodesVisited, c));
      return {"frustum culling on (C)", line};
    case ToggleNote::Occlusion: {
      const OcclusionCullStats& o = s.occlusion.stats;
      if (!s.culling.enabled) {
        return {s.occlusion.enabled ? "occlusion culling on (X)" : "occlusion culling off (X)",
                "it works after frustum culling, which is off: press C"};
      }
      if (!s.occlusion.enabled) {
        std::snprintf(line, sizeof line, "%s of %s triangles drawn: all the frustum keeps",
                      grouped(drawn, a), grouped(total, b));
        return {"occlusion culling off (X)", line};
      }
      std::snprintf(line, sizeof line,
                    "%s of %s triangles drawn; %s of the frustum's %s are hidden behind walls",
                    grouped(drawn, a), grouped(total, b),
                    grouped(o.trianglesDrawnFrustumOnly - o.trianglesDrawn, c),
                    grouped(o.trianglesDrawnFrustumOnly, d));
      return {"occlusion culling on (X)", line};
    }
    case ToggleNote::Freeze:
      if (s.culling.frozen) {
        return {"culling frozen (V)",
                "the frustum stays here (white lines): fly out with F to see what it culled; "
                "what occlusion culled is drawn red. V again follows the camera."};
      }
      std::snprintf(line, sizeof line, "%s of %s triangles drawn from here", grouped(drawn, a),
                    grouped(total, b));
      return {"culling follows the camera again (V)", line};
    case ToggleNote::Respawn: {
      std::snprintf(line, sizeof line,
                    "R starts the level over: the props are cleared too (G spawns %s more)",
                    grouped(static_cast<uint64_t>(s.props.spawnCount), a));
      return {"respawned at the spawn point (R)", line};
    }
    case ToggleNote::Fly: {
      const Headline h = headlineOf(s);
      if (s.sim.controller().flying()) {
        return {"flying (F): no collisions",
                "the character asks the octree nothing; Space rises, Ctrl sinks; F lands you"};
      }
      std::snprintf(line, sizeof line,
                    "collisions again: the last step's %s queries tested %s node boxes and %s "
                    "triangles",
                    grouped(h.queries, a), grouped(h.queryBoxes, b), grouped(h.queryTriangles, c));
      return {"walking (F)", line};
    }
    case ToggleNote::Octree: {
      if (!s.overlay.show) {
        std::snprintf(line, sizeof line,
                      "the level alone; culling still tested %s node boxes this frame",
                      grouped(s.culling.stats.nodesVisited, a));
        return {"octree boxes off (O)", line};
      }
      uint64_t inRange = 0;  // the legend's counts over the depths shown
      for (int depth = s.overlay.minDepth; depth <= s.overlay.maxDepth; ++depth) {
        if (depth >= 0 && static_cast<size_t>(depth) < s.overlay.nodesPerDepth.size()) {
          inRange += s.overlay.nodesPerDepth[static_cast<size_t>(depth)];
        }
      }
      std::snprintf(line, sizeof line,
                    s.overlay.visibleOnly
                        ? "%s of the %s nodes at depths %d to %d are in view and drawn; colours in "
                          "the legend, [ and ] move the depths"
                        : "%s of the %s nodes at depths %d to %d drawn; colours in the legend, [ "
                          "and ] move the depths",
                    grouped(s.overlay.boxesDrawn, a), grouped(inRange, b), s.overlay.minDepth,
                    s.overlay.maxDepth);
      return {"octree boxes on (O)", line};
    }
    case ToggleNote::Wireframe:
      std::snprintf(line, sizeof line,
                    s.gpu.wireframe ? "%s of %s triangles drawn as outlines"
                                    : "%s of %s triangles drawn filled",
                    grouped(drawn, a), grouped(total, b));
      return {s.gpu.wireframe ? "wireframe on (T)" : "wireframe off (T)", line};
    case ToggleNote::Spawn:
      std::snprintf(line, sizeof line, "%s props live, in a hash grid of %s cells",
                    grouped(s.sim.props().liveCount(), a),
                    grouped(s.sim.props().grid().occupiedCells(), b));
      return {"props spawned (G)", line};
    case ToggleNote::Queries: {
      if (!s.overlay.queryNodes) return {"query view off (Q)", ""};
      const Headline h = headlineOf(s);
      std::snprintf(line, sizeof line,
                    "the last step's %s queries: %s node boxes tested, %s distinct nodes drawn; "
                    "%s triangles in contact",
                    grouped(h.queries, a), grouped(h.queryBoxes, b),
                    grouped(s.queries.shownNodes.size(), c), grouped(s.queries.contacts.size(), d));
      return {"query view on (Q): what the character's queries touched", line};
    }
    case ToggleNote::Grid: {
      if (!s.grid.show) return {"props grid off (B)", ""};
      const GridView& g = s.grid;
      if (g.objects == 0) {
        return {"props grid on (B)", "no props yet: G spawns some, a click throws one"};
      }
      std::snprintf(line, sizeof line,
                    "%s props in %s cells; the query tested %s props, brute force %s",
                    grouped(g.objects, a), grouped(g.occupiedCells, b), grouped(g.objectsTested, c),
                    grouped(g.bruteForce, d));
      return {"props grid on (B)", line};
    }
    case ToggleNote::Probe:
      if (!s.probe.active) return {"probe off (P)", "a click looks around again"};
      return {"probe on (P)",
              "click the level: a ray and the shape chosen in the Probe section, answered by the "
              "octree beside brute force"};
    case ToggleNote::None:
      break;
  }
  return {};
}

}  // namespace

void noteToggle(DemoState& s, ToggleNote note) {
  s.ui.note = note;
}

void updateToggleToast(DemoState& s) {
  if (!s.level.session) return;
  Toast& t = s.ui.toast;
  if (s.ui.note != ToggleNote::None) {
    Note n = noteText(s, s.ui.note);
    showToast(t, Toast::Kind::Info, std::move(n.title), std::move(n.detail), ImGui::GetTime());
    s.ui.noteShown = s.ui.note;
    s.ui.note = ToggleNote::None;
    return;
  }
  if (t.kind != Toast::Kind::Info || s.ui.noteShown == ToggleNote::None) return;
  // Shown: its numbers follow the frames (the same title: only the detail changes).
  Note n = noteText(s, s.ui.noteShown);
  if (n.title == t.title) t.detail = std::move(n.detail);
}

}  // namespace ofps::app
