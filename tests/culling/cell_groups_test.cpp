// CellGroups (culling/cell_groups.h) kept through the hash grid's cell events: every cell in the
// group its coordinates give, entries equal to the grid's cells, occupied-subtree counts equal to
// a recount, through churn, batch moves, clears, rebuilds, larger objects and either side dying
// first. The reference in each test is a rule on the cell coordinates written apart from the map.
#include "octree_fps/culling/cell_groups.h"

#include <gtest/gtest.h>

#include <memory>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "octree_fps/spatial/hash_grid.h"
#include "support/grid_churn.h"

namespace ofps::test {
namespace {

// Groups: 0 root, 1..4 its children, 5 outside (a root of its own). Blocks of 4 cells on x and z
// over [-8, 8), y in [-2, 2): block (bx, bz) belongs to group 1 + (bx + 2 bz) % 4.
constexpr uint32_t kOutside = 5;
const uint32_t kParents[] = {kCellNoGroup, 0, 0, 0, 0, kCellNoGroup};

CellGroupMap testMap() {
  CellGroupMap m;
  m.lo[0] = -8;
  m.lo[1] = -2;
  m.lo[2] = -8;
  m.dims[0] = 4;
  m.dims[1] = 1;
  m.dims[2] = 4;
  m.shift = 2;
  m.groups.resize(16);
  for (int32_t bz = 0; bz < 4; ++bz)
    for (int32_t bx = 0; bx < 4; ++bx) m.groups[bx + 4 * bz] = 1 + (bx + 2 * bz) % 4;
  m.outside = kOutside;
  return m;
}

uint32_t wantGroup(const GridCell& c) {
  if (c.x < -8 || c.x >= 8 || c.z < -8 || c.z >= 8 || c.y < -2 || c.y >= 2) return kOutside;
  const int32_t bx = (c.x + 8) / 4, bz = (c.z + 8) / 4;
  return static_cast<uint32_t>(1 + (bx + 2 * bz) % 4);
}

// Every cell in its rule's group, and the occupied subtrees recounted from the cells.
void expectRule(const HashGrid& g, const CellGroups& groups, const std::string& where) {
  std::string error;
  ASSERT_TRUE(groups.validate(&error)) << where << ": " << error;
  bool under0 = false;
  bool direct[6] = {false, false, false, false, false, false};
  for (uint32_t c = 0; c < g.occupiedCells(); ++c) {
    const uint32_t w = wantGroup(g.cells()[c]);
    ASSERT_EQ(groups.cellGroup(c), w) << where << " cell " << c;
    under0 = under0 || w != kOutside;
    direct[w] = true;
  }
  EXPECT_EQ(groups.subtreeOccupied(0), under0) << where;
  for (uint32_t k = 1; k < 6; ++k) EXPECT_EQ(groups.subtreeOccupied(k), direct[k]) << where;
  // Each group's entries name its cells' objects, as the grid holds them.
  for (uint32_t k = 0; k < groups.groupCount(); ++k) {
    for (const CellGroupEntry& e : groups.groupCells(k)) {
      const GridCell& cell = g.cells()[e.cell];
      for (uint32_t i = 0; i < e.count; ++i) {
        ASSERT_EQ(groups.entryObject(e, i), g.cellObject(cell, i)) << where;
      }
    }
  }
}

// Churn: moves (within and across cells, in and out of the map's box), removals, re-inserts.
TEST(CellGroups, NewCellsJoinTheirGroupAtOnceThroughChurn) {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  HashGrid g(1.0f);
  std::vector<glm::vec3> pos(2000);
  for (uint32_t i = 0; i < pos.size(); ++i) {
    pos[i] = glm::vec3(u(rng) * 10.0f, u(rng) * 3.0f, u(rng) * 10.0f);
    g.insertSphere(i, pos[i], 0.2f);
  }
  CellGroups groups;
  ASSERT_TRUE(groups.assign(g, kParents, 0.5f, testMap()));
  EXPECT_TRUE(groups.active());
  EXPECT_EQ(g.cellListener(), &groups);
  expectRule(g, groups, "after assign");
  uint32_t outsideSeen = 0, insideSeen = 0;
  for (int round = 0; round < 30; ++round) {
    for (uint32_t i = 0; i < pos.size(); ++i) {
      if (i % 7 == static_cast<uint32_t>(round % 7)) {
        g.remove(i);
        g.insertSphere(i, pos[i], 0.2f);
      } else if (i % 13 == 0) {
        // A change of shape (sphere to box) rewrites the cell's first pool entry.
        pos[i] += glm::vec3(u(rng), 0.0f, u(rng)) * 0.2f;
        g.moveBox(i, pos[i], glm::vec3(0.1f, 0.2f, 0.1f));
      } else {
        pos[i] += glm::vec3(u(rng), u(rng) * 0.3f, u(rng)) * 0.6f;
        g.move(i, pos[i]);
      }
    }
    expectRule(g, groups, "round " + std::to_string(round));
    for (uint32_t c = 0; c < g.occupiedCells(); ++c) {
      (wantGroup(g.cells()[c]) == kOutside ? outsideSeen : insideSeen) += 1;
    }
  }
  // The sample meant something: cells on both sides of the map's box.
  EXPECT_GT(outsideSeen, 1000u);
  EXPECT_GT(insideSeen, 1000u);
}

// moveCenters (staged prefetches through the listener) against move() one id at a time: the
// same groups after every frame.
TEST(CellGroups, MoveCentersKeepsTheGroupsOfMovesOneByOne) {
  test::GridChurn churn(41);
  HashGrid& one = churn.one;
  HashGrid& batch = churn.batch;
  const std::vector<glm::vec3>& pos = churn.pos;
  const uint32_t n = test::GridChurn::kCount;
  CellGroups oneGroups, batchGroups;
  ASSERT_TRUE(oneGroups.assign(one, kParents, 0.5f, testMap()));
  ASSERT_TRUE(batchGroups.assign(batch, kParents, 0.5f, testMap()));
  uint64_t changes = 0;
  for (int frame = 0; frame < 30; ++frame) {
    churn.nextFrame(frame);
    for (uint32_t i = 0; i < n; ++i) {
      if (one.contains(i)) one.move(i, pos[i]);
    }
    changes += batch.moveCenters(pos);
    const std::string where = "frame " + std::to_string(frame);
    expectRule(batch, batchGroups, where);
    ASSERT_EQ(batch.occupiedCells(), one.occupiedCells()) << where;
    for (uint32_t c = 0; c < one.occupiedCells(); ++c) {
      ASSERT_EQ(oneGroups.cellGroup(c), batchGroups.cellGroup(c)) << where << " cell " << c;
    }
  }
  EXPECT_GT(changes, 20000u);
}

// The assignment holds for one cell size and extent: a larger object, a new cell size or a grid
// assigned over drop it; clear keeps it; a bad map is refused.
TEST(CellGroups, DroppedWhenTheGridOutgrowsThem) {
  HashGrid g(1.0f);
  for (uint32_t i = 0; i < 100; ++i) {
    g.insertSphere(i, glm::vec3(static_cast<float>(i % 20) - 10.0f, 0.0f, 0.5f), 0.2f);
  }
  CellGroups groups;
  // A map refused: an entry out of range, a wrong size, an extent below the grid's.
  CellGroupMap bad = testMap();
  bad.groups[3] = 99;
  EXPECT_FALSE(groups.assign(g, kParents, 0.5f, bad));
  EXPECT_FALSE(groups.active());
  bad = testMap();
  bad.groups.pop_back();
  EXPECT_FALSE(groups.assign(g, kParents, 0.5f, bad));
  EXPECT_FALSE(groups.assign(g, kParents, 0.1f, testMap()));
  EXPECT_FALSE(groups.active());

  ASSERT_TRUE(groups.assign(g, kParents, 0.25f, testMap()));
  expectRule(g, groups, "assigned");
  // clear: no cells, same map; new cells join at once.
  g.clear();
  EXPECT_TRUE(groups.active());
  g.insertSphere(3, glm::vec3(1.5f, 0.0f, 1.5f), 0.2f);
  g.insertSphere(4, glm::vec3(100.0f, 0.0f, 0.0f), 0.2f);
  expectRule(g, groups, "after clear");
  // A larger object than the extent: dropped.
  g.insertSphere(500, glm::vec3(0.0f), 0.3f);
  EXPECT_FALSE(groups.active());
  EXPECT_EQ(groups.cellGroup(0), kCellNoGroup);
  g.move(3, glm::vec3(-5.5f, 0.0f, 0.5f));  // events while dropped: nothing kept, no harm
  std::string error;
  EXPECT_TRUE(groups.validate(&error)) << error;
  // A new cell size: dropped.
  ASSERT_TRUE(groups.assign(g, kParents, 0.5f, testMap()));
  g.setCellSize(2.0f);
  EXPECT_FALSE(groups.active());
  // Assigned over: dropped; a copy of the grid has no listener.
  ASSERT_TRUE(groups.assign(g, kParents, 0.5f, testMap()));
  HashGrid copy = g;
  EXPECT_EQ(copy.cellListener(), nullptr);
  EXPECT_TRUE(groups.active());
  g = copy;
  EXPECT_FALSE(groups.active());
  EXPECT_EQ(g.cellListener(), &groups);  // still listening: a new assign works at once
  ASSERT_TRUE(groups.assign(g, kParents, 0.5f, testMap()));
  EXPECT_TRUE(g.validate(&error)) << error;
}

// Either side may die first (ASan in CI sees a use after free if not).
TEST(CellGroups, GridOrGroupsMayBeDestroyedFirst) {
  {
    auto g = std::make_unique<HashGrid>(1.0f);
    g->insertSphere(0, glm::vec3(0.5f), 0.2f);
    CellGroups groups;
    ASSERT_TRUE(groups.assign(*g, kParents, 0.5f, testMap()));
    g.reset();
    EXPECT_FALSE(groups.active());
    EXPECT_EQ(groups.grid(), nullptr);
  }
  {
    HashGrid g(1.0f);
    g.insertSphere(0, glm::vec3(0.5f), 0.2f);
    {
      CellGroups groups;
      ASSERT_TRUE(groups.assign(g, kParents, 0.5f, testMap()));
    }
    EXPECT_EQ(g.cellListener(), nullptr);
    g.move(0, glm::vec3(3.5f));  // no listener left to call
    EXPECT_EQ(g.occupiedCells(), 1u);
  }
}

}  // namespace
}  // namespace ofps::test
