#include "random_soup.h"

#include <cmath>

#include "octree_fps/io/obj_reader.h"
#include "test_paths.h"

namespace ofps::test {

std::vector<Triangle> makeRandomSoup(uint32_t seed, const SoupOptions& o) {
  std::mt19937 rng(seed);
  auto uni = [&](float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng); };
  auto point = [&](float lim) { return glm::vec3(uni(-lim, lim), uni(-lim, lim), uni(-lim, lim)); };
  std::vector<Triangle> tris;
  for (uint32_t i = 0; i < o.regular; ++i) {
    const glm::vec3 c = point(7.0f);
    const float s = uni(0.2f, 2.0f);
    tris.push_back({c + point(s), c + point(s), c + point(s)});
  }
  for (uint32_t i = 0; i < o.slivers; ++i) {
    const glm::vec3 a = point(7.0f);
    const glm::vec3 b = a + point(3.0f);
    const glm::vec3 m = (a + b) * 0.5f + point(1e-3f);
    tris.push_back({a, b, m});
  }
  for (uint32_t i = 0; i < o.huge; ++i) {
    tris.push_back({point(8.0f) * 1.0f, point(8.0f), point(8.0f)});
  }
  const float planes[] = {0.0f, 4.0f, -4.0f, 2.0f, -2.0f};
  for (uint32_t i = 0; i < o.onSplitPlanes; ++i) {
    const int axis = static_cast<int>(rng() % 3u);
    const float v = planes[rng() % 5u];
    const glm::vec3 c = point(6.0f);
    const float s = uni(0.3f, 3.0f);
    Triangle t{c + point(s), c + point(s), c + point(s)};
    t.v0[axis] = v;
    t.v1[axis] = v;
    t.v2[axis] = v;
    // Some also have an edge exactly on a second split plane.
    if (i % 3 == 0) {
      const int axis2 = (axis + 1) % 3;
      t.v0[axis2] = 0.0f;
      t.v1[axis2] = 0.0f;
    }
    tris.push_back(t);
  }
  for (uint32_t i = 0; i < o.duplicates && !tris.empty(); ++i) {
    tris.push_back(tris[rng() % tris.size()]);
  }
  for (uint32_t i = 0; i < o.degenerate; ++i) {
    const glm::vec3 a = point(7.0f);
    if (i % 2 == 0) {
      const glm::vec3 b = a + point(1.0f);
      tris.push_back({a, b, a + (b - a) * 0.25f});  // collinear (nearly: rounding)
    } else {
      tris.push_back({a, a, a});  // a point
    }
  }
  // Pin the soup's bounds to [-8, 8]^3 so the split planes are where the comments say.
  tris.push_back(
      {glm::vec3(-8.0f), glm::vec3(-8.0f, -8.0f, -7.9f), glm::vec3(-8.0f, -7.9f, -8.0f)});
  tris.push_back({glm::vec3(8.0f), glm::vec3(8.0f, 8.0f, 7.9f), glm::vec3(8.0f, 7.9f, 8.0f)});
  return tris;
}

void toIndexed(const std::vector<Triangle>& tris, std::vector<glm::vec3>& positions,
               std::vector<uint32_t>& indices) {
  positions.clear();
  indices.clear();
  for (const Triangle& t : tris) {
    for (const glm::vec3& v : {t.v0, t.v1, t.v2}) {
      indices.push_back(static_cast<uint32_t>(positions.size()));
      positions.push_back(v);
    }
  }
}

bool loadSharedLevel(const std::string& relative, std::vector<Triangle>& out, std::string* why) {
  const std::string path = sharedPath(relative);
  if (!fileExists(path)) {
    if (why) *why = "missing " + path;
    return false;
  }
  const ObjReadResult r = readObj(path);
  if (!r.ok) {
    if (why) *why = r.error;
    return false;
  }
  out.clear();
  const ObjMesh& m = r.mesh;
  for (size_t t = 0; t < m.triangleCount(); ++t) {
    out.push_back({m.positions[m.indices[3 * t]], m.positions[m.indices[3 * t + 1]],
                   m.positions[m.indices[3 * t + 2]]});
  }
  return true;
}

glm::vec3 QueryPlacer::unitVector() {
  for (;;) {
    const glm::vec3 v(uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f), uniform(-1.0f, 1.0f));
    const float l = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
    if (l > 1e-3f && l <= 1.0f) return v / l;
  }
}

glm::vec3 QueryPlacer::nearSurface(float maxOffset, float uniformShare) {
  if (tris_.empty() || uniform(0.0f, 1.0f) < uniformShare) {
    return glm::vec3(uniform(bounds_.min.x, bounds_.max.x), uniform(bounds_.min.y, bounds_.max.y),
                     uniform(bounds_.min.z, bounds_.max.z));
  }
  const Triangle& t = tris_[rng_() % tris_.size()];
  float u = uniform(0.0f, 1.0f), v = uniform(0.0f, 1.0f);
  if (u + v > 1.0f) {
    u = 1.0f - u;
    v = 1.0f - v;
  }
  const glm::vec3 p = t.v0 + (t.v1 - t.v0) * u + (t.v2 - t.v0) * v;
  return p + unitVector() * uniform(0.0f, maxOffset);
}

Aabb boundsOf(const std::vector<Triangle>& tris) {
  Aabb b;
  for (const Triangle& t : tris) b.grow(t.bounds());
  return b;
}

}  // namespace ofps::test
