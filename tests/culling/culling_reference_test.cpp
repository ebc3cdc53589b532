// Culling checked both ways against a reference that shares no code with it: the clip-space
// inequalities -w <= x, y, z <= w evaluated in double precision on the eight corners of a box,
// straight from the view-projection matrix (no plane extraction, no p-vertex). A box is outside
// when all its corners fail one inequality, inside when all corners pass all six.
// - classifyAabb gives exactly that answer, and clears exactly the planes all corners pass;
// - the octree's draw runs hold no triangle of a node that is outside, and every triangle whose
//   own box is not outside;
// - the grid's cull reports every prop that is not outside and none that is.
// Boxes with a corner within rounding of a plane are skipped (either answer is right there).
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/geometric.hpp>
#include <random>
#include <vector>

#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/culling/frustum.h"
#include "octree_fps/culling/grid_cull.h"
#include "octree_fps/spatial/hash_grid.h"
#include "octree_fps/spatial/octree.h"
#include "support/random_soup.h"

namespace ofps {
namespace {

enum class Ref { Outside, Intersecting, Inside, Ambiguous };

struct RefResult {
  Ref containment = Ref::Ambiguous;
  uint32_t insidePlanes =
      0;  // planes (Frustum order: left, right, bottom, top, near, far) all corners pass
};

// Frustum order: left x >= -w, right x <= w, bottom y >= -w, top y <= w, near z >= -w, far z <= w.
RefResult referenceClassify(const glm::mat4& vp, const Aabb& box) {
  RefResult r;
  bool allInsideAll = true, ambiguous = false;
  std::array<int, 6> outsideCount{}, insideCount{};
  for (int c = 0; c < 8; ++c) {
    const double p[3] = {(c & 1) ? box.max.x : box.min.x, (c & 2) ? box.max.y : box.min.y,
                         (c & 4) ? box.max.z : box.min.z};
    double clip[4]{}, mag[4]{};  // {}: GCC 12 for ARM64 cannot see the loop fill them
    for (int row = 0; row < 4; ++row) {
      clip[row] = vp[3][row];
      mag[row] = std::fabs(vp[3][row]);
      for (int k = 0; k < 3; ++k) {
        clip[row] += static_cast<double>(vp[k][row]) * p[k];
        mag[row] += std::fabs(static_cast<double>(vp[k][row]) * p[k]);
      }
    }
    for (int plane = 0; plane < 6; ++plane) {
      const int axis = plane / 2;
      const double value = (plane % 2 == 0) ? clip[3] + clip[axis] : clip[3] - clip[axis];
      const double scale = mag[3] + mag[axis];
      if (std::fabs(value) <= 1e-5 * scale + 1e-30) ambiguous = true;
      if (value >= 0) {
        ++insideCount[plane];
      } else {
        ++outsideCount[plane];
        allInsideAll = false;
      }
    }
  }
  for (int plane = 0; plane < 6; ++plane) {
    if (insideCount[plane] == 8) r.insidePlanes |= 1u << plane;
  }
  if (ambiguous) return r;
  bool outside = false;
  for (int plane = 0; plane < 6; ++plane) outside = outside || outsideCount[plane] == 8;
  r.containment = outside ? Ref::Outside : (allInsideAll ? Ref::Inside : Ref::Intersecting);
  return r;
}

glm::mat4 randomViewProjection(std::mt19937& rng, float extent) {
  std::uniform_real_distribution<float> pos(-extent, extent), fov(0.4f, 2.0f), aspect(0.5f, 2.5f);
  std::uniform_real_distribution<float> nearPlane(0.01f, 1.0f), far(extent * 0.3f, extent * 4.0f);
  const glm::vec3 eye(pos(rng), pos(rng), pos(rng));
  glm::vec3 target(pos(rng), pos(rng), pos(rng));
  if (glm::length(target - eye) < 1e-2f) target += glm::vec3(1.0f, 0.0f, 0.0f);
  glm::vec3 up(0.0f, 1.0f, 0.0f);
  if (std::abs(glm::dot(glm::normalize(target - eye), up)) > 0.99f) up = {1.0f, 0.0f, 0.0f};
  return glm::perspective(fov(rng), aspect(rng), nearPlane(rng), far(rng)) *
         glm::lookAt(eye, target, up);
}

Aabb randomBox(std::mt19937& rng, float extent) {
  std::uniform_real_distribution<float> pos(-extent, extent), half(0.01f, extent * 0.3f);
  return Aabb::fromCenterHalfExtents({pos(rng), pos(rng), pos(rng)},
                                     {half(rng), half(rng), half(rng)});
}

TEST(CullingReference, ClassifyAabbMatchesClipSpaceCorners) {
  std::mt19937 rng(501);
  int counts[3] = {0, 0, 0};
  for (int pose = 0; pose < 400; ++pose) {
    const glm::mat4 vp = randomViewProjection(rng, 20.0f);
    const Frustum frustum = Frustum::fromViewProjection(vp);
    for (int i = 0; i < 200; ++i) {
      const Aabb box = randomBox(rng, 25.0f);
      const RefResult ref = referenceClassify(vp, box);
      if (ref.containment == Ref::Ambiguous) continue;
      uint32_t mask = kFrustumAllPlanes;
      const Containment got = classifyAabb(frustum, box, mask);
      const Ref gotRef = got == Containment::Outside  ? Ref::Outside
                         : got == Containment::Inside ? Ref::Inside
                                                      : Ref::Intersecting;
      ASSERT_EQ(static_cast<int>(gotRef), static_cast<int>(ref.containment))
          << "pose " << pose << " box " << i;
      ++counts[static_cast<int>(ref.containment)];
      if (got != Containment::Outside) {
        // Exactly the planes every corner passes are cleared from the mask.
        ASSERT_EQ(mask, kFrustumAllPlanes & ~ref.insidePlanes) << "pose " << pose << " box " << i;
      }
    }
  }
  // Every answer occurs often (a reference that never says "outside" would prove nothing).
  EXPECT_GT(counts[0], 10000);
  EXPECT_GT(counts[1], 2000);
  EXPECT_GT(counts[2], 200);
}

TEST(CullingReference, DrawRunsHoldNoOutsideNodeAndEveryVisibleTriangle) {
  std::mt19937 rng(502);
  const std::vector<Triangle> soup = test::makeRandomSoup(9);
  Octree octree;
  OctreeBuildParams params;
  params.trianglesPerLeaf = 4;
  ASSERT_TRUE(octree.build(soup, {}, params).ok);
  DrawRanges ranges;
  ranges.build(octree, {});
  // Node owning each slot, and each drawn triangle's slot.
  std::vector<uint32_t> nodeOfSlot(octree.triangleCount());
  for (uint32_t n = 0; n < octree.nodeCount(); ++n) {
    const TriangleRange own = octree.ownRange(n);
    for (uint32_t s = own.first; s < own.first + own.count; ++s) nodeOfSlot[s] = n;
  }
  std::vector<uint32_t> slotOfOriginal(soup.size());
  for (uint32_t s = 0; s < octree.triangleCount(); ++s)
    slotOfOriginal[octree.triangleOrder()[s]] = s;
  int culledOutsideNodes = 0, visibleChecked = 0;
  DrawRunList runs;
  for (int pose = 0; pose < 150; ++pose) {
    const glm::mat4 vp = randomViewProjection(rng, 10.0f);
    ranges.cull(octree, Frustum::fromViewProjection(vp), &runs);
    std::vector<uint8_t> inRuns(ranges.drawnTriangles(), 0);
    for (size_t i = 0; i < runs.first.size(); ++i) {
      for (uint32_t k = 0; k < runs.count[i]; ++k) inRuns[runs.first[i] + k] = 1;
    }
    std::vector<Ref> nodeRef(octree.nodeCount());
    for (uint32_t n = 0; n < octree.nodeCount(); ++n)
      nodeRef[n] = referenceClassify(vp, octree.nodeBounds(n)).containment;
    for (uint32_t d = 0; d < ranges.drawnTriangles(); ++d) {
      const uint32_t original = ranges.drawOrder()[d];
      const uint32_t node = nodeOfSlot[slotOfOriginal[original]];
      if (inRuns[d]) {
        ASSERT_NE(static_cast<int>(nodeRef[node]), static_cast<int>(Ref::Outside))
            << "pose " << pose << ": triangle " << original << " drawn from node " << node
            << ", which is outside";
      } else if (nodeRef[node] == Ref::Outside) {
        ++culledOutsideNodes;
      }
      const Ref own = referenceClassify(vp, soup[original].bounds()).containment;
      if (own == Ref::Inside || own == Ref::Intersecting) {
        ++visibleChecked;
        ASSERT_TRUE(inRuns[d]) << "pose " << pose << ": triangle " << original
                               << " is in view but not drawn";
      }
    }
  }
  EXPECT_GT(culledOutsideNodes, 10000);
  EXPECT_GT(visibleChecked, 5000);
}

TEST(CullingReference, GridCullReportsExactlyThePropsNotOutside) {
  std::mt19937 rng(503);
  std::uniform_real_distribution<float> pos(-30.0f, 30.0f), size(0.05f, 0.8f);
  HashGrid grid(1.5f);
  const uint32_t n = 3000;
  std::vector<Aabb> boxes(n);
  for (uint32_t id = 0; id < n; ++id) {
    const glm::vec3 c(pos(rng), pos(rng) * 0.3f, pos(rng));
    if (id % 2 == 0) {
      const float r = size(rng);
      grid.insertSphere(id, c, r);
      boxes[id] = Aabb::fromCenterHalfExtents(c, glm::vec3(r));
    } else {
      const glm::vec3 h(size(rng), size(rng), size(rng));
      grid.insertBox(id, c, h);
      boxes[id] = Aabb::fromCenterHalfExtents(c, h);
    }
  }
  int reported = 0, culled = 0;
  std::vector<uint8_t> seen(n);
  for (int pose = 0; pose < 100; ++pose) {
    const glm::mat4 vp = randomViewProjection(rng, 30.0f);
    std::fill(seen.begin(), seen.end(), 0);
    cullGridFrustum(grid, Frustum::fromViewProjection(vp), [&](uint32_t id) { seen[id] = 1; });
    for (uint32_t id = 0; id < n; ++id) {
      const Ref ref = referenceClassify(vp, grid.object(id).bounds()).containment;
      if (ref == Ref::Ambiguous) continue;
      ASSERT_EQ(seen[id] != 0, ref != Ref::Outside) << "pose " << pose << " prop " << id;
      (seen[id] ? reported : culled) += 1;
    }
  }
  EXPECT_GT(reported, 10000);
  EXPECT_GT(culled, 10000);
}

}  // namespace
}  // namespace ofps
