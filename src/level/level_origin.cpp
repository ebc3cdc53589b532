#include "level/level_origin.h"

#include <algorithm>
#include <cmath>

namespace ofps::loader {

glm::dvec3 localOrigin(const glm::vec3& lo, const glm::vec3& hi) {
  glm::dvec3 origin(0.0);
  for (int k = 0; k < 3; ++k) {
    const double l = lo[k], h = hi[k];
    const double reach = std::max(std::abs(l), std::abs(h));
    if (reach > kLocalFrameDistance) origin[k] = std::round(0.5 * (l + h));
  }
  return origin;
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
