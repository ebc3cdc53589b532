// The occlusion kernels compiled for AVX2 (occlusion_isa_inl.h): the same source as
// occlusion_kernels.cpp, the same IEEE operations (-ffp-contract=off, and no FMA in the target
// below), so the same bits; only the encoding differs (three-operand VEX forms, 256-bit
// registers where the compiler finds a use for them).
//
// Everything with external linkage that the kernels use (the standard library, GLM, the core's
// public headers and their inline functions, simd4.h) is included BEFORE the target pragma, so
// that none of it is compiled for AVX2 here: an inline function compiled for AVX2 could be the
// copy the linker keeps for baseline callers. Only the kernels' own headers are read inside the
// region: their helpers are in an anonymous namespace (this file's own copies) and their member
// templates are instantiated for OcclusionIsaAvx2 only here.
#include "octree_fps/culling/occlusion_isa_inl.h"

#if defined(OFPS_OCCLUSION_AVX2)

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "octree_fps/culling/frustum.h"
#include "octree_fps/culling/occlusion_buffer.h"
#include "octree_fps/culling/occlusion_cull.h"
#include "octree_fps/geometry/frustum_inl.h"
#include "octree_fps/geometry/simd4.h"
#include "octree_fps/spatial/octree.h"

#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif

#include "octree_fps/culling/occlusion_buffer_inl.h"
#include "octree_fps/culling/occlusion_cull_inl.h"
#include "octree_fps/culling/occlusion_kernel_list_inl.h"

namespace ofps {

namespace {

// Eight float lanes (AVX): the members of Lanes4 (occlusion_raster_inl.h), one IEEE operation
// per lane each, with the same NaN rules (min and max return their second operand when either
// is NaN; the comparisons are ordered: false on NaN), so a lane computes what Lanes4 computes
// for the same inputs, bit for bit.
struct F8 {
  __m256 v;
};
struct M8 {
  __m256 v;
};
inline F8 operator+(F8 a, F8 b) {
  return {_mm256_add_ps(a.v, b.v)};
}
inline F8 operator-(F8 a, F8 b) {
  return {_mm256_sub_ps(a.v, b.v)};
}
inline F8 operator*(F8 a, F8 b) {
  return {_mm256_mul_ps(a.v, b.v)};
}
inline F8 operator/(F8 a, F8 b) {
  return {_mm256_div_ps(a.v, b.v)};
}
inline M8 operator&(M8 a, M8 b) {
  return {_mm256_and_ps(a.v, b.v)};
}
inline M8 operator|(M8 a, M8 b) {
  return {_mm256_or_ps(a.v, b.v)};
}

struct Lanes8 {
  static constexpr int kCount = 8;
  using F = F8;
  using M = M8;
  static F splat(float x) { return {_mm256_set1_ps(x)}; }
  static F load(const float* p) { return {_mm256_loadu_ps(p)}; }
  static F iota() { return {_mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7)}; }
  static F splatted(const float (&v)[4]) { return {_mm256_broadcast_ss(&v[0])}; }
  static void store(float* out, F a) { _mm256_storeu_ps(out, a.v); }
  static F min(F a, F b) { return {_mm256_min_ps(a.v, b.v)}; }
  static F max(F a, F b) { return {_mm256_max_ps(a.v, b.v)}; }
  static F abs(F a) { return {_mm256_andnot_ps(_mm256_set1_ps(-0.0f), a.v)}; }
  static F select(M m, F a, F b) {
    return {_mm256_or_ps(_mm256_and_ps(m.v, a.v), _mm256_andnot_ps(m.v, b.v))};
  }
  static M gt(F a, F b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GT_OS)}; }
  static M ge(F a, F b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_GE_OS)}; }
  static M le(F a, F b) { return {_mm256_cmp_ps(a.v, b.v, _CMP_LE_OS)}; }
  static uint32_t bits(M m) { return static_cast<uint32_t>(_mm256_movemask_ps(m.v)); }
  static uint32_t nearer8(const float* row, F depth) {
    return bits(gt(load(row), depth));  // pixel > depth, ordered: false on NaN, as Lanes4's
  }

  // fillConvex's row bounds, up to two left (lanes 0, 1) and two right (lanes 2, 3) functions
  // in one vector of four doubles, or (`wide`, a quad with three edges on one side) up to four
  // of each in two vectors. A left bound is ceilClamped(P - Q row, x0, x1 + 1); a right one
  // floorClamped(P - Q row, x0 - 1, x1 + 1), computed negated: -P - (-Q) row is exactly
  // -(P - Q row) (rounding to nearest is symmetric), clamped to [-(x1 + 1), -(x0 - 1)] and
  // rounded up, which is minus the floor of the clamped value. The clamps take min first, then
  // max (MINPD returns its second operand on NaN), so a NaN gives the upper end in both cases,
  // as ceilClamped and floorClamped do: an empty row. Unused lanes hold P = -inf, Q = 0, which
  // clamp to the neutral bound (x0, or x1 on the right).
  struct Spans {
    __m256d p, q, upper, lower;      // two and two, or the left ones when wide
    __m256d pr, qr, upperR, lowerR;  // wide: the right ones
    bool wide;
  };
  static bool prepareSpans(const double* leftP, const double* leftQ, int lefts,
                           const double* rightP, const double* rightQ, int rights, int32_t x0,
                           int32_t x1, Spans* out) {
    if (lefts > 4 || rights > 4) return false;
    const double inf = std::numeric_limits<double>::infinity();
    const double left0 = x0, left1 = x1 + 1.0, right0 = -(x1 + 1.0), right1 = -(x0 - 1.0);
    out->wide = lefts > 2 || rights > 2;
    if (out->wide) {
      alignas(32) double p[4] = {-inf, -inf, -inf, -inf}, q[4] = {0.0, 0.0, 0.0, 0.0};
      alignas(32) double pr[4] = {-inf, -inf, -inf, -inf}, qr[4] = {0.0, 0.0, 0.0, 0.0};
      for (int k = 0; k < lefts; ++k) {
        p[k] = leftP[k];
        q[k] = leftQ[k];
      }
      for (int k = 0; k < rights; ++k) {
        pr[k] = -rightP[k];
        qr[k] = -rightQ[k];
      }
      out->p = _mm256_load_pd(p);
      out->q = _mm256_load_pd(q);
      out->upper = _mm256_set1_pd(left1);
      out->lower = _mm256_set1_pd(left0);
      out->pr = _mm256_load_pd(pr);
      out->qr = _mm256_load_pd(qr);
      out->upperR = _mm256_set1_pd(right1);
      out->lowerR = _mm256_set1_pd(right0);
      return true;
    }
    alignas(32) double p[4] = {-inf, -inf, -inf, -inf}, q[4] = {0.0, 0.0, 0.0, 0.0};
    for (int k = 0; k < lefts; ++k) {
      p[k] = leftP[k];
      q[k] = leftQ[k];
    }
    for (int k = 0; k < rights; ++k) {
      p[2 + k] = -rightP[k];
      q[2 + k] = -rightQ[k];
    }
    out->p = _mm256_load_pd(p);
    out->q = _mm256_load_pd(q);
    out->upper = _mm256_setr_pd(left1, left1, right1, right1);
    out->lower = _mm256_setr_pd(left0, left0, right0, right0);
    out->pr = out->qr = out->upperR = out->lowerR = _mm256_setzero_pd();  // not read
    return true;
  }
  static void rowSpan(const Spans& s, double row, int32_t* lo, int32_t* hi) {
    const __m256d r = _mm256_set1_pd(row);
    const __m256d c = _mm256_ceil_pd(
        _mm256_max_pd(_mm256_min_pd(_mm256_sub_pd(s.p, _mm256_mul_pd(s.q, r)), s.upper), s.lower));
    // Lane 0: the larger left bound; lane 2: the larger negated right bound.
    __m256d m = _mm256_max_pd(c, _mm256_permute_pd(c, 0x5));
    if (s.wide) {
      const __m256d cr = _mm256_ceil_pd(_mm256_max_pd(
          _mm256_min_pd(_mm256_sub_pd(s.pr, _mm256_mul_pd(s.qr, r)), s.upperR), s.lowerR));
      const __m256d mr = _mm256_max_pd(cr, _mm256_permute_pd(cr, 0x5));
      // Lanes 0-1: the left vector's pairs, lanes 2-3: the right one's, each the larger of its
      // two halves (a maximum is exact, in any order).
      const __m256d lows = _mm256_permute2f128_pd(m, mr, 0x20);   // m's low half, mr's low half
      const __m256d highs = _mm256_permute2f128_pd(m, mr, 0x31);  // their high halves
      m = _mm256_max_pd(lows, highs);
    }
    const __m128i k = _mm256_cvttpd_epi32(m);  // exact: small integers
    *lo = std::max(*lo, _mm_cvtsi128_si32(k));
    *hi = std::min(*hi, -_mm_extract_epi32(k, 2) - 1);
  }
};

// The pixel spans of these kernels, eight pixels at a time.
template <>
struct PixelLanes<detail::OcclusionIsaAvx2> {
  using type = Lanes8;
};

}  // namespace

OFPS_OCCLUSION_INSTANTIATE(detail::OcclusionIsaAvx2)

// boxHiddenT with the eight corners in the eight lanes (one transform instead of two): every
// corner's bounds are computed as there, and the rectangle is their exact minimum and maximum,
// so the answer is the same.
bool OcclusionBuffer::boxHiddenAvx2(const Aabb& box) {
  if (box.isEmpty()) return false;
  const F8 halfW = Lanes8::splat(0.5f * static_cast<float>(width_));
  const F8 halfH = Lanes8::splat(0.5f * static_cast<float>(height_));
  const glm::vec3 lo = box.min, hi = box.max;
  const F8 xs{_mm256_setr_ps(lo.x, hi.x, lo.x, hi.x, lo.x, hi.x, lo.x, hi.x)};
  const F8 ys{_mm256_setr_ps(lo.y, lo.y, hi.y, hi.y, lo.y, lo.y, hi.y, hi.y)};
  const F8 zs{_mm256_setr_ps(lo.z, lo.z, lo.z, lo.z, hi.z, hi.z, hi.z, hi.z)};
  Hull<Lanes8> h = emptyHull<Lanes8>();
  addPoints<Lanes8>(vpf_, vpMag_, halfW, halfH, xs, ys, zs, h);
  if (Lanes8::bits(h.ok) != 0xFFu) return false;
  finishHull<Lanes8>(halfW, halfH, h);
  // The rectangle and depth: minima and maxima over the lanes, in the registers (exact; no
  // lane is NaN once every corner is certain).
  const auto least = [](F8 a) {
    __m128 m = _mm_min_ps(_mm256_castps256_ps128(a.v), _mm256_extractf128_ps(a.v, 1));
    m = _mm_min_ps(m, _mm_movehl_ps(m, m));
    return _mm_cvtss_f32(_mm_min_ss(m, _mm_shuffle_ps(m, m, 1)));
  };
  const auto greatest = [](F8 a) {
    __m128 m = _mm_max_ps(_mm256_castps256_ps128(a.v), _mm256_extractf128_ps(a.v, 1));
    m = _mm_max_ps(m, _mm_movehl_ps(m, m));
    return _mm_cvtss_f32(_mm_max_ss(m, _mm_shuffle_ps(m, m, 1)));
  };
  return floatRectHiddenT<detail::OcclusionIsaAvx2>(least(h.minX), greatest(h.maxX), least(h.minY),
                                                    greatest(h.maxY), greatest(h.maxInvW));
}

// trianglesHidden4T on two blocks in the eight lanes: the same per-lane work and answers.
uint32_t OcclusionBuffer::trianglesHidden8Avx2(const float (&c0)[9][4], const float (&c1)[9][4],
                                               uint32_t lanes, ScreenRect (&rects)[8],
                                               uint32_t* outside) {
  F8 coords[9];
  for (int k = 0; k < 9; ++k) {
    coords[k].v =
        _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(c0[k])), _mm_loadu_ps(c1[k]), 1);
  }
  return trianglesHiddenLanes<detail::OcclusionIsaAvx2, Lanes8>(coords, lanes, rects, outside);
}

}  // namespace ofps

#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif

#endif  // OFPS_OCCLUSION_AVX2
