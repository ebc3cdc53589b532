#pragma once
// Internal to the hash grid's two sources (hash_grid.cpp: the structure; hash_grid_query.cpp:
// the queries): the pool entry's bits, the key hash, the table probe and the exact predicates.

#include <span>

#include "octree_fps/geometry/splitmix.h"
#include "octree_fps/spatial/hash_grid.h"

namespace ofps {
namespace detail::grid {

// Emits into a caller's buffer: writes the first out.size() ids and counts them all.
struct CollectInto {
  std::span<uint32_t> out;
  uint32_t count = 0;
  bool operator()(uint32_t id) {
    if (count < out.size()) out[count] = id;
    ++count;
    return true;
  }
};

// The radius query's cell hook when nobody watches (compiles away).
struct NoCellTap {
  void operator()(const GridCell&) const {}
};

// Pool entry: the id, with the top bit set for a box (ids are below 2^31, see the header).
constexpr uint32_t kPoolBoxBit = 0x80000000u;
constexpr uint32_t kPoolIdMask = kGridPoolIdMask;

// SplitMix64's finalizer: every key bit affects the low bits used by the power-of-two mask.
inline uint64_t mixKey(uint64_t k) {
  return SplitMix64::mix(k);
}

// Margin added to query ranges so that float rounding of the range ends can never leave out a
// cell holding a hit: relative to the query size and to the coordinates' magnitude.
inline float rangeMargin(float size, const glm::vec3& p) {
  return 1e-5f * size + 1e-6f * maxAbs(p);
}

inline bool sphereHit(const GridObject& o, const glm::vec3& p, float r) {
  if (o.isSphere) {
    const glm::vec3 d = o.center - p;
    const float rr = r + o.radius;
    return d.x * d.x + d.y * d.y + d.z * d.z <= rr * rr;
  }
  return distanceSquared(o.bounds(), p) <= r * r;
}

inline bool boxHit(const GridObject& o, const Aabb& box) {
  if (o.isSphere) return distanceSquared(box, o.center) <= o.radius * o.radius;
  return o.bounds().overlaps(box);
}

inline bool lessNeighbor(float d, uint32_t id, const GridNeighbor& n) {
  return d < n.distance || (d == n.distance && id < n.id);
}

}  // namespace detail::grid

inline uint32_t HashGrid::findKey(uint64_t key) const {
  if (table_.empty()) return kGridInvalidIndex;
  const uint64_t mask = table_.size() - 1;
  for (uint64_t i = detail::grid::mixKey(key) & mask;; i = (i + 1) & mask) {
    const Slot& s = table_[i];
    if (s.cell == kGridInvalidIndex) return kGridInvalidIndex;
    if (s.key == key) return s.cell;
  }
}

}  // namespace ofps
