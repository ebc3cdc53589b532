// The probe tool's state changes: entering probe mode, casting a clicked pixel's ray, placing
// the shape and running its queries (octree and brute force, timed), and its --stats-json.
#include "app/tool/probe_tool.h"

#include <glad/gl.h>
// glad must come before GLFW so GLFW does not pull in the system GL header.
#include <GLFW/glfw3.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>

#include "app/simulation/stats_json.h"
#include "app/window/demo_state.h"
#include "level/level.h"

namespace ofps::app {
namespace {

// Indexed by ProbeShape: --probe's values and --stats-json's names.
const char* const kShapeNames[] = {"ray", "sphere", "capsule", "box"};
// The probe sees what the character collides with.
constexpr uint32_t kProbeLayers = kLayerSolid;
// A query takes about a microsecond, below the clock's resolution: time batches of calls for
// this long and keep the fastest batch, which a preemption or a cold cache cannot inflate (an
// average over the whole time could be all preemption on a busy machine).
constexpr double kTimingBudgetUs = 3000.0;
constexpr uint32_t kCallsPerBatch = 16;

template <class F>
double microsecondsPerCall(F&& f) {
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  double best = std::numeric_limits<double>::max();
  for (int batch = 0; batch < 3 || (Clock::now() - start) <
                                       std::chrono::duration<double, std::micro>(kTimingBudgetUs);
       ++batch) {
    const Clock::time_point t0 = Clock::now();
    for (uint32_t i = 0; i < kCallsPerBatch; ++i) f();
    best = std::min(best, std::chrono::duration<double, std::micro>(Clock::now() - t0).count());
  }
  return best / kCallsPerBatch;
}

const BruteForce& bruteForceOf(ProbeState& p, const LevelSession& session) {
  if (!p.brute || p.bruteLevel != &session) {
    const Level& l = session.level;
    p.brute = std::make_unique<BruteForce>(
        BruteForce::fromIndexed(l.collisionPositions, l.collisionIndices, l.collisionLayers));
    p.bruteLevel = &session;
  }
  return *p.brute;
}

// A trace into the probe's scratch, reset.
QueryTrace freshTrace(ProbeState& p) {
  return QueryTrace{p.traceStorage.data(), static_cast<uint32_t>(p.traceStorage.size())};
}

std::vector<uint32_t> tracedNodes(const QueryTrace& trace) {
  return std::vector<uint32_t>(trace.nodes, trace.nodes + trace.stored());
}

// The unit direction from the eye through the centre of window pixel (x, y), for the camera's
// perspective (glm::perspective's vertical field of view; aspect of the drawn frame).
glm::vec3 pixelRay(const ViewCamera& camera, float aspect, double x, double y, int width,
                   int height) {
  const float ndcX = static_cast<float>(2.0 * (x + 0.5) / width - 1.0);
  const float ndcY = static_cast<float>(1.0 - 2.0 * (y + 0.5) / height);
  const glm::vec3 forward = camera.forward();
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0.0f, 1.0f, 0.0f)));
  const glm::vec3 up = glm::cross(right, forward);
  const float tanHalf = std::tan(camera.verticalFovRadians * 0.5f);
  return glm::normalize(forward + right * (ndcX * tanHalf * aspect) + up * (ndcY * tanHalf));
}

void castRay(ProbeState& p, const LevelSession& session) {
  const Octree& octree = session.octree;
  const BruteForce& brute = bruteForceOf(p, session);
  const float tMax = std::numeric_limits<float>::max();
  QueryTrace trace = freshTrace(p);
  ProbeWork w;
  w.octree.trace = &trace;
  RayHit hit;
  p.hit = octree.raycast(p.origin, p.dir, tMax, kProbeLayers, hit, &w.octree);
  w.octree.trace = nullptr;
  p.rayNodes = tracedNodes(trace);
  RayHit bruteHit;
  const bool bruteFound = brute.raycast(p.origin, p.dir, tMax, kProbeLayers, bruteHit, &w.brute);
  w.agrees = bruteFound == p.hit && (!p.hit || bruteHit.triangle == hit.triangle);
  RayHit scratch;
  w.octreeUs = microsecondsPerCall(
      [&] { octree.raycast(p.origin, p.dir, tMax, kProbeLayers, scratch, nullptr); });
  w.bruteUs = microsecondsPerCall(
      [&] { brute.raycast(p.origin, p.dir, tMax, kProbeLayers, scratch, nullptr); });
  p.rayWork = w;
  p.path.clear();
  if (!p.hit) return;
  p.rayHit = hit;
  const uint32_t slot = octree.slotOfTriangle(hit.triangle);
  p.hitTriangle = octree.triangle(slot);
  uint32_t path[kOctreeMaxPathLength];
  const uint32_t n = octree.pathToSlot(slot, path);
  p.path.assign(path, path + std::min(n, kOctreeMaxPathLength));
}

}  // namespace

void startProbe(ProbeState& p, const std::string& shapeName) {
  for (int i = 0; i < 4; ++i) {
    if (shapeName == kShapeNames[i]) {
      p.active = true;
      p.shape = static_cast<ProbeShape>(i);
    }
  }
}

void toggleProbe(DemoState& s) {
  s.probe.active = !s.probe.active;
  if (s.probe.active && s.input.mouseCaptured) {
    // Picking needs the pointer.
    s.input.mouseCaptured = false;
    s.input.firstMouse = true;
    glfwSetInputMode(s.input.window, GLFW_CURSOR, GLFW_CURSOR_NORMAL);
  }
}

bool probeClick(DemoState& s, int button, int action) {
  if (!s.probe.active || button != GLFW_MOUSE_BUTTON_LEFT) return false;
  if (action != GLFW_PRESS) return true;
  int width = 0, height = 0;
  glfwGetWindowSize(s.input.window, &width, &height);
  double x = 0.0, y = 0.0;
  if (s.input.mouseCaptured) {
    // Mouse look in probe mode: the probe goes through the middle of the view.
    x = std::floor(width * 0.5);
    y = std::floor(height * 0.5);
  } else {
    glfwGetCursorPos(s.input.window, &x, &y);
  }
  probeAtPixel(s, x, y);
  return true;
}

void probeAtPixel(DemoState& s, double x, double y) {
  ProbeState& p = s.probe;
  if (!s.level.session || s.level.session->octree.empty()) return;
  int width = 0, height = 0;
  glfwGetWindowSize(s.input.window, &width, &height);
  if (width <= 0 || height <= 0) return;
  p.hasRay = true;
  p.clickX = static_cast<int>(std::floor(x));
  p.clickY = static_cast<int>(std::floor(y));
  p.windowWidth = width;
  p.windowHeight = height;
  p.origin = s.camera.position;
  p.dir = pixelRay(s.camera, s.frame.lastAspect, p.clickX, p.clickY, width, height);
  castRay(p, *s.level.session);
  if (p.hit) {
    p.anchor = p.rayHit.point;
    p.anchorNormal = p.rayHit.normal;
  } else {
    p.anchor = p.origin + p.dir * p.missDistance;
    p.anchorNormal = -p.dir;
  }
  p.hasShape = p.shape != ProbeShape::kRay;
  updateProbeShape(s);
}

void forgetProbe(ProbeState& p) {
  p.hasRay = p.hit = p.hasShape = false;
  p.path.clear();
  p.rayNodes.clear();
  p.shapeNodes.clear();
  p.overlapping.clear();
  p.overlappingTriangles.clear();
  p.brute.reset();
  p.bruteLevel = nullptr;
}

void refreshProbe(DemoState& s) {
  if (!s.probe.hasRay || !s.level.session || s.level.session->octree.empty()) return;
  castRay(s.probe, *s.level.session);
  updateProbeShape(s);
}

void updateProbeShape(DemoState& s) {
  ProbeState& p = s.probe;
  if (!p.hasShape || p.shape == ProbeShape::kRay || !s.level.session) {
    p.hasShape = false;
    return;
  }
  const Octree& octree = s.level.session->octree;
  const BruteForce& brute = bruteForceOf(p, *s.level.session);
  const float r = p.radius;
  const glm::vec3 axis(0.0f, std::max(0.0f, p.capsuleHeight * 0.5f - r), 0.0f);
  // Sunk halfway into the clicked surface, so that on a flat patch the push-out is half the
  // shape's reach along the normal, back out along it.
  const glm::vec3 n = p.anchorNormal;
  const float reach = p.shape == ProbeShape::kSphere    ? r
                      : p.shape == ProbeShape::kCapsule ? r + std::abs(glm::dot(n, axis))
                                                        : glm::dot(glm::abs(n), p.boxHalf);
  p.center = p.anchor + n * (0.5f * reach + p.lift);
  const glm::vec3 c = p.center;
  const Aabb box = Aabb::fromCenterHalfExtents(c, p.boxHalf);
  QueryTrace trace = freshTrace(p);
  ProbeWork w;
  w.octree.trace = &trace;
  p.overlapping.clear();
  auto collect = [&p](uint32_t t) { p.overlapping.push_back(t); };
  std::vector<uint32_t> bruteSet;
  // Each shape's three calls: traced overlap, brute-force overlap, and the timed overlap.
  const auto overlapOctree = [&](QueryStats* st, auto&& f) {
    switch (p.shape) {
      case ProbeShape::kSphere:
        return octree.overlapSphere(c, r, kProbeLayers, f, st);
      case ProbeShape::kCapsule:
        return octree.overlapCapsule(c - axis, c + axis, r, kProbeLayers, f, st);
      default:
        return octree.overlapBox(box, kProbeLayers, f, st);
    }
  };
  const auto overlapBrute = [&](QueryStats* st) {
    switch (p.shape) {
      case ProbeShape::kSphere:
        return brute.overlapSphere(c, r, kProbeLayers, bruteSet, st);
      case ProbeShape::kCapsule:
        return brute.overlapCapsule(c - axis, c + axis, r, kProbeLayers, bruteSet, st);
      default:
        return brute.overlapBox(box, kProbeLayers, bruteSet, st);
    }
  };
  overlapOctree(&w.octree, collect);
  w.octree.trace = nullptr;
  p.shapeNodes = tracedNodes(trace);
  overlapBrute(&w.brute);
  const Level& level = s.level.session->level;
  p.overlappingTriangles.clear();
  for (const uint32_t t : p.overlapping) {
    const uint32_t* i = &level.collisionIndices[3 * static_cast<size_t>(t)];
    p.overlappingTriangles.push_back({level.collisionPositions[i[0]],
                                      level.collisionPositions[i[1]],
                                      level.collisionPositions[i[2]]});
  }
  std::vector<uint32_t> sorted = p.overlapping;
  std::sort(sorted.begin(), sorted.end());
  w.agrees = sorted == bruteSet;
  w.octreeUs = microsecondsPerCall([&] { overlapOctree(nullptr, [](uint32_t) {}); });
  w.bruteUs = microsecondsPerCall([&] { overlapBrute(nullptr); });
  p.shapeWork = w;
  p.pushOutStats = QueryStats{};
  switch (p.shape) {
    case ProbeShape::kSphere:
      p.touching = octree.sphereIntersect(c, r, kProbeLayers, p.pushOut, &p.pushOutStats);
      break;
    case ProbeShape::kCapsule:
      p.touching =
          octree.capsuleIntersect(c - axis, c + axis, r, kProbeLayers, p.pushOut, &p.pushOutStats);
      break;
    default:
      p.touching = octree.boxIntersect(box, kProbeLayers, p.pushOut, &p.pushOutStats);
      break;
  }
}

nlohmann::json probeStats(const ProbeState& p, const glm::dvec3& origin) {
  if (!p.hasRay) return nullptr;
  const auto vec = [](const glm::vec3& v) { return nlohmann::json{v.x, v.y, v.z}; };
  // Positions in the level file's coordinates (the local frame's origin added back).
  const auto pos = [&origin](const glm::vec3& v) { return fileCoordinates(v, origin); };
  const auto work = [](const ProbeWork& w) {
    return nlohmann::json{{"nodes_visited", w.octree.nodesVisited},
                          {"triangles_tested", w.octree.trianglesTested},
                          {"brute_force_triangles_tested", w.brute.trianglesTested},
                          {"octree_us", w.octreeUs},
                          {"brute_force_us", w.bruteUs},
                          {"agrees_with_brute_force", w.agrees}};
  };
  nlohmann::json j;
  j["active"] = p.active;
  j["shape"] = kShapeNames[static_cast<int>(p.shape)];
  j["click_px"] = {p.clickX, p.clickY};
  j["window_px"] = {p.windowWidth, p.windowHeight};
  j["origin"] = pos(p.origin);
  j["direction"] = vec(p.dir);
  j["hit"] = p.hit;
  j["ray"] = work(p.rayWork);
  j["ray"]["nodes_entered"] = p.rayNodes.size();
  if (p.hit) {
    j["triangle"] = p.rayHit.triangle;
    j["t"] = p.rayHit.t;
    j["point"] = pos(p.rayHit.point);
    j["normal"] = vec(p.rayHit.normal);
    j["triangle_vertices"] = {pos(p.hitTriangle.v0), pos(p.hitTriangle.v1), pos(p.hitTriangle.v2)};
    j["path"] = p.path;
  }
  if (p.hasShape) {
    j["probe_shape"] = {{"center", pos(p.center)},
                        {"radius", p.radius},
                        {"overlapping", p.overlapping.size()},
                        {"nodes_entered", p.shapeNodes.size()},
                        {"work", work(p.shapeWork)},
                        {"touching", p.touching},
                        {"push_out_normal", vec(p.pushOut.normal)},
                        {"push_out_depth", p.pushOut.depth}};
  }
  return j;
}

}  // namespace ofps::app
