#pragma once
// Four-lane float helpers for the octree's traversal loops: SSE2 (every x86-64 CPU) where the
// compiler offers it, plain arrays elsewhere. Only what the octree needs: lane-wise arithmetic,
// min/max, comparisons to a 4-bit mask, and loading four 16-bit quantized coordinates.
//
// Rounding: every operation is one IEEE single-precision operation per lane, the same as the
// scalar code computing the same expression (octree_core is compiled with -ffp-contract=off, so
// neither form is fused into an FMA). Scalar and SIMD paths therefore give identical bits.
// min/max follow SSE's rule (the second operand when either is NaN), in both forms; the ray slab
// test relies on it to drop a NaN first operand (octree_query.cpp RaySlab4).

#include <bit>
#include <cstdint>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define OFPS_SIMD4_SSE2 1
#endif

namespace ofps::simd {

#if defined(OFPS_SIMD4_SSE2)

struct F4 {
  __m128 v;
};
inline F4 splat(float x) { return {_mm_set1_ps(x)}; }
inline F4 operator+(F4 a, F4 b) { return {_mm_add_ps(a.v, b.v)}; }
inline F4 operator-(F4 a, F4 b) { return {_mm_sub_ps(a.v, b.v)}; }
inline F4 operator*(F4 a, F4 b) { return {_mm_mul_ps(a.v, b.v)}; }
inline F4 min(F4 a, F4 b) { return {_mm_min_ps(a.v, b.v)}; }
inline F4 max(F4 a, F4 b) { return {_mm_max_ps(a.v, b.v)}; }
// Bit i set when lane i satisfies the comparison.
inline uint32_t lessEqual(F4 a, F4 b) { return static_cast<uint32_t>(_mm_movemask_ps(_mm_cmple_ps(a.v, b.v))); }
inline F4 operator/(F4 a, F4 b) { return {_mm_div_ps(a.v, b.v)}; }
inline F4 load(const float* p) { return {_mm_loadu_ps(p)}; }
inline void store(float* out, F4 a) { _mm_storeu_ps(out, a.v); }
inline uint32_t equal(F4 a, F4 b) { return static_cast<uint32_t>(_mm_movemask_ps(_mm_cmpeq_ps(a.v, b.v))); }
inline uint32_t less(F4 a, F4 b) { return static_cast<uint32_t>(_mm_movemask_ps(_mm_cmplt_ps(a.v, b.v))); }
// a with its sign flipped in the lanes where s has its sign bit set (an exact negation).
inline F4 flipSign(F4 a, F4 s) { return {_mm_xor_ps(a.v, _mm_and_ps(s.v, _mm_set1_ps(-0.0f)))}; }
// Lane masks (all bits set where true) and selection, for branch-free region tests.
struct M4 {
  __m128 v;
};
inline M4 le(F4 a, F4 b) { return {_mm_cmple_ps(a.v, b.v)}; }
inline M4 ge(F4 a, F4 b) { return {_mm_cmpge_ps(a.v, b.v)}; }
inline M4 gt(F4 a, F4 b) { return {_mm_cmpgt_ps(a.v, b.v)}; }
inline M4 operator&(M4 a, M4 b) { return {_mm_and_ps(a.v, b.v)}; }
// m ? a : b, lane by lane.
inline F4 select(M4 m, F4 a, F4 b) { return {_mm_or_ps(_mm_and_ps(m.v, a.v), _mm_andnot_ps(m.v, b.v))}; }
// Four consecutive unsigned 16-bit values (8 bytes at p) as floats (exact).
inline F4 loadU16(const uint16_t* p) {
  const __m128i x = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p));
  return {_mm_cvtepi32_ps(_mm_unpacklo_epi16(x, _mm_setzero_si128()))};
}

#else

struct F4 {
  float v[4];
};
inline F4 splat(float x) { return {{x, x, x, x}}; }
#define OFPS_SIMD4_LANEWISE(expr) \
  F4 r;                           \
  for (int i = 0; i < 4; ++i) r.v[i] = (expr); \
  return r
inline F4 operator+(F4 a, F4 b) { OFPS_SIMD4_LANEWISE(a.v[i] + b.v[i]); }
inline F4 operator-(F4 a, F4 b) { OFPS_SIMD4_LANEWISE(a.v[i] - b.v[i]); }
inline F4 operator*(F4 a, F4 b) { OFPS_SIMD4_LANEWISE(a.v[i] * b.v[i]); }
inline F4 min(F4 a, F4 b) { OFPS_SIMD4_LANEWISE(a.v[i] < b.v[i] ? a.v[i] : b.v[i]); }
inline F4 max(F4 a, F4 b) { OFPS_SIMD4_LANEWISE(a.v[i] > b.v[i] ? a.v[i] : b.v[i]); }
inline F4 operator/(F4 a, F4 b) { OFPS_SIMD4_LANEWISE(a.v[i] / b.v[i]); }
inline F4 loadU16(const uint16_t* p) { OFPS_SIMD4_LANEWISE(static_cast<float>(p[i])); }
inline F4 load(const float* p) { OFPS_SIMD4_LANEWISE(p[i]); }
inline F4 flipSign(F4 a, F4 s) {
  OFPS_SIMD4_LANEWISE(std::bit_cast<float>(std::bit_cast<uint32_t>(a.v[i]) ^
                                           (std::bit_cast<uint32_t>(s.v[i]) & 0x80000000u)));
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
inline M4 le(F4 a, F4 b) { return {{a.v[0] <= b.v[0], a.v[1] <= b.v[1], a.v[2] <= b.v[2], a.v[3] <= b.v[3]}}; }
inline M4 ge(F4 a, F4 b) { return {{a.v[0] >= b.v[0], a.v[1] >= b.v[1], a.v[2] >= b.v[2], a.v[3] >= b.v[3]}}; }
inline M4 gt(F4 a, F4 b) { return {{a.v[0] > b.v[0], a.v[1] > b.v[1], a.v[2] > b.v[2], a.v[3] > b.v[3]}}; }
inline M4 operator&(M4 a, M4 b) { return {{a.v[0] && b.v[0], a.v[1] && b.v[1], a.v[2] && b.v[2], a.v[3] && b.v[3]}}; }
inline F4 select(M4 m, F4 a, F4 b) {
  return {{m.v[0] ? a.v[0] : b.v[0], m.v[1] ? a.v[1] : b.v[1], m.v[2] ? a.v[2] : b.v[2], m.v[3] ? a.v[3] : b.v[3]}};
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

}  // namespace ofps::simd
