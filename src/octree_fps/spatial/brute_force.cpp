// Brute-force oracle (contracts in brute_force.h): the same primitive tests over every triangle.
#include "octree_fps/spatial/brute_force.h"

#include <algorithm>
#include <cmath>

#include "octree_fps/geometry/triangle_tests.h"
#include "octree_fps/spatial/push_out_rounds_inl.h"

namespace ofps {
namespace {

using Deepest = detail::DeepestContact;

void addStats(QueryStats* io, uint32_t tested) {
  if (io) io->trianglesTested += tested;
}

// One push-out round of the three shapes: every triangle in the mask tested (counted), those in
// contact offered to the deepest-contact choice. contact(i, c) is the shape's exact test.
template <class InMask, class Contact>
void offerEveryContact(uint32_t count, InMask&& inMask, Contact&& contact, Deepest& d,
                       QueryStats* ioStats) {
  uint32_t tested = 0;
  for (uint32_t i = 0; i < count; ++i) {
    if (!inMask(i)) continue;
    ++tested;
    TriangleContact c;
    if (contact(i, c)) d.offer(c, i);
  }
  addStats(ioStats, tested);
}

}  // namespace

BruteForce::BruteForce(std::span<const Triangle> triangles, std::span<const uint32_t> layers)
    : triangles_(triangles.begin(), triangles.end()), layers_(layers.begin(), layers.end()) {}

BruteForce BruteForce::fromIndexed(std::span<const glm::vec3> positions,
                                   std::span<const uint32_t> indices,
                                   std::span<const uint32_t> layers) {
  std::vector<Triangle> tris(indices.size() / 3);
  for (size_t t = 0; t < tris.size(); ++t) {
    tris[t] = {positions[indices[3 * t]], positions[indices[3 * t + 1]],
               positions[indices[3 * t + 2]]};
  }
  return BruteForce(tris, layers);
}

bool BruteForce::raycast(const glm::vec3& origin, const glm::vec3& dir, float tMax,
                         uint32_t layerMask, RayHit& outHit, QueryStats* ioStats) const {
  if (!(tMax >= 0.0f) || (dir.x == 0.0f && dir.y == 0.0f && dir.z == 0.0f)) return false;
  float best = tMax;
  uint32_t bestTri = kOctreeInvalidIndex;
  uint32_t tested = 0;
  for (uint32_t i = 0; i < triangles_.size(); ++i) {
    if (!inMask(i, layerMask)) continue;
    ++tested;
    float t;
    if (rayTriangle(origin, dir, best, triangles_[i], t) &&
        (t < best || bestTri == kOctreeInvalidIndex)) {
      best = t;
      bestTri = i;
    }
  }
  addStats(ioStats, tested);
  if (bestTri == kOctreeInvalidIndex) return false;
  outHit.t = best;
  outHit.triangle = bestTri;
  outHit.point = origin + dir * best;
  outHit.normal = triangleNormalFacing(triangles_[bestTri], origin);
  return true;
}

bool BruteForce::rayAny(const glm::vec3& origin, const glm::vec3& dir, float tMax,
                        uint32_t layerMask, QueryStats* ioStats) const {
  RayHit h;
  return raycast(origin, dir, tMax, layerMask, h, ioStats);
}

uint32_t BruteForce::overlapSphere(const glm::vec3& center, float radius, uint32_t layerMask,
                                   std::vector<uint32_t>& out, QueryStats* ioStats) const {
  out.clear();
  uint32_t tested = 0;
  for (uint32_t i = 0; i < triangles_.size(); ++i) {
    if (!inMask(i, layerMask)) continue;
    ++tested;
    if (sphereOverlapsTriangle(center, radius, triangles_[i])) out.push_back(i);
  }
  addStats(ioStats, tested);
  return static_cast<uint32_t>(out.size());
}

uint32_t BruteForce::overlapCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                                    uint32_t layerMask, std::vector<uint32_t>& out,
                                    QueryStats* ioStats) const {
  out.clear();
  uint32_t tested = 0;
  for (uint32_t i = 0; i < triangles_.size(); ++i) {
    if (!inMask(i, layerMask)) continue;
    ++tested;
    if (capsuleOverlapsTriangle(a, b, radius, triangles_[i])) out.push_back(i);
  }
  addStats(ioStats, tested);
  return static_cast<uint32_t>(out.size());
}

uint32_t BruteForce::overlapBox(const Aabb& box, uint32_t layerMask, std::vector<uint32_t>& out,
                                QueryStats* ioStats) const {
  out.clear();
  uint32_t tested = 0;
  for (uint32_t i = 0; i < triangles_.size(); ++i) {
    if (!inMask(i, layerMask)) continue;
    ++tested;
    if (boxOverlapsTriangle(box, triangles_[i])) out.push_back(i);
  }
  addStats(ioStats, tested);
  return static_cast<uint32_t>(out.size());
}

bool BruteForce::sphereIntersect(const glm::vec3& center, float radius, uint32_t layerMask,
                                 PushOut& outPushOut, QueryStats* ioStats,
                                 uint32_t maxIterations) const {
  const float tol = 1e-6f * (radius + maxAbs(center));
  return detail::resolvePushOut(
      tol, maxIterations, outPushOut, [&](const glm::vec3& off, Deepest& d) {
        offerEveryContact(
            static_cast<uint32_t>(triangles_.size()),
            [&](uint32_t i) { return inMask(i, layerMask); },
            [&](uint32_t i, TriangleContact& c) {
              return sphereTriangleContact(center + off, radius, triangles_[i], c);
            },
            d, ioStats);
      });
}

bool BruteForce::capsuleIntersect(const glm::vec3& a, const glm::vec3& b, float radius,
                                  uint32_t layerMask, PushOut& outPushOut, QueryStats* ioStats,
                                  uint32_t maxIterations) const {
  const float size = radius + 0.5f * maxAbs(b - a);
  const float tol = 1e-6f * (size + maxAbs((a + b) * 0.5f));
  return detail::resolvePushOut(
      tol, maxIterations, outPushOut, [&](const glm::vec3& off, Deepest& d) {
        offerEveryContact(
            static_cast<uint32_t>(triangles_.size()),
            [&](uint32_t i) { return inMask(i, layerMask); },
            [&](uint32_t i, TriangleContact& c) {
              return capsuleTriangleContact(a + off, b + off, radius, triangles_[i], c);
            },
            d, ioStats);
      });
}

bool BruteForce::boxIntersect(const Aabb& box, uint32_t layerMask, PushOut& outPushOut,
                              QueryStats* ioStats, uint32_t maxIterations) const {
  const float tol = 1e-6f * (maxAbs(box.halfExtents()) + maxAbs(box.center()));
  return detail::resolvePushOut(
      tol, maxIterations, outPushOut, [&](const glm::vec3& off, Deepest& d) {
        const Aabb b{box.min + off, box.max + off};
        offerEveryContact(
            static_cast<uint32_t>(triangles_.size()),
            [&](uint32_t i) { return inMask(i, layerMask); },
            [&](uint32_t i, TriangleContact& c) { return boxTriangleContact(b, triangles_[i], c); },
            d, ioStats);
      });
}

namespace {
template <class SweepTri>
bool sweepAll(uint32_t n, SweepTri&& sweepTri, SweepHit& outHit) {
  SweepContact best;
  float bestDepth = 0.0f;
  uint32_t bestTri = kOctreeInvalidIndex;
  for (uint32_t i = 0; i < n; ++i) {
    SweepContact c;
    float depth = 0.0f;
    if (!sweepTri(i, c, depth)) continue;
    const bool better = bestTri == kOctreeInvalidIndex || c.toi < best.toi ||
                        (c.toi == best.toi && depth > bestDepth);
    if (better) {
      best = c;
      bestDepth = depth;
      bestTri = i;
    }
  }
  if (bestTri == kOctreeInvalidIndex) return false;
  outHit.toi = best.toi;
  outHit.triangle = bestTri;
  outHit.point = best.point;
  outHit.normal = best.normal;
  outHit.startsOverlapping = best.startsOverlapping;
  return true;
}
}  // namespace

bool BruteForce::sweepSphere(const glm::vec3& center, float radius, const glm::vec3& displacement,
                             uint32_t layerMask, SweepHit& outHit, QueryStats* ioStats) const {
  uint32_t tested = 0;
  const bool hit = sweepAll(
      static_cast<uint32_t>(triangles_.size()),
      [&](uint32_t i, SweepContact& c, float& depth) {
        if (!inMask(i, layerMask)) return false;
        ++tested;
        if (!sweepSphereTriangle(center, radius, displacement, triangles_[i], c)) return false;
        TriangleContact tc;
        if (c.startsOverlapping && sphereTriangleContact(center, radius, triangles_[i], tc))
          depth = tc.depth;
        return true;
      },
      outHit);
  addStats(ioStats, tested);
  return hit;
}

bool BruteForce::sweepCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                              const glm::vec3& displacement, uint32_t layerMask, SweepHit& outHit,
                              QueryStats* ioStats) const {
  uint32_t tested = 0;
  const bool hit = sweepAll(
      static_cast<uint32_t>(triangles_.size()),
      [&](uint32_t i, SweepContact& c, float& depth) {
        if (!inMask(i, layerMask)) return false;
        ++tested;
        if (!sweepCapsuleTriangle(a, b, radius, displacement, triangles_[i], c)) return false;
        TriangleContact tc;
        if (c.startsOverlapping && capsuleTriangleContact(a, b, radius, triangles_[i], tc))
          depth = tc.depth;
        return true;
      },
      outHit);
  addStats(ioStats, tested);
  return hit;
}

bool BruteForce::closestPoint(const glm::vec3& p, float maxDistance, uint32_t layerMask,
                              PointHit& outHit, QueryStats* ioStats) const {
  if (!(maxDistance >= 0.0f)) return false;
  float best2 = maxDistance * maxDistance;
  uint32_t bestTri = kOctreeInvalidIndex;
  glm::vec3 bestPoint(0.0f);
  uint32_t tested = 0;
  for (uint32_t i = 0; i < triangles_.size(); ++i) {
    if (!inMask(i, layerMask)) continue;
    ++tested;
    const glm::vec3 cp = closestPointOnTriangle(p, triangles_[i]);
    const glm::vec3 d = p - cp;
    const float d2 = d.x * d.x + d.y * d.y + d.z * d.z;
    if (d2 < best2 || (d2 == best2 && bestTri == kOctreeInvalidIndex)) {
      best2 = d2;
      bestTri = i;
      bestPoint = cp;
    }
  }
  addStats(ioStats, tested);
  if (bestTri == kOctreeInvalidIndex) return false;
  outHit.point = bestPoint;
  outHit.distance = std::sqrt(best2);
  outHit.triangle = bestTri;
  return true;
}

}  // namespace ofps
