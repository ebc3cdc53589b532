#pragma once
// Internal to the core (src/octree_fps/culling; not an installed interface): the occlusion
// buffer's scan conversion and projected-hull helpers, with their error arguments. They live in
// an anonymous namespace on purpose: each file that includes this one gets its own copy, compiled
// for that file's target (occlusion_isa_inl.h), so the AVX2 kernels never call a baseline helper
// and no baseline caller can end up with an AVX2 one.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#include "octree_fps/culling/occlusion_buffer.h"
#include "octree_fps/geometry/simd4.h"

// The float hidden tests' helpers below run per box and per block of four triangles; a call
// with their four-lane arguments costs as much as a good part of their work.
#if defined(__GNUC__) || defined(__clang__)
#define OFPS_OCCLUSION_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define OFPS_OCCLUSION_INLINE __forceinline
#else
#define OFPS_OCCLUSION_INLINE inline
#endif

namespace ofps {

namespace {

// Relative rounding margin of every affine screen function below. The functions are a handful of
// double operations on float inputs (error ~1e-15 relative to their magnitude), so 1e-10 is
// orders of magnitude above the error and still far below a pixel or a depth step that matters.
constexpr double kMargin = 1e-10;
// A triangle whose homogeneous determinant is this small relative to its vertices' magnitudes is
// (nearly) edge-on; it covers no whole pixel worth having, and its depth plane would be
// ill-conditioned, so it is skipped (skipping an occluder is always safe).
constexpr double kMinConditioning = 1e-6;
// Relative widening of each row's span bounds past the rounding of their two operations.
constexpr double kSpanSlack = 1e-12;

using Clip = OcclusionBuffer::ClipPoint;

struct Vec3d {
  double x, y, z;
};

inline Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline double dot(const Vec3d& a, const Vec3d& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline double norm1(const Vec3d& a) {
  return std::fabs(a.x) + std::fabs(a.y) + std::fabs(a.z);
}

// An affine function of the pixel position, f(x, y) = a x + b y + c, and its rounding margin.
struct ScreenFunction {
  double a, b, c, margin;
};

// Smallest float >= v (v finite).
inline float floatAbove(double v) {
  float f = static_cast<float>(v);
  if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

// A float <= v, within 2^-22 of it (v finite; NaN stays NaN): lowering v by 2^-23 of its size (plus
// an absolute 2^-140 for the subnormal range) before rounding to nearest (error at most 2^-24 of
// the result, or 2^-150 absolute) cannot land above v.
inline float floatBelow(double v) {
  return static_cast<float>(v - (std::fabs(v) * 0x1p-23 + 0x1p-140));
}

// A depth function evaluated in float over a rectangle of pixels, as a lower bound. The exact
// value at pixel (i, j)'s minimizing corner is a i + b j + C, C = c - margin + a [a < 0] + b [b <
// 0]. In float, A = fl(a), B = fl(b), the row base r_j = fl(fl(B j) + Cf) and the pixel value
// fl(r_j + fl(A i)), with i, j exact small integers. With u = 2^-24: A and B are within u of a
// and b, and each product and sum adds at most u of its result, so the value is within 3u |a| |i|
// + 4u |b| |j| + 2u |Cf| (and terms in u^2) of a i + b j + Cf: under 4.01 u M, M = |a| xm + |b| ym
// + |C|, with xm, ym the largest |i|, |j| over the rectangle (at least 1, so that M also bounds
// the terms of C, computed in double within 2^-51 M). Cf lowers C by 2^-21 M (then floatBelow
// rounds down to float), about twice those 4.01 u M = 2^-21.997 M: every value written is a lower
// bound of the function, and the function's own margin makes that a lower bound of 1 / w over
// the pixel. A zero M leaves the absolute 2^-120, above any underflow (2^-149 per operation). The
// rows then cost one product and one sum each.
struct FloatPlane {
  float a, b, c;
};
inline FloatPlane floatPlane(const ScreenFunction& d, int32_t x0, int32_t x1, int32_t y0,
                             int32_t y1) {
  const double c = (d.c - d.margin) + (d.a < 0.0 ? d.a : 0.0) + (d.b < 0.0 ? d.b : 0.0);
  const auto largest = [](int32_t lo, int32_t hi) {
    return std::max(
        1.0, std::max(std::fabs(static_cast<double>(lo)), std::fabs(static_cast<double>(hi))));
  };
  const double magnitude =
      std::fabs(d.a) * largest(x0, x1) + std::fabs(d.b) * largest(y0, y1) + std::fabs(c);
  return {static_cast<float>(d.a), static_cast<float>(d.b),
          floatBelow(c - (0x1p-21 * magnitude + 0x1p-120))};
}

// Converts p X + q Y + r (X, Y in normalized device coordinates) to pixel units.
inline ScreenFunction toPixels(const Vec3d& pqr, double margin, double width, double height) {
  return {pqr.x * 2.0 / width, pqr.y * 2.0 / height, pqr.z - pqr.x - pqr.y, margin};
}

// floor(v) and ceil(v) clamped to [lo, hi], without a libm call (the baseline x86-64 target has
// no rounding instruction, and these run four times per row of every occluder).
// Written as selects (minsd / maxsd on x86-64) rather than branches: these bounds vary from row
// to row in ways a branch predictor cannot follow.
inline int32_t floorClamped(double v, int32_t lo, int32_t hi) {
  double c = v > lo ? v : static_cast<double>(lo);  // also NaN: lo, the safe upper bound
  c = c < hi ? c : static_cast<double>(hi);
  const int32_t i = static_cast<int32_t>(c);  // truncates toward zero
  return i - (static_cast<double>(i) > c ? 1 : 0);
}
// A NaN lower bound gives hi (no pixel passes), the safe answer.
inline int32_t ceilClamped(double v, int32_t lo, int32_t hi) {
  double c = v < hi ? v : static_cast<double>(hi);  // also NaN: hi
  c = c > lo ? c : static_cast<double>(lo);
  const int32_t i = static_cast<int32_t>(c);
  return i + (static_cast<double>(i) < c ? 1 : 0);
}

// The four-lane (SSE2, or plain arrays) form of the lane operations that the pixel spans and the
// hull helpers below are written in; occlusion_kernels_avx2.cpp has an eight-lane one (Lanes8) with
// the same members. Every member is one IEEE operation per lane, so both give the same bits lane by
// lane.
struct Lanes4 {
  static constexpr int kCount = 4;
  using F = simd::F4;
  using M = simd::M4;
  static F splat(float x) { return simd::splat(x); }
  static F load(const float* p) { return simd::load(p); }
  static F iota() { return simd::fromInts(0, 1, 2, 3); }  // lane i holds i
  // A value that begin() stored splatted four times (vpf_, vpMag_), in every lane.
  static F splatted(const float (&v)[4]) { return simd::load(v); }
  static void store(float* out, F a) { simd::store(out, a); }
  static F min(F a, F b) { return simd::min(a, b); }
  static F max(F a, F b) { return simd::max(a, b); }
  static F abs(F a) { return simd::abs(a); }
  static F select(M m, F a, F b) { return simd::select(m, a, b); }
  static M gt(F a, F b) { return simd::gt(a, b); }
  static M ge(F a, F b) { return simd::ge(a, b); }
  static M le(F a, F b) { return simd::le(a, b); }
  static uint32_t bits(M m) { return simd::bits(m); }
  // Bit i set when pixel row[i] (i < 8) is strictly nearer than depth (false on NaN).
  static uint32_t nearer8(const float* row, F depth) {
    return simd::less(depth, simd::load(row)) | (simd::less(depth, simd::load(row + 4)) << 4);
  }
  // Row spans (fillConvex): the scalar loops; Lanes8 evaluates up to two left and two right
  // bounds in one four-lane double vector.
  struct Spans {};
  static bool prepareSpans(const double*, const double*, int, const double*, const double*, int,
                           int32_t, int32_t, Spans*) {
    return false;
  }
  static void rowSpan(const Spans&, double, int32_t*, int32_t*) {}
};

// The lane type of a kernel set's pixel spans (fillConvex): Lanes4, unless the kernels' own file
// specializes it (occlusion_kernels_avx2.cpp: Lanes8).
template <class Isa>
struct PixelLanes {
  using type = Lanes4;
};

// The buffer arrays fillConvex writes.
struct Target {
  float* pixels;
  uint8_t* tileDirty;
  uint32_t width, tilesX;
  bool* raised;  // set to whether the fill made any pixel nearer
};

constexpr int kMaxFunctions = 5;

// One row's span of fillConvex: pixels lo .. lo + last (last >= V::kCount - 1) of row `pixels`
// raised to the smaller of the kDepths depth planes' values there (base[k] + planes[k].a *
// column), V's lanes at a time; the last group may overlap the one before it, which is harmless
// (writing the larger of two values twice changes nothing). Returns whether a pixel was raised.
template <class V, int kDepths>
OFPS_OCCLUSION_INLINE bool maxSpan(float* pixels, int32_t lo, int32_t last, const float* base,
                                   const FloatPlane* planes) {
  using F = typename V::F;
  constexpr int32_t n = V::kCount;
  const F base0 = V::splat(base[0]), step0 = V::splat(planes[0].a);
  const F base1 = V::splat(kDepths > 1 ? base[1] : 0.0f);
  const F step1 = V::splat(kDepths > 1 ? planes[1].a : 0.0f);
  typename V::M raised = V::gt(base0, base0);  // all false (or NaN: false too)
  const auto group = [&](float* out, F column) {
    F value = base0 + step0 * column;
    if constexpr (kDepths > 1) value = V::min(value, base1 + step1 * column);
    // max(value, old): a NaN value keeps the old pixel (SSE's rule, second operand).
    const F old = V::load(out);
    raised = raised | V::gt(value, old);
    V::store(out, V::max(value, old));
  };
  // Columns are small integers, exact in float however they are summed.
  const F lanes = V::iota(), stride = V::splat(static_cast<float>(n));
  F column = lanes + V::splat(static_cast<float>(lo));
  float* out = pixels + lo;
  float* const lastGroup = pixels + lo + (last - (n - 1));
  for (; out < lastGroup; out += n, column = column + stride) group(out, column);
  group(lastGroup, lanes + V::splat(static_cast<float>(lo + last - (n - 1))));
  return V::bits(raised) != 0;
}

// A row's span shorter than V's lanes (last < V::kCount - 1): one group of lanes that holds it,
// starting at lo or, near the row's right end, early enough to stay inside the row (width >=
// V::kCount), with the lanes outside the span keeping their pixels. The same lane operations as
// maxSpan, so a pixel gets the same value whichever of the two writes it; no branch on the
// span's length (short spans are most rows, and their lengths vary from row to row).
template <class V, int kDepths>
OFPS_OCCLUSION_INLINE bool maskedSpan(float* pixels, int32_t lo, int32_t last, int32_t width,
                                      const float* base, const FloatPlane* planes) {
  using F = typename V::F;
  const int32_t start = std::min(lo, width - V::kCount);
  const F column = V::iota() + V::splat(static_cast<float>(start));  // exact: small integers
  const typename V::M inside = V::ge(column, V::splat(static_cast<float>(lo))) &
                               V::le(column, V::splat(static_cast<float>(lo + last)));
  F value = V::splat(base[0]) + V::splat(planes[0].a) * column;
  if constexpr (kDepths > 1) {
    value = V::min(value, V::splat(base[1]) + V::splat(planes[1].a) * column);
  }
  float* out = pixels + start;
  const F old = V::load(out);
  // max(value, old): a NaN value keeps the old pixel (SSE's rule, second operand).
  V::store(out, V::select(inside, V::max(value, old), old));
  return V::bits(inside & V::gt(value, old)) != 0;
}

// Writes every pixel of rows y0..y1, columns x0..x1 that passes all `count` coverage functions
// (each >= its margin at the pixel's minimizing corner) with the smallest of the kDepths (1 or 2)
// depth functions over the pixel, minus their margins, rounded down to float, keeping the larger
// value already there. Returns the pixels covered. V: the lane type of the pixel loop (Lanes4;
// eight lanes in the AVX2 kernels); every pixel gets the same value with any V.
template <class V, int kDepths>
uint32_t fillConvex(const Target& target, const ScreenFunction* edges, int count,
                    const ScreenFunction* depths, int32_t x0, int32_t x1, int32_t y0, int32_t y1) {
  static_assert(kDepths == 1 || kDepths == 2, "a triangle's plane, or a pair's two");
  // Row bounds of each function: on row j, pixel i passes function f (f >= margin at its
  // minimizing corner) iff its left end (a > 0) or right end (a < 0) is past
  // T = (margin - c - b * y) / a, y = j + (b < 0) being the row's minimizing edge. Per function,
  // rowP = (margin - c - b (b < 0)) / a and rowQ = b / a make T = rowP - rowQ j, one multiply-add
  // per row. Their rounding, and that of widening them by the slack, is a few units in the last
  // place of |rowP| + |rowQ| ymax (ymax = the largest |y| of the rows); kSpanSlack of that size,
  // added towards the inside once per triangle, covers it, so every pixel kept passes the
  // function exactly. The functions are sorted by the sign of a once, so the rows do not branch
  // on it; a function with a = 0 is tested row by row as it is.
  double leftP[kMaxFunctions], leftQ[kMaxFunctions], rightP[kMaxFunctions], rightQ[kMaxFunctions];
  const ScreenFunction* flat[kMaxFunctions];
  int lefts = 0, rights = 0, flats = 0;
  const double ymax = std::max(std::fabs(static_cast<double>(y0)), std::fabs(y1 + 1.0));
  for (int k = 0; k < count; ++k) {
    const ScreenFunction& f = edges[k];
    if (f.a == 0.0) {
      flat[flats++] = &f;
      continue;
    }
    const double p = (f.margin - f.c - std::min(0.0, f.b)) / f.a;  // b if b < 0, else 0
    const double q = f.b / f.a;
    const double slack = kSpanSlack * (std::fabs(p) + std::fabs(q) * (ymax + 1.0));
    // Both sides' next entries written, one side's count advanced: which edges face left
    // varies from triangle to triangle, and a branch on it mispredicted.
    const int left = f.a > 0.0 ? 1 : 0;
    leftP[lefts] = p + slack;
    leftQ[lefts] = q;
    rightP[rights] = p - slack;
    rightQ[rights] = q;
    lefts += left;
    rights += 1 - left;
  }
  FloatPlane planes[kDepths];
  for (int k = 0; k < kDepths; ++k) planes[k] = floatPlane(depths[k], x0, x1, y0, y1);
  uint32_t covered = 0;
  bool raised = false;
  // The rows written and the hull of their spans: their tiles are marked dirty once, after the
  // rows (a tile of the hull that no span reached is marked too, which only costs it a refresh
  // before its next test; a per-row record cost more than those refreshes). The marks are for
  // speed only: pixels only rise within a frame, so a stale tile minimum is still a lower bound,
  // and a tile it fails to settle is scanned pixel by pixel.
  int32_t firstRow = -1, lastRow = -1, spanLo = x1 + 1, spanHi = x0 - 1;
  // The lane type may evaluate the bounds of a row side by side (the same double operations,
  // hence the same integers); otherwise, or for more functions than it takes, the loops below.
  typename V::Spans vectorSpans;
  const bool vector =
      V::prepareSpans(leftP, leftQ, lefts, rightP, rightQ, rights, x0, x1, &vectorSpans);
  for (int32_t j = y0; j <= y1; ++j) {
    // Each function's pixels on this row form a half-line; intersect them.
    int32_t lo = x0, hi = x1;
    const double row = j;
    if (vector) {
      V::rowSpan(vectorSpans, row, &lo, &hi);
    } else {
      for (int k = 0; k < lefts; ++k) {
        lo = std::max(lo, ceilClamped(leftP[k] - leftQ[k] * row, x0, x1 + 1));
      }
      for (int k = 0; k < rights; ++k) {
        hi = std::min(hi, floorClamped(rightP[k] - rightQ[k] * row, x0 - 1, x1 + 1) - 1);
      }
    }
    for (int k = 0; k < flats; ++k) {
      const ScreenFunction& f = *flat[k];
      if (!(f.b * (row + (f.b < 0.0 ? 1.0 : 0.0)) + f.c >= f.margin)) hi = lo - 1;
    }
    if (lo > hi) {
      // Stop at the first row without a whole pixel after a row with some. For most triangles
      // there is nothing below it, but not for all: the whole pixels of a slanted sliver can be
      // rows apart (on oa_dm1 one triangle holds 11 whole pixels and only 1 is written; over the
      // walks, 0.2-0.45 % of the occluder pixels are lost: bench/micro/OCCLUSION_RESULTS.md,
      // round 6). Dropping occluder pixels is always safe, and the rows below are not scanned.
      if (firstRow >= 0) break;
      continue;
    }
    if (firstRow < 0) firstRow = j;
    lastRow = j;
    spanLo = std::min(spanLo, lo);
    spanHi = std::max(spanHi, hi);
    float* rowPixels = &target.pixels[static_cast<size_t>(j) * target.width];
    // Each depth function's smallest value over the pixel (at its minimizing corner), as a float
    // lower bound (floatPlane); with several (a pair of triangles), the smallest of them.
    const int32_t last = hi - lo;
    const float rowF = static_cast<float>(j);
    float base[kDepths];
    for (int k = 0; k < kDepths; ++k) base[k] = planes[k].b * rowF + planes[k].c;
    if (last >= V::kCount - 1) {
      raised = maxSpan<V, kDepths>(rowPixels, lo, last, base, planes) || raised;
    } else {
      raised = maskedSpan<V, kDepths>(rowPixels, lo, last, static_cast<int32_t>(target.width), base,
                                      planes) ||
               raised;
    }
    covered += static_cast<uint32_t>(hi - lo + 1);
  }
  if (firstRow >= 0) {
    const uint32_t t0 = static_cast<uint32_t>(spanLo) / kOcclusionTileSize;
    const uint32_t t1 = static_cast<uint32_t>(spanHi) / kOcclusionTileSize;
    for (uint32_t ty = static_cast<uint32_t>(firstRow) / kOcclusionTileSize;
         ty <= static_cast<uint32_t>(lastRow) / kOcclusionTileSize; ++ty) {
      for (uint32_t t = t0; t <= t1; ++t) target.tileDirty[ty * target.tilesX + t] = 1;
    }
  }
  *target.raised = raised;
  return covered;
}

// 1 / w over the plane of the triangle with homogeneous vertices h (see rasterizeTriangle), as a
// pixel-space function with its rounding margin. False when the triangle is (nearly) edge-on.
// norms[i] = norm1(h[i]) and e[i] = cross(h[i + 1], h[i + 2]) (indices mod 3), which the caller
// has computed already for its edges.
inline bool inverseDepthFunction(const Vec3d (&h)[3], const double (&norms)[3], const Vec3d (&e)[3],
                                 double width, double height, ScreenFunction* out) {
  const double mag[3] = {norms[1] * norms[2], norms[2] * norms[0], norms[0] * norms[1]};
  const double det = dot(h[0], e[0]);
  const double volume = norms[0] * mag[0];
  if (!(std::fabs(det) > kMinConditioning * volume)) return false;
  const double sign = det > 0.0 ? 1.0 : -1.0;
  Vec3d sum{0.0, 0.0, 0.0};
  for (int i = 0; i < 3; ++i) {
    sum = {sum.x + sign * e[i].x, sum.y + sign * e[i].y, sum.z + sign * e[i].z};
  }
  const double invDet = 1.0 / std::fabs(det);
  const double margin = kMargin * (volume * invDet) * (mag[0] + mag[1] + mag[2]) * invDet;
  *out = toPixels({sum.x * invDet, sum.y * invDet, sum.z * invDet}, margin, width, height);
  return true;
}

// The projected hull of points transformed in float, four points (lanes) at a time, with every
// bound taken outward past its rounding. Error argument (u = 2^-24, the unit roundoff):
// - Clip coordinates. Each is v = ((m0 x + m1 y) + m2 z) + m3 in float: a recursively summed dot
//   product of four terms (the last exact), in error by at most gamma_4 E, E = |m0 x| + |m1 y| +
//   |m2 z| + |m3| and gamma_4 = 4u / (1 - 4u) < 2^-21.99 (Higham, "Accuracy and Stability of
//   Numerical Algorithms", 2nd ed., section 3.1). E <= M (|x| + |y| + |z|) + L =: F, with M the
//   largest |m0|, |m1|, |m2| and L the largest |m3| over the four rows; F is computed in float
//   from positive terms, so fl(F) >= (1 - u)^4 F. With d = 2^-20 fl(F) + 2^-100 (the absolute
//   part covers products that underflow, 2^-149 each), lo = fl(v - d) and hi = fl(v + d)
//   bracket the exact value: fl(v - d) <= v - d + u (|v| + d), |v| <= (1 + 2^-21) E, and d (1 - u)
//   >= 2^-20.01 E exceeds the dot product's error plus u |v| (2^-21.99 E + 2^-23.99 E). "Exact"
//   is the real product with the float matrix begin() received, which clipOf approximates in
//   double. A coordinate whose products or sums overflow makes d infinite too (F bounds every
//   partial sum), so its bracket is NaN or infinite and the point is never certain (below).
// - Near plane. A point is certainly beyond it when lo_w > 0 and lo_z > -lo_w (an exact float
//   comparison): then w > 0 and z + w >= lo_z + lo_w > 0. False on NaN.
// - Screen position. Then 1 / w lies in [1 / hi_w, 1 / lo_w], and x / w in [lo_x / den, hi_x /
//   den'] for the bracket end den (den') that the sign of lo_x (hi_x) calls for. Each is computed
//   as q = fl(num * fl(1 / den)): two roundings, |q - num / den| <= 2.0001 u |q|. In pixels, s =
//   fl(fl(q + 1) * half) (half = size / 2) adds two roundings of at most u |s| each (relative to
//   each result), and |q| half <= |s| + half (1 + 2^-22): in all, s is within 2^-22.9 (2 |s| +
//   half) of the exact bound. finishHull moves each bound outward by 2^-19 (|s| + half) + 1e-6
//   pixel, computed in float (a few u of that, and u of the result for the move itself): still
//   outward of the exact projected bound.
// - Depth. The nearest point's 1 / w <= 1 / lo_w <= fl(1 / lo_w) / (1 - u); multiplying by 1 +
//   2^-22 (a float product, rounded by at most u) gives a float at least 1 / lo_w.
template <class V>
struct Hull {
  typename V::F minX, maxX, minY, maxY, maxInvW;
  typename V::M ok;  // every point so far certainly beyond the near plane, and no NaN
};

// Per lane: every point so far certainly beyond the left, right, bottom, top, near or far clip
// plane (x < -w, x > w, y < -w, y > w, z < -w, z > w: each a linear function of the homogeneous
// point, so a triangle whose three vertices are beyond one plane lies wholly beyond it, whatever
// the signs of their w, and covers no point of the view).
template <class V>
struct Outside {
  typename V::M left, right, bottom, top, nearPlane, farPlane;
};

template <class V>
OFPS_OCCLUSION_INLINE Outside<V> allOutside() {
  const typename V::M all = V::ge(V::splat(0.0f), V::splat(0.0f));
  return {all, all, all, all, all, all};
}

// A hull's bounds as plain lanes, for the per-lane decisions after the SIMD part.
template <class V>
struct HullLanes {
  float x0[V::kCount], x1[V::kCount], y0[V::kCount], y1[V::kCount], depth[V::kCount];
};

template <class V>
OFPS_OCCLUSION_INLINE HullLanes<V> lanesOf(const Hull<V>& h) {
  HullLanes<V> l;
  V::store(l.x0, h.minX);
  V::store(l.x1, h.maxX);
  V::store(l.y0, h.minY);
  V::store(l.y1, h.maxY);
  V::store(l.depth, h.maxInvW);
  return l;
}

template <class V>
OFPS_OCCLUSION_INLINE Hull<V> emptyHull() {
  const float inf = std::numeric_limits<float>::infinity();
  const typename V::F zero = V::splat(0.0f);
  return {V::splat(inf), V::splat(-inf), V::splat(inf), V::splat(-inf), zero, V::ge(zero, zero)};
}

template <class V>
OFPS_OCCLUSION_INLINE void addPoints(const float (&vp)[4][4][4], const float (&mag)[2][4],
                                     typename V::F halfW, typename V::F halfH, typename V::F px,
                                     typename V::F py, typename V::F pz, Hull<V>& h,
                                     Outside<V>* outside = nullptr) {
  using F = typename V::F;
  const F zero = V::splat(0.0f), one = V::splat(1.0f);
  const F size = (V::abs(px) + V::abs(py)) + V::abs(pz);
  const F d =
      (V::splatted(mag[0]) * size + V::splatted(mag[1])) * V::splat(0x1p-20f) + V::splat(0x1p-100f);
  const auto row = [&](int r) {
    return ((V::splatted(vp[r][0]) * px + V::splatted(vp[r][1]) * py) +
            V::splatted(vp[r][2]) * pz) +
           V::splatted(vp[r][3]);
  };
  const F w = row(3);
  const F wLo = w - d, wHi = w + d;
  const F z = row(2);
  const F zLo = z - d;
  h.ok = h.ok & V::gt(wLo, zero) & V::gt(zLo, zero - wLo);
  const F invLo = one / wHi, invHi = one / wLo;
  // x / w at the bracket end the sign of x calls for, as the smaller (larger) of the two
  // products: where the point is certain, 0 < invLo <= invHi (both finite or invHi = +inf), so
  // num * invLo <= num * invHi exactly when num >= 0, and a float product is monotone in each
  // factor, so the min (max) is the very product a select on the sign would take, bit for bit.
  // The operand order keeps that true when invHi = +inf and num = +-0: min/max return their
  // second operand when one is NaN (SSE's rule, and simd4's portable form), so ratioBelow gets
  // num * invLo = +-0 as before and ratioAbove NaN (0 * inf) as before (the point then fails the
  // le() test below). Two products and a min instead of a compare, a three-instruction select on
  // SSE2 and a product.
  const auto ratioBelow = [&](F num) { return V::min(num * invHi, num * invLo); };
  const auto ratioAbove = [&](F num) { return V::max(num * invLo, num * invHi); };
  const F x = row(0), y = row(1);
  const F xLo = x - d, xHi = x + d, yLo = y - d, yHi = y + d;
  if (outside != nullptr) {
    // Certainly beyond a plane: the bracket's near end is beyond the bracket of +-w that is
    // hardest to pass (x <= xHi < -wHi <= -w, and so on; a float negation is exact). NaN: false.
    const F minusWHi = zero - wHi, zHi = z + d;
    outside->left = outside->left & V::gt(minusWHi, xHi);
    outside->right = outside->right & V::gt(xLo, wHi);
    outside->bottom = outside->bottom & V::gt(minusWHi, yHi);
    outside->top = outside->top & V::gt(yLo, wHi);
    outside->nearPlane = outside->nearPlane & V::gt(minusWHi, zHi);
    outside->farPlane = outside->farPlane & V::gt(zLo, wHi);
  }
  const F x0 = (ratioBelow(xLo) + one) * halfW, x1 = (ratioAbove(xHi) + one) * halfW;
  const F y0 = (ratioBelow(yLo) + one) * halfH, y1 = (ratioAbove(yHi) + one) * halfH;
  h.ok = h.ok & V::le(x0, x1) & V::le(y0, y1);  // false on NaN
  h.minX = V::min(h.minX, x0);
  h.maxX = V::max(h.maxX, x1);
  h.minY = V::min(h.minY, y0);
  h.maxY = V::max(h.maxY, y1);
  // Raised by 1 + 2^-22 once, in finishHull (a float product by a positive constant is
  // monotone, so the max of the raised values is the raised max, bit for bit).
  h.maxInvW = V::max(h.maxInvW, invHi);
}

// Moves the bounds outward past the rounding bounded above (see addPoints).
template <class V>
OFPS_OCCLUSION_INLINE void finishHull(typename V::F halfW, typename V::F halfH, Hull<V>& h) {
  using F = typename V::F;
  const F k = V::splat(0x1p-19f), abs = V::splat(1e-6f);
  const auto slack = [&](F b, F half) { return (V::abs(b) + half) * k + abs; };
  h.minX = h.minX - slack(h.minX, halfW);
  h.maxX = h.maxX + slack(h.maxX, halfW);
  h.minY = h.minY - slack(h.minY, halfH);
  h.maxY = h.maxY + slack(h.maxY, halfH);
  h.maxInvW = h.maxInvW * V::splat(1.0f + 0x1p-22f);
}

// The four bounds' floors, clamped to [-1, size] as floatRectHidden takes them, lane by lane:
// c = min(max(v, -1), size) (an infinite bound is clamped; a NaN one, which only finishHull's
// inf - inf can make past a float overflow, becomes -1: a lower bound at the left or bottom edge,
// an upper bound off screen, both the safe answer), then r = (c + K) - K with K = 1.5 x 2^23:
// c + K lies in [2^23, 2^24) (size <= 2^22), where floats are the integers, so it rounds to an
// integer within 1/2 of c + K and the subtraction is exact: r is an integer with |r - c| <= 1/2,
// and floor(c) = r - [r > c]. Exact, the same integers as floorIn (as floats: each converts to
// int32 exactly).
template <class V>
OFPS_OCCLUSION_INLINE typename V::F clampedFloor(typename V::F v, typename V::F size) {
  using F = typename V::F;
  const F clamped = V::min(V::max(v, V::splat(-1.0f)), size);
  const F magic = V::splat(12582912.0f);
  const F r = (clamped + magic) - magic;
  return r - V::select(V::gt(r, clamped), V::splat(1.0f), V::splat(0.0f));
}

}  // namespace

}  // namespace ofps
