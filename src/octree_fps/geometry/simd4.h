#pragma once
// Internal to the core (src/octree_fps; not an installed interface): four-lane float helpers for
// the octree's traversal loops, the four-wide frustum test (frustum_inl.h) and the grid's cell
// loops: SSE2 (every x86-64 CPU) where the compiler offers it, plain arrays elsewhere. Only what
// those need: lane-wise arithmetic, min/max/abs, comparisons to a 4-bit mask, loading four 16-bit
// quantized coordinates or four 32-bit integers, and a prefetch hint.
//
// Rounding: every operation is one IEEE single-precision operation per lane, the same as the
// scalar code computing the same expression (octree_core is compiled with -ffp-contract=off, so
// neither form is fused into an FMA). Scalar and SIMD paths therefore give identical bits.
// min/max follow SSE's rule (the second operand when either is NaN), in both forms; the ray slab
// test relies on it to drop a NaN first operand (octree_query.cpp RaySlab4).

#include <cstdint>

#include "octree_fps/geometry/bit_cast.h"

// Which path (CMake's OCTREE_FPS_SIMD, README "Platforms"): OFPS_SIMD_SCALAR forces the plain
// arrays everywhere; otherwise SSE2 on x86-64, and elsewhere SSE2 written through SIMDe
// (OFPS_SIMD_SIMDE: NEON on ARM64, SIMD128 on WebAssembly built with -msimd128, portable C
// otherwise), which keeps x86's results bit for bit, NaN rule of min/max included.
#if defined(OFPS_SIMD_SCALAR)
// the plain fallback below
#elif defined(OFPS_SIMD_SIMDE)
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/sse2.h>
#define OFPS_SIMD4_SSE2 1
#elif defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#include <xmmintrin.h>
#define OFPS_SIMD4_SSE2 1
#endif

namespace ofps::simd {

#if defined(OFPS_SIMD4_SSE2)

struct F4 {
  __m128 v;
};
inline F4 splat(float x) {
  return {_mm_set1_ps(x)};
}
inline F4 operator+(F4 a, F4 b) {
  return {_mm_add_ps(a.v, b.v)};
}
inline F4 operator-(F4 a, F4 b) {
  return {_mm_sub_ps(a.v, b.v)};
}
inline F4 operator*(F4 a, F4 b) {
  return {_mm_mul_ps(a.v, b.v)};
}
inline F4 min(F4 a, F4 b) {
  return {_mm_min_ps(a.v, b.v)};
}
inline F4 max(F4 a, F4 b) {
  return {_mm_max_ps(a.v, b.v)};
}
// Bit i set when lane i satisfies the comparison.
inline uint32_t lessEqual(F4 a, F4 b) {
  return static_cast<uint32_t>(_mm_movemask_ps(_mm_cmple_ps(a.v, b.v)));
}
inline F4 operator/(F4 a, F4 b) {
  return {_mm_div_ps(a.v, b.v)};
}
inline F4 load(const float* p) {
  return {_mm_loadu_ps(p)};
}
inline void store(float* out, F4 a) {
  _mm_storeu_ps(out, a.v);
}
inline uint32_t equal(F4 a, F4 b) {
  return static_cast<uint32_t>(_mm_movemask_ps(_mm_cmpeq_ps(a.v, b.v)));
}
inline uint32_t less(F4 a, F4 b) {
  return static_cast<uint32_t>(_mm_movemask_ps(_mm_cmplt_ps(a.v, b.v)));
}
// a with its sign flipped in the lanes where s has its sign bit set (an exact negation).
inline F4 flipSign(F4 a, F4 s) {
  return {_mm_xor_ps(a.v, _mm_and_ps(s.v, _mm_set1_ps(-0.0f)))};
}
// Lane masks (all bits set where true) and selection, for branch-free region tests.
struct M4 {
  __m128 v;
};
inline M4 le(F4 a, F4 b) {
  return {_mm_cmple_ps(a.v, b.v)};
}
inline M4 ge(F4 a, F4 b) {
  return {_mm_cmpge_ps(a.v, b.v)};
}
inline M4 gt(F4 a, F4 b) {
  return {_mm_cmpgt_ps(a.v, b.v)};
}
inline M4 operator&(M4 a, M4 b) {
  return {_mm_and_ps(a.v, b.v)};
}
inline M4 operator|(M4 a, M4 b) {
  return {_mm_or_ps(a.v, b.v)};
}
// b where a is false: (not a) and b.
inline M4 andNot(M4 a, M4 b) {
  return {_mm_andnot_ps(a.v, b.v)};
}
// !(a > b): true where a <= b and where either is NaN.
inline M4 notGreater(F4 a, F4 b) {
#if defined(OFPS_SIMD_SIMDE)
  // SIMDe 0.7.4 (Debian 12) writes _mm_cmpngt_ps as a <= b on NEON and in its portable C, which is
  // false where either lane is NaN (SSE answers true): complement a > b instead, which every path
  // computes as SSE does (tests/geometry/simd4_paths_test.cpp found it under qemu-aarch64).
  return {_mm_xor_ps(_mm_cmpgt_ps(a.v, b.v), _mm_castsi128_ps(_mm_set1_epi32(-1)))};
#else
  return {_mm_cmpngt_ps(a.v, b.v)};
#endif
}
// Bit i set when lane i is true.
inline uint32_t bits(M4 m) {
  return static_cast<uint32_t>(_mm_movemask_ps(m.v));
}
// True in the lanes whose 32-bit word has its top bit set.
inline M4 topBitLanes(const uint32_t w[4]) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(w));
  return {_mm_castsi128_ps(_mm_srai_epi32(v, 31))};
}
// Four rows of four floats (16 bytes each at r0..r3) transposed: a = the rows' first floats, ...
inline void loadTransposed(const float* r0, const float* r1, const float* r2, const float* r3,
                           F4& a, F4& b, F4& c, F4& d) {
  __m128 x0 = _mm_loadu_ps(r0), x1 = _mm_loadu_ps(r1), x2 = _mm_loadu_ps(r2), x3 = _mm_loadu_ps(r3);
  _MM_TRANSPOSE4_PS(x0, x1, x2, x3);
  a = {x0};
  b = {x1};
  c = {x2};
  d = {x3};
}
// m ? a : b, lane by lane.
inline F4 select(M4 m, F4 a, F4 b) {
  return {_mm_or_ps(_mm_and_ps(m.v, a.v), _mm_andnot_ps(m.v, b.v))};
}
// Four consecutive unsigned 16-bit values (8 bytes at p) as floats (exact).
inline F4 loadU16(const uint16_t* p) {
  const __m128i x = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  return {_mm_cvtepi32_ps(_mm_unpacklo_epi16(x, _mm_setzero_si128()))};
}
// Four integers as floats (lane 0 = a), rounded to nearest as static_cast<float> does.
inline F4 fromInts(int32_t a, int32_t b, int32_t c, int32_t d) {
  return {_mm_cvtepi32_ps(_mm_set_epi32(d, c, b, a))};
}
// |a| lane by lane (clears the sign bit, as std::fabs).
inline F4 abs(F4 a) {
  return {_mm_andnot_ps(_mm_set1_ps(-0.0f), a.v)};
}

#else

struct F4 {
  float v[4];
};
inline F4 splat(float x) {
  return {{x, x, x, x}};
}
#define OFPS_SIMD4_LANEWISE(expr)              \
  F4 r;                                        \
  for (int i = 0; i < 4; ++i) r.v[i] = (expr); \
  return r
inline F4 operator+(F4 a, F4 b) {
  OFPS_SIMD4_LANEWISE(a.v[i] + b.v[i]);
}
inline F4 operator-(F4 a, F4 b) {
  OFPS_SIMD4_LANEWISE(a.v[i] - b.v[i]);
}
inline F4 operator*(F4 a, F4 b) {
  OFPS_SIMD4_LANEWISE(a.v[i] * b.v[i]);
}
inline F4 min(F4 a, F4 b) {
  OFPS_SIMD4_LANEWISE(a.v[i] < b.v[i] ? a.v[i] : b.v[i]);
}
inline F4 max(F4 a, F4 b) {
  OFPS_SIMD4_LANEWISE(a.v[i] > b.v[i] ? a.v[i] : b.v[i]);
}
inline F4 operator/(F4 a, F4 b) {
  OFPS_SIMD4_LANEWISE(a.v[i] / b.v[i]);
}
inline F4 loadU16(const uint16_t* p) {
  OFPS_SIMD4_LANEWISE(static_cast<float>(p[i]));
}
inline F4 fromInts(int32_t a, int32_t b, int32_t c, int32_t d) {
  const int32_t x[4] = {a, b, c, d};
  OFPS_SIMD4_LANEWISE(static_cast<float>(x[i]));
}
inline F4 abs(F4 a) {
  OFPS_SIMD4_LANEWISE(ofps::bitCast<float>(ofps::bitCast<uint32_t>(a.v[i]) & 0x7FFFFFFFu));
}
inline F4 load(const float* p) {
  OFPS_SIMD4_LANEWISE(p[i]);
}
inline F4 flipSign(F4 a, F4 s) {
  OFPS_SIMD4_LANEWISE(ofps::bitCast<float>(ofps::bitCast<uint32_t>(a.v[i]) ^
                                           (ofps::bitCast<uint32_t>(s.v[i]) & 0x80000000u)));
}
#undef OFPS_SIMD4_LANEWISE
inline uint32_t lessEqual(F4 a, F4 b) {
  uint32_t m = 0;
  for (int i = 0; i < 4; ++i) m |= (a.v[i] <= b.v[i] ? 1u : 0u) << i;
  return m;
}
inline void store(float* out, F4 a) {
  for (int i = 0; i < 4; ++i) out[i] = a.v[i];
}
struct M4 {
  bool v[4];
};
inline M4 le(F4 a, F4 b) {
  return {{a.v[0] <= b.v[0], a.v[1] <= b.v[1], a.v[2] <= b.v[2], a.v[3] <= b.v[3]}};
}
inline M4 ge(F4 a, F4 b) {
  return {{a.v[0] >= b.v[0], a.v[1] >= b.v[1], a.v[2] >= b.v[2], a.v[3] >= b.v[3]}};
}
inline M4 gt(F4 a, F4 b) {
  return {{a.v[0] > b.v[0], a.v[1] > b.v[1], a.v[2] > b.v[2], a.v[3] > b.v[3]}};
}
inline M4 operator&(M4 a, M4 b) {
  return {{a.v[0] && b.v[0], a.v[1] && b.v[1], a.v[2] && b.v[2], a.v[3] && b.v[3]}};
}
inline M4 operator|(M4 a, M4 b) {
  return {{a.v[0] || b.v[0], a.v[1] || b.v[1], a.v[2] || b.v[2], a.v[3] || b.v[3]}};
}
inline M4 andNot(M4 a, M4 b) {
  return {{!a.v[0] && b.v[0], !a.v[1] && b.v[1], !a.v[2] && b.v[2], !a.v[3] && b.v[3]}};
}
inline M4 notGreater(F4 a, F4 b) {
  return {{!(a.v[0] > b.v[0]), !(a.v[1] > b.v[1]), !(a.v[2] > b.v[2]), !(a.v[3] > b.v[3])}};
}
inline uint32_t bits(M4 m) {
  return (m.v[0] ? 1u : 0u) | (m.v[1] ? 2u : 0u) | (m.v[2] ? 4u : 0u) | (m.v[3] ? 8u : 0u);
}
inline M4 topBitLanes(const uint32_t w[4]) {
  return {{(w[0] >> 31) != 0, (w[1] >> 31) != 0, (w[2] >> 31) != 0, (w[3] >> 31) != 0}};
}
inline void loadTransposed(const float* r0, const float* r1, const float* r2, const float* r3,
                           F4& a, F4& b, F4& c, F4& d) {
  const float* r[4] = {r0, r1, r2, r3};
  for (int i = 0; i < 4; ++i) {
    a.v[i] = r[i][0];
    b.v[i] = r[i][1];
    c.v[i] = r[i][2];
    d.v[i] = r[i][3];
  }
}
inline F4 select(M4 m, F4 a, F4 b) {
  return {{m.v[0] ? a.v[0] : b.v[0], m.v[1] ? a.v[1] : b.v[1], m.v[2] ? a.v[2] : b.v[2],
           m.v[3] ? a.v[3] : b.v[3]}};
}
inline uint32_t equal(F4 a, F4 b) {
  uint32_t m = 0;
  for (int i = 0; i < 4; ++i) m |= (a.v[i] == b.v[i] ? 1u : 0u) << i;
  return m;
}
inline uint32_t less(F4 a, F4 b) {
  uint32_t m = 0;
  for (int i = 0; i < 4; ++i) m |= (a.v[i] < b.v[i] ? 1u : 0u) << i;
  return m;
}

#endif

// Hint that p will be read soon (no effect on results; nothing where the compiler has no hint).
inline void prefetch(const void* p) {
#if defined(__GNUC__)
  __builtin_prefetch(p, 0, 3);
#else
  (void)p;
#endif
}

}  // namespace ofps::simd
