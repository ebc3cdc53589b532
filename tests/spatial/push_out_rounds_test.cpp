// The push-out rounds (spatial/push_out_rounds_inl.h) checked on their own. The octree and the
// brute-force oracle share these rounds, so the oracle tests cannot catch a bug in them; these
// tests can: scripted contacts pin the contract of octree.h ("Push-out") step by step, and the
// property tests judge the octree's results by testing every triangle directly, with no code
// shared with the rounds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "octree_fps/geometry/aabb.h"
#include "octree_fps/geometry/triangle_tests.h"
#include "octree_fps/spatial/octree.h"
#include "octree_fps/spatial/push_out_rounds_inl.h"
#include "support/random_soup.h"

namespace ofps {
namespace {

using detail::DeepestContact;
using detail::resolvePushOut;

struct Offered {
  glm::vec3 normal;
  float depth;
  uint32_t triangle;
};

// Round k offers script[k] (nothing once the script runs out) and records the offset it saw.
struct ScriptedRounds {
  std::vector<std::vector<Offered>> script;
  std::vector<glm::vec3> offsetsSeen;
  void operator()(const glm::vec3& offset, DeepestContact& d) {
    const size_t k = offsetsSeen.size();
    offsetsSeen.push_back(offset);
    if (k >= script.size()) return;
    for (const Offered& o : script[k]) d.offer(TriangleContact{o.normal, o.depth}, o.triangle);
  }
};

TEST(PushOutRounds, NothingTouchingIsResolvedAtOnce) {
  ScriptedRounds r;
  PushOut out;
  out.depth = 7.0f;  // stale values must be overwritten
  EXPECT_FALSE(resolvePushOut(1e-6f, 8, out, std::ref(r)));
  EXPECT_TRUE(out.resolved);
  EXPECT_EQ(out.iterations, 0u);
  EXPECT_EQ(out.depth, 0.0f);
  EXPECT_EQ(out.normal, glm::vec3(0.0f));
  EXPECT_EQ(out.deepestTriangle, kOctreeInvalidIndex);
  EXPECT_EQ(r.offsetsSeen.size(), 1u);
}

TEST(PushOutRounds, TouchingWithinToleranceCountsButDoesNotMove) {
  ScriptedRounds r;
  r.script = {{{glm::vec3(0, 1, 0), 0.0f, 4}}};
  PushOut out;
  EXPECT_TRUE(resolvePushOut(1e-6f, 8, out, std::ref(r)));
  EXPECT_TRUE(out.resolved);
  EXPECT_EQ(out.iterations, 0u);
  EXPECT_EQ(out.depth, 0.0f);
  EXPECT_EQ(out.deepestTriangle, 4u);
}

TEST(PushOutRounds, OffsetsAccumulateAndTheDeepestContactWins) {
  ScriptedRounds r;
  r.script = {
      {{glm::vec3(0, 1, 0), 0.25f, 9}, {glm::vec3(1, 0, 0), 0.5f, 12}},  // x wins: deeper
      {{glm::vec3(0, 1, 0), 0.25f, 9}},
      {},
  };
  PushOut out;
  EXPECT_TRUE(resolvePushOut(1e-6f, 8, out, std::ref(r)));
  ASSERT_EQ(r.offsetsSeen.size(), 3u);
  EXPECT_EQ(r.offsetsSeen[0], glm::vec3(0.0f));
  EXPECT_EQ(r.offsetsSeen[1], glm::vec3(0.5f, 0.0f, 0.0f));
  EXPECT_EQ(r.offsetsSeen[2], glm::vec3(0.5f, 0.25f, 0.0f));
  EXPECT_TRUE(out.resolved);
  EXPECT_EQ(out.iterations, 2u);
  EXPECT_EQ(out.deepestTriangle, 12u);  // the first round's deepest
  EXPECT_FLOAT_EQ(out.depth, std::sqrt(0.5f * 0.5f + 0.25f * 0.25f));
  EXPECT_NEAR(out.normal.x, 0.5f / out.depth, 1e-6f);
  EXPECT_NEAR(out.normal.y, 0.25f / out.depth, 1e-6f);
}

TEST(PushOutRounds, TiesGoToTheLowerTriangleIndexInAnyOfferOrder) {
  for (bool lowFirst : {true, false}) {
    ScriptedRounds r;
    const Offered low{glm::vec3(0, 1, 0), 0.5f, 3}, high{glm::vec3(1, 0, 0), 0.5f, 7};
    r.script = {lowFirst ? std::vector<Offered>{low, high} : std::vector<Offered>{high, low}};
    PushOut out;
    resolvePushOut(1e-6f, 8, out, std::ref(r));
    EXPECT_EQ(out.deepestTriangle, 3u) << "low first: " << lowFirst;
    EXPECT_EQ(out.normal, glm::vec3(0, 1, 0)) << "low first: " << lowFirst;
  }
}

TEST(PushOutRounds, RunningOutOfRoundsLooksOnceMoreThenReportsUnresolved) {
  ScriptedRounds r;
  const std::vector<Offered> deep = {{glm::vec3(0, 1, 0), 1.0f, 0}};
  r.script.assign(10, deep);
  PushOut out;
  EXPECT_TRUE(resolvePushOut(1e-6f, 3, out, std::ref(r)));
  EXPECT_FALSE(out.resolved);
  EXPECT_EQ(out.iterations, 3u);
  EXPECT_EQ(r.offsetsSeen.size(), 4u);  // three rounds and the final look
  EXPECT_FLOAT_EQ(out.depth, 3.0f);

  // The final look finds the shape clear: resolved, with the rounds all used.
  ScriptedRounds clear;
  clear.script.assign(3, deep);
  EXPECT_TRUE(resolvePushOut(1e-6f, 3, out, std::ref(clear)));
  EXPECT_TRUE(out.resolved);
  EXPECT_EQ(out.iterations, 3u);
}

TEST(PushOutRounds, ZeroRoundsMeansOne) {
  ScriptedRounds r;
  r.script.assign(5, {{glm::vec3(0, 1, 0), 1.0f, 0}});
  PushOut out;
  resolvePushOut(1e-6f, 0, out, std::ref(r));
  EXPECT_EQ(out.iterations, 1u);
  EXPECT_EQ(r.offsetsSeen.size(), 2u);
}

// ---- The octree's results judged triangle by triangle -------------------------------------------

// Every triangle's contact with a shape, tested directly.
using ContactFn = std::function<bool(const Triangle&, TriangleContact&)>;

struct Judged {
  bool any = false;
  float deepest = 0.0f;
  uint32_t deepestTriangle = kOctreeInvalidIndex;
};

Judged judge(const std::vector<Triangle>& tris, const ContactFn& contact) {
  Judged j;
  for (uint32_t i = 0; i < tris.size(); ++i) {
    TriangleContact c;
    if (!contact(tris[i], c)) continue;
    if (!j.any || c.depth > j.deepest) {
      j.deepest = c.depth;
      j.deepestTriangle = i;
    }
    j.any = true;
  }
  return j;
}

struct Tally {
  int resolvedAfterMoving = 0;
  int unresolved = 0;
};

// The contract of one push-out result, judged by `contactAt(offset)`: the start position's
// contacts decide the return value and deepestTriangle's depth; a resolved result leaves no
// contact deeper than the tolerance (slack: the offset is rebuilt from normal * depth, a few
// float steps from the rounds' own sum); an unresolved one still has a deep contact.
void checkResult(const std::vector<Triangle>& tris, bool overlapped, const PushOut& out, float tol,
                 const std::function<ContactFn(const glm::vec3&)>& contactAt, Tally& tally) {
  const Judged start = judge(tris, contactAt(glm::vec3(0.0f)));
  ASSERT_EQ(overlapped, start.any);
  if (start.any) {
    TriangleContact c;
    ASSERT_NE(out.deepestTriangle, kOctreeInvalidIndex);
    ASSERT_TRUE(contactAt(glm::vec3(0.0f))(tris[out.deepestTriangle], c));
    EXPECT_EQ(c.depth, start.deepest);
  }
  const glm::vec3 offset = out.normal * out.depth;
  const Judged end = judge(tris, contactAt(offset));
  const float slack = 2.0f * tol + 4e-7f * out.depth;
  if (out.resolved) {
    EXPECT_TRUE(!end.any || end.deepest <= slack)
        << "resolved, yet triangle " << end.deepestTriangle << " is " << end.deepest << " deep";
    if (out.iterations > 0) ++tally.resolvedAfterMoving;
  } else {
    EXPECT_TRUE(end.any && end.deepest > tol * 0.5f) << "unresolved, yet the shape is clear";
    ++tally.unresolved;
  }
}

void runProperties(const std::vector<Triangle>& tris, uint32_t seed, int queries) {
  Octree octree;
  octree.build(std::span<const Triangle>(tris));
  test::QueryPlacer placer(tris, test::boundsOf(tris), seed);
  Tally tally;
  for (int q = 0; q < queries; ++q) {
    const glm::vec3 c = placer.nearSurface(0.5f);
    const float r = placer.uniform(0.05f, 0.8f);
    PushOut out;
    switch (q % 3) {
      case 0: {
        const bool hit = octree.sphereIntersect(c, r, ~0u, out);
        const float tol = 1e-6f * (r + maxAbs(c));
        checkResult(
            tris, hit, out, tol,
            [&](const glm::vec3& off) -> ContactFn {
              return [=](const Triangle& t, TriangleContact& tc) {
                return sphereTriangleContact(c + off, r, t, tc);
              };
            },
            tally);
        break;
      }
      case 1: {
        const glm::vec3 a = c, b = c + placer.unitVector() * placer.uniform(0.0f, 1.5f);
        const bool hit = octree.capsuleIntersect(a, b, r, ~0u, out);
        const float tol = 1e-6f * (r + 0.5f * maxAbs(b - a) + maxAbs((a + b) * 0.5f));
        checkResult(
            tris, hit, out, tol,
            [&](const glm::vec3& off) -> ContactFn {
              return [=](const Triangle& t, TriangleContact& tc) {
                return capsuleTriangleContact(a + off, b + off, r, t, tc);
              };
            },
            tally);
        break;
      }
      default: {
        const Aabb box = Aabb::fromCenterHalfExtents(c, glm::vec3(r, 0.5f * r, 1.5f * r));
        const bool hit = octree.boxIntersect(box, ~0u, out);
        const float tol = 1e-6f * (maxAbs(box.halfExtents()) + maxAbs(box.center()));
        checkResult(
            tris, hit, out, tol,
            [&](const glm::vec3& off) -> ContactFn {
              return [=](const Triangle& t, TriangleContact& tc) {
                return boxTriangleContact(Aabb{box.min + off, box.max + off}, t, tc);
              };
            },
            tally);
        break;
      }
    }
    if (::testing::Test::HasFatalFailure()) return;
  }
  // The property above is empty unless shapes really were pushed out.
  EXPECT_GT(tally.resolvedAfterMoving, queries / 10) << "unresolved: " << tally.unresolved;
}

TEST(PushOutRounds, OctreeResultsHoldTriangleByTriangleOnRandomSoups) {
  for (uint32_t seed = 1; seed <= 4; ++seed) {
    SCOPED_TRACE(seed);
    runProperties(test::makeRandomSoup(seed), seed, 300);
  }
}

TEST(PushOutRounds, OctreeResultsHoldTriangleByTriangleOnASharedLevel) {
  std::vector<Triangle> tris;
  std::string why;
  if (!test::loadSharedLevel("levels/oa_dm1/oa_dm1.obj", tris, &why)) GTEST_SKIP() << why;
  runProperties(tris, 77, 150);
}

}  // namespace
}  // namespace ofps
