// Occlusion culling never hides a visible triangle: for random camera poses inside each level, a
// reference rasterizer renders EVERY drawn triangle's id with a depth buffer, and every id that
// appears in its image must be in the set drawn with occlusion culling on. Zero misses.
//
// The reference (tests/support/reference_renderer.h) shares nothing with the code under test: it
// clips triangles against the near and far planes in homogeneous clip space (Sutherland-Hodgman,
// double precision), point-samples pixel centres at twice the occlusion buffer's resolution in
// each direction (512 x 256 against 256 x 128), interpolates 1 / w with barycentric weights and
// keeps the nearest sample. Also checked per pose: the occlusion cull draws a subset of the
// frustum-only cull (DrawRanges::cull) and counts the frustum-only triangles exactly as
// DrawRanges::cull does; culling whole nodes only (no per-triangle tests) draws a superset; and
// with an occluder budget of 50 triangles nothing visible is culled either. The ratio drawn /
// frustum-only is printed, not asserted (speed and culling rates are the benchmark's business).
//
// Poses: a random floor triangle (normal within ~45 degrees of up), a random point on it, the eye
// 1.65 m above it when a ray up from the floor finds that much headroom; any yaw, pitch within
// +-60 degrees, vertical field of view 60..100 degrees, aspect 16:9 or 2:1, near 0.05 m.
// Levels: the bundled arena (real loader, meshes' visibility honoured) and the shared canonical
// OBJs (Quake ones converted to Y-up metres), each skipped when absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <limits>
#include <new>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/culling/occlusion_cull.h"
#include "octree_fps/io/obj_reader.h"
#include "octree_fps/spatial/octree.h"
#include "support/culling_levels.h"
#include "support/floor_triangles.h"
#include "support/reference_renderer.h"
#include "support/scripted_walk.h"
#include "support/test_paths.h"

// Every allocation in this test binary is counted, so that a test can check that a stretch of
// code allocates nothing.
namespace {
std::atomic<uint64_t> gAllocations{0};
}  // namespace

void* operator new(std::size_t size) {
  gAllocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept {
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept {
  std::free(p);
}

namespace ofps {
namespace {

// Twice the occlusion buffer's default resolution (256 x 128) in each direction.
constexpr int kRefWidth = 512;
constexpr int kRefHeight = 256;
constexpr uint32_t kNoTriangle = test::ReferenceRenderer::kNoTriangle;

struct TestLevel : test::CullingLevel {
  Octree octree;
  DrawRanges ranges;
};

// Floor triangles of the drawn geometry (normal within ~45 degrees of up).
std::vector<uint32_t> floorTriangles(const TestLevel& level) {
  return test::floorTriangles(level.positions, level.indices, level.drawn);
}

// A random point on a random floor triangle with 1.9 m of headroom above it, or false (tried
// again by the caller).
bool randomFloorSpot(const TestLevel& level, const std::vector<uint32_t>& floors, std::mt19937& rng,
                     glm::vec3* out) {
  return test::randomFloorSpot(level.positions, level.indices, floors, level.octree, rng, out);
}

// Random eye poses above floors (see the file comment).
std::vector<glm::mat4> randomPoses(const TestLevel& level, uint32_t count, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  const std::vector<uint32_t> floors = floorTriangles(level);
  std::vector<glm::mat4> poses;
  for (int tries = 0; tries < 100000 && poses.size() < count && !floors.empty(); ++tries) {
    glm::vec3 floor;
    if (!randomFloorSpot(level, floors, rng, &floor)) continue;
    const glm::vec3 eye = floor + glm::vec3(0.0f, 1.65f, 0.0f);
    const double yaw = u(rng) * 6.283185307, pitch = (u(rng) - 0.5) * 2.0 * 1.0471975512;
    const glm::vec3 fwd(static_cast<float>(std::cos(pitch) * std::sin(yaw)),
                        static_cast<float>(std::sin(pitch)),
                        static_cast<float>(std::cos(pitch) * std::cos(yaw)));
    const float fov = glm::radians(60.0f + 40.0f * static_cast<float>(u(rng)));
    const float aspect = u(rng) < 0.5 ? 16.0f / 9.0f : 2.0f;
    poses.push_back(glm::perspective(fov, aspect, 0.05f, 5000.0f) *
                    glm::lookAt(eye, eye + fwd, glm::vec3(0.0f, 1.0f, 0.0f)));
  }
  return poses;
}

// Marks the original triangles that `runs` draws (set: one entry per triangle, cleared first).
void markRuns(const DrawRunList& runs, std::span<const uint32_t> drawOrder,
              std::vector<uint8_t>* set) {
  std::fill(set->begin(), set->end(), uint8_t{0});
  for (size_t r = 0; r < runs.first.size(); ++r) {
    for (uint32_t i = 0; i < runs.count[r]; ++i) (*set)[drawOrder[runs.first[r] + i]] = 1;
  }
}

void checkLevel(TestLevel& level, const std::string& name, uint32_t seed) {
  const OctreeBuildReport report = level.octree.build(level.positions, level.indices);
  ASSERT_TRUE(report.ok) << report.error;
  level.ranges.build(level.octree, level.drawn);
  OcclusionCuller culler, nodeCuller, budgetCuller, retestCuller, workCuller;
  culler.build(level.octree, level.ranges);
  nodeCuller.build(level.octree, level.ranges);
  budgetCuller.build(level.octree, level.ranges);
  retestCuller.build(level.octree, level.ranges);
  workCuller.build(level.octree, level.ranges);
  const std::vector<glm::mat4> poses = randomPoses(level, 100, seed);
  ASSERT_EQ(poses.size(), 100u) << name << ": too few floor spots with headroom";

  const std::span<const uint32_t> drawOrder = level.ranges.drawOrder();
  const uint32_t triangles = static_cast<uint32_t>(level.indices.size() / 3);
  std::vector<uint8_t> drawnSet(triangles), frustumSet(triangles), nodeSet(triangles),
      budgetSet(triangles), retestSet(triangles), workSet(triangles);
  DrawRunList nodeRuns, budgetRuns, retestRuns, workRuns;
  uint64_t workExhausted = 0, workIdentical = 0;
  uint64_t retestCut = 0;
  uint64_t trianglesTestedOut = 0;
  test::ReferenceRenderer reference(kRefWidth, kRefHeight);
  DrawRunList runs, frustumRuns;
  uint64_t misses = 0, visibleIds = 0, posesWithView = 0, occludedNodes = 0;
  double ratioSum = 0.0;
  uint32_t ratioPoses = 0;
  // Unrelated poses: each cull starts afresh (temporal coherence has its own test below).
  OcclusionCullParams fresh;
  fresh.temporalCoherence = false;
  for (size_t p = 0; p < poses.size(); ++p) {
    OcclusionCullStats stats;
    culler.cull(level.octree, level.ranges, poses[p], &runs, &stats, fresh);
    level.ranges.cull(level.octree, Frustum::fromViewProjection(poses[p]), &frustumRuns);
    markRuns(runs, drawOrder, &drawnSet);
    markRuns(frustumRuns, drawOrder, &frustumSet);
    // The other modes, from their own cullers: whole nodes only must draw a superset (the buffer
    // is the same: a hidden triangle cannot raise a pixel), and a small occluder budget must
    // stay safe (checked against the reference below).
    OcclusionCullParams wholeNodes = fresh;
    wholeNodes.testTriangles = false;
    nodeCuller.cull(level.octree, level.ranges, poses[p], &nodeRuns, nullptr, wholeNodes);
    OcclusionCullParams budget = fresh;
    budget.maxOccluders = 50;
    budgetCuller.cull(level.octree, level.ranges, poses[p], &budgetRuns, nullptr, budget);
    // The second test after all occluders (retestDrawn): the same first pass, so a subset of
    // the plain cull's triangles (and, below, every visible one).
    OcclusionCullParams retest = fresh;
    retest.retestDrawn = true;
    retestCuller.cull(level.octree, level.ranges, poses[p], &retestRuns, nullptr, retest);
    markRuns(retestRuns, drawOrder, &retestSet);
    markRuns(nodeRuns, drawOrder, &nodeSet);
    markRuns(budgetRuns, drawOrder, &budgetSet);
    // The work budget (OcclusionCullParams::workBudget). A small one: the same walk until it runs
    // out, then box tests only, then a frustum cull, so a superset of the plain cull's triangles
    // (whose budget is larger: its buffer holds every occluder the small one's does, and more)
    // and, below, every visible one.
    OcclusionCullStats workStats;  // (each cull adds to it: reset before the budget-0 cull)
    OcclusionCullParams work = fresh;
    work.workBudget = 40'000;
    workCuller.cull(level.octree, level.ranges, poses[p], &workRuns, &workStats, work);
    markRuns(workRuns, drawOrder, &workSet);
    workExhausted += workStats.budgetExhausted;
    for (uint32_t t = 0; t < triangles; ++t) {
      ASSERT_FALSE(drawnSet[t] && !workSet[t])
          << name << " pose " << p << ": triangle " << t << " drawn, but not on a small budget";
    }
    // None: the frustum cull exactly (the same classification of the same nodes).
    work.workBudget = 0;
    workStats = {};
    workCuller.cull(level.octree, level.ranges, poses[p], &workRuns, &workStats, work);
    ASSERT_EQ(workRuns.first, frustumRuns.first) << name << " pose " << p << ": budget 0";
    ASSERT_EQ(workRuns.count, frustumRuns.count) << name << " pose " << p << ": budget 0";
    // ... and no occlusion work at all: no box tested, nothing rasterized.
    ASSERT_EQ(workStats.nodesOcclusionTested, 0u) << name << " pose " << p << ": budget 0";
    ASSERT_EQ(workStats.occludersRasterized, 0u) << name << " pose " << p << ": budget 0";
    // One that the plain cull's metered work fits with its last quarter to spare (the last
    // quarter is box tests only): the plain cull exactly, where the plain cull's own (default)
    // budget did not run out.
    if (stats.budgetBoxesOnly == 0) {
      ASSERT_GT(stats.work, 0u) << name << " pose " << p;
      work.workBudget = static_cast<uint32_t>(stats.work * 4 / 3 + 2);
      OcclusionCullStats ampleStats;
      workCuller.cull(level.octree, level.ranges, poses[p], &workRuns, &ampleStats, work);
      ASSERT_EQ(workRuns.first, runs.first) << name << " pose " << p << ": ample budget";
      ASSERT_EQ(workRuns.count, runs.count) << name << " pose " << p << ": ample budget";
      ASSERT_EQ(ampleStats.work, stats.work) << name << " pose " << p;
      ASSERT_EQ(ampleStats.budgetBoxesOnly, 0u) << name << " pose " << p;
      ++workIdentical;
    }
    for (uint32_t t = 0; t < triangles; ++t) {
      ASSERT_FALSE(drawnSet[t] && !nodeSet[t])
          << name << " pose " << p << ": triangle " << t << " drawn, but not with whole nodes";
    }
    for (uint32_t t = 0; t < triangles; ++t) {
      ASSERT_FALSE(retestSet[t] && !drawnSet[t])
          << name << " pose " << p << ": triangle " << t << " drawn only with the second test";
    }
    retestCut += runs.triangles - retestRuns.triangles;
    trianglesTestedOut += nodeRuns.triangles - runs.triangles;
    ASSERT_EQ(stats.trianglesDrawn, runs.triangles);
    ASSERT_EQ(stats.trianglesDrawnFrustumOnly, frustumRuns.triangles) << name << " pose " << p;
    for (uint32_t t = 0; t < triangles; ++t) {
      ASSERT_FALSE(drawnSet[t] && !frustumSet[t])
          << name << " pose " << p << ": triangle " << t << " drawn but outside the frustum cull";
    }
    occludedNodes += stats.nodesOccluded;
    if (frustumRuns.triangles > 0) {
      ratioSum += static_cast<double>(runs.triangles) / frustumRuns.triangles;
      ++ratioPoses;
    }

    reference.render(level.positions, level.indices, level.drawn, poses[p]);
    std::vector<uint8_t> seen(triangles, 0);
    const uint64_t idsBefore = visibleIds;
    for (uint32_t id : reference.ids()) {
      if (id == kNoTriangle || seen[id]) continue;
      seen[id] = 1;
      ++visibleIds;
      if (!drawnSet[id] || !budgetSet[id] || !retestSet[id] || !workSet[id]) {
        ++misses;
        if (misses <= 10) {
          ADD_FAILURE() << name << " pose " << p << ": triangle " << id
                        << " is visible in the reference image but was culled"
                        << (!drawnSet[id]    ? ""
                            : !budgetSet[id] ? " with a budget of 50 occluders"
                            : !workSet[id]   ? " on a work budget of 40,000"
                                             : " by the second test (retestDrawn)");
        }
      }
    }
    posesWithView += visibleIds > idsBefore ? 1 : 0;
  }
  EXPECT_EQ(misses, 0u) << name;
  // Meaningful: the reference saw triangles, and occlusion culled something.
  EXPECT_GT(visibleIds, 100u * 10u) << name;
  EXPECT_GE(posesWithView, 75u) << name;  // some poses look only at open sky
  EXPECT_GT(occludedNodes, 0u) << name;
  EXPECT_GT(trianglesTestedOut, 0u) << name;  // the per-triangle tests did hide something
  EXPECT_GT(retestCut, 0u) << name;           // and so did the second test
  EXPECT_GT(workExhausted, 0u) << name;       // the small work budget ran out
  EXPECT_GT(workIdentical, 0u) << name;       // and the ample one was checked
  std::printf(
      "[ occlusion ] %s: %zu poses, %llu visible ids, mean drawn / frustum-only = %.3f; the "
      "second test left out %llu more\n",
      name.c_str(), poses.size(), static_cast<unsigned long long>(visibleIds),
      ratioPoses > 0 ? ratioSum / ratioPoses : 1.0, static_cast<unsigned long long>(retestCut));
}

// Temporal coherence along scripted walks (tests/support/scripted_walk.h: the controller walks,
// turns and looks around; 6 walks of 40 frames, a jump to a new floor spot between walks). Per
// frame, with the history of the frames before: no triangle visible in the reference image is
// culled; nothing outside the frustum cull is drawn; after a jump of more than
// OcclusionCullParams::historyMaxEyeMove, the cull IS the fresh one (history dropped). And the
// history was used: nodes and triangles were drawn on its word, and last frame's occluders went
// in first (the occluder prepass), never over a jump. Not asserted, printed: the triangles a fresh
// cull (no history) draws at the same pose that the history's cull does not. There are many: the
// prepass gives every test the occluders a fresh cull meets only later in its traversal (and an
// occluder pair's quad writes the looser of its two planes, so a pair rasterized in one cull and a
// single triangle in the other can move a pixel either way). They are not a correctness matter:
// the reference decides that.
void checkWalk(TestLevel& level, const std::string& name, uint32_t seed) {
  const OctreeBuildReport report = level.octree.build(level.positions, level.indices);
  ASSERT_TRUE(report.ok) << report.error;
  level.ranges.build(level.octree, level.drawn);
  constexpr uint32_t kWalks = 6, kFrames = 40;
  std::mt19937 rng(seed);
  const std::vector<uint32_t> floors = floorTriangles(level);
  std::vector<glm::vec3> feet;
  for (int tries = 0; tries < 10000 && feet.size() < kWalks && !floors.empty(); ++tries) {
    glm::vec3 spot;
    if (randomFloorSpot(level, floors, rng, &spot)) feet.push_back(spot + glm::vec3(0, 0.05f, 0));
  }
  ASSERT_EQ(feet.size(), kWalks) << name;
  test::WalkPlayer walk(level.octree, feet, kWalks, kFrames, seed);

  OcclusionCuller coherent, fresh, tight;
  coherent.build(level.octree, level.ranges);
  fresh.build(level.octree, level.ranges);
  tight.build(level.octree, level.ranges);
  // With the history and a work budget that runs out: past it nothing is stamped visible, and
  // the nodes drawn on box tests alone keep their triangles' history bits as they were.
  OcclusionCullParams tightParams;
  tightParams.workBudget = 40'000;
  OcclusionCullParams freshParams;
  freshParams.temporalCoherence = false;
  const OcclusionCullParams coherentParams;  // the default: coherence on
  ASSERT_TRUE(coherentParams.temporalCoherence);

  const std::span<const uint32_t> drawOrder = level.ranges.drawOrder();
  const uint32_t triangles = static_cast<uint32_t>(level.indices.size() / 3);
  std::vector<uint8_t> drawnSet(triangles), freshSet(triangles), frustumSet(triangles),
      tightSet(triangles);
  DrawRunList runs, freshRuns, frustumRuns, tightRuns;
  uint64_t tightExhausted = 0;
  test::ReferenceRenderer reference(kRefWidth, kRefHeight);
  OcclusionCullStats total;
  uint64_t misses = 0, visibleIds = 0, freshDrawn = 0, freshOnly = 0, jumps = 0;
  glm::vec3 lastEye(std::numeric_limits<float>::max());
  for (uint32_t f = 0; f < walk.frameCount(); ++f) {
    const glm::mat4 vp = walk.next();
    const glm::vec3 eye = walk.eye();
    OcclusionCullStats stats;
    coherent.cull(level.octree, level.ranges, vp, &runs, &stats, coherentParams);
    fresh.cull(level.octree, level.ranges, vp, &freshRuns, nullptr, freshParams);
    level.ranges.cull(level.octree, Frustum::fromViewProjection(vp), &frustumRuns);
    markRuns(runs, drawOrder, &drawnSet);
    markRuns(freshRuns, drawOrder, &freshSet);
    markRuns(frustumRuns, drawOrder, &frustumSet);
    OcclusionCullStats tightStats;
    tight.cull(level.octree, level.ranges, vp, &tightRuns, &tightStats, tightParams);
    markRuns(tightRuns, drawOrder, &tightSet);
    tightExhausted += tightStats.budgetExhausted;
    for (uint32_t t = 0; t < triangles; ++t) {
      freshOnly += freshSet[t] && !drawnSet[t] ? 1 : 0;
      ASSERT_FALSE(drawnSet[t] && !frustumSet[t])
          << name << " frame " << f << ": triangle " << t << " drawn but outside the frustum cull";
      ASSERT_FALSE(tightSet[t] && !frustumSet[t])
          << name << " frame " << f << ": triangle " << t
          << " drawn on a small budget but outside the frustum cull";
    }
    // Measured in double: the jump is metres, far above float rounding of the eye.
    if (glm::distance(glm::dvec3(eye), glm::dvec3(lastEye)) > 1.0 + 1e-3) {
      ++jumps;
      ASSERT_EQ(stats.nodesAssumedVisible, 0u)
          << name << " frame " << f << ": history kept over a jump";
      ASSERT_EQ(stats.occludersPrepassed, 0u)
          << name << " frame " << f << ": last frame's occluders used over a jump";
      ASSERT_EQ(runs.first, freshRuns.first) << name << " frame " << f;
      ASSERT_EQ(runs.count, freshRuns.count) << name << " frame " << f;
    }
    lastEye = eye;
    freshDrawn += freshRuns.triangles;
    total.nodesAssumedVisible += stats.nodesAssumedVisible;
    total.trianglesAssumedVisible += stats.trianglesAssumedVisible;
    total.occludersPrepassed += stats.occludersPrepassed;
    total.occludersRasterized += stats.occludersRasterized;
    total.trianglesDrawn += stats.trianglesDrawn;

    reference.render(level.positions, level.indices, level.drawn, vp);
    std::vector<uint8_t> seen(triangles, 0);
    for (uint32_t id : reference.ids()) {
      if (id == kNoTriangle || seen[id]) continue;
      seen[id] = 1;
      ++visibleIds;
      if ((!drawnSet[id] || !tightSet[id]) && ++misses <= 10) {
        ADD_FAILURE() << name << " frame " << f << ": triangle " << id
                      << " is visible in the reference image but was culled"
                      << (drawnSet[id] ? " on a work budget of 40,000" : "");
      }
    }
  }
  EXPECT_EQ(misses, 0u) << name;
  EXPECT_GT(visibleIds, uint64_t{kWalks} * kFrames * 10) << name;
  EXPECT_GE(jumps, 1u) << name;  // the first frame at least
  EXPECT_GT(total.nodesAssumedVisible, 0u) << name;
  EXPECT_GT(total.trianglesAssumedVisible, 0u) << name;
  EXPECT_GT(total.occludersPrepassed, 0u) << name;
  EXPECT_GT(tightExhausted, 0u) << name;
  std::printf(
      "[ occlusion ] %s walk: %u frames, %llu jumps, %llu nodes drawn on the history's word,"
      " %llu of %llu occluders from the prepass,"
      " drawn with history / fresh = %.3f, drawn by fresh only: %llu\n",
      name.c_str(), walk.frameCount(), static_cast<unsigned long long>(jumps),
      static_cast<unsigned long long>(total.nodesAssumedVisible),
      static_cast<unsigned long long>(total.occludersPrepassed),
      static_cast<unsigned long long>(total.occludersRasterized),
      freshDrawn > 0 ? static_cast<double>(total.trianglesDrawn) / freshDrawn : 1.0,
      static_cast<unsigned long long>(freshOnly));
}

void checkShared(const std::string& name, bool zUp, uint32_t seed) {
  TestLevel level;
  if (!test::loadCanonicalLevel(name, zUp, &level)) GTEST_SKIP() << name << " not present";
  checkLevel(level, name, seed);
}

void checkSharedWalk(const std::string& name, bool zUp, uint32_t seed) {
  TestLevel level;
  if (!test::loadCanonicalLevel(name, zUp, &level)) GTEST_SKIP() << name << " not present";
  checkWalk(level, name, seed);
}

TestLevel arenaLevel() {
  TestLevel level;
  static_cast<test::CullingLevel&>(level) = test::arenaCullingLevel();
  return level;
}

TEST(OcclusionReference, DefaultArena) {
  TestLevel level = arenaLevel();
  ASSERT_FALSE(level.indices.empty());
  ASSERT_EQ(level.drawn.size(), level.indices.size() / 3);
  checkLevel(level, "arena", 11);
}

TEST(OcclusionCoherence, DefaultArena) {
  TestLevel level = arenaLevel();
  ASSERT_FALSE(level.indices.empty());
  checkWalk(level, "arena", 12);
}
TEST(OcclusionCoherence, CollisionWorld) {
  checkSharedWalk("collision-world", false, 22);
}
TEST(OcclusionCoherence, OaDm1) {
  checkSharedWalk("oa_dm1", true, 32);
}
TEST(OcclusionCoherence, OaDm5) {
  checkSharedWalk("oa_dm5", true, 42);
}
TEST(OcclusionCoherence, OnsReborn) {
  checkSharedWalk("ons-reborn", true, 52);
}

// After a first pass over the poses (the caller's run list grows to its largest), culling the
// same poses again allocates nothing.
TEST(OcclusionCull, NoAllocationAfterWarmUp) {
  const test::Arena& arena = test::defaultArena();
  ASSERT_FALSE(arena.level.collisionIndices.empty());
  TestLevel level;
  level.positions = arena.level.collisionPositions;
  level.indices = arena.level.collisionIndices;
  ASSERT_TRUE(level.octree.build(level.positions, level.indices).ok);
  level.ranges.build(level.octree, {});
  OcclusionCuller culler;
  culler.build(level.octree, level.ranges);
  const std::vector<glm::mat4> poses = randomPoses(level, 50, 5);
  ASSERT_EQ(poses.size(), 50u);
  DrawRunList runs;
  OcclusionCullStats stats;
  for (const glm::mat4& vp : poses) culler.cull(level.octree, level.ranges, vp, &runs, &stats);
  const uint64_t before = gAllocations.load();
  for (const glm::mat4& vp : poses) culler.cull(level.octree, level.ranges, vp, &runs, &stats);
  EXPECT_EQ(gAllocations.load() - before, 0u);
  EXPECT_GT(stats.trianglesDrawn, 0u);  // the passes did draw something
}

// Triangles left out of the occluders (cut-out materials: the caller's occluder mask) never reach
// the buffer, not even through the history: a fence that is no occluder stands between the eye
// and a box for a whole walk towards it, with a floor (occluders) under both so that the occluder
// prepass has a list to replay. Every frame draws the box's front face, and the prepass ran.
TEST(OcclusionCull, NonOccludersStayOutOfTheBufferAlongAWalk) {
  TestLevel level;
  const auto quad = [&](glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d) {
    const uint32_t base = static_cast<uint32_t>(level.positions.size());
    level.positions.insert(level.positions.end(), {a, b, c, d});
    level.indices.insert(level.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
  };
  // Triangle 0: the fence (z = -5, one triangle, so that no crack between two of them crosses the
  // view's centre). 1-2: the floor (y = -2). Then the box.
  level.positions.insert(level.positions.end(), {{-30, -20, -5}, {30, -20, -5}, {0, 40, -5}});
  level.indices.insert(level.indices.end(), {0, 1, 2});
  quad({-20, -2, 10}, {20, -2, 10}, {20, -2, -40}, {-20, -2, -40});
  const uint32_t boxFirst = static_cast<uint32_t>(level.indices.size() / 3);
  const glm::vec3 lo(-0.5f, -0.5f, -9.0f), hi(0.5f, 0.5f, -8.0f);
  quad({lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z}, {hi.x, hi.y, hi.z}, {lo.x, hi.y, hi.z});  // front
  quad({lo.x, lo.y, lo.z}, {lo.x, hi.y, lo.z}, {hi.x, hi.y, lo.z}, {hi.x, lo.y, lo.z});  // back
  quad({lo.x, hi.y, lo.z}, {lo.x, hi.y, hi.z}, {hi.x, hi.y, hi.z}, {hi.x, hi.y, lo.z});  // top
  quad({lo.x, lo.y, lo.z}, {lo.x, lo.y, hi.z}, {lo.x, hi.y, hi.z}, {lo.x, hi.y, lo.z});  // left
  quad({hi.x, lo.y, lo.z}, {hi.x, hi.y, lo.z}, {hi.x, hi.y, hi.z}, {hi.x, lo.y, hi.z});  // right
  const uint32_t triangles = static_cast<uint32_t>(level.indices.size() / 3);
  std::vector<uint8_t> occluders(triangles, 1);
  occluders[0] = 0;
  ASSERT_TRUE(level.octree.build(level.positions, level.indices).ok);
  level.ranges.build(level.octree, {});
  OcclusionCuller culler;
  culler.build(level.octree, level.ranges, occluders);
  // The box's front face (its first two triangles) is what the fence would hide: with every
  // triangle an occluder, the second cull at a pose (the fence in from the first one's list) leaves
  // it out. (The other faces can be hidden by the front one.)
  const uint32_t frontEnd = boxFirst + 2;
  {
    OcclusionCuller all;
    all.build(level.octree, level.ranges);
    DrawRunList runs;
    const glm::mat4 vp = glm::perspective(1.2f, 16.0f / 9.0f, 0.05f, 500.0f) *
                         glm::lookAt(glm::vec3(0.0f), glm::vec3(0, 0, -1), glm::vec3(0, 1, 0));
    all.cull(level.octree, level.ranges, vp, &runs);
    all.cull(level.octree, level.ranges, vp, &runs);
    std::vector<uint8_t> drawn(triangles, 0);
    markRuns(runs, level.ranges.drawOrder(), &drawn);
    for (uint32_t t = boxFirst; t < frontEnd; ++t) EXPECT_FALSE(drawn[t]) << "box triangle " << t;
  }
  OcclusionCullStats total;
  DrawRunList runs;
  // History and prepass on; every node re-tested every frame, so that nothing is drawn on the
  // history's word and whatever the buffer holds decides.
  OcclusionCullParams params;
  params.retestPeriod = 1;
  for (int f = 0; f < 40; ++f) {
    // Walking towards the fence (5 cm a frame, under the 1 m history limit), looking about.
    const glm::vec3 eye(0.02f * std::sin(0.3f * f), 0.0f, -0.05f * f);
    const glm::vec3 target(0.3f * std::sin(0.17f * f), 0.1f * std::cos(0.23f * f), -8.5f);
    const glm::mat4 vp = glm::perspective(1.2f, 16.0f / 9.0f, 0.05f, 500.0f) *
                         glm::lookAt(eye, target, glm::vec3(0, 1, 0));
    OcclusionCullStats stats;
    culler.cull(level.octree, level.ranges, vp, &runs, &stats, params);
    std::vector<uint8_t> drawn(triangles, 0);
    markRuns(runs, level.ranges.drawOrder(), &drawn);
    for (uint32_t t = boxFirst; t < frontEnd; ++t) {
      ASSERT_TRUE(drawn[t]) << "frame " << f << ": box triangle " << t << " culled";
    }
    total.occludersPrepassed += stats.occludersPrepassed;
  }
  EXPECT_GT(total.occludersPrepassed, 0u);
}

// At a fixed pose the prepass's list is steady from the second frame on, with per-triangle
// tests and with whole nodes (testTriangles = false, where the traversal has no triangle loop of
// its own to carry the prepassed occluders over: it once lost them every other frame).
TEST(OcclusionCull, PrepassListIsSteadyAtAFixedPose) {
  TestLevel level = arenaLevel();
  ASSERT_TRUE(level.octree.build(level.positions, level.indices).ok);
  level.ranges.build(level.octree, level.drawn);
  // The pose, of 30 random ones, whose fresh cull rasterizes the most occluder pixels.
  const std::vector<glm::mat4> poses = randomPoses(level, 30, 3);
  ASSERT_FALSE(poses.empty());
  glm::mat4 pose = poses[0];
  {
    OcclusionCuller fresh;
    fresh.build(level.octree, level.ranges);
    OcclusionCullParams params;
    params.temporalCoherence = false;
    DrawRunList runs;
    uint32_t most = 0;
    for (const glm::mat4& vp : poses) {
      OcclusionCullStats s;
      fresh.cull(level.octree, level.ranges, vp, &runs, &s, params);
      if (s.occluderPixels > most) {
        most = s.occluderPixels;
        pose = vp;
      }
    }
  }
  for (const bool testTriangles : {true, false}) {
    OcclusionCuller culler;
    culler.build(level.octree, level.ranges);
    OcclusionCullParams params;
    params.testTriangles = testTriangles;
    DrawRunList runs;
    uint32_t second = 0;
    for (int f = 0; f < 8; ++f) {
      OcclusionCullStats s;
      culler.cull(level.octree, level.ranges, pose, &runs, &s, params);
      if (f == 0) {
        EXPECT_EQ(s.occludersPrepassed, 0u);
        continue;
      }
      if (f == 1) second = s.occludersPrepassed;
      EXPECT_GT(s.occludersPrepassed, 0u) << "testTriangles " << testTriangles << ", frame " << f;
      EXPECT_EQ(s.occludersPrepassed, second)
          << "testTriangles " << testTriangles << ", frame " << f;
    }
  }
}

TEST(OcclusionReference, CollisionWorld) {
  checkShared("collision-world", false, 21);
}
TEST(OcclusionReference, OaDm1) {
  checkShared("oa_dm1", true, 31);
}
TEST(OcclusionReference, OaDm5) {
  checkShared("oa_dm5", true, 41);
}
TEST(OcclusionReference, OnsReborn) {
  checkShared("ons-reborn", true, 51);
}

}  // namespace
}  // namespace ofps
