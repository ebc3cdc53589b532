#pragma once
// The probe tool (P): the octree's queries made visible. In probe mode the mouse is free; a left
// click on the view casts a ray from the eye through the clicked pixel (Octree::raycast) and
// shows the hit triangle, the path from the root to the leaf that holds it, the nodes the ray
// entered and the triangles it tested, beside what brute force would do. With a sphere, capsule
// or box chosen, the shape is placed at the hit point (or at a distance in front of the eye on
// a miss) and shows every overlapping triangle, the nodes entered, and its push-out.
// Frame and units: world space, metres, Y up. Main thread only; owned by DemoState.
#include <glm/ext/vector_double3.hpp>
#include <glm/vec3.hpp>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "octree_fps/spatial/brute_force.h"
#include "octree_fps/spatial/octree.h"

namespace ofps::app {

struct DemoState;
struct LevelSession;

enum class ProbeShape : int { kRay = 0, kSphere, kCapsule, kBox };

// One query's work beside brute force's. Times are per query, averaged over repeats (a single
// query is too short for the clock).
struct ProbeWork {
  QueryStats octree;  // nodes visited, triangles tested (trace unset)
  QueryStats brute;   // triangles tested by BruteForce (every triangle of the mask)
  double octreeUs = 0.0;
  double bruteUs = 0.0;
  bool agrees = true;  // brute force gave the same answer
};

struct ProbeState {
  bool active = false;          // P: mouse free, left click probes
  bool panelOpenedFor = false;  // the `active` the panel last opened or closed its section for
  ProbeShape shape = ProbeShape::kRay;
  float radius = 0.5f;         // sphere and capsule radius, metres
  float capsuleHeight = 1.8f;  // capsule, end to end along Y, metres
  glm::vec3 boxHalf{0.5f};     // box half extents, metres
  float missDistance = 4.0f;   // a shape goes this far in front of the eye on a miss
  float lift = 0.0f;           // moves the shape along the hit normal from half sunk, metres

  // The last click's ray. Pixel (x, y) from the top left of the window; the ray goes through
  // the pixel's centre.
  bool hasRay = false;
  int clickX = 0, clickY = 0, windowWidth = 0, windowHeight = 0;
  glm::vec3 origin{0.0f}, dir{0.0f};  // dir is unit, so t is in metres
  bool hit = false;
  RayHit rayHit;
  Triangle hitTriangle{};
  std::vector<uint32_t> path;      // root .. leaf holding the hit triangle
  std::vector<uint32_t> rayNodes;  // nodes the ray entered (it tested their own triangles)
  ProbeWork rayWork;

  // The shape, placed by the last click (not for kRay).
  bool hasShape = false;
  glm::vec3 anchor{0.0f}, anchorNormal{0.0f, 1.0f, 0.0f};  // where the click placed it
  glm::vec3 center{0.0f};
  std::vector<uint32_t> overlapping;           // original indices
  std::vector<Triangle> overlappingTriangles;  // their vertices, for drawing
  std::vector<uint32_t> shapeNodes;            // nodes the overlap query entered
  ProbeWork shapeWork;
  bool touching = false;
  PushOut pushOut;
  QueryStats pushOutStats;

  // Scratch and the brute-force reference, made for the level on first use.
  std::vector<uint32_t> traceStorage = std::vector<uint32_t>(1u << 16);
  std::unique_ptr<BruteForce> brute;
  const LevelSession* bruteLevel = nullptr;
};

// demo_input.cpp's mouse hook: in probe mode a left press on the view casts the probe and
// returns true (the click is used); otherwise false and nothing happens.
bool probeClick(DemoState& s, int button, int action);
// --probe NAME: probe mode from the start with that shape ("" leaves the probe off).
void startProbe(ProbeState& p, const std::string& shapeName);
// P: in or out of probe mode (the mouse is released on entering).
void toggleProbe(DemoState& s);
// Casts from the camera through window pixel (x, y) and places the shape; what a click does.
void probeAtPixel(DemoState& s, double x, double y);
// A new level: the last probe's results and the brute-force copy go.
void forgetProbe(ProbeState& p);
// A rebuilt octree: the same ray and shape again, so the path and the work follow the new tree.
void refreshProbe(DemoState& s);
// Re-runs the shape's queries at its place (after a size or shape change).
void updateProbeShape(DemoState& s);
// probe_overlay.cpp: adds the probe's lines to s.gpu.lines (after buildOctreeOverlay).
void buildProbeOverlay(DemoState& s);
// probe_panel.cpp: the panel's Probe section.
void probePanel(DemoState& s);
// The last probe for --stats-json (null when nothing was probed).
// Positions (ray origin, hit point, vertices, the shape's centre) in the level file's
// coordinates: + origin (Level::origin).
nlohmann::json probeStats(const ProbeState& p, const glm::dvec3& origin);

}  // namespace ofps::app
