#pragma once
// Runs every octree query against the brute-force oracle on random queries placed near the
// geometry, counting queries, hits and disagreements per kind.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "octree_fps/geometry/aabb.h"
#include "octree_fps/spatial/brute_force.h"
#include "octree_fps/spatial/octree.h"

namespace ofps::test {

enum QueryKind : uint32_t {
  kRay,
  kRayAny,
  kSphere,
  kCapsule,
  kBox,
  kSpherePush,
  kCapsulePush,
  kBoxPush,
  kSweepSphere,
  kSweepCapsule,
  kClosest,
  kKindCount
};
const char* kindName(uint32_t k);

struct OracleTally {
  std::array<uint32_t, kKindCount> queries{};
  std::array<uint32_t, kKindCount> hits{};
  std::array<uint32_t, kKindCount> disagreements{};
  std::vector<std::string> firstFailures;  // up to 10 descriptions
  uint64_t octreeTrianglesTested = 0;
  uint64_t bruteTrianglesTested = 0;
  uint32_t total() const;
  uint32_t totalDisagreements() const;
  std::string summary() const;
};

// size: the character size in level units (radius ~0.35 m or 16 Quake units).
void runOracle(const std::vector<Triangle>& tris, const Octree& octree, const BruteForce& brute,
               float size, uint32_t perKind, uint32_t seed, OracleTally& tally,
               uint32_t layerMask = kOctreeAllLayers);

}  // namespace ofps::test
