#pragma once
// Geometry builders and a scenario harness for the controller tests: small levels built in the
// test, a fixed 120 Hz step, and the invariants every step must keep (no penetration deeper than
// the skin, checked with the octree's capsule overlap).

#include <cstdint>
#include <functional>
#include <glm/vec3.hpp>
#include <vector>

#include "octree_fps/controller/character_controller.h"
#include "octree_fps/spatial/octree.h"

namespace ofps::test {

struct MeshBuilder {
  std::vector<Triangle> tris;
  glm::vec3 offset{0.0f};  // added to every vertex (levels far from the origin)

  void tri(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
    tris.push_back({a + offset, b + offset, c + offset});
  }
  void quad(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c, const glm::vec3& d) {
    tri(a, b, c);
    tri(a, c, d);
  }
  // Closed axis-aligned box (12 triangles).
  void box(const glm::vec3& mn, const glm::vec3& mx);
  // Horizontal floor at y over [x0,x1] x [z0,z1] split into nx * nz quads (seams).
  void floor(float y, float x0, float x1, float z0, float z1, uint32_t nx = 1, uint32_t nz = 1);
  // Solid ramp rising along -Z from z = z0 (at y = 0) with the given angle to height `top`,
  // x in [x0, x1], then a flat top `topLength` long; closed underneath.
  void ramp(float angleDeg, float top, float x0, float x1, float z0, float topLength);
  // Staircase along -Z: `steps` boxes of `rise` and `tread`, the first riser at z0, x in
  // [x0, x1]; the last step extends `landing` further.
  void stairs(float rise, float tread, uint32_t steps, float x0, float x1, float z0, float landing);
  Octree build(uint32_t trianglesPerLeaf = 8) const;
};

// Closest point of triangle t to p, by its Voronoi regions (vertices, edges, face) written out
// here, independent of src/octree_fps/geometry (a reference for the tests).
glm::vec3 closestOnTriangle(const glm::vec3& p, const Triangle& t);
// Distance between segment [a, b] and triangle t: golden-section search over the segment of the
// convex function s -> |closest point - point at s|, refined below 1e-6 of the segment, with
// both ends tried too. A reference, slow: for checking, not for queries.
float segmentTriangleDistance(const glm::vec3& a, const glm::vec3& b, const Triangle& t);

// One simulated character on one octree, with per-step invariant checks.
struct Sim {
  const Octree& octree;
  CharacterController ctrl;
  CharacterInput input;
  float dt;
  double time = 0.0;
  uint32_t penetratingSteps = 0;  // steps ending with penetration deeper than the skin
  float minFeetY = 1e30f;
  float maxFeetY = -1e30f;

  Sim(const Octree& o, const ControllerParams& p, const glm::vec3& feet, float yawDeg = 0.0f);
  void setYawDeg(float deg);
  // Runs `seconds` of fixed steps with the current input; onStep (optional) after each.
  void run(double seconds, const std::function<void(const Sim&)>& onStep = {});
  // True when the capsule shrunk by the skin (radius R - skin) overlaps the level: the capsule
  // then penetrates deeper than the skin width, which the controller must never allow.
  bool penetratesDeeperThanSkin() const;
};

}  // namespace ofps::test
