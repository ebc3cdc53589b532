// Adversarial comparison of the octree with the brute-force oracle on targeted inputs. Every
// answer must be EXACTLY the oracle's: the same sets of triangles, the same ray t bit for bit,
// the same triangles on ties.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <glm/geometric.hpp>

#include "geometry/triangle_tests.h"
#include "spatial/brute_force.h"
#include "spatial/octree.h"
#include "support/random_soup.h"

namespace ofps {
namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

std::string hex(float x) {
  char buf[48];
  std::snprintf(buf, sizeof(buf), "%a", static_cast<double>(x));
  return buf;
}
std::string hex(const glm::vec3& v) { return "(" + hex(v.x) + ", " + hex(v.y) + ", " + hex(v.z) + ")"; }
std::string hex(const std::vector<Triangle>& tris) {
  std::string s;
  for (const Triangle& t : tris) s += "{" + hex(t.v0) + ", " + hex(t.v1) + ", " + hex(t.v2) + "} ";
  return s;
}

bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof(float)) == 0; }

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
  std::string soup;  // the triangles, printed with the failures

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
    const std::string q = "ray o=" + hex(o) + " d=" + hex(d) + " tMax=" + hex(tMax) + " mask=" +
                          std::to_string(mask);
    if (ha != hb || (ha && (!sameBits(a.t, b.t) || a.triangle != b.triangle || a.point != b.point ||
                            a.normal != b.normal))) {
      fail(q + ": octree " + std::to_string(ha) + " t=" + hex(a.t) + " tri=" + std::to_string(a.triangle) +
           ", brute " + std::to_string(hb) + " t=" + hex(b.t) + " tri=" + std::to_string(b.triangle));
    }
    const bool any = octree.rayAny(o, d, tMax, mask);
    if (any != hb) fail(q + ": rayAny " + std::to_string(any) + ", brute " + std::to_string(hb));
  }

  // The visitor sees each triangle once, in slot order; the count, the collect form and an early
  // stop agree.
  template <class Visit, class Collect>
  void compareOverlap(const std::string& q, const std::vector<uint32_t>& want, Visit&& visit,
                      Collect&& collect) {
    ++queries;
    hits += want.empty() ? 0u : 1u;
    std::vector<uint32_t> got;
    const uint32_t n = visit([&](uint32_t t) {
      got.push_back(t);
      return true;
    });
    std::vector<uint32_t> sorted = got;
    std::sort(sorted.begin(), sorted.end());
    if (n != got.size() || sorted != want) {
      std::string g, w;
      for (uint32_t t : got) g += std::to_string(t) + " ";
      for (uint32_t t : want) w += std::to_string(t) + " ";
      fail(q + ": octree {" + g + "} brute {" + w + "}");
      return;
    }
    // Slot order: the order of triangleOrder().
    std::vector<uint32_t> slotOf(octree.triangleOrder().size() + 1);
    for (uint32_t s = 0; s < octree.triangleOrder().size(); ++s) slotOf[octree.triangleOrder()[s]] = s;
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
        [&](std::span<uint32_t> out) { return octree.collectSphere(c, r, mask, out); });
  }
  void capsule(const glm::vec3& a, const glm::vec3& b, float r, uint32_t mask) {
    std::vector<uint32_t> want;
    brute.overlapCapsule(a, b, r, mask, want);
    compareOverlap(
        "capsule a=" + hex(a) + " b=" + hex(b) + " r=" + hex(r) + " mask=" + std::to_string(mask), want,
        [&](auto&& f) { return octree.overlapCapsule(a, b, r, mask, f); },
        [&](std::span<uint32_t> out) { return octree.collectCapsule(a, b, r, mask, out); });
  }
  void box(const Aabb& bx, uint32_t mask) {
    std::vector<uint32_t> want;
    brute.overlapBox(bx, mask, want);
    compareOverlap(
        "box " + hex(bx.min) + " " + hex(bx.max) + " mask=" + std::to_string(mask), want,
        [&](auto&& f) { return octree.overlapBox(bx, mask, f); },
        [&](std::span<uint32_t> out) { return octree.collectBox(bx, mask, out); });
  }
  void closest(const glm::vec3& p, float maxD, uint32_t mask) {
    ++queries;
    PointHit a, b;
    const bool ha = octree.closestPoint(p, maxD, mask, a);
    const bool hb = brute.closestPoint(p, maxD, mask, b);
    hits += hb ? 1u : 0u;
    if (ha != hb || (ha && (!sameBits(a.distance, b.distance) || a.triangle != b.triangle || a.point != b.point))) {
      fail("closest p=" + hex(p) + " maxD=" + hex(maxD) + " mask=" + std::to_string(mask) + ": octree " +
           std::to_string(ha) + " d=" + hex(a.distance) + " tri=" + std::to_string(a.triangle) + ", brute " +
           std::to_string(hb) + " d=" + hex(b.distance) + " tri=" + std::to_string(b.triangle));
    }
  }
  void sweepSphere(const glm::vec3& c, float r, const glm::vec3& d, uint32_t mask) {
    ++queries;
    SweepHit a, b;
    const bool ha = octree.sweepSphere(c, r, d, mask, a);
    const bool hb = brute.sweepSphere(c, r, d, mask, b);
    hits += hb ? 1u : 0u;
    if (ha != hb || (ha && (!sameBits(a.toi, b.toi) || a.triangle != b.triangle ||
                            a.startsOverlapping != b.startsOverlapping))) {
      fail("sweepSphere c=" + hex(c) + " r=" + hex(r) + " d=" + hex(d) + " mask=" + std::to_string(mask) +
           ": octree " + std::to_string(ha) + " toi=" + hex(a.toi) + " tri=" + std::to_string(a.triangle) +
           ", brute " + std::to_string(hb) + " toi=" + hex(b.toi) + " tri=" + std::to_string(b.triangle));
    }
  }
  void sweepCapsule(const glm::vec3& p, const glm::vec3& q, float r, const glm::vec3& d, uint32_t mask) {
    ++queries;
    SweepHit a, b;
    const bool ha = octree.sweepCapsule(p, q, r, d, mask, a);
    const bool hb = brute.sweepCapsule(p, q, r, d, mask, b);
    hits += hb ? 1u : 0u;
    if (ha != hb || (ha && (!sameBits(a.toi, b.toi) || a.triangle != b.triangle))) {
      fail("sweepCapsule a=" + hex(p) + " b=" + hex(q) + " r=" + hex(r) + " d=" + hex(d) +
           " mask=" + std::to_string(mask) + ": octree " + std::to_string(ha) + " toi=" + hex(a.toi) +
           " tri=" + std::to_string(a.triangle) + ", brute " + std::to_string(hb) + " toi=" + hex(b.toi) +
           " tri=" + std::to_string(b.triangle));
    }
  }
  void pushSphere(const glm::vec3& c, float r, uint32_t mask) {
    ++queries;
    PushOut a, b;
    const bool ha = octree.sphereIntersect(c, r, mask, a);
    const bool hb = brute.sphereIntersect(c, r, mask, b);
    hits += hb ? 1u : 0u;
    if (ha != hb || !sameBits(a.depth, b.depth) || a.normal != b.normal || a.iterations != b.iterations ||
        a.deepestTriangle != b.deepestTriangle || a.resolved != b.resolved) {
      fail("sphereIntersect c=" + hex(c) + " r=" + hex(r) + " mask=" + std::to_string(mask) + ": octree " +
           std::to_string(ha) + " depth=" + hex(a.depth) + " tri=" + std::to_string(a.deepestTriangle) +
           ", brute " + std::to_string(hb) + " depth=" + hex(b.depth) + " tri=" + std::to_string(b.deepestTriangle));
    }
  }
  void pushCapsule(const glm::vec3& p, const glm::vec3& q, float r, uint32_t mask) {
    ++queries;
    PushOut a, b;
    const bool ha = octree.capsuleIntersect(p, q, r, mask, a);
    const bool hb = brute.capsuleIntersect(p, q, r, mask, b);
    hits += hb ? 1u : 0u;
    if (ha != hb || !sameBits(a.depth, b.depth) || a.normal != b.normal || a.iterations != b.iterations ||
        a.deepestTriangle != b.deepestTriangle || a.resolved != b.resolved) {
      fail("capsuleIntersect a=" + hex(p) + " b=" + hex(q) + " r=" + hex(r) + " mask=" + std::to_string(mask) +
           ": octree " + std::to_string(ha) + " depth=" + hex(a.depth) + ", brute " + std::to_string(hb) +
           " depth=" + hex(b.depth));
    }
  }
  void pushBox(const Aabb& bx, uint32_t mask) {
    ++queries;
    PushOut a, b;
    const bool ha = octree.boxIntersect(bx, mask, a);
    const bool hb = brute.boxIntersect(bx, mask, b);
    hits += hb ? 1u : 0u;
    if (ha != hb || !sameBits(a.depth, b.depth) || a.normal != b.normal || a.iterations != b.iterations ||
        a.deepestTriangle != b.deepestTriangle || a.resolved != b.resolved) {
      fail("boxIntersect " + hex(bx.min) + " " + hex(bx.max) + " mask=" + std::to_string(mask) + ": octree " +
           std::to_string(ha) + " depth=" + hex(a.depth) + ", brute " + std::to_string(hb) + " depth=" + hex(b.depth));
    }
  }

  std::string report() const {
    std::string s = std::to_string(failures) + " failures in " + std::to_string(queries) + " queries on " + soup + "\n";
    for (const std::string& f : firstFailures) s += "  " + f + "\n";
    return s;
  }
};

// A ray with a zero direction component whose origin lies exactly in a node's face plane on that
// axis: a probe straight down onto the edge of a floor. The slab test used to treat +-0 as
// +-1e-30, so the face on the far side of the (zero) direction gave an exit distance of 0 and the
// node was dropped: octree miss, brute-force hit.
TEST(OctreeAdversarial, AxisAlignedRayInANodeFacePlane) {
  const std::vector<Triangle> floor = {{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}, {{1, 0, 0}, {1, 0, 1}, {0, 0, 1}}};
  Octree o;
  ASSERT_TRUE(o.build(floor).ok);
  expectValid(o, "floor");
  const BruteForce brute(floor);
  Checker ck(o, brute, "floor");
  ck.soup = hex(floor);
  const glm::vec3 up(0, 1, 0);
  // Straight down at the level's max x (d.x = +0) and min x (-up: d.x = -0), on the shared
  // diagonal, and with a component too small for its inverse to be finite.
  for (const glm::vec3& origin : {glm::vec3(1, 1, 0.25f), glm::vec3(0, 1, 0.25f), glm::vec3(0.5f, 1, 0.5f),
                                  glm::vec3(1, 1, 1), glm::vec3(0, 1, 0), glm::vec3(0.25f, 1, 0)}) {
    for (const glm::vec3& d : {glm::vec3(0, -1, 0), -up, glm::vec3(1e-39f, -1, 0), glm::vec3(-1e-39f, -1, -1e-39f),
                               glm::vec3(0, -1, 1e-39f)}) {
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
  for (const glm::vec3& d : {glm::vec3(1, 0, 0), glm::vec3(1, -0.0f, -0.0f), glm::vec3(1, 0, 0.1f)}) {
    ckRoom.ray(glm::vec3(0.5f, 0, 0.5f), d, kInf, kOctreeAllLayers);
    ckRoom.ray(glm::vec3(-1, 0, 0.5f), d, kInf, kOctreeAllLayers);
  }
  EXPECT_EQ(ck.failures + ckRoom.failures, 0u) << ck.report() << ckRoom.report();
  EXPECT_GE(ck.hits, 40u) << "the probes hit the floor";
}

}  // namespace
}  // namespace ofps
