// Traversal loops shared by the octree's query kernels (octree_query.cpp, and the eight-lane
// kernels of octree_query_avx2.cpp): nearest-first child ordering and walking a node's triangle
// blocks. Included INSIDE an anonymous namespace of namespace ofps by each of those files, after
// their standard headers, so that every kernel file compiles its own copy with its own
// instruction set (octree_query_avx2.cpp includes it under #pragma GCC target("avx2")) and no
// copy can be shared between them by the linker.
// Needs: <bit>, <cmath>, <cstdint>, <limits>, geometry/triangle_tests.h, spatial/octree.h.

#include "octree_fps/geometry/bit_cast.h"
#include "octree_fps/spatial/bit_counts_inl.h"
#include "octree_fps/spatial/sort_networks_inl.h"

// The dequantizing slab test's relative margins (RaySlab4 in octree_query.cpp, and its eight-lane
// twin): 1 -+ 2 gamma(3) with gamma(n) = n u / (1 - n u), u = eps / 2.
constexpr float kUnitRoundoff = std::numeric_limits<float>::epsilon() * 0.5f;
constexpr float kWiden = 1.0f + 2.0f * (3.0f * kUnitRoundoff) / (1.0f - 3.0f * kUnitRoundoff);
constexpr float kShrink = 1.0f - 2.0f * (3.0f * kUnitRoundoff) / (1.0f - 3.0f * kUnitRoundoff);

// A ray's slab distances to the octree's quantized box planes, evaluated straight from the
// 16-bit steps: the distance to the plane of step q on axis k is taken as q a[k] + b[k], one
// multiply and one add per plane instead of dequantizing it first (box = origin + q * scale)
// and then computing (box - rayOrigin) / dir: a shorter chain on the traversal's critical path.
// With r = fl(1 / dir), a = fl(scale r) and b = fl(fl(gridOrigin - rayOrigin) r), the computed
// q a + b differs from the exact distance to the float plane fl(gridOrigin + fl(q scale)) that
// the build validated by at most about 8u (q scale + |gridOrigin - rayOrigin| + |gridOrigin|)
// |r| (u = 2^-24: the roundings of the plane itself, of r, a, b, the product and the sum; the
// usual first-order analysis, Higham "Accuracy and Stability of Numerical Algorithms" ch. 3).
// bNear / bFar are b moved down / up by twice that bound (at q = 65535), so q a + bNear never
// exceeds a plane's true distance and q a + bFar is never below it: the slab test stays
// conservative (a box the ray touches is never dropped; the key is never above the true entry
// distance), and an exact tie between two nodes is seen in both. The margin is ~1e-6 of the
// level's extent along the ray. ok is false when a direction component is zero or so small that
// any of these is not finite; the caller then uses the dequantizing test (RaySlab4), which
// handles those exactly.
// A ray's per-axis setup, shared by every slab test (RaySlab4, RayGridPlanes, RaySlab8): 1 / dir
// per axis, and the bounds plane (0..5, octree.h) of each axis's near and far face. The near face
// is the max face for a negative direction component (or -0), chosen once per ray, so the boxes'
// planes are read in near/far order (no per-box select).
struct RayAxes {
  float invDir[3];
  size_t nearPlane[3], farPlane[3];
  bool negative[3];
  explicit RayAxes(const glm::vec3& dir) {
    for (int k = 0; k < 3; ++k) {
      invDir[k] = 1.0f / dir[k];  // +-inf for a zero component (or one too small)
      negative[k] = std::signbit(dir[k]);
      const size_t uk = static_cast<size_t>(k);
      nearPlane[k] = negative[k] ? uk + 3 : uk;
      farPlane[k] = negative[k] ? uk : uk + 3;
    }
  }
};

struct RayGridPlanes {
  RayAxes axes;
  float a[3], bNear[3], bFar[3];
  bool ok = true;
  RayGridPlanes(const glm::vec3& origin, const glm::vec3& dir, const glm::vec3& gridOrigin,
                const glm::vec3& gridScale)
      : axes(dir) {
    constexpr float kMaxStep = 65535.0f;
    constexpr float kMargin = 16.0f * std::numeric_limits<float>::epsilon() * 0.5f;  // 2 x 8u
    for (int k = 0; k < 3; ++k) {
      const float r = axes.invDir[k];
      const float offset = gridOrigin[k] - origin[k];
      a[k] = gridScale[k] * r;
      const float b = offset * r;
      const float e = kMargin *
                      (kMaxStep * gridScale[k] + std::fabs(offset) + std::fabs(gridOrigin[k])) *
                      std::fabs(r);
      bNear[k] = b - e;
      bFar[k] = b + e;
      // q a + b must stay finite for every q: check the largest magnitude it can take.
      ok = ok && std::isfinite(kMaxStep * std::fabs(a[k]) + std::fabs(b) + e);
    }
  }
};

// The nearest hit so far of a ray cast. Equal distances go to the lower original index, so the
// answer does not depend on the order in which nodes and lanes are tested.
struct RayBest {
  float t;
  uint32_t slot = kOctreeInvalidIndex;
  uint32_t original = kOctreeInvalidIndex;
  explicit RayBest(float tMax) : t(tMax) {}
  // Takes the hits in the lane mask `hit` (lane i: slot firstSlot + i at distance ts[i]).
  void take(uint32_t hit, const float* ts, uint32_t firstSlot, const uint32_t* originalIndex) {
    while (hit != 0) {
      const uint32_t i = static_cast<uint32_t>(std::countr_zero(hit));
      hit &= hit - 1;
      const uint32_t o = originalIndex[firstSlot + i];
      if (ts[i] < t || (ts[i] == t && o < original)) {
        t = ts[i];
        slot = firstSlot + i;
        original = o;
      }
    }
  }
  // Adds st to *ioStats (when given) and fills outHit from the best hit; false on a miss.
  bool finish(const Octree& octree, const glm::vec3& origin, const glm::vec3& dir,
              const QueryStats& st, QueryStats* ioStats, RayHit& outHit) const {
    if (ioStats) {
      ioStats->nodesVisited += st.nodesVisited;
      ioStats->trianglesTested += st.trianglesTested;
    }
    if (slot == kOctreeInvalidIndex) return false;
    outHit.t = t;
    outHit.triangle = original;
    outHit.point = origin + dir * t;
    outHit.normal = triangleNormalFacing(octree.triangle(slot), origin);
    return true;
  }
};

// The next node a walk enters is one of l's children: fetch their links (contiguous, one cache
// line per four) while their boxes and l's triangles are tested. On ons-reborn (124k triangles)
// rays gain ~5 %, on the 10M tiling ~25 %, where each of those loads is otherwise a memory latency
// on the critical path. Always the four lines a row of kOctreeMaxChildren can span, whatever the
// child count: a loop over the count mispredicted its exit on nodes of every width, and dropping
// it made rays 3-9 % faster on the shared levels, where the links are in cache anyway
// (bench/micro/RESULTS.md eighth pass; overlap walks: tenth pass). A leaf (no children) fetches
// the root's row, which is in cache; past the end of the array a prefetch is a no-op, and the
// address is formed as an integer so that no out-of-range pointer is made.
inline void prefetchChildLinks(const OctreeNodeLinks* links, const OctreeNodeLinks& l) {
  static_assert(kOctreeMaxChildren == 16 && sizeof(OctreeNodeLinks) == 16);
  const uintptr_t row =
      reinterpret_cast<uintptr_t>(links) + uintptr_t{l.firstChild} * sizeof(OctreeNodeLinks);
  __builtin_prefetch(reinterpret_cast<const void*>(row));
  __builtin_prefetch(reinterpret_cast<const void*>(row + 64));
  __builtin_prefetch(reinterpret_cast<const void*>(row + 128));
  __builtin_prefetch(reinterpret_cast<const void*>(row + 192));
}

// The look-ahead prefetch of nearestFirst costs about 15 % more instructions per ray (callgrind,
// bench/micro/RESULTS.md seventh pass); it pays only where the walk's nodes and triangles miss
// the caches, so it is switched on by size: octrees whose triangle blocks take at least this
// many bytes (about 470k triangles; the shared levels and the 100k tiling stay below it). The
// choice is made once per ray and each walk compiled with and without it: a run-time test per
// node cost 2 % more instructions on the levels.
inline constexpr size_t kLookAheadMinBlockBytes = size_t{16} << 20;
inline bool lookAhead(size_t blockCount) {
  return blockCount * sizeof(OctreeTriangleBlock) >= kLookAheadMinBlockBytes;
}

// Nearest-first traversal (ray, sweeps, closest point), testing kGroup (4 or 8) children at a
// time. keyOf(planes, stride, first, keys) returns the lanes first .. first + kGroup - 1 of a
// block of `stride` children whose bounds planes start at `planes` (plane k of child i at
// planes[k * stride + i]: octree.h "Layout") whose key (entry distance, time, squared distance:
// always >= 0) is within the current bound, and writes their keys to keys[0 .. kGroup - 1];
// lanes at or past `stride` read the next block's planes and are ignored; visit(node) tests the
// node's own triangles and may lower the bound, which `bound` reads back. Of the children hit, the
// nearest is entered next without touching the stack; the others are pushed farthest first. Popped
// entries whose key has fallen beyond the bound are dropped. A stack entry packs a key's bits above
// its node index: keys are never negative, so the entries order as (key, node) do, and a sort
// compares one integer. Returns the number of node boxes tested.
// kSorted false (any-hit rays, where any hit ends the walk and the order of the others does not
// change the answer): the nearest child hit is still entered first, but the others are pushed
// unsorted, which skips the sorting networks (rayAny +4-5 % on oa_dm1, bench/micro/RESULTS.md
// fifth pass); nearest-hit rays need the sort (20 % slower without it).
// With kLookAhead (and `blocks`, the octree's triangle blocks; lookAhead() above), every child hit
// also has what entering it reads first fetched into the cache as soon as it is known to be hit:
// its children's bounds planes, or, for a leaf, its triangle blocks. Those addresses come from
// the child's links, which were prefetched before its box was tested; without this, each of
// those loads is a memory latency on the path of a ray through an octree larger than the cache.
template <uint32_t kGroup, bool kSorted = true, bool kLookAhead = false, class KeyFn, class Visit>
uint32_t nearestFirst(const OctreeNodeLinks* links, const uint16_t* bounds, const float& bound,
                      KeyFn&& keyOf, Visit&& visit, const OctreeTriangleBlock* blocks = nullptr) {
  uint32_t tested = 1;
  {
    float keys[kGroup];
    if ((keyOf(bounds, size_t{1}, 0u, keys) & 1u) == 0) return tested;  // the root's block
  }
  uint64_t stack[kOctreeStackSize + 8];  // + room for the networks' unconditional writes
  uint32_t top = 0;
  uint32_t node = 0;
  for (;;) {
    const OctreeNodeLinks& l = links[node];
    prefetchChildLinks(links, l);
    visit(node);
    float keys[kOctreeMaxChildren];
    uint32_t mask = 0;
    const uint16_t* planes = bounds + 6 * static_cast<size_t>(l.firstChild);
    for (uint32_t g = 0; g < l.childCount; g += kGroup)
      mask |= keyOf(planes, static_cast<size_t>(l.childCount), g, keys + g) << g;
    mask &= (1u << l.childCount) - 1u;
    tested += l.childCount;
    if constexpr (kLookAhead) {
      for (uint32_t m = mask; m != 0; m &= m - 1) {
        const OctreeNodeLinks& c = links[l.firstChild + static_cast<uint32_t>(std::countr_zero(m))];
        if (c.childCount != 0) {
          const uint16_t* p = bounds + 6 * static_cast<size_t>(c.firstChild);
          __builtin_prefetch(p);
          __builtin_prefetch(p + 6 * static_cast<size_t>(c.childCount) - 1);
        } else if (c.ownEnd != c.firstTriangle) {
          const char* p = reinterpret_cast<const char*>(blocks + (c.firstTriangle >> 2));
          const char* e = reinterpret_cast<const char*>(blocks + ((c.ownEnd - 1) >> 2) + 1);
          for (; p < e; p += 64) __builtin_prefetch(p);
        }
      }
    }
    if (mask != 0) {
      // One child hit (the most common case) is told from the mask itself, before the count:
      // two instructions instead of the bit count's dozen on the path to the next node.
      if ((mask & (mask - 1)) == 0) {
        node = l.firstChild + static_cast<uint32_t>(std::countr_zero(mask));
        continue;
      }
      const uint32_t n = bitCount16(mask);
      if constexpr (!kSorted) {
        // Any order (rayAny): push the children hit as they come, then enter the nearest.
        uint64_t nearest = ~uint64_t{0};
        uint32_t nearestAt = top;
        do {
          const uint32_t i = static_cast<uint32_t>(std::countr_zero(mask));
          const uint64_t e =
              (static_cast<uint64_t>(ofps::bitCast<uint32_t>(keys[i])) << 32) | (l.firstChild + i);
          const bool closer = e < nearest;
          nearest = closer ? e : nearest;
          nearestAt = closer ? top : nearestAt;
          stack[top++] = e;
          mask &= mask - 1;
        } while (mask != 0);
        stack[nearestAt] = stack[--top];
        node = static_cast<uint32_t>(nearest);
        continue;
      }
      // Only the eight entries a network reads need zeros (the rank sort reads the n gathered):
      // two vector stores, where zero-initializing the whole array compiled to a `rep stos`,
      // whose start-up cost was paid at every node with two or more children hit.
      uint64_t hits[kOctreeMaxChildren];
      for (uint32_t k = 0; k < 8; ++k) hits[k] = 0;
      for (uint32_t k = 0; k < kOctreeMaxChildren; ++k) {
        const uint32_t i = static_cast<uint32_t>(std::countr_zero(mask));
        hits[k] =
            (static_cast<uint64_t>(ofps::bitCast<uint32_t>(keys[i])) << 32) | (l.firstChild + i);
        mask &= mask - 1;
        if (mask == 0) break;
      }
      // Sorting networks (sort_networks_inl.h), largest first; the unused entries are 0 and
      // sort last, so the n entries pushed are the real ones. (Five to eight children hit went
      // through the quadratic rank sort before the eight-input network.)
      if (n <= 4) {
        sortDescending4(hits);
        for (uint32_t i = 0; i < 4; ++i) stack[top + i] = hits[i];
      } else if (n <= 8) {
        sortDescending8(hits);
        for (uint32_t i = 0; i < 8; ++i) stack[top + i] = hits[i];
      } else {
        // Rank sort: entry i goes to the position given by the number of entries larger than
        // it, so the stack holds them largest first.
        for (uint32_t i = 0; i < n; ++i) {
          uint32_t rank = 0;
          for (uint32_t j = 0; j < n; ++j) rank += hits[j] > hits[i] ? 1u : 0u;
          stack[top + rank] = hits[i];
        }
      }
      // The nearest ends on top, where it is entered now.
      top += n - 1;
      node = static_cast<uint32_t>(stack[top]);
      continue;
    }
    for (;;) {
      if (top == 0) return tested;
      const uint64_t e = stack[--top];
      if (ofps::bitCast<float>(static_cast<uint32_t>(e >> 32)) <= bound) {
        node = static_cast<uint32_t>(e);
        break;
      }
    }
  }
}

// Calls f(b, lanes) for the blocks of four slots covering [first, end), kStep blocks at a time
// (b, b + 1, ..., b + kStep - 1; lanes bit 4j + i: slot i of block b + j, set for the slots in
// the range, so a block past the range has no lanes); stops (returning false) when f does.
template <uint32_t kStep, class F>
inline bool forBlocks(uint32_t first, uint32_t end, F&& f) {
  if (first >= end) return true;
  const uint32_t fb = first >> 2, lb = (end - 1) >> 2;
  const uint32_t firstLanes = (0xFu << (first & 3u)) & 0xFu;
  const uint32_t lastLanes = 0xFu >> (3u - ((end - 1) & 3u));
  for (uint32_t b = fb; b <= lb; b += kStep) {
    uint32_t lanes = 0;
    for (uint32_t j = 0; j < kStep; ++j) {
      uint32_t m = b + j <= lb ? 0xFu : 0u;
      m &= b + j == fb ? firstLanes : 0xFu;
      m &= b + j == lb ? lastLanes : 0xFu;
      lanes |= m << (4 * j);
    }
    if (!f(b, lanes)) return false;
  }
  return true;
}
