// Build rules, invariants, degenerate input and the known failure kinds of three.js's Octree.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>
#include <numeric>
#include <random>
#include <thread>

#include "octree_fps/geometry/triangle_tests.h"
#include "octree_fps/platform.h"
#include "octree_fps/spatial/brute_force.h"
#include "octree_fps/spatial/octree.h"
#include "octree_fps/spatial/octree_grid.h"
#include "spatial/oracle_harness.h"
#include "support/random_soup.h"

namespace ofps {
namespace {

using test::makeRandomSoup;

void expectValid(const Octree& o) {
  std::string err;
  EXPECT_TRUE(o.validate(&err)) << err;
}

TEST(OctreeBuild, EmptyOctreeAnswersNothing) {
  Octree o;
  const OctreeBuildReport r = o.build(std::span<const Triangle>{});
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.nodeCount, 0u);
  EXPECT_TRUE(o.empty());
  expectValid(o);
  RayHit h;
  EXPECT_FALSE(o.raycast(glm::vec3(0), glm::vec3(1, 0, 0), 10.0f, kOctreeAllLayers, h));
  EXPECT_FALSE(o.rayAny(glm::vec3(0), glm::vec3(1, 0, 0), 10.0f, kOctreeAllLayers));
  EXPECT_EQ(o.collectSphere(glm::vec3(0), 1.0f, kOctreeAllLayers, {}), 0u);
  PushOut p;
  EXPECT_FALSE(o.sphereIntersect(glm::vec3(0), 1.0f, kOctreeAllLayers, p));
  EXPECT_EQ(p.depth, 0.0f);
  SweepHit s;
  EXPECT_FALSE(o.sweepSphere(glm::vec3(0), 1.0f, glm::vec3(5, 0, 0), kOctreeAllLayers, s));
  PointHit c;
  EXPECT_FALSE(o.closestPoint(glm::vec3(0), 100.0f, kOctreeAllLayers, c));
  // Empty query output buffer still counts.
  EXPECT_EQ(o.bytes(), 0u);
}

TEST(OctreeBuild, OneTriangle) {
  const Triangle t{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
  Octree o;
  ASSERT_TRUE(o.build(std::span<const Triangle>(&t, 1)).ok);
  expectValid(o);
  EXPECT_EQ(o.nodeCount(), 1u);
  RayHit h;
  ASSERT_TRUE(o.raycast({0.25f, 1, 0.25f}, {0, -1, 0}, 5.0f, kOctreeAllLayers, h));
  EXPECT_FLOAT_EQ(h.t, 1.0f);
  EXPECT_EQ(h.triangle, 0u);
  EXPECT_EQ(h.normal, glm::vec3(0, 1, 0));
  // From below (back face for this winding) it still hits, normal toward the origin.
  ASSERT_TRUE(o.raycast({0.25f, -1, 0.25f}, {0, 1, 0}, 5.0f, kOctreeAllLayers, h));
  EXPECT_EQ(h.normal, glm::vec3(0, -1, 0));
}

// Every build, rebuild and clear names the tree with one new id from one counter: with nothing
// else building (this test's thread only), each takes exactly the next one, a failed build too.
TEST(OctreeBuild, EachBuildTakesOneId) {
  const Triangle t{{0, 0, 0}, {1, 0, 0}, {0, 0, 1}};
  Octree o;
  EXPECT_EQ(o.buildId(), 0u);  // never built
  ASSERT_TRUE(o.build(std::span<const Triangle>(&t, 1)).ok);
  const uint64_t first = o.buildId();
  EXPECT_GT(first, 0u);
  ASSERT_TRUE(o.rebuild(OctreeBuildParams{}).ok);
  EXPECT_EQ(o.buildId(), first + 1);
  ASSERT_TRUE(o.build(std::span<const Triangle>(&t, 1)).ok);
  EXPECT_EQ(o.buildId(), first + 2);
  const Triangle bad{{0, 0, 0}, {std::nanf(""), 0, 0}, {0, 0, 1}};
  EXPECT_FALSE(o.build(std::span<const Triangle>(&bad, 1)).ok);
  EXPECT_EQ(o.buildId(), first + 3);  // an empty tree, named anew
  o.clear();
  EXPECT_EQ(o.buildId(), first + 4);
  const Octree copy = o;
  EXPECT_EQ(copy.buildId(), o.buildId());  // the same tree
}

TEST(OctreeBuild, ErrorsNameTheTriangle) {
  const std::vector<glm::vec3> pos = {
      {0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, std::numeric_limits<float>::quiet_NaN(), 1}};
  Octree o;
  OctreeBuildReport r = o.build(pos, std::vector<uint32_t>{0, 1, 2, 0, 3, 1});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("triangle 1 has a non-finite vertex (0, nan, 1)"), std::string::npos)
      << r.error;
  EXPECT_TRUE(o.empty());
  const std::vector<glm::vec3> inf = {
      {0, 0, 0}, {1, 0, 0}, {std::numeric_limits<float>::infinity(), 1, 0}};
  r = o.build(inf, std::vector<uint32_t>{0, 1, 2});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("triangle 0 has a non-finite vertex (inf, 1, 0)"), std::string::npos)
      << r.error;
  r = o.build(pos, std::vector<uint32_t>{0, 1, 2, 0, 1, 7});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("triangle 1 has vertex index 7 out of range"), std::string::npos)
      << r.error;
  r = o.build(pos, std::vector<uint32_t>{0, 1});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("not a multiple of 3"), std::string::npos);
  r = o.build(pos, std::vector<uint32_t>{0, 1, 2}, std::vector<uint32_t>{1, 2});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error.find("layers has 2 entries for 1 triangles"), std::string::npos) << r.error;
}

TEST(OctreeBuild, DegenerateTrianglesCountedKeptOrDropped) {
  std::vector<Triangle> tris = {
      {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},  // fine
      {{0, 0, 0}, {2, 0, 0}, {1, 0, 0}},  // collinear: a segment
      {{3, 3, 3}, {3, 3, 3}, {3, 3, 3}},  // a point
  };
  Octree o;
  OctreeBuildReport r = o.build(tris);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.degenerateTriangles, 2u);
  EXPECT_EQ(r.droppedTriangles, 0u);
  EXPECT_EQ(r.storedTriangles, 3u);
  expectValid(o);
  // Kept as a segment and a point: closed-set tests still find them.
  EXPECT_EQ(o.collectSphere({1.5f, 0.5f, 0}, 0.5f, kOctreeAllLayers, {}),
            1u);  // touches the segment
  std::vector<uint32_t> out(4);
  EXPECT_EQ(o.collectSphere({3, 3, 4}, 1.0f, kOctreeAllLayers, out), 1u);  // touches the point
  EXPECT_EQ(out[0], 2u);
  OctreeBuildParams p;
  p.dropDegenerate = true;
  r = o.build(tris, {}, p);
  EXPECT_EQ(r.degenerateTriangles, 2u);
  EXPECT_EQ(r.droppedTriangles, 2u);
  EXPECT_EQ(r.storedTriangles, 1u);
  EXPECT_EQ(o.triangleOrder()[0], 0u);
  expectValid(o);
}

TEST(OctreeBuild, SharedLevelDegenerateCounts) {
  // SOURCES.md counts 8 zero-area triangles in oa_dm1 with double coordinates. Read as float
  // (as every loader here does), 18 thin slivers (sine ~3.5e-6) collapse onto a line: 26.
  std::vector<Triangle> tris;
  std::string why;
  if (!test::loadSharedLevel("levels/oa_dm1/oa_dm1.obj", tris, &why)) GTEST_SKIP() << why;
  Octree o;
  const OctreeBuildReport r = o.build(tris);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.inputTriangles, 7460u);
  EXPECT_EQ(r.degenerateTriangles, 26u);
  expectValid(o);
}

TEST(OctreeBuild, AllTrianglesAtOnePointStopImmediately) {
  std::vector<Triangle> tris(5000, Triangle{{1, 2, 3}, {1, 2, 3}, {1, 2, 3}});
  Octree o;
  const OctreeBuildReport r = o.build(tris);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.nodeCount, 1u);
  EXPECT_EQ(r.degenerateTriangles, 5000u);
  expectValid(o);
  EXPECT_EQ(o.collectSphere({1, 2, 3}, 0.0f, kOctreeAllLayers, {}), 5000u);
}

TEST(OctreeBuild, CoincidentCopiesAndSharedEdgesDoNotExplode) {
  // 10,000 copies of one triangle, plus a fan of 10,000 triangles sharing one edge.
  std::vector<Triangle> tris(10000, Triangle{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}});
  for (int i = 0; i < 10000; ++i) {
    const float a = static_cast<float>(i) * 6.2831853f / 10000.0f;
    tris.push_back({{5, 0, 0}, {5, 0, 1}, {5 + std::cos(a), std::sin(a), 0.5f}});
  }
  Octree o;
  const OctreeBuildReport r = o.build(tris);
  ASSERT_TRUE(r.ok);
  expectValid(o);
  EXPECT_LT(r.nodeCount, 6000u) << "node count exploded";
  EXPECT_LE(static_cast<double>(r.bytes) / 20000.0, 60.0) << "bytes per triangle";
  EXPECT_LE(r.depth, 16u);
  EXPECT_EQ(o.collectSphere({0.2f, 0.2f, 0}, 0.01f, kOctreeAllLayers, {}), 10000u);
  EXPECT_EQ(o.collectCapsule({5, 0, -1}, {5, 0, 2}, 0.0f, kOctreeAllLayers, {}), 10000u);
}

TEST(OctreeBuild, TriangleOnNodeFaceNeverLost) {
  // Axis-aligned triangles exactly on every split plane of a deep tree over [-1, 1]^3, at
  // coordinates whose halves round (thirds), plus filler so the tree is deep.
  std::vector<Triangle> tris;
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < 3000; ++i) {
    const glm::vec3 c(u(rng), u(rng), u(rng));
    tris.push_back({c, c + glm::vec3(0.01f, 0, 0), c + glm::vec3(0, 0.01f, 0)});
  }
  const size_t firstPlane = tris.size();
  for (int level = 1; level <= 8; ++level) {
    const float step = 2.0f / static_cast<float>(1 << level);
    for (int k = 1; k < (1 << level); k += 2) {
      const float v = -1.0f + step * static_cast<float>(k);
      tris.push_back(
          {{v, 0.1f / 3.0f, 0.2f}, {v, 0.1f / 3.0f + 0.001f, 0.2f}, {v, 0.1f / 3.0f, 0.2001f}});
    }
  }
  tris.push_back({glm::vec3(-1), glm::vec3(-1, -1, -0.99f), glm::vec3(-1, -0.99f, -1)});
  tris.push_back({glm::vec3(1), glm::vec3(1, 1, 0.99f), glm::vec3(1, 0.99f, 1)});
  OctreeBuildParams p;
  p.trianglesPerLeaf = 1;
  p.maxLevel = 24;
  Octree o;
  ASSERT_TRUE(o.build(tris, {}, p).ok);
  expectValid(o);
  for (size_t i = firstPlane; i < tris.size(); ++i) {
    const Triangle& t = tris[i];
    // A zero-radius sphere at a vertex, a ray straight at the face, a flat box: all must find it.
    std::vector<uint32_t> out(64);
    const uint32_t n = o.collectSphere(t.v0, 0.0f, kOctreeAllLayers, out);
    EXPECT_NE(std::find(out.begin(), out.begin() + n, static_cast<uint32_t>(i)), out.begin() + n)
        << i;
    const glm::vec3 c = (t.v0 + t.v1 + t.v2) / 3.0f;
    RayHit h;
    ASSERT_TRUE(
        o.raycast(c - glm::vec3(1e-3f, 0, 0), glm::vec3(1, 0, 0), 2e-3f, kOctreeAllLayers, h))
        << i;
    EXPECT_EQ(h.triangle, i);
    const uint32_t nb = o.collectBox(t.bounds(), kOctreeAllLayers, out);
    EXPECT_NE(
        std::find(out.begin(), out.begin() + std::min<uint32_t>(nb, 64), static_cast<uint32_t>(i)),
        out.begin() + std::min<uint32_t>(nb, 64))
        << i;
  }
}

TEST(OctreeBuild, HugeTriangleStaysFindable) {
  std::vector<Triangle> tris = makeRandomSoup(21);
  tris.push_back({{-1000, 0.5f, -1000}, {1000, 0.5f, -1000}, {0, 0.5f, 2000}});
  Octree o;
  ASSERT_TRUE(o.build(tris).ok);
  expectValid(o);
  RayHit h;
  // Straight down far from every other triangle's centroid.
  ASSERT_TRUE(o.raycast({500, 10, -500}, {0, -1, 0}, 100.0f, kOctreeAllLayers, h));
  EXPECT_EQ(h.triangle, tris.size() - 1);
  EXPECT_FLOAT_EQ(h.t, 9.5f);
}

// Every node's structure and quantized bounds, and the slot order, are equal.
void expectSameTree(const Octree& a, const Octree& b) {
  ASSERT_EQ(a.nodeCount(), b.nodeCount());
  EXPECT_TRUE(
      std::equal(a.triangleOrder().begin(), a.triangleOrder().end(), b.triangleOrder().begin()));
  for (uint32_t n = 0; n < a.nodeCount(); ++n) {
    const OctreeNodeLinks& x = a.nodeLinks()[n];
    const OctreeNodeLinks& y = b.nodeLinks()[n];
    ASSERT_EQ(x.firstTriangle, y.firstTriangle) << "node " << n;
    ASSERT_EQ(x.ownEnd, y.ownEnd) << "node " << n;
    ASSERT_EQ(x.firstChild, y.firstChild) << "node " << n;
    ASSERT_EQ(x.childCount, y.childCount) << "node " << n;
    ASSERT_EQ(x.level, y.level) << "node " << n;
    ASSERT_EQ(a.nodeBounds(n).min, b.nodeBounds(n).min) << "node " << n;
    ASSERT_EQ(a.nodeBounds(n).max, b.nodeBounds(n).max) << "node " << n;
  }
}

TEST(OctreeBuild, ThreadCountDoesNotChangeTheTree) {
  // Large enough (> 4096 triangles) for the build to split work across threads.
  test::SoupOptions opt;
  opt.regular = 12000;
  const std::vector<Triangle> tris = makeRandomSoup(31, opt);
  Octree one, many, automatic;
  OctreeBuildParams p;
  const OctreeBuildReport r1 = one.build(tris, {}, p);
  p.threads = 3;
  const OctreeBuildReport r3 = many.build(tris, {}, p);
  p.threads = 0;
  ASSERT_TRUE(automatic.build(tris, {}, p).ok);
  ASSERT_TRUE(r1.ok && r3.ok);
  EXPECT_EQ(r1.threadsUsed, 1u);
  // Where no thread can start (WebAssembly without pthreads) the build uses one.
  EXPECT_EQ(r3.threadsUsed, platform::threadsAvailable() ? 3u : 1u);
  expectValid(many);
  expectSameTree(one, many);
  expectSameTree(one, automatic);
  EXPECT_EQ(one.structureHash(), many.structureHash());
  EXPECT_EQ(one.structureHash(), automatic.structureHash());
}

TEST(OctreeBuild, StructureHashTellsTreesApart) {
  // octree_bench --tree-hash relies on it to show that a faster build gives the same tree.
  const std::vector<Triangle> tris = makeRandomSoup(32);
  Octree a, b, c;
  ASSERT_TRUE(a.build(tris).ok);
  ASSERT_TRUE(b.build(tris).ok);
  EXPECT_EQ(a.structureHash(), b.structureHash());
  OctreeBuildParams p;
  p.trianglesPerLeaf = 4;
  ASSERT_TRUE(c.build(tris, {}, p).ok);
  EXPECT_NE(a.structureHash(), c.structureHash());
  // One vertex moved by one ulp changes a block (and maybe a bound): a different hash.
  std::vector<Triangle> moved = tris;
  moved[5].v1.x = std::nextafter(moved[5].v1.x, 1e30f);
  ASSERT_TRUE(c.build(moved).ok);
  EXPECT_NE(a.structureHash(), c.structureHash());
  // Layers are part of the tree.
  std::vector<uint32_t> layers(tris.size(), kOctreeAllLayers);
  layers[3] = 1u;
  ASSERT_TRUE(c.build(tris, layers).ok);
  EXPECT_NE(a.structureHash(), c.structureHash());
  Octree empty;
  EXPECT_NE(a.structureHash(), empty.structureHash());
}

TEST(OctreeBuild, QuantizedBoundsHoldAtExtremeCoordinates) {
  // Node boxes are 16-bit steps on a grid over the level's box; they must still contain every
  // triangle (validate() checks it against the float expression queries use) when the level
  // spans most of float's range, sits far from the origin, or is flat along an axis.
  const std::vector<Triangle> base = makeRandomSoup(41);
  struct Case {
    const char* name;
    float scale;
    glm::vec3 offset;
    bool flatY;
  };
  for (const Case& c :
       {Case{"huge", 1e36f, glm::vec3(0), false},
        Case{"far", 1.0f, glm::vec3(3e6f, -7e6f, 1e7f), false},
        Case{"tiny", 1e-30f, glm::vec3(0), false}, Case{"flat", 1.0f, glm::vec3(0, 5, 0), true},
        Case{"huge and far", 1e30f, glm::vec3(-2e37f, 0, 3e37f), false}}) {
    std::vector<Triangle> tris = base;
    for (Triangle& t : tris) {
      for (glm::vec3* v : {&t.v0, &t.v1, &t.v2}) {
        if (c.flatY) v->y = 0.0f;
        *v = *v * c.scale + c.offset;
      }
    }
    Octree o;
    ASSERT_TRUE(o.build(tris).ok) << c.name;
    std::string err;
    EXPECT_TRUE(o.validate(&err)) << c.name << ": " << err;
    // Every triangle is found by a box query around its own bounds.
    for (uint32_t i = 0; i < tris.size(); i += 7) {
      const Aabb b = tris[i].bounds();
      bool found = false;
      o.overlapBox(b, kOctreeAllLayers, [&](uint32_t t) {
        found = found || t == i;
        return true;
      });
      EXPECT_TRUE(found) << c.name << ": triangle " << i;
    }
  }
}

TEST(OctreeBuild, TouchingSpheresMatchTheScalarTestExactly) {
  // The octree tests four triangles at once with SIMD code that must give the scalar test's
  // answer bit for bit, touching cases included (where rounding decides): spheres placed to touch
  // each triangle at a vertex, an edge and the face, and nudged by one ulp either way.
  const std::vector<Triangle> tris = makeRandomSoup(57);
  Octree o;
  ASSERT_TRUE(o.build(tris).ok);
  const BruteForce brute(tris);
  std::vector<uint32_t> got(tris.size()), want;
  uint32_t touching = 0, checked = 0;
  for (uint32_t i = 0; i < tris.size(); i += 3) {
    const Triangle& t = tris[i];
    const glm::vec3 n = glm::cross(t.v1 - t.v0, t.v2 - t.v0);
    if (!(glm::dot(n, n) > 1e-12f)) continue;
    const glm::vec3 un = glm::normalize(n);
    const glm::vec3 centroid = (t.v0 + t.v1 + t.v2) / 3.0f;
    const glm::vec3 mid = (t.v0 + t.v1) * 0.5f;
    const glm::vec3 outward = glm::normalize(mid - centroid);
    const float r = 0.3f;
    for (const glm::vec3& c : {centroid + un * r, t.v0 + glm::normalize(t.v0 - centroid) * r,
                               mid + outward * r, t.v2 - un * r}) {
      for (const float rr : {std::nextafter(r, 0.0f), r, std::nextafter(r, 1.0f)}) {
        brute.overlapSphere(c, rr, kOctreeAllLayers, want);
        const uint32_t count = o.collectSphere(c, rr, kOctreeAllLayers, got);
        std::vector<uint32_t> g(got.begin(), got.begin() + count);
        std::sort(g.begin(), g.end());
        ASSERT_EQ(g, want) << "triangle " << i << " centre (" << c.x << ", " << c.y << ", " << c.z
                           << ") r " << rr;
        touching += std::find(want.begin(), want.end(), i) != want.end() ? 1u : 0u;
        ++checked;
      }
    }
  }
  // Some of the placements must actually touch (else the test proves nothing about them).
  EXPECT_GT(touching, checked / 4);
}

TEST(OctreeGrid, DownAndUpMatchTheirDefinitions) {
  // down(v) = largest q with value(q) <= v, up(v) = smallest q with value(q) >= v (or -1 /
  // 65536 when none), checked against a scan of all 65536 steps; on ordinary grids, on grids
  // far from the origin (float rounding makes value() flat over runs of steps), on a flat axis.
  using detail::kQuantMax;
  using detail::QuantAxis;
  std::mt19937 rng(5);
  for (const auto& [lo, hi] :
       {std::pair{-3.0f, 5.0f}, std::pair{1e7f, 1e7f + 16.0f}, std::pair{-2e6f, -2e6f + 0.5f},
        std::pair{4.0f, 4.0f}, std::pair{-1e30f, 3e30f}}) {
    const QuantAxis a = QuantAxis::spanning(lo, hi);
    ASSERT_EQ(a.value(0), lo);
    ASSERT_GE(a.value(kQuantMax), hi);
    std::vector<float> probes = {lo,
                                 hi,
                                 a.value(kQuantMax),
                                 std::nextafter(lo, -INFINITY),
                                 std::nextafter(hi, INFINITY),
                                 -INFINITY,
                                 INFINITY,
                                 NAN};
    std::uniform_int_distribution<uint32_t> step(0, kQuantMax);
    for (int i = 0; i < 60; ++i) {
      const float v = a.value(step(rng));
      probes.insert(probes.end(), {v, std::nextafter(v, -INFINITY), std::nextafter(v, INFINITY)});
    }
    for (const float v : probes) {
      int32_t down = -1, up = static_cast<int32_t>(kQuantMax) + 1;
      for (uint32_t q = 0; q <= kQuantMax; ++q) {
        if (a.value(q) <= v) down = static_cast<int32_t>(q);
      }
      for (uint32_t q = kQuantMax + 1; q-- > 0;) {
        if (a.value(q) >= v) up = static_cast<int32_t>(q);
      }
      EXPECT_EQ(a.down(v), down) << "grid [" << lo << ", " << hi << "] v " << v;
      EXPECT_EQ(a.up(v), up) << "grid [" << lo << ", " << hi << "] v " << v;
    }
  }
}

TEST(OctreeBuild, TrianglesPerLeafOneAndMaxLevelZero) {
  const std::vector<Triangle> tris = makeRandomSoup(8);
  const BruteForce brute(tris);
  for (OctreeBuildParams p : {OctreeBuildParams{1, 16, false}, OctreeBuildParams{8, 0, false},
                              OctreeBuildParams{1, 0, false}, OctreeBuildParams{1, 99, false}}) {
    Octree o;
    const OctreeBuildReport r = o.build(tris, {}, p);
    ASSERT_TRUE(r.ok);
    expectValid(o);
    EXPECT_LE(r.depth, std::min(p.maxLevel, kOctreeMaxLevel));
    if (p.maxLevel == 0) {
      EXPECT_EQ(r.nodeCount, 1u);
    }
    test::OracleTally tally;
    test::runOracle(tris, o, brute, 0.5f, 150, 17, tally);
    EXPECT_EQ(tally.totalDisagreements(), 0u) << tally.summary();
  }
}

TEST(OctreeBuild, ManyTrianglesInOneTinyCellStopAtMaxLevel) {
  // Distinct but extremely close centroids: splits continue until maxLevel, without recursion.
  std::vector<Triangle> tris;
  for (int i = 0; i < 2000; ++i) {
    const float e = static_cast<float>(i) * 1e-6f;
    tris.push_back({{e, 0, 0}, {e + 1e-7f, 0, 0}, {e, 1e-7f, 0}});
  }
  tris.push_back({{-100, -100, -100}, {-100, -100, -99}, {-100, -99, -100}});
  Octree o;
  OctreeBuildParams p;
  p.maxLevel = 24;
  const OctreeBuildReport r = o.build(tris, {}, p);
  ASSERT_TRUE(r.ok);
  expectValid(o);
  EXPECT_LE(r.depth, 24u);
  EXPECT_EQ(o.collectBox(Aabb{glm::vec3(-1), glm::vec3(1)}, kOctreeAllLayers, {}), 2000u);
}

TEST(OctreeBuild, RangesAreContiguousAndPermutationComplete) {
  const std::vector<Triangle> tris = makeRandomSoup(4);
  Octree o;
  ASSERT_TRUE(o.build(tris).ok);
  expectValid(o);
  std::vector<uint32_t> order(o.triangleOrder().begin(), o.triangleOrder().end());
  std::sort(order.begin(), order.end());
  std::vector<uint32_t> expect(tris.size());
  std::iota(expect.begin(), expect.end(), 0u);
  EXPECT_EQ(order, expect);
  EXPECT_EQ(o.subtreeRange(0).count, tris.size());
  // Slots hold the original triangles.
  for (uint32_t s = 0; s < o.triangleCount(); ++s) {
    const Triangle a = o.triangle(s);
    const Triangle& b = tris[o.triangleOrder()[s]];
    ASSERT_TRUE(a.v0 == b.v0 && a.v1 == b.v1 && a.v2 == b.v2);
  }
  // Children's subtree ranges tile the parent's range after its own triangles.
  for (uint32_t n = 0; n < o.nodeCount(); ++n) {
    uint32_t next = o.ownRange(n).first + o.ownRange(n).count;
    for (uint32_t c = o.firstChild(n); c != kOctreeInvalidIndex; c = o.nextSibling(n, c)) {
      EXPECT_EQ(o.subtreeRange(c).first, next);
      next += o.subtreeRange(c).count;
    }
    EXPECT_EQ(next, o.subtreeRange(n).first + o.subtreeRange(n).count);
  }
}

TEST(OctreeBuild, RebuildMatchesBuild) {
  const std::vector<Triangle> tris = makeRandomSoup(6);
  Octree a, b;
  ASSERT_TRUE(a.build(tris).ok);
  OctreeBuildParams p;
  p.trianglesPerLeaf = 3;
  p.maxLevel = 9;
  ASSERT_TRUE(a.rebuild(p).ok);
  ASSERT_TRUE(b.build(tris, {}, p).ok);
  expectValid(a);
  ASSERT_EQ(a.nodeCount(), b.nodeCount());
  EXPECT_TRUE(
      std::equal(a.triangleOrder().begin(), a.triangleOrder().end(), b.triangleOrder().begin()));
  for (uint32_t n = 0; n < a.nodeCount(); ++n) {
    EXPECT_EQ(a.nodeLinks()[n].firstTriangle, b.nodeLinks()[n].firstTriangle);
    EXPECT_EQ(a.nodeLinks()[n].ownEnd, b.nodeLinks()[n].ownEnd);
    EXPECT_EQ(a.nodeLinks()[n].firstChild, b.nodeLinks()[n].firstChild);
    EXPECT_EQ(a.nodeLinks()[n].childCount, b.nodeLinks()[n].childCount);
    EXPECT_EQ(a.nodeBounds(n).min, b.nodeBounds(n).min);
    EXPECT_EQ(a.nodeBounds(n).max, b.nodeBounds(n).max);
  }
}

TEST(OctreeBuild, ScaledLevelGivesTheSameAnswers) {
  // Power-of-two scales are exact in float: answers must be bit-identical (scaled). 1000 and
  // 0.001 round differently, so answers must agree up to rounding: same hit flags and triangles
  // except a tiny grazing share, and distances to 1e-4 relative.
  const std::vector<Triangle> base = makeRandomSoup(13);
  Octree ob;
  ASSERT_TRUE(ob.build(base).ok);
  for (float scale : {1024.0f, 1.0f / 1024.0f, 1000.0f, 0.001f}) {
    std::vector<Triangle> tris = base;
    for (Triangle& t : tris) {
      t.v0 *= scale;
      t.v1 *= scale;
      t.v2 *= scale;
    }
    Octree os;
    ASSERT_TRUE(os.build(tris).ok);
    expectValid(os);
    const bool exact = scale == 1024.0f || scale == 1.0f / 1024.0f;
    std::mt19937 rng(5);
    test::QueryPlacer place(base, test::boundsOf(base), 77);
    uint32_t queries = 0, differ = 0;
    for (int i = 0; i < 1000; ++i) {
      const glm::vec3 p = place.nearSurface(1.0f);
      const glm::vec3 d = place.unitVector();
      const float r = place.uniform(0.1f, 0.8f);
      RayHit h0, h1;
      const bool a0 = ob.raycast(p, d, 20.0f, kOctreeAllLayers, h0);
      const bool a1 = os.raycast(p * scale, d, 20.0f * scale, kOctreeAllLayers, h1);
      ++queries;
      if (a0 != a1 || (a0 && (h0.triangle != h1.triangle ||
                              std::fabs(h0.t * scale - h1.t) > 1e-4f * 20.0f * scale))) {
        ++differ;
        if (exact) ADD_FAILURE() << "ray " << i;
      } else if (exact && a0) {
        EXPECT_EQ(h0.t * scale, h1.t);
      }
      const uint32_t n0 = ob.collectSphere(p, r, kOctreeAllLayers, {});
      const uint32_t n1 = os.collectSphere(p * scale, r * scale, kOctreeAllLayers, {});
      ++queries;
      if (n0 != n1) {
        ++differ;
        if (exact) ADD_FAILURE() << "sphere " << i;
      }
      PushOut q0, q1;
      ob.capsuleIntersect(p, p + d * r, r, kOctreeAllLayers, q0);
      os.capsuleIntersect(p * scale, (p + d * r) * scale, r * scale, kOctreeAllLayers, q1);
      ++queries;
      if (std::fabs(q0.depth * scale - q1.depth) > 1e-3f * r * scale) {
        ++differ;
        if (exact) ADD_FAILURE() << "capsule push-out " << i;
      }
      SweepHit s0, s1;
      const bool w0 = ob.sweepSphere(p, r, d * 3.0f, kOctreeAllLayers, s0);
      const bool w1 = os.sweepSphere(p * scale, r * scale, d * 3.0f * scale, kOctreeAllLayers, s1);
      ++queries;
      if (w0 != w1 || (w0 && std::fabs(s0.toi - s1.toi) > 1e-4f)) {
        ++differ;
        if (exact) ADD_FAILURE() << "sweep " << i;
      }
    }
    EXPECT_LE(differ * 500, queries) << "scale " << scale << ": " << differ << " of " << queries;
  }
}

TEST(OctreeBuild, PushOutDoesNotDependOnVisitOrder) {
  // Different trees (different traversal orders) and a shuffled input give the same push-out.
  const std::vector<Triangle> tris = makeRandomSoup(31);
  std::vector<uint32_t> perm(tris.size());
  std::iota(perm.begin(), perm.end(), 0u);
  std::mt19937 rng(1);
  std::shuffle(perm.begin(), perm.end(), rng);
  std::vector<Triangle> shuffled(tris.size());
  for (size_t i = 0; i < tris.size(); ++i) shuffled[i] = tris[perm[i]];
  Octree a, b, c;
  ASSERT_TRUE(a.build(tris).ok);
  ASSERT_TRUE(b.build(tris, {}, OctreeBuildParams{1, 24, false}).ok);
  ASSERT_TRUE(c.build(shuffled, {}, OctreeBuildParams{3, 5, false}).ok);
  test::QueryPlacer place(tris, test::boundsOf(tris), 3);
  uint32_t pushed = 0;
  for (int i = 0; i < 2000; ++i) {
    const glm::vec3 p = place.nearSurface(0.5f);
    const float r = place.uniform(0.2f, 1.0f);
    PushOut pa, pb, pc;
    a.sphereIntersect(p, r, kOctreeAllLayers, pa);
    b.sphereIntersect(p, r, kOctreeAllLayers, pb);
    c.sphereIntersect(p, r, kOctreeAllLayers, pc);
    EXPECT_EQ(pa.depth, pb.depth);
    EXPECT_EQ(pa.normal, pb.normal);
    EXPECT_NEAR(pa.depth, pc.depth, 1e-5f);
    EXPECT_NEAR(pa.normal.x, pc.normal.x, 1e-4f);
    EXPECT_NEAR(pa.normal.y, pc.normal.y, 1e-4f);
    EXPECT_NEAR(pa.normal.z, pc.normal.z, 1e-4f);
    pushed += pa.depth > 0.0f;
    // The pushed sphere no longer penetrates (touching allowed within the tolerance).
    if (pa.resolved && pa.depth > 0.0f) {
      PushOut again;
      a.sphereIntersect(p + pa.normal * pa.depth, r, kOctreeAllLayers, again);
      EXPECT_LE(again.depth, 1e-4f) << i;
    }
  }
  EXPECT_GT(pushed, 200u);
}

TEST(OctreeBuild, QueriesAreReentrant) {
  // Results are values the caller owns: two threads querying at once get the serial answers.
  if (!platform::threadsAvailable()) GTEST_SKIP() << "no threads in this build (WebAssembly)";
  const std::vector<Triangle> tris = makeRandomSoup(41);
  Octree o;
  ASSERT_TRUE(o.build(tris).ok);
  test::QueryPlacer place(tris, test::boundsOf(tris), 9);
  std::vector<glm::vec3> pts(2000);
  for (glm::vec3& p : pts) p = place.nearSurface(1.0f);
  auto run = [&](std::vector<float>& out) {
    out.clear();
    for (const glm::vec3& p : pts) {
      PushOut po;
      o.sphereIntersect(p, 0.6f, kOctreeAllLayers, po);
      PointHit ph;
      out.push_back(po.depth +
                    (o.closestPoint(p, 2.0f, kOctreeAllLayers, ph) ? ph.distance : -1.0f));
    }
  };
  std::vector<float> serial, t1, t2;
  run(serial);
  std::thread a([&] { run(t1); });
  std::thread b([&] { run(t2); });
  a.join();
  b.join();
  EXPECT_EQ(serial, t1);
  EXPECT_EQ(serial, t2);
}

TEST(OctreeBuild, StatsCountWork) {
  const std::vector<Triangle> tris = makeRandomSoup(2);
  Octree o;
  ASSERT_TRUE(o.build(tris).ok);
  QueryStats st;
  o.collectSphere({0, 0, 0}, 1.0f, kOctreeAllLayers, {}, &st);
  EXPECT_GT(st.nodesVisited, 0u);
  EXPECT_LT(st.trianglesTested, tris.size());
  const QueryStats before = st;
  o.collectSphere({0, 0, 0}, 1.0f, kOctreeAllLayers, {}, &st);
  EXPECT_EQ(st.nodesVisited, 2 * before.nodesVisited) << "stats are added to, not reset";
  QueryStats none;
  o.collectSphere({0, 0, 0}, 1.0f, 0u, {}, &none);
  EXPECT_EQ(none.trianglesTested, 0u);
}

}  // namespace
}  // namespace ofps
