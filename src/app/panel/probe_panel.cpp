// The panel's Probe section: mode, shape and size, and what the last probe found, with the
// octree's work beside brute force's and a legend of the overlay's colours.
#include <imgui.h>

#include "app/panel/panel_widgets.h"
#include "app/tool/probe_tool.h"
#include "app/window/demo_state.h"

namespace ofps::app {
namespace {

// printf's variadic arguments promote floats; saying so keeps -Wdouble-promotion quiet.
double D(float v) {
  return static_cast<double>(v);
}

void workLines(const ProbeWork& w, const Octree& octree, const char* what) {
  char a[32], b[32];
  ImGui::Text("%s: %u of %u nodes visited, %s triangles tested", what, w.octree.nodesVisited,
              octree.nodeCount(), grouped(w.octree.trianglesTested, a));
  ImGui::Text("brute force: %s triangles tested", grouped(w.brute.trianglesTested, b));
  // Short lines: the panel wraps at '.', which would split a number.
  ImGui::Text("%.2f us per query", w.octreeUs);
  ImGui::Text("brute force %.1f us (%.0fx)", w.bruteUs,
              w.octreeUs > 0.0 ? w.bruteUs / w.octreeUs : 0.0);
  // Said either way: the check is the point of showing brute force beside the octree.
  if (w.agrees) {
    ImGui::TextColored(ImVec4(0.5f, 0.9f, 0.5f, 1.0f), "brute force: same answer");
  } else {
    ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "brute force disagrees");
  }
}

void legend() {
  ImGui::TextColored(ImVec4(1.0f, 0.9f, 0.1f, 1.0f), "hit / overlapping");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.15f, 0.8f, 0.85f, 1.0f), "tested");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.6f, 0.6f, 0.65f, 1.0f), "entered nodes");
  ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.65f, 1.0f), "path root..leaf");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.25f, 1.0f, 0.35f, 1.0f), "normal, push-out");
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(1.0f, 0.5f, 0.1f, 1.0f), "shape");
}

bool sizeSliders(ProbeState& p) {
  bool changed = false;
  switch (p.shape) {
    case ProbeShape::kSphere:
      changed |= ImGui::SliderFloat("radius (m)", &p.radius, 0.05f, 5.0f, "%.2f");
      break;
    case ProbeShape::kCapsule:
      changed |= ImGui::SliderFloat("radius (m)", &p.radius, 0.05f, 3.0f, "%.2f");
      changed |= ImGui::SliderFloat("height (m)", &p.capsuleHeight, 0.1f, 6.0f, "%.2f");
      break;
    case ProbeShape::kBox:
      changed |= ImGui::SliderFloat3("half extents (m)", &p.boxHalf.x, 0.05f, 5.0f, "%.2f");
      break;
    default:
      return false;
  }
  changed |= ImGui::SliderFloat("lift along normal (m)", &p.lift, -2.0f, 2.0f, "%.2f");
  helpMarker(
      "The shape is placed half sunk into the clicked surface; this moves it along the surface "
      "normal from there.");
  return changed;
}

}  // namespace

void probePanel(DemoState& s) {
  ProbeState& p = s.probe;
  // P opens the section and a second P closes it; in between the user may fold it.
  if (p.active != p.panelOpenedFor) {
    ImGui::SetNextItemOpen(p.active);
    p.panelOpenedFor = p.active;
  }
  if (!ImGui::CollapsingHeader("Probe")) return;
  bool active = p.active;
  if (ImGui::Checkbox("probe mode (P): click the view", &active)) toggleProbe(s);
  helpMarker(
      "A left click casts a ray from the eye through the pixel: the octree's nearest-hit query. "
      "With a shape chosen, the shape is placed where the ray hit and the overlap and push-out "
      "queries run there.");
  int shape = static_cast<int>(p.shape);
  bool changed = false;
  changed |= ImGui::RadioButton("ray", &shape, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("sphere", &shape, 1);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("capsule", &shape, 2);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("box", &shape, 3);
  p.shape = static_cast<ProbeShape>(shape);
  changed |= sizeSliders(p);
  if (changed && p.hasRay) {
    p.hasShape = p.shape != ProbeShape::kRay;
    updateProbeShape(s);
  }
  if (!p.hasRay) {
    ImGui::TextDisabled("no probe yet");
    return;
  }
  const Octree& octree = s.level.session->octree;
  legend();
  ImGui::Text("pixel %d, %d", p.clickX, p.clickY);
  ImGui::Text("ray from %.2f %.2f %.2f", D(p.origin.x), D(p.origin.y), D(p.origin.z));
  ImGui::Text("  along %.3f %.3f %.3f", D(p.dir.x), D(p.dir.y), D(p.dir.z));
  if (p.hit) {
    const RayHit& h = p.rayHit;
    ImGui::Text("hit triangle %u at %.3f m", h.triangle, D(h.t));
    ImGui::Text("  normal %.2f %.2f %.2f", D(h.normal.x), D(h.normal.y), D(h.normal.z));
    const Triangle& t = p.hitTriangle;
    ImGui::Text("  v0 %.2f %.2f %.2f", D(t.v0.x), D(t.v0.y), D(t.v0.z));
    ImGui::Text("  v1 %.2f %.2f %.2f", D(t.v1.x), D(t.v1.y), D(t.v1.z));
    ImGui::Text("  v2 %.2f %.2f %.2f", D(t.v2.x), D(t.v2.y), D(t.v2.z));
    if (!p.path.empty()) {
      const uint32_t leaf = p.path.back();
      // A node's own triangles sit in a leaf at the node's level, so the path can hold two nodes
      // of one level: say the path's length and the leaf's level apart.
      ImGui::Text("leaf %u: level %u, %u triangles; path root..leaf: %zu nodes", leaf,
                  octree.nodeLevel(leaf), octree.ownRange(leaf).count, p.path.size());
    }
  } else {
    ImGui::Text("miss");
  }
  workLines(p.rayWork, octree, "ray");
  if (!p.hasShape) return;
  ImGui::Separator();
  ImGui::Text("overlapping the %s: %zu triangles",
              p.shape == ProbeShape::kSphere    ? "sphere"
              : p.shape == ProbeShape::kCapsule ? "capsule"
                                                : "box",
              p.overlapping.size());
  workLines(p.shapeWork, octree, "overlap");
  if (p.touching) {
    ImGui::Text("push-out %.3f m, %u round(s)%s", D(p.pushOut.depth), p.pushOut.iterations,
                p.pushOut.resolved ? "" : " (unresolved)");
    ImGui::Text("  along %.2f %.2f %.2f", D(p.pushOut.normal.x), D(p.pushOut.normal.y),
                D(p.pushOut.normal.z));
  } else {
    ImGui::Text("no contact: nothing to push out of");
  }
}

}  // namespace ofps::app
