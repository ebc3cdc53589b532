// One front-to-back traversal for frustum and occlusion culling (contracts in occlusion_cull.h).
#include "octree_fps/culling/occlusion_cull.h"

#include <algorithm>
#include <cmath>

#include "octree_fps/culling/frustum.h"
#include "octree_fps/culling/occlusion_isa_inl.h"
#include "octree_fps/geometry/frustum_inl.h"
#include "octree_fps/geometry/simd4.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {

namespace {

uint32_t drawnIn(const DrawRanges& ranges, uint32_t first, uint32_t count) {
  return ranges.drawnBefore(first + count) - ranges.drawnBefore(first);
}

}  // namespace

OcclusionCullStats& OcclusionCullStats::operator+=(const OcclusionCullStats& o) {
  nodesTested += o.nodesTested;
  nodesFrustumCulled += o.nodesFrustumCulled;
  nodesOcclusionTested += o.nodesOcclusionTested;
  nodesOccluded += o.nodesOccluded;
  trianglesDrawnFrustumOnly += o.trianglesDrawnFrustumOnly;
  trianglesDrawn += o.trianglesDrawn;
  trianglesOccluded += o.trianglesOccluded;
  trianglesOutsideFrustum += o.trianglesOutsideFrustum;
  occludersRasterized += o.occludersRasterized;
  occluderPixels += o.occluderPixels;
  nodesAssumedVisible += o.nodesAssumedVisible;
  trianglesAssumedVisible += o.trianglesAssumedVisible;
  occludersPrepassed += o.occludersPrepassed;
  work += o.work;
  budgetBoxesOnly += o.budgetBoxesOnly;
  budgetExhausted += o.budgetExhausted;
  nodesPastBudget += o.nodesPastBudget;
  return *this;
}

OcclusionCuller::OcclusionCuller(uint32_t width, uint32_t height) : buffer_(width, height) {}

void OcclusionCuller::build(const Octree& octree, const DrawRanges& ranges,
                            std::span<const uint8_t> occluders) {
  const uint32_t slots = octree.triangleCount();
  const std::span<const uint32_t> order = octree.triangleOrder();
  // Padded to whole blocks of four slots (padding: not drawn), so that the traversal reads and
  // writes a block's four flags as one 32-bit word.
  slotFlags_.assign(paddedSlots(slots), 0);
  for (uint32_t s = 0; s < slots; ++s) {
    const bool drawn = drawnIn(ranges, s, 1) != 0;
    const uint32_t original = order[s];
    const bool occluder =
        occluders.empty() || (original < occluders.size() && occluders[original] != 0);
    slotFlags_[s] =
        static_cast<uint8_t>((drawn ? kSlotDrawn : 0) | (drawn && occluder ? kSlotOccluder : 0));
  }
  // Occluder pairs: two occluders of the same node that share an edge (bitwise equal end
  // points), matched greedily in slot order, each with at most kPairSearch slots after it.
  pairPartner_.assign(slots, kOctreeInvalidIndex);
  pairCode_.assign(slots, 0);
  std::vector<uint8_t> paired(slots, 0);
  constexpr uint32_t kPairSearch = 32;
  for (uint32_t n = 0; n < octree.nodeCount(); ++n) {
    const TriangleRange own = octree.ownRange(n);
    const uint32_t end = own.first + own.count;
    for (uint32_t i = own.first; i < end; ++i) {
      if (paired[i] || (slotFlags_[i] & kSlotOccluder) == 0) continue;
      const Triangle t = octree.triangle(i);
      const glm::vec3 a[3] = {t.v0, t.v1, t.v2};
      for (uint32_t j = i + 1; j < end && j <= i + kPairSearch && !paired[i]; ++j) {
        if (paired[j] || (slotFlags_[j] & kSlotOccluder) == 0) continue;
        const Triangle u = octree.triangle(j);
        const glm::vec3 b[3] = {u.v0, u.v1, u.v2};
        for (uint32_t ea = 0; ea < 3 && !paired[i]; ++ea) {
          for (uint32_t eb = 0; eb < 3; ++eb) {
            const glm::vec3 &p0 = a[ea], &p1 = a[(ea + 1) % 3];
            const glm::vec3 &q0 = b[eb], &q1 = b[(eb + 1) % 3];
            if ((p0 == q0 && p1 == q1) || (p0 == q1 && p1 == q0)) {
              pairPartner_[i] = j;
              pairCode_[i] = static_cast<uint8_t>(ea | (((eb + 2) % 3) << 2));
              paired[i] = paired[j] = 1;
              break;
            }
          }
        }
      }
    }
  }
  const uint32_t nodes = octree.nodeCount();
  uint32_t largestNode = 0;
  for (uint32_t n = 0; n < nodes; ++n) {
    largestNode = std::max(largestNode, octree.ownRange(n).count);
  }
  nodeRects_.resize(largestNode);
  subtreeEnd_.resize(nodes);
  ownDrawn_.resize(nodes);
  subtreeDrawn_.resize(nodes);
  for (uint32_t n = 0; n < nodes; ++n) {
    const TriangleRange r = octree.subtreeRange(n);
    subtreeEnd_[n] = r.first + r.count;
    subtreeDrawn_[n] = drawnIn(ranges, r.first, r.count);
    const TriangleRange own = octree.ownRange(n);
    ownDrawn_[n] = drawnIn(ranges, own.first, own.count);
  }
  nodeVisibleFrame_.assign(nodes, 0);
  frame_ = 0;
  historyValid_ = false;
  visible_.clear();
  visible_.reserve(nodes);
  runs_.clear();
  runs_.reserve(slots);
  runsSorted_.clear();
  runsSorted_.reserve(slots);
  occluders_.clear();
  occluders_.reserve(slots);
  lastOccluders_.clear();
  lastOccluders_.reserve(slots);
}

uint32_t OcclusionCuller::frustumOnlyTriangles(const Octree& octree, const Frustum& frustum,
                                               uint32_t node, uint32_t mask) const {
  // The node itself already passed the frustum with `mask`; below it, cullOctree's rules.
  struct Entry {
    uint32_t node, mask;
  };
  Entry stack[kOctreeStackSize];
  uint32_t top = 0, count = 0;
  stack[top++] = {node, mask};
  while (top > 0) {
    const Entry e = stack[--top];
    uint32_t m = e.mask;
    if (e.node != node &&
        classifyAabb(frustum, octree.nodeBounds(e.node), m) == Containment::Outside) {
      continue;
    }
    if (m == 0) {
      count += subtreeDrawn_[e.node];
      continue;
    }
    count += ownDrawn_[e.node];
    const uint32_t child = octree.firstChild(e.node);
    for (uint32_t i = octree.childCount(e.node); i-- > 0;) stack[top++] = {child + i, m};
  }
  return count;
}

void OcclusionCuller::cull(const Octree& octree, const DrawRanges& ranges,
                           const glm::mat4& viewProjection, DrawRunList* out,
                           OcclusionCullStats* ioStats, const OcclusionCullParams& params) {
  // The kernels of the instruction set octreeSimd() names (occlusion_isa_inl.h).
#if defined(OFPS_OCCLUSION_AVX2)
  if (octreeSimd() == OctreeSimd::kAvx2) {
    cullT<detail::OcclusionIsaAvx2>(octree, ranges, viewProjection, out, ioStats, params);
    return;
  }
#endif
  cullT<detail::OcclusionIsaBaseline>(octree, ranges, viewProjection, out, ioStats, params);
}

void subtractRuns(const DrawRunList& all, const DrawRunList& part, DrawRunList* out) {
  out->clear();
  size_t j = 0;  // first run of `part` that may still overlap the current run of `all`
  for (size_t i = 0; i < all.first.size(); ++i) {
    uint32_t begin = all.first[i];
    const uint32_t end = all.first[i] + all.count[i];
    while (j < part.first.size() && part.first[j] + part.count[j] <= begin) ++j;
    // Cut every run of `part` that starts before `end` out of [begin, end); the last one may
    // reach into the next run of `all`, so j stays on it.
    for (size_t k = j; k < part.first.size() && part.first[k] < end && begin < end; ++k) {
      if (part.first[k] > begin) {
        out->first.push_back(begin);
        out->count.push_back(part.first[k] - begin);
        out->triangles += part.first[k] - begin;
      }
      begin = std::max(begin, part.first[k] + part.count[k]);
    }
    if (begin < end) {
      out->first.push_back(begin);
      out->count.push_back(end - begin);
      out->triangles += end - begin;
    }
  }
}

}  // namespace ofps
