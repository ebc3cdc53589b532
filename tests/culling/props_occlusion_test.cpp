// Props culled by the occlusion buffer, cells first (culling/props_occlusion.h), against each
// prop's own box test (OcclusionCuller::boxHidden, whose conservative property the occlusion
// buffer tests check).
//
// A level of walls (three boxes' faces) in front of the eye and clustered props behind, before
// and beside them, at random yaws. For every pose: every prop the cells-first pass hides is hidden
// by its own box test too (a cell is only ever hidden when its loose bounds are, and they contain
// each of its props' boxes: asserted for every prop); props the wall cannot hide (in front of
// it) are kept; the survivors keep their order; ids the grid does not hold are kept; and the
// cells did the work they are for (hidden cells whose props went untested).
#include "octree_fps/culling/props_occlusion.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <random>
#include <vector>

#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/culling/occlusion_cull.h"
#include "octree_fps/culling/props_cull.h"
#include "octree_fps/spatial/hash_grid.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {
namespace {

// The faces of an axis-aligned box, as twelve triangles.
void addBox(const glm::vec3& lo, const glm::vec3& hi, std::vector<glm::vec3>* positions,
            std::vector<uint32_t>* indices) {
  const uint32_t base = static_cast<uint32_t>(positions->size());
  for (int i = 0; i < 8; ++i) {
    positions->push_back({(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z});
  }
  const uint32_t faces[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4},
                                {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& f : faces) {
    for (const uint32_t k : {f[0], f[1], f[2], f[0], f[2], f[3]}) indices->push_back(base + k);
  }
}

// The boxes' faces as a level: its octree, draw ranges and occlusion culler.
struct BoxLevel {
  Octree octree;
  DrawRanges ranges;
  OcclusionCuller culler;
};
void buildLevel(const std::vector<glm::vec3>& positions, const std::vector<uint32_t>& indices,
                BoxLevel* level) {
  ASSERT_TRUE(level->octree.build(positions, indices).ok);
  level->ranges.build(level->octree, {});
  level->culler.build(level->octree, level->ranges);
}

TEST(PropsOcclusion, CellsFirstHideOnlyWhatEachBoxTestHides) {
  // Walls 10 m ahead across the eye's view (the eye at the origin, 1.7 m up, looking along -z
  // give or take the yaw), a floor under everything.
  std::vector<glm::vec3> positions;
  std::vector<uint32_t> indices;
  addBox({-30.0f, 0.0f, -11.0f}, {30.0f, 8.0f, -10.0f}, &positions, &indices);
  addBox({-4.0f, 0.0f, 6.0f}, {4.0f, 8.0f, 7.0f}, &positions, &indices);  // behind the eye
  addBox({-60.0f, -1.0f, -60.0f}, {60.0f, 0.0f, 60.0f}, &positions, &indices);
  BoxLevel level;
  ASSERT_NO_FATAL_FAILURE(buildLevel(positions, indices, &level));
  OcclusionCuller& culler = level.culler;

  // Props: piles (several to a 1 m cell) behind the wall, in front of it, and beyond its ends.
  HashGrid grid(1.0f);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  uint32_t id = 0;
  std::vector<uint32_t> frontIds;
  const auto pile = [&](const glm::vec3& centre, float spread, int count, bool front) {
    for (int k = 0; k < count; ++k) {
      const glm::vec3 c = centre + glm::vec3(u(rng) - 0.5f, u(rng), u(rng) - 0.5f) * spread;
      const glm::vec3 half = glm::vec3(u(rng), u(rng), u(rng)) * 0.3f + 0.05f;
      grid.insertBox(id, c + glm::vec3(0.0f, half.y, 0.0f), half);
      if (front) frontIds.push_back(id);
      ++id;
    }
  };
  for (int p = 0; p < 40; ++p) {
    const float x = (u(rng) - 0.5f) * 50.0f, z = -12.0f - u(rng) * 30.0f;
    pile({x, 0.0f, z}, 1.5f, 12, false);  // behind the wall (taller piles may show over it)
  }
  for (int p = 0; p < 10; ++p) {
    pile({(u(rng) - 0.5f) * 12.0f, 0.0f, -3.0f - u(rng) * 5.0f}, 1.0f, 6, true);  // in front
  }
  for (int p = 0; p < 10; ++p) {
    pile({(u(rng) < 0.5f ? -1.0f : 1.0f) * (32.0f + u(rng) * 10.0f), 0.0f, -15.0f - u(rng) * 20.0f},
         1.5f, 8, false);  // beyond the wall's ends
  }
  // Every prop's box lies inside its cell's loose bounds (what a hidden cell relies on).
  for (uint32_t i = 0; i < id; ++i) {
    const Aabb loose =
        OctreeCellLinks::looseCellBounds(grid, grid.cellIndexOf(i), grid.maxExtent());
    const Aabb box = grid.object(i).bounds();
    for (int a = 0; a < 3; ++a) {
      ASSERT_LE(loose.min[a], box.min[a]) << "prop " << i;
      ASSERT_GE(loose.max[a], box.max[a]) << "prop " << i;
    }
  }

  std::vector<uint64_t> scratch;
  PropsOcclusionStats total;
  uint64_t hiddenByBoxes = 0, hiddenByCells = 0;
  for (int pose = 0; pose < 24; ++pose) {
    const float yaw = (u(rng) - 0.5f) * 1.2f;  // radians either side of -z
    const glm::vec3 eye(0.0f, 1.7f, 0.0f);
    const glm::vec3 fwd(std::sin(yaw), -0.05f, -std::cos(yaw));
    const glm::mat4 vp = glm::perspective(1.2f, 16.0f / 9.0f, 0.05f, 500.0f) *
                         glm::lookAt(eye, eye + fwd, glm::vec3(0.0f, 1.0f, 0.0f));
    DrawRunList runs;
    culler.cull(level.octree, level.ranges, vp, &runs);
    // The props in view (as the demo's frustum cull would list them), plus one id the grid
    // does not hold, in a shuffled order.
    std::vector<uint32_t> ids;
    const Frustum frustum = Frustum::fromViewProjection(vp);
    for (uint32_t i = 0; i < id; ++i) {
      uint32_t mask = kFrustumAllPlanes;
      if (classifyAabb(frustum, grid.object(i).bounds(), mask) != Containment::Outside) {
        ids.push_back(i);
      }
    }
    ids.push_back(id + 7);
    std::shuffle(ids.begin(), ids.end(), rng);
    std::vector<uint8_t> boxHidden(id + 8, 0);
    for (const uint32_t i : ids) {
      if (i < id) boxHidden[i] = culler.boxHidden(grid.object(i).bounds()) ? 1 : 0;
    }
    std::vector<uint32_t> kept = ids, hidden;
    PropsOcclusionStats st;
    const uint32_t n = occludeProps(culler, grid, kept, &scratch, &hidden, &st);
    kept.resize(n);
    ASSERT_EQ(n + hidden.size(), ids.size());
    ASSERT_EQ(st.propsOccluded, hidden.size());
    for (const uint32_t i : hidden) {
      ASSERT_LT(i, id) << "an id the grid does not hold was hidden";
      ASSERT_TRUE(boxHidden[i]) << "pose " << pose << ": prop " << i
                                << " hidden by its cell, but not by its own box";
    }
    for (const uint32_t i : frontIds) {
      ASSERT_TRUE(std::find(hidden.begin(), hidden.end(), i) == hidden.end())
          << "pose " << pose << ": prop " << i << " in front of the wall was hidden";
    }
    // The survivors in their first order: a subsequence of ids.
    size_t at = 0;
    for (const uint32_t i : kept) {
      while (at < ids.size() && ids[at] != i) ++at;
      ASSERT_LT(at, ids.size()) << "pose " << pose << ": order not kept";
      ++at;
    }
    ASSERT_TRUE(std::find(kept.begin(), kept.end(), id + 7) != kept.end());
    for (const uint32_t i : ids) hiddenByBoxes += i < id && boxHidden[i] ? 1 : 0;
    hiddenByCells += hidden.size();
    total.cellsTested += st.cellsTested;
    total.cellsOccluded += st.cellsOccluded;
    total.propsTested += st.propsTested;
  }
  // Meaningful: the wall hid props, most of them by their cells, untested one by one.
  EXPECT_GT(hiddenByBoxes, 100u);
  EXPECT_GT(total.cellsOccluded, 20u);
  EXPECT_LT(total.propsTested + total.cellsTested, hiddenByBoxes + total.propsTested);
  // How close the cells come to the boxes' answer (printed, not asserted: a cell's loose
  // bounds are larger than its props, so some hidden props are kept by a visible cell).
  std::printf(
      "[ props ] %llu of %llu props the box tests hide were hidden cells first; %u of %u "
      "cells hidden, %u boxes tested\n",
      static_cast<unsigned long long>(hiddenByCells),
      static_cast<unsigned long long>(hiddenByBoxes), total.cellsOccluded, total.cellsTested,
      total.propsTested);
}

// A low wall with tall props behind it: many stick out over the wall while the bare cell they
// stand in is hidden. Their cells' loose bounds (grown by the largest half extent) are what keeps
// them: a cell test with the bare cell box would hide them.
TEST(PropsOcclusion, PropsOverhangingAHiddenCellAreKept) {
  std::vector<glm::vec3> positions;
  std::vector<uint32_t> indices;
  addBox({-30.0f, 0.0f, -11.0f}, {30.0f, 2.0f, -10.0f}, &positions, &indices);
  addBox({-60.0f, -1.0f, -60.0f}, {60.0f, 0.0f, 60.0f}, &positions, &indices);
  BoxLevel level;
  ASSERT_NO_FATAL_FAILURE(buildLevel(positions, indices, &level));
  OcclusionCuller& culler = level.culler;
  const glm::vec3 eye(0.0f, 1.7f, 0.0f);
  const glm::mat4 vp = glm::perspective(1.2f, 16.0f / 9.0f, 0.05f, 500.0f) *
                       glm::lookAt(eye, eye + glm::vec3(0.0f, 0.0f, -1.0f), glm::vec3(0, 1, 0));
  DrawRunList runs;
  culler.cull(level.octree, level.ranges, vp, &runs);

  // Pairs of props in cells at y in [1, 2), 14-20 m away: a small one low in the cell (hidden)
  // and a tall one whose top reaches 2.6-2.9 m, over the wall's shadow there.
  HashGrid grid(1.0f);
  std::vector<uint32_t> ids;
  uint32_t id = 0;
  for (int k = 0; k < 20; ++k) {
    const float x = -9.5f + static_cast<float>(k), z = -14.5f - static_cast<float>(k % 6);
    grid.insertBox(id, {x, 1.2f, z}, glm::vec3(0.1f));
    ids.push_back(id++);
    grid.insertBox(id, {x + 0.2f, 1.8f, z}, glm::vec3(0.2f, 0.8f + 0.015f * k, 0.2f));
    ids.push_back(id++);
  }
  std::vector<uint64_t> scratch;
  std::vector<uint32_t> kept = ids, hidden;
  PropsOcclusionStats st;
  kept.resize(occludeProps(culler, grid, kept, &scratch, &hidden, &st));
  uint32_t tallVisible = 0, smallHidden = 0;
  for (uint32_t i = 0; i < id; ++i) {
    const bool own = culler.boxHidden(grid.object(i).bounds());
    const bool cellsFirst = std::find(hidden.begin(), hidden.end(), i) != hidden.end();
    ASSERT_FALSE(cellsFirst && !own) << "prop " << i << " hidden by its cell but visible";
    tallVisible += (i % 2 == 1 && !own) ? 1 : 0;
    smallHidden += (i % 2 == 0 && own) ? 1 : 0;
  }
  // Meaningful: tall props do show over the wall, and the small ones beside them are hidden.
  EXPECT_GT(tallVisible, 10u);
  EXPECT_GT(smallHidden, 10u);
  EXPECT_EQ(st.cellsTested, 20u);  // every cell holds a pair
}

}  // namespace
}  // namespace ofps
