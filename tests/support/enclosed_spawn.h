#pragma once
// A spawn point inside a level for long controller runs (the soak test, the controller
// benchmark): walkable floor found by rays straight down, room for the standing capsule, scored
// by how many of 8 probe rays from the eye hit the level (an enclosed spot, not the roof of the
// world). Header-only, so that the benchmarks (which do not link the test support library) share
// this one copy. Deterministic (fixed seed). Returns false when no spot scores at least 7 of 8.
#include <cmath>
#include <glm/vec3.hpp>
#include <random>

#include "octree_fps/controller/controller_params.h"
#include "octree_fps/spatial/octree.h"

namespace ofps::test {

inline bool findEnclosedSpawn(const Octree& o, const ControllerParams& p, glm::vec3& outFeet) {
  const Aabb b = o.bounds();
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> ux(b.min.x, b.max.x), uz(b.min.z, b.max.z);
  int bestScore = -1;
  for (int column = 0; column < 2000 && bestScore < 8; ++column) {
    glm::vec3 origin(ux(rng), b.max.y + 1.0f, uz(rng));
    for (int hitNo = 0; hitNo < 16; ++hitNo) {
      RayHit hit;
      if (!o.raycast(origin, {0.0f, -1.0f, 0.0f}, b.max.y - b.min.y + 2.0f, kOctreeAllLayers,
                     hit)) {
        break;
      }
      origin = hit.point - glm::vec3(0.0f, 0.01f, 0.0f);
      if (hit.normal.y < 0.8f) continue;
      const glm::vec3 feet = hit.point + glm::vec3(0.0f, 0.05f, 0.0f);
      const glm::vec3 a = feet + glm::vec3(0.0f, p.radius, 0.0f);
      const glm::vec3 c = feet + glm::vec3(0.0f, p.height - p.radius, 0.0f);
      if (o.collectCapsule(a, c, p.radius + 0.02f, kOctreeAllLayers, {}) > 0) continue;
      const glm::vec3 eye = feet + glm::vec3(0.0f, p.eyeHeight, 0.0f);
      int score = 0;
      for (int k = 0; k < 8; ++k) {
        const float ang = 0.785398f * float(k);
        const glm::vec3 dir(std::cos(ang), k % 2 ? 0.7f : 0.0f, std::sin(ang));
        score += o.rayAny(eye, dir, 200.0f, kOctreeAllLayers) ? 1 : 0;
      }
      if (score > bestScore) {
        bestScore = score;
        outFeet = feet;
      }
    }
  }
  return bestScore >= 7;
}

}  // namespace ofps::test
