#include "spatial/oracle_harness.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "support/random_soup.h"

namespace ofps::test {

const char* kindName(uint32_t k) {
  static const char* names[] = {"ray",         "rayAny",       "sphere",      "capsule",
                                "box",         "spherePush",   "capsulePush", "boxPush",
                                "sweepSphere", "sweepCapsule", "closest"};
  return k < kKindCount ? names[k] : "?";
}

uint32_t OracleTally::total() const {
  uint32_t s = 0;
  for (uint32_t q : queries) s += q;
  return s;
}
uint32_t OracleTally::totalDisagreements() const {
  uint32_t s = 0;
  for (uint32_t q : disagreements) s += q;
  return s;
}
std::string OracleTally::summary() const {
  std::ostringstream ss;
  for (uint32_t k = 0; k < kKindCount; ++k) {
    if (queries[k] == 0) continue;
    ss << kindName(k) << ": " << queries[k] << " queries, " << hits[k] << " hits, "
       << disagreements[k] << " disagreements\n";
  }
  ss << "triangles tested: octree " << octreeTrianglesTested << ", brute force "
     << bruteTrianglesTested << "\n";
  for (const std::string& f : firstFailures) ss << "  " << f << "\n";
  return ss.str();
}

namespace {

std::string vec(const glm::vec3& v) {
  std::ostringstream ss;
  ss.precision(9);
  ss << "(" << v.x << ", " << v.y << ", " << v.z << ")";
  return ss.str();
}

bool pushEqual(bool a, const PushOut& pa, bool b, const PushOut& pb, float scale) {
  if (a != b || pa.iterations != pb.iterations || pa.resolved != pb.resolved) return false;
  if (std::fabs(pa.depth - pb.depth) > 1e-5f * scale) return false;
  if (pa.depth > 0.0f) {
    const float d =
        pa.normal.x * pb.normal.x + pa.normal.y * pb.normal.y + pa.normal.z * pb.normal.z;
    if (d < 0.9999f) return false;
  }
  return true;
}

}  // namespace

void runOracle(const std::vector<Triangle>& tris, const Octree& octree, const BruteForce& brute,
               float size, uint32_t perKind, uint32_t seed, OracleTally& tally, uint32_t mask) {
  const Aabb bounds = boundsOf(tris);
  QueryPlacer place(tris, bounds, seed);
  const glm::vec3 ext = bounds.size();
  const float diag = std::sqrt(ext.x * ext.x + ext.y * ext.y + ext.z * ext.z);
  std::vector<uint32_t> got, want;
  std::vector<uint32_t> buffer(4096);
  QueryStats so, sb;
  auto fail = [&](uint32_t kind, const std::string& what) {
    ++tally.disagreements[kind];
    if (tally.firstFailures.size() < 10)
      tally.firstFailures.push_back(std::string(kindName(kind)) + " " + what);
  };
  for (uint32_t i = 0; i < perKind; ++i) {
    // Ray and any-hit.
    {
      const glm::vec3 o = place.nearSurface(4.0f * size);
      const glm::vec3 d = place.unitVector();
      const float tMax = place.uniform(0.0f, 0.5f * diag);
      RayHit ho, hb;
      const bool a = octree.raycast(o, d, tMax, mask, ho, &so);
      const bool b = brute.raycast(o, d, tMax, mask, hb, &sb);
      ++tally.queries[kRay];
      tally.hits[kRay] += b;
      if (a != b || (a && (ho.t != hb.t || ho.triangle != hb.triangle))) {
        fail(kRay, "o=" + vec(o) + " d=" + vec(d) + " tMax=" + std::to_string(tMax) + " octree " +
                       std::to_string(a) + " t=" + std::to_string(ho.t) +
                       " tri=" + std::to_string(ho.triangle) + " brute " + std::to_string(b) +
                       " t=" + std::to_string(hb.t) + " tri=" + std::to_string(hb.triangle));
      }
      const bool any = octree.rayAny(o, d, tMax, mask, &so);
      ++tally.queries[kRayAny];
      tally.hits[kRayAny] += b;
      if (any != b) fail(kRayAny, "o=" + vec(o) + " d=" + vec(d));
    }
    // Overlaps.
    auto compareSets = [&](uint32_t kind, uint32_t n, const std::string& what) {
      std::vector<uint32_t> g(buffer.begin(), buffer.begin() + std::min<size_t>(n, buffer.size()));
      std::sort(g.begin(), g.end());
      ++tally.queries[kind];
      tally.hits[kind] += !want.empty();
      if (n != want.size() || g != want) {
        fail(kind, what + " octree " + std::to_string(n) + " brute " + std::to_string(want.size()));
      }
    };
    {
      const glm::vec3 c = place.nearSurface(2.0f * size);
      const float r = size * place.uniform(0.25f, 1.5f);
      brute.overlapSphere(c, r, mask, want, &sb);
      compareSets(kSphere, octree.collectSphere(c, r, mask, buffer, &so),
                  "c=" + vec(c) + " r=" + std::to_string(r));
      PushOut po, pb;
      const bool a = octree.sphereIntersect(c, r, mask, po, &so);
      const bool b = brute.sphereIntersect(c, r, mask, pb, &sb);
      ++tally.queries[kSpherePush];
      tally.hits[kSpherePush] += b;
      if (!pushEqual(a, po, b, pb, r + std::fabs(c.x) + std::fabs(c.y) + std::fabs(c.z))) {
        fail(kSpherePush, "c=" + vec(c) + " r=" + std::to_string(r) + " octree depth " +
                              std::to_string(po.depth) + " brute depth " +
                              std::to_string(pb.depth));
      }
    }
    {
      const glm::vec3 a0 = place.nearSurface(2.0f * size);
      const glm::vec3 b0 = a0 + place.unitVector() * (size * place.uniform(0.0f, 4.0f));
      const float r = size * place.uniform(0.25f, 1.5f);
      brute.overlapCapsule(a0, b0, r, mask, want, &sb);
      compareSets(kCapsule, octree.collectCapsule(a0, b0, r, mask, buffer, &so),
                  "a=" + vec(a0) + " b=" + vec(b0));
      PushOut po, pb;
      const bool x = octree.capsuleIntersect(a0, b0, r, mask, po, &so);
      const bool y = brute.capsuleIntersect(a0, b0, r, mask, pb, &sb);
      ++tally.queries[kCapsulePush];
      tally.hits[kCapsulePush] += y;
      if (!pushEqual(x, po, y, pb,
                     4.0f * size + std::fabs(a0.x) + std::fabs(a0.y) + std::fabs(a0.z))) {
        fail(kCapsulePush, "a=" + vec(a0) + " b=" + vec(b0) + " octree depth " +
                               std::to_string(po.depth) + " brute depth " +
                               std::to_string(pb.depth));
      }
    }
    {
      const glm::vec3 c = place.nearSurface(2.0f * size);
      const glm::vec3 h(size * place.uniform(0.2f, 1.5f), size * place.uniform(0.2f, 1.5f),
                        size * place.uniform(0.2f, 1.5f));
      const Aabb box = Aabb::fromCenterHalfExtents(c, h);
      brute.overlapBox(box, mask, want, &sb);
      compareSets(kBox, octree.collectBox(box, mask, buffer, &so),
                  "box " + vec(box.min) + vec(box.max));
      PushOut po, pb;
      const bool x = octree.boxIntersect(box, mask, po, &so);
      const bool y = brute.boxIntersect(box, mask, pb, &sb);
      ++tally.queries[kBoxPush];
      tally.hits[kBoxPush] += y;
      if (!pushEqual(x, po, y, pb,
                     2.0f * size + std::fabs(c.x) + std::fabs(c.y) + std::fabs(c.z))) {
        fail(kBoxPush, "box " + vec(box.min) + vec(box.max));
      }
    }
    // Sweeps.
    {
      const glm::vec3 c = place.nearSurface(3.0f * size);
      const glm::vec3 d = place.unitVector() * (size * place.uniform(0.0f, 12.0f));
      const float r = size * place.uniform(0.25f, 1.0f);
      SweepHit ho, hb;
      const bool a = octree.sweepSphere(c, r, d, mask, ho, &so);
      const bool b = brute.sweepSphere(c, r, d, mask, hb, &sb);
      ++tally.queries[kSweepSphere];
      tally.hits[kSweepSphere] += b;
      if (a != b || (a && (ho.toi != hb.toi || ho.triangle != hb.triangle))) {
        fail(kSweepSphere, "c=" + vec(c) + " d=" + vec(d) + " r=" + std::to_string(r) + " toi " +
                               std::to_string(ho.toi) + "/" + std::to_string(hb.toi) + " tri " +
                               std::to_string(ho.triangle) + "/" + std::to_string(hb.triangle));
      }
    }
    {
      const glm::vec3 a0 = place.nearSurface(3.0f * size);
      const glm::vec3 b0 = a0 + place.unitVector() * (size * place.uniform(0.0f, 3.0f));
      const glm::vec3 d = place.unitVector() * (size * place.uniform(0.0f, 12.0f));
      const float r = size * place.uniform(0.25f, 1.0f);
      SweepHit ho, hb;
      const bool a = octree.sweepCapsule(a0, b0, r, d, mask, ho, &so);
      const bool b = brute.sweepCapsule(a0, b0, r, d, mask, hb, &sb);
      ++tally.queries[kSweepCapsule];
      tally.hits[kSweepCapsule] += b;
      if (a != b || (a && (ho.toi != hb.toi || ho.triangle != hb.triangle))) {
        fail(kSweepCapsule, "a=" + vec(a0) + " b=" + vec(b0) + " d=" + vec(d) + " toi " +
                                std::to_string(ho.toi) + "/" + std::to_string(hb.toi));
      }
    }
    // Closest point.
    {
      const glm::vec3 p = place.nearSurface(4.0f * size);
      const float maxD = 3.0f * size;
      PointHit ho, hb;
      const bool a = octree.closestPoint(p, maxD, mask, ho, &so);
      const bool b = brute.closestPoint(p, maxD, mask, hb, &sb);
      ++tally.queries[kClosest];
      tally.hits[kClosest] += b;
      if (a != b || (a && (ho.distance != hb.distance || ho.triangle != hb.triangle))) {
        fail(kClosest, "p=" + vec(p) + " dist " + std::to_string(ho.distance) + "/" +
                           std::to_string(hb.distance));
      }
    }
  }
  tally.octreeTrianglesTested += so.trianglesTested;
  tally.bruteTrianglesTested += sb.trianglesTested;
}

}  // namespace ofps::test
