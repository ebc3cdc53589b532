// Eight-lane (AVX2) ray cast, and the choice between it and the four-lane (SSE2) kernels of
// octree_query.cpp (octree.h "SIMD kernels").
//
// The kernel tests eight children at a time (a node of up to 16 children in two steps instead
// of four) and two triangle blocks at a time. Every lane performs the same IEEE operations, in
// the same order, as the four-lane kernel and the scalar tests (no FMA: octree_core is built
// with -ffp-contract=off and the target below does not enable it), so the answers are the same
// bits; tests/spatial/octree_simd_test.cpp checks that on random soups and the shared levels.
//
// GCC and Clang on x86-64 compile it (it relies on #pragma GCC target, or Clang's #pragma clang
// attribute push, applying to every function, lambda and template defined in the region);
// elsewhere octreeSimdAvailable(kAvx2) is false.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "octree_fps/geometry/triangle_tests.h"
#include "octree_fps/spatial/octree.h"

#if defined(__GNUC__) && defined(__x86_64__) && !defined(OFPS_SIMD_SCALAR)
#define OFPS_OCTREE_AVX2 1
#include <immintrin.h>
#endif

namespace ofps {

// ---- Kernel selection ---------------------------------------------------------------------------

namespace {

OctreeSimd detectSimd() {
#if defined(OFPS_OCTREE_AVX2)
  __builtin_cpu_init();  // needed when this runs before libgcc's own initialisation
  if (__builtin_cpu_supports("avx2")) return OctreeSimd::kAvx2;
#endif
  return OctreeSimd::kBaseline;
}

std::atomic<OctreeSimd>& activeSimd() {
  static std::atomic<OctreeSimd> simd{detectSimd()};
  return simd;
}

}  // namespace

bool octreeSimdAvailable(OctreeSimd simd) {
  static const OctreeSimd widest = detectSimd();
  return simd == OctreeSimd::kBaseline || widest == OctreeSimd::kAvx2;
}

OctreeSimd octreeSimd() {
  return activeSimd().load(std::memory_order_relaxed);
}

bool octreeUseSimd(OctreeSimd simd) {
  if (!octreeSimdAvailable(simd)) return false;
  activeSimd().store(simd, std::memory_order_relaxed);
  return true;
}

const char* octreeSimdName(OctreeSimd simd) {
  if (simd == OctreeSimd::kAvx2) return "avx2";
#if defined(OFPS_SIMD_SCALAR)
  return "scalar";
#elif defined(__SSE2__) || defined(_M_X64)
  return "sse2";
#elif defined(OFPS_SIMD_SIMDE) && defined(__ARM_NEON)
  return "simde-neon";
#elif defined(OFPS_SIMD_SIMDE) && defined(__wasm_simd128__)
  return "simde-simd128";
#elif defined(OFPS_SIMD_SIMDE)
  return "simde-portable";
#else
  return "scalar";
#endif
}

#if defined(OFPS_OCTREE_AVX2)

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

namespace {

#include "octree_fps/spatial/octree_traversal_inl.h"

inline uint32_t mask8(__m256 m) {
  return static_cast<uint32_t>(_mm256_movemask_ps(m));
}

// Eight consecutive unsigned 16-bit values (16 bytes at p) as floats (exact).
inline __m256 loadU16x8(const uint16_t* p) {
  const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return _mm256_cvtepi32_ps(_mm256_cvtepu16_epi32(x));
}

// The ray cast's node test on eight consecutive nodes: RayNodeTest4::hit (octree_query.cpp), the
// same expressions per lane.
struct RaySlab8 {
  __m256 origin[3], invDir[3], gridOrigin[3], gridScale[3];  // RaySlab4
  __m256 a[3], bNear[3], bFar[3];                            // RayNodeTest4
  size_t nearPlane[3], farPlane[3];
  bool grid;

  RaySlab8(const glm::vec3& o, const glm::vec3& qOrigin, const glm::vec3& qScale,
           const RayGridPlanes& g)
      : grid(g.ok) {
    for (int k = 0; k < 3; ++k) {
      origin[k] = _mm256_set1_ps(o[k]);
      invDir[k] = _mm256_set1_ps(g.axes.invDir[k]);
      gridOrigin[k] = _mm256_set1_ps(qOrigin[k]);
      gridScale[k] = _mm256_set1_ps(qScale[k]);
      a[k] = _mm256_set1_ps(g.a[k]);
      bNear[k] = _mm256_set1_ps(g.bNear[k]);
      bFar[k] = _mm256_set1_ps(g.bFar[k]);
      nearPlane[k] = g.axes.nearPlane[k];
      farPlane[k] = g.axes.farPlane[k];
    }
  }

  template <bool kGrid>
  uint32_t hit(const uint16_t* planes, size_t stride, uint32_t first, float tMax,
               float* outNear) const {
    __m256 tn, tf;
    if constexpr (kGrid) {
      tn = _mm256_setzero_ps();
      tf = _mm256_set1_ps(tMax);
      for (int k = 0; k < 3; ++k) {
        tn = _mm256_max_ps(
            _mm256_add_ps(_mm256_mul_ps(loadU16x8(planes + nearPlane[k] * stride + first), a[k]),
                          bNear[k]),
            tn);
        tf = _mm256_min_ps(
            _mm256_add_ps(_mm256_mul_ps(loadU16x8(planes + farPlane[k] * stride + first), a[k]),
                          bFar[k]),
            tf);
      }
    } else {
      tn = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
      tf = _mm256_set1_ps(std::numeric_limits<float>::infinity());
      for (int k = 0; k < 3; ++k) {
        const __m256 nearC = _mm256_add_ps(
            gridOrigin[k],
            _mm256_mul_ps(loadU16x8(planes + nearPlane[k] * stride + first), gridScale[k]));
        const __m256 farC = _mm256_add_ps(
            gridOrigin[k],
            _mm256_mul_ps(loadU16x8(planes + farPlane[k] * stride + first), gridScale[k]));
        // max/min return their second operand when either is NaN, as SSE's do (RaySlab4).
        tn = _mm256_max_ps(_mm256_mul_ps(_mm256_sub_ps(nearC, origin[k]), invDir[k]), tn);
        tf = _mm256_min_ps(_mm256_mul_ps(_mm256_sub_ps(farC, origin[k]), invDir[k]), tf);
      }
      tn = _mm256_max_ps(_mm256_mul_ps(tn, _mm256_set1_ps(kShrink)), _mm256_setzero_ps());
      tf = _mm256_min_ps(_mm256_mul_ps(tf, _mm256_set1_ps(kWiden)), _mm256_set1_ps(tMax));
    }
    _mm256_storeu_ps(outNear, tn);
    return mask8(_mm256_cmp_ps(tn, tf, _CMP_LE_OS));
  }
};

// rayTriangle4 (octree_query.cpp) on blocks b0 (lanes 0-3) and b1 (lanes 4-7).
struct Ray8 {
  __m256 o[3], d[3];
  Ray8(const glm::vec3& origin, const glm::vec3& dir) {
    for (int k = 0; k < 3; ++k) {
      o[k] = _mm256_set1_ps(origin[k]);
      d[k] = _mm256_set1_ps(dir[k]);
    }
  }
};

inline __m256 flipSign(__m256 a, __m256 s) {
  return _mm256_xor_ps(a, _mm256_and_ps(s, _mm256_set1_ps(-0.0f)));
}

// a[i] b[j] - a[j] b[i]: one component of a cross product.
inline __m256 cross(const __m256 (&a)[3], const __m256 (&b)[3], int i, int j) {
  return _mm256_sub_ps(_mm256_mul_ps(a[i], b[j]), _mm256_mul_ps(a[j], b[i]));
}

// (a0 b0 + a1 b1) + a2 b2.
inline __m256 dot(const __m256 (&a)[3], const __m256 (&b)[3]) {
  return _mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(a[0], b[0]), _mm256_mul_ps(a[1], b[1])),
                       _mm256_mul_ps(a[2], b[2]));
}

inline uint32_t rayTriangle8(const Ray8& r, const OctreeTriangleBlock& b0,
                             const OctreeTriangleBlock& b1, float tMax, float* outT) {
  __m256 v[9];
  for (int k = 0; k < 9; ++k) {
    v[k] =
        _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_load_ps(b0.c[k])), _mm_load_ps(b1.c[k]), 1);
  }
  const __m256 e1[3] = {_mm256_sub_ps(v[3], v[0]), _mm256_sub_ps(v[4], v[1]),
                        _mm256_sub_ps(v[5], v[2])};
  const __m256 e2[3] = {_mm256_sub_ps(v[6], v[0]), _mm256_sub_ps(v[7], v[1]),
                        _mm256_sub_ps(v[8], v[2])};
  // p = d x e2, q = tv x e1, in rayTriangle4's operand order.
  const __m256 p[3] = {cross(r.d, e2, 1, 2), cross(r.d, e2, 2, 0), cross(r.d, e2, 0, 1)};
  const __m256 sdet = dot(e1, p);
  const __m256 tv[3] = {_mm256_sub_ps(r.o[0], v[0]), _mm256_sub_ps(r.o[1], v[1]),
                        _mm256_sub_ps(r.o[2], v[2])};
  const __m256 q[3] = {cross(tv, e1, 1, 2), cross(tv, e1, 2, 0), cross(tv, e1, 0, 1)};
  const __m256 det = flipSign(sdet, sdet);
  const __m256 u = flipSign(dot(tv, p), sdet);
  const __m256 vv = flipSign(dot(r.d, q), sdet);
  const __m256 tt = flipSign(dot(e2, q), sdet);
  const __m256 zero = _mm256_setzero_ps();
  const __m256 tMax8 = _mm256_set1_ps(tMax);
  const __m256 reject = _mm256_or_ps(
      _mm256_or_ps(
          _mm256_or_ps(_mm256_cmp_ps(det, zero, _CMP_EQ_OQ), _mm256_cmp_ps(u, zero, _CMP_LT_OS)),
          _mm256_or_ps(_mm256_cmp_ps(vv, zero, _CMP_LT_OS),
                       _mm256_cmp_ps(det, _mm256_add_ps(u, vv), _CMP_LT_OS))),
      _mm256_or_ps(
          _mm256_cmp_ps(tt, zero, _CMP_LT_OS),
          _mm256_cmp_ps(_mm256_mul_ps(_mm256_mul_ps(tMax8, det), _mm256_set1_ps(1.0000005f)), tt,
                        _CMP_LT_OS)));
  const __m256 t = _mm256_div_ps(tt, det);
  _mm256_storeu_ps(outT, t);
  return ~mask8(reject) & mask8(_mm256_cmp_ps(t, tMax8, _CMP_LE_OS)) & 0xFFu;
}

// forBlocks<2> (octree_traversal_inl.h) for a ray's leaves: calls f(b, lanes) for the pairs of
// blocks b, b + 1 covering the slots [first, end) (lanes bit 4j + i: slot 4(b + j) + i, set when
// it is in the range and, when `layered`, kept by inLayers(b, lanes), the octree's laneLayers on
// both blocks), adds the slots tested to `tested`, and stops when f returns false. The same
// pairs, lanes and counts as forBlocks<2> in fewer instructions: the range's two ends cut the
// lanes of the first and the last pair with one shift each, and without layers the slots tested
// are counted by subtraction instead of a bit count. A ray's leaves run this about three times
// per ray, and its walk is bound by instruction throughput (bench/micro/RESULTS.md eighth pass).
template <class InLayers, class F>
inline bool forBlockPairs(uint32_t first, uint32_t end, bool layered, InLayers&& inLayers,
                          uint32_t& tested, F&& f) {
  if (first >= end) return true;
  uint32_t b = first >> 2;
  uint32_t skipped = first & 3u;  // lanes of the pair before the range's start
  uint32_t lanes = (0xFFu << skipped) & 0xFFu;
  for (;;) {
    const uint32_t left = end - 4 * b;  // slots from the pair's first to the range's end: >= 1
    lanes &= left < 8 ? (1u << left) - 1u : 0xFFu;
    if (!layered) {
      tested += (left < 8 ? left : 8u) - skipped;
    } else {
      lanes = inLayers(b, lanes);
      tested += bitCount16(lanes);
    }
    if (!f(b, lanes)) return false;
    if (left <= 8) return true;
    b += 2;
    lanes = 0xFFu;
    skipped = 0;
  }
}

// Calls walk(grid, ahead) with each choice as std::true_type or std::false_type: the ray walks
// are compiled once per slab test and look-ahead (raycastAvx2 says why), and the choice is made
// once per ray, here, for both of them.
template <class Walk>
auto walkChosen(bool grid, bool ahead, Walk& walk) {
  if (ahead) {
    return grid ? walk(std::true_type{}, std::true_type{})
                : walk(std::false_type{}, std::true_type{});
  }
  return grid ? walk(std::true_type{}, std::false_type{})
              : walk(std::false_type{}, std::false_type{});
}

}  // namespace

template <bool Nearest, class OnPair>
uint32_t Octree::rayWalk8(const glm::vec3& origin, const glm::vec3& dir, uint32_t layerMask,
                          const float& bound, QueryStats& st, QueryTrace* trace,
                          OnPair&& onPair) const {
  const RaySlab8 slab(origin, qOrigin_, qScale_, RayGridPlanes(origin, dir, qOrigin_, qScale_));
  const uint32_t lastBlock = static_cast<uint32_t>(blocks_.size()) - 1;
  const bool layered = !layers_.empty();
  const auto inLayers = [&](uint32_t b, uint32_t lanes) {
    return laneLayers(b, lanes & 0xFu, layerMask) | (laneLayers(b + 1, lanes >> 4, layerMask) << 4);
  };
  // The walk is compiled twice, once per slab test (grid steps, or dequantized for rays with a
  // zero or tiny direction component), and the choice made once per ray: the per-group branch
  // on slab.grid is gone and each copy keeps only its own constants live (any-hit +3-8 %,
  // bench/micro/RESULTS.md fifth pass). grid is std::true_type or std::false_type; so is ahead,
  // nearestFirst's look-ahead prefetch (octree_traversal_inl.h lookAhead()).
  auto walk = [&](auto grid, auto ahead) {
    return nearestFirst<8, Nearest, decltype(ahead)::value>(
        links_.data(), qBounds_.data(), bound,
        [&](const uint16_t* planes, size_t stride, uint32_t first, float* keys) {
          return slab.hit<decltype(grid)::value>(planes, stride, first, bound, keys);
        },
        [&](uint32_t node) {
          if (trace != nullptr) trace->add(node);
          const OctreeNodeLinks& l = links_[node];
          forBlockPairs(l.firstTriangle, l.ownEnd, layered, inLayers, st.trianglesTested,
                        [&](uint32_t b, uint32_t lanes) {
                          // Block b + 1 may lie past the last block (then it has no lanes): read
                          // b again.
                          return onPair(b, std::min(b + 1, lastBlock), lanes);
                        });
        },
        blocks_.data());
  };
  return walkChosen(slab.grid, lookAhead(blocks_.size()), walk);
}

bool Octree::raycastAvx2(const glm::vec3& origin, const glm::vec3& dir, float tMax,
                         uint32_t layerMask, RayHit& outHit, QueryStats* ioStats) const {
  const Ray8 ray8(origin, dir);
  QueryStats st;
  RayBest best(tMax);
  st.nodesVisited += rayWalk8<true>(
      origin, dir, layerMask, best.t, st, ioStats != nullptr ? ioStats->trace : nullptr,
      [&](uint32_t b, uint32_t b1, uint32_t lanes) {
        float t[8];
        const uint32_t hit = rayTriangle8(ray8, blocks_[b], blocks_[b1], best.t, t) & lanes;
        best.take(hit, t, 4 * b, originalIndex_.data());
        return true;
      });
  return best.finish(*this, origin, dir, st, ioStats, outHit);
}

bool Octree::rayAnyAvx2(const glm::vec3& origin, const glm::vec3& dir, float tMax,
                        uint32_t layerMask, QueryStats* ioStats) const {
  const Ray8 ray8(origin, dir);
  QueryStats st;
  // A hit sets the bound below every key (keys are >= 0), which ends the walk (rayAny).
  float bound = tMax;
  st.nodesVisited += rayWalk8<false>(
      origin, dir, layerMask, bound, st, ioStats != nullptr ? ioStats->trace : nullptr,
      [&](uint32_t b, uint32_t b1, uint32_t lanes) {
        float t[8];
        if ((rayTriangle8(ray8, blocks_[b], blocks_[b1], tMax, t) & lanes) == 0) return true;
        bound = -1.0f;
        return false;
      });
  if (ioStats) {
    ioStats->nodesVisited += st.nodesVisited;
    ioStats->trianglesTested += st.trianglesTested;
  }
  return bound < 0.0f;
}

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#else

bool Octree::raycastAvx2(const glm::vec3&, const glm::vec3&, float, uint32_t, RayHit&,
                         QueryStats*) const {
  return false;  // never selected: octreeSimdAvailable(kAvx2) is false in this build
}

bool Octree::rayAnyAvx2(const glm::vec3&, const glm::vec3&, float, uint32_t, QueryStats*) const {
  return false;  // never selected, as raycastAvx2
}

#endif

}  // namespace ofps
