#pragma once
// Axis-aligned bounding box and the triangle value type shared by the core.
//
// Units and frame: whatever the caller's level uses (the demo: world space, metres). Every type
// here is a plain value; nothing allocates. All functions are thread-safe (pure).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/common.hpp>
#include <glm/vec3.hpp>
#include <limits>

namespace ofps {

// Closed box [min, max]. The default value is empty (min = +inf, max = -inf), so growing it by
// any point gives that point. A box with min == max on an axis is flat but not empty: a floor
// triangle's box is flat in Y and still overlaps a ray or sphere that touches it.
struct Aabb {
  glm::vec3 min{std::numeric_limits<float>::infinity()};
  glm::vec3 max{-std::numeric_limits<float>::infinity()};

  static Aabb fromCenterHalfExtents(const glm::vec3& center, const glm::vec3& halfExtents) {
    return {center - halfExtents, center + halfExtents};
  }

  // True when no point has been added (min > max on some axis).
  bool isEmpty() const { return min.x > max.x || min.y > max.y || min.z > max.z; }
  glm::vec3 center() const { return (min + max) * 0.5f; }
  glm::vec3 halfExtents() const { return (max - min) * 0.5f; }
  glm::vec3 size() const { return max - min; }

  void grow(const glm::vec3& p) {
    min = glm::min(min, p);
    max = glm::max(max, p);
  }
  void grow(const Aabb& b) {
    min = glm::min(min, b.min);
    max = glm::max(max, b.max);
  }
  // Closed tests: touching counts.
  bool contains(const glm::vec3& p) const {
    return p.x >= min.x && p.y >= min.y && p.z >= min.z && p.x <= max.x && p.y <= max.y &&
           p.z <= max.z;
  }
  bool contains(const Aabb& b) const { return contains(b.min) && contains(b.max); }
  bool overlaps(const Aabb& b) const {
    return min.x <= b.max.x && min.y <= b.max.y && min.z <= b.max.z && b.min.x <= max.x &&
           b.min.y <= max.y && b.min.z <= max.z;
  }
};

// Largest |component| of v: the magnitude that float tolerances scale with.
inline float maxAbs(const glm::vec3& v) {
  return std::max(std::fabs(v.x), std::max(std::fabs(v.y), std::fabs(v.z)));
}

// Squared distance from p to the closed box (0 inside or on it).
inline float distanceSquared(const Aabb& box, const glm::vec3& p) {
  const glm::vec3 d = glm::max(glm::max(box.min - p, p - box.max), glm::vec3(0.0f));
  return d.x * d.x + d.y * d.y + d.z * d.z;
}

// One triangle by value: three world-space vertices. Winding is kept but never matters to a
// query (every test is two-sided). A triangle may be degenerate (a segment or a point); every
// test in triangle_tests.h treats it as that segment or point.
struct Triangle {
  glm::vec3 v0;
  glm::vec3 v1;
  glm::vec3 v2;

  Aabb bounds() const {
    Aabb b{v0, v0};
    b.grow(v1);
    b.grow(v2);
    return b;
  }
};
static_assert(sizeof(Triangle) == 36, "Triangle must stay three packed vec3 (octree layout)");

}  // namespace ofps
