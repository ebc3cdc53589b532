// HashGrid against brute force: radius, box, k-nearest and frustum queries on random clouds
// (uniform, heavily clustered, negative, far from the origin, beyond the packed coordinate
// range), with random moves, removes and inserts between query rounds. Every round ends with
// validate(). Meaningfulness: the share of queries with a non-empty answer must lie in a band.

#include "octree_fps/spatial/hash_grid.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "octree_fps/culling/frustum.h"
#include "octree_fps/culling/grid_cull.h"
#include "support/grid_churn.h"

namespace ofps::test {
namespace {

struct Body {
  glm::vec3 center{0.0f};
  glm::vec3 half{0.0f};
  bool sphere = true;
  bool live = false;
};

GridObject asObject(const Body& b) {
  GridObject o;
  o.center = b.center;
  o.halfExtents = b.half;
  o.radius = std::max(b.half.x, std::max(b.half.y, b.half.z));
  o.isSphere = b.sphere ? 1u : 0u;
  return o;
}

// The same closed predicates as the header states, written out for the oracle.
bool bruteRadius(const Body& b, const glm::vec3& p, float r) {
  if (b.sphere) {
    const glm::vec3 d = b.center - p;
    const float rr = r + b.half.x;
    return d.x * d.x + d.y * d.y + d.z * d.z <= rr * rr;
  }
  return distanceSquared(Aabb::fromCenterHalfExtents(b.center, b.half), p) <= r * r;
}
bool bruteBox(const Body& b, const Aabb& box) {
  if (b.sphere) return distanceSquared(box, b.center) <= b.half.x * b.half.x;
  return Aabb::fromCenterHalfExtents(b.center, b.half).overlaps(box);
}

enum class Cloud { Uniform, Clustered };

struct Scenario {
  Cloud cloud = Cloud::Uniform;
  glm::vec3 offset{0.0f};  // added to every position
  float extent = 50.0f;    // positions in offset + [-extent, extent]^3
  float cellSize = 2.0f;
  float maxHalf = 0.5f;  // object sizes in [0, maxHalf]
  uint32_t count = 3000;
  uint32_t seed = 1;
};

// Boxes up to twice the cells (SmallCellsLargeBoxes below says why this scenario matters).
Scenario smallCellsLargeBoxes(uint32_t seed) {
  Scenario s;
  s.cellSize = 0.5f;
  s.maxHalf = 1.0f;
  s.extent = 8.0f;
  s.count = 2000;
  s.seed = seed;
  return s;
}

class Cloudy {
 public:
  explicit Cloudy(const Scenario& s) : s_(s), rng_(s.seed), grid_(s.cellSize) {
    clusterCenter_ =
        s.offset + glm::vec3(u(-0.5f, 0.5f), u(-0.5f, 0.5f), u(-0.5f, 0.5f)) * s.extent;
  }
  float u(float a, float b) { return std::uniform_real_distribution<float>(a, b)(rng_); }
  glm::vec3 position() {
    // Clustered: 80 % inside a cube of 1 % of the volume (edge 0.215 x the whole edge).
    if (s_.cloud == Cloud::Clustered && u(0.0f, 1.0f) < 0.8f) {
      const float e = 0.215f * s_.extent;
      return clusterCenter_ + glm::vec3(u(-e, e), u(-e, e), u(-e, e)) * 0.5f;
    }
    return s_.offset + glm::vec3(u(-1, 1), u(-1, 1), u(-1, 1)) * s_.extent;
  }
  void add(uint32_t id) {
    Body b;
    b.center = position();
    b.sphere = u(0, 1) < 0.6f;
    const float r = u(0.0f, s_.maxHalf);
    b.half =
        b.sphere ? glm::vec3(r) : glm::vec3(u(0, s_.maxHalf), u(0, s_.maxHalf), u(0, s_.maxHalf));
    b.live = true;
    if (id >= bodies_.size()) bodies_.resize(id + 1);
    bodies_[id] = b;
    if (b.sphere) {
      grid_.insertSphere(id, b.center, b.half.x);
    } else {
      grid_.insertBox(id, b.center, b.half);
    }
  }
  void fill() {
    for (uint32_t i = 0; i < s_.count; ++i) add(i);
  }
  // Moves 30 % (small steps, long jumps, shape flips), removes 2 %, re-adds removed ones.
  void churn() {
    for (uint32_t id = 0; id < bodies_.size(); ++id) {
      Body& b = bodies_[id];
      const float x = u(0, 1);
      if (!b.live) {
        if (x < 0.5f) add(id);
        continue;
      }
      if (x < 0.02f) {
        grid_.remove(id);
        b.live = false;
      } else if (x < 0.22f) {
        b.center += glm::vec3(u(-1, 1), u(-1, 1), u(-1, 1)) * s_.cellSize * 0.7f;
        grid_.move(id, b.center);
      } else if (x < 0.32f) {
        // 0.22-0.24: the shape flips in place (sphere <-> box, its cell kept); 0.24-0.26: it
        // flips and jumps (the box bit must follow the object to its new cell); then jumps.
        const bool flip = x < 0.26f;
        if (x >= 0.24f) b.center = position();
        if (flip) {
          b.sphere = !b.sphere;
          b.half = b.sphere ? glm::vec3(b.half.x) : glm::vec3(b.half.x, 0.5f * b.half.x, b.half.x);
        }
        if (b.sphere) {
          grid_.moveSphere(id, b.center, b.half.x);
        } else {
          grid_.moveBox(id, b.center, b.half);
        }
      }
    }
  }
  glm::vec3 queryPoint() {
    // Half the queries near an object, half anywhere in the cloud.
    if (u(0, 1) < 0.5f) {
      for (int tries = 0; tries < 8; ++tries) {
        const uint32_t id = static_cast<uint32_t>(u(0, 1) * static_cast<float>(bodies_.size())) %
                            static_cast<uint32_t>(bodies_.size());
        if (bodies_[id].live) return bodies_[id].center + glm::vec3(u(-1, 1), u(-1, 1), u(-1, 1));
      }
    }
    return position();
  }

  void checkRound(uint32_t queries, uint32_t& nonEmpty, uint32_t& total, GridQueryStats& st) {
    std::string err;
    ASSERT_TRUE(grid_.validate(&err)) << err;
    uint32_t live = 0;
    for (const Body& b : bodies_) live += b.live ? 1u : 0u;
    ASSERT_EQ(grid_.objectCount(), live);
    std::vector<uint32_t> got, want;
    std::vector<GridNeighbor> knn(8);
    std::vector<std::pair<float, uint32_t>> all;
    for (uint32_t q = 0; q < queries; ++q) {
      const glm::vec3 p = queryPoint();
      const float r = u(0.0f, 2.0f * s_.cellSize);
      // Radius.
      got.clear();
      want.clear();
      grid_.queryRadius(
          p, r, [&](uint32_t id) { got.push_back(id); }, &st);
      for (uint32_t id = 0; id < bodies_.size(); ++id) {
        if (bodies_[id].live && bruteRadius(bodies_[id], p, r)) want.push_back(id);
      }
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, want) << "radius query at " << p.x << "," << p.y << "," << p.z << " r " << r;
      nonEmpty += want.empty() ? 0u : 1u;
      ++total;
      // Box.
      const glm::vec3 h(u(0, s_.cellSize * 1.5f), u(0, s_.cellSize * 1.5f),
                        u(0, s_.cellSize * 1.5f));
      const Aabb box = Aabb::fromCenterHalfExtents(p, h);
      got.clear();
      want.clear();
      grid_.queryAabb(box, [&](uint32_t id) { got.push_back(id); });
      for (uint32_t id = 0; id < bodies_.size(); ++id) {
        if (bodies_[id].live && bruteBox(bodies_[id], box)) want.push_back(id);
      }
      std::sort(got.begin(), got.end());
      ASSERT_EQ(got, want) << "box query";
      // k nearest (k = 1..8).
      const uint32_t k = 1 + q % 8;
      const uint32_t n = grid_.kNearest(p, std::span<GridNeighbor>(knn.data(), k));
      all.clear();
      for (uint32_t id = 0; id < bodies_.size(); ++id) {
        if (bodies_[id].live) all.push_back({gridObjectDistance(asObject(bodies_[id]), p), id});
      }
      std::sort(all.begin(), all.end());
      ASSERT_EQ(n, std::min<size_t>(k, all.size()));
      for (uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(knn[i].id, all[i].second) << "k-nearest rank " << i << " of " << k;
        ASSERT_EQ(knn[i].distance, all[i].first);
      }
    }
  }
  HashGrid& grid() { return grid_; }
  const std::vector<Body>& bodies() const { return bodies_; }

 private:
  Scenario s_;
  std::mt19937 rng_;
  HashGrid grid_;
  glm::vec3 clusterCenter_{0.0f};
  std::vector<Body> bodies_;
};

void runScenario(const Scenario& s, float minNonEmpty, float maxNonEmpty) {
  Cloudy c(s);
  c.fill();
  uint32_t nonEmpty = 0, total = 0;
  GridQueryStats st;
  for (int round = 0; round < 4; ++round) {
    c.checkRound(60, nonEmpty, total, st);
    if (::testing::Test::HasFatalFailure()) return;
    c.churn();
  }
  const float share = static_cast<float>(nonEmpty) / static_cast<float>(total);
  EXPECT_GE(share, minNonEmpty) << "too few queries hit anything: the test is not meaningful";
  EXPECT_LE(share, maxNonEmpty) << "almost every query hits: the test is not meaningful";
  EXPECT_GT(st.hits, 0u);
  EXPECT_LT(st.candidates, st.bruteForceChecks) << "the grid tested as much as brute force";
}

TEST(GridOracle, UniformCloud) {
  runScenario({}, 0.3f, 0.95f);
}

TEST(GridOracle, ClusteredCloud) {
  Scenario s;
  s.cloud = Cloud::Clustered;
  s.seed = 2;
  runScenario(s, 0.3f, 0.98f);
}

TEST(GridOracle, NegativeAndFarFromOrigin) {
  Scenario s;
  s.offset = glm::vec3(-3.0e4f, 1.5e4f, -7.0e4f);
  s.seed = 3;
  runScenario(s, 0.3f, 0.95f);
}

TEST(GridOracle, ClusteredFarNegative) {
  Scenario s;
  s.cloud = Cloud::Clustered;
  s.offset = glm::vec3(-2.0e5f, -1.0e5f, 0.5e5f);
  s.cellSize = 4.0f;
  s.extent = 200.0f;
  s.seed = 4;
  runScenario(s, 0.1f, 0.98f);
}

// Coordinates beyond the packed range (+-1M cells at 0.5 m cells = +-524 km): objects share
// border cells; answers must stay exact.
TEST(GridOracle, BeyondTheCoordinateRange) {
  Scenario s;
  s.offset = glm::vec3(6.0e5f, -6.0e5f, 100.0f);
  s.cellSize = 0.5f;
  s.extent = 400.0f;
  s.count = 1500;
  s.maxHalf = 0.5f;
  s.seed = 5;
  Cloudy c(s);
  c.fill();
  uint32_t nonEmpty = 0, total = 0;
  GridQueryStats st;
  c.checkRound(40, nonEmpty, total, st);
  EXPECT_GT(nonEmpty, 5u);
  // Everything is clamped to a few border cells.
  EXPECT_LE(c.grid().occupiedCells(), 1500u);
}

TEST(GridOracle, CellSizeChangeKeepsAnswers) {
  Scenario s;
  s.seed = 6;
  s.count = 1500;
  Cloudy c(s);
  c.fill();
  for (float cs : {0.25f, 1.0f, 7.0f, 40.0f}) {
    c.grid().setCellSize(cs);
    uint32_t nonEmpty = 0, total = 0;
    GridQueryStats st;
    c.checkRound(20, nonEmpty, total, st);
    if (HasFatalFailure()) return;
  }
}

// Boxes up to twice the cells: a box's corner reaches maxExtent beyond its cell on every axis at
// once (farther than a sphere of that radius would), so a query that skips cells by distance must
// grow them by maxExtent per axis. (Growing them by a sphere of radius maxExtent fails here.)
TEST(GridOracle, SmallCellsLargeBoxes) {
  Cloudy c(smallCellsLargeBoxes(12));
  c.fill();
  uint32_t nonEmpty = 0, total = 0;
  GridQueryStats st;
  for (int round = 0; round < 6; ++round) {
    c.checkRound(150, nonEmpty, total, st);
    if (HasFatalFailure()) return;
    c.churn();
  }
  EXPECT_GT(nonEmpty, total / 2);
}

// The query cache (refreshQueryCache) changes no answer: rounds with a fresh cache, and rounds
// after churn that made it stale, on uniform, clustered and large-box clouds.
TEST(GridOracle, QueryCacheKeepsAnswers) {
  for (int kind = 0; kind < 3; ++kind) {
    const uint32_t seed = 20 + static_cast<uint32_t>(kind);
    Scenario s = kind == 2 ? smallCellsLargeBoxes(seed) : Scenario{};
    s.seed = seed;
    if (kind == 1) s.cloud = Cloud::Clustered;
    Cloudy c(s);
    c.fill();
    uint32_t nonEmpty = 0, total = 0;
    GridQueryStats st;
    for (int round = 0; round < 4; ++round) {
      c.grid().refreshQueryCache();
      ASSERT_TRUE(c.grid().queryCacheFresh());
      c.checkRound(80, nonEmpty, total, st);
      if (HasFatalFailure()) return;
      c.churn();
      ASSERT_FALSE(c.grid().queryCacheFresh()) << "moves must make the cache stale";
      c.checkRound(40, nonEmpty, total, st);
      if (HasFatalFailure()) return;
    }
    EXPECT_GT(nonEmpty, total / 4);
  }
  // A move that stays in its cell also makes the cache stale.
  HashGrid g(1.0f);
  g.insertSphere(0, glm::vec3(0.5f), 0.1f);
  g.refreshQueryCache();
  EXPECT_FALSE(g.move(0, glm::vec3(0.6f, 0.5f, 0.5f)));
  EXPECT_FALSE(g.queryCacheFresh());
  uint32_t out[2];
  EXPECT_EQ(g.collectRadius(glm::vec3(0.8f, 0.5f, 0.5f), 0.15f, out), 1u);
}

// k-nearest with many exact ties: point objects on an integer lattice, queries on lattice points
// and half-way points; the order must be (distance, id) exactly.
TEST(GridKNearest, TiesOnALattice) {
  HashGrid grid(1.0f);
  std::vector<glm::vec3> pts;
  // Ids in a scrambled order so that id order differs from insertion and cell order.
  std::vector<uint32_t> ids;
  for (int x = -4; x <= 4; ++x) {
    for (int y = -4; y <= 4; ++y) {
      for (int z = -4; z <= 4; ++z) pts.push_back(glm::vec3(x, y, z) * 2.0f);
    }
  }
  for (uint32_t i = 0; i < pts.size(); ++i)
    ids.push_back((i * 7919u) % static_cast<uint32_t>(pts.size()));
  for (uint32_t i = 0; i < pts.size(); ++i) grid.insertSphere(ids[i], pts[i], 0.0f);
  std::vector<GridNeighbor> out(27);
  for (const glm::vec3 q :
       {glm::vec3(0.0f), glm::vec3(1.0f, 0.0f, 0.0f), glm::vec3(1.0f), glm::vec3(8.0f, 8.0f, 8.0f),
        glm::vec3(-9.0f, 1.0f, 0.0f), glm::vec3(30.0f, 0.0f, 0.0f)}) {
    for (uint32_t k : {1u, 2u, 6u, 7u, 19u, 27u}) {
      const uint32_t n = grid.kNearest(q, std::span<GridNeighbor>(out.data(), k));
      std::vector<std::pair<float, uint32_t>> all;
      for (uint32_t i = 0; i < pts.size(); ++i) {
        all.push_back({gridObjectDistance(grid.object(ids[i]), q), ids[i]});
      }
      std::sort(all.begin(), all.end());
      ASSERT_EQ(n, k);
      for (uint32_t i = 0; i < k; ++i) {
        EXPECT_EQ(out[i].id, all[i].second)
            << "query " << q.x << "," << q.y << "," << q.z << " k " << k << " rank " << i;
      }
    }
  }
  // Fewer objects than k: all of them.
  HashGrid small(1.0f);
  small.insertSphere(3, glm::vec3(100.0f), 0.0f);
  small.insertSphere(1, glm::vec3(-100.0f), 0.0f);
  const uint32_t n = small.kNearest(glm::vec3(0.0f), out);
  ASSERT_EQ(n, 2u);
  EXPECT_EQ(out[0].id, 1u);  // same distance: lower id first
  EXPECT_EQ(out[1].id, 3u);
}

TEST(GridFrustum, MatchesPerObjectClassification) {
  Scenario s;
  s.seed = 7;
  s.count = 4000;
  Cloudy c(s);
  c.fill();
  const glm::mat4 proj = glm::perspective(glm::radians(70.0f), 16.0f / 9.0f, 0.1f, 60.0f);
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> a(0.0f, 6.2831853f);
  uint32_t visibleTotal = 0;
  for (int i = 0; i < 20; ++i) {
    const glm::vec3 eye(std::uniform_real_distribution<float>(-40, 40)(rng), 0.0f,
                        std::uniform_real_distribution<float>(-40, 40)(rng));
    const float yaw = a(rng);
    const glm::mat4 view =
        glm::lookAt(eye, eye + glm::vec3(std::sin(yaw), 0.2f, std::cos(yaw)), glm::vec3(0, 1, 0));
    const Frustum f = Frustum::fromViewProjection(proj * view);
    std::vector<uint32_t> got(c.grid().objectCount());
    GridQueryStats st;
    const uint32_t n = cullGridFrustum(c.grid(), f, got, &st);
    got.resize(n);
    std::sort(got.begin(), got.end());
    std::vector<uint32_t> want;
    for (uint32_t id = 0; id < c.bodies().size(); ++id) {
      if (!c.bodies()[id].live) continue;
      uint32_t m = kFrustumAllPlanes;
      if (classifyAabb(f, asObject(c.bodies()[id]).bounds(), m) != Containment::Outside) {
        want.push_back(id);
      }
    }
    ASSERT_EQ(got, want);
    EXPECT_EQ(st.hits, n);
    EXPECT_EQ(st.bruteForceChecks, c.grid().objectCount());
    EXPECT_LE(st.candidates, st.bruteForceChecks);
    visibleTotal += n;
  }
  EXPECT_GT(visibleTotal, 20u * 4000u / 100u) << "frustums see almost nothing: not meaningful";
  EXPECT_LT(visibleTotal, 20u * 4000u / 2u);
}

TEST(GridStructure, EarlyOutAndSparseMemory) {
  HashGrid grid(1.0f);
  grid.insertSphere(0, glm::vec3(0.5f), 0.1f);
  EXPECT_FALSE(grid.move(0, glm::vec3(0.9f, 0.1f, 0.5f)));  // same cell
  EXPECT_TRUE(grid.move(0, glm::vec3(1.1f, 0.1f, 0.5f)));   // next cell
  EXPECT_EQ(grid.occupiedCells(), 1u);
  // Far apart objects: one cell each, memory proportional to cells, not to the spanned volume.
  for (uint32_t i = 1; i < 2000; ++i) {
    grid.insertSphere(
        i, glm::vec3(static_cast<float>(i) * 1000.0f, -static_cast<float>(i) * 77.0f, 3.0f), 0.2f);
  }
  EXPECT_EQ(grid.occupiedCells(), 2000u);
  EXPECT_LE(grid.tableCapacity(), 8192u);
  std::string err;
  ASSERT_TRUE(grid.validate(&err)) << err;
  for (uint32_t i = 1; i < 2000; ++i) grid.remove(i);
  ASSERT_TRUE(grid.validate(&err)) << err;
  EXPECT_EQ(grid.occupiedCells(), 1u);
  EXPECT_LE(grid.tableCapacity(), 64u) << "the table did not shrink";
  // Stats of a query: brute force checks every object.
  GridQueryStats st;
  EXPECT_EQ(grid.collectRadius(glm::vec3(1.2f, 0.1f, 0.5f), 0.5f, {}, &st), 1u);
  EXPECT_EQ(st.bruteForceChecks, 1u);
  EXPECT_EQ(st.hits, 1u);
  EXPECT_GE(st.cellsVisited, 1u);
}

// At 10,000 objects with cells about the query radius, the grid's candidates are a small
// fraction of brute force's checks, uniform and clustered.
TEST(GridWork, FarFewerChecksThanBruteForce) {
  for (Cloud cloud : {Cloud::Uniform, Cloud::Clustered}) {
    Scenario s;
    s.cloud = cloud;
    s.count = 10000;
    s.extent = 100.0f;
    s.cellSize = 2.0f;
    s.maxHalf = 0.3f;
    s.seed = 8;
    Cloudy c(s);
    c.fill();
    GridQueryStats st;
    std::vector<uint32_t> buf(64);
    uint64_t hits = 0;
    for (uint32_t i = 0; i < 2000; ++i) {
      const glm::vec3 p = c.bodies()[i * 5].center;
      hits += c.grid().collectRadius(p, 2.0f, buf, &st);
    }
    EXPECT_GT(hits, 2000u);
    EXPECT_LT(st.candidates * 20, st.bruteForceChecks)
        << (cloud == Cloud::Uniform ? "uniform" : "clustered");
  }
}

// moveCenters against move() one id after another: the same cells in the same dense order, the
// same ids in the same link order, after every frame of a churn with removals, re-inserts, cells
// emptied and re-created, a centres span shorter than the ids, and ids past its end. (With a cell
// listener attached: culling/cell_groups_test.cpp.)
TEST(GridBatchMove, MoveCentersEqualsMovesOneByOne) {
  {
    test::GridChurn churn(42);
    HashGrid& one = churn.one;
    HashGrid& batch = churn.batch;
    const std::vector<glm::vec3>& pos = churn.pos;
    const uint32_t n = test::GridChurn::kCount;
    uint64_t changes = 0;
    for (int frame = 0; frame < 40; ++frame) {
      // Some ids leave (and come back a few frames later), as props removed and thrown again.
      churn.nextFrame(frame);
      // Every fifth frame moves only the first half (the span ends before the last ids).
      const size_t count = frame % 5 == 4 ? n / 2 : n;
      uint32_t want = 0;
      for (uint32_t i = 0; i < count; ++i) {
        if (one.contains(i)) want += one.move(i, pos[i]) ? 1u : 0u;
      }
      const uint32_t got = batch.moveCenters(std::span<const glm::vec3>(pos.data(), count));
      ASSERT_EQ(got, want) << "frame " << frame;
      changes += got;
      std::string error;
      ASSERT_TRUE(batch.validate(&error)) << "frame " << frame << ": " << error;
      ASSERT_EQ(batch.occupiedCells(), one.occupiedCells()) << "frame " << frame;
      for (uint32_t c = 0; c < one.occupiedCells(); ++c) {
        const GridCell& a = one.cells()[c];
        const GridCell& b = batch.cells()[c];
        ASSERT_EQ(a.key, b.key) << "frame " << frame << " cell " << c;
        ASSERT_EQ(a.count, b.count) << "frame " << frame << " cell " << c;
        for (uint32_t k = 0; k < a.count; ++k) {
          ASSERT_EQ(one.cellObject(a, k), batch.cellObject(b, k)) << "frame " << frame;
        }
      }
      for (uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(one.contains(i), batch.contains(i));
        if (one.contains(i)) {
          ASSERT_EQ(one.object(i).center, batch.object(i).center);
        }
      }
    }
    // The churn moved many objects across cells (and so emptied and created many cells).
    EXPECT_GT(changes, 20000u);
  }
}

}  // namespace
}  // namespace ofps::test
