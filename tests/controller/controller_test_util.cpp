#include "controller_test_util.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

namespace ofps::test {

glm::vec3 closestOnTriangle(const glm::vec3& p, const Triangle& t) {
  // Voronoi regions of the triangle (vertices, edges, face), written out directly.
  const glm::vec3 a = t.v0, b = t.v1, c = t.v2;
  const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const glm::vec3 bp = p - b;
  const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
  const glm::vec3 cp = p - c;
  const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) {
    return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
  }
  const float den = 1.0f / (va + vb + vc);
  return a + ab * (vb * den) + ac * (vc * den);
}

float segmentTriangleDistance(const glm::vec3& a, const glm::vec3& b, const Triangle& t) {
  auto at = [&](float s) {
    const glm::vec3 p = a + (b - a) * s;
    return glm::length(p - closestOnTriangle(p, t));
  };
  float x0 = 0.0f, x1 = 1.0f;
  const float g = 0.6180339887f;
  for (int i = 0; i < 60 && x1 - x0 > 1e-6f; ++i) {
    const float m1 = x1 - g * (x1 - x0), m2 = x0 + g * (x1 - x0);
    if (at(m1) <= at(m2)) {
      x1 = m2;
    } else {
      x0 = m1;
    }
  }
  return std::min({at(0.5f * (x0 + x1)), at(0.0f), at(1.0f)});
}

void MeshBuilder::box(const glm::vec3& mn, const glm::vec3& mx) {
  const glm::vec3 p[8] = {{mn.x, mn.y, mn.z}, {mx.x, mn.y, mn.z}, {mx.x, mx.y, mn.z},
                          {mn.x, mx.y, mn.z}, {mn.x, mn.y, mx.z}, {mx.x, mn.y, mx.z},
                          {mx.x, mx.y, mx.z}, {mn.x, mx.y, mx.z}};
  quad(p[0], p[3], p[2], p[1]);  // -z
  quad(p[4], p[5], p[6], p[7]);  // +z
  quad(p[0], p[4], p[7], p[3]);  // -x
  quad(p[1], p[2], p[6], p[5]);  // +x
  quad(p[3], p[7], p[6], p[2]);  // +y
  quad(p[0], p[1], p[5], p[4]);  // -y
}

void MeshBuilder::floor(float y, float x0, float x1, float z0, float z1, uint32_t nx, uint32_t nz) {
  for (uint32_t i = 0; i < nx; ++i) {
    for (uint32_t k = 0; k < nz; ++k) {
      const float xa = x0 + (x1 - x0) * float(i) / float(nx);
      const float xb = x0 + (x1 - x0) * float(i + 1) / float(nx);
      const float za = z0 + (z1 - z0) * float(k) / float(nz);
      const float zb = z0 + (z1 - z0) * float(k + 1) / float(nz);
      quad({xa, y, za}, {xa, y, zb}, {xb, y, zb}, {xb, y, za});
    }
  }
}

void MeshBuilder::ramp(float angleDeg, float top, float x0, float x1, float z0, float topLength) {
  const float run = top / std::tan(angleDeg * 0.017453292519943295f);
  const float z1 = z0 - run, z2 = z1 - topLength;
  // slope
  quad({x0, 0, z0}, {x1, 0, z0}, {x1, top, z1}, {x0, top, z1});
  // flat top
  quad({x0, top, z1}, {x1, top, z1}, {x1, top, z2}, {x0, top, z2});
  // sides and back
  tri({x0, 0, z0}, {x0, top, z1}, {x0, 0, z1});
  quad({x0, 0, z1}, {x0, top, z1}, {x0, top, z2}, {x0, 0, z2});
  tri({x1, 0, z0}, {x1, 0, z1}, {x1, top, z1});
  quad({x1, 0, z1}, {x1, 0, z2}, {x1, top, z2}, {x1, top, z1});
  quad({x0, 0, z2}, {x0, top, z2}, {x1, top, z2}, {x1, 0, z2});
}

void MeshBuilder::stairs(float rise, float tread, uint32_t steps, float x0, float x1, float z0,
                         float landing) {
  for (uint32_t i = 0; i < steps; ++i) {
    const float zFront = z0 - tread * float(i);
    const float zBack = z0 - tread * float(steps) - landing;
    box({x0, 0.0f, zBack}, {x1, rise * float(i + 1), zFront});
  }
}

Octree MeshBuilder::build(uint32_t trianglesPerLeaf) const {
  Octree o;
  OctreeBuildParams p;
  p.trianglesPerLeaf = trianglesPerLeaf;
  o.build(tris, {}, p);
  return o;
}

Sim::Sim(const Octree& o, const ControllerParams& p, const glm::vec3& feet, float yawDeg)
    : octree(o), ctrl(p), dt(p.tickSeconds()) {
  ctrl.setSpawn(feet, 0.0f);
  ctrl.teleport(feet, 0.0f);
  setYawDeg(yawDeg);
}

void Sim::setYawDeg(float deg) {
  input.yaw = deg * 0.017453292519943295f;
}

bool Sim::penetratesDeeperThanSkin() const {
  glm::vec3 a, b;
  ctrl.capsule(a, b);
  const float r = ctrl.params().radius - ctrl.params().skin;
  return octree.collectCapsule(a, b, r, kOctreeAllLayers, {}) > 0;
}

void Sim::run(double seconds, const std::function<void(const Sim&)>& onStep) {
  const auto n = static_cast<uint64_t>(std::llround(seconds / double(dt)));
  for (uint64_t i = 0; i < n; ++i) {
    ctrl.step(octree, input, dt);
    time += double(dt);
    if (penetratesDeeperThanSkin()) ++penetratingSteps;
    minFeetY = std::min(minFeetY, ctrl.feet().y);
    maxFeetY = std::max(maxFeetY, ctrl.feet().y);
    if (onStep) onStep(*this);
  }
}

}  // namespace ofps::test
