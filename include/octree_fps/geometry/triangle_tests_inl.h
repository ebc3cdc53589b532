#pragma once
// Inline definitions of the hot primitive tests declared in triangle_tests.h (kept in a header so
// the octree's inner loops can inline them). Read triangle_tests.h for the contracts.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/geometric.hpp>
#include <limits>

#include "octree_fps/geometry/bit_cast.h"

// The octree's inner loops depend on these being inlined.
#if defined(__GNUC__) || defined(__clang__)
#define OFPS_FORCE_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define OFPS_FORCE_INLINE __forceinline
#else
#define OFPS_FORCE_INLINE inline
#endif

namespace ofps {
namespace detail {

inline float dot3(const glm::vec3& a, const glm::vec3& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline glm::vec3 cross3(const glm::vec3& a, const glm::vec3& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
inline float lengthSq(const glm::vec3& a) {
  return dot3(a, a);
}

// Closest point on the closed segment [a, b] to p (a point when a == b).
inline glm::vec3 closestPointOnSegment(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b) {
  const glm::vec3 ab = b - a;
  const float den = lengthSq(ab);
  if (!(den > 0.0f)) return a;
  const float t = dot3(p - a, ab) / den;
  // The end points exactly (a + (b - a) * 1 need not round to b, which would put the nearest
  // point outside the segment's bounding box).
  if (!(t > 0.0f)) return a;
  if (t >= 1.0f) return b;
  return a + ab * t;
}

}  // namespace detail

// Zero-area test shared by the build (counting) and every primitive: the triangle is treated as
// its edges when |ab x ac|^2 <= 1e-14 |e1|^2 |e2|^2 for its two longest edges e1, e2, i.e. the
// sine of its smallest angle is below 1e-7, under float precision. Computed in double, where
// the differences and products of float coordinates are exact (or nearly), so a thin but real
// sliver is not mistaken for a segment. Relative, so it does not depend on scale.
inline bool isDegenerateTriangle(const Triangle& tri) {
  // Fast path in float: a sine clearly above 1e-6 cannot be below 1e-7 in double (the float
  // cross product's error is a few ulps of |ab||ac|), so the answer is the same.
  {
    const glm::vec3 ab = tri.v1 - tri.v0, ac = tri.v2 - tri.v0, bc = tri.v2 - tri.v1;
    const float n2 = detail::lengthSq(detail::cross3(ab, ac));
    const float l0 = detail::lengthSq(ab), l1 = detail::lengthSq(ac), l2 = detail::lengthSq(bc);
    const float longest = std::max(l0, std::max(l1, l2));
    const float middle = std::max(std::min(l0, l1), std::min(std::max(l0, l1), l2));
    if (n2 > 1e-12f * (longest * middle) && std::isfinite(n2)) return false;
  }
  const double x0 = tri.v0.x, y0 = tri.v0.y, z0 = tri.v0.z;
  const double abx = double(tri.v1.x) - x0, aby = double(tri.v1.y) - y0,
               abz = double(tri.v1.z) - z0;
  const double acx = double(tri.v2.x) - x0, acy = double(tri.v2.y) - y0,
               acz = double(tri.v2.z) - z0;
  const double bcx = acx - abx, bcy = acy - aby, bcz = acz - abz;
  const double nx = aby * acz - abz * acy, ny = abz * acx - abx * acz, nz = abx * acy - aby * acx;
  const double n2 = nx * nx + ny * ny + nz * nz;
  const double l0 = abx * abx + aby * aby + abz * abz;
  const double l1 = acx * acx + acy * acy + acz * acz;
  const double l2 = bcx * bcx + bcy * bcy + bcz * bcz;
  const double shortest = std::min(l0, std::min(l1, l2));
  const double longest = std::max(l0, std::max(l1, l2));
  const double middle = std::max(std::min(l0, l1), std::min(std::max(l0, l1), l2));
  return shortest == 0.0 || !(n2 > 1e-14 * (longest * middle));
}

namespace detail {
// closestPointOnTriangle with the degeneracy test done by the caller (once per triangle).
inline glm::vec3 closestPointOnTriangleImpl(const glm::vec3& p, const Triangle& tri,
                                            bool degenerate) {
  const glm::vec3& a = tri.v0;
  const glm::vec3& b = tri.v1;
  const glm::vec3& c = tri.v2;
  if (degenerate) {
    // A segment or a point: the nearest of the three edges' nearest points.
    const glm::vec3 p0 = detail::closestPointOnSegment(p, a, b);
    const glm::vec3 p1 = detail::closestPointOnSegment(p, b, c);
    const glm::vec3 p2 = detail::closestPointOnSegment(p, c, a);
    const float d0 = detail::lengthSq(p - p0), d1 = detail::lengthSq(p - p1),
                d2 = detail::lengthSq(p - p2);
    if (d0 <= d1 && d0 <= d2) return p0;
    return d1 <= d2 ? p1 : p2;
  }
  // Ericson §5.1.5: Voronoi regions of vertices, edges, then the face.
  const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = dot3(ab, ap), d2 = dot3(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) return a;
  const glm::vec3 bp = p - b;
  const float d3 = dot3(ab, bp), d4 = dot3(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) return b;
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
    const float den = d1 - d3;
    return den > 0.0f ? a + ab * (d1 / den) : a;
  }
  const glm::vec3 cp = p - c;
  const float d5 = dot3(ab, cp), d6 = dot3(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) return c;
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
    const float den = d2 - d6;
    return den > 0.0f ? a + ac * (d2 / den) : a;
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
    const float den = (d4 - d3) + (d5 - d6);
    return den > 0.0f ? b + (c - b) * ((d4 - d3) / den) : b;
  }
  // Face region: project onto the plane. On an axis-aligned plane (floors, walls of most levels)
  // the projection only replaces one coordinate, done exactly here: the general formula rounds
  // p - n * (n.ap / n.n) a float step past the plane, so a sphere resting exactly on a floor
  // (centre at height r) would read as a hair apart instead of touching.
  if (a.y == b.y && a.y == c.y) return glm::vec3(p.x, a.y, p.z);
  if (a.x == b.x && a.x == c.x) return glm::vec3(a.x, p.y, p.z);
  if (a.z == b.z && a.z == c.z) return glm::vec3(p.x, p.y, a.z);
  const glm::vec3 n = detail::cross3(ab, ac);
  const float nn = dot3(n, n);
  if (!(nn > 0.0f)) return a;  // unreachable for a non-degenerate triangle
  return p - n * (dot3(n, ap) / nn);
}
}  // namespace detail

inline glm::vec3 closestPointOnTriangle(const glm::vec3& p, const Triangle& tri) {
  return detail::closestPointOnTriangleImpl(p, tri, isDegenerateTriangle(tri));
}

inline float closestPointsSegmentSegment(const glm::vec3& p1, const glm::vec3& q1,
                                         const glm::vec3& p2, const glm::vec3& q2, float& outS,
                                         float& outT, glm::vec3& outOnFirst,
                                         glm::vec3& outOnSecond) {
  // Ericson §5.1.9, with every division guarded.
  using detail::dot3;
  const glm::vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
  const float a = dot3(d1, d1), e = dot3(d2, d2), f = dot3(d2, r);
  float s = 0.0f, t = 0.0f;
  if (!(a > 0.0f) && !(e > 0.0f)) {
    s = t = 0.0f;
  } else if (!(a > 0.0f)) {
    s = 0.0f;
    t = std::clamp(f / e, 0.0f, 1.0f);
  } else {
    const float c = dot3(d1, r);
    if (!(e > 0.0f)) {
      t = 0.0f;
      s = std::clamp(-c / a, 0.0f, 1.0f);
    } else {
      const float b = dot3(d1, d2);
      const float denom = a * e - b * b;
      s = denom > 0.0f ? std::clamp((b * f - c * e) / denom, 0.0f, 1.0f) : 0.0f;
      t = (b * s + f) / e;
      if (t < 0.0f) {
        t = 0.0f;
        s = std::clamp(-c / a, 0.0f, 1.0f);
      } else if (t > 1.0f) {
        t = 1.0f;
        s = std::clamp((b - c) / a, 0.0f, 1.0f);
      }
    }
  }
  outS = s;
  outT = t;
  outOnFirst = p1 + d1 * s;
  outOnSecond = p2 + d2 * t;
  return detail::lengthSq(outOnFirst - outOnSecond);
}

namespace detail {
// The part of the segment-triangle distance that does not involve the segment's endpoints:
// 0 when the segment crosses the face (outPoint = the crossing), else the smallest squared
// distance between the segment and the triangle's edges.
inline float segmentTriangleInterior(const glm::vec3& p, const glm::vec3& q, const Triangle& tri,
                                     bool degenerate, glm::vec3& outOnSegment,
                                     glm::vec3& outOnTriangle) {
  const glm::vec3& a = tri.v0;
  const glm::vec3& b = tri.v1;
  const glm::vec3& c = tri.v2;
  if (!degenerate) {
    // Does the segment cross or touch the face? Plane straddle, then the three signed volumes
    // of the line against the edges (all of one sign or zero: the line meets the closed
    // triangle). A segment lying in the plane is left to the edge/endpoint tests.
    const glm::vec3 n = cross3(b - a, c - a);
    const float dp = dot3(n, p - a), dq = dot3(n, q - a);
    if (((dp <= 0.0f && dq >= 0.0f) || (dp >= 0.0f && dq <= 0.0f)) && !(dp == 0.0f && dq == 0.0f)) {
      const glm::vec3 pq = q - p;
      const float u = dot3(pq, cross3(c - p, b - p));
      const float v = dot3(pq, cross3(a - p, c - p));
      const float w = dot3(pq, cross3(b - p, a - p));
      if ((u >= 0.0f && v >= 0.0f && w >= 0.0f) || (u <= 0.0f && v <= 0.0f && w <= 0.0f)) {
        const glm::vec3 x = p + pq * (dp / (dp - dq));
        outOnSegment = x;
        outOnTriangle = x;
        return 0.0f;
      }
    }
  }
  float best = std::numeric_limits<float>::infinity();
  const glm::vec3* verts[3] = {&a, &b, &c};
  for (int i = 0; i < 3; ++i) {
    float s, t;
    glm::vec3 c1, c2;
    const float d = closestPointsSegmentSegment(p, q, *verts[i], *verts[(i + 1) % 3], s, t, c1, c2);
    if (d < best) {
      best = d;
      outOnSegment = c1;
      outOnTriangle = c2;
    }
  }
  return best;
}
}  // namespace detail

inline float closestPointsSegmentTriangle(const glm::vec3& p, const glm::vec3& q,
                                          const Triangle& tri, glm::vec3& outOnSegment,
                                          glm::vec3& outOnTriangle) {
  const bool degenerate = isDegenerateTriangle(tri);
  glm::vec3 segPt, triPt;
  const float inner = detail::segmentTriangleInterior(p, q, tri, degenerate, segPt, triPt);
  if (inner == 0.0f) {
    outOnSegment = segPt;
    outOnTriangle = triPt;
    return 0.0f;
  }
  // Endpoints first (so ties keep an endpoint), then the edges.
  glm::vec3 bestSeg = p;
  glm::vec3 bestTri = detail::closestPointOnTriangleImpl(p, tri, degenerate);
  float best = detail::lengthSq(bestSeg - bestTri);
  const glm::vec3 cq = detail::closestPointOnTriangleImpl(q, tri, degenerate);
  const float dq = detail::lengthSq(q - cq);
  if (dq < best) {
    best = dq;
    bestSeg = q;
    bestTri = cq;
  }
  if (inner < best) {
    best = inner;
    bestSeg = segPt;
    bestTri = triPt;
  }
  outOnSegment = bestSeg;
  outOnTriangle = bestTri;
  return best;
}

OFPS_FORCE_INLINE bool rayTriangle(const glm::vec3& origin, const glm::vec3& dir, float tMax,
                                   const Triangle& tri, float& outT) {
  // Möller-Trumbore, two-sided, closed (u, v >= 0, u + v <= 1 are hits), no division until the
  // barycentric tests pass.
  using detail::cross3;
  using detail::dot3;
  const glm::vec3 e1 = tri.v1 - tri.v0;
  const glm::vec3 e2 = tri.v2 - tri.v0;
  const glm::vec3 pvec = cross3(dir, e2);
  const float sdet = dot3(e1, pvec);
  const glm::vec3 tvec = origin - tri.v0;
  const glm::vec3 qvec = cross3(tvec, e1);
  // Two-sided: negate det, u, v and t when det < 0, by flipping sign bits (exactly a negation,
  // without the 50/50 branch on the triangle's facing).
  const uint32_t sign = ofps::bitCast<uint32_t>(sdet) & 0x80000000u;
  const auto flip = [sign](float x) {
    return ofps::bitCast<float>(ofps::bitCast<uint32_t>(x) ^ sign);
  };
  const float det = flip(sdet);
  const float u = flip(dot3(tvec, pvec));
  const float v = flip(dot3(dir, qvec));
  const float tt = flip(dot3(e2, qvec));
  // One branch for all the rejections (most triangles a traversal tests are missed, so it is well
  // predicted; a chain of || branches mispredicts on each 50/50 condition). The last condition
  // is a cheap reject on t before the division.
  const bool reject = (det == 0.0f) | (u < 0.0f) | (v < 0.0f) | (u + v > det) | (tt < 0.0f) |
                      (tt > tMax * det * 1.0000005f);
  if (reject) return false;
  const float t = tt / det;
  if (!(t <= tMax)) return false;
  outT = t;
  return true;
}

inline glm::vec3 triangleNormalFacing(const Triangle& tri, const glm::vec3& toward) {
  glm::vec3 n = detail::cross3(tri.v1 - tri.v0, tri.v2 - tri.v0);
  const float len2 = detail::lengthSq(n);
  if (!(len2 > 0.0f)) return glm::vec3(0.0f);
  n *= 1.0f / std::sqrt(len2);
  if (detail::dot3(n, toward - tri.v0) < 0.0f) n = -n;
  return n;
}

OFPS_FORCE_INLINE bool sphereOverlapsTriangle(const glm::vec3& center, float radius,
                                              const Triangle& tri, bool degenerate) {
  const glm::vec3 cp = detail::closestPointOnTriangleImpl(center, tri, degenerate);
  return detail::lengthSq(center - cp) <= radius * radius;
}

OFPS_FORCE_INLINE bool sphereOverlapsTriangle(const glm::vec3& center, float radius,
                                              const Triangle& tri) {
  return sphereOverlapsTriangle(center, radius, tri, isDegenerateTriangle(tri));
}

OFPS_FORCE_INLINE bool capsuleOverlapsTriangle(const glm::vec3& a, const glm::vec3& b, float radius,
                                               const Triangle& tri, bool degenerate) {
  // The same quantities as closestPointsSegmentTriangle, with early accepts. (No plane-distance
  // reject: on slivers the float normal is too inaccurate to decide by it; the octree's loops
  // reject by bounding boxes first.)
  const float r2 = radius * radius;
  if (detail::lengthSq(a - detail::closestPointOnTriangleImpl(a, tri, degenerate)) <= r2)
    return true;
  if (detail::lengthSq(b - detail::closestPointOnTriangleImpl(b, tri, degenerate)) <= r2)
    return true;
  glm::vec3 s, t;
  return detail::segmentTriangleInterior(a, b, tri, degenerate, s, t) <= r2;
}

OFPS_FORCE_INLINE bool capsuleOverlapsTriangle(const glm::vec3& a, const glm::vec3& b, float radius,
                                               const Triangle& tri) {
  return capsuleOverlapsTriangle(a, b, radius, tri, isDegenerateTriangle(tri));
}

namespace detail {
// Projection interval of the triangle (relative to origin o) and the box on axis `ax`; true when
// separated (strictly: touching is not separated).
inline bool separatedOnAxis(const glm::vec3& ax, const glm::vec3& t0, const glm::vec3& t1,
                            const glm::vec3& t2, const glm::vec3& bmin, const glm::vec3& bmax) {
  const float p0 = dot3(ax, t0), p1 = dot3(ax, t1), p2 = dot3(ax, t2);
  const float tmin = std::min(p0, std::min(p1, p2));
  const float tmax = std::max(p0, std::max(p1, p2));
  // Box corner extremes on the axis (p-vertex / n-vertex), from the exact min/max coordinates.
  const float bx0 = ax.x * (ax.x >= 0.0f ? bmin.x : bmax.x),
              bx1 = ax.x * (ax.x >= 0.0f ? bmax.x : bmin.x);
  const float by0 = ax.y * (ax.y >= 0.0f ? bmin.y : bmax.y),
              by1 = ax.y * (ax.y >= 0.0f ? bmax.y : bmin.y);
  const float bz0 = ax.z * (ax.z >= 0.0f ? bmin.z : bmax.z),
              bz1 = ax.z * (ax.z >= 0.0f ? bmax.z : bmin.z);
  const float boxMin = bx0 + by0 + bz0, boxMax = bx1 + by1 + bz1;
  return tmin > boxMax || tmax < boxMin;
}
}  // namespace detail

inline bool boxOverlapsTriangle(const Aabb& box, const Triangle& tri) {
  // Box face axes first (exact comparisons of coordinates).
  // (Aabb::overlaps written with bitwise ands: one well-predicted branch, most triangles fail.)
  const Aabb tb = tri.bounds();
  const bool boxesMeet = (box.min.x <= tb.max.x) & (box.min.y <= tb.max.y) &
                         (box.min.z <= tb.max.z) & (tb.min.x <= box.max.x) &
                         (tb.min.y <= box.max.y) & (tb.min.z <= box.max.z);
  if (!boxesMeet) return false;
  // The remaining 10 axes, computed relative to v0 so that touching cases stay exact.
  const glm::vec3 o = tri.v0;
  const glm::vec3 t0(0.0f), t1 = tri.v1 - o, t2 = tri.v2 - o;
  const glm::vec3 bmin = box.min - o, bmax = box.max - o;
  const glm::vec3 f0 = t1, f1 = t2 - t1, f2 = -t2;
  const glm::vec3 n = detail::cross3(f0, t2);
  if (detail::separatedOnAxis(n, t0, t1, t2, bmin, bmax)) return false;
  const glm::vec3 edges[3] = {f0, f1, f2};
  for (const glm::vec3& e : edges) {
    if (detail::separatedOnAxis(glm::vec3(0.0f, -e.z, e.y), t0, t1, t2, bmin, bmax)) return false;
    if (detail::separatedOnAxis(glm::vec3(e.z, 0.0f, -e.x), t0, t1, t2, bmin, bmax)) return false;
    if (detail::separatedOnAxis(glm::vec3(-e.y, e.x, 0.0f), t0, t1, t2, bmin, bmax)) return false;
  }
  return true;
}

}  // namespace ofps
