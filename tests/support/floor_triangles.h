#pragma once
// Test helpers (header-only): the floor triangles of a level, where tests put cameras and start
// walks, and random points on them. A floor triangle is drawn (drawn[t] != 0, or drawn empty) and
// its normal lies within about 45 degrees of up (+Y: n.y > 0.7 |n|); degenerate triangles are not
// floors.
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <random>
#include <span>
#include <vector>

#include "octree_fps/spatial/octree.h"

namespace ofps::test {

inline std::vector<uint32_t> floorTriangles(std::span<const glm::vec3> positions,
                                            std::span<const uint32_t> indices,
                                            std::span<const uint8_t> drawn) {
  std::vector<uint32_t> floors;
  const uint32_t n = static_cast<uint32_t>(indices.size() / 3);
  for (uint32_t t = 0; t < n; ++t) {
    const glm::vec3 a = positions[indices[3 * t]];
    const glm::vec3 nrm =
        glm::cross(positions[indices[3 * t + 1]] - a, positions[indices[3 * t + 2]] - a);
    const float len = glm::length(nrm);
    if (len > 1e-6f && nrm.y > 0.7f * len && (drawn.empty() || drawn[t] != 0)) {
      floors.push_back(t);
    }
  }
  return floors;
}

// A random point on a random one of `floors` (uniform over the triangle) with 1.9 m of headroom
// above it in `octree`, or false (the caller tries again).
inline bool randomFloorSpot(std::span<const glm::vec3> positions, std::span<const uint32_t> indices,
                            const std::vector<uint32_t>& floors, const Octree& octree,
                            std::mt19937& rng, glm::vec3* out) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const uint32_t t = floors[static_cast<size_t>(u(rng) * floors.size()) % floors.size()];
  double r1 = u(rng), r2 = u(rng);
  if (r1 + r2 > 1.0) {
    r1 = 1.0 - r1;
    r2 = 1.0 - r2;
  }
  const glm::vec3 a = positions[indices[3 * t]];
  const glm::vec3 b = positions[indices[3 * t + 1]];
  const glm::vec3 c = positions[indices[3 * t + 2]];
  const glm::vec3 floor = a + (b - a) * static_cast<float>(r1) + (c - a) * static_cast<float>(r2);
  RayHit hit;
  const glm::vec3 start = floor + glm::vec3(0.0f, 0.01f, 0.0f);
  if (octree.raycast(start, {0.0f, 1.0f, 0.0f}, 1.9f, kOctreeAllLayers, hit)) return false;
  *out = floor;
  return true;
}

}  // namespace ofps::test
