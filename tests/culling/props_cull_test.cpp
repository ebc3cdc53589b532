// Props culled through the level's octree (culling/props_cull.h), against brute force.
//
// Every frame of every scenario compares the one-traversal cull with a loop over every prop
// (classifyAabb on the prop's box, all six planes): the same ids, none missing, none extra. The
// level's ranges from the same traversal must equal cullOctree's. Levels: every shared level
// (copied to a temporary folder first: the shared folder is never written) and the bundled
// arena. Props spread over the level, clustered, moving (and jumping) between frames, larger
// than a cell, and outside the level's bounds (near it, and far beyond the grid's coordinate
// range). The links are validated (OctreeCellLinks::validate: every link) after moves, removals,
// cells emptied and re-created, octree rebuilds with other parameters, and level swaps.
#include "octree_fps/culling/props_cull.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <glm/gtc/matrix_transform.hpp>
#include <random>
#include <string>
#include <vector>

#include "level/level_loader.h"
#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/culling/frame_cull.h"
#include "octree_fps/culling/frustum.h"
#include "octree_fps/props/props_world.h"
#include "octree_fps/spatial/hash_grid.h"
#include "octree_fps/spatial/octree.h"
#include "support/arena_fixture.h"
#include "support/test_paths.h"

namespace ofps {
// Misplaces a cell on purpose (see cell_groups.h).
struct CellGroupsTestAccess {
  static void moveCell(const CellGroups& groups, uint32_t cell, uint32_t group) {
    CellGroups& g = const_cast<CellGroups&>(groups);
    g.detachCell(cell);
    g.attach(cell, group);
  }
};

namespace {

// A temporary folder removed at the end of the test.
class ScratchDir {
 public:
  ScratchDir() {
    std::random_device rd;
    path_ = std::filesystem::temp_directory_path() /
            ("props_cull_test_" + std::to_string(rd()) + "_" + std::to_string(rd()));
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Loads a shared level from a private copy (the demo's frame: Y up, metres).
bool loadSharedLevel(const std::string& relative, Level* out, std::string* why) {
  const std::string src = test::sharedPath("levels/" + relative);
  if (!test::fileExists(src)) {
    *why = src + " not present";
    return false;
  }
  ScratchDir dir;
  const std::filesystem::path copy = dir.path() / std::filesystem::path(relative).filename();
  std::filesystem::copy_file(src, copy);
  LevelLoadOptions o;
  o.rememberSettings = false;
  LevelLoadResult r = loadLevel(copy.string(), o);
  if (!r.ok) {
    *why = r.error;
    return false;
  }
  *out = std::move(*r.level);
  return true;
}

bool buildOctree(const Level& level, const OctreeBuildParams& params, Octree* out) {
  const OctreeBuildReport r =
      out->build(level.collisionPositions, level.collisionIndices, {}, params);
  return r.ok;
}

// A random camera: eye inside the box `where` (or anywhere near it), any yaw, pitch in
// [-80, 80] degrees, vertical fov 30..110 degrees, aspect 1..2.4, far 5 m .. 2 diagonals.
Frustum randomFrustum(std::mt19937& rng, const Aabb& where, float diagonal) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const glm::vec3 eye = where.min + (where.max - where.min) * glm::vec3(u(rng), u(rng), u(rng));
  const float yaw = u(rng) * 6.2831853f;
  const float pitch = (u(rng) - 0.5f) * 2.0f * glm::radians(80.0f);
  const glm::vec3 fwd(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                      std::cos(pitch) * std::cos(yaw));
  const float fov = glm::radians(30.0f + 80.0f * u(rng));
  const float aspect = 1.0f + 1.4f * u(rng);
  const float farPlane = 5.0f + u(rng) * 2.0f * diagonal;
  const glm::mat4 proj = glm::perspective(fov, aspect, 0.05f, farPlane);
  const glm::mat4 view = glm::lookAt(eye, eye + fwd, glm::vec3(0.0f, 1.0f, 0.0f));
  return Frustum::fromViewProjection(proj * view);
}

struct Range {
  uint32_t node, first, count;
  bool whole;
  bool operator==(const Range&) const = default;
};

// Sample statistics over a run (to check the runs were meaningful).
struct Tally {
  uint64_t frames = 0, partial = 0;  // frames with some but not all props visible
  uint64_t cellsTested = 0, cellsOccupied = 0, propsTested = 0, visible = 0, total = 0;
};

// One frame: the one-traversal cull against brute force and against cullOctree's ranges.
void checkFrame(const Octree& octree, const HashGrid& grid, const OctreeCellLinks& links,
                const Frustum& frustum, Tally* tally, const std::string& where) {
  std::vector<uint32_t> got(grid.objectCount() + 1), want(grid.objectCount() + 1);
  std::vector<Range> ranges, refRanges;
  PropsCullStats ps;
  CullStats ls;
  auto collect = [](void* ctx, uint32_t node, uint32_t first, uint32_t count, bool whole) {
    static_cast<std::vector<Range>*>(ctx)->push_back({node, first, count, whole});
  };
  const uint32_t n =
      cullLevelAndProps(octree, frustum, grid, links, collect, &ranges, got, &ls, &ps);
  const uint32_t m = cullPropsBruteForce(frustum, grid, want);
  ASSERT_LE(n, got.size()) << where;
  ASSERT_LE(m, want.size()) << where;
  got.resize(n);
  want.resize(m);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  ASSERT_TRUE(std::adjacent_find(got.begin(), got.end()) == got.end()) << where << ": a prop twice";
  if (got != want) {
    std::vector<uint32_t> missing, extra;
    std::set_difference(want.begin(), want.end(), got.begin(), got.end(),
                        std::back_inserter(missing));
    std::set_difference(got.begin(), got.end(), want.begin(), want.end(),
                        std::back_inserter(extra));
    FAIL() << where << ": " << missing.size() << " visible props missed (first "
           << (missing.empty() ? -1 : static_cast<int64_t>(missing[0])) << "), " << extra.size()
           << " invisible props reported (first "
           << (extra.empty() ? -1 : static_cast<int64_t>(extra[0])) << ")";
  }
  CullStats refStats;
  if (!octree.empty()) cullOctree(octree, frustum, collect, &refRanges, &refStats);
  ASSERT_EQ(ranges, refRanges) << where << ": the level's ranges differ from cullOctree's";
  EXPECT_EQ(ls.nodesVisited, refStats.nodesVisited) << where;
  EXPECT_EQ(ps.visible, n) << where;
  EXPECT_EQ(ps.bruteForceChecks, grid.objectCount()) << where;
  EXPECT_EQ(ps.cellsOccupied, grid.occupiedCells()) << where;
  EXPECT_LE(ps.cellsTested, grid.occupiedCells()) << where;
  EXPECT_LE(ps.propsTested, grid.objectCount()) << where;
  if (tally) {
    ++tally->frames;
    tally->partial += (n > 0 && n < grid.objectCount()) ? 1u : 0u;
    tally->cellsTested += ps.cellsTested;
    tally->cellsOccupied += ps.cellsOccupied;
    tally->propsTested += ps.propsTested;
    tally->visible += n;
    tally->total += grid.objectCount();
  }
}

void expectValid(const HashGrid& grid, const Octree& octree, const OctreeCellLinks& links,
                 const std::string& where) {
  std::string error;
  EXPECT_TRUE(links.validate(grid, octree, &error)) << where << ": " << error;
}

// The props of a scenario, kept beside the grid so that they can move and come back.
struct Cloud {
  std::vector<glm::vec3> pos, vel, half;
  std::vector<uint8_t> sphere, live;
};

enum class Spread { Uniform, Clustered };

// count props over (and a little beyond) the level's bounds. 70 % spheres of 0.1..0.4 m, the
// rest boxes; every 25th prop larger than a cell (half-extents 1..2.5 cells); every 40th far
// outside the level's bounds, and every 400th beyond the grid's coordinate range (border cells).
Cloud makeCloud(std::mt19937& rng, const Aabb& bounds, uint32_t count, Spread spread,
                float cellSize) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const glm::vec3 size = bounds.max - bounds.min;
  const glm::vec3 clusterLo = bounds.min + size * glm::vec3(0.4f, 0.1f, 0.4f);
  Cloud c;
  for (uint32_t i = 0; i < count; ++i) {
    const glm::vec3 t(u(rng), u(rng), u(rng));
    glm::vec3 p = bounds.min + t * size;
    if (spread == Spread::Clustered && u(rng) < 0.8f) p = clusterLo + t * size * 0.05f;
    if (i % 40 == 39) p = bounds.min + (t * 3.0f - 1.0f) * size;  // up to a level size outside
    if (i % 400 == 399) p = glm::vec3(3e7f * (u(rng) - 0.5f), 3e7f, 1e5f);  // border cells
    const bool sphere = u(rng) < 0.7f;
    glm::vec3 h = sphere
                      ? glm::vec3(0.1f + 0.3f * u(rng))
                      : glm::vec3(0.1f + 0.3f * u(rng), 0.1f + 0.3f * u(rng), 0.1f + 0.3f * u(rng));
    if (i % 25 == 24) h = glm::vec3(cellSize * (1.0f + 1.5f * u(rng)));
    c.pos.push_back(p);
    c.vel.push_back(glm::vec3(u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f) * 6.0f);
    c.half.push_back(h);
    c.sphere.push_back(sphere ? 1 : 0);
    c.live.push_back(1);
  }
  return c;
}

void insert(HashGrid& g, const Cloud& c, uint32_t i) {
  if (c.sphere[i]) {
    g.insertSphere(i, c.pos[i], c.half[i].x);
  } else {
    g.insertBox(i, c.pos[i], c.half[i]);
  }
}

// One frame of motion: every live prop moves (1/30 s); every 50th jumps anywhere over the
// bounds; a few are removed and a few removed ones come back (cells emptied and re-created).
// batched: the moves go through one moveCenters call after the removals and inserts.
void animate(std::mt19937& rng, HashGrid& g, Cloud& c, const Aabb& bounds, bool batched) {
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  const glm::vec3 size = bounds.max - bounds.min;
  for (uint32_t i = 0; i < c.pos.size(); ++i) {
    if (!c.live[i]) {
      if (u(rng) < 0.2f) {
        c.live[i] = 1;
        insert(g, c, i);
      }
      continue;
    }
    if (u(rng) < 0.01f) {
      c.live[i] = 0;
      g.remove(i);
      continue;
    }
    c.pos[i] += c.vel[i] * (1.0f / 30.0f);
    if (u(rng) < 0.02f) c.pos[i] = bounds.min + glm::vec3(u(rng), u(rng), u(rng)) * size;
    if (!batched) g.move(i, c.pos[i]);
  }
  if (batched) g.moveCenters(c.pos);  // the frame's moves at once, after the inserts and removals
}

// Runs `frames` frames of a scenario over one octree; syncs the links on most frames (not all:
// the grid's cell events must keep them without a sync) and validates them.
void runScenario(const Octree& octree, const std::string& name, Spread spread, uint32_t count,
                 uint32_t frames, uint32_t seed, Tally* tally) {
  std::mt19937 rng(seed);
  const Aabb bounds = octree.bounds();
  const float diagonal = glm::length(bounds.max - bounds.min);
  const float cellSize = 1.0f;
  HashGrid grid(cellSize);
  Cloud cloud = makeCloud(rng, bounds, count, spread, cellSize);
  for (uint32_t i = 0; i < cloud.pos.size(); ++i) insert(grid, cloud, i);
  OctreeCellLinks links;
  // Not linked yet: the fallback must be exact as well.
  checkFrame(octree, grid, links, randomFrustum(rng, bounds, diagonal), nullptr,
             name + " unlinked");
  links.relink(grid, octree);
  expectValid(grid, octree, links, name + " after relink");
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (uint32_t f = 0; f < frames; ++f) {
    const std::string where = name + " frame " + std::to_string(f);
    checkFrame(octree, grid, links, randomFrustum(rng, bounds, diagonal), tally, where);
    if (::testing::Test::HasFatalFailure()) return;
    animate(rng, grid, cloud, bounds, f % 2 == 1);  // moveCenters every other frame
    if (f % 4 != 3) {
      links.sync(grid, octree);
      expectValid(grid, octree, links, where + " after sync");
    } else {
      // Not synced: the cells this frame made joined their nodes through the cell events alone
      // (unless the map outgrew the cells, which only a sync fixes; the cull stays exact).
      if (links.linked(grid, octree)) expectValid(grid, octree, links, where + " without sync");
    }
  }
}

struct LevelCase {
  const char* name;
  const char* file;  // under levels/ in the shared folder; null: the bundled arena
};

const LevelCase kLevels[] = {
    {"arena", nullptr},
    {"collision_world_glb", "collision-world/collision-world.glb"},
    {"collision_world_obj", "collision-world/collision-world.obj"},
    {"oa_dm1", "oa_dm1/oa_dm1.obj"},
    {"oa_dm5", "oa_dm5/oa_dm5.obj"},
    {"ons_reborn", "ons-reborn/ons-reborn.obj"},
};

void PrintTo(const LevelCase& c, std::ostream* os) {
  *os << c.name;
}

class PropsCullLevels : public ::testing::TestWithParam<LevelCase> {
 protected:
  // The level's octree with the demo's default parameters (the arena: the shared fixture's).
  bool load(Octree* octree, Level* level) {
    const LevelCase& c = GetParam();
    if (c.file == nullptr) {
      const test::Arena& a = test::defaultArena();
      if (a.octree.empty()) return false;
      *octree = a.octree;
      *level = a.level;
      return true;
    }
    std::string why;
    if (!loadSharedLevel(c.file, level, &why)) {
      skipReason_ = why;
      return false;
    }
    if (!buildOctree(*level, OctreeBuildParams{}, octree)) return false;
    // The level really loaded (a test that culls over nothing proves nothing).
    EXPECT_GT(octree->triangleCount(), 1000u) << c.file;
    ::testing::Test::RecordProperty("triangles", static_cast<int>(octree->triangleCount()));
    return true;
  }
  std::string skipReason_;
};

TEST_P(PropsCullLevels, SpreadPropsMatchBruteForce) {
  Octree octree;
  Level level;
  if (!load(&octree, &level)) GTEST_SKIP() << skipReason_;
  Tally t;
  runScenario(octree, GetParam().name, Spread::Uniform, 3000, 60, 11, &t);
  // Meaningful: most frames see some props but not all, and the links saved cell tests.
  EXPECT_GT(t.partial, t.frames / 3) << "the random views should mostly see part of the props";
  EXPECT_LT(t.cellsTested, t.cellsOccupied) << "the traversal should skip cells";
}

TEST_P(PropsCullLevels, ClusteredPropsMatchBruteForce) {
  Octree octree;
  Level level;
  if (!load(&octree, &level)) GTEST_SKIP() << skipReason_;
  Tally t;
  runScenario(octree, GetParam().name, Spread::Clustered, 3000, 60, 12, &t);
  EXPECT_GT(t.partial, t.frames / 4);
}

TEST_P(PropsCullLevels, RebuildsAndSwapsKeepLinksRight) {
  Octree octree;
  Level level;
  if (!load(&octree, &level)) GTEST_SKIP() << skipReason_;
  const std::string name = GetParam().name;
  std::mt19937 rng(13);
  const Aabb bounds = octree.bounds();
  const float diagonal = glm::length(bounds.max - bounds.min);
  HashGrid grid(1.0f);
  Cloud cloud = makeCloud(rng, bounds, 2000, Spread::Uniform, 1.0f);
  for (uint32_t i = 0; i < cloud.pos.size(); ++i) insert(grid, cloud, i);
  OctreeCellLinks links;
  links.relink(grid, octree);
  const OctreeBuildParams variants[] = {{2, 24}, {64, 3}, {8, 0}, {1, 10}, {16, 16}};
  for (const OctreeBuildParams& p : variants) {
    const std::string where = name + " rebuilt with trianglesPerLeaf " +
                              std::to_string(p.trianglesPerLeaf) + ", maxLevel " +
                              std::to_string(p.maxLevel);
    ASSERT_TRUE(octree.rebuild(p).ok) << where;
    // Stale links are detected: the cull falls back and stays exact.
    EXPECT_FALSE(links.linked(grid, octree)) << where;
    checkFrame(octree, grid, links, randomFrustum(rng, bounds, diagonal), nullptr,
               where + " stale");
    links.sync(grid, octree);  // relinks everything
    expectValid(grid, octree, links, where);
    for (uint32_t f = 0; f < 6; ++f) {
      checkFrame(octree, grid, links, randomFrustum(rng, bounds, diagonal), nullptr, where);
      animate(rng, grid, cloud, bounds, f % 2 == 1);  // moveCenters every other frame
      links.sync(grid, octree);
      expectValid(grid, octree, links, where + " after moves");
    }
  }
  // Level swap: the same props over another level (the arena, or oa_dm1 for the arena).
  Octree other;
  Level otherLevel;
  if (GetParam().file == nullptr) {
    std::string why;
    if (!loadSharedLevel("oa_dm1/oa_dm1.obj", &otherLevel, &why)) GTEST_SKIP() << why;
    ASSERT_TRUE(buildOctree(otherLevel, {}, &other));
  } else {
    other = test::defaultArena().octree;
  }
  ASSERT_FALSE(other.empty());
  links.relink(grid, other);
  expectValid(grid, other, links, name + " swapped level");
  const Aabb ob = other.bounds();
  for (uint32_t f = 0; f < 10; ++f) {
    checkFrame(other, grid, links, randomFrustum(rng, ob, glm::length(ob.max - ob.min)), nullptr,
               name + " swapped level");
    animate(rng, grid, cloud, ob, f % 2 == 0);
    links.sync(grid, other);
    expectValid(grid, other, links, name + " swapped level after moves");
  }
}

// The link map's memory follows the occupied cells: props added in doubling batches (the map
// grows finer as they come), then removed down to a few (it shrinks back), synced after each
// step. After every sync the map holds at most 4 x max(kMinMapEntries, kMapEntriesPerCell x
// occupied cells) entries (the budget, times the shrink hysteresis), the links are valid and the
// cull equals brute force; the map is rebuilt only a logarithmic number of times.
TEST_P(PropsCullLevels, LinkMapFollowsTheOccupiedCells) {
  Octree octree;
  Level level;
  if (!load(&octree, &level)) GTEST_SKIP() << skipReason_;
  const std::string name = GetParam().name;
  std::mt19937 rng(31);
  const Aabb bounds = octree.bounds();
  const float diagonal = glm::length(bounds.max - bounds.min);
  HashGrid grid(0.5f);  // small cells: many cells per prop count, so the budget matters
  Cloud cloud = makeCloud(rng, bounds, 32000, Spread::Uniform, 0.2f);
  OctreeCellLinks links;
  links.relink(grid, octree);  // no props yet: the smallest map
  EXPECT_LE(links.mapEntries(), OctreeCellLinks::kMinMapEntries) << name;
  const uint32_t coarsest = links.mapShift();
  uint32_t finest = coarsest, rebuilds = 0;
  uint64_t lastEntries = links.mapEntries();
  auto step = [&](const std::string& where) {
    links.sync(grid, octree);
    const uint64_t bound =
        4 * std::max<uint64_t>(OctreeCellLinks::kMinMapEntries,
                               OctreeCellLinks::kMapEntriesPerCell * grid.occupiedCells());
    EXPECT_LE(links.mapEntries(), bound) << where << ": " << grid.occupiedCells() << " cells";
    if (links.mapEntries() != lastEntries) ++rebuilds;
    lastEntries = links.mapEntries();
    finest = std::min(finest, links.mapShift());
    expectValid(grid, octree, links, where);
    checkFrame(octree, grid, links, randomFrustum(rng, bounds, diagonal), nullptr, where);
  };
  uint32_t n = 0;
  for (uint32_t batch = 125; n < cloud.pos.size(); batch *= 2) {
    const uint32_t end = std::min<uint32_t>(n + batch, static_cast<uint32_t>(cloud.pos.size()));
    for (; n < end; ++n) insert(grid, cloud, n);
    step(name + " after adding up to " + std::to_string(n) + " props");
  }
  // The level's cell box at 0.5 m is far larger than kMinMapEntries blocks on every level, so
  // 32,000 props (tens of thousands of cells) must have made the blocks finer.
  EXPECT_LT(finest, coarsest) << name << ": the map never grew finer";
  const uint64_t grown = links.mapEntries();
  for (uint32_t keep = n / 2; keep >= 100; keep /= 2) {
    for (; n > keep; --n) grid.remove(n - 1);
    step(name + " after removing down to " + std::to_string(n) + " props");
  }
  EXPECT_LT(links.mapEntries(), grown) << name << ": the map never shrank";
  // 9 batches up and 8 halvings down: a rebuild per doubling or quartering at most.
  EXPECT_LE(rebuilds, 17u) << name;
}

INSTANTIATE_TEST_SUITE_P(Levels, PropsCullLevels, ::testing::ValuesIn(kLevels),
                         [](const ::testing::TestParamInfo<LevelCase>& p) {
                           return std::string(p.param.name);
                         });

// ---- Without a shared level: the arena fixture --------------------------------------------------

TEST(PropsCull, GrowingPropsDropAndRestoreLinks) {
  const Octree& octree = test::defaultArena().octree;
  ASSERT_FALSE(octree.empty());
  std::mt19937 rng(21);
  const Aabb bounds = octree.bounds();
  HashGrid grid(1.0f);
  Cloud cloud = makeCloud(rng, bounds, 500, Spread::Uniform, 0.2f);  // all small
  for (uint32_t i = 0; i < cloud.pos.size(); ++i) insert(grid, cloud, i);
  OctreeCellLinks links;
  links.relink(grid, octree);
  ASSERT_TRUE(links.linked(grid, octree));
  // A prop larger than every one before voids the links (their loose bounds were smaller).
  grid.insertBox(1000, bounds.center(), glm::vec3(grid.maxExtent() * 4.0f));
  EXPECT_FALSE(links.linked(grid, octree));
  EXPECT_FALSE(links.groups().active());  // dropped: the fallback culls
  const float diagonal = glm::length(bounds.max - bounds.min);
  checkFrame(octree, grid, links, randomFrustum(rng, bounds, diagonal), nullptr, "dropped");
  links.sync(grid, octree);
  EXPECT_TRUE(links.linked(grid, octree));
  expectValid(grid, octree, links, "relinked after growth");
  for (uint32_t f = 0; f < 20; ++f) {
    checkFrame(octree, grid, links, randomFrustum(rng, bounds, diagonal), nullptr, "after growth");
  }
  // setCellSize re-buckets: the links drop, the fallback culls, then linked again.
  grid.setCellSize(2.5f);
  EXPECT_FALSE(links.linked(grid, octree));
  checkFrame(octree, grid, links, randomFrustum(rng, bounds, diagonal), nullptr, "re-bucketed");
  links.sync(grid, octree);
  EXPECT_TRUE(links.linked(grid, octree));
  expectValid(grid, octree, links, "re-bucketed and synced");
}

TEST(PropsCull, ValidateCatchesAWrongLinkAndTheOracleItsMiss) {
  // The checks can fail: link a cell to a node whose bounds do not contain it.
  const Octree& octree = test::defaultArena().octree;
  ASSERT_GT(octree.nodeCount(), 2u);
  HashGrid grid(1.0f);
  const Aabb b = octree.bounds();
  const glm::vec3 p = b.center();
  grid.insertSphere(0, p, 0.2f);
  OctreeCellLinks links;
  links.relink(grid, octree);
  std::string error;
  ASSERT_TRUE(links.validate(grid, octree, &error)) << error;
  // Find a leaf whose bounds miss the cell and move the cell there.
  const Aabb loose = OctreeCellLinks::looseCellBounds(grid, 0, grid.maxExtent());
  uint32_t wrong = kOctreeInvalidIndex;
  for (uint32_t n = 1; n < octree.nodeCount(); ++n) {
    if (octree.isLeaf(n) && !octree.nodeBounds(n).overlaps(loose)) {
      wrong = n;
      break;
    }
  }
  ASSERT_NE(wrong, kOctreeInvalidIndex);
  CellGroupsTestAccess::moveCell(links.groups(), 0, wrong);
  EXPECT_FALSE(links.validate(grid, octree, &error));
  EXPECT_NE(error.find("whose bounds miss it"), std::string::npos) << error;
  // A camera looking at the prop but not at that leaf: the wrong link hides the prop.
  const glm::vec3 eye = p + glm::vec3(0.0f, 0.0f, 1.5f);
  const Frustum f =
      Frustum::fromViewProjection(glm::perspective(glm::radians(10.0f), 1.0f, 0.05f, 3.0f) *
                                  glm::lookAt(eye, p, glm::vec3(0.0f, 1.0f, 0.0f)));
  uint32_t out[4];
  EXPECT_EQ(cullPropsBruteForce(f, grid, out), 1u);
  uint32_t mask = kFrustumAllPlanes;
  if (classifyAabb(f, octree.nodeBounds(wrong), mask) == Containment::Outside) {
    EXPECT_EQ(cullLevelAndProps(octree, f, grid, links, nullptr, nullptr, out), 0u)
        << "with the wrong link the prop is missed: the oracle comparison would catch it";
  }
}

TEST(PropsCull, ChunksMakeTheArenaFloorCostFollowTheView) {
  // Props resting on the arena's floor (whose few large triangles sit high in the tree), the
  // demo's start view: with chunks the cull tests a fraction of the cells; with one chunk per
  // node (no split) nearly all of them. Both exact.
  const Octree& octree = test::defaultArena().octree;
  ASSERT_FALSE(octree.empty());
  const Aabb b = octree.bounds();
  const glm::vec3 size = b.max - b.min;
  std::mt19937 rng(41);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  HashGrid grid(1.0f);
  uint32_t id = 0;
  while (id < 1500) {
    const glm::vec3 o(b.min.x + size.x * u(rng), b.max.y - 0.01f * size.y,
                      b.min.z + size.z * u(rng));
    RayHit hit;
    if (!octree.raycast(o, glm::vec3(0.0f, -1.0f, 0.0f), size.y, kOctreeAllLayers, hit)) continue;
    grid.insertSphere(id++, hit.point + glm::vec3(0.0f, 0.2f + 0.5f * u(rng), 0.0f),
                      0.2f + 0.2f * u(rng));
  }
  const glm::vec3 eye(0.0f, 1.67f, 8.0f);
  const Frustum f = Frustum::fromViewProjection(
      glm::perspective(glm::radians(68.75f), 16.0f / 9.0f, 0.05f, 176.0f) *
      glm::lookAt(eye, eye + glm::vec3(0.0f, 0.0f, -1.0f), glm::vec3(0.0f, 1.0f, 0.0f)));
  std::vector<uint32_t> out(grid.objectCount());
  auto cull = [&](uint32_t chunkCells) {
    OctreeCellLinks links;
    links.setChunkCells(chunkCells);
    links.relink(grid, octree);
    expectValid(grid, octree, links, "chunks of " + std::to_string(chunkCells));
    checkFrame(octree, grid, links, f, nullptr, "chunks of " + std::to_string(chunkCells));
    PropsCullStats st;
    cullLevelAndProps(octree, f, grid, links, nullptr, nullptr, out, nullptr, &st);
    return st;
  };
  const PropsCullStats chunked = cull(8);
  const PropsCullStats whole = cull(1u << 20);  // one chunk per node: the node's own extent
  // The sample meant something: many cells, a good part of the props in view, not all.
  ASSERT_GT(chunked.cellsOccupied, 800u);
  EXPECT_GT(chunked.visible, 150u);
  EXPECT_LT(chunked.visible, 1350u);
  EXPECT_GT(chunked.chunksTested, 0u);
  EXPECT_LT(chunked.cellsTested * 2, chunked.cellsOccupied) << chunked.cellsTested;
  EXPECT_LT(chunked.cellsTested * 2, whole.cellsTested)
      << chunked.cellsTested << " with chunks vs " << whole.cellsTested << " without";
}

// The simulation's own path, at tick rates from 30 to 500 Hz (1.5 s of simulated time each):
// props thrown into the arena fall and settle; the links are kept by the grid's cell events and
// FrameCuller's sync; its cull matches brute force and gives cullOctree's runs. About 45 frames are
// checked per rate (every step at 30 Hz, every eleventh at 500 Hz), each with a new random frustum.
class PropsCullTickRates : public ::testing::TestWithParam<int> {};

TEST_P(PropsCullTickRates, PropsWorldStepsKeepLinksAndCullExactly) {
  const int hz = GetParam();
  const test::Arena& arena = test::defaultArena();
  ASSERT_FALSE(arena.octree.empty());
  PropsWorld world;
  const Aabb b = arena.octree.bounds();
  world.spawnRandom(1500, arena.octree, b, 5);
  FrameCuller culler;
  DrawRanges ranges;
  ranges.build(arena.octree, {});
  std::mt19937 rng(31 + static_cast<uint32_t>(hz));
  const float diagonal = glm::length(b.max - b.min);
  const uint32_t steps = static_cast<uint32_t>(hz) * 3 / 2;
  const uint32_t checkEvery = std::max(1u, steps / 45);
  const uint32_t throwEvery = std::max(1u, static_cast<uint32_t>(hz) / 6);  // six throws a second
  for (uint32_t f = 0; f < steps; ++f) {
    world.step(arena.octree, 1.0f / static_cast<float>(hz));
    if (f % throwEvery == 0) {
      world.throwSphere(b.center(), glm::vec3(3.0f, 8.0f, -2.0f), 0.2f);  // a cell to link later
    }
    if (f % checkEvery != 0 && f + 1 != steps) continue;
    const Frustum fr = randomFrustum(rng, b, diagonal);
    DrawRunList runs, refRuns;
    std::vector<uint32_t> ids(world.size());
    PropsCullStats ps;
    const uint32_t n = culler.cull(arena.octree, ranges, world.grid(), fr, LevelCull::Frustum,
                                   &runs, ids, nullptr, &ps);
    std::string error;
    ASSERT_TRUE(culler.links().validate(world.grid(), arena.octree, &error))
        << hz << " Hz, step " << f << ": " << error;
    ASSERT_TRUE(culler.links().linked(world.grid(), arena.octree));
    checkFrame(arena.octree, world.grid(), culler.links(), fr, nullptr,
               std::to_string(hz) + " Hz, step " + std::to_string(f));
    ranges.cull(arena.octree, fr, &refRuns);
    EXPECT_EQ(runs.first, refRuns.first);
    EXPECT_EQ(runs.count, refRuns.count);
    std::vector<uint32_t> ref(world.size());
    EXPECT_EQ(n, world.cullFrustum(fr, ref)) << hz << " Hz, step " << f;
  }
}

INSTANTIATE_TEST_SUITE_P(Rates, PropsCullTickRates, ::testing::Values(30, 60, 120, 240, 500),
                         [](const ::testing::TestParamInfo<int>& rate) {
                           return std::to_string(rate.param) + "Hz";
                         });

}  // namespace
}  // namespace ofps
