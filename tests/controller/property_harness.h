#pragma once
// The harness of the controller's property tests: an independent reference for the capsule's
// contacts (brute force over the test's own triangles, with a segment-triangle distance of its
// own), and a walker that checks the invariants on every step. Shared by the property test
// files (controller_properties_test.cpp, controller_descent_test.cpp).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/vec2.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "controller_test_util.h"
#include "octree_fps/controller/character_controller.h"
#include "octree_fps/controller/controller_params.h"

namespace ofps::test {

constexpr float kDeg = 0.017453292519943295f;
constexpr float kTol = 1e-3f;  // 1 mm
inline constexpr float kRates[] = {30.0f, 60.0f, 120.0f, 240.0f, 500.0f};

// ---- Independent reference geometry --------------------------------------------------------

// Closest pair between a vertical segment [lo, hi] (x, z fixed) and a triangle: the distance is
// minimised over the segment's height by golden-section search on the convex function
// h -> dist(point at h, triangle), refined to well below 0.1 mm.
struct Contact {
  float distance;
  glm::vec3 onAxis, onLevel;
};
inline Contact segmentTriangle(const glm::vec3& lo, float length, const Triangle& t) {
  auto at = [&](float h) {
    const glm::vec3 p = lo + glm::vec3(0.0f, h, 0.0f);
    const glm::vec3 q = closestOnTriangle(p, t);
    return Contact{glm::length(p - q), p, q};
  };
  float x0 = 0.0f, x1 = length;
  const float g = 0.6180339887f;
  for (int i = 0; i < 60 && x1 - x0 > 1e-6f; ++i) {
    const float m1 = x1 - g * (x1 - x0), m2 = x0 + g * (x1 - x0);
    if (at(m1).distance <= at(m2).distance) {
      x1 = m2;
    } else {
      x0 = m1;
    }
  }
  Contact best = at(0.5f * (x0 + x1));
  for (float h : {0.0f, length}) {
    const Contact c = at(h);
    if (c.distance < best.distance) best = c;
  }
  return best;
}

inline glm::vec3 faceNormal(const Triangle& t) {
  return glm::normalize(glm::cross(t.v1 - t.v0, t.v2 - t.v0));
}

struct Level {
  MeshBuilder mesh;
  Octree octree;
  void build() { octree = mesh.build(); }
};

struct Reference {
  float gap = 1e9f;              // distance from the capsule to the level (axis distance - R)
  bool walkableContact = false;  // within skin + 1 mm, normal within max_slope - slack
  bool anyUpContact = false;     // within skin + 1.5 mm, normal within max_slope + slack
  // Stick to the floor: a contact within skin + 1.5 mm whose normal points up (any slope) where a
  // walkable face meets (a nose), with walkable ground under the capsule's footprint lower than
  // the nose by at most stick_to_floor (+ 1 mm): the one other way to be grounded.
  bool noseWithGroundBelow = false;
};

// Height of triangle t straight above or below (x, z), if (x, z) is inside its projection onto
// the horizontal plane (barycentric coordinates in XZ, written here for the reference).
inline bool heightAt(const Triangle& t, float x, float z, float& outY) {
  const float ax = t.v1.x - t.v0.x, az = t.v1.z - t.v0.z;
  const float bx = t.v2.x - t.v0.x, bz = t.v2.z - t.v0.z;
  const float det = ax * bz - az * bx;
  if (std::abs(det) < 1e-12f) return false;  // vertical: no height over a point
  const float px = x - t.v0.x, pz = z - t.v0.z;
  const float u = (px * bz - pz * bx) / det, v = (ax * pz - az * px) / det;
  if (u < -1e-6f || v < -1e-6f || u + v > 1.0f + 1e-6f) return false;
  outY = t.v0.y + u * (t.v1.y - t.v0.y) + v * (t.v2.y - t.v0.y);
  return true;
}

// Contacts of the capsule at `feet` with every triangle near it (brute force over the octree's
// candidates, which are only used to cut the work: a generous radius).
inline Reference reference(const Level& lv, const CharacterController& c) {
  const ControllerParams& p = c.params();
  const float r = p.radius, skin = p.skin;
  const glm::vec3 f = c.feet();
  const glm::vec3 lo = f + glm::vec3(0.0f, r, 0.0f);
  const float len = std::max(c.currentHeight() - 2.0f * r, 0.0f);
  std::vector<uint32_t> ids(256);
  const uint32_t n = lv.octree.collectCapsule(lo, lo + glm::vec3(0.0f, len, 0.0f), r + 0.2f,
                                              kOctreeAllLayers, ids);
  ids.resize(std::min<uint32_t>(n, 256));
  const float cosMax = std::cos(p.maxSlopeDeg * kDeg);
  const float cosStrict = std::cos((p.maxSlopeDeg - 1.5f) * kDeg);
  const float cosLoose = std::cos((p.maxSlopeDeg + 1.5f) * kDeg);
  Reference ref;
  for (uint32_t id : ids) {
    const Triangle& t = lv.mesh.tris[id];
    const Contact ct = segmentTriangle(lo, len, t);
    ref.gap = std::min(ref.gap, ct.distance - r);
    if (ct.distance - r > skin + 1.5f * kTol || ct.distance <= 0.0f) continue;
    const glm::vec3 nrm = (ct.onAxis - ct.onLevel) / ct.distance;
    // A walkable face meeting at the contact point (within 1 mm of it).
    bool face = false;
    for (uint32_t other : ids) {
      const Triangle& u = lv.mesh.tris[other];
      const glm::vec3 fn = faceNormal(u);
      if (std::abs(fn.y) < cosMax - 1e-4f) continue;
      if (glm::length(closestOnTriangle(ct.onLevel, u) - ct.onLevel) <= kTol) face = true;
    }
    if (!face) continue;
    if (nrm.y >= cosLoose) ref.anyUpContact = true;
    if (nrm.y >= cosStrict && ct.distance - r <= skin + kTol) ref.walkableContact = true;
    if (nrm.y > 0.0f && p.stickToFloor > 0.0f && !ref.noseWithGroundBelow) {
      // Walkable ground under the footprint (the axis and 16 points at half and nine tenths of
      // the radius around it), lower than the nose, within stick_to_floor of it.
      const float noseY = ct.onLevel.y;
      std::vector<uint32_t> below(1024);
      const uint32_t m = lv.octree.collectCapsule(
          lo, lo + glm::vec3(0.0f, len, 0.0f), r + p.stickToFloor + 0.1f, kOctreeAllLayers, below);
      below.resize(std::min<uint32_t>(m, 1024));
      for (uint32_t other : below) {
        const Triangle& u = lv.mesh.tris[other];
        if (std::abs(faceNormal(u).y) < cosMax - 1e-4f) continue;
        for (int k = 0; k <= 16 && !ref.noseWithGroundBelow; ++k) {
          const float ring = k == 0 ? 0.0f : (k <= 8 ? 0.5f : 0.9f) * r;
          const float ang = float(k) * 0.7853981634f;
          float y = 0.0f;
          if (heightAt(u, f.x + ring * std::cos(ang), f.z + ring * std::sin(ang), y) &&
              y < noseY - kTol && noseY - y <= p.stickToFloor + kTol) {
            ref.noseWithGroundBelow = true;
          }
        }
      }
    }
  }
  return ref;
}

// ---- Runner with per-step invariants --------------------------------------------------------

struct Checks {
  bool restGap = true;      // check the rest gap on grounded steps
  bool groundedIff = true;  // check grounded <=> walkable contact
  bool windowSpeed = true;  // check the 0.25 s window against the commanded speed (off where
                            // gravity drives the motion: sliding off a steep spike)
  uint32_t failures = 0;
  std::string first;
  void fail(const std::string& what) {
    if (failures++ == 0) first = what;
  }
};

struct Walker {
  const Level& lv;
  CharacterController ctrl;
  CharacterInput input;
  float dt;
  float commanded;  // commanded horizontal speed, m/s
  uint64_t steps = 0;
  std::vector<glm::vec3> history;  // feet after every step
  uint32_t groundedSteps = 0;

  Walker(const Level& l, const ControllerParams& p, const glm::vec3& feet, float yawDeg)
      : lv(l), ctrl(p), dt(p.tickSeconds()), commanded(p.walkSpeed) {
    ctrl.teleport(feet, yawDeg * kDeg);
    input.yaw = yawDeg * kDeg;
    history.push_back(feet);
  }

  void run(float seconds, Checks& chk, const std::string& label) {
    const auto n = static_cast<uint64_t>(std::llround(seconds / dt));
    const ControllerParams& p = ctrl.params();
    const size_t window = std::max<size_t>(1, static_cast<size_t>(std::lround(0.25f / dt)));
    for (uint64_t i = 0; i < n; ++i) {
      const glm::vec3 before = ctrl.feet();
      const glm::vec3 v0 = ctrl.velocity();
      ctrl.step(lv.octree, input, dt);
      ++steps;
      const glm::vec3 f = ctrl.feet();
      history.push_back(f);
      std::ostringstream where;
      where << label << " step " << steps << " feet (" << f.x << ", " << f.y << ", " << f.z << ")";
      const Reference ref = reference(lv, ctrl);
      if (ref.gap < -kTol)
        chk.fail(where.str() + ": inside the level by " + std::to_string(-ref.gap));
      const float dh = glm::length(glm::vec2(f.x - before.x, f.z - before.z));
      const float vmax = std::max(glm::length(glm::vec2(v0.x, v0.z)), commanded);
      if (dh > vmax * dt + p.skin + 1e-5f) {
        chk.fail(where.str() + ": moved " + std::to_string(dh) + " m in one step, allowed " +
                 std::to_string(vmax * dt + p.skin));
      }
      if (chk.windowSpeed && history.size() > window) {
        const glm::vec3 w = history[history.size() - 1 - window];
        const float dw = glm::length(glm::vec2(f.x - w.x, f.z - w.z));
        if (dw > commanded * float(window) * dt + p.skin) {
          chk.fail(where.str() + ": " + std::to_string(dw / (float(window) * dt)) +
                   " m/s over 0.25 s, commanded " + std::to_string(commanded));
        }
      }
      const bool nose = ctrl.lastStepStats().steppedUp;
      if (ctrl.grounded()) {
        ++groundedSteps;
        if (chk.restGap && std::abs(ref.gap - p.skin) > kTol) {
          chk.fail(where.str() + ": grounded with gap " + std::to_string(ref.gap));
        }
        if (chk.groundedIff && !nose && !ref.anyUpContact && !ref.noseWithGroundBelow) {
          chk.fail(where.str() +
                   ": grounded without a walkable contact or a nose with ground "
                   "within stick_to_floor below");
        }
      } else if (chk.groundedIff && ref.walkableContact && ctrl.velocity().y <= 0.0f) {
        chk.fail(where.str() + ": walkable contact but not grounded");
      }
    }
  }
};

inline ControllerParams at(float hz) {
  ControllerParams p;
  p.tickHz = hz;
  return p;
}

inline std::string label(const char* what, float value, float hz) {
  std::ostringstream s;
  s << what << " " << value << " at " << hz << " Hz";
  return s.str();
}

inline void addGround(MeshBuilder& m) {
  m.box({-40.0f, -1.0f, -40.0f}, {40.0f, 0.0f, 40.0f});
}

}  // namespace ofps::test
