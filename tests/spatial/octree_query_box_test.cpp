// The query box in grid steps, where every sphere, capsule and box query starts
// (Octree::quantizeQueryBox): its fast path guesses each axis's steps from a linear estimate and
// keeps a guess only when the grid values around it confirm it. It must return exactly what the
// exact per-axis search returns (QuantAxis::down(hi) and up(lo), octree_grid.h), which this test
// checks on grids near and far from the origin, tiny and huge, with a flat axis, for values on,
// next to, before and past the grid's steps, and for NaN and infinities. A step one too high
// would only make queries test more nodes, and one too low would lose triangles that touch a
// node's box exactly: the overlap counts of the oracle tests see neither reliably.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "octree_fps/spatial/octree.h"
#include "octree_fps/spatial/octree_grid.h"

namespace ofps {

// Test-only access (a friend of Octree): the private query-box conversion and the grid.
struct OctreeTestAccess {
  static bool quantize(const Octree& o, const glm::vec3& lo, const glm::vec3& hi,
                       uint16_t (&qlo)[3], uint16_t (&qhi)[3]) {
    return o.quantizeQueryBox(lo, hi, qlo, qhi);
  }
  static detail::QuantAxis axis(const Octree& o, int k) {
    return {o.qOrigin_[k], o.qScale_[k], o.qInvScale_[k]};
  }
};

namespace {

using detail::kQuantMax;
using detail::QuantAxis;

// The exact search, axis by axis: false when some axis has no step at or below hi, or none at or
// above lo.
bool exactSteps(const Octree& o, const glm::vec3& lo, const glm::vec3& hi, uint16_t (&qlo)[3],
                uint16_t (&qhi)[3]) {
  for (int k = 0; k < 3; ++k) {
    const QuantAxis a = OctreeTestAccess::axis(o, k);
    const int32_t h = a.down(hi[k]);
    const int32_t l = a.up(lo[k]);
    if (h < 0 || l > static_cast<int32_t>(kQuantMax)) return false;
    qhi[k] = static_cast<uint16_t>(h);
    qlo[k] = static_cast<uint16_t>(l);
  }
  return true;
}

// A soup of triangles spread over [offset - extent, offset + extent] on each axis (flat in y when
// `flatY`: every vertex at y = offset.y).
std::vector<Triangle> soup(const glm::vec3& offset, float extent, bool flatY, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-extent, extent);
  std::vector<Triangle> tris;
  for (int i = 0; i < 300; ++i) {
    Triangle t;
    for (glm::vec3* v : {&t.v0, &t.v1, &t.v2}) {
      *v = offset + glm::vec3(u(rng), flatY ? 0.0f : u(rng), u(rng));
    }
    tris.push_back(t);
  }
  return tris;
}

struct Counts {
  uint32_t compared = 0, inside = 0, outside = 0;
};

// Values of one axis worth trying: grid steps exactly and one float either side, the grid's ends
// and beyond, random values across and around the grid, NaN and the infinities.
std::vector<float> axisValues(const QuantAxis& a, std::mt19937& rng) {
  std::vector<float> v;
  const float inf = std::numeric_limits<float>::infinity();
  std::uniform_int_distribution<uint32_t> step(0, kQuantMax);
  for (uint32_t q : {0u, 1u, 2u, kQuantMax / 2, kQuantMax - 2, kQuantMax - 1, kQuantMax}) {
    const float x = a.value(q);
    v.insert(v.end(), {x, std::nextafter(x, -inf), std::nextafter(x, inf)});
  }
  for (int i = 0; i < 40; ++i) {
    const float x = a.value(step(rng));
    v.insert(v.end(), {x, std::nextafter(x, -inf), std::nextafter(x, inf)});
  }
  const float lo = a.value(0), hi = a.value(kQuantMax), span = hi - lo;
  std::uniform_real_distribution<float> across(lo - 0.2f * span - 1.0f, hi + 0.2f * span + 1.0f);
  for (int i = 0; i < 40; ++i) v.push_back(across(rng));
  v.insert(v.end(), {std::numeric_limits<float>::quiet_NaN(), inf, -inf, lo - 1e30f, hi + 1e30f});
  return v;
}

void compareOn(const Octree& o, uint32_t seed, Counts& counts) {
  std::mt19937 rng(seed);
  std::vector<float> values[3];
  for (int k = 0; k < 3; ++k) values[k] = axisValues(OctreeTestAccess::axis(o, k), rng);
  std::uniform_int_distribution<size_t> pick(0, values[0].size() - 1);
  for (int i = 0; i < 20000; ++i) {
    glm::vec3 lo, hi;
    for (int k = 0; k < 3; ++k) {
      float x = values[k][pick(rng) % values[k].size()];
      float y = values[k][pick(rng) % values[k].size()];
      if (i % 8 != 0 && x > y) std::swap(x, y);  // mostly proper boxes; some with lo > hi
      lo[k] = x;
      hi[k] = y;
    }
    uint16_t glo[3] = {}, ghi[3] = {}, wlo[3] = {}, whi[3] = {};
    const bool got = OctreeTestAccess::quantize(o, lo, hi, glo, ghi);
    const bool want = exactSteps(o, lo, hi, wlo, whi);
    ++counts.compared;
    (want ? counts.inside : counts.outside) += 1;
    ASSERT_EQ(got, want) << "seed " << seed << " box " << lo.x << ' ' << lo.y << ' ' << lo.z
                         << " .. " << hi.x << ' ' << hi.y << ' ' << hi.z;
    if (!want) continue;
    for (int k = 0; k < 3; ++k) {
      ASSERT_EQ(glo[k], wlo[k]) << "axis " << k << " lo " << lo[k] << " seed " << seed;
      ASSERT_EQ(ghi[k], whi[k]) << "axis " << k << " hi " << hi[k] << " seed " << seed;
    }
  }
}

TEST(OctreeQueryBox, StepsEqualTheExactSearchOnEveryGrid) {
  struct Grid {
    glm::vec3 offset;
    float extent;
    bool flatY;
  };
  const Grid grids[] = {
      {glm::vec3(0.0f), 8.0f, false},                     // around the origin
      {glm::vec3(1.0e5f, -3.0e4f, 7.0e4f), 1.0f, false},  // far off: coarse floats, plateaus
      {glm::vec3(0.0f), 1.0e-3f, false},                  // tiny
      {glm::vec3(-2.0e6f, 0.0f, 5.0e5f), 1.0e6f, false},  // huge
      {glm::vec3(3.0f, 1.5f, -2.0f), 50.0f, true},        // a flat axis (every y equal)
  };
  Counts counts;
  uint32_t seed = 1;
  for (const Grid& g : grids) {
    Octree o;
    ASSERT_TRUE(o.build(soup(g.offset, g.extent, g.flatY, seed)).ok);
    compareOn(o, seed, counts);
    ++seed;
  }
  // Both outcomes occur often (a test whose boxes all missed the grid would check nothing).
  EXPECT_EQ(counts.compared, 5u * 20000u);
  EXPECT_GT(counts.inside, counts.compared / 10);
  EXPECT_GT(counts.outside, counts.compared / 10);
}

}  // namespace
}  // namespace ofps
