// Adversarial comparison of the octree with the brute-force oracle on targeted inputs: soups of
// every size from 1 to 9 triangles (every block boundary, partial last block and lane mask),
// random layer masks per triangle and per query, trianglesPerLeaf 0..3 and maxLevel 0..3,
// triangles on split planes, coincident copies, degenerate triangles (points, segments),
// touching grids, slivers, large triangles kept in the parent, small and large scales and far
// offsets; medium soups with wide nodes; a maximally deep tree of wide nodes; thread-count
// independence of the build; empty octrees; rays with a zero direction component in a node's
// face plane; flat levels.
//
// Every answer must be EXACTLY the oracle's (the same sets of triangles, reported once each in
// slot order; the same ray t, toi and distances bit for bit; the same triangle on ties), with two
// documented exceptions where the scalar tests' own rounding, not the traversal, decides:
// - a ray whose tMax is at a hit's t (RayBoundaryLimitation): the octree may miss that hit, but
//   never reports anything brute force does not;
// - brute force accepting a triangle whose bounding box is out of the shape's reach, computed in
//   double (OracleAcceptsBeyondTheBoundingBox): counted apart as "oracle rounding", and bounded.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <glm/common.hpp>
#include <glm/geometric.hpp>
#include <glm/vec3.hpp>
#include <iterator>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "octree_fps/geometry/triangle_tests.h"
#include "octree_fps/platform.h"
#include "octree_fps/spatial/brute_force.h"
#include "octree_fps/spatial/octree.h"
#include "support/random_soup.h"

namespace ofps {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

std::string hex(float x) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%a", static_cast<double>(x));
  return buf;
}
// Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, a false positive) on
// "literal" + std::string chains.
std::string hex(const glm::vec3& v) {
  std::string s("(");
  s.append(hex(v.x)).append(", ").append(hex(v.y)).append(", ").append(hex(v.z)).append(")");
  return s;
}
std::string hex(const std::vector<Triangle>& tris) {
  std::string s;
  for (const Triangle& t : tris) {
    s.append("{").append(hex(t.v0)).append(", ").append(hex(t.v1)).append(", ");
    s.append(hex(t.v2)).append("} ");
  }
  return s;
}

bool sameBits(float a, float b) {
  return std::memcmp(&a, &b, sizeof(float)) == 0;
}

// Whether o + t d meets the closed box for some t in [0, tMax] (in double, with a relative slack
// of 1e-12 so that exact touching counts).
bool rayMeetsBox(const Aabb& b, const glm::vec3& o, const glm::vec3& d, float tMax) {
  double lo = 0.0, hi = double(tMax);
  for (int k = 0; k < 3; ++k) {
    if (d[k] == 0.0f) {
      if (o[k] < b.min[k] || o[k] > b.max[k]) return false;
      continue;
    }
    const double t1 = (double(b.min[k]) - double(o[k])) / double(d[k]);
    const double t2 = (double(b.max[k]) - double(o[k])) / double(d[k]);
    lo = std::max(lo, std::min(t1, t2));
    hi = std::min(hi, std::max(t1, t2));
  }
  return lo <= hi + 1e-12 * std::fabs(hi);
}

// Whether the boxes [lo, hi] and b are within 1e-12 (relative) of touching, in double.
bool boxesMeet(const glm::dvec3& lo, const glm::dvec3& hi, const Aabb& b) {
  for (int k = 0; k < 3; ++k) {
    const double slack = 1e-12 * (std::fabs(lo[k]) + std::fabs(hi[k]));
    if (double(b.max[k]) < lo[k] - slack || double(b.min[k]) > hi[k] + slack) return false;
  }
  return true;
}

// Squared distance from p to the box, in double (exact for float inputs up to the final rounding).
double boxDistance2(const Aabb& b, const glm::vec3& p) {
  double s = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double d =
        std::max({double(b.min[k]) - double(p[k]), double(p[k]) - double(b.max[k]), 0.0});
    s += d * d;
  }
  return s;
}

void expectValid(const Octree& o, const std::string& what) {
  std::string err;
  EXPECT_TRUE(o.validate(&err)) << what << ": " << err;
}

// Runs queries against an octree and its oracle; counts queries and keeps the first failures.
struct Checker {
  const Octree& octree;
  const BruteForce& brute;
  std::string context;  // describes the soup and the build
  uint32_t queries = 0;
  uint32_t hits = 0;
  uint32_t failures = 0;
  std::vector<std::string> firstFailures;
  std::string soup;             // the triangles, printed with the failures
  uint32_t oracleRounding = 0;  // differences where brute force accepted a triangle out of reach

  Checker(const Octree& o, const BruteForce& b, std::string what)
      : octree(o), brute(b), context(std::move(what)) {}

  void fail(const std::string& what) {
    ++failures;
    if (firstFailures.size() < 8) firstFailures.push_back(context + ": " + what);
  }

  void ray(const glm::vec3& o, const glm::vec3& d, float tMax, uint32_t mask) {
    ++queries;
    RayHit a, b;
    const bool ha = octree.raycast(o, d, tMax, mask, a);
    const bool hb = brute.raycast(o, d, tMax, mask, b);
    hits += hb ? 1u : 0u;
    const std::string q =
        "ray o=" + hex(o) + " d=" + hex(d) + " tMax=" + hex(tMax) + " mask=" + std::to_string(mask);
    const bool differ = ha != hb || (ha && (!sameBits(a.t, b.t) || a.triangle != b.triangle ||
                                            a.point != b.point || a.normal != b.normal));
    // Möller-Trumbore's t is not exact: on slivers, triangles far smaller than their distance to
    // the origin, and near a hit vertex it can put a hit where the ray does not meet the
    // triangle's box at all (a few ulps short, or anywhere). The octree's box tests then skip it.
    if (differ && hb && (!ha || a.t > b.t || (a.t == b.t && a.triangle > b.triangle)) &&
        !rayMeetsBox(brute.triangles()[b.triangle].bounds(), o, d, tMax)) {
      ++oracleRounding;
      return;
    }
    if (differ) {
      fail(q + ": octree " + std::to_string(ha) + " t=" + hex(a.t) +
           " tri=" + std::to_string(a.triangle) + ", brute " + std::to_string(hb) +
           " t=" + hex(b.t) + " tri=" + std::to_string(b.triangle));
    }
    const bool any = octree.rayAny(o, d, tMax, mask);
    if (any != hb) fail(q + ": rayAny " + std::to_string(any) + ", brute " + std::to_string(hb));
  }

  // A ray whose tMax lies at (or within rounding of) a hit's t. Möller-Trumbore's t can be a few
  // ulps (more for slivers and grazing rays) below the distance at which the ray geometrically
  // enters the triangle's box, so a node whose box the ray enters just beyond tMax may hold a
  // triangle the scalar test accepts: there the octree may miss what brute force finds (see
  // RayBoundaryLimitation below). What must hold: every octree hit is a brute-force hit, no
  // nearer than the oracle's.
  void rayAtBoundary(const glm::vec3& o, const glm::vec3& d, float tMax, uint32_t mask) {
    ++queries;
    RayHit a, b;
    const bool ha = octree.raycast(o, d, tMax, mask, a);
    const bool hb = brute.raycast(o, d, tMax, mask, b);
    hits += hb ? 1u : 0u;
    const bool any = octree.rayAny(o, d, tMax, mask);
    if ((ha && (!hb || a.t < b.t || (a.t == b.t && a.triangle < b.triangle))) || (any && !hb) ||
        (ha && !any)) {
      fail("boundary ray o=" + hex(o) + " d=" + hex(d) + " tMax=" + hex(tMax) +
           " mask=" + std::to_string(mask) + ": octree " + std::to_string(ha) + " t=" + hex(a.t) +
           " tri=" + std::to_string(a.triangle) + " any " + std::to_string(any) + ", brute " +
           std::to_string(hb) + " t=" + hex(b.t) + " tri=" + std::to_string(b.triangle));
    }
  }

  // The visitor sees each triangle once, in slot order; the count, the collect form and an early
  // stop agree.
  // outOfReach(t): triangle t's bounding box is out of the shape's reach, computed in double, so
  // no exact test could accept it. The scalar tests' computed closest points can land up to an
  // ulp of the larger coordinates outside the triangle (see OracleAcceptsBeyondTheBoundingBox),
  // so brute force sometimes accepts such a triangle at
  // touching distance while the octree's exact box tests (nodes, prefilters) reject it (segment
  // end points are now exact; segment-segment and tiny-triangle cases remain). Such a
  // difference is the oracle's rounding, counted apart (and bounded by the tests); any other is a
  // failure.
  template <class Visit, class Collect, class OutOfReach>
  void compareOverlap(const std::string& q, const std::vector<uint32_t>& want, Visit&& visit,
                      Collect&& collect, OutOfReach&& outOfReach) {
    ++queries;
    hits += want.empty() ? 0u : 1u;
    std::vector<uint32_t> got;
    const uint32_t n = visit([&](uint32_t t) {
      got.push_back(t);
      return true;
    });
    std::vector<uint32_t> sorted = got;
    std::sort(sorted.begin(), sorted.end());
    if (n == got.size() && sorted != want &&
        std::includes(want.begin(), want.end(), sorted.begin(), sorted.end())) {
      std::vector<uint32_t> missing;
      std::set_difference(want.begin(), want.end(), sorted.begin(), sorted.end(),
                          std::back_inserter(missing));
      if (std::all_of(missing.begin(), missing.end(), outOfReach)) {
        ++oracleRounding;
        return;
      }
    }
    if (n != got.size() || sorted != want) {
      std::string g, w;
      for (uint32_t t : got) g += std::to_string(t) + " ";
      for (uint32_t t : want) w += std::to_string(t) + " ";
      fail(q + ": octree {" + g + "} brute {" + w + "}");
      return;
    }
    // Slot order: the order of triangleOrder().
    std::vector<uint32_t> slotOf(octree.triangleOrder().size() + 1);
    for (uint32_t s = 0; s < octree.triangleOrder().size(); ++s)
      slotOf[octree.triangleOrder()[s]] = s;
    for (size_t i = 1; i < got.size(); ++i) {
      if (slotOf[got[i - 1]] >= slotOf[got[i]]) fail(q + ": not reported in slot order");
    }
    if (!want.empty()) {
      uint32_t seen = 0;
      const uint32_t stopped = visit([&](uint32_t) {
        ++seen;
        return false;
      });
      if (stopped != 1 || seen != 1) fail(q + ": early stop reported " + std::to_string(stopped));
      std::vector<uint32_t> buf(want.size() > 1 ? want.size() - 1 : 0, 0xDEADBEEFu);
      const uint32_t total = collect(std::span<uint32_t>(buf));
      if (total != want.size() || !std::equal(buf.begin(), buf.end(), got.begin())) {
        fail(q + ": collect into a short buffer");
      }
    }
  }

  void sphere(const glm::vec3& c, float r, uint32_t mask) {
    std::vector<uint32_t> want;
    brute.overlapSphere(c, r, mask, want);
    compareOverlap(
        "sphere c=" + hex(c) + " r=" + hex(r) + " mask=" + std::to_string(mask), want,
        [&](auto&& f) { return octree.overlapSphere(c, r, mask, f); },
        [&](std::span<uint32_t> out) { return octree.collectSphere(c, r, mask, out); },
        [&](uint32_t t) {
          return boxDistance2(brute.triangles()[t].bounds(), c) > double(r) * double(r);
        });
  }
  void capsule(const glm::vec3& a, const glm::vec3& b, float r, uint32_t mask) {
    std::vector<uint32_t> want;
    brute.overlapCapsule(a, b, r, mask, want);
    compareOverlap(
        "capsule a=" + hex(a) + " b=" + hex(b) + " r=" + hex(r) + " mask=" + std::to_string(mask),
        want, [&](auto&& f) { return octree.overlapCapsule(a, b, r, mask, f); },
        [&](std::span<uint32_t> out) { return octree.collectCapsule(a, b, r, mask, out); },
        [&](uint32_t t) {
          const Aabb tb = brute.triangles()[t].bounds();
          for (int k = 0; k < 3; ++k) {
            const double lo = double(std::min(a[k], b[k])) - double(r),
                         hi = double(std::max(a[k], b[k])) + double(r);
            if (double(tb.max[k]) < lo || double(tb.min[k]) > hi) return true;
          }
          return false;
        });
  }
  void box(const Aabb& bx, uint32_t mask) {
    std::vector<uint32_t> want;
    brute.overlapBox(bx, mask, want);
    compareOverlap(
        "box " + hex(bx.min) + " " + hex(bx.max) + " mask=" + std::to_string(mask), want,
        [&](auto&& f) { return octree.overlapBox(bx, mask, f); },
        [&](std::span<uint32_t> out) { return octree.collectBox(bx, mask, out); },
        [](uint32_t) { return false; });
  }
  void closest(const glm::vec3& p, float maxD, uint32_t mask) {
    ++queries;
    PointHit a, b;
    const bool ha = octree.closestPoint(p, maxD, mask, a);
    const bool hb = brute.closestPoint(p, maxD, mask, b);
    hits += hb ? 1u : 0u;
    const bool differ = ha != hb || (ha && (!sameBits(a.distance, b.distance) ||
                                            a.triangle != b.triangle || a.point != b.point));
    if (differ && hb &&
        double(b.distance) * double(b.distance) <
            boxDistance2(brute.triangles()[b.triangle].bounds(), p)) {
      ++oracleRounding;  // brute force's nearest point is nearer than its triangle's box
      return;
    }
    if (differ) {
      fail("closest p=" + hex(p) + " maxD=" + hex(maxD) + " mask=" + std::to_string(mask) +
           ": octree " + std::to_string(ha) + " d=" + hex(a.distance) +
           " tri=" + std::to_string(a.triangle) + ", brute " + std::to_string(hb) +
           " d=" + hex(b.distance) + " tri=" + std::to_string(b.triangle));
    }
  }
  void sweepSphere(const glm::vec3& c, float r, const glm::vec3& d, uint32_t mask) {
    ++queries;
    SweepHit a, b;
    const bool ha = octree.sweepSphere(c, r, d, mask, a);
    const bool hb = brute.sweepSphere(c, r, d, mask, b);
    hits += hb ? 1u : 0u;
    const bool differ = ha != hb || (ha && (!sameBits(a.toi, b.toi) || a.triangle != b.triangle ||
                                            a.startsOverlapping != b.startsOverlapping));
    if (differ && hb && (!ha || a.toi > b.toi || (a.toi == b.toi && a.triangle > b.triangle))) {
      const glm::dvec3 at = glm::dvec3(c) + glm::dvec3(d) * double(b.toi);
      if (!boxesMeet(at - double(r), at + double(r), brute.triangles()[b.triangle].bounds())) {
        ++oracleRounding;  // brute force's contact is out of the sphere's reach at its toi
        return;
      }
    }
    if (differ) {
      fail("sweepSphere c=" + hex(c) + " r=" + hex(r) + " d=" + hex(d) +
           " mask=" + std::to_string(mask) + ": octree " + std::to_string(ha) +
           " toi=" + hex(a.toi) + " tri=" + std::to_string(a.triangle) + ", brute " +
           std::to_string(hb) + " toi=" + hex(b.toi) + " tri=" + std::to_string(b.triangle));
    }
  }
  void sweepCapsule(const glm::vec3& p, const glm::vec3& q, float r, const glm::vec3& d,
                    uint32_t mask) {
    ++queries;
    SweepHit a, b;
    const bool ha = octree.sweepCapsule(p, q, r, d, mask, a);
    const bool hb = brute.sweepCapsule(p, q, r, d, mask, b);
    hits += hb ? 1u : 0u;
    const bool differ = ha != hb || (ha && (!sameBits(a.toi, b.toi) || a.triangle != b.triangle));
    if (differ && hb && (!ha || a.toi > b.toi || (a.toi == b.toi && a.triangle > b.triangle))) {
      const glm::dvec3 off = glm::dvec3(d) * double(b.toi);
      const glm::dvec3 lo = glm::min(glm::dvec3(p), glm::dvec3(q)) + off - double(r);
      const glm::dvec3 hi = glm::max(glm::dvec3(p), glm::dvec3(q)) + off + double(r);
      if (!boxesMeet(lo, hi, brute.triangles()[b.triangle].bounds())) {
        ++oracleRounding;  // brute force's contact is out of the capsule's reach at its toi
        return;
      }
    }
    if (differ) {
      fail("sweepCapsule a=" + hex(p) + " b=" + hex(q) + " r=" + hex(r) + " d=" + hex(d) +
           " mask=" + std::to_string(mask) + ": octree " + std::to_string(ha) +
           " toi=" + hex(a.toi) + " tri=" + std::to_string(a.triangle) + ", brute " +
           std::to_string(hb) + " toi=" + hex(b.toi) + " tri=" + std::to_string(b.triangle));
    }
  }
  void pushSphere(const glm::vec3& c, float r, uint32_t mask) {
    ++queries;
    PushOut a, b;
    const bool ha = octree.sphereIntersect(c, r, mask, a);
    const bool hb = brute.sphereIntersect(c, r, mask, b);
    hits += hb ? 1u : 0u;
    const bool differ = ha != hb || !sameBits(a.depth, b.depth) || a.normal != b.normal ||
                        a.iterations != b.iterations || a.deepestTriangle != b.deepestTriangle ||
                        a.resolved != b.resolved;
    if (differ && b.deepestTriangle != kOctreeInvalidIndex &&
        boxDistance2(brute.triangles()[b.deepestTriangle].bounds(), c) > double(r) * double(r)) {
      ++oracleRounding;  // brute force's deepest contact is out of the sphere's reach
      return;
    }
    if (differ) {
      fail("sphereIntersect c=" + hex(c) + " r=" + hex(r) + " mask=" + std::to_string(mask) +
           ": octree " + std::to_string(ha) + " depth=" + hex(a.depth) +
           " tri=" + std::to_string(a.deepestTriangle) + ", brute " + std::to_string(hb) +
           " depth=" + hex(b.depth) + " tri=" + std::to_string(b.deepestTriangle));
    }
  }
  void pushCapsule(const glm::vec3& p, const glm::vec3& q, float r, uint32_t mask) {
    ++queries;
    PushOut a, b;
    const bool ha = octree.capsuleIntersect(p, q, r, mask, a);
    const bool hb = brute.capsuleIntersect(p, q, r, mask, b);
    hits += hb ? 1u : 0u;
    const bool differ = ha != hb || !sameBits(a.depth, b.depth) || a.normal != b.normal ||
                        a.iterations != b.iterations || a.deepestTriangle != b.deepestTriangle ||
                        a.resolved != b.resolved;
    if (differ && b.deepestTriangle != kOctreeInvalidIndex &&
        !boxesMeet(glm::min(glm::dvec3(p), glm::dvec3(q)) - double(r),
                   glm::max(glm::dvec3(p), glm::dvec3(q)) + double(r),
                   brute.triangles()[b.deepestTriangle].bounds())) {
      ++oracleRounding;  // brute force's deepest contact is out of the capsule's reach
      return;
    }
    if (differ) {
      fail("capsuleIntersect a=" + hex(p) + " b=" + hex(q) + " r=" + hex(r) +
           " mask=" + std::to_string(mask) + ": octree " + std::to_string(ha) +
           " depth=" + hex(a.depth) + ", brute " + std::to_string(hb) + " depth=" + hex(b.depth));
    }
  }
  void pushBox(const Aabb& bx, uint32_t mask) {
    ++queries;
    PushOut a, b;
    const bool ha = octree.boxIntersect(bx, mask, a);
    const bool hb = brute.boxIntersect(bx, mask, b);
    hits += hb ? 1u : 0u;
    if (ha != hb || !sameBits(a.depth, b.depth) || a.normal != b.normal ||
        a.iterations != b.iterations || a.deepestTriangle != b.deepestTriangle ||
        a.resolved != b.resolved) {
      fail("boxIntersect " + hex(bx.min) + " " + hex(bx.max) + " mask=" + std::to_string(mask) +
           ": octree " + std::to_string(ha) + " depth=" + hex(a.depth) + ", brute " +
           std::to_string(hb) + " depth=" + hex(b.depth));
    }
  }

  std::string report() const {
    std::string s = std::to_string(failures) + " failures (and " + std::to_string(oracleRounding) +
                    " oracle rounding differences) in " + std::to_string(queries) + " queries on " +
                    soup + "\n";
    for (const std::string& f : firstFailures) s += "  " + f + "\n";
    return s;
  }
};

// Counts summed over many Checkers, with the reports of the first failures.
struct Totals {
  uint32_t queries = 0, hits = 0, failures = 0, oracleRounding = 0;
  std::string reports;
  void add(const Checker& ck) {
    queries += ck.queries;
    hits += ck.hits;
    failures += ck.failures;
    oracleRounding += ck.oracleRounding;
    if (ck.failures != 0 && reports.size() < 6000) reports += ck.report();
  }
  // No disagreement, and brute force's own rounding beyond a triangle's box rare (a query
  // endpoint within an ulp of a vertex).
  void expectExact() const {
    EXPECT_EQ(failures, 0u) << reports;
    EXPECT_LE(oracleRounding * 10000, queries) << oracleRounding << " in " << queries;
  }
};

// Points of interest on a triangle: vertices, edge midpoints, the centroid, a random point.
std::vector<glm::vec3> featuresOf(const Triangle& t, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  float a = u(rng), b = u(rng);
  if (a + b > 1.0f) {
    a = 1.0f - a;
    b = 1.0f - b;
  }
  return {t.v0,
          t.v1,
          t.v2,
          (t.v0 + t.v1) * 0.5f,
          (t.v1 + t.v2) * 0.5f,
          (t.v2 + t.v0) * 0.5f,
          (t.v0 + t.v1 + t.v2) / 3.0f,
          t.v0 + (t.v1 - t.v0) * a + (t.v2 - t.v0) * b};
}

glm::vec3 unitVector(std::mt19937& rng) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  for (;;) {
    const glm::vec3 v(n(rng), n(rng), n(rng));
    const float l = glm::length(v);
    if (l > 1e-3f) return v / l;
  }
}

constexpr uint32_t kQueryMasks[] = {kOctreeAllLayers, 1u, 2u, 4u, 6u, 0x80000000u, 0u};

// A few queries of every kind aimed at the soup's features; `scale` is the soup's size.
void runQueries(Checker& ck, const std::vector<Triangle>& tris, float scale, uint32_t seed,
                uint32_t perTriangle, bool withLayers, bool withPush = true) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u01(0.0f, 1.0f);
  auto mask = [&]() {
    if (!withLayers) return rng() % 8u == 0 ? 0u : kOctreeAllLayers;
    return kQueryMasks[rng() % (sizeof(kQueryMasks) / sizeof(kQueryMasks[0]))];
  };
  const glm::vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (uint32_t q = 0; q < perTriangle * tris.size(); ++q) {
    const Triangle& t = tris[rng() % tris.size()];
    const std::vector<glm::vec3> f = featuresOf(t, rng);
    const glm::vec3 target = f[rng() % f.size()];
    const glm::vec3 other = featuresOf(tris[rng() % tris.size()], rng)[rng() % 8u];
    // Rays at a feature, from a random point or along an axis, with various tMax.
    {
      const glm::vec3 o = target + unitVector(rng) * (scale * u01(rng));
      glm::vec3 d = target - o;
      if (rng() % 4u == 0) d = axes[rng() % 6u];
      if (rng() % 4u == 0) d *= 1e3f;
      // (t = 1 is the aimed-at feature: tMax 1 and one ulp below it are boundary cases.)
      const float tMaxes[] = {kInf,
                              2.0f * scale,
                              -1.0f,
                              std::numeric_limits<float>::quiet_NaN(),
                              -0.0f,
                              1.0f,
                              std::nextafter(1.0f, 0.0f),
                              0.0f};
      const uint32_t pick = rng() % 8u;
      const uint32_t m = mask();
      if (pick < 5)
        ck.ray(o, d, tMaxes[pick], m);
      else
        ck.rayAtBoundary(o, d, tMaxes[pick], m);
      // tMax exactly at the nearest hit, and one ulp short of it; tMax well beyond it.
      RayHit h;
      if (ck.brute.raycast(o, d, kInf, m, h)) {
        ck.rayAtBoundary(o, d, h.t, m);
        ck.rayAtBoundary(o, d, std::nextafter(h.t, 0.0f), m);
        ck.ray(o, d, h.t * 1.5f + scale, m);
      }
      // A ray starting exactly on the feature (t = 0 hits), along an axis.
      const glm::vec3 axis = axes[rng() % 6u];
      ck.ray(target, axis, kInf, m);
      ck.rayAtBoundary(target, axis, 0.0f, m);
      // Zero directions never hit (either sign of zero).
      ck.ray(o, glm::vec3(0.0f), kInf, m);
      ck.ray(target, -glm::vec3(0.0f), 1.0f, m);
      // A ray from another feature to this one (shared edges and vertices: ties).
      if (other != target) {
        ck.ray(other, target - other, kInf, m);
        ck.rayAtBoundary(other, target - other, 1.0f, m);
      }
    }
    // Spheres touching the feature, a hair inside and outside, and of radius 0.
    {
      const glm::vec3 c = target + unitVector(rng) * (scale * 0.5f * u01(rng));
      const float r = glm::length(c - target);
      const uint32_t m = mask();
      ck.sphere(c, r, m);
      ck.sphere(c, std::nextafter(r, 0.0f), m);
      ck.sphere(c, std::nextafter(r, kInf), m);
      ck.sphere(target, 0.0f, m);
      ck.sphere(c, scale * u01(rng), m);
      if (withPush && rng() % 4u == 0) ck.pushSphere(c, std::nextafter(r, kInf) * 1.5f, m);
    }
    // Capsules from a feature to another point, radius 0 (a segment) or not.
    {
      const glm::vec3 a = target + unitVector(rng) * (scale * 0.3f * u01(rng));
      const glm::vec3 b = rng() % 3u == 0 ? a : other + unitVector(rng) * (scale * 0.3f * u01(rng));
      const float r = rng() % 3u == 0 ? 0.0f : scale * 0.2f * u01(rng);
      const uint32_t m = mask();
      ck.capsule(a, b, r, m);
      ck.capsule(target, other, 0.0f, m);
      if (withPush && rng() % 4u == 0) ck.pushCapsule(a, b, r + scale * 0.1f, m);
    }
    // Boxes: around the feature, a triangle's own bounds, a point box on the feature.
    {
      const glm::vec3 h = glm::vec3(u01(rng), u01(rng), u01(rng)) * (scale * 0.3f);
      const uint32_t m = mask();
      ck.box(Aabb::fromCenterHalfExtents(target, h), m);
      ck.box(t.bounds(), m);
      ck.box(Aabb{target, target}, m);
      Aabb both = t.bounds();
      both.grow(other);
      ck.box(both, m);
      if (withPush && rng() % 4u == 0) ck.pushBox(Aabb::fromCenterHalfExtents(target, h), m);
    }
    // Closest points: exact limits, unlimited, zero.
    {
      const glm::vec3 p = target + unitVector(rng) * (scale * u01(rng));
      const uint32_t m = mask();
      ck.closest(p, kInf, m);
      ck.closest(p, glm::length(p - target), m);
      ck.closest(target, 0.0f, m);
      ck.closest(p, scale * 0.5f * u01(rng), m);
    }
    // Sweeps toward another feature.
    {
      const glm::vec3 c = target + unitVector(rng) * (scale * u01(rng));
      const float r = scale * 0.2f * u01(rng);
      const glm::vec3 d = (other - c) * (2.0f * u01(rng));
      const uint32_t m = mask();
      ck.sweepSphere(c, r, d, m);
      ck.sweepCapsule(c, c + unitVector(rng) * (scale * 0.2f), r, d, m);
      if (rng() % 4u == 0)
        ck.sweepSphere(target + unitVector(rng) * r, r, glm::vec3(0.0f), m);  // no motion
    }
  }
}

// Random triangle generators for the soups (in about [-1, 1]^3, before scaling).
enum SoupKind : uint32_t {
  kRandom,       // small random triangles
  kSplitPlanes,  // axis-aligned on x, y or z = 0 or +-0.5 (the root's and its children's planes)
  kCoincident,   // copies of two triangles
  kDegenerate,   // segments and points (repeated vertices) mixed with triangles
  kTouching,     // a grid of triangles sharing edges and vertices
  kSlivers,      // very thin triangles
  kNested,       // one large triangle around small ones (kept in the parent)
  kSoupKinds
};
const char* kindName(uint32_t k) {
  static const char* names[] = {"random",   "splitPlanes", "coincident", "degenerate",
                                "touching", "slivers",     "nested"};
  return names[k];
}

std::vector<Triangle> makeSoup(uint32_t kind, uint32_t count, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  auto point = [&](float lim) { return glm::vec3(u(rng), u(rng), u(rng)) * lim; };
  std::vector<Triangle> tris;
  const float planes[] = {0.0f, 0.5f, -0.5f, 1.0f, -1.0f};
  for (uint32_t i = 0; i < count; ++i) {
    Triangle t;
    switch (kind) {
      case kRandom: {
        const glm::vec3 c = point(1.0f);
        t = {c + point(0.3f), c + point(0.3f), c + point(0.3f)};
        break;
      }
      case kSplitPlanes: {
        const glm::vec3 c = point(1.0f);
        t = {c + point(0.4f), c + point(0.4f), c + point(0.4f)};
        const int axis = static_cast<int>(rng() % 3u);
        const float v = planes[rng() % 5u];
        t.v0[axis] = t.v1[axis] = t.v2[axis] = v;
        if (rng() % 2u == 0) t.v0[(axis + 1) % 3] = t.v1[(axis + 1) % 3] = 0.0f;
        break;
      }
      case kCoincident: {
        static const Triangle a{{0.1f, 0.2f, 0.3f}, {0.7f, 0.2f, 0.3f}, {0.1f, 0.9f, -0.3f}};
        static const Triangle b{{-0.5f, -0.5f, 0.0f}, {0.5f, -0.5f, 0.0f}, {0.0f, 0.5f, 0.0f}};
        t = (i % 3u == 2u) ? b : a;
        break;
      }
      case kDegenerate: {
        const glm::vec3 a = point(1.0f);
        const glm::vec3 b = a + point(0.5f);
        switch (rng() % 4u) {
          case 0:
            t = {a, a, a};
            break;  // a point
          case 1:
            t = {a, b, a};
            break;  // a segment (repeated vertex)
          case 2:
            t = {a, a, b};
            break;  // a segment (repeated vertex)
          default:
            t = {a, b, a + point(0.5f)};
            break;  // a triangle
        }
        break;
      }
      case kTouching: {
        // Cells of a 3 x 3 grid on z = 0, two triangles each, and a wall on x = 0.
        const uint32_t cell = (i / 2u) % 9u;
        const float x = -0.75f + 0.5f * static_cast<float>(cell % 3u);
        const float y = -0.75f + 0.5f * static_cast<float>(cell / 3u);
        const glm::vec3 p00(x, y, 0), p10(x + 0.5f, y, 0), p01(x, y + 0.5f, 0),
            p11(x + 0.5f, y + 0.5f, 0);
        if (i % 2u == 0)
          t = {p00, p10, p11};
        else
          t = {p00, p11, p01};
        if (i >= 18u) t = {{0, -0.25f, -0.25f}, {0, 0.25f, -0.25f}, {0, 0, 0.5f}};
        break;
      }
      case kSlivers: {
        const glm::vec3 a = point(1.0f), b = a + point(0.8f);
        t = {a, b, (a + b) * 0.5f + point(1e-4f)};
        break;
      }
      case kNested: {
        if (i == 0)
          t = {{-1, -1, 0.01f}, {1, -1, 0.01f}, {0, 1, 0.01f}};
        else {
          const glm::vec3 c = point(0.9f);
          t = {c, c + point(0.05f), c + point(0.05f)};
        }
        break;
      }
      default:
        break;
    }
    tris.push_back(t);
  }
  return tris;
}

std::vector<Triangle> transformed(const std::vector<Triangle>& tris, float scale,
                                  const glm::vec3& offset) {
  std::vector<Triangle> out = tris;
  for (Triangle& t : out) {
    for (glm::vec3* v : {&t.v0, &t.v1, &t.v2}) *v = *v * scale + offset;
  }
  return out;
}

// Per-triangle layer masks; 0: in no layer (never found).
constexpr uint32_t kLayerChoices[] = {1u, 2u, 4u, 3u, 0x80000000u, kOctreeAllLayers, 0u};
constexpr uint32_t kLayerChoiceCount = sizeof(kLayerChoices) / sizeof(kLayerChoices[0]);

struct Transform {
  const char* name;
  float scale;
  glm::vec3 offset;
};

// A ray with a zero direction component whose origin lies exactly in a node's face plane on that
// axis: a probe straight down onto the edge of a floor. The slab test used to treat +-0 as
// +-1e-30, so the face on the far side of the (zero) direction gave an exit distance of 0 and the
// node was dropped: octree miss, brute-force hit.
TEST(OctreeAdversarial, AxisAlignedRayInANodeFacePlane) {
  const std::vector<Triangle> floor = {{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}},
                                       {{1, 0, 0}, {1, 0, 1}, {0, 0, 1}}};
  Octree o;
  ASSERT_TRUE(o.build(floor).ok);
  expectValid(o, "floor");
  const BruteForce brute(floor);
  Checker ck(o, brute, "floor");
  ck.soup = hex(floor);
  const glm::vec3 up(0, 1, 0);
  // Straight down at the level's max x (d.x = +0) and min x (-up: d.x = -0), on the shared
  // diagonal, and with a component too small for its inverse to be finite.
  for (const glm::vec3& origin :
       {glm::vec3(1, 1, 0.25f), glm::vec3(0, 1, 0.25f), glm::vec3(0.5f, 1, 0.5f),
        glm::vec3(1, 1, 1), glm::vec3(0, 1, 0), glm::vec3(0.25f, 1, 0)}) {
    for (const glm::vec3& d : {glm::vec3(0, -1, 0), -up, glm::vec3(1e-39f, -1, 0),
                               glm::vec3(-1e-39f, -1, -1e-39f), glm::vec3(0, -1, 1e-39f)}) {
      ck.ray(origin, d, 10.0f, kOctreeAllLayers);
      ck.ray(origin, d, kInf, kOctreeAllLayers);
    }
  }
  // Horizontal rays running in the floor's plane toward a wall standing on it, from the floor's
  // edge (the level's min y is the floor).
  std::vector<Triangle> room = floor;
  room.push_back({{3, 0, 0}, {3, 2, 0}, {3, 0, 2}});
  Octree r;
  ASSERT_TRUE(r.build(room).ok);
  const BruteForce bruteRoom(room);
  Checker ckRoom(r, bruteRoom, "room");
  ckRoom.soup = hex(room);
  for (const glm::vec3& d :
       {glm::vec3(1, 0, 0), glm::vec3(1, -0.0f, -0.0f), glm::vec3(1, 0, 0.1f)}) {
    ckRoom.ray(glm::vec3(0.5f, 0, 0.5f), d, kInf, kOctreeAllLayers);
    ckRoom.ray(glm::vec3(-1, 0, 0.5f), d, kInf, kOctreeAllLayers);
  }
  EXPECT_EQ(ck.failures + ckRoom.failures, 0u) << ck.report() << ckRoom.report();
  EXPECT_GE(ck.hits, 40u) << "the probes hit the floor";
}

// Every soup kind, every count 1..9, with and without layers, every small build, at several
// scales: octree == oracle.
TEST(OctreeAdversarial, TinySoupsMatchTheOracleExactly) {
  const Transform transforms[] = {{"unit", 1.0f, glm::vec3(0)},
                                  {"far", 1.0f, glm::vec3(1e6f, -2e6f, 3e6f)},
                                  {"tiny", 1e-6f, glm::vec3(0)},
                                  {"large", 1e8f, glm::vec3(0)},
                                  {"odd", 3.7f, glm::vec3(0.1f, 0.2f, 0.3f)}};
  Totals total;
  for (uint32_t kind = 0; kind < kSoupKinds; ++kind) {
    for (uint32_t count = 1; count <= 9; ++count) {
      std::mt19937 rng(1000u * kind + count);
      const std::vector<Triangle> base = makeSoup(kind, count, rng);
      std::vector<uint32_t> layers(count);
      for (uint32_t& l : layers) l = kLayerChoices[rng() % kLayerChoiceCount];
      for (const Transform& tr : transforms) {
        const std::vector<Triangle> tris = transformed(base, tr.scale, tr.offset);
        for (const bool withLayers : {false, true}) {
          const std::span<const uint32_t> lay =
              withLayers ? std::span<const uint32_t>(layers) : std::span<const uint32_t>();
          const BruteForce brute(tris, lay);
          for (uint32_t perLeaf = 0; perLeaf <= 3; ++perLeaf) {  // 0 is taken as 1
            for (uint32_t maxLevel = 0; maxLevel <= 3; ++maxLevel) {
              if (perLeaf == 0 && maxLevel != 2) continue;
              OctreeBuildParams p;
              p.trianglesPerLeaf = perLeaf;
              p.maxLevel = maxLevel;
              Octree o;
              const std::string what = std::string(kindName(kind)) + " n=" + std::to_string(count) +
                                       " " + tr.name + (withLayers ? " layers" : "") +
                                       " perLeaf=" + std::to_string(perLeaf) +
                                       " maxLevel=" + std::to_string(maxLevel);
              const OctreeBuildReport r = o.build(tris, lay, p);
              ASSERT_TRUE(r.ok) << what << ": " << r.error;
              ASSERT_EQ(r.storedTriangles, count) << what;
              expectValid(o, what);
              Checker ck{o, brute, what};
              ck.soup = hex(tris);
              runQueries(ck, tris, 2.0f * tr.scale, 7u * count + perLeaf + 13u * maxLevel, 2,
                         withLayers, perLeaf == 1 && maxLevel == 3);
              total.add(ck);
            }
          }
        }
      }
    }
  }
  total.expectExact();
  // The queries aim at the geometry: a good share must hit.
  EXPECT_GT(total.hits * 4, total.queries) << total.hits << " hits in " << total.queries;
}

// Mixed soups of tens to hundreds of triangles: wide nodes (collapse), leaves of kept triangles,
// nodes whose children fill partial groups of four, with every small build and looseness.
TEST(OctreeAdversarial, MediumSoupsMatchTheOracleExactly) {
  Totals total;
  uint32_t maxChildren = 0;
  for (const uint32_t count : {13u, 31u, 64u, 150u}) {
    std::mt19937 rng(77u + count);
    std::vector<Triangle> tris;
    for (uint32_t kind = 0; kind < kSoupKinds; ++kind) {
      const std::vector<Triangle> part =
          makeSoup(kind, count / kSoupKinds + (kind < count % kSoupKinds ? 1u : 0u), rng);
      tris.insert(tris.end(), part.begin(), part.end());
    }
    std::shuffle(tris.begin(), tris.end(), rng);
    std::vector<uint32_t> layers(tris.size());
    for (uint32_t& l : layers) l = kLayerChoices[rng() % kLayerChoiceCount];
    for (const bool withLayers : {false, true}) {
      const std::span<const uint32_t> lay =
          withLayers ? std::span<const uint32_t>(layers) : std::span<const uint32_t>();
      const BruteForce brute(tris, lay);
      for (const uint32_t perLeaf : {1u, 2u, 4u, 8u}) {
        for (const uint32_t maxLevel : {1u, 2u, 5u, 24u}) {
          for (const float looseness : {0.0f, 3.0f, 1e9f}) {
            if (looseness != 3.0f && (perLeaf != 1u || maxLevel != 24u)) continue;
            OctreeBuildParams p;
            p.trianglesPerLeaf = perLeaf;
            p.maxLevel = maxLevel;
            p.looseness = looseness;
            Octree o;
            const std::string what =
                "medium n=" + std::to_string(tris.size()) + (withLayers ? " layers" : "") +
                " perLeaf=" + std::to_string(perLeaf) + " maxLevel=" + std::to_string(maxLevel) +
                " looseness=" + std::to_string(looseness);
            ASSERT_TRUE(o.build(tris, lay, p).ok) << what;
            expectValid(o, what);
            for (uint32_t n = 0; n < o.nodeCount(); ++n)
              maxChildren = std::max(maxChildren, o.childCount(n));
            Checker ck{o, brute, what};
            runQueries(ck, tris, 2.0f, count + perLeaf * 5u + maxLevel, 1, withLayers,
                       perLeaf == 1);
            total.add(ck);
          }
        }
      }
    }
  }
  total.expectExact();
  EXPECT_GE(maxChildren, 9u) << "no wide node was built";
}

// A tree as deep as maxLevel allows with up to 16 children at every level: clusters in seven
// octants of every cell and the recursion in the eighth. Every traversal's fixed stack holds the
// siblings of every level (run under AddressSanitizer to see an overflow); answers are exact.
TEST(OctreeAdversarial, DeepTreeOfWideNodes) {
  std::vector<Triangle> tris;
  float size = 1.0f;
  glm::vec3 corner(0.0f);
  for (int level = 0; level < 26; ++level) {
    const float h = size * 0.5f;
    for (uint32_t oct = 1; oct < 8; ++oct) {
      const glm::vec3 c =
          corner + glm::vec3((oct & 1u) ? h : 0.0f, (oct & 2u) ? h : 0.0f, (oct & 4u) ? h : 0.0f);
      // Three tiny triangles in different sub-octants of the octant: a node of three leaves.
      for (uint32_t sub : {0u, 3u, 6u}) {
        const glm::vec3 p =
            c + glm::vec3((sub & 1u) ? 0.75f * h : 0.25f * h, (sub & 2u) ? 0.75f * h : 0.25f * h,
                          (sub & 4u) ? 0.75f * h : 0.25f * h);
        const float e = 0.05f * h;
        tris.push_back({p, p + glm::vec3(e, 0, 0), p + glm::vec3(0, e, e)});
      }
    }
    size = h;
  }
  OctreeBuildParams p;
  p.trianglesPerLeaf = 1;
  p.maxLevel = 99;  // clamped to kOctreeMaxLevel
  Octree o;
  const OctreeBuildReport r = o.build(tris, {}, p);
  ASSERT_TRUE(r.ok);
  expectValid(o, "deep");
  EXPECT_EQ(r.depth, kOctreeMaxLevel);
  uint32_t wide = 0;
  for (uint32_t n = 0; n < o.nodeCount(); ++n) wide += o.childCount(n) >= 13u ? 1u : 0u;
  EXPECT_GE(wide, 10u) << "nodes with 13+ children";
  const BruteForce brute(tris);
  Checker ck(o, brute, "deep");
  // Shapes over everything (every node entered, every sibling pushed), and queries at the corner
  // the recursion runs to.
  ck.box(Aabb{glm::vec3(-1), glm::vec3(2)}, kOctreeAllLayers);
  ck.sphere(glm::vec3(0), 2.0f, kOctreeAllLayers);
  ck.capsule(glm::vec3(0), glm::vec3(1), 1.0f, kOctreeAllLayers);
  ck.pushSphere(glm::vec3(0.5f), 0.9f, kOctreeAllLayers);
  for (const float t : {1e-7f, 1e-5f, 1e-3f, 0.1f}) {
    ck.ray(glm::vec3(-1, -1, -1), glm::vec3(1, 1, 1), kInf, kOctreeAllLayers);
    ck.ray(glm::vec3(t, t, -1), glm::vec3(0, 0, 1), kInf, kOctreeAllLayers);
    ck.ray(glm::vec3(2, 2, 2), glm::vec3(-1, -1.0001f, -0.9999f), kInf, kOctreeAllLayers);
    ck.closest(glm::vec3(-t), kInf, kOctreeAllLayers);
    ck.closest(glm::vec3(2), kInf, kOctreeAllLayers);
    ck.sphere(glm::vec3(t), t, kOctreeAllLayers);
    ck.sweepSphere(glm::vec3(-1), 0.01f, glm::vec3(3), kOctreeAllLayers);
    ck.sweepCapsule(glm::vec3(-1), glm::vec3(-1, -0.5f, -1), 0.01f, glm::vec3(3), kOctreeAllLayers);
  }
  // Queries at each level's own scale (21 triangles per level, cells halving).
  float cell = 0.5f;
  for (uint32_t level = 0; level < 26; ++level, cell *= 0.5f) {
    const std::vector<Triangle> own(tris.begin() + 21 * level, tris.begin() + 21 * (level + 1));
    // (No push-outs here: a push-out's later rounds are where the scalar capsule test's noise
    // on these tiny triangles would decide, and they cannot be told apart from the outside.)
    runQueries(ck, own, cell, level, 1, false, false);
  }
  EXPECT_EQ(ck.failures, 0u) << ck.report();
  // The deepest triangles are ~1e-8 across and ~1e7 times smaller than their distance to many
  // queries, where the scalar capsule test's crossing test is noise (it accepted segments passing
  // 0.3 away: see OracleAcceptsBeyondTheBoundingBox): those differences are brute force's.
  EXPECT_LE(ck.oracleRounding * 50, ck.queries) << ck.oracleRounding << " in " << ck.queries;
}

// The parallel build partitions the top levels serially and the subtrees below in parallel; the
// tree must be the same for any thread count, layers and degenerate triangles included.
TEST(OctreeAdversarial, ThreadCountsGiveIdenticalTrees) {
  test::SoupOptions opt;
  opt.regular = 19000;
  opt.slivers = 400;
  opt.onSplitPlanes = 400;
  opt.duplicates = 200;
  opt.degenerate = 100;
  const std::vector<Triangle> tris = test::makeRandomSoup(123, opt);
  ASSERT_GT(tris.size(), 20000u);
  std::vector<uint32_t> layers(tris.size());
  std::mt19937 rng(9);
  for (uint32_t& l : layers) l = kLayerChoices[rng() % kLayerChoiceCount];
  for (const uint32_t maxLevel : {16u, 3u}) {
    OctreeBuildParams p;
    p.maxLevel = maxLevel;
    p.trianglesPerLeaf = maxLevel == 3u ? 8u : 2u;
    Octree ref;
    p.threads = 1;
    const OctreeBuildReport r1 = ref.build(tris, layers, p);
    ASSERT_TRUE(r1.ok);
    expectValid(ref, "threads 1");
    for (const uint32_t threads : {2u, 7u}) {
      p.threads = threads;
      Octree o;
      const OctreeBuildReport r = o.build(tris, layers, p);
      const std::string what =
          "threads " + std::to_string(threads) + " maxLevel " + std::to_string(maxLevel);
      ASSERT_TRUE(r.ok) << what;
      expectValid(o, what);
      if (maxLevel == 16u) {
        // Where no thread can start (WebAssembly without pthreads) the build uses one.
        EXPECT_EQ(r.threadsUsed, platform::threadsAvailable() ? threads : 1u) << what;
      }
      EXPECT_EQ(r.nodeCount, r1.nodeCount) << what;
      EXPECT_EQ(r.leafCount, r1.leafCount) << what;
      EXPECT_EQ(r.depth, r1.depth) << what;
      EXPECT_EQ(r.maxTrianglesInNode, r1.maxTrianglesInNode) << what;
      EXPECT_EQ(r.bytes, r1.bytes) << what;
      ASSERT_EQ(o.nodeCount(), ref.nodeCount()) << what;
      for (uint32_t n = 0; n < o.nodeCount(); ++n) {
        const OctreeNodeLinks& a = o.nodeLinks()[n];
        const OctreeNodeLinks& b = ref.nodeLinks()[n];
        ASSERT_TRUE(a.firstTriangle == b.firstTriangle && a.ownEnd == b.ownEnd &&
                    a.firstChild == b.firstChild && a.childCount == b.childCount &&
                    a.level == b.level)
            << what << ": node " << n;
        ASSERT_EQ(o.nodeBounds(n).min, ref.nodeBounds(n).min) << what << ": node " << n;
        ASSERT_EQ(o.nodeBounds(n).max, ref.nodeBounds(n).max) << what << ": node " << n;
      }
      EXPECT_TRUE(std::equal(o.triangleOrder().begin(), o.triangleOrder().end(),
                             ref.triangleOrder().begin(), ref.triangleOrder().end()))
          << what;
      EXPECT_TRUE(std::equal(o.triangleLayers().begin(), o.triangleLayers().end(),
                             ref.triangleLayers().begin(), ref.triangleLayers().end()))
          << what;
      ASSERT_EQ(o.triangleBlocks().size(), ref.triangleBlocks().size()) << what;
      EXPECT_EQ(std::memcmp(o.triangleBlocks().data(), ref.triangleBlocks().data(),
                            o.triangleBlocks().size() * sizeof(OctreeTriangleBlock)),
                0)
          << what;
      for (uint32_t s = 0; s < o.triangleCount(); ++s) {
        ASSERT_EQ(o.isDegenerateSlot(s), ref.isDegenerateSlot(s)) << what << ": slot " << s;
      }
      // A rebuild on many threads gives the same tree again.
      p.threads = 1;
      ASSERT_TRUE(o.rebuild(p).ok);
      EXPECT_TRUE(std::equal(o.triangleOrder().begin(), o.triangleOrder().end(),
                             ref.triangleOrder().begin(), ref.triangleOrder().end()))
          << what << " rebuilt";
      EXPECT_EQ(o.nodeCount(), ref.nodeCount()) << what << " rebuilt";
    }
  }
}

// Empty octrees (no input, every triangle dropped as degenerate) and octrees whose triangles are
// all outside the query's layers answer nothing, like brute force.
TEST(OctreeAdversarial, EmptyAndExcludedOctreesAnswerNothing) {
  const std::vector<Triangle> points = {{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}},
                                        {{0, 0, 0}, {1, 1, 1}, {0, 0, 0}}};
  const std::vector<Triangle> one = {{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}};
  const std::vector<uint32_t> layerTwo = {2u};
  OctreeBuildParams drop;
  drop.dropDegenerate = true;
  struct Case {
    const char* name;
    std::vector<Triangle> tris;
    std::vector<uint32_t> layers;
    OctreeBuildParams params;
    uint32_t mask;
  };
  for (const Case& c : {Case{"no input", {}, {}, {}, kOctreeAllLayers},
                        Case{"all dropped", points, {}, drop, kOctreeAllLayers},
                        Case{"other layer", one, layerTwo, {}, 1u}, Case{"mask 0", one, {}, {}, 0u},
                        Case{"layer 0", one, {0u}, {}, kOctreeAllLayers}}) {
    Octree o;
    const OctreeBuildReport r = o.build(c.tris, c.layers, c.params);
    ASSERT_TRUE(r.ok) << c.name;
    expectValid(o, c.name);
    // The oracle over what the octree stored (nothing, for the dropped case).
    const std::vector<Triangle> stored = c.params.dropDegenerate ? std::vector<Triangle>{} : c.tris;
    const BruteForce brute(stored, c.layers);
    Checker ck(o, brute, c.name);
    std::mt19937 rng(1);
    for (int i = 0; i < 20; ++i) {
      const glm::vec3 p = unitVector(rng) * 0.5f;
      const glm::vec3 d = unitVector(rng);
      ck.ray(p - d * 2.0f, d, kInf, c.mask);
      ck.ray(p, d, 0.0f, c.mask);
      ck.sphere(p, 2.0f, c.mask);
      ck.capsule(p, p + d, 2.0f, c.mask);
      ck.box(Aabb{glm::vec3(-5), glm::vec3(5)}, c.mask);
      ck.closest(p, kInf, c.mask);
      ck.sweepSphere(p - d * 3.0f, 0.5f, d * 6.0f, c.mask);
      ck.sweepCapsule(p - d * 3.0f, p - d * 2.0f, 0.5f, d * 6.0f, c.mask);
      ck.pushSphere(p, 2.0f, c.mask);
      ck.pushCapsule(p, p + d, 2.0f, c.mask);
      ck.pushBox(Aabb::fromCenterHalfExtents(p, glm::vec3(2)), c.mask);
    }
    EXPECT_EQ(ck.failures, 0u) << ck.report();
    EXPECT_EQ(ck.hits, 0u) << c.name;
  }
}

// Known limit (not a traversal bug): Möller-Trumbore's t for a ray aimed at a vertex can be a few
// ulps below the distance at which the ray enters the triangle's box (here 3.6 ulps). With tMax
// exactly that t, brute force hits, and an octree whose box test ended the ray just before the
// box would not: the dequantizing slab test (RaySlab4, relative margin of 3 ulps; the path of
// rays with a zero direction component) missed this one. The ray cast's grid-plane test
// (RayGridPlanes) keeps an absolute margin of ~1e-6 of the level's extent and finds it; a
// sliver's t can still be off by more, so the general check stays the weaker one. A tMax a
// little larger finds the same hit, bit for bit.
TEST(OctreeAdversarial, RayBoundaryLimitation) {
  const std::vector<Triangle> tris = {{{0x1.3b39a6p-2f, 0x1.15b8f8p+0f, 0x1.79b0c6p-1f},
                                       {0x1.b46ebcp-3f, 0x1.bbbb6cp-1f, 0x1.101d7p+0f},
                                       {-0x1.ee36p-4f, 0x1.4304e2p-1f, 0x1.fc3532p-1f}},
                                      {{-0x1.7dc386p-1f, -0x1.65fd6p-1f, 0x1.125472p+0f},
                                       {-0x1.a3cb34p-1f, -0x1.e284f2p-2f, 0x1.d3ac48p-1f},
                                       {-0x1.e3646ep-1f, -0x1.76fa22p-1f, 0x1.4fb09cp-1f}},
                                      {{0x1.cdc0bep-1f, -0x1.ea30dcp-2f, 0x1.93b1c4p-1f},
                                       {0x1.5829bp-1f, -0x1.6ffabp-4f, 0x1.919b28p-1f},
                                       {0x1.a74358p-1f, -0x1.61589cp-2f, 0x1.9645dap-1f}},
                                      {{0x1.3fdb64p-1f, 0x1.ff0288p-3f, -0x1.7338c8p-1f},
                                       {0x1.15c86cp+0f, 0x1.7f47cp-7f, -0x1.48dabp-1f},
                                       {0x1.c3218ep-1f, 0x1.03e46ep-1f, -0x1.4a132cp-1f}}};
  const glm::vec3 o(0x1.95d14p+0f, -0x1.a990c2p-2f, -0x1.15f1fcp-1f);
  const glm::vec3 d(-0x1.f4227cp+8f, 0x1.ab49bep+8f, -0x1.8db9fep+6f);  // at vertex 1 of triangle 3
  OctreeBuildParams p;
  p.trianglesPerLeaf = 2;
  p.maxLevel = 2;
  Octree oct;
  ASSERT_TRUE(oct.build(tris, {}, p).ok);
  const BruteForce brute(tris);
  RayHit hb;
  ASSERT_TRUE(brute.raycast(o, d, kInf, kOctreeAllLayers, hb));
  EXPECT_EQ(hb.triangle, 3u);
  // The ray meets the triangle's box only beyond the hit's t.
  EXPECT_FALSE(rayMeetsBox(tris[3].bounds(), o, d, hb.t));
  Checker ck(oct, brute, "vertex hit");
  ck.rayAtBoundary(o, d, hb.t, kOctreeAllLayers);
  RayHit h;
  EXPECT_TRUE(oct.raycast(o, d, hb.t, kOctreeAllLayers, h));  // within the grid-plane margin
  EXPECT_TRUE(oct.rayAny(o, d, hb.t, kOctreeAllLayers));
  ck.ray(o, d, kInf, kOctreeAllLayers);
  ck.ray(o, d, hb.t * (1.0f + 1e-5f), kOctreeAllLayers);
  EXPECT_EQ(ck.failures + ck.oracleRounding, 0u) << ck.report();
}

// Known limits of the scalar tests (geometry/triangle_tests_inl.h), not of the octree: brute
// force can accept a triangle whose box is out of the shape's reach, because a computed closest
// point is not on the triangle. The octree, whose box tests are exact, answers the geometric
// truth; the other tests count these cases apart ("oracle rounding").
TEST(OctreeAdversarial, OracleAcceptsBeyondTheBoundingBox) {
  // 1. (Fixed) closestPointOnSegment returned a + (b - a) * 1, not b, for t clamped to 1: from
  // (1, 0, 0) to (1e-8, 0, 0) that was (0, 0, 0), 1e-8 beyond the segment's end, so a sphere of
  // radius 5e-9 at (-5e-9, 0, 0), 1.5e-8 from the segment, "touched" it. Now the end point is
  // returned exactly, and brute force and the octree agree that it does not.
  {
    const std::vector<Triangle> seg = {{{1, 0, 0}, {1e-8f, 0, 0}, {1, 0, 0}}};
    Octree o;
    ASSERT_TRUE(o.build(seg).ok);
    const BruteForce brute(seg);
    Checker ck(o, brute, "segment end");
    const glm::vec3 c(-5e-9f, 0, 0);
    ck.sphere(c, 5e-9f, kOctreeAllLayers);
    ck.capsule(c, c - glm::vec3(0, 1, 0), 5e-9f, kOctreeAllLayers);
    ck.closest(c, 5e-9f, kOctreeAllLayers);
    EXPECT_EQ(ck.failures, 0u)
        << ck.report();  // (the capsule's segment-segment test may still round)
    std::vector<uint32_t> touched;
    brute.overlapSphere(c, 5e-9f, kOctreeAllLayers, touched);
    EXPECT_TRUE(touched.empty());
    EXPECT_EQ(o.collectSphere(c, 5e-9f, kOctreeAllLayers, {}), 0u);
    PointHit h;
    EXPECT_FALSE(o.closestPoint(c, 5e-9f, kOctreeAllLayers, h));
    ASSERT_TRUE(o.closestPoint(c, 1.0f, kOctreeAllLayers, h));
    EXPECT_EQ(h.point, glm::vec3(1e-8f, 0, 0));
    EXPECT_EQ(h.distance, 1e-8f + 5e-9f);
  }
  // 2. segmentTriangleInterior's crossing test computes its signed volumes relative to the
  // segment's start: for a triangle 1e-7 across, 0.3 from the segment, they are noise, and the
  // scalar capsule test says the segment crosses it.
  {
    const std::vector<Triangle> tiny = {{{0x1.cp-24f, 0x1.8p-25f, 0x1p-26f},
                                         {0x1.ccccccp-24f, 0x1.8p-25f, 0x1p-26f},
                                         {0x1.cp-24f, 0x1.99999ap-25f, 0x1.333334p-26f}}};
    Octree o;
    ASSERT_TRUE(o.build(tiny).ok);
    const BruteForce brute(tiny);
    Checker ck(o, brute, "tiny triangle");
    const glm::vec3 a(0x1p-3f, 0x1.8p-2f, 0x1.cp-1f),
        b(0x1.c1d17cp-1f, 0x1.8ba6a8p-2f, 0x1.174d5p-3f);
    ck.capsule(a, b, 0.0f, kOctreeAllLayers);
    EXPECT_EQ(ck.failures, 0u) << ck.report();
    EXPECT_EQ(o.collectCapsule(a, b, 0.0f, kOctreeAllLayers, {}), 0u);
  }
}

// A level flat along an axis (every vertex at y = 0, or within one float step of 1e6) has a
// quantization step of 0, or far below one float step: every q gives the same box coordinate.
// (QuantAxis::down() once walked such plateaus one step at a time, 65,535 steps per node and
// axis; octree_grid.h now finds them by binary search. Its speed is a benchmark matter; here the
// trees must be valid and the answers exact.)
TEST(OctreeAdversarial, FlatAndThinLevelsAreValidAndExact) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-100.0f, 100.0f), s(-0.5f, 0.5f);
  std::vector<Triangle> flat, thin;
  for (int i = 0; i < 20000; ++i) {
    const glm::vec3 c(u(rng), u(rng), u(rng));
    Triangle f{c, c + glm::vec3(s(rng), s(rng), s(rng)), c + glm::vec3(s(rng), s(rng), s(rng))};
    f.v0.y = f.v1.y = f.v2.y = 0.0f;
    flat.push_back(f);
    Triangle h = f;
    h.v0.y = 1e6f;
    h.v1.y = 1e6f + 0.0625f;  // one float step above 1e6
    h.v2.y = 1e6f;
    thin.push_back(h);
  }
  Octree of, ot;
  ASSERT_TRUE(of.build(flat).ok);
  ASSERT_TRUE(ot.build(thin).ok);
  expectValid(of, "flat");
  expectValid(ot, "thin");
  EXPECT_EQ(of.quantizationStep().y, 0.0f);
  // Flat node boxes still hold their triangles and the answers are exact.
  const BruteForce bf(flat), bt(thin);
  Checker cf(of, bf, "flat"), ct(ot, bt, "thin");
  for (int i = 0; i < 40; ++i) {
    const glm::vec3 p(u(rng), 0.0f, u(rng));
    cf.sphere(p, 1.0f, kOctreeAllLayers);
    cf.box(Aabb::fromCenterHalfExtents(p, glm::vec3(1.0f, 0.0f, 1.0f)), kOctreeAllLayers);
    cf.ray(p + glm::vec3(0, 5, 0), glm::vec3(0, -1, 0), kInf, kOctreeAllLayers);
    cf.closest(p + glm::vec3(0, 1, 0), 3.0f, kOctreeAllLayers);
    const glm::vec3 q(p.x, 1e6f, p.z);
    ct.sphere(q, 1.0f, kOctreeAllLayers);
    ct.ray(q + glm::vec3(0, 5, 0), glm::vec3(0, -1, 0), kInf, kOctreeAllLayers);
  }
  EXPECT_EQ(cf.failures + ct.failures, 0u) << cf.report() << ct.report();
  EXPECT_GT(cf.hits, 20u);
}

}  // namespace
}  // namespace ofps
