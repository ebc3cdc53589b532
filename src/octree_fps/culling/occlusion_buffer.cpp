// Conservative occlusion buffer (contracts and the conservativeness argument in
// occlusion_buffer.h).
#include "octree_fps/culling/occlusion_buffer.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

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

Vec3d cross(const Vec3d& a, const Vec3d& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double dot(const Vec3d& a, const Vec3d& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
double norm1(const Vec3d& a) {
  return std::fabs(a.x) + std::fabs(a.y) + std::fabs(a.z);
}

// An affine function of the pixel position, f(x, y) = a x + b y + c, and its rounding margin.
struct ScreenFunction {
  double a, b, c, margin;
};

// Smallest float >= v (v finite).
float floatAbove(double v) {
  float f = static_cast<float>(v);
  if (static_cast<double>(f) < v) f = std::nextafter(f, std::numeric_limits<float>::infinity());
  return f;
}

// A float <= v, within 2^-22 of it (v finite; NaN stays NaN): lowering v by 2^-23 of its size (plus
// an absolute 2^-140 for the subnormal range) before rounding to nearest (error at most 2^-24 of
// the result, or 2^-150 absolute) cannot land above v.
float floatBelow(double v) {
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
FloatPlane floatPlane(const ScreenFunction& d, int32_t x0, int32_t x1, int32_t y0, int32_t y1) {
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
ScreenFunction toPixels(const Vec3d& pqr, double margin, double width, double height) {
  return {pqr.x * 2.0 / width, pqr.y * 2.0 / height, pqr.z - pqr.x - pqr.y, margin};
}

// floor(v) and ceil(v) clamped to [lo, hi], without a libm call (the baseline x86-64 target has
// no rounding instruction, and these run four times per row of every occluder).
// Written as selects (minsd / maxsd on x86-64) rather than branches: these bounds vary from row
// to row in ways a branch predictor cannot follow.
int32_t floorClamped(double v, int32_t lo, int32_t hi) {
  double c = v > lo ? v : static_cast<double>(lo);  // also NaN: lo, the safe upper bound
  c = c < hi ? c : static_cast<double>(hi);
  const int32_t i = static_cast<int32_t>(c);  // truncates toward zero
  return i - (static_cast<double>(i) > c ? 1 : 0);
}
// A NaN lower bound gives hi (no pixel passes), the safe answer.
int32_t ceilClamped(double v, int32_t lo, int32_t hi) {
  double c = v < hi ? v : static_cast<double>(hi);  // also NaN: hi
  c = c > lo ? c : static_cast<double>(lo);
  const int32_t i = static_cast<int32_t>(c);
  return i + (static_cast<double>(i) < c ? 1 : 0);
}

// The buffer arrays fillConvex writes.
struct Target {
  float* pixels;
  uint8_t* tileDirty;
  uint32_t width, tilesX;
  bool* raised;  // set to whether the fill made any pixel nearer
};

constexpr int kMaxFunctions = 5;

// Writes every pixel of rows y0..y1, columns x0..x1 that passes all `count` coverage functions
// (each >= its margin at the pixel's minimizing corner) with the smallest of the `depthCount`
// (1 or 2) depth functions over the pixel, minus their margins, rounded down to float, keeping
// the larger value already there. Returns the pixels covered.
uint32_t fillConvex(const Target& target, const ScreenFunction* edges, int count,
                    const ScreenFunction* depths, int depthCount, int32_t x0, int32_t x1,
                    int32_t y0, int32_t y1) {
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
    const double p = (f.margin - f.c - (f.b < 0.0 ? f.b : 0.0)) / f.a;
    const double q = f.b / f.a;
    const double slack = kSpanSlack * (std::fabs(p) + std::fabs(q) * (ymax + 1.0));
    if (f.a > 0.0) {
      leftP[lefts] = p + slack;
      leftQ[lefts++] = q;
    } else {
      rightP[rights] = p - slack;
      rightQ[rights++] = q;
    }
  }
  FloatPlane planes[2];
  for (int k = 0; k < depthCount; ++k) planes[k] = floatPlane(depths[k], x0, x1, y0, y1);
  uint32_t covered = 0;
  bool raised = false;
  simd::M4 raised4 = simd::gt(simd::splat(0.0f), simd::splat(0.0f));  // all false
  bool started = false;
  // Tiles to mark dirty, gathered over the rows of one tile row and marked once per tile row
  // (their column range is the hull of those rows' spans: marking a clean tile too only costs a
  // later refresh).
  uint32_t dirtyRow = 0, dirtyLo = 1, dirtyHi = 0;  // empty
  const auto markDirty = [&] {
    for (uint32_t t = dirtyLo; t <= dirtyHi; ++t) {
      target.tileDirty[dirtyRow * target.tilesX + t] = 1;
    }
  };
  for (int32_t j = y0; j <= y1; ++j) {
    // Each function's pixels on this row form a half-line; intersect them.
    int32_t lo = x0, hi = x1;
    const double row = j;
    for (int k = 0; k < lefts; ++k) {
      lo = std::max(lo, ceilClamped(leftP[k] - leftQ[k] * row, x0, x1 + 1));
    }
    for (int k = 0; k < rights; ++k) {
      hi = std::min(hi, floorClamped(rightP[k] - rightQ[k] * row, x0 - 1, x1 + 1) - 1);
    }
    for (int k = 0; k < flats; ++k) {
      const ScreenFunction& f = *flat[k];
      if (!(f.b * (row + (f.b < 0.0 ? 1.0 : 0.0)) + f.c >= f.margin)) hi = lo - 1;
    }
    if (lo > hi) {
      // The covered pixels form a convex region: past its last row there is nothing more (a
      // sliver's rows can have gaps; stopping there only drops occluder pixels, which is safe).
      if (started) break;
      continue;
    }
    started = true;
    float* rowPixels = &target.pixels[static_cast<size_t>(j) * target.width];
    // Each depth function's smallest value over the pixel (at its minimizing corner), as a float
    // lower bound (floatPlane); with several (a pair of triangles), the smallest of them.
    const int32_t last = hi - lo;
    const float rowF = static_cast<float>(j);
    simd::F4 base4[2], step4[2];
    float base[2];
    for (int k = 0; k < depthCount; ++k) {
      base[k] = planes[k].b * rowF + planes[k].c;
      base4[k] = simd::splat(base[k]);
      step4[k] = simd::splat(planes[k].a);
    }
    if (last >= 3) {
      // Four pixels at a time; the last group may overlap the one before it, which is harmless
      // (writing the larger of two values twice changes nothing).
      const simd::F4 lanes = simd::fromInts(0, 1, 2, 3);
      for (int32_t k = 0;; k += 4) {
        if (k > last - 3) k = last - 3;
        const simd::F4 column = lanes + simd::splat(static_cast<float>(lo + k));  // exact
        simd::F4 value = base4[0] + step4[0] * column;
        if (depthCount > 1) value = simd::min(value, base4[1] + step4[1] * column);
        // max(value, old): a NaN value keeps the old pixel (SSE's rule, second operand).
        float* out = rowPixels + lo + k;
        const simd::F4 old = simd::load(out);
        raised4 = raised4 | simd::gt(value, old);
        simd::store(out, simd::max(value, old));
        if (k == last - 3) break;
      }
    } else {
      for (int32_t k = 0; k <= last; ++k) {
        const float column = static_cast<float>(lo + k);
        float value = base[0] + planes[0].a * column;
        if (depthCount > 1) value = std::min(value, base[1] + planes[1].a * column);
        float& out = rowPixels[lo + k];
        raised = raised || value > out;
        out = value > out ? value : out;
      }
    }
    covered += static_cast<uint32_t>(hi - lo + 1);
    const uint32_t tileRow = static_cast<uint32_t>(j) / kOcclusionTileSize;
    const uint32_t tileLo = static_cast<uint32_t>(lo) / kOcclusionTileSize;
    const uint32_t tileHi = static_cast<uint32_t>(hi) / kOcclusionTileSize;
    if (tileRow != dirtyRow || dirtyLo > dirtyHi) {
      markDirty();
      dirtyRow = tileRow;
      dirtyLo = tileLo;
      dirtyHi = tileHi;
    } else {
      dirtyLo = std::min(dirtyLo, tileLo);
      dirtyHi = std::max(dirtyHi, tileHi);
    }
  }
  markDirty();
  *target.raised = raised || simd::bits(raised4) != 0;
  return covered;
}

// 1 / w over the plane of the triangle with homogeneous vertices h (see rasterizeTriangle), as a
// pixel-space function with its rounding margin. False when the triangle is (nearly) edge-on.
bool inverseDepthFunction(const Vec3d (&h)[3], double width, double height, ScreenFunction* out) {
  const double mag[3] = {norm1(h[1]) * norm1(h[2]), norm1(h[2]) * norm1(h[0]),
                         norm1(h[0]) * norm1(h[1])};
  const double det = dot(h[0], cross(h[1], h[2]));
  const double volume = norm1(h[0]) * mag[0];
  if (!(std::fabs(det) > kMinConditioning * volume)) return false;
  const double sign = det > 0.0 ? 1.0 : -1.0;
  Vec3d sum{0.0, 0.0, 0.0};
  for (int i = 0; i < 3; ++i) {
    const Vec3d e = cross(h[(i + 1) % 3], h[(i + 2) % 3]);
    sum = {sum.x + sign * e.x, sum.y + sign * e.y, sum.z + sign * e.z};
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
//   half) of the exact bound. finishHull4 moves each bound outward by 2^-19 (|s| + half) + 1e-6
//   pixel, computed in float (a few u of that, and u of the result for the move itself): still
//   outward of the exact projected bound.
// - Depth. The nearest point's 1 / w <= 1 / lo_w <= fl(1 / lo_w) / (1 - u); multiplying by 1 +
//   2^-22 (a float product, rounded by at most u) gives a float at least 1 / lo_w.
struct Hull4 {
  simd::F4 minX, maxX, minY, maxY, maxInvW;
  simd::M4 ok;  // every point so far certainly beyond the near plane, and no NaN
};

// A hull's bounds as four plain lanes each, for the per-lane decisions after the SIMD part.
struct Hull4Lanes {
  float x0[4], x1[4], y0[4], y1[4], depth[4];
};

Hull4Lanes lanesOf(const Hull4& h) {
  Hull4Lanes l;
  simd::store(l.x0, h.minX);
  simd::store(l.x1, h.maxX);
  simd::store(l.y0, h.minY);
  simd::store(l.y1, h.maxY);
  simd::store(l.depth, h.maxInvW);
  return l;
}

Hull4 emptyHull4() {
  const float inf = std::numeric_limits<float>::infinity();
  const simd::F4 zero = simd::splat(0.0f);
  return {simd::splat(inf),    simd::splat(-inf), simd::splat(inf), simd::splat(-inf), zero,
          simd::ge(zero, zero)};
}

OFPS_OCCLUSION_INLINE void addPoints4(const float (&vp)[4][4][4], const float (&mag)[2][4],
                                      simd::F4 halfW, simd::F4 halfH, simd::F4 px, simd::F4 py,
                                      simd::F4 pz, Hull4& h) {
  using simd::F4;
  const F4 zero = simd::splat(0.0f), one = simd::splat(1.0f);
  const F4 size = (simd::abs(px) + simd::abs(py)) + simd::abs(pz);
  const F4 d = (simd::load(mag[0]) * size + simd::load(mag[1])) * simd::splat(0x1p-20f) +
               simd::splat(0x1p-100f);
  const auto row = [&](int r) {
    return ((simd::load(vp[r][0]) * px + simd::load(vp[r][1]) * py) + simd::load(vp[r][2]) * pz) +
           simd::load(vp[r][3]);
  };
  const F4 w = row(3);
  const F4 wLo = w - d, wHi = w + d;
  const F4 zLo = row(2) - d;
  h.ok = h.ok & simd::gt(wLo, zero) & simd::gt(zLo, zero - wLo);
  const F4 invLo = one / wHi, invHi = one / wLo;
  // x / w at the bracket end the sign of x calls for, as the smaller (larger) of the two
  // products: where the point is certain, 0 < invLo <= invHi (both finite or invHi = +inf), so
  // num * invLo <= num * invHi exactly when num >= 0, and a float product is monotone in each
  // factor, so the min (max) is the very product a select on the sign would take, bit for bit.
  // The operand order keeps that true when invHi = +inf and num = +-0: min/max return their
  // second operand when one is NaN (SSE's rule, and simd4's portable form), so ratioBelow gets
  // num * invLo = +-0 as before and ratioAbove NaN (0 * inf) as before (the point then fails the
  // le() test below). Two products and a min instead of a compare, a three-instruction select on
  // SSE2 and a product.
  const auto ratioBelow = [&](F4 num) { return simd::min(num * invHi, num * invLo); };
  const auto ratioAbove = [&](F4 num) { return simd::max(num * invLo, num * invHi); };
  const F4 x = row(0), y = row(1);
  const F4 x0 = (ratioBelow(x - d) + one) * halfW, x1 = (ratioAbove(x + d) + one) * halfW;
  const F4 y0 = (ratioBelow(y - d) + one) * halfH, y1 = (ratioAbove(y + d) + one) * halfH;
  h.ok = h.ok & simd::le(x0, x1) & simd::le(y0, y1);  // false on NaN
  h.minX = simd::min(h.minX, x0);
  h.maxX = simd::max(h.maxX, x1);
  h.minY = simd::min(h.minY, y0);
  h.maxY = simd::max(h.maxY, y1);
  // Raised by 1 + 2^-22 once, in finishHull4 (a float product by a positive constant is
  // monotone, so the max of the raised values is the raised max, bit for bit).
  h.maxInvW = simd::max(h.maxInvW, invHi);
}

// Moves the bounds outward past the rounding bounded above (see addPoints4).
OFPS_OCCLUSION_INLINE void finishHull4(simd::F4 halfW, simd::F4 halfH, Hull4& h) {
  using simd::F4;
  const F4 k = simd::splat(0x1p-19f), abs = simd::splat(1e-6f);
  const auto slack = [&](F4 b, F4 half) { return (simd::abs(b) + half) * k + abs; };
  h.minX = h.minX - slack(h.minX, halfW);
  h.maxX = h.maxX + slack(h.maxX, halfW);
  h.minY = h.minY - slack(h.minY, halfH);
  h.maxY = h.maxY + slack(h.maxY, halfH);
  h.maxInvW = h.maxInvW * simd::splat(1.0f + 0x1p-22f);
}

}  // namespace

OcclusionBuffer::OcclusionBuffer(uint32_t width, uint32_t height) {
  resize(width, height);
}

void OcclusionBuffer::resize(uint32_t width, uint32_t height) {
  assert(width >= kOcclusionTileSize && height >= kOcclusionTileSize &&
         width % kOcclusionTileSize == 0 && height % kOcclusionTileSize == 0 &&
         width <= (1u << 22) && height <= (1u << 22) &&
         "OcclusionBuffer: width and height must be non-zero multiples of kOcclusionTileSize, "
         "at most 2^22 (trianglesHidden4's four-wide floors)");
  width_ = width;
  height_ = height;
  tilesX_ = width / kOcclusionTileSize;
  pixels_.assign(static_cast<size_t>(width) * height, 0.0f);
  const size_t tiles = static_cast<size_t>(tilesX_) * (height / kOcclusionTileSize);
  tileMin_.assign(tiles, 0.0f);
  tileDirty_.assign(tiles, 0);
}

void OcclusionBuffer::begin(const glm::mat4& viewProjection) {
  lastRaised_ = false;
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 4; ++col) {
      const float m = viewProjection[col][row];
      vp_[row][col] = static_cast<double>(m);
      for (int lane = 0; lane < 4; ++lane) vpf_[row][col][lane] = m;
    }
  }
  float largest = 0.0f, largestLast = 0.0f;
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 3; ++col)
      largest = std::max(largest, std::fabs(viewProjection[col][row]));
    largestLast = std::max(largestLast, std::fabs(viewProjection[3][row]));
  }
  for (int lane = 0; lane < 4; ++lane) {
    vpMag_[0][lane] = largest;
    vpMag_[1][lane] = largestLast;
  }
  std::fill(pixels_.begin(), pixels_.end(), 0.0f);
  std::fill(tileMin_.begin(), tileMin_.end(), 0.0f);
  std::fill(tileDirty_.begin(), tileDirty_.end(), uint8_t{0});
}

OcclusionBuffer::ClipPoint OcclusionBuffer::clipOf(const glm::vec3& p) const {
  // In double: a float times a float is exact in double, so the only rounding is in the
  // four-term sums, always added in this order.
  Clip out;
  double* o = &out.x;
  for (int row = 0; row < 4; ++row) {
    o[row] = vp_[row][0] * static_cast<double>(p.x) + vp_[row][1] * static_cast<double>(p.y) +
             vp_[row][2] * static_cast<double>(p.z) + vp_[row][3];
  }
  return out;
}

uint32_t OcclusionBuffer::rasterizeTriangle(const glm::vec3& a, const glm::vec3& b,
                                            const glm::vec3& c) {
  return rasterizeClipTriangle(clipOf(a), clipOf(b), clipOf(c));
}

uint32_t OcclusionBuffer::rasterizeClipTriangle(const ClipPoint& a, const ClipPoint& b,
                                                const ClipPoint& c) {
  lastRaised_ = false;
  const Clip v[3] = {a, b, c};
  // Trivial rejections: all three vertices beyond one clip plane (near, or a screen side).
  const auto allOut = [&](auto&& outside) {
    return outside(v[0]) && outside(v[1]) && outside(v[2]);
  };
  if (allOut([](const Clip& q) { return q.z + q.w <= 0.0; }) ||
      allOut([](const Clip& q) { return q.x < -q.w; }) ||
      allOut([](const Clip& q) { return q.x > q.w; }) ||
      allOut([](const Clip& q) { return q.y < -q.w; }) ||
      allOut([](const Clip& q) { return q.y > q.w; })) {
    return 0;
  }

  const double width = width_, height = height_;
  int32_t x0 = 0, x1 = static_cast<int32_t>(width_) - 1;
  int32_t y0 = 0, y1 = static_cast<int32_t>(height_) - 1;
  // Candidate rows and columns: the screen bounds of the part of the triangle in front of the
  // near plane (the triangle clipped to z + w >= 0, Sutherland-Hodgman, at most four vertices).
  // A candidate set only: the coverage test below decides, so rounding here can only drop pixels
  // that touch the bounds, which is safe.
  Clip poly[4];
  int count = 0;
  for (int i = 0; i < 3; ++i) {
    const Clip& s0 = v[i];
    const Clip& s1 = v[(i + 1) % 3];
    const double d0 = s0.z + s0.w, d1 = s1.z + s1.w;
    if (d0 >= 0.0) poly[count++] = s0;
    if ((d0 >= 0.0) != (d1 >= 0.0)) {
      const double t = d0 / (d0 - d1);
      poly[count++] = {s0.x + (s1.x - s0.x) * t, s0.y + (s1.y - s0.y) * t, s0.z + (s1.z - s0.z) * t,
                       s0.w + (s1.w - s0.w) * t};
    }
  }
  bool bounded = count >= 3;
  double sx[4], sy[4];
  double minX = std::numeric_limits<double>::infinity(), maxX = -minX, minY = minX, maxY = maxX;
  for (int i = 0; i < count && bounded; ++i) {
    const Clip& q = poly[i];
    bounded = q.w > 0.0;  // always, for a perspective projection: w >= near on the near plane
    const double invW = 1.0 / q.w;
    sx[i] = (q.x * invW + 1.0) * 0.5 * width;
    sy[i] = (q.y * invW + 1.0) * 0.5 * height;
    minX = std::min(minX, sx[i]);
    maxX = std::max(maxX, sx[i]);
    minY = std::min(minY, sy[i]);
    maxY = std::max(maxY, sy[i]);
  }
  if (bounded) {
    // No whole pixel fits in bounds narrower than one pixel.
    if (maxX - minX < 1.0 || maxY - minY < 1.0) return 0;
    if (count == 3) {
      // Nor in a triangle whose inscribed circle is smaller than the pixel's (radius 1/2, in
      // pixel units): a triangle holding a square holds the square's inscribed circle. Long
      // slivers (fanned polygons) have wide bounds but cover nothing; this spares their rows.
      const double twiceArea =
          std::fabs((sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0]));
      const auto length = [](double dx, double dy) { return std::sqrt(dx * dx + dy * dy); };
      const double perimeter = length(sx[1] - sx[0], sy[1] - sy[0]) +
                               length(sx[2] - sx[1], sy[2] - sy[1]) +
                               length(sx[0] - sx[2], sy[0] - sy[2]);
      // inradius = twiceArea / perimeter
      if (twiceArea < std::max(0.5, minOccluderInradius_) * perimeter) return 0;
    }
    // A covered pixel lies wholly inside the bounds: columns ceil(minX) .. floor(maxX) - 1, and
    // likewise rows, so the partial rows at the ends (which never hold a span) are not visited.
    // The bounds' rounding (~1e-15 relative) could only drop a pixel whose side is within that of
    // a vertex, which the edge margins below reject anyway (and dropping a pixel is safe).
    const int32_t w = static_cast<int32_t>(width_), hgt = static_cast<int32_t>(height_);
    x0 = std::max(x0, ceilClamped(minX, -1, w));
    x1 = std::min(x1, floorClamped(maxX, -1, w) - 1);
    y0 = std::max(y0, ceilClamped(minY, -1, hgt));
    y1 = std::min(y1, floorClamped(maxY, -1, hgt) - 1);
    if (x0 > x1 || y0 > y1) return 0;
  }
  // Otherwise (not a perspective matrix) the whole screen is the candidate set.

  // Homogeneous edge functions (Olano and Greer): with h_i = (x_i, y_i, w_i) and
  // det = h_0 . (h_1 x h_2), the ray through NDC point d = (X, Y, 1) meets the triangle at
  // positive w iff every n_i . d >= 0, where n_i = sign(det) (h_j x h_k); the barycentric weights
  // of the hit are (n_i . d) / |det| divided by their sum, and that sum is 1 / w at the hit.
  const Vec3d h[3] = {{v[0].x, v[0].y, v[0].w}, {v[1].x, v[1].y, v[1].w}, {v[2].x, v[2].y, v[2].w}};
  const double mag[3] = {norm1(h[1]) * norm1(h[2]), norm1(h[2]) * norm1(h[0]),
                         norm1(h[0]) * norm1(h[1])};
  const double det = dot(h[0], cross(h[1], h[2]));
  const double volume = norm1(h[0]) * mag[0];
  if (!(std::fabs(det) > kMinConditioning * volume)) return 0;  // edge-on, degenerate or NaN
  const double sign = det > 0.0 ? 1.0 : -1.0;
  Vec3d n[3];
  for (int i = 0; i < 3; ++i) {
    const Vec3d e = cross(h[(i + 1) % 3], h[(i + 2) % 3]);
    n[i] = {sign * e.x, sign * e.y, sign * e.z};
  }
  // The hit's z + w is t * sum_i lambda_i (z_i + w_i) with t > 0: in front of the near plane iff
  // sum_i (z_i + w_i) n_i . d > 0, a fourth affine edge.
  Vec3d nearFn{0.0, 0.0, 0.0};
  double nearMag = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double k = v[i].z + v[i].w;
    nearFn = {nearFn.x + k * n[i].x, nearFn.y + k * n[i].y, nearFn.z + k * n[i].z};
    nearMag += (std::fabs(v[i].z) + std::fabs(v[i].w)) * mag[i];
  }
  ScreenFunction edges[4];
  for (int i = 0; i < 3; ++i) edges[i] = toPixels(n[i], kMargin * mag[i], width, height);
  edges[3] = toPixels(nearFn, kMargin * nearMag, width, height);
  // 1 / w = sum_i n_i . d / |det|. Its margin also covers det's relative rounding, which grows
  // with the conditioning volume / |det| (at most 1 / kMinConditioning).
  const double invDet = 1.0 / std::fabs(det);
  const Vec3d depthFn{(n[0].x + n[1].x + n[2].x) * invDet, (n[0].y + n[1].y + n[2].y) * invDet,
                      (n[0].z + n[1].z + n[2].z) * invDet};
  const double depthMargin = kMargin * (volume * invDet) * (mag[0] + mag[1] + mag[2]) * invDet;
  const ScreenFunction depth = toPixels(depthFn, depthMargin, width, height);

  // A triangle with every vertex beyond the near plane lies wholly beyond it (a convex
  // combination of points in a half-space): its near-plane function is then not needed.
  const bool allBeyondNear =
      v[0].z + v[0].w > 0.0 && v[1].z + v[1].w > 0.0 && v[2].z + v[2].w > 0.0;
  const Target target{pixels_.data(), tileDirty_.data(), width_, tilesX_, &lastRaised_};
  return fillConvex(target, edges, allBeyondNear ? 3 : 4, &depth, 1, x0, x1, y0, y1);
}

uint32_t OcclusionBuffer::rasterizeTrianglePair(const glm::vec3& p, const glm::vec3& q,
                                                const glm::vec3& s, const glm::vec3& r) {
  return rasterizeClipTrianglePair(clipOf(p), clipOf(q), clipOf(s), clipOf(r));
}

uint32_t OcclusionBuffer::rasterizeClipTrianglePair(const ClipPoint& p, const ClipPoint& q,
                                                    const ClipPoint& s, const ClipPoint& r) {
  lastRaised_ = false;
  // One by one: the pair raised a pixel if either triangle did.
  const auto oneByOne = [&] {
    const uint32_t first = rasterizeClipTriangle(p, q, r);
    const bool raisedFirst = lastRaised_;
    const uint32_t second = rasterizeClipTriangle(q, s, r);
    lastRaised_ = lastRaised_ || raisedFirst;
    return first + second;
  };
  // Corners in the quad's order p, q, s, r: the triangles are (p, q, r) and (q, s, r).
  const Clip v[4] = {p, q, s, r};
  bool simple = true;
  for (int i = 0; i < 4; ++i) simple = simple && v[i].z + v[i].w > 0.0 && v[i].w > 0.0;
  // The union is the quad only when the quad is strictly convex on screen (then the diagonal
  // q-r splits it into exactly the two triangles): every three consecutive corners turn the same
  // way, clearly (relative to the corners' magnitudes). Otherwise, or when a corner is not beyond
  // the near plane, the triangles go one by one.
  const Vec3d h[4] = {{v[0].x, v[0].y, v[0].w},
                      {v[1].x, v[1].y, v[1].w},
                      {v[2].x, v[2].y, v[2].w},
                      {v[3].x, v[3].y, v[3].w}};
  double turn = 0.0;
  for (int i = 0; i < 4 && simple; ++i) {
    const Vec3d& a = h[i];
    const Vec3d& b = h[(i + 1) % 4];
    const Vec3d& c = h[(i + 2) % 4];
    const double o = dot(a, cross(b, c));
    const double scale = norm1(a) * norm1(b) * norm1(c);
    simple = std::fabs(o) > kMinConditioning * scale && (i == 0 || (o > 0.0) == (turn > 0.0));
    turn = o;
  }
  if (!simple) return oneByOne();

  // Every corner is beyond the near plane, so the quad's image is the convex quad of the
  // projected corners. Rejected before the depth planes when it cannot hold a whole pixel: its
  // bounds are under a pixel, or its inscribed circle is smaller than the pixel's (a convex
  // polygon holding a disc of radius r has area >= r * perimeter / 2: the triangles from the
  // disc's centre to its edges are at least r high). Either triangle alone would then cover
  // nothing too (each lies in the quad), so the fallback below could not do better.
  const double width = width_, height = height_;
  double sx[4], sy[4];
  double minX = std::numeric_limits<double>::infinity(), maxX = -minX, minY = minX, maxY = maxX;
  for (int i = 0; i < 4; ++i) {
    const double invW = 1.0 / v[i].w;
    sx[i] = (v[i].x * invW + 1.0) * 0.5 * width;
    sy[i] = (v[i].y * invW + 1.0) * 0.5 * height;
    minX = std::min(minX, sx[i]);
    maxX = std::max(maxX, sx[i]);
    minY = std::min(minY, sy[i]);
    maxY = std::max(maxY, sy[i]);
  }
  if (maxX - minX < 1.0 || maxY - minY < 1.0) return 0;
  {
    const double twiceArea =
        std::fabs((sx[2] - sx[0]) * (sy[3] - sy[1]) - (sx[3] - sx[1]) * (sy[2] - sy[0]));
    double perimeter = 0.0;
    for (int i = 0; i < 4; ++i) {
      const double dx = sx[(i + 1) % 4] - sx[i], dy = sy[(i + 1) % 4] - sy[i];
      perimeter += std::sqrt(dx * dx + dy * dy);
    }
    // The pixel's disc has radius 1/2; a quad that covers a pixel past the edge margins has
    // 2A / P above 1/2 by far more than this 1e-9 allows for rounding.
    if (twiceArea < 0.5 * (1.0 - 1e-9) * perimeter) return 0;
  }
  ScreenFunction depths[2];
  if (!inverseDepthFunction({h[0], h[1], h[3]}, width, height, &depths[0]) ||
      !inverseDepthFunction({h[1], h[2], h[3]}, width, height, &depths[1])) {
    return oneByOne();
  }
  // Only pixels wholly inside the bounds (as for a single triangle, rasterizeClipTriangle).
  const int32_t w = static_cast<int32_t>(width_), hgt = static_cast<int32_t>(height_);
  const int32_t x0 = std::max(0, ceilClamped(minX, -1, w));
  const int32_t x1 = std::min(w - 1, floorClamped(maxX, -1, w) - 1);
  const int32_t y0 = std::max(0, ceilClamped(minY, -1, hgt));
  const int32_t y1 = std::min(hgt - 1, floorClamped(maxY, -1, hgt) - 1);
  if (x0 > x1 || y0 > y1) return 0;
  // Edge i runs from corner i to corner i + 1; the interior is on the side of the turn.
  const double sign = turn > 0.0 ? 1.0 : -1.0;
  ScreenFunction edges[4];
  for (int i = 0; i < 4; ++i) {
    const Vec3d e = cross(h[i], h[(i + 1) % 4]);
    edges[i] = toPixels({sign * e.x, sign * e.y, sign * e.z},
                        kMargin * norm1(h[i]) * norm1(h[(i + 1) % 4]), width, height);
  }
  const Target target{pixels_.data(), tileDirty_.data(), width_, tilesX_, &lastRaised_};
  return fillConvex(target, edges, 4, depths, 2, x0, x1, y0, y1);
}

void OcclusionBuffer::refreshTile(uint32_t tile) {
  const uint32_t tx = tile % tilesX_, ty = tile / tilesX_;
  // Four columns at a time (a minimum is exact, so the lanes' order does not matter; pixels are
  // never NaN).
  static_assert(kOcclusionTileSize % 4 == 0, "the tile minimum reads four pixels at a time");
  simd::F4 m = simd::splat(std::numeric_limits<float>::infinity());
  for (uint32_t y = 0; y < kOcclusionTileSize; ++y) {
    const float* row = &pixels_[(ty * kOcclusionTileSize + y) * width_ + tx * kOcclusionTileSize];
    for (uint32_t x = 0; x < kOcclusionTileSize; x += 4) m = simd::min(m, simd::load(row + x));
  }
  float lanes[4];
  simd::store(lanes, m);
  tileMin_[tile] = std::min(std::min(lanes[0], lanes[1]), std::min(lanes[2], lanes[3]));
  tileDirty_[tile] = 0;
}

bool OcclusionBuffer::boxHidden(const Aabb& box) {
  if (box.isEmpty()) return false;
  // The eight corners in two groups of four lanes (z = min, then z = max), in float with
  // outward bounds (addPoints4); the box is tested only when every corner is certainly beyond
  // the near plane.
  const simd::F4 halfW = simd::splat(0.5f * static_cast<float>(width_));
  const simd::F4 halfH = simd::splat(0.5f * static_cast<float>(height_));
  const float cx[4] = {box.min.x, box.max.x, box.min.x, box.max.x};
  const float cy[4] = {box.min.y, box.min.y, box.max.y, box.max.y};
  const simd::F4 xs = simd::load(cx), ys = simd::load(cy);
  Hull4 h = emptyHull4();
  addPoints4(vpf_, vpMag_, halfW, halfH, xs, ys, simd::splat(box.min.z), h);
  addPoints4(vpf_, vpMag_, halfW, halfH, xs, ys, simd::splat(box.max.z), h);
  if (simd::bits(h.ok) != 0xFu) return false;
  finishHull4(halfW, halfH, h);
  const Hull4Lanes hl = lanesOf(h);
  const auto lo = [](const float(&v)[4]) {
    return std::min(std::min(v[0], v[1]), std::min(v[2], v[3]));
  };
  const auto hi = [](const float(&v)[4]) {
    return std::max(std::max(v[0], v[1]), std::max(v[2], v[3]));
  };
  return floatRectHidden(lo(hl.x0), hi(hl.x1), lo(hl.y0), hi(hl.y1), hi(hl.depth));
}

bool OcclusionBuffer::triangleHidden(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  ClipPoint clip[3];
  ScreenRect rect;
  return triangleHidden(a, b, c, clip, &rect);
}

OcclusionBuffer::ScreenRect OcclusionBuffer::rectUnion(const ScreenRect& a, const ScreenRect& b) {
  return {std::min(a.x0, b.x0), std::max(a.x1, b.x1), std::min(a.y0, b.y0), std::max(a.y1, b.y1)};
}

bool OcclusionBuffer::mayCoverPixel(const ScreenRect& rect) const {
  // A pixel [i, i + 1] x [j, j + 1] fits when i >= x0, i + 1 <= x1 for some integer 0 <= i <
  // width (and likewise for rows). The bounds are the projected vertices in double, within
  // ~1e-15 relative of the exact ones; the same 1e-6 outward slack as the hidden tests' rectangle
  // keeps every pixel the rasterizer could cover (it covers only pixels strictly inside the
  // triangle, past a positive margin). A NaN bound compares false and keeps the occluder.
  const double slack = 1e-6;
  const auto fits = [slack](double lo, double hi, uint32_t size) {
    lo -= slack * (1.0 + std::fabs(lo));
    hi += slack * (1.0 + std::fabs(hi));
    const int32_t first = ceilClamped(lo, 0, static_cast<int32_t>(size));
    return first < static_cast<int32_t>(size) && !(static_cast<double>(first) + 1.0 > hi);
  };
  return fits(rect.x0, rect.x1, width_) && fits(rect.y0, rect.y1, height_);
}

bool OcclusionBuffer::triangleHidden(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                                     ClipPoint (&out)[3], ScreenRect* rect) {
  out[0] = clipOf(a);
  out[1] = clipOf(b);
  out[2] = clipOf(c);
  double cx[3], cy[3], cw[3];
  bool beyondNear = true;
  for (int k = 0; k < 3; ++k) {
    cx[k] = out[k].x;
    cy[k] = out[k].y;
    cw[k] = out[k].w;
    beyondNear = beyondNear && out[k].z + out[k].w > 0.0 && out[k].w > 0.0;
  }
  if (!beyondNear) {
    const double inf = std::numeric_limits<double>::infinity();
    *rect = {-inf, inf, -inf, inf};
    return false;
  }
  return projectedHullHidden(cx, cy, cw, 3, rect);
}

OFPS_OCCLUSION_INLINE bool OcclusionBuffer::floatRectHidden(float minX, float maxX, float minY,
                                                            float maxY, float depth) {
  // Floors of bounds clamped to [-1, size] (so that the conversions cannot overflow): truncation,
  // then one down where it rounded a negative value up.
  const float fw = static_cast<float>(width_), fh = static_cast<float>(height_);
  const auto floorIn = [](float f, float size) {
    f = std::min(std::max(f, -1.0f), size);
    const int32_t i = static_cast<int32_t>(f);
    return i - (static_cast<float>(i) > f ? 1 : 0);
  };
  return flooredRectHidden(floorIn(minX, fw), floorIn(maxX, fw), floorIn(minY, fh),
                           floorIn(maxY, fh), depth);
}

OFPS_OCCLUSION_INLINE bool OcclusionBuffer::flooredRectHidden(int32_t fx0, int32_t fx1, int32_t fy0,
                                                              int32_t fy1, float depth) {
  const int32_t w = static_cast<int32_t>(width_), h = static_cast<int32_t>(height_);
  // Entirely off screen: outside the frustum, which is the frustum test's call, not ours.
  if (fx1 < 0 || fy1 < 0 || fx0 >= w || fy0 >= h) return false;
  return scanHidden(
      static_cast<uint32_t>(std::max(fx0, 0)), static_cast<uint32_t>(std::min(fx1, w - 1)),
      static_cast<uint32_t>(std::max(fy0, 0)), static_cast<uint32_t>(std::min(fy1, h - 1)), depth);
}

uint32_t OcclusionBuffer::trianglesHidden4(const float (&c)[9][4], uint32_t lanes,
                                           ScreenRect (&rects)[4]) {
  const simd::F4 halfW = simd::splat(0.5f * static_cast<float>(width_));
  const simd::F4 halfH = simd::splat(0.5f * static_cast<float>(height_));
  Hull4 h = emptyHull4();
  for (int v = 0; v < 3; ++v) {
    addPoints4(vpf_, vpMag_, halfW, halfH, simd::load(c[3 * v]), simd::load(c[3 * v + 1]),
               simd::load(c[3 * v + 2]), h);
  }
  finishHull4(halfW, halfH, h);
  const Hull4Lanes hl = lanesOf(h);
  // The four bounds' floors, clamped to [-1, size] as floatRectHidden takes them, four lanes at
  // a time: c = min(max(v, -1), size) (an infinite bound is clamped; a NaN one, which only
  // finishHull4's inf - inf can make past a float overflow, becomes -1: a lower bound at the left
  // or bottom edge, an upper bound off screen, both the safe answer), then r = (c + K) - K with
  // K = 1.5 x 2^23: c + K lies in [2^23, 2^24) (size <= 2^22), where floats are the integers, so
  // it rounds to an integer within 1/2 of c + K and the subtraction is exact: r is an integer
  // with |r - c| <= 1/2, and floor(c) = r - [r > c]. Exact, the same integers as floorIn (as
  // floats: each converts to int32 exactly).
  const simd::F4 minus1 = simd::splat(-1.0f), one = simd::splat(1.0f), zero = simd::splat(0.0f);
  const simd::F4 magic = simd::splat(12582912.0f);
  const auto floor4 = [&](simd::F4 v, simd::F4 size) {
    const simd::F4 clamped = simd::min(simd::max(v, minus1), size);
    const simd::F4 r = (clamped + magic) - magic;
    return r - simd::select(simd::gt(r, clamped), one, zero);
  };
  const simd::F4 fw = halfW + halfW, fh = halfH + halfH;  // exact: the sizes, as floats
  float fx0[4], fx1[4], fy0[4], fy1[4];
  simd::store(fx0, floor4(h.minX, fw));
  simd::store(fx1, floor4(h.maxX, fw));
  simd::store(fy0, floor4(h.minY, fh));
  simd::store(fy1, floor4(h.maxY, fh));
  const uint32_t certain = simd::bits(h.ok) & lanes;
  uint32_t hidden = 0;
  const double infinity = std::numeric_limits<double>::infinity();
  for (uint32_t i = 0; i < 4; ++i) {
    if (((lanes >> i) & 1u) == 0) continue;
    if (((certain >> i) & 1u) == 0) {
      rects[i] = {-infinity, infinity, -infinity, infinity};
      continue;
    }
    rects[i] = {hl.x0[i], hl.x1[i], hl.y0[i], hl.y1[i]};
    if (flooredRectHidden(static_cast<int32_t>(fx0[i]), static_cast<int32_t>(fx1[i]),
                          static_cast<int32_t>(fy0[i]), static_cast<int32_t>(fy1[i]),
                          hl.depth[i])) {
      hidden |= 1u << i;
    }
  }
  return hidden;
}

bool OcclusionBuffer::projectedHullHidden(const double* cx, const double* cy, const double* cw,
                                          int count, ScreenRect* rect) {
  const double halfWidth = 0.5 * width_, halfHeight = 0.5 * height_;
  double minX = std::numeric_limits<double>::infinity(), maxX = -minX, minY = minX, maxY = maxX;
  double maxInvW = 0.0;
  for (int k = 0; k < count; ++k) {
    const double invW = 1.0 / cw[k];
    const double sx = (cx[k] * invW + 1.0) * halfWidth, sy = (cy[k] * invW + 1.0) * halfHeight;
    minX = std::min(minX, sx);
    maxX = std::max(maxX, sx);
    minY = std::min(minY, sy);
    maxY = std::max(maxY, sy);
    maxInvW = std::max(maxInvW, invW);
  }
  if (rect != nullptr) *rect = {minX, maxX, minY, maxY};
  return rectHidden(minX, maxX, minY, maxY, maxInvW);
}

bool OcclusionBuffer::rectHidden(double minX, double maxX, double minY, double maxY,
                                 double maxInvW) {
  // Pixels the rectangle touches (closed), rounded outward past the projection's rounding.
  const double slack = 1e-6;
  const int32_t w = static_cast<int32_t>(width_), h = static_cast<int32_t>(height_);
  const int32_t fx0 = floorClamped(minX - slack * (1.0 + std::fabs(minX)), -1, w);
  const int32_t fx1 = floorClamped(maxX + slack * (1.0 + std::fabs(maxX)), -1, w);
  const int32_t fy0 = floorClamped(minY - slack * (1.0 + std::fabs(minY)), -1, h);
  const int32_t fy1 = floorClamped(maxY + slack * (1.0 + std::fabs(maxY)), -1, h);
  // Entirely off screen: outside the frustum, which is the frustum test's call, not ours.
  if (fx1 < 0 || fy1 < 0 || fx0 >= w || fy0 >= h) return false;
  const uint32_t x0 = static_cast<uint32_t>(std::max(fx0, 0));
  const uint32_t y0 = static_cast<uint32_t>(std::max(fy0, 0));
  const uint32_t x1 = static_cast<uint32_t>(std::min(fx1, w - 1));
  const uint32_t y1 = static_cast<uint32_t>(std::min(fy1, h - 1));
  // The hull's nearest depth as 1 / w, nudged nearer (larger) past rounding, then rounded up.
  return scanHidden(x0, x1, y0, y1, floatAbove(maxInvW * (1.0 + 1e-9)));
}

bool OcclusionBuffer::scanHidden(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1,
                                 float boxInvW) {
  const simd::F4 depth4 = simd::splat(boxInvW);
  static_assert(kOcclusionTileSize == 8, "the pixel scan reads a tile row as two groups of four");

  for (uint32_t ty = y0 / kOcclusionTileSize; ty <= y1 / kOcclusionTileSize; ++ty) {
    for (uint32_t tx = x0 / kOcclusionTileSize; tx <= x1 / kOcclusionTileSize; ++tx) {
      const uint32_t tile = ty * tilesX_ + tx;
      if (tileDirty_[tile]) refreshTile(tile);
      if (tileMin_[tile] > boxInvW) continue;  // every pixel of the tile is nearer
      // The tile's pixels under the rectangle, one tile row (eight pixels, two loads) at a
      // time: a lane passes when its pixel is strictly nearer (a comparison is exact, and a NaN
      // pixel would fail it, the safe answer); the row passes when every column of the
      // rectangle does. columns: bit c set for tile column c inside [x0, x1].
      const uint32_t left = tx * kOcclusionTileSize;
      const uint32_t c0 = std::max(x0, left) - left;
      const uint32_t c1 = std::min(x1, left + kOcclusionTileSize - 1) - left;
      const uint32_t columns = (2u << c1) - (1u << c0);
      const uint32_t py0 = std::max(y0, ty * kOcclusionTileSize);
      const uint32_t py1 = std::min(y1, ty * kOcclusionTileSize + kOcclusionTileSize - 1);
      for (uint32_t y = py0; y <= py1; ++y) {
        const float* row = &pixels_[static_cast<size_t>(y) * width_ + left];
        const uint32_t nearer =
            simd::less(depth4, simd::load(row)) | (simd::less(depth4, simd::load(row + 4)) << 4);
        if ((nearer & columns) != columns) return false;
      }
    }
  }
  return true;
}

}  // namespace ofps
