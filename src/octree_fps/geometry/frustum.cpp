// Frustum planes and box classification (contracts in frustum.h).
#include "octree_fps/geometry/frustum.h"

#include <cmath>

#include "octree_fps/geometry/frustum_inl.h"

namespace ofps {

Frustum Frustum::fromViewProjection(const glm::mat4& m) {
  // Row i of the matrix (GLM is column-major: m[col][row]).
  auto row = [&](int i) { return glm::vec4(m[0][i], m[1][i], m[2][i], m[3][i]); };
  const glm::vec4 r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3);
  const glm::vec4 p[6] = {r3 + r0, r3 - r0, r3 + r1, r3 - r1, r3 + r2, r3 - r2};
  Frustum f;
  for (int i = 0; i < 6; ++i) {
    const glm::vec3 n(p[i].x, p[i].y, p[i].z);
    const float len = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
    const float inv = len > 0.0f ? 1.0f / len : 0.0f;
    f.planes[static_cast<size_t>(i)] = {n * inv, p[i].w * inv};
  }
  return f;
}

Containment classifyAabb(const Frustum& frustum, const Aabb& box, uint32_t& ioPlaneMask) {
  uint32_t tests = 0;
  return detail::classifyCounted(frustum, box.min, box.max, ioPlaneMask, tests);
}

}  // namespace ofps
