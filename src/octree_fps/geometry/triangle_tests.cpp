// Contacts and sweeps of one shape against one triangle (contracts in triangle_tests.h).
#include "octree_fps/geometry/triangle_tests.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace ofps {
namespace {

using detail::cross3;
using detail::dot3;
using detail::lengthSq;

glm::vec3 normalizeOr(const glm::vec3& v, const glm::vec3& fallback) {
  const float l2 = lengthSq(v);
  return l2 > 0.0f ? v * (1.0f / std::sqrt(l2)) : fallback;
}

// Some unit vector perpendicular to v (deterministic); +Y when v is zero.
glm::vec3 anyPerpendicular(const glm::vec3& v) {
  const glm::vec3 av = glm::abs(v);
  glm::vec3 axis(1.0f, 0.0f, 0.0f);
  if (av.y <= av.x && av.y <= av.z)
    axis = glm::vec3(0.0f, 1.0f, 0.0f);
  else if (av.z <= av.x && av.z <= av.y)
    axis = glm::vec3(0.0f, 0.0f, 1.0f);
  return normalizeOr(cross3(v, axis), glm::vec3(0.0f, 1.0f, 0.0f));
}

// Winding normal of the triangle, unit; for a degenerate triangle a vector perpendicular to its
// longest edge.
glm::vec3 windingNormal(const Triangle& tri) {
  const glm::vec3 n = cross3(tri.v1 - tri.v0, tri.v2 - tri.v0);
  if (!isDegenerateTriangle(tri)) return normalizeOr(n, glm::vec3(0.0f, 1.0f, 0.0f));
  const glm::vec3 e0 = tri.v1 - tri.v0, e1 = tri.v2 - tri.v1, e2 = tri.v0 - tri.v2;
  glm::vec3 e = e0;
  if (lengthSq(e1) > lengthSq(e)) e = e1;
  if (lengthSq(e2) > lengthSq(e)) e = e2;
  return anyPerpendicular(e);
}

// Closed point-in-triangle test for a point known to lie (nearly) in the plane; n is the
// unnormalised winding normal.
bool insideTriangle(const glm::vec3& p, const Triangle& tri, const glm::vec3& n) {
  return dot3(cross3(tri.v1 - tri.v0, p - tri.v0), n) >= 0.0f &&
         dot3(cross3(tri.v2 - tri.v1, p - tri.v1), n) >= 0.0f &&
         dot3(cross3(tri.v0 - tri.v2, p - tri.v2), n) >= 0.0f;
}

// Earliest t >= 0 at which the point m + t * d enters the sphere of radius r around the origin,
// for a point starting outside (|m| > r). Returns false when it never does.
bool rayEntersSphere(const glm::vec3& m, const glm::vec3& d, float r, float& outT) {
  const float a = dot3(d, d);
  const float b = dot3(m, d);
  const float c = dot3(m, m) - r * r;
  if (!(a > 0.0f) || b >= 0.0f || c < 0.0f) return false;
  const float disc = b * b - a * c;
  if (disc < 0.0f) return false;
  outT = c / (-b + std::sqrt(disc));  // stable form of (-b - sqrt(disc)) / a
  return true;
}

// Earliest t >= 0 at which m + t * d enters the infinite cylinder of radius r around the line
// through the origin with direction e, for a point starting outside it. Writes the axial
// parameter s (the contact's position along e, in multiples of e).
bool rayEntersCylinder(const glm::vec3& m, const glm::vec3& d, const glm::vec3& e, float r,
                       float& outT, float& outS) {
  const float ee = dot3(e, e);
  if (!(ee > 0.0f)) return false;
  // Components perpendicular to the unit axis (kept in level units so nothing overflows:
  // every product below is a squared length squared).
  const float len = std::sqrt(ee);
  const glm::vec3 u = e * (1.0f / len);
  const glm::vec3 mp = m - u * dot3(m, u);
  const glm::vec3 dp = d - u * dot3(d, u);
  const float a = dot3(dp, dp);
  const float b = dot3(mp, dp);
  const float c = dot3(mp, mp) - r * r;
  if (!(a > 0.0f) || b >= 0.0f || c < 0.0f) return false;
  const float disc = b * b - a * c;
  if (disc < 0.0f) return false;
  const float t = c / (-b + std::sqrt(disc));
  outT = t;
  outS = dot3(m + d * t, u) / len;
  return true;
}

// Fills the contact at time toi for a sphere (radius r, centre c at toi) or, via the segment
// form, a capsule.
void finishSphereContact(const glm::vec3& c, const glm::vec3& start, const Triangle& tri,
                         SweepContact& out) {
  const glm::vec3 cp = closestPointOnTriangle(c, tri);
  out.point = cp;
  glm::vec3 fallback = triangleNormalFacing(tri, start);
  if (lengthSq(fallback) == 0.0f) fallback = windingNormal(tri);
  out.normal = normalizeOr(c - cp, fallback);
}

}  // namespace

bool sphereTriangleContact(const glm::vec3& center, float radius, const Triangle& tri,
                           TriangleContact& outContact) {
  const glm::vec3 cp = closestPointOnTriangle(center, tri);
  const glm::vec3 d = center - cp;
  const float d2 = lengthSq(d);
  if (d2 > radius * radius) return false;
  if (d2 > 0.0f) {
    const float dist = std::sqrt(d2);
    outContact.normal = d * (1.0f / dist);
    outContact.depth = std::max(0.0f, radius - dist);
  } else {
    outContact.normal = windingNormal(tri);
    outContact.depth = radius;
  }
  return true;
}

bool capsuleTriangleContact(const glm::vec3& a, const glm::vec3& b, float radius,
                            const Triangle& tri, TriangleContact& outContact) {
  glm::vec3 onSeg, onTri;
  const float d2 = closestPointsSegmentTriangle(a, b, tri, onSeg, onTri);
  if (d2 > radius * radius) return false;
  if (d2 > 0.0f) {
    const float dist = std::sqrt(d2);
    outContact.normal = (onSeg - onTri) * (1.0f / dist);
    outContact.depth = std::max(0.0f, radius - dist);
    return true;
  }
  const glm::vec3 mid = (a + b) * 0.5f;
  if (!isDegenerateTriangle(tri)) {
    glm::vec3 n = windingNormal(tri);
    if (dot3(n, mid - tri.v0) < 0.0f) n = -n;
    const float lowest = std::min(dot3(n, a - tri.v0), dot3(n, b - tri.v0));
    outContact.normal = n;
    outContact.depth = std::max(0.0f, radius - lowest);
    return true;
  }
  // Degenerate triangle crossed by the segment: push perpendicular to both segments.
  const glm::vec3 e0 = tri.v1 - tri.v0, e1 = tri.v2 - tri.v1, e2 = tri.v0 - tri.v2;
  glm::vec3 e = e0;
  if (lengthSq(e1) > lengthSq(e)) e = e1;
  if (lengthSq(e2) > lengthSq(e)) e = e2;
  glm::vec3 n = normalizeOr(cross3(b - a, e), glm::vec3(0.0f));
  if (lengthSq(n) == 0.0f) n = anyPerpendicular(lengthSq(b - a) > 0.0f ? b - a : e);
  if (dot3(n, mid - onTri) < 0.0f) n = -n;
  outContact.normal = n;
  outContact.depth = radius;
  return true;
}

bool boxTriangleContact(const Aabb& box, const Triangle& tri, TriangleContact& outContact) {
  if (!boxOverlapsTriangle(box, tri)) return false;
  const glm::vec3 o = tri.v0;
  const glm::vec3 t[3] = {glm::vec3(0.0f), tri.v1 - o, tri.v2 - o};
  const glm::vec3 bmin = box.min - o, bmax = box.max - o;
  const glm::vec3 edges[3] = {t[1], t[2] - t[1], -t[2]};
  glm::vec3 axes[13];
  int count = 0;
  axes[count++] = glm::vec3(1.0f, 0.0f, 0.0f);
  axes[count++] = glm::vec3(0.0f, 1.0f, 0.0f);
  axes[count++] = glm::vec3(0.0f, 0.0f, 1.0f);
  axes[count++] = cross3(edges[0], t[2]);
  for (const glm::vec3& e : edges) {
    axes[count++] = glm::vec3(0.0f, -e.z, e.y);
    axes[count++] = glm::vec3(e.z, 0.0f, -e.x);
    axes[count++] = glm::vec3(-e.y, e.x, 0.0f);
  }
  float bestDepth = std::numeric_limits<float>::infinity();
  glm::vec3 bestNormal(0.0f, 1.0f, 0.0f);
  for (int i = 0; i < count; ++i) {
    const float l2 = lengthSq(axes[i]);
    if (!(l2 > 0.0f)) continue;
    const glm::vec3 ax = axes[i] * (1.0f / std::sqrt(l2));
    const float p0 = dot3(ax, t[0]), p1 = dot3(ax, t[1]), p2 = dot3(ax, t[2]);
    const float tmin = std::min(p0, std::min(p1, p2)), tmax = std::max(p0, std::max(p1, p2));
    const glm::vec3 lo(ax.x >= 0.0f ? bmin.x : bmax.x, ax.y >= 0.0f ? bmin.y : bmax.y,
                       ax.z >= 0.0f ? bmin.z : bmax.z);
    const glm::vec3 hi(ax.x >= 0.0f ? bmax.x : bmin.x, ax.y >= 0.0f ? bmax.y : bmin.y,
                       ax.z >= 0.0f ? bmax.z : bmin.z);
    const float boxMin = dot3(ax, lo), boxMax = dot3(ax, hi);
    const float pushPos = std::max(0.0f, tmax - boxMin);  // move the box along +ax
    const float pushNeg = std::max(0.0f, boxMax - tmin);  // move the box along -ax
    if (pushPos < bestDepth) {
      bestDepth = pushPos;
      bestNormal = ax;
    }
    if (pushNeg < bestDepth) {
      bestDepth = pushNeg;
      bestNormal = -ax;
    }
  }
  outContact.normal = bestNormal;
  outContact.depth = bestDepth;
  return true;
}

bool sweepSphereTriangle(const glm::vec3& center, float radius, const glm::vec3& displacement,
                         const Triangle& tri, SweepContact& outContact) {
  // Cheap reject: the swept sphere's box against the triangle's box.
  {
    Aabb swept{glm::min(center, center + displacement) - glm::vec3(radius),
               glm::max(center, center + displacement) + glm::vec3(radius)};
    if (!swept.overlaps(tri.bounds())) return false;
  }
  TriangleContact start;
  if (sphereTriangleContact(center, radius, tri, start)) {
    outContact.toi = 0.0f;
    outContact.point = closestPointOnTriangle(center, tri);
    outContact.normal = start.normal;
    outContact.startsOverlapping = true;
    return true;
  }
  float best = std::numeric_limits<float>::infinity();
  const glm::vec3& d = displacement;
  // Face: the sphere's leading point meets the plane inside the triangle.
  if (!isDegenerateTriangle(tri)) {
    const glm::vec3 nRaw = cross3(tri.v1 - tri.v0, tri.v2 - tri.v0);
    const glm::vec3 n = nRaw * (1.0f / std::sqrt(lengthSq(nRaw)));
    const float s0 = dot3(n, center - tri.v0);
    const float sigma = s0 >= 0.0f ? 1.0f : -1.0f;
    const float approach = sigma * dot3(n, d);
    if (std::fabs(s0) > radius && approach < 0.0f) {
      const float t = (std::fabs(s0) - radius) / -approach;
      if (t <= 1.0f) {
        const glm::vec3 p = center + d * t - n * (sigma * radius);
        if (insideTriangle(p, tri, nRaw)) best = t;
      }
    }
  }
  // Edges: the centre enters the cylinder of radius r around an edge, within the edge.
  const glm::vec3* v[3] = {&tri.v0, &tri.v1, &tri.v2};
  for (int i = 0; i < 3; ++i) {
    const glm::vec3& p0 = *v[i];
    const glm::vec3& p1 = *v[(i + 1) % 3];
    float t, s;
    if (rayEntersCylinder(center - p0, d, p1 - p0, radius, t, s) && t <= 1.0f && t < best &&
        s >= 0.0f && s <= 1.0f) {
      best = t;
    }
  }
  // Vertices: the centre enters the sphere of radius r around a vertex.
  for (int i = 0; i < 3; ++i) {
    float t;
    if (rayEntersSphere(center - *v[i], d, radius, t) && t <= 1.0f && t < best) best = t;
  }
  if (!(best <= 1.0f)) return false;
  outContact.toi = std::max(0.0f, best);
  outContact.startsOverlapping = false;
  finishSphereContact(center + d * outContact.toi, center, tri, outContact);
  return true;
}

bool sweepCapsuleTriangle(const glm::vec3& a, const glm::vec3& b, float radius,
                          const glm::vec3& displacement, const Triangle& tri,
                          SweepContact& outContact) {
  {
    Aabb swept{glm::min(glm::min(a, b), glm::min(a, b) + displacement) - glm::vec3(radius),
               glm::max(glm::max(a, b), glm::max(a, b) + displacement) + glm::vec3(radius)};
    if (!swept.overlaps(tri.bounds())) return false;
  }
  TriangleContact start;
  if (capsuleTriangleContact(a, b, radius, tri, start)) {
    glm::vec3 onSeg, onTri;
    closestPointsSegmentTriangle(a, b, tri, onSeg, onTri);
    outContact.toi = 0.0f;
    outContact.point = onTri;
    outContact.normal = start.normal;
    outContact.startsOverlapping = true;
    return true;
  }
  const glm::vec3& d = displacement;
  float best = std::numeric_limits<float>::infinity();
  // 1. The end spheres (each handles the triangle's face, edges and vertices).
  SweepContact sc;
  if (sweepSphereTriangle(a, radius, d, tri, sc)) best = std::min(best, sc.toi);
  if (sweepSphereTriangle(b, radius, d, tri, sc)) best = std::min(best, sc.toi);
  const glm::vec3 u = b - a;
  const float uu = lengthSq(u);
  if (uu > 0.0f) {
    const glm::vec3* v[3] = {&tri.v0, &tri.v1, &tri.v2};
    // 2. A triangle vertex against the capsule's side: in the capsule's frame the vertex moves
    //    by -d and enters the cylinder around the segment's line within the segment.
    for (int i = 0; i < 3; ++i) {
      float t, s;
      if (rayEntersCylinder(*v[i] - a, -d, u, radius, t, s) && t <= 1.0f && t < best && s >= 0.0f &&
          s <= 1.0f) {
        best = t;
      }
    }
    // 3. A triangle edge against the segment's interior: along the common perpendicular n the
    //    distance between the two lines changes linearly with t; the contact is where it
    //    reaches r from outside, if the lines' closest points then lie within both segments.
    for (int i = 0; i < 3; ++i) {
      const glm::vec3& p0 = *v[i];
      const glm::vec3 e = *v[(i + 1) % 3] - p0;
      const glm::vec3 w = cross3(u, e);
      const float ww = lengthSq(w);
      if (!(ww > 0.0f)) continue;
      const glm::vec3 n = w * (1.0f / std::sqrt(ww));
      const float s0 = dot3(n, a - p0);
      const float sigma = s0 >= 0.0f ? 1.0f : -1.0f;
      const float approach = sigma * dot3(n, d);
      if (!(std::fabs(s0) > radius) || !(approach < 0.0f)) continue;
      const float t = (std::fabs(s0) - radius) / -approach;
      if (!(t <= 1.0f) || !(t < best)) continue;
      // Closest points of the lines a' + s u and p0 + q e at time t (unclamped).
      const glm::vec3 r0 = (a + d * t) - p0;
      const float ue = dot3(u, e), ee = lengthSq(e);
      const float ur = dot3(u, r0), er = dot3(e, r0);
      const float den = uu * ee - ue * ue;
      if (!(den > 0.0f)) continue;
      const float s = (ue * er - ee * ur) / den;
      const float q = (uu * er - ue * ur) / den;
      if (s < 0.0f || s > 1.0f || q < 0.0f || q > 1.0f) continue;
      best = t;
    }
  }
  if (!(best <= 1.0f)) return false;
  outContact.toi = std::max(0.0f, best);
  outContact.startsOverlapping = false;
  const glm::vec3 a1 = a + d * outContact.toi, b1 = b + d * outContact.toi;
  glm::vec3 onSeg, onTri;
  closestPointsSegmentTriangle(a1, b1, tri, onSeg, onTri);
  outContact.point = onTri;
  glm::vec3 fallback = triangleNormalFacing(tri, (a + b) * 0.5f);
  if (lengthSq(fallback) == 0.0f) fallback = windingNormal(tri);
  outContact.normal = normalizeOr(onSeg - onTri, fallback);
  return true;
}

}  // namespace ofps
