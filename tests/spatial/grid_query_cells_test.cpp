// HashGrid::radiusQueryCells against brute force over the occupied cells: the cells a radius
// query tests must include every cell that could hold a hit (the cell's box grown by
// maxExtent() within the radius), only such cells (up to a rounding margin), each once, and
// their objects must be exactly the query's candidates. Random clouds of spheres and boxes,
// including after moves and removals.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "octree_fps/spatial/hash_grid.h"

namespace ofps::test {
namespace {

// Distance from p to the cell's box grown by the grid's largest object extent.
float grownCellDistance(const HashGrid& grid, const GridCell& cell, const glm::vec3& p) {
  Aabb box = grid.cellBounds(cell);
  box.min -= glm::vec3(grid.maxExtent());
  box.max += glm::vec3(grid.maxExtent());
  return std::sqrt(distanceSquared(box, p));
}

struct CloudSetup {
  float cellSize;
  float extent;
  uint32_t count;
  uint32_t seed;
};

class GridQueryCells : public ::testing::TestWithParam<CloudSetup> {};

TEST_P(GridQueryCells, MatchesBruteForceOverOccupiedCells) {
  const CloudSetup setup = GetParam();
  std::mt19937 rng(setup.seed);
  std::uniform_real_distribution<float> pos(-setup.extent, setup.extent);
  std::uniform_real_distribution<float> size(0.05f, 0.5f);
  HashGrid grid(setup.cellSize);
  for (uint32_t id = 0; id < setup.count; ++id) {
    const glm::vec3 c(pos(rng), pos(rng) * 0.3f, pos(rng));
    if (id % 3 == 0) {
      grid.insertBox(id, c, glm::vec3(size(rng), size(rng), size(rng)));
    } else {
      grid.insertSphere(id, c, size(rng));
    }
  }
  // Some objects move and some leave, so cells are created and removed.
  for (uint32_t id = 0; id < setup.count; id += 7) grid.move(id, {pos(rng), 0.0f, pos(rng)});
  for (uint32_t id = 5; id < setup.count; id += 11) grid.remove(id);

  std::uniform_real_distribution<float> radius(0.0f, 3.0f * setup.cellSize);
  std::vector<uint32_t> cells(grid.occupiedCells() + 1);
  uint32_t nonEmpty = 0;
  for (int q = 0; q < 300; ++q) {
    const glm::vec3 p(pos(rng), pos(rng) * 0.3f, pos(rng));
    const float r = q % 10 == 0 ? 4.0f * setup.extent : radius(rng);  // some cover everything
    GridQueryStats cellStats, queryStats;
    const uint32_t n = grid.radiusQueryCells(p, r, cells, &cellStats);
    ASSERT_LE(n, cells.size());
    std::vector<uint32_t> got(cells.begin(), cells.begin() + n);
    std::sort(got.begin(), got.end());
    ASSERT_TRUE(std::adjacent_find(got.begin(), got.end()) == got.end()) << "a cell twice";
    ASSERT_TRUE(got.empty() || got.back() < grid.occupiedCells());
    if (n > 0) ++nonEmpty;

    // Every cell that could hold a hit is tested; no cell beyond reach is.
    const float margin = 1e-3f * (1.0f + r + setup.extent);
    uint64_t objects = 0;
    for (uint32_t i = 0; i < grid.occupiedCells(); ++i) {
      const float d = grownCellDistance(grid, grid.cells()[i], p);
      const bool listed = std::binary_search(got.begin(), got.end(), i);
      if (d < r - margin) {
        ASSERT_TRUE(listed) << "query " << q << " skipped cell " << i << " at " << d;
      }
      if (d > r + margin) {
        ASSERT_FALSE(listed) << "query " << q << " tested cell " << i << " at " << d;
      }
      if (listed) objects += grid.cells()[i].count;
    }
    // The cells' objects are the query's candidates, and its hits lie in those cells.
    grid.queryRadius(
        p, r,
        [&](uint32_t id) {
          int32_t x, y, z;
          grid.cellOf(grid.object(id).center, x, y, z);
          EXPECT_TRUE(std::binary_search(got.begin(), got.end(), grid.findCell(x, y, z)));
        },
        &queryStats);
    EXPECT_EQ(objects, queryStats.candidates);
    EXPECT_EQ(cellStats.candidates, queryStats.candidates);
    EXPECT_EQ(cellStats.cellsVisited, queryStats.cellsVisited);
  }
  // Meaningfulness: most queries reach some cell, and not all reach every cell.
  EXPECT_GT(nonEmpty, 100u);
}

TEST(GridQueryCells, WritesOnlyWhatFitsAndCountsAll) {
  HashGrid grid(1.0f);
  for (uint32_t id = 0; id < 50; ++id) {
    grid.insertSphere(id, {static_cast<float>(id), 0.5f, 0.5f}, 0.1f);
  }
  std::vector<uint32_t> few(3, 12345u);
  const uint32_t total = grid.radiusQueryCells({25.0f, 0.5f, 0.5f}, 4.2f, few);
  // Cell i spans x in [i, i + 1), grown by the radius 0.1 to [i - 0.1, i + 1.1]: within 4.2 of
  // x = 25 for i = 20 (25 - 21.1 = 3.9) up to i = 29 (29 - 0.1 - 25 = 3.9), not 19 or 30 (4.9).
  EXPECT_EQ(total, 10u);
  for (uint32_t c : few) EXPECT_LT(c, grid.occupiedCells());
  EXPECT_EQ(HashGrid(1.0f).radiusQueryCells({0.0f, 0.0f, 0.0f}, 10.0f, few), 0u);
}

INSTANTIATE_TEST_SUITE_P(Clouds, GridQueryCells,
                         ::testing::Values(CloudSetup{1.0f, 10.0f, 800, 1},
                                           CloudSetup{2.0f, 30.0f, 2000, 2},
                                           CloudSetup{0.5f, 4.0f, 1500, 3}));

}  // namespace
}  // namespace ofps::test
