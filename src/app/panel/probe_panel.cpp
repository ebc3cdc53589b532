// The panel's Probe section: mode, shape and size, and what the last probe found, with the
// octree's work beside brute force's and a legend of the overlay's colours.
#include <imgui.h>

#include <string>

#include "app/panel/panel_widgets.h"
#include "app/tool/probe_tool.h"
#include "app/window/demo_state.h"

namespace ofps::app {
namespace {

// printf's variadic arguments promote floats; saying so keeps -Wdouble-promotion quiet.
// For "%.2f" (and "%.3f" of distances, never negative): no "-0.00".
double D(float v) {
  return tidy(static_cast<double>(v));
}

void workLines(const ProbeWork& w, const Octree& octree, const char* what) {
  char a[32], b[32], c[32];
  // This query's own counters (a fresh ProbeWork per click; QueryStats start at zero).
  textf("%s: %s of %s nodes visited, %s triangles tested", what, grouped(w.octree.nodesVisited, a),
        grouped(octree.nodeCount(), b), grouped(w.octree.trianglesTested, c));
  textf("brute force: %s triangles tested (every one that collides)",
        grouped(w.brute.trianglesTested, b));
  textf("%s per query; brute force %s (%.0fx)", microseconds(w.octreeUs, a),
        microseconds(w.bruteUs, b), w.octreeUs > 0.0 ? w.bruteUs / w.octreeUs : 0.0);
  // Said either way: the check is the point of showing brute force beside the octree.
  if (w.agrees) {
    textColoredf(ImVec4(0.5f, 0.9f, 0.5f, 1.0f), "brute force: same answer");
  } else {
    textColoredf(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "brute force disagrees");
  }
}

// The overlay's colours as words in those colours, as many to a line as fit (never one split).
void legend() {
  const struct {
    ImVec4 color;
    const char* text;
  } entries[] = {{ImVec4(1.0f, 0.9f, 0.1f, 1.0f), "hit / overlapping"},
                 {ImVec4(0.15f, 0.8f, 0.85f, 1.0f), "tested"},
                 {ImVec4(0.6f, 0.6f, 0.65f, 1.0f), "entered nodes"},
                 {ImVec4(1.0f, 0.35f, 0.65f, 1.0f), "path from root to leaf"},
                 {ImVec4(0.25f, 1.0f, 0.35f, 1.0f), "normal, push-out"},
                 {ImVec4(1.0f, 0.5f, 0.1f, 1.0f), "shape"}};
  bool first = true;
  for (const auto& e : entries) {
    if (!first) {
      ImGui::SameLine();
      if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(e.text).x) ImGui::NewLine();
    }
    first = false;
    ImGui::PushStyleColor(ImGuiCol_Text, e.color);
    ImGui::TextUnformatted(e.text);
    ImGui::PopStyleColor();
  }
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
    textDisabledf("no probe yet");
    return;
  }
  const Octree& octree = s.level.session->octree;
  legend();
  textf("pixel %d, %d", p.clickX, p.clickY);
  textf("ray from (%.2f, %.2f, %.2f) m", D(p.origin.x), D(p.origin.y), D(p.origin.z));
  textf("  along (%.3f, %.3f, %.3f)", D(p.dir.x), D(p.dir.y), D(p.dir.z));
  if (p.hit) {
    const RayHit& h = p.rayHit;
    textf("hit triangle %u at %.3f m", h.triangle, D(h.t));
    textf("  normal (%.2f, %.2f, %.2f)", D(h.normal.x), D(h.normal.y), D(h.normal.z));
    const Triangle& t = p.hitTriangle;
    textf("  v0 (%.2f, %.2f, %.2f) m", D(t.v0.x), D(t.v0.y), D(t.v0.z));
    textf("  v1 (%.2f, %.2f, %.2f) m", D(t.v1.x), D(t.v1.y), D(t.v1.z));
    textf("  v2 (%.2f, %.2f, %.2f) m", D(t.v2.x), D(t.v2.y), D(t.v2.z));
    if (!p.path.empty()) {
      const uint32_t leaf = p.path.back();
      // A node's own triangles sit in a leaf at the node's level (a depth repeats), and wide
      // nodes skip levels: the path's depths say both, so its length and the leaf's depth agree.
      std::string depths;
      for (const uint32_t n : p.path) {
        depths += (depths.empty() ? "" : ", ") + std::to_string(octree.nodeLevel(n));
      }
      textWithHelp(
          "A node's depth is its octree level: the root is 0 and each level halves the cell. "
          "Triangles kept in an inner node (they straddle its children's cells) sit in a leaf of "
          "their own at that node's depth, so a depth can repeat at the end of a path; a node "
          "that holds no triangles is replaced by its children (wide nodes), so depths can skip.",
          "leaf %u: depth %u, %u triangles; path from root to leaf: %zu nodes, depths %s", leaf,
          octree.nodeLevel(leaf), octree.ownRange(leaf).count, p.path.size(), depths.c_str());
    }
  } else {
    textf("miss");
  }
  workLines(p.rayWork, octree, "ray");
  if (!p.hasShape) return;
  ImGui::Separator();
  textf("overlapping the %s: %zu triangles",
        p.shape == ProbeShape::kSphere    ? "sphere"
        : p.shape == ProbeShape::kCapsule ? "capsule"
                                          : "box",
        p.overlapping.size());
  workLines(p.shapeWork, octree, "overlap");
  if (p.touching) {
    textf("push-out %.3f m, %u round(s)%s", D(p.pushOut.depth), p.pushOut.iterations,
          p.pushOut.resolved ? "" : " (unresolved)");
    textf("  along (%.2f, %.2f, %.2f)", D(p.pushOut.normal.x), D(p.pushOut.normal.y),
          D(p.pushOut.normal.z));
  } else {
    textf("no contact: nothing to push out of");
  }
}

}  // namespace ofps::app
