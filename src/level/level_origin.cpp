#include "level/level_origin.h"

#include <algorithm>
#include <cmath>

namespace ofps::loader {

glm::dvec3 localOrigin(const glm::vec3& lo, const glm::vec3& hi) {
  const glm::dvec3 l(lo), h(hi);
  const double reach = std::max({std::abs(l.x), std::abs(l.y), std::abs(l.z), std::abs(h.x),
                                 std::abs(h.y), std::abs(h.z)});
  if (!(reach > kLocalFrameDistance)) return glm::dvec3(0.0);
  const glm::dvec3 c = 0.5 * (l + h);
  return {std::round(c.x), std::round(c.y), std::round(c.z)};
}

void moveToLocalFrame(Level& level, const glm::dvec3& origin) {
  level.origin = origin;
  if (origin == glm::dvec3(0.0)) return;
  const auto move = [&origin](glm::vec3& p) { p = glm::vec3(glm::dvec3(p) - origin); };
  for (LevelMesh& m : level.meshes) {
    for (glm::vec3& p : m.positions) move(p);
  }
  for (glm::vec3& p : level.collisionPositions) move(p);
  move(level.boundsMin);
  move(level.boundsMax);
  if (level.spawn) move(*level.spawn);
}

}  // namespace ofps::loader
