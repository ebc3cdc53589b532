#pragma once
// Internal to the core (src/octree_fps/culling; not an installed interface): the occlusion cull's
// traversal, as member templates on the instruction set (occlusion_isa_inl.h). Included only by
// occlusion_kernels.cpp and occlusion_kernels_avx2.cpp, each instantiating it for its own target;
// occlusion_cull.cpp dispatches. Contracts: occlusion_cull.h.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "octree_fps/culling/frustum.h"
#include "octree_fps/culling/occlusion_cull.h"
#include "octree_fps/geometry/bit_cast.h"
#include "octree_fps/geometry/frustum_inl.h"
#include "octree_fps/geometry/simd4.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {

namespace {

#include "octree_fps/spatial/bit_counts_inl.h"
#include "octree_fps/spatial/sort_networks_inl.h"

// The eye of a perspective view-projection: the point with clip x = y = w = 0 (Cramer's rule on
// rows 0, 1 and 3, in double). A singular matrix (not a perspective one) gives the origin; the
// eye only orders children, so a wrong eye costs culling, never correctness.
inline glm::dvec3 eyeOf(const glm::mat4& m) {
  const int rows[3] = {0, 1, 3};
  double a[3][3], r[3];
  for (int i = 0; i < 3; ++i) {
    for (int k = 0; k < 3; ++k) a[i][k] = m[k][rows[i]];
    r[i] = -static_cast<double>(m[3][rows[i]]);
  }
  const auto det3 = [](const double(&q)[3][3]) {
    return q[0][0] * (q[1][1] * q[2][2] - q[1][2] * q[2][1]) -
           q[0][1] * (q[1][0] * q[2][2] - q[1][2] * q[2][0]) +
           q[0][2] * (q[1][0] * q[2][1] - q[1][1] * q[2][0]);
  };
  const double d = det3(a);
  if (!(std::fabs(d) > 0.0)) return glm::dvec3(0.0);
  double out[3];
  for (int k = 0; k < 3; ++k) {
    double b[3][3];
    for (int i = 0; i < 3; ++i) {
      for (int c = 0; c < 3; ++c) b[i][c] = c == k ? r[i] : a[i][c];
    }
    out[k] = det3(b) / d;
  }
  return {out[0], out[1], out[2]};
}

// Sorts runs by first slot: least-significant-digit radix sort, 11-bit digits, only as many
// passes as the largest slot needs (two up to 4M slots). A frame has a thousand or more runs; a
// comparison sort (std::sort) cost about 1 % of the pass's instructions more on open terrain.
// Stable, O(runs + 2^11) per pass, no allocation (scratch has runs' capacity). The result ends in
// runs.
template <class Run>
inline void radixSortByFirst(std::vector<Run>& runs, std::vector<Run>& scratch) {
  constexpr uint32_t kBits = 11, kBuckets = 1u << kBits;
  uint32_t largest = 0;
  for (const Run& r : runs) largest = std::max(largest, r.first);
  scratch.resize(runs.size());
  for (uint32_t shift = 0; shift < 32 && (largest >> shift) != 0; shift += kBits) {
    uint32_t offset[kBuckets] = {};
    for (const Run& r : runs) ++offset[(r.first >> shift) & (kBuckets - 1)];
    uint32_t sum = 0;
    for (uint32_t& o : offset) {
      const uint32_t c = o;
      o = sum;
      sum += c;
    }
    for (const Run& r : runs) scratch[offset[(r.first >> shift) & (kBuckets - 1)]++] = r;
    runs.swap(scratch);
  }
}

// A block's four slot flags read as one little-endian word w (byte i: lane i). laneBits: bit i
// set when lane i has `flag` (one bit); laneBytes: lane mask m spread to one bit per byte (times
// a flag, that flag in the byte of every lane in m); their lanes are counted by laneCount
// (bit_counts_inl.h). Multiplying by 0x01020408 moves byte i's low bit to bit 24 + i; by
// 0x00204081, bit i to bit 8 i; neither product has two terms on one bit, so no carry mixes
// them.
static_assert(std::endian::native == std::endian::little, "a flag word's byte i is lane i");
inline uint32_t laneBits(uint32_t w, uint8_t flag) {
  const uint32_t low = (w >> std::countr_zero(static_cast<uint32_t>(flag))) & 0x01010101u;
  return (low * 0x01020408u) >> 24;
}
inline uint32_t laneBytes(uint32_t m) {
  return (m * 0x00204081u) & 0x01010101u;
}

// The occluders' share of OcclusionCullParams::workBudget's meter (the prepass's and the
// traversal's alike).
inline uint64_t occluderWork(const OcclusionCullStats& st) {
  return uint64_t{OcclusionWork::kOccluder} * st.occludersRasterized +
         uint64_t{OcclusionWork::kPixelEighths} * st.occluderPixels / 8u;
}

}  // namespace

inline void OcclusionCuller::keepPrepassed(uint32_t slot) {
  // In from the prepass, and visible: next cull's prepass takes it again if it raised a pixel
  // (a pair by its first slot, the one the entry names; the partner is later in the node).
  const uint8_t f = slotFlags_[slot];
  if ((f & kSlotWasOccluder) != 0) {
    const uint32_t partner = pairPartner_[slot];
    const bool pair =
        partner != kOctreeInvalidIndex && (slotFlags_[partner] & kSlotPrepassed) != 0 &&
        (slotFlags_[partner] & kSlotHidden) == 0 && (slotFlags_[partner] & kSlotPairDone) == 0;
    if (pair) slotFlags_[partner] |= kSlotPairDone;
    if ((f & kSlotPairDone) == 0) occluders_.push_back(slot | (pair ? kOccluderPair : 0u));
  }
  slotFlags_[slot] = static_cast<uint8_t>(f & ~(kSlotPrepassed | kSlotPairDone));
}

template <class Isa>
bool OcclusionCuller::rasterizeSlotT(const Octree& octree, uint32_t slot, bool pair,
                                     OcclusionCullStats* st) {
  using ClipPoint = OcclusionBuffer::ClipPoint;
  const auto clipOfSlot = [&](uint32_t s, ClipPoint(&out)[3]) {
    const Triangle t = octree.triangle(s);
    out[0] = buffer_.clipOf(t.v0);
    out[1] = buffer_.clipOf(t.v1);
    out[2] = buffer_.clipOf(t.v2);
  };
  ClipPoint a[3];
  clipOfSlot(slot, a);
  if (pair) {
    // Of the partner, only its far corner (the other two are the shared edge's, already in a).
    const uint32_t edge = pairCode_[slot] & 3u, apex = pairCode_[slot] >> 2;
    const uint32_t partner = pairPartner_[slot];
    const OctreeTriangleBlock& block = octree.triangleBlocks()[partner >> 2];
    const uint32_t lane = partner & 3u;
    const ClipPoint far = buffer_.clipOf(
        {block.c[3 * apex][lane], block.c[3 * apex + 1][lane], block.c[3 * apex + 2][lane]});
    st->occludersRasterized += 2;
    st->occluderPixels +=
        buffer_.rasterizeClipTrianglePair(a[(edge + 2) % 3], a[edge], far, a[(edge + 1) % 3]);
  } else {
    ++st->occludersRasterized;
    st->occluderPixels += buffer_.rasterizeClipTriangle(a[0], a[1], a[2]);
  }
  return buffer_.lastOccluderRaised();
}

template <class Isa>
void OcclusionCuller::rasterizeOccluderT(const Octree& octree, uint32_t slot,
                                         const OcclusionCullParams& params, OcclusionCullStats* st,
                                         const OcclusionBuffer::ScreenRect* rects,
                                         uint32_t rectFirst) {
  if ((slotFlags_[slot] & kSlotPrepassed) != 0) {  // in already (the prepass)
    keepPrepassed(slot);
    return;
  }
  if ((slotFlags_[slot] & kSlotPairDone) != 0) {  // went in with its pair's first triangle
    slotFlags_[slot] &= static_cast<uint8_t>(~kSlotPairDone);
    return;
  }
  if ((slotFlags_[slot] & kSlotOccluder) == 0 || st->occludersRasterized >= params.maxOccluders) {
    return;
  }
  // Drawn on last frame's word (temporal coherence), so no rectangle: an occluder that raised no
  // pixel last time is not tried (too small on screen, or behind nearer occluders; its node's next
  // full test tries it again); one that did is rasterized without the precheck.
  const bool untested = (slotFlags_[slot] & kSlotUntested) != 0;
  if (untested && (slotFlags_[slot] & kSlotWasOccluder) == 0) return;
  const uint32_t partner = pairPartner_[slot];
  // The partner is later in the same node: its kSlotHidden bit (set by this node's tests, if it
  // is hidden) is still there.
  const bool pair = partner != kOctreeInvalidIndex && (slotFlags_[partner] & kSlotHidden) == 0 &&
                    st->occludersRasterized + 1 < params.maxOccluders;
  // Most visible triangles are too small on screen to hold a whole pixel, and the setup of an
  // occluder (edge and depth functions in double) costs far more than this look at the
  // rectangle its hidden test already computed; a pair covers pixels only inside the union of
  // its triangles' rectangles. Skipping such an occluder changes no pixel. The partner is
  // marked done all the same, so that it is not tried alone.
  // (The history bit, on both triangles of a pair: set when the occluder raised a pixel, cleared
  // when it was skipped or raised none.)
  const auto remember = [&](bool raised) {
    const auto set = [&](uint32_t s) {
      slotFlags_[s] = static_cast<uint8_t>(raised ? slotFlags_[s] | kSlotWasOccluder
                                                  : slotFlags_[s] & ~kSlotWasOccluder);
    };
    set(slot);
    if (pair) set(partner);
  };
  if (rects != nullptr && !untested && (!pair || (slotFlags_[partner] & kSlotUntested) == 0)) {
    OcclusionBuffer::ScreenRect r = rects[slot - rectFirst];
    if (pair) r = OcclusionBuffer::rectUnion(r, rects[partner - rectFirst]);
    if (!buffer_.mayCoverPixel(r)) {
      if (pair) slotFlags_[partner] |= kSlotPairDone;
      remember(false);
      return;
    }
  }
  if (pair) slotFlags_[partner] |= kSlotPairDone;
  const bool raised = rasterizeSlotT<Isa>(octree, slot, pair, st);
  remember(raised);
  if (raised) occluders_.push_back(slot | (pair ? kOccluderPair : 0u));
}

template <class Isa>
void OcclusionCuller::prepassT(const Octree& octree, const OcclusionCullParams& params,
                               OcclusionCullStats* st) {
  for (const uint32_t entry : lastOccluders_) {
    const uint32_t slot = entry & ~kOccluderPair;
    const bool pair = (entry & kOccluderPair) != 0;
    if (st->occludersRasterized + (pair ? 1u : 0u) >= params.maxOccluders) break;
    if (occluderWork(*st) >= params.workBudget) break;  // the traversal finds it spent too
    st->occludersPrepassed += pair ? 2u : 1u;
    const bool raised = rasterizeSlotT<Isa>(octree, slot, pair, st);
    const auto mark = [&](uint32_t s) {
      slotFlags_[s] = static_cast<uint8_t>((slotFlags_[s] & ~kSlotWasOccluder) | kSlotPrepassed |
                                           (raised ? kSlotWasOccluder : 0));
    };
    mark(slot);
    if (pair) mark(pairPartner_[slot]);
  }
}

template <class Isa>
void OcclusionCuller::retestDrawnT(const Octree& octree, OcclusionCullStats* st) {
  // runs_ is sorted here, so the blocks come in order: each block is tested once with all its
  // drawn slots in runs, and two blocks (adjacent or not) go to each eight-lane test.
  const OctreeTriangleBlock* blocks = octree.triangleBlocks().data();
  uint32_t pending = 0, pendingLanes = 0;  // a block waiting for a partner (lanes != 0)
  const auto test = [&](uint32_t b0, uint32_t lanes0, uint32_t b1, uint32_t lanes1) {
    OcclusionBuffer::ScreenRect rects[8];
    uint32_t outside = 0;
    const uint32_t lanes = lanes0 | (lanes1 << 4);
    const uint32_t hidden =
        buffer_.trianglesHidden8(blocks[b0].c, blocks[b1].c, lanes, rects, &outside);
    for (uint32_t bits = (hidden | outside) & lanes; bits != 0; bits &= bits - 1) {
      const uint32_t i = static_cast<uint32_t>(std::countr_zero(bits));
      const uint32_t s = 4 * (i < 4 ? b0 : b1) + (i & 3u);
      slotFlags_[s] |= kSlotHidden;
      ++(((outside >> i) & 1u) != 0 ? st->trianglesOutsideFrustum : st->trianglesOccluded);
    }
  };
  const auto add = [&](uint32_t b, uint32_t lanes) {
    if (lanes == 0) return;
    if (pendingLanes == 0) {
      pending = b;
      pendingLanes = lanes;
      return;
    }
    test(pending, pendingLanes, b, lanes);
    pendingLanes = 0;
  };
  // The drawn slots of the runs, gathered block by block (a block may hold slots of two runs).
  uint32_t block = 0, lanes = 0;
  for (const SlotRun& r : runs_) {
    for (uint32_t s = r.first; s < r.first + r.count; ++s) {
      if ((s >> 2) != block) {
        add(block, lanes);
        block = s >> 2;
        lanes = 0;
      }
      if ((slotFlags_[s] & kSlotDrawn) != 0) lanes |= 1u << (s & 3u);
    }
  }
  add(block, lanes);
  if (pendingLanes != 0) test(pending, pendingLanes, pending, 0);
  // The runs without their hidden slots (at most one run per slot: runsSorted_'s capacity).
  runsSorted_.clear();
  for (const SlotRun& r : runs_) {
    const uint32_t end = r.first + r.count;
    for (uint32_t s = r.first; s < end;) {
      if ((slotFlags_[s] & kSlotHidden) != 0) {
        slotFlags_[s] &= static_cast<uint8_t>(~kSlotHidden);
        ++s;
        continue;
      }
      const uint32_t first = s;
      while (s < end && (slotFlags_[s] & kSlotHidden) == 0) ++s;
      runsSorted_.push_back({first, s - first});
    }
  }
  runs_.swap(runsSorted_);
}

// One entry of the traversal's stack. It carries its node's bounds: the parent already computed
// them to order its children, and nodeBounds() (dequantizing six planes) is not free.
struct OcclusionCuller::WalkEntry {
  uint32_t node, mask, depth;  // mask: the frustum planes its box straddles; the root's depth 0
  Aabb box;
};

inline OcclusionCuller::History OcclusionCuller::beginHistory(const glm::dvec3& eye,
                                                              const OcclusionCullParams& params) {
  // Temporal coherence: the previous call's stamp, or none (a jump, the first call, a reset).
  const glm::dvec3 moved = eye - lastEye_;
  const double maxMove = static_cast<double>(params.historyMaxEyeMove);
  const bool coherent =
      params.temporalCoherence && historyValid_ && glm::dot(moved, moved) <= maxMove * maxMove;
  if (++frame_ == 0) {  // the stamps wrapped around (2^32 calls): start them again
    std::fill(nodeVisibleFrame_.begin(), nodeVisibleFrame_.end(), 0u);
    frame_ = 1;
  }
  History h;
  h.coherent = coherent;
  h.lastFrame = coherent ? frame_ - 1 : 0;  // 0: no node was visible "last frame"
  h.period = std::max(params.retestPeriod, 1u);
  // The phase test runs for every node visited: a power-of-two period (the default 8) takes a
  // mask instead of a division.
  h.phaseMask = std::has_single_bit(h.period) ? h.period - 1 : 0;
  lastEye_ = eye;
  historyValid_ = true;
  lastOccluders_.swap(occluders_);
  occluders_.clear();
  return h;
}

inline bool OcclusionCuller::assumedVisible(const History& h, uint32_t node) const {
  // Visible in the last frame and not due for its re-test (frame_ + a per-node phase, so that
  // about 1 / period of the assumed nodes are re-tested each frame): no box test. (Combined with
  // & rather than &&: each part is cheap, and the short-circuit branches mispredicted.)
  const uint32_t phase = h.phaseMask != 0 ? (frame_ + node * 2654435761u) & h.phaseMask
                                          : (frame_ + node * 2654435761u) % h.period;
  return (h.lastFrame != 0) & (nodeVisibleFrame_[node] == h.lastFrame) & (phase != 0);
}

// OcclusionCullParams::workBudget's meter (OcclusionWork). trianglesVisited: drawn triangles of
// the visible nodes.
inline uint64_t OcclusionCuller::workSpent(const OcclusionCullStats& st,
                                           uint64_t trianglesVisited) {
  return uint64_t{OcclusionWork::kNodeClassified} * st.nodesTested +
         uint64_t{OcclusionWork::kBoxTested} * st.nodesOcclusionTested +
         uint64_t{OcclusionWork::kTriangleTested} *
             (trianglesVisited - st.trianglesAssumedVisible) +
         uint64_t{OcclusionWork::kTriangleAssumed} * st.trianglesAssumedVisible + occluderWork(st);
}

OFPS_OCCLUSION_INLINE void OcclusionCuller::drawPastBudget(const Octree& octree, const WalkEntry& e,
                                                           OcclusionCullStats& st) {
  // Drawn untested, as DrawRanges::cull would (the same classification, so the same nodes), with
  // no history stamp: next frame tests it afresh if its budget reaches it.
  const OctreeNodeLinks& links = octree.nodeLinks()[e.node];
  ++st.nodesPastBudget;
  if (e.mask == 0) {  // wholly inside the frustum: its subtree is one slot range
    if (subtreeDrawn_[e.node] > 0) {
      runs_.push_back({links.firstTriangle, subtreeEnd_[e.node] - links.firstTriangle});
      st.trianglesDrawnFrustumOnly += subtreeDrawn_[e.node];
    }
    return;
  }
  if (ownDrawn_[e.node] > 0) {
    runs_.push_back({links.firstTriangle, links.ownEnd - links.firstTriangle});
    st.trianglesDrawnFrustumOnly += ownDrawn_[e.node];
  }
}

OFPS_OCCLUSION_INLINE void OcclusionCuller::prefetchOwnTriangles(const Octree& octree,
                                                                 uint32_t node) const {
  // The node's own triangles are read right after its box test when it is visible: start loading
  // their blocks (a cache miss each on the larger levels) now, so that the box test hides the
  // wait. A hidden node wastes the hint, nothing else.
  if (ownDrawn_[node] == 0) return;
  const OctreeNodeLinks& links = octree.nodeLinks()[node];
  const OctreeTriangleBlock* blocks = octree.triangleBlocks().data();
  // Up to four blocks; a fixed count with the addresses clamped to the last block (a line fetched
  // twice costs nothing), since a loop of one to four steps mispredicts its exit.
  const uint32_t firstBlock = links.firstTriangle >> 2, lastBlock = (links.ownEnd - 1) >> 2;
  for (uint32_t k = 0; k < 4; ++k) {
    const char* p = reinterpret_cast<const char*>(&blocks[std::min(firstBlock + k, lastBlock)]);
    simd::prefetch(p);
    simd::prefetch(p + 64);
    simd::prefetch(p + 128);
  }
  simd::prefetch(&slotFlags_[links.firstTriangle]);
  // The occluder pairs are looked up per visible triangle (4 + 1 bytes per slot).
  simd::prefetch(&pairPartner_[links.firstTriangle]);
  simd::prefetch(&pairCode_[links.firstTriangle]);
}

// A block's four slot flags as one word and its lanes as four bits (laneBits above): the per-slot
// branches they replace depend on the data and were mispredicted often.
inline uint32_t OcclusionCuller::flagWord(uint32_t block) const {
  uint32_t w;
  std::memcpy(&w, &slotFlags_[4 * block], 4);
  return w;
}

inline void OcclusionCuller::storeFlagWord(uint32_t block, uint32_t w) {
  std::memcpy(&slotFlags_[4 * block], &w, 4);
}

template <class Isa>
OFPS_OCCLUSION_INLINE void OcclusionCuller::testOwnTrianglesT(const Octree& octree, SlotRun own,
                                                              bool assumed, uint32_t mask,
                                                              const OcclusionCullParams& params,
                                                              OcclusionCullStats& st) {
  // Each drawn triangle against the buffer as it was before this node's occluders (so the answer
  // does not depend on the order within the node), then the visible ones drawn and rasterized. A
  // hidden triangle could not raise any pixel it covers: skipping it as an occluder loses nothing.
  // Four at a time, straight from the octree's blocks (a block may start before the node's range
  // or end after it: those lanes, and undrawn slots, are left out). In an assumed node, the
  // triangles visible last time are drawn untested (no rectangle: kSlotUntested until the run
  // loop below clears it). Two blocks per call (trianglesHidden8: eight lanes wide where the AVX2
  // kernels run); the answers are those of one call per block, since every test in the node reads
  // the buffer before its occluders.
  const OctreeTriangleBlock* blocks = octree.triangleBlocks().data();
  const uint32_t end = own.first + own.count;
  const uint32_t firstBlock = own.first >> 2, lastBlock = (end - 1) >> 2;
  // The lanes of block b inside the node's range [own.first, end).
  const auto rangeLanes = [&](uint32_t b) {
    const uint32_t below = own.first > 4 * b ? own.first - 4 * b : 0u;
    const uint32_t inside = std::min(end - 4 * b, 4u);  // end > 4 b for the node's blocks
    return (0xFu >> (4u - inside)) & ~((1u << below) - 1u);
  };
  // Tested lanes of block b: drawn slots of the node, less those drawn untested (in an assumed
  // node, visible last time: marked kSlotUntested until the run loop below).
  const auto laneMask = [&](uint32_t b) {
    const uint32_t w = flagWord(b);
    const uint32_t drawnLanes = laneBits(w, kSlotDrawn) & rangeLanes(b);
    const uint32_t untested = assumed ? drawnLanes & laneBits(w, kSlotWasVisible) : 0u;
    storeFlagWord(b, w | laneBytes(untested) * kSlotUntested);
    st.trianglesAssumedVisible += laneCount(untested);
    return drawnLanes & ~untested;
  };
  // A tested block's answers into its flags: hidden (or outside) lanes get kSlotHidden and lose
  // their history bits, visible ones get kSlotWasVisible.
  const auto storeAnswers = [&](uint32_t b, uint32_t lanes, uint32_t hidden, uint32_t outside) {
    const uint32_t beyond = outside & lanes, gone = (hidden | outside) & lanes;
    const uint32_t goneBytes = laneBytes(gone);
    const uint32_t w = flagWord(b);
    storeFlagWord(
        b, ((w | goneBytes * kSlotHidden) & ~(goneBytes * (kSlotWasVisible | kSlotWasOccluder))) |
               laneBytes(lanes & ~gone) * kSlotWasVisible);
    st.trianglesOutsideFrustum += laneCount(beyond);
    st.trianglesOccluded += laneCount(gone & ~beyond);
  };
  for (uint32_t b = firstBlock; b <= lastBlock; b += 2) {
    const uint32_t second = b + 1 <= lastBlock ? b + 1 : b;
    const uint32_t lanes0 = laneMask(b), lanes1 = second != b ? laneMask(second) : 0u;
    const uint32_t lanes = lanes0 | (lanes1 << 4);
    if (lanes == 0) continue;
    OcclusionBuffer::ScreenRect rects[8];
    // Triangles outside the frustum are left out too, where the node's box straddles a frustum
    // plane (mask != 0; inside a node wholly in the frustum, none can be).
    uint32_t outside = 0;
    const uint32_t hidden = buffer_.trianglesHidden8(blocks[b].c, blocks[second].c, lanes, rects,
                                                     mask != 0 ? &outside : nullptr);
    // The tested lanes' rectangles, for the occluder precheck (lanes 4-7: block b + 1).
    for (uint32_t bits = lanes; bits != 0; bits &= bits - 1) {
      const uint32_t i = static_cast<uint32_t>(std::countr_zero(bits));
      nodeRects_[4 * b + i - own.first] = rects[i];
    }
    storeAnswers(b, lanes0, hidden & 0xFu, outside & 0xFu);
    if (second != b) storeAnswers(second, lanes1, hidden >> 4, outside >> 4);
  }
  drawVisibleRunsT<Isa>(octree, own, params, st);
}

template <class Isa>
OFPS_OCCLUSION_INLINE void OcclusionCuller::drawVisibleRunsT(const Octree& octree, SlotRun own,
                                                             const OcclusionCullParams& params,
                                                             OcclusionCullStats& st) {
  // The node's slots not marked hidden, as runs; each visible occluder rasterized in slot order.
  const uint32_t end = own.first + own.count;
  for (uint32_t s = own.first; s < end;) {
    if ((slotFlags_[s] & kSlotHidden) != 0) {
      slotFlags_[s] &= static_cast<uint8_t>(~kSlotHidden);
      ++s;
      continue;
    }
    const uint32_t runFirst = s;
    for (; s < end && (slotFlags_[s] & kSlotHidden) == 0; ++s) {
      // Most drawn slots are no occluder this frame (not one at all, or untested and raised
      // nothing last time): rasterizeOccluder's own first checks, without the call.
      const uint8_t f = slotFlags_[s];
      if ((f & kSlotPrepassed) != 0) {
        keepPrepassed(s);
      } else if ((f & (kSlotOccluder | kSlotPairDone)) != 0 &&
                 (f & (kSlotUntested | kSlotWasOccluder | kSlotPairDone)) != kSlotUntested) {
        rasterizeOccluderT<Isa>(octree, s, params, &st, nodeRects_.data(), own.first);
      }
      // Its kSlotUntested is read no more (a pair's first triangle reads its partner's, which
      // comes later): cleared here, unconditionally, rather than in a second loop.
      slotFlags_[s] &= static_cast<uint8_t>(~kSlotUntested);
    }
    runs_.push_back({runFirst, s - runFirst});
  }
}

template <class Isa>
OFPS_OCCLUSION_INLINE uint32_t OcclusionCuller::pushChildrenNearestFirstT(
    const Octree& octree, const WalkEntry& e, const Frustum& frustum, const float (&eye)[3],
    WalkEntry* stack, uint32_t top, OcclusionCullStats& st) const {
  const OctreeNodeLinks& links = octree.nodeLinks()[e.node];
  const uint32_t n = links.childCount;
  if (n == 0) return top;
  const uint32_t first = links.firstChild;
  // Their links and drawn counts are read when they pop (16 and 4 bytes each, side by side).
  for (uint32_t i = 0; i < n; i += 4) simd::prefetch(&octree.nodeLinks()[first + i]);
  simd::prefetch(&ownDrawn_[first]);
  simd::prefetch(&nodeVisibleFrame_[first]);  // read with the history's test when they pop
  // Keys of the children inside the frustum: (squared distance from the eye, as float bits, which
  // order as unsigned integers for non-negative floats) << 32 | child index, so that one integer
  // comparison orders by distance, then by index (the order only speeds the cull up: a tie or a
  // rounding either way is as correct as any other order).
  uint64_t keys[kOctreeMaxChildren] = {};  // entries past the children kept stay 0
  uint32_t masks[kOctreeMaxChildren];
  // The children's bounds, plane by plane; the last group's lanes past n copy child 0 (their
  // answers are ignored, but they must be valid numbers).
  alignas(16) float lo[3][kOctreeMaxChildren], hi[3][kOctreeMaxChildren];
  octree.childBounds(e.node, lo, hi);
  for (uint32_t l = n; l < ((n + 3u) & ~3u); ++l) {
    for (int a = 0; a < 3; ++a) {
      lo[a][l] = lo[a][0];
      hi[a][l] = hi[a][0];
    }
  }
  uint32_t kept = 0;
  // The frustum test four children at a time (detail::classifyAabb4: the same float operations as
  // classifyAabb, so the same answers and masks), and their distances from the eye; those outside
  // are neither sorted nor pushed.
  for (uint32_t g = 0; g < n; g += 4) {
    const uint32_t count = std::min(n - g, 4u);
    const simd::F4 lo4[3] = {simd::load(&lo[0][g]), simd::load(&lo[1][g]), simd::load(&lo[2][g])};
    const simd::F4 hi4[3] = {simd::load(&hi[0][g]), simd::load(&hi[1][g]), simd::load(&hi[2][g])};
    uint32_t outside = 0, groupMasks[4] = {e.mask, e.mask, e.mask, e.mask};
    if (e.mask != 0) {  // a node wholly inside leaves nothing to test below it
      outside = detail::classifyAabb4(frustum, lo4, hi4, e.mask, groupMasks);
    }
    const simd::F4 zero = simd::splat(0.0f);
    simd::F4 distance2 = zero;
    for (int a = 0; a < 3; ++a) {
      const simd::F4 eyeLane = simd::splat(eye[a]);
      const simd::F4 d = simd::max(lo4[a] - eyeLane, zero) + simd::max(eyeLane - hi4[a], zero);
      distance2 = distance2 + d * d;
    }
    alignas(16) float dist[4];
    simd::store(dist, distance2);
    for (uint32_t l = 0; l < count; ++l) {
      ++st.nodesTested;
      if (((outside >> l) & 1u) != 0) {
        ++st.nodesFrustumCulled;
        continue;
      }
      masks[g + l] = groupMasks[l];
      keys[kept++] = (static_cast<uint64_t>(ofps::bitCast<uint32_t>(dist[l])) << 32) | (g + l);
    }
  }
  // Far to near, pushed in that order so that the nearest pops first. The keys are distinct (the
  // child index is in them), so every sort gives the same order: sorting networks (no branches to
  // mispredict; sort_networks_inl.h, shared with the ray walks); the entries past `kept` are 0
  // and sort last.
  if (kept > 8) {
    // Nine to 16: each half by the eight-input network, then a merge without branches.
    sortDescending8(keys);
    sortDescending8(keys + 8);
    uint64_t merged[16];
    uint32_t ia = 0, ib = 8;
    for (uint32_t i = 0; i < 16; ++i) {
      // Past its end a half reads 0, which never wins (the other half's next is >= 0). The choice
      // by arithmetic: the compiler made a branch of the selects.
      const uint64_t x = ia < 8 ? keys[ia] : 0, y = ib < 16 ? keys[ib] : 0;
      const uint32_t fromA = x > y ? 1u : 0u;
      const uint64_t pickA = 0 - static_cast<uint64_t>(fromA);
      merged[i] = (x & pickA) | (y & ~pickA);
      ia += fromA;
      ib += 1u - fromA;
    }
    std::memcpy(keys, merged, sizeof merged);
  } else if (kept > 4) {
    sortDescending8(keys);
  } else if (kept > 1) {
    sortDescending4(keys);
  }
  for (uint32_t i = 0; i < kept; ++i) {
    const uint32_t c = static_cast<uint32_t>(keys[i] & 0xFFu);
    const Aabb childBox{{lo[0][c], lo[1][c], lo[2][c]}, {hi[0][c], hi[1][c], hi[2][c]}};
    stack[top++] = {first + c, masks[c], e.depth + 1, childBox};
  }
  return top;
}

inline void OcclusionCuller::clearPrepassScratch() {
  for (const uint32_t entry : lastOccluders_) {  // those not visited keep no scratch bits
    const uint32_t slot = entry & ~kOccluderPair;
    slotFlags_[slot] &= static_cast<uint8_t>(~(kSlotPrepassed | kSlotPairDone));
    if ((entry & kOccluderPair) != 0) {
      slotFlags_[pairPartner_[slot]] &= static_cast<uint8_t>(~(kSlotPrepassed | kSlotPairDone));
    }
  }
}

// The traversal: nearest child first from the root, every node classified against the frustum
// by its parent, then (under the work budget) its box against the occlusion buffer unless the
// history assumes it visible, then its own triangles tested and drawn (occluders rasterized as
// they are met), then its children pushed far to near.
template <class Isa>
void OcclusionCuller::cullT(const Octree& octree, const DrawRanges& ranges,
                            const glm::mat4& viewProjection, DrawRunList* out,
                            OcclusionCullStats* ioStats, const OcclusionCullParams& params) {
  out->clear();
  visible_.clear();
  runs_.clear();
  if (octree.empty() || slotFlags_.size() != paddedSlots(octree.triangleCount()) ||
      subtreeEnd_.size() != octree.nodeCount() || ownDrawn_.size() != octree.nodeCount()) {
    return;  // build() was not called for this octree
  }
  OcclusionCullStats st;
  const Frustum frustum = Frustum::fromViewProjection(viewProjection);
  buffer_.setMinOccluderInradius(params.minOccluderInradius);
  buffer_.begin(viewProjection);
  const glm::dvec3 eye = eyeOf(viewProjection);
  const float eyeF[3] = {static_cast<float>(eye.x), static_cast<float>(eye.y),
                         static_cast<float>(eye.z)};
  const History history = beginHistory(eye, params);
  if (history.coherent && params.occluderPrepass) prepassT<Isa>(octree, params, &st);

  // The nodes from the root to the current one, by depth (depth-first: path[d] for d < depth are
  // the current node's ancestors), for stamping them visible when it draws.
  uint32_t path[kOctreeMaxPathLength];
  // Depth-first, nearest child first: pending siblings plus children never exceed
  // kOctreeMaxChildren per level (as in cullOctree). Every entry is already classified against
  // the frustum: the root here, the others by their parent, four children at a time.
  WalkEntry stack[kOctreeStackSize];
  uint32_t top = 0;
  {
    const Aabb rootBox = octree.nodeBounds(0);
    uint32_t rootMask = kFrustumAllPlanes;
    ++st.nodesTested;
    if (classifyAabb(frustum, rootBox, rootMask) == Containment::Outside) {
      ++st.nodesFrustumCulled;
    } else {
      stack[top++] = {0, rootMask, 0, rootBox};
    }
  }
  // Past three quarters of the budget, box tests only: no more occluders (the costliest work, and
  // the least useful this late in a front-to-back walk, with little left behind them) and no
  // per-triangle tests (a visible node draws whole); a hidden subtree is still left out, at the
  // price of its box. Past the whole budget, a frustum cull.
  const uint64_t boxesOnlyFrom = params.workBudget - params.workBudget / 4;
  uint64_t trianglesVisited = 0;  // drawn triangles of the visible nodes (the meter's)
  bool boxesOnly = false, pastBudget = false;
  uint32_t untilMeter = 1;  // nodes until the meter is read
  while (top > 0) {
    const WalkEntry e = stack[--top];
    // The meter is read at every fourth node (the first included): its reads and products cost
    // 2 % of the pass's instructions at every node, and four nodes' work is small beside a
    // budget. Once past the budget, never again (a cull pops each node at most once).
    if (--untilMeter == 0) {
      untilMeter = 4;
      const uint64_t w = workSpent(st, trianglesVisited);
      if (!boxesOnly && w >= boxesOnlyFrom) {
        boxesOnly = true;
        ++st.budgetBoxesOnly;
      }
      if (w >= params.workBudget) {
        pastBudget = true;
        untilMeter = 0xFFFFFFFFu;
        st.work = w;
        ++st.budgetExhausted;
      }
    }
    if (pastBudget) {
      drawPastBudget(octree, e, st);
      if (e.mask == 0) continue;  // its whole subtree is drawn
    } else {
      prefetchOwnTriangles(octree, e.node);
      const bool assumed = assumedVisible(history, e.node);
      if (assumed) {
        ++st.nodesAssumedVisible;
      } else {
        ++st.nodesOcclusionTested;
        if (buffer_.boxHidden(e.box)) {
          ++st.nodesOccluded;
          if (params.countFrustumOnly) {
            st.trianglesDrawnFrustumOnly += frustumOnlyTriangles(octree, frustum, e.node, e.mask);
          }
          continue;
        }
      }
      path[e.depth] = e.node;
      const size_t runsBefore = runs_.size();
      const OctreeNodeLinks& links = octree.nodeLinks()[e.node];
      const SlotRun own{links.firstTriangle, links.ownEnd - links.firstTriangle};
      const uint32_t drawn = ownDrawn_[e.node];
      if (drawn > 0) {
        st.trianglesDrawnFrustumOnly += drawn;
        trianglesVisited += boxesOnly ? 0u : drawn;  // a box-only node's are not tested
        visible_.push_back(e.node);
        if (params.testTriangles && !boxesOnly) {
          testOwnTrianglesT<Isa>(octree, own, assumed, e.mask, params, st);
        } else {
          for (uint32_t s = own.first; s < own.first + own.count && !boxesOnly; ++s) {
            rasterizeOccluderT<Isa>(octree, s, params, &st, nullptr, 0);
          }
          runs_.push_back({own.first, own.count});
        }
      }
      // Visible for the history only when it drew: then it and its ancestors are stamped (the idea
      // of CHC's pull-up: a node whose box passed but whose triangles and children all turned out
      // hidden is tested again next frame as one box, not assumed, with each child tested below).
      if (runs_.size() != runsBefore) {
        for (uint32_t d = e.depth + 1; d-- > 0 && nodeVisibleFrame_[path[d]] != frame_;) {
          nodeVisibleFrame_[path[d]] = frame_;
        }
      }
    }
    top = pushChildrenNearestFirstT<Isa>(octree, e, frustum, eyeF, stack, top, st);
  }

  if (history.coherent && params.occluderPrepass) clearPrepassScratch();
  // Index-buffer order: sort the visible slot runs and merge those that touch (as
  // DrawRanges::cull does).
  radixSortByFirst(runs_, runsSorted_);
  if (params.testTriangles && params.retestDrawn) retestDrawnT<Isa>(octree, &st);
  for (const SlotRun& r : runs_) ranges.appendSlotRun(r.first, r.count, out);
  st.trianglesDrawn = out->triangles;
  if (!pastBudget) st.work = workSpent(st, trianglesVisited);
  if (ioStats) *ioStats += st;
}

}  // namespace ofps
