// Octree queries (contracts in octree.h). Every traversal here is iterative and keeps a fixed
// array of kOctreeStackSize entries on the C++ stack: overlap queries walk depth-first in
// preorder (walkOverlap), ray, sweep and closest-point queries nearest first (nearestFirst).
#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "octree_fps/geometry/simd4.h"
#include "octree_fps/geometry/triangle_tests.h"
#include "octree_fps/spatial/octree.h"
#include "octree_fps/spatial/octree_grid.h"
#include "octree_fps/spatial/push_out_rounds_inl.h"

namespace ofps {
namespace {

#include "octree_fps/spatial/octree_traversal_inl.h"

// Dequantization of four consecutive nodes' bounds: box = origin + q * scale (octree.h).
struct Grid4 {
  simd::F4 o[3], s[3];
  Grid4(const glm::vec3& origin, const glm::vec3& scale) {
    for (int k = 0; k < 3; ++k) {
      o[k] = simd::splat(origin[k]);
      s[k] = simd::splat(scale[k]);
    }
  }
};

// Bounds of up to four consecutive nodes, one lane each (lanes past the last node hold whatever
// the padding holds; callers mask them off).
struct Boxes4 {
  simd::F4 min[3], max[3];
};

inline Boxes4 loadBoxes(const uint16_t* planes, size_t stride, uint32_t first, const Grid4& g) {
  Boxes4 b;
  for (int k = 0; k < 3; ++k) {
    const size_t uk = static_cast<size_t>(k);
    b.min[k] = g.o[k] + simd::loadU16(planes + uk * stride + first) * g.s[k];
    b.max[k] = g.o[k] + simd::loadU16(planes + (uk + 3) * stride + first) * g.s[k];
  }
  return b;
}

// Ray against four boxes, robust to zero direction components and to rounding (the far distance
// is widened by 1 + 2 gamma(3) and the near one shrunk by as much, Ize 2013 / pbrt-v3 §3.9.2, so
// a hit on a flat node's face is kept and equal-distance ties in two nodes are both seen).
struct RaySlab4 {
  simd::F4 origin[3];
  simd::F4 invDir[3];
  size_t nearPlane[3], farPlane[3];  // bounds plane (0..5, octree.h) of each axis's near, far face
  simd::F4 nearGrow[3], farGrow[3];  // sweeps: faces moved out by the shape's half extents

  RaySlab4(const glm::vec3& o, const RayAxes& ax, const glm::vec3& grow = glm::vec3(0.0f)) {
    for (int k = 0; k < 3; ++k) {
      // A zero direction component gives invDir +-inf: the slab then spans (-inf, +inf) for an
      // origin strictly inside it and nothing for an origin outside. An origin exactly in one of
      // its face planes gives 0 * inf = NaN there, which hit() drops: the ray runs inside the
      // closed slab.
      origin[k] = simd::splat(o[k]);
      invDir[k] = simd::splat(ax.invDir[k]);
      nearPlane[k] = ax.nearPlane[k];
      farPlane[k] = ax.farPlane[k];
      nearGrow[k] = simd::splat(ax.negative[k] ? grow[k] : -grow[k]);
      farGrow[k] = simd::splat(ax.negative[k] ? -grow[k] : grow[k]);
    }
  }
  // Lanes of nodes first .. first + 3 whose closed box (grown, for Grow) the ray meets within
  // [tMin, tMax]; outNear = entry distance (clamped to >= tMin). min/max return their second
  // operand when either is NaN, so the running bounds go second: a NaN slab distance (origin in
  // that face plane, zero direction component) leaves them unchanged. A +inf bound gives +-inf,
  // which orders correctly. (Box coordinates are dequantized as loadBoxes() does, and a grown
  // face is min - grow or max + grow, so the values are those of the box tests elsewhere.)
  template <bool Grow = false>
  uint32_t hit(const uint16_t* planes, size_t stride, uint32_t first, const Grid4& g, float tMin,
               float tMax, float* outNear) const {
    using simd::F4;
    F4 tn = simd::splat(-std::numeric_limits<float>::infinity());
    F4 tf = simd::splat(std::numeric_limits<float>::infinity());
    for (int k = 0; k < 3; ++k) {
      F4 nearC = g.o[k] + simd::loadU16(planes + nearPlane[k] * stride + first) * g.s[k];
      F4 farC = g.o[k] + simd::loadU16(planes + farPlane[k] * stride + first) * g.s[k];
      if constexpr (Grow) {
        nearC = nearC + nearGrow[k];
        farC = farC + farGrow[k];
      }
      tn = simd::max((nearC - origin[k]) * invDir[k], tn);
      tf = simd::min((farC - origin[k]) * invDir[k], tf);
    }
    tn = simd::max(tn * simd::splat(kShrink), simd::splat(tMin));
    tf = simd::min(tf * simd::splat(kWiden), simd::splat(tMax));
    simd::store(outNear, tn);
    return simd::lessEqual(tn, tf);
  }
};

// The ray cast's (and rayAny's) node test on four consecutive nodes: slab distances straight
// from the grid steps (RayGridPlanes, octree_traversal_inl.h) when the ray's are ok, else the
// dequantizing RaySlab4. Same result contract as RaySlab4::hit with tMin = 0 (conservative,
// entry distance >= 0). RaySlab8 (octree_query_avx2.cpp) is its eight-lane twin.
struct RayNodeTest4 {
  simd::F4 a[3], bNear[3], bFar[3];
  size_t nearPlane[3], farPlane[3];
  bool gridOk;
  RaySlab4 slab;  // rays with a zero (or tiny) direction component
  Grid4 grid;
  RayNodeTest4(const glm::vec3& origin, const RayGridPlanes& g, const glm::vec3& qOrigin,
               const glm::vec3& qScale)
      : gridOk(g.ok), slab(origin, g.axes), grid(qOrigin, qScale) {
    for (int k = 0; k < 3; ++k) {
      a[k] = simd::splat(g.a[k]);
      bNear[k] = simd::splat(g.bNear[k]);
      bFar[k] = simd::splat(g.bFar[k]);
      nearPlane[k] = g.axes.nearPlane[k];
      farPlane[k] = g.axes.farPlane[k];
    }
  }
  uint32_t hit(const uint16_t* planes, size_t stride, uint32_t first, float tMax,
               float* outNear) const {
    if (!gridOk) return slab.hit(planes, stride, first, grid, 0.0f, tMax, outNear);
    simd::F4 tn = simd::splat(0.0f);
    simd::F4 tf = simd::splat(tMax);
    for (int k = 0; k < 3; ++k) {
      tn = simd::max(simd::loadU16(planes + nearPlane[k] * stride + first) * a[k] + bNear[k], tn);
      tf = simd::min(simd::loadU16(planes + farPlane[k] * stride + first) * a[k] + bFar[k], tf);
    }
    simd::store(outNear, tn);
    return simd::lessEqual(tn, tf);
  }
};

// Squared distances from p to four boxes (0 inside), as distanceSquared(Aabb, p) computes them.
inline simd::F4 distanceSquared4(const Boxes4& b, const simd::F4 (&p)[3]) {
  using simd::F4;
  F4 sum;
  for (int k = 0; k < 3; ++k) {
    const F4 d = simd::max(simd::max(b.min[k] - p[k], p[k] - b.max[k]), simd::splat(0.0f));
    sum = k == 0 ? d * d : sum + d * d;
  }
  return sum;
}

// Lanes (bit i: node first + i, i < 8) whose stored steps overlap the query's steps on every
// axis: qmin <= qhi and qlo <= qmax, as unsigned 16-bit integers (the exact equivalent of the
// float box test, octree_grid.h). splat() broadcasts the steps once per query: rebuilt per call,
// the six broadcasts were a third of the test's instructions (bench/micro/RESULTS.md tenth pass).
struct QueryBoxSteps {
  uint16_t lo[3] = {}, hi[3] = {};
#if defined(OFPS_SIMD4_SSE2)
  __m128i lo8[3], hi8[3];
#endif
  void splat() {
#if defined(OFPS_SIMD4_SSE2)
    for (int k = 0; k < 3; ++k) {
      lo8[k] = _mm_set1_epi16(static_cast<short>(lo[k]));
      hi8[k] = _mm_set1_epi16(static_cast<short>(hi[k]));
    }
#endif
  }
};

inline uint32_t stepsOverlap8(const uint16_t* planes, size_t stride, uint32_t first,
                              const QueryBoxSteps& q) {
#if defined(OFPS_SIMD4_SSE2)
  const __m128i zero = _mm_setzero_si128();
  __m128i m = _mm_cmpeq_epi16(zero, zero);
  for (int k = 0; k < 3; ++k) {
    const size_t uk = static_cast<size_t>(k);
    const __m128i qmin =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(planes + uk * stride + first));
    const __m128i qmax =
        _mm_loadu_si128(reinterpret_cast<const __m128i*>(planes + (uk + 3) * stride + first));
    // a <= b (unsigned) exactly when the saturating difference a - b is 0.
    const __m128i minOk = _mm_cmpeq_epi16(_mm_subs_epu16(qmin, q.hi8[k]), zero);
    const __m128i maxOk = _mm_cmpeq_epi16(_mm_subs_epu16(q.lo8[k], qmax), zero);
    m = _mm_and_si128(m, _mm_and_si128(minOk, maxOk));
  }
  return static_cast<uint32_t>(_mm_movemask_epi8(_mm_packs_epi16(m, zero))) & 0xFFu;
#else
  uint32_t m = 0;
  for (uint32_t i = 0; i < 8; ++i) {
    bool ok = true;
    for (size_t k = 0; k < 3; ++k) {
      ok = ok && planes[k * stride + first + i] <= q.hi[k] &&
           q.lo[k] <= planes[(k + 3) * stride + first + i];
    }
    m |= (ok ? 1u : 0u) << i;
  }
  return m;
#endif
}

inline void splat3(const glm::vec3& v, simd::F4 (&out)[3]) {
  for (int k = 0; k < 3; ++k) out[k] = simd::splat(v[k]);
}

inline void loadBlock(const OctreeTriangleBlock& b, simd::F4 (&v)[9]) {
  for (int k = 0; k < 9; ++k) v[k] = simd::load(b.c[k]);
}

// Lanes whose triangle's bounding box overlaps the closed box [lo, hi] (exact comparisons).
inline uint32_t triBoxOverlap4(const OctreeTriangleBlock& blk, const simd::F4 (&lo)[3],
                               const simd::F4 (&hi)[3]) {
  uint32_t m = 0xFu;
  for (int k = 0; k < 3; ++k) {
    const simd::F4 a = simd::load(blk.c[k]), b = simd::load(blk.c[3 + k]),
                   c = simd::load(blk.c[6 + k]);
    const simd::F4 tmin = simd::min(a, simd::min(b, c)), tmax = simd::max(a, simd::max(b, c));
    m &= simd::lessEqual(tmin, hi[k]) & simd::lessEqual(lo[k], tmax);
  }
  return m;
}

// Lanes whose triangle's bounding box is within sqrt(limit2) of p (squared distance, computed
// as distanceSquared4 does).
inline uint32_t triBoxDistance4(const OctreeTriangleBlock& blk, const simd::F4 (&p)[3],
                                simd::F4 limit2) {
  simd::F4 sum;
  for (int k = 0; k < 3; ++k) {
    const simd::F4 a = simd::load(blk.c[k]), b = simd::load(blk.c[3 + k]),
                   c = simd::load(blk.c[6 + k]);
    const simd::F4 tmin = simd::min(a, simd::min(b, c)), tmax = simd::max(a, simd::max(b, c));
    const simd::F4 d = simd::max(simd::max(tmin - p[k], p[k] - tmax), simd::splat(0.0f));
    sum = k == 0 ? d * d : sum + d * d;
  }
  return simd::lessEqual(sum, limit2);
}

// boxOverlapsTriangle (triangle_tests_inl.h) on four triangles, past its bounding-box test (the
// caller's triBoxOverlap4 is that test): the triangle's normal and the nine edge cross products
// (the separating-axis test of Akenine-Moller, "Fast 3D Triangle-Box Overlap Testing", 2001),
// each computed by the same operations in the same order as the scalar code, negations and
// zero components included, so each lane's answer is exactly the scalar one. Most triangles that
// reach it either overlap or are cut off by their plane, so the normal goes first and a block
// whose lanes it all separates stops there. Returns the lanes of `lanes` that overlap.
inline uint32_t boxTriangleSat4(const OctreeTriangleBlock& blk, const simd::F4 (&lo)[3],
                                const simd::F4 (&hi)[3], uint32_t lanes) {
  using simd::F4;
  using simd::M4;
  F4 v[9];
  loadBlock(blk, v);
  const F4 zero = simd::splat(0.0f), allSigns = simd::splat(-0.0f);
  const auto neg = [&](F4 x) { return simd::flipSign(x, allSigns); };  // exactly -x
  // Relative to v0, as the scalar code: t0 = 0, t1, t2, the box, and the edges f0 = t1, f1, f2.
  F4 t1[3], t2[3], bmin[3], bmax[3], f1[3], f2[3];
  for (int k = 0; k < 3; ++k) {
    t1[k] = v[3 + k] - v[k];
    t2[k] = v[6 + k] - v[k];
    bmin[k] = lo[k] - v[k];
    bmax[k] = hi[k] - v[k];
  }
  for (int k = 0; k < 3; ++k) {
    f1[k] = t2[k] - t1[k];
    f2[k] = neg(t2[k]);
  }
  // detail::separatedOnAxis, lane by lane (std::min(x, y) is simd::min(y, x), and so for max).
  const auto separated = [&](F4 ax, F4 ay, F4 az) {
    const F4 p0 = ax * zero + ay * zero + az * zero;
    const F4 p1 = ax * t1[0] + ay * t1[1] + az * t1[2];
    const F4 p2 = ax * t2[0] + ay * t2[1] + az * t2[2];
    const F4 tmin = simd::min(simd::min(p2, p1), p0), tmax = simd::max(simd::max(p2, p1), p0);
    const M4 px = simd::ge(ax, zero), py = simd::ge(ay, zero), pz = simd::ge(az, zero);
    const F4 bx0 = ax * simd::select(px, bmin[0], bmax[0]),
             bx1 = ax * simd::select(px, bmax[0], bmin[0]);
    const F4 by0 = ay * simd::select(py, bmin[1], bmax[1]),
             by1 = ay * simd::select(py, bmax[1], bmin[1]);
    const F4 bz0 = az * simd::select(pz, bmin[2], bmax[2]),
             bz1 = az * simd::select(pz, bmax[2], bmin[2]);
    const F4 boxMin = bx0 + by0 + bz0, boxMax = bx1 + by1 + bz1;
    return simd::gt(tmin, boxMax) | simd::gt(boxMin, tmax);
  };
  // n = cross3(f0, t2).
  const F4 n[3] = {t1[1] * t2[2] - t1[2] * t2[1], t1[2] * t2[0] - t1[0] * t2[2],
                   t1[0] * t2[1] - t1[1] * t2[0]};
  lanes &= ~simd::bits(separated(n[0], n[1], n[2]));
  if (lanes == 0) return 0;
  M4 sep = separated(zero, neg(t1[2]), t1[1]) | separated(t1[2], zero, neg(t1[0])) |
           separated(neg(t1[1]), t1[0], zero);
  sep = sep | separated(zero, neg(f1[2]), f1[1]) | separated(f1[2], zero, neg(f1[0])) |
        separated(neg(f1[1]), f1[0], zero);
  sep = sep | separated(zero, neg(f2[2]), f2[1]) | separated(f2[2], zero, neg(f2[0])) |
        separated(neg(f2[1]), f2[0], zero);
  return lanes & ~simd::bits(sep);
}

// sphereOverlapsTriangle for four non-degenerate triangles: the closest point on each triangle
// (closestPointOnTriangleImpl, Ericson §5.1.5) with every Voronoi region's point computed by the
// same operations in the same order as the scalar code, and the first region that applies
// selected, so each lane's answer is exactly the scalar one. Returns the lanes within sqrt(r2).
inline uint32_t sphereTriangle4(const OctreeTriangleBlock& blk, const simd::F4 (&p)[3],
                                simd::F4 r2) {
  using simd::F4;
  using simd::M4;
  F4 v[9];
  loadBlock(blk, v);
  const F4 zero = simd::splat(0.0f);
  F4 ab[3], ac[3], ap[3], bp[3], cp[3];
  for (int k = 0; k < 3; ++k) {
    ab[k] = v[3 + k] - v[k];
    ac[k] = v[6 + k] - v[k];
    ap[k] = p[k] - v[k];
    bp[k] = p[k] - v[3 + k];
    cp[k] = p[k] - v[6 + k];
  }
  auto dot = [](const F4(&x)[3], const F4(&y)[3]) {
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  };
  const F4 d1 = dot(ab, ap), d2 = dot(ac, ap), d3 = dot(ab, bp), d4 = dot(ac, bp);
  const F4 d5 = dot(ab, cp), d6 = dot(ac, cp);
  const M4 inA = simd::le(d1, zero) & simd::le(d2, zero);
  const M4 inB = simd::ge(d3, zero) & simd::le(d4, d3);
  const F4 vc = d1 * d4 - d3 * d2;
  const M4 inAB = simd::le(vc, zero) & simd::ge(d1, zero) & simd::le(d3, zero);
  const M4 inC = simd::ge(d6, zero) & simd::le(d5, d6);
  const F4 vb = d5 * d2 - d1 * d6;
  const M4 inAC = simd::le(vb, zero) & simd::ge(d2, zero) & simd::le(d6, zero);
  const F4 va = d3 * d6 - d5 * d4;
  const F4 d43 = d4 - d3, d56 = d5 - d6;
  const M4 inBC = simd::le(va, zero) & simd::ge(d43, zero) & simd::ge(d56, zero);
  const F4 denAB = d1 - d3, denAC = d2 - d6, denBC = d43 + d56;
  const F4 tAB = d1 / denAB, tAC = d2 / denAC, tBC = d43 / denBC;
  const M4 posAB = simd::gt(denAB, zero), posAC = simd::gt(denAC, zero),
           posBC = simd::gt(denBC, zero);
  const F4 n[3] = {ab[1] * ac[2] - ab[2] * ac[1], ab[2] * ac[0] - ab[0] * ac[2],
                   ab[0] * ac[1] - ab[1] * ac[0]};
  const F4 nn = dot(n, n);
  const M4 posNN = simd::gt(nn, zero);
  const F4 tFace = dot(n, ap) / nn;
  // Axis-aligned planes project exactly, tested in the scalar code's order (y, x, z).
  auto same = [](F4 x, F4 y) { return simd::le(x, y) & simd::ge(x, y); };
  const M4 flatY = same(v[1], v[4]) & same(v[1], v[7]);
  const M4 flatX = simd::andNot(flatY, same(v[0], v[3]) & same(v[0], v[6]));
  const M4 flatZ = simd::andNot(flatY | flatX, same(v[2], v[5]) & same(v[2], v[8]));
  const M4 flat = flatX | flatY | flatZ;
  const M4 flatAxis[3] = {flatX, flatY, flatZ};
  F4 dist2 = zero;
  for (int k = 0; k < 3; ++k) {
    const F4 a = v[k], b = v[3 + k], c = v[6 + k];
    F4 q = simd::select(posNN, p[k] - n[k] * tFace, a);
    q = simd::select(flat, simd::select(flatAxis[k], a, p[k]), q);
    q = simd::select(inBC, simd::select(posBC, b + (c - b) * tBC, b), q);
    q = simd::select(inAC, simd::select(posAC, a + ac[k] * tAC, a), q);
    q = simd::select(inC, c, q);
    q = simd::select(inAB, simd::select(posAB, a + ab[k] * tAB, a), q);
    q = simd::select(inB, b, q);
    q = simd::select(inA, a, q);
    const F4 d = p[k] - q;
    dist2 = k == 0 ? d * d : dist2 + d * d;
  }
  return simd::lessEqual(dist2, r2);
}

// capsuleOverlapsTriangle (triangle_tests_inl.h) for four non-degenerate triangles, lane-exact
// as sphereTriangle4: the two end spheres (sphereTriangle4), then, for the lanes neither accepts,
// detail::segmentTriangleInterior (the segment crossing the face, else its nearest approach to
// the three edges, closestPointsSegmentSegment: Ericson, "Real-Time Collision Detection", 5.1.9),
// every branch of the scalar code computed and the one it takes selected. `lanes`: the lanes to
// decide; returns those that overlap.
struct Capsule4 {
  simd::F4 a[3], b[3], d1[3], r2, a2;  // d1 = b - a, a2 = dot(d1, d1) (Ericson's a)
  bool longSegment;                    // a2 > 0 (the same in every lane)
  Capsule4(const glm::vec3& pa, const glm::vec3& pb, float radius) {
    splat3(pa, a);
    splat3(pb, b);
    const glm::vec3 d = pb - pa;
    splat3(d, d1);
    const float len2 = detail::dot3(d, d);
    a2 = simd::splat(len2);
    r2 = simd::splat(radius * radius);
    longSegment = len2 > 0.0f;
  }
};

inline uint32_t capsuleTriangle4(const OctreeTriangleBlock& blk, const Capsule4& cap,
                                 uint32_t lanes) {
  using simd::F4;
  using simd::M4;
  const uint32_t ends =
      lanes & (sphereTriangle4(blk, cap.a, cap.r2) | sphereTriangle4(blk, cap.b, cap.r2));
  lanes &= ~ends;
  if (lanes == 0) return ends;
  F4 v[9];
  loadBlock(blk, v);
  const F4 zero = simd::splat(0.0f), one = simd::splat(1.0f), allSigns = simd::splat(-0.0f);
  auto dot = [](const F4(&x)[3], const F4(&y)[3]) {
    return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  };
  auto cross = [](const F4(&x)[3], const F4(&y)[3], F4(&out)[3]) {
    out[0] = x[1] * y[2] - x[2] * y[1];
    out[1] = x[2] * y[0] - x[0] * y[2];
    out[2] = x[0] * y[1] - x[1] * y[0];
  };
  // std::clamp(x, 0, 1): (x < 0) ? 0 : (1 < x) ? 1 : x.
  auto clamp01 = [&](F4 x) {
    return simd::select(simd::gt(zero, x), zero, simd::select(simd::gt(x, one), one, x));
  };
  const F4* p = cap.a;
  const F4* q = cap.b;
  // Does the segment cross or touch the face?
  F4 ba[3], ca[3], pa[3], qa[3], n[3];
  for (int k = 0; k < 3; ++k) {
    ba[k] = v[3 + k] - v[k];
    ca[k] = v[6 + k] - v[k];
    pa[k] = p[k] - v[k];
    qa[k] = q[k] - v[k];
  }
  cross(ba, ca, n);
  const F4 dp = dot(n, pa), dq = dot(n, qa);
  const M4 straddles =
      (simd::le(dp, zero) & simd::ge(dq, zero)) | (simd::ge(dp, zero) & simd::le(dq, zero));
  const M4 bothZero =
      simd::le(dp, zero) & simd::ge(dp, zero) & simd::le(dq, zero) & simd::ge(dq, zero);
  M4 crosses = simd::andNot(bothZero, straddles);
  if (simd::bits(crosses) & lanes) {
    F4 cp[3], bp[3], ap[3], x[3];
    for (int k = 0; k < 3; ++k) {
      cp[k] = v[6 + k] - p[k];
      bp[k] = v[3 + k] - p[k];
      ap[k] = v[k] - p[k];
    }
    const F4(&pq)[3] = cap.d1;  // q - p
    cross(cp, bp, x);
    const F4 u = dot(pq, x);
    cross(ap, cp, x);
    const F4 vv = dot(pq, x);
    cross(bp, ap, x);
    const F4 w = dot(pq, x);
    const M4 inside = (simd::ge(u, zero) & simd::ge(vv, zero) & simd::ge(w, zero)) |
                      (simd::le(u, zero) & simd::le(vv, zero) & simd::le(w, zero));
    crosses = crosses & inside;
  }
  // The segment's nearest approach to each edge (closestPointsSegmentSegment(p, q, e0, e1)),
  // kept when strictly nearer (d < best, from +infinity: simd::min's rule).
  F4 best = simd::splat(std::numeric_limits<float>::infinity());
  for (int i = 0; i < 3; ++i) {
    const int j = (i + 1) % 3;
    F4 d2[3], r[3];
    for (int k = 0; k < 3; ++k) {
      d2[k] = v[3 * j + k] - v[3 * i + k];
      r[k] = p[k] - v[3 * i + k];
    }
    const F4 e = dot(d2, d2), f = dot(d2, r);
    const M4 ePos = simd::gt(e, zero);
    F4 sv, tv;
    if (!cap.longSegment) {
      // !(a > 0): s = 0, t = clamp(f / e) when e > 0, else both 0.
      sv = zero;
      tv = simd::select(ePos, clamp01(f / e), zero);
    } else {
      const F4 c = dot(cap.d1, r);
      const F4 sC = clamp01(simd::flipSign(c, allSigns) / cap.a2);  // clamp(-c / a)
      const F4 b = dot(cap.d1, d2);
      const F4 denom = cap.a2 * e - b * b;
      const F4 s0 = simd::select(simd::gt(denom, zero), clamp01((b * f - c * e) / denom), zero);
      const F4 t0 = (b * s0 + f) / e;
      const M4 tLow = simd::gt(zero, t0), tHigh = simd::gt(t0, one);
      const F4 sHigh = clamp01((b - c) / cap.a2);
      F4 sE = simd::select(tLow, sC, simd::select(tHigh, sHigh, s0));
      F4 tE = simd::select(tLow, zero, simd::select(tHigh, one, t0));
      // e == 0 (not > 0): t = 0, s = clamp(-c / a).
      sv = simd::select(ePos, sE, sC);
      tv = simd::select(ePos, tE, zero);
    }
    F4 dist2 = zero;
    for (int k = 0; k < 3; ++k) {
      const F4 onFirst = p[k] + cap.d1[k] * sv;
      const F4 onSecond = v[3 * i + k] + d2[k] * tv;
      const F4 d = onFirst - onSecond;
      dist2 = k == 0 ? d * d : dist2 + d * d;
    }
    best = simd::min(dist2, best);
  }
  // segmentTriangleInterior returns 0 where the segment crosses the face.
  best = simd::select(crosses, zero, best);
  return ends | (lanes & simd::lessEqual(best, cap.r2));
}

// rayTriangle (triangle_tests_inl.h) on four triangles: the same operations in the same order,
// so each lane gives exactly the scalar answer. Returns the lanes hit with t in [0, tMax].
struct Ray4 {
  simd::F4 o[3], d[3];
  Ray4(const glm::vec3& origin, const glm::vec3& dir) {
    splat3(origin, o);
    splat3(dir, d);
  }
};

inline uint32_t rayTriangle4(const Ray4& r, const OctreeTriangleBlock& blk, float tMax,
                             float (&outT)[4]) {
  using simd::F4;
  F4 v[9];
  loadBlock(blk, v);
  const F4 e1[3] = {v[3] - v[0], v[4] - v[1], v[5] - v[2]};
  const F4 e2[3] = {v[6] - v[0], v[7] - v[1], v[8] - v[2]};
  const F4 p[3] = {r.d[1] * e2[2] - r.d[2] * e2[1], r.d[2] * e2[0] - r.d[0] * e2[2],
                   r.d[0] * e2[1] - r.d[1] * e2[0]};
  const F4 sdet = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
  const F4 tv[3] = {r.o[0] - v[0], r.o[1] - v[1], r.o[2] - v[2]};
  const F4 q[3] = {tv[1] * e1[2] - tv[2] * e1[1], tv[2] * e1[0] - tv[0] * e1[2],
                   tv[0] * e1[1] - tv[1] * e1[0]};
  const F4 det = simd::flipSign(sdet, sdet);
  const F4 u = simd::flipSign(tv[0] * p[0] + tv[1] * p[1] + tv[2] * p[2], sdet);
  const F4 vv = simd::flipSign(r.d[0] * q[0] + r.d[1] * q[1] + r.d[2] * q[2], sdet);
  const F4 tt = simd::flipSign(e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2], sdet);
  const F4 zero = simd::splat(0.0f);
  const F4 tMax4 = simd::splat(tMax);
  const uint32_t reject = simd::equal(det, zero) | simd::less(u, zero) | simd::less(vv, zero) |
                          simd::less(det, u + vv) | simd::less(tt, zero) |
                          simd::less(tMax4 * det * simd::splat(1.0000005f), tt);
  const F4 t = tt / det;
  simd::store(outT, t);
  return ~reject & simd::lessEqual(t, tMax4) & 0xFu;
}

inline bool inMask(const std::vector<uint32_t>& layers, uint32_t slot, uint32_t mask) {
  return ((layers.empty() ? kOctreeAllLayers : layers[slot]) & mask) != 0;
}

}  // namespace

// ---- Ray ----------------------------------------------------------------------------------------

bool Octree::raycast(const glm::vec3& origin, const glm::vec3& dir, float tMax, uint32_t layerMask,
                     RayHit& outHit, QueryStats* ioStats) const {
  const uint32_t nc = nodeCount();
  if (nc == 0 || layerMask == 0 || !(tMax >= 0.0f) ||
      (dir.x == 0.0f && dir.y == 0.0f && dir.z == 0.0f)) {
    return false;
  }
  if (octreeSimd() == OctreeSimd::kAvx2)
    return raycastAvx2(origin, dir, tMax, layerMask, outHit, ioStats);
  const RayNodeTest4 nodes(origin, RayGridPlanes(origin, dir, qOrigin_, qScale_), qOrigin_,
                           qScale_);
  const Ray4 ray4(origin, dir);
  QueryStats st;
  QueryTrace* const trace = ioStats != nullptr ? ioStats->trace : nullptr;
  RayBest best(tMax);
  // With and without nearestFirst's look-ahead prefetch (octree_traversal_inl.h lookAhead()).
  auto walk = [&](auto ahead) {
    return nearestFirst<4, true, decltype(ahead)::value>(
        links_.data(), qBounds_.data(), best.t,
        [&](const uint16_t* planes, size_t stride, uint32_t first, float* keys) {
          return nodes.hit(planes, stride, first, best.t, keys);
        },
        [&](uint32_t node) {
          if (trace != nullptr) trace->add(node);
          const OctreeNodeLinks& l = links_[node];
          forBlocks<1>(l.firstTriangle, l.ownEnd, [&](uint32_t b, uint32_t lanes) {
            lanes = laneLayers(b, lanes, layerMask);
            st.trianglesTested += laneCount(lanes);
            float t[4];
            uint32_t hit = rayTriangle4(ray4, blocks_[b], best.t, t) & lanes;
            best.take(hit, t, 4 * b, originalIndex_.data());
            return true;
          });
        },
        blocks_.data());
  };
  st.nodesVisited += lookAhead(blocks_.size()) ? walk(std::true_type{}) : walk(std::false_type{});
  return best.finish(*this, origin, dir, st, ioStats, outHit);
}

// ---- Overlap ------------------------------------------------------------------------------------

// Depth-first preorder walk: nodeTest(planes, stride, first) -> lane mask of the children first
// .. first + 7 to enter of a block of `stride` children whose bounds planes start at `planes`
// (nearestFirst's keyOf; lanes past the node's children are ignored);
// laneTest(block, lanes) -> lane mask of the triangles that may overlap (a SIMD prefilter, or the
// whole test); triTest(slot) whether such a triangle overlaps; report(slot) returns false to stop.
// Children are pushed last-first so that nodes, and so triangle slots, come in preorder.
template <class NodeTest, class LaneTest, class TriTest, class Report>
uint32_t Octree::walkOverlap(NodeTest&& nodeTest, LaneTest&& laneTest, TriTest&& triTest,
                             Report&& report, uint32_t layerMask, QueryStats* ioStats) const {
  QueryStats st;
  QueryTrace* const trace = ioStats != nullptr ? ioStats->trace : nullptr;
  uint32_t found = 0;
  const uint32_t nc = nodeCount();
  if (nc != 0 && layerMask != 0) {
    const OctreeNodeLinks* links = links_.data();
    uint32_t stack[kOctreeStackSize];
    uint32_t top = 0;
    ++st.nodesVisited;
    uint32_t node = 0;
    bool more = (nodeTest(qBounds_.data(), size_t{1}, 0u) & 1u) != 0;  // the root's block
    while (more) {
      if (trace != nullptr) trace->add(node);
      const OctreeNodeLinks& l = links[node];
      prefetchChildLinks(links, l);
      const bool go = forBlocks<1>(l.firstTriangle, l.ownEnd, [&](uint32_t b, uint32_t lanes) {
        lanes = laneLayers(b, lanes, layerMask);
        st.trianglesTested += laneCount(lanes);
        uint32_t m = lanes != 0 ? laneTest(b, lanes) & lanes : 0u;
        while (m != 0) {
          const uint32_t s = 4 * b + static_cast<uint32_t>(std::countr_zero(m));
          m &= m - 1;
          if (triTest(s)) {
            ++found;
            if (!report(s)) return false;
          }
        }
        return true;
      });
      if (!go) break;
      uint32_t mask = 0;
      const uint16_t* planes = qBounds_.data() + 6 * static_cast<size_t>(l.firstChild);
      for (uint32_t g = 0; g < l.childCount; g += 8)
        mask |= nodeTest(planes, static_cast<size_t>(l.childCount), g) << g;
      mask &= (1u << l.childCount) - 1u;
      st.nodesVisited += l.childCount;
      if (mask != 0) {
        // The first child hit is entered next; the others are pushed last-first.
        node = l.firstChild + static_cast<uint32_t>(std::countr_zero(mask));
        mask &= mask - 1;
        uint32_t k = top + bitCount16(mask);
        top = k;
        for (; mask != 0; mask &= mask - 1)
          stack[--k] = l.firstChild + static_cast<uint32_t>(std::countr_zero(mask));
        continue;
      }
      more = top > 0;
      if (more) node = stack[--top];
    }
  }
  if (ioStats) {
    ioStats->nodesVisited += st.nodesVisited;
    ioStats->trianglesTested += st.trianglesTested;
  }
  return found;
}

#if defined(OFPS_SIMD4_SSE2)
namespace {
// quantizeQueryBox's usual case, the three axes at once: hi's step from QuantAxis's linear guess,
// kept when value(q) <= hi < value(q + 1) (then it is down(hi): value() is monotone), or
// kQuantMax when hi reaches past the grid; lo's the same way with up(). Any guess that checks
// out is the answer, so this returns exactly what the exact search would. Returns 1 with the
// steps, 0 when the box misses the grid (or is NaN), -1 when a guess does not check out
// (rounding plateaus far from the origin, a flat axis): then the caller searches. One per overlap
// query: it saves most of the scalar version's 200 instructions (bench/micro/RESULTS.md tenth
// pass).
inline int quantizeBoxFast(const glm::vec3& lo, const glm::vec3& hi, const glm::vec3& origin,
                           const glm::vec3& scale, const glm::vec3& invScale, uint16_t (&qlo)[3],
                           uint16_t (&qhi)[3]) {
  const __m128 o = _mm_setr_ps(origin.x, origin.y, origin.z, origin.z);
  const __m128 sc = _mm_setr_ps(scale.x, scale.y, scale.z, scale.z);
  const __m128 inv = _mm_setr_ps(invScale.x, invScale.y, invScale.z, invScale.z);
  const __m128 h = _mm_setr_ps(hi.x, hi.y, hi.z, hi.z);
  const __m128 l = _mm_setr_ps(lo.x, lo.y, lo.z, lo.z);
  // QuantAxis::value(q) = origin + float(q) * scale, the same operations.
  const auto value = [&](__m128i q) { return _mm_add_ps(o, _mm_mul_ps(_mm_cvtepi32_ps(q), sc)); };
  const __m128i maxStep = _mm_set1_epi32(static_cast<int>(detail::kQuantMax));
  const __m128 top = value(maxStep);
  // down(hi) < 0 when !(value(0) <= hi); up(lo) > kQuantMax when !(value(kQuantMax) >= lo).
  if ((_mm_movemask_ps(_mm_or_ps(_mm_cmpnle_ps(o, h), _mm_cmpnge_ps(top, l))) & 7) != 0) return 0;
  const __m128 one = _mm_set1_ps(1.0f),
               last = _mm_set1_ps(static_cast<float>(detail::kQuantMax - 1));
  const __m128i oneStep = _mm_set1_epi32(1);
  // Guesses in [1, kQuantMax - 1] (max() takes its second operand on NaN).
  const __m128 eh = _mm_min_ps(_mm_max_ps(_mm_mul_ps(_mm_sub_ps(h, o), inv), one), last);
  const __m128 el = _mm_min_ps(_mm_max_ps(_mm_mul_ps(_mm_sub_ps(l, o), inv), one), last);
  const __m128i qh = _mm_cvttps_epi32(eh);  // >= 1: truncation is the floor
  const __m128i tl = _mm_cvttps_epi32(el);
  const __m128i ql =
      _mm_sub_epi32(tl, _mm_castps_si128(_mm_cmplt_ps(_mm_cvtepi32_ps(tl), el)));  // round up
  const __m128 hiPast = _mm_cmple_ps(top, h), loBefore = _mm_cmple_ps(l, o);
  const __m128 hOk = _mm_or_ps(
      hiPast,
      _mm_and_ps(_mm_cmple_ps(value(qh), h), _mm_cmpgt_ps(value(_mm_add_epi32(qh, oneStep)), h)));
  const __m128 lOk = _mm_or_ps(
      loBefore,
      _mm_and_ps(_mm_cmpge_ps(value(ql), l), _mm_cmplt_ps(value(_mm_sub_epi32(ql, oneStep)), l)));
  if ((_mm_movemask_ps(_mm_and_ps(hOk, lOk)) & 7) != 7) return -1;
  const __m128i hm = _mm_castps_si128(hiPast), lm = _mm_castps_si128(loBefore);
  alignas(16) int32_t rh[4], rl[4];
  _mm_store_si128(reinterpret_cast<__m128i*>(rh),
                  _mm_or_si128(_mm_and_si128(hm, maxStep), _mm_andnot_si128(hm, qh)));
  _mm_store_si128(reinterpret_cast<__m128i*>(rl), _mm_andnot_si128(lm, ql));  // 0 before the grid
  for (int k = 0; k < 3; ++k) {
    qhi[k] = static_cast<uint16_t>(rh[k]);
    qlo[k] = static_cast<uint16_t>(rl[k]);
  }
  return 1;
}
}  // namespace
#endif

bool Octree::quantizeQueryBox(const glm::vec3& lo, const glm::vec3& hi, uint16_t (&qlo)[3],
                              uint16_t (&qhi)[3]) const {
  if (empty()) return false;
#if defined(OFPS_SIMD4_SSE2)
  const int fast = quantizeBoxFast(lo, hi, qOrigin_, qScale_, qInvScale_, qlo, qhi);
  if (fast >= 0) return fast == 1;
#endif
  for (int k = 0; k < 3; ++k) {
    const detail::QuantAxis axis{qOrigin_[k], qScale_[k], qInvScale_[k]};
    const int32_t h = axis.down(hi[k]);  // -1: every box starts above hi (or hi is NaN)
    const int32_t l = axis.up(lo[k]);    // > kQuantMax: every box ends below lo (or lo is NaN)
    if (h < 0 || l > static_cast<int32_t>(detail::kQuantMax)) return false;
    qhi[k] = static_cast<uint16_t>(h);
    qlo[k] = static_cast<uint16_t>(l);
  }
  return true;
}

template <class LaneTest, class TriTest, class Report>
uint32_t Octree::walkQueryBox(const glm::vec3& bmin, const glm::vec3& bmax, LaneTest&& laneTest,
                              TriTest&& triTest, Report&& report, uint32_t layerMask,
                              QueryStats* ioStats) const {
  QueryBoxSteps qs;
  const bool any = quantizeQueryBox(bmin, bmax, qs.lo, qs.hi);
  qs.splat();
  return walkOverlap(
      [&](const uint16_t* planes, size_t stride, uint32_t first) {
        return any ? stepsOverlap8(planes, stride, first, qs) : 0u;
      },
      laneTest, triTest, report, layerMask, ioStats);
}

template <class Contact>
void Octree::offerBoxContacts(const glm::vec3& bmin, const glm::vec3& bmax, Contact&& contact,
                              uint32_t layerMask, QueryStats* ioStats) const {
  simd::F4 lo[3], hi[3];
  splat3(bmin, lo);
  splat3(bmax, hi);
  walkQueryBox(
      bmin, bmax, [&](uint32_t bi, uint32_t) { return triBoxOverlap4(blocks_[bi], lo, hi); },
      [&](uint32_t s) {
        contact(s);
        return false;  // contacts are offered, never reported
      },
      [](uint32_t) { return true; }, layerMask, ioStats);
}

bool Octree::rayAny(const glm::vec3& origin, const glm::vec3& dir, float tMax, uint32_t layerMask,
                    QueryStats* ioStats) const {
  if (nodeCount() != 0 && layerMask != 0 && tMax >= 0.0f &&
      !(dir.x == 0.0f && dir.y == 0.0f && dir.z == 0.0f) && octreeSimd() == OctreeSimd::kAvx2) {
    return rayAnyAvx2(origin, dir, tMax, layerMask, ioStats);
  }
  // raycast()'s node test, so both agree.
  const RayNodeTest4 nodes(origin, RayGridPlanes(origin, dir, qOrigin_, qScale_), qOrigin_,
                           qScale_);
  const Ray4 ray4(origin, dir);
  float keys[4];
  bool found = false;
  if (nodeCount() != 0 && tMax >= 0.0f && !(dir.x == 0.0f && dir.y == 0.0f && dir.z == 0.0f)) {
    walkOverlap(
        [&](const uint16_t* planes, size_t stride, uint32_t first) {
          return nodes.hit(planes, stride, first, tMax, keys) |
                 (nodes.hit(planes, stride, first + 4, tMax, keys) << 4);
        },
        [&](uint32_t bi, uint32_t) {
          float t[4];
          return rayTriangle4(ray4, blocks_[bi], tMax, t);
        },
        [](uint32_t) { return true; },
        [&](uint32_t) {
          found = true;
          return false;  // any hit will do
        },
        layerMask, ioStats);
  }
  return found;
}

uint32_t Octree::overlapSphere(const glm::vec3& center, float radius, uint32_t layerMask,
                               OctreeTriangleVisitor visitor, void* context,
                               QueryStats* ioStats) const {
  const float r2 = radius * radius;
  simd::F4 c4[3];
  splat3(center, c4);
  const simd::F4 r2x4 = simd::splat(r2);
  // Prefilter on the distance to each triangle's bounding box (a lower bound of the distance to
  // the triangle), padded far beyond the rounding of the exact test (a few ulps of the
  // coordinates), so it never rejects a triangle the exact test would accept.
  const float padded = radius + 1e-5f * (radius + maxAbs(center));
  const simd::F4 pad2 = simd::splat(padded * padded);
  // Nodes: the padded box around the sphere.
  return walkQueryBox(
      center - glm::vec3(padded), center + glm::vec3(padded),
      [&](uint32_t bi, uint32_t lanes) {
        // Prefilter, then the exact test on four lanes at once when any lane passes; degenerate
        // triangles (segments, points) are left to the scalar test.
        const uint32_t near = triBoxDistance4(blocks_[bi], c4, pad2) & lanes;
        if (near == 0) return 0u;
        const uint32_t degenerate = degenerateLanes_[bi];
        return (near & degenerate) | (near & ~degenerate & sphereTriangle4(blocks_[bi], c4, r2x4));
      },
      [&](uint32_t s) {
        return !isDegenerateSlot(s) || sphereOverlapsTriangle(center, radius, triangle(s), true);
      },
      [&](uint32_t s) { return visitor(context, originalIndex_[s]); }, layerMask, ioStats);
}

uint32_t Octree::overlapCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                                uint32_t layerMask, OctreeTriangleVisitor visitor, void* context,
                                QueryStats* ioStats) const {
  const glm::vec3 bmin = glm::min(a, b) - glm::vec3(radius),
                  bmax = glm::max(a, b) + glm::vec3(radius);
  simd::F4 lo[3], hi[3];
  splat3(bmin, lo);
  splat3(bmax, hi);
  const Capsule4 cap(a, b, radius);
  uint32_t simdBlock = kOctreeInvalidIndex;  // the block whose lanes capsuleTriangle4 decided
  return walkQueryBox(
      bmin, bmax,
      [&](uint32_t bi, uint32_t lanes) {
        // Degenerate triangles (segments, points) are left to the scalar test.
        const uint32_t near = triBoxOverlap4(blocks_[bi], lo, hi) & lanes;
        if (near == 0) return 0u;
        const uint32_t degenerate = degenerateLanes_[bi];
        const uint32_t solid = near & ~degenerate;
        // One lane: the scalar test is cheaper than four lanes' worth of every branch.
        simdBlock = (solid & (solid - 1)) == 0 ? kOctreeInvalidIndex : bi;
        if (simdBlock == kOctreeInvalidIndex) return near;
        return (near & degenerate) | capsuleTriangle4(blocks_[bi], cap, solid);
      },
      [&](uint32_t s) {
        const bool degenerate = isDegenerateSlot(s);
        return ((s >> 2) == simdBlock && !degenerate) ||
               capsuleOverlapsTriangle(a, b, radius, triangle(s), degenerate);
      },
      [&](uint32_t s) { return visitor(context, originalIndex_[s]); }, layerMask, ioStats);
}

uint32_t Octree::overlapBox(const Aabb& box, uint32_t layerMask, OctreeTriangleVisitor visitor,
                            void* context, QueryStats* ioStats) const {
  simd::F4 lo[3], hi[3];
  splat3(box.min, lo);
  splat3(box.max, hi);
  return walkQueryBox(
      box.min, box.max,
      [&](uint32_t bi, uint32_t lanes) {
        const uint32_t m = triBoxOverlap4(blocks_[bi], lo, hi) & lanes;
        return m != 0 ? boxTriangleSat4(blocks_[bi], lo, hi, m) : 0u;
      },
      [](uint32_t) { return true; },
      [&](uint32_t s) { return visitor(context, originalIndex_[s]); }, layerMask, ioStats);
}

namespace {
struct CollectContext {
  std::span<uint32_t> out;
  uint32_t written = 0;
};
bool collectInto(void* ctx, uint32_t tri) {
  auto* c = static_cast<CollectContext*>(ctx);
  if (c->written < c->out.size()) c->out[c->written++] = tri;
  return true;
}
}  // namespace

uint32_t Octree::collectSphere(const glm::vec3& center, float radius, uint32_t layerMask,
                               std::span<uint32_t> out, QueryStats* ioStats) const {
  CollectContext c{out};
  return overlapSphere(center, radius, layerMask, &collectInto, &c, ioStats);
}
uint32_t Octree::collectCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                                uint32_t layerMask, std::span<uint32_t> out,
                                QueryStats* ioStats) const {
  CollectContext c{out};
  return overlapCapsule(a, b, radius, layerMask, &collectInto, &c, ioStats);
}
uint32_t Octree::collectBox(const Aabb& box, uint32_t layerMask, std::span<uint32_t> out,
                            QueryStats* ioStats) const {
  CollectContext c{out};
  return overlapBox(box, layerMask, &collectInto, &c, ioStats);
}

// ---- Push-out -----------------------------------------------------------------------------------

using detail::DeepestContact;
using detail::resolvePushOut;

bool Octree::sphereIntersect(const glm::vec3& center, float radius, uint32_t layerMask,
                             PushOut& outPushOut, QueryStats* ioStats,
                             uint32_t maxIterations) const {
  const float tol = 1e-6f * (radius + maxAbs(center));
  return resolvePushOut(tol, maxIterations, outPushOut,
                        [&](const glm::vec3& offset, DeepestContact& d) {
                          const glm::vec3 c = center + offset;
                          offerBoxContacts(
                              c - glm::vec3(radius), c + glm::vec3(radius),
                              [&](uint32_t s) {
                                TriangleContact tc;
                                if (sphereTriangleContact(c, radius, triangle(s), tc))
                                  d.offer(tc, originalIndex_[s]);
                              },
                              layerMask, ioStats);
                        });
}

bool Octree::capsuleIntersect(const glm::vec3& a, const glm::vec3& b, float radius,
                              uint32_t layerMask, PushOut& outPushOut, QueryStats* ioStats,
                              uint32_t maxIterations) const {
  const float size = radius + 0.5f * maxAbs(b - a);
  const float tol = 1e-6f * (size + maxAbs((a + b) * 0.5f));
  return resolvePushOut(tol, maxIterations, outPushOut,
                        [&](const glm::vec3& offset, DeepestContact& d) {
                          const glm::vec3 a1 = a + offset, b1 = b + offset;
                          const glm::vec3 bmin = glm::min(a1, b1) - glm::vec3(radius);
                          const glm::vec3 bmax = glm::max(a1, b1) + glm::vec3(radius);
                          offerBoxContacts(
                              bmin, bmax,
                              [&](uint32_t s) {
                                TriangleContact tc;
                                if (capsuleTriangleContact(a1, b1, radius, triangle(s), tc))
                                  d.offer(tc, originalIndex_[s]);
                              },
                              layerMask, ioStats);
                        });
}

bool Octree::boxIntersect(const Aabb& box, uint32_t layerMask, PushOut& outPushOut,
                          QueryStats* ioStats, uint32_t maxIterations) const {
  const float tol = 1e-6f * (maxAbs(box.halfExtents()) + maxAbs(box.center()));
  return resolvePushOut(tol, maxIterations, outPushOut,
                        [&](const glm::vec3& offset, DeepestContact& d) {
                          const Aabb b{box.min + offset, box.max + offset};
                          offerBoxContacts(
                              b.min, b.max,
                              [&](uint32_t s) {
                                TriangleContact tc;
                                if (boxTriangleContact(b, triangle(s), tc))
                                  d.offer(tc, originalIndex_[s]);
                              },
                              layerMask, ioStats);
                        });
}

// ---- Sweeps -------------------------------------------------------------------------------------

namespace {

// Best sweep contact so far: earliest toi; at toi 0 with an initial overlap the deepest contact;
// then the lowest original index. Independent of visit order.
struct BestSweep {
  SweepContact contact;
  float depth = 0.0f;  // penetration depth for initial overlaps
  uint32_t triangle = kOctreeInvalidIndex;
  bool better(const SweepContact& c, float dep, uint32_t tri) const {
    if (triangle == kOctreeInvalidIndex) return true;
    if (c.toi != contact.toi) return c.toi < contact.toi;
    if (dep != depth) return dep > depth;
    return tri < triangle;
  }
};

}  // namespace

// Nearest-first walk shared by the sweeps: the shape's bounding box (centre, half extents) moves
// by displacement; sweepTri(slot, contact, depth) tests one triangle.
template <class SweepTri>
bool Octree::sweepWalk(const glm::vec3& boxCenter, const glm::vec3& boxHalf,
                       const glm::vec3& displacement, uint32_t mask, SweepTri&& sweepTri,
                       SweepHit& outHit, QueryStats* ioStats) const {
  if (empty() || mask == 0) return false;
  const Grid4 grid(qOrigin_, qScale_);
  // The shape's box centre moves along a ray; node boxes grow by the shape's half extents, and
  // by a few ulps of the coordinates in play, so rounding in the slab test can never drop a node
  // whose triangle ties the best time of impact (a shared edge or vertex).
  const float pad = 1e-6f * (std::max(maxAbs(rootBounds_.min), maxAbs(rootBounds_.max)) +
                             maxAbs(boxCenter) + maxAbs(boxHalf) + maxAbs(displacement));
  const RaySlab4 slab(boxCenter, RayAxes(displacement), boxHalf + glm::vec3(pad));
  QueryStats st;
  QueryTrace* const trace = ioStats != nullptr ? ioStats->trace : nullptr;
  BestSweep best;
  float bound = 1.0f;
  auto keyOf = [&](const uint16_t* planes, size_t stride, uint32_t first, float* keys) {
    return slab.hit<true>(planes, stride, first, grid, 0.0f, bound, keys);
  };
  st.nodesVisited +=
      nearestFirst<4>(links_.data(), qBounds_.data(), bound, keyOf, [&](uint32_t node) {
        if (trace != nullptr) trace->add(node);
        const OctreeNodeLinks& l = links_[node];
        for (uint32_t s = l.firstTriangle; s < l.ownEnd; ++s) {
          if (!inMask(layers_, s, mask)) continue;
          ++st.trianglesTested;
          SweepContact c;
          float depth = 0.0f;
          if (sweepTri(s, c, depth) && best.better(c, depth, originalIndex_[s])) {
            best.contact = c;
            best.depth = depth;
            best.triangle = originalIndex_[s];
            bound = c.toi;
          }
        }
      });
  if (ioStats) {
    ioStats->nodesVisited += st.nodesVisited;
    ioStats->trianglesTested += st.trianglesTested;
  }
  if (best.triangle == kOctreeInvalidIndex) return false;
  outHit.toi = best.contact.toi;
  outHit.triangle = best.triangle;
  outHit.point = best.contact.point;
  outHit.normal = best.contact.normal;
  outHit.startsOverlapping = best.contact.startsOverlapping;
  return true;
}

bool Octree::sweepSphere(const glm::vec3& center, float radius, const glm::vec3& displacement,
                         uint32_t layerMask, SweepHit& outHit, QueryStats* ioStats) const {
  return sweepWalk(
      center, glm::vec3(radius), displacement, layerMask,
      [&](uint32_t s, SweepContact& c, float& depth) {
        if (!sweepSphereTriangle(center, radius, displacement, triangle(s), c)) return false;
        if (c.startsOverlapping) {
          TriangleContact tc;
          if (sphereTriangleContact(center, radius, triangle(s), tc)) depth = tc.depth;
        }
        return true;
      },
      outHit, ioStats);
}

bool Octree::sweepCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                          const glm::vec3& displacement, uint32_t layerMask, SweepHit& outHit,
                          QueryStats* ioStats) const {
  const glm::vec3 half = glm::abs(b - a) * 0.5f + glm::vec3(radius);
  return sweepWalk((a + b) * 0.5f, half, displacement, layerMask,
                   [&](uint32_t s, SweepContact& c, float& depth) {
                     if (!sweepCapsuleTriangle(a, b, radius, displacement, triangle(s), c))
                       return false;
                     if (c.startsOverlapping) {
                       TriangleContact tc;
                       if (capsuleTriangleContact(a, b, radius, triangle(s), tc)) depth = tc.depth;
                     }
                     return true;
                   },
                   outHit, ioStats);
}

// ---- Closest point ------------------------------------------------------------------------------

bool Octree::closestPoint(const glm::vec3& p, float maxDistance, uint32_t layerMask,
                          PointHit& outHit, QueryStats* ioStats) const {
  const uint32_t nc = nodeCount();
  if (nc == 0 || layerMask == 0 || !(maxDistance >= 0.0f)) return false;
  const Grid4 grid(qOrigin_, qScale_);
  QueryStats st;
  QueryTrace* const trace = ioStats != nullptr ? ioStats->trace : nullptr;
  float best2 = maxDistance * maxDistance;
  uint32_t bestOrig = kOctreeInvalidIndex;
  glm::vec3 bestPoint(0.0f);
  simd::F4 p4[3];
  splat3(p, p4);
  auto keyOf = [&](const uint16_t* planes, size_t stride, uint32_t first, float* keys) {
    const simd::F4 d2 = distanceSquared4(loadBoxes(planes, stride, first, grid), p4);
    simd::store(keys, d2);
    return simd::lessEqual(d2, simd::splat(best2));
  };
  st.nodesVisited +=
      nearestFirst<4>(links_.data(), qBounds_.data(), best2, keyOf, [&](uint32_t node) {
        if (trace != nullptr) trace->add(node);
        const OctreeNodeLinks& l = links_[node];
        for (uint32_t s = l.firstTriangle; s < l.ownEnd; ++s) {
          if (!inMask(layers_, s, layerMask)) continue;
          ++st.trianglesTested;
          const glm::vec3 cp = closestPointOnTriangle(p, triangle(s));
          const glm::vec3 d = p - cp;
          const float d2 = d.x * d.x + d.y * d.y + d.z * d.z;
          const uint32_t o = originalIndex_[s];
          if (d2 < best2 || (d2 == best2 && o < bestOrig)) {
            best2 = d2;
            bestOrig = o;
            bestPoint = cp;
          }
        }
      });
  if (ioStats) {
    ioStats->nodesVisited += st.nodesVisited;
    ioStats->trianglesTested += st.trianglesTested;
  }
  if (bestOrig == kOctreeInvalidIndex) return false;
  outHit.point = bestPoint;
  outHit.distance = std::sqrt(best2);
  outHit.triangle = bestOrig;
  return true;
}

}  // namespace ofps
