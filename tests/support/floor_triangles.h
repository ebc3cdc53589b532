#pragma once
// Test helper (header-only): the floor triangles of a level, where tests put cameras and start
// walks. A floor triangle is drawn (drawn[t] != 0, or drawn empty) and its normal lies within
// about 45 degrees of up (+Y: n.y > 0.7 |n|); degenerate triangles are not floors.
#include <cstdint>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

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

}  // namespace ofps::test
