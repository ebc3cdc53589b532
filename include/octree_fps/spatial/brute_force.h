#pragma once
// Brute-force reference for every octree query: the same exact primitive tests
// (geometry/triangle_tests.h) run over every triangle, in input order. It is the oracle of the
// tests, the "brute force" number beside every octree statistic in the demo, and the baseline of
// the micro-benchmarks. O(n) per query; no allocation; const queries are thread-safe.
// Result semantics are exactly those of the same-named Octree queries (octree.h), including the
// tie rules (lowest original index) and the push-out resolution, so answers can be compared
// exactly. Stats count every triangle of the matching layers as tested and 0 nodes.

#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "octree_fps/geometry/aabb.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {

class BruteForce {
 public:
  BruteForce() = default;
  // Keeps its own copy. layers: empty (all layers) or one mask per triangle. Input is assumed
  // valid (build an Octree first to validate untrusted input).
  BruteForce(std::span<const Triangle> triangles, std::span<const uint32_t> layers = {});
  static BruteForce fromIndexed(std::span<const glm::vec3> positions,
                                std::span<const uint32_t> indices,
                                std::span<const uint32_t> layers = {});

  std::span<const Triangle> triangles() const { return triangles_; }

  bool raycast(const glm::vec3& origin, const glm::vec3& dir, float tMax, uint32_t layerMask,
               RayHit& outHit, QueryStats* ioStats = nullptr) const;
  bool rayAny(const glm::vec3& origin, const glm::vec3& dir, float tMax, uint32_t layerMask,
              QueryStats* ioStats = nullptr) const;
  // Original indices of every overlapping triangle, ascending, into a caller-owned vector
  // (cleared first). Returns the count.
  uint32_t overlapSphere(const glm::vec3& center, float radius, uint32_t layerMask,
                         std::vector<uint32_t>& out, QueryStats* ioStats = nullptr) const;
  uint32_t overlapCapsule(const glm::vec3& a, const glm::vec3& b, float radius, uint32_t layerMask,
                          std::vector<uint32_t>& out, QueryStats* ioStats = nullptr) const;
  uint32_t overlapBox(const Aabb& box, uint32_t layerMask, std::vector<uint32_t>& out,
                      QueryStats* ioStats = nullptr) const;
  bool sphereIntersect(const glm::vec3& center, float radius, uint32_t layerMask,
                       PushOut& outPushOut, QueryStats* ioStats = nullptr,
                       uint32_t maxIterations = 8) const;
  bool capsuleIntersect(const glm::vec3& a, const glm::vec3& b, float radius, uint32_t layerMask,
                        PushOut& outPushOut, QueryStats* ioStats = nullptr,
                        uint32_t maxIterations = 8) const;
  bool boxIntersect(const Aabb& box, uint32_t layerMask, PushOut& outPushOut,
                    QueryStats* ioStats = nullptr, uint32_t maxIterations = 8) const;
  bool sweepSphere(const glm::vec3& center, float radius, const glm::vec3& displacement,
                   uint32_t layerMask, SweepHit& outHit, QueryStats* ioStats = nullptr) const;
  bool sweepCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                    const glm::vec3& displacement, uint32_t layerMask, SweepHit& outHit,
                    QueryStats* ioStats = nullptr) const;
  bool closestPoint(const glm::vec3& p, float maxDistance, uint32_t layerMask, PointHit& outHit,
                    QueryStats* ioStats = nullptr) const;

 private:
  bool inMask(uint32_t i, uint32_t mask) const {
    return ((layers_.empty() ? kOctreeAllLayers : layers_[i]) & mask) != 0;
  }
  std::vector<Triangle> triangles_;
  std::vector<uint32_t> layers_;
};

}  // namespace ofps
