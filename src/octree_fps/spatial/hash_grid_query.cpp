// Hash grid queries: radius, box, k-nearest, frustum (contracts in hash_grid.h).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "octree_fps/geometry/frustum_inl.h"
#include "octree_fps/geometry/scalar_inl.h"
#include "octree_fps/geometry/simd4.h"
#include "octree_fps/spatial/hash_grid.h"
#include "octree_fps/spatial/hash_grid_inl.h"

namespace ofps {

using namespace detail::grid;  // hash_grid_inl.h

namespace {

// Box lanes pass the SIMD filter when |c - p|^2 <= (reach + sqrt(3) x largest half-extent)^2
// times this: a relative margin far above float rounding, so the filter never drops a box the
// exact test would report (|h| <= sqrt(3) max h_i).
constexpr float kBoxFilterPad = 1.0009765625f;  // 1 + 2^-10
constexpr float kSqrt3Up = 1.7320511f;          // > sqrt(3)

inline uint32_t highestLane(uint32_t m) {
  return 31u - static_cast<uint32_t>(__builtin_clz(m));
}

}  // namespace

template <class Gap2, class CellHits>
void HashGrid::visitRange(const int32_t lo[3], const int32_t hi[3], Gap2&& gap2, float limit,
                          CellHits&& cellHits, GridQueryStats& st) const {
  const uint64_t nx = static_cast<uint64_t>(hi[0] - lo[0] + 1);
  const uint64_t ny = static_cast<uint64_t>(hi[1] - lo[1] + 1);
  const uint64_t nz = static_cast<uint64_t>(hi[2] - lo[2] + 1);
  if (nx * ny * nz > cells_.size()) {
    // Fewer occupied cells than cells in the range: scan them (bounded cost for huge queries).
    for (const GridCell& cell : cells_) {
      ++st.cellsVisited;
      if (cell.x < lo[0] || cell.x > hi[0] || cell.y < lo[1] || cell.y > hi[1] || cell.z < lo[2] ||
          cell.z > hi[2] || !(gap2(0, cell.x) + gap2(1, cell.y) + gap2(2, cell.z) <= limit)) {
        continue;
      }
      if (!cellHits(cell)) return;
    }
  } else {
    // Probes in batches, in range order: every table slot of the batch is fetched, then every
    // found cell, then every cell's block, so the cache misses overlap instead of forming one
    // chain per cell (table -> cell -> block -> objects).
    constexpr uint32_t kBatch = 32;
    uint64_t keys[kBatch];
    uint32_t found[kBatch];
    uint32_t nk = 0;
    const uint64_t mask = table_.size() - 1;  // not empty: the grid holds objects
    auto run = [&]() -> bool {
      uint64_t home[kBatch];
      for (uint32_t i = 0; i < nk; ++i) {
        home[i] = mixKey(keys[i]) & mask;
        simd::prefetch(&table_[home[i]]);
      }
      for (uint32_t i = 0; i < nk; ++i) {
        uint32_t c = kGridInvalidIndex;
        for (uint64_t j = home[i];; j = (j + 1) & mask) {
          const Slot& sl = table_[j];
          if (sl.cell == kGridInvalidIndex) break;
          if (sl.key == keys[i]) {
            c = sl.cell;
            break;
          }
        }
        found[i] = c;
        if (c != kGridInvalidIndex) simd::prefetch(&cells_[c]);
      }
      for (uint32_t i = 0; i < nk; ++i) {
        if (found[i] != kGridInvalidIndex) simd::prefetch(&pool_[cells_[found[i]].head]);
      }
      for (uint32_t i = 0; i < nk; ++i) {
        if (found[i] != kGridInvalidIndex && !cellHits(cells_[found[i]])) return false;
      }
      nk = 0;
      return true;
    };
    for (int32_t x = lo[0]; x <= hi[0]; ++x) {
      const float gx = gap2(0, x);
      if (!(gx <= limit)) continue;  // cannot hold a hit: no hash probe
      for (int32_t y = lo[1]; y <= hi[1]; ++y) {
        const float gxy = gx + gap2(1, y);
        if (!(gxy <= limit)) continue;
        for (int32_t z = lo[2]; z <= hi[2]; ++z) {
          if (!(gxy + gap2(2, z) <= limit)) continue;
          ++st.cellsVisited;
          keys[nk++] = packGridKey(x, y, z);
          if (nk == kBatch && !run()) return;
        }
      }
    }
    run();
  }
}

// Pool entries of slots [base, base + 4) where left (>= 1) of them are in the cell; lanes past the
// cell repeat the first entry. Returns the valid-lane mask.
inline uint32_t HashGrid::gatherGroup(uint32_t base, uint32_t left, uint32_t e[4]) const {
  if (left >= 4u) {
    std::memcpy(e, &pool_[base], sizeof(uint32_t) * 4);
    return 0xFu;
  }
  for (uint32_t l = 0; l < 4u; ++l) e[l] = pool_[base + (l < left ? l : 0u)];
  return (1u << left) - 1u;
}

namespace {
// Centres and radii (GridObject's first 16 bytes) of 4 objects, transposed to x, y, z, r.
inline void loadCenters(const GridObject* o, const uint32_t e[4], simd::F4& x, simd::F4& y,
                        simd::F4& z, simd::F4& r) {
  simd::loadTransposed(&o[e[0] & kPoolIdMask].center.x, &o[e[1] & kPoolIdMask].center.x,
                       &o[e[2] & kPoolIdMask].center.x, &o[e[3] & kPoolIdMask].center.x, x, y, z,
                       r);
}

// A group's centres and radii: from the query cache's pack when it is fresh (pack not null),
// else gathered from the objects.
template <class PackT>
inline void loadGroup(const PackT* pack, const GridObject* objects, const uint32_t e[4],
                      simd::F4& x, simd::F4& y, simd::F4& z, simd::F4& r) {
  if (pack != nullptr) {
    x = simd::load(pack->x);
    y = simd::load(pack->y);
    z = simd::load(pack->z);
    r = simd::load(pack->r);
  } else {
    loadCenters(objects, e, x, y, z, r);
  }
}
}  // namespace

// A cell's objects four at a time (walked last to first, as the scalar loops): filter gives, per
// lane, the exact sphere predicate and a conservative box one from the centres and radii (the
// query cache's pack when fresh, else gathered by id); boxes that pass are confirmed by exact(id).
// Reports through emit (adding to hits); false when emit stopped the query.
template <class Filter, class Exact, class Emit>
bool HashGrid::scanCell(const GridCell& cell, Filter&& filter, Exact&& exact, Emit&& emit,
                        uint32_t& hits) const {
  const uint32_t first = cell.head, n = cell.count;
  const bool fresh = packsFresh_;
  for (uint32_t g = (n + 3u) >> 2; g-- > 0;) {
    uint32_t e[4];
    const uint32_t valid = gatherGroup(first + g * 4u, n - g * 4u, e);
    simd::F4 x, y, z, r;
    loadGroup(fresh ? &packs_[(first >> 2) + g] : nullptr, objects_.data(), e, x, y, z, r);
    simd::M4 sphereIn, boxIn;
    filter(x, y, z, r, sphereIn, boxIn);
    const simd::M4 box = simd::topBitLanes(e);
    uint32_t m = simd::bits(simd::andNot(box, sphereIn) | (box & boxIn)) & valid;
    while (m != 0) {
      const uint32_t lane = highestLane(m);
      m ^= 1u << lane;
      const uint32_t id = e[lane] & kPoolIdMask;
      if ((e[lane] & kPoolBoxBit) != 0 && !exact(id)) continue;
      ++hits;
      if (!emit(id)) return false;
    }
  }
  return true;
}

template <class Emit, class OnCell>
uint32_t HashGrid::radiusImpl(const glm::vec3& center, float radius, Emit&& emit, OnCell&& onCell,
                              GridQueryStats* ioStats) const {
  GridQueryStats st;
  st.bruteForceChecks = objectCount_;
  uint32_t hits = 0;
  if (objectCount_ > 0 && radius >= 0.0f) {
    const float reach = radius + maxExtent_;
    const float margin = rangeMargin(reach + cellSize_, center);
    const float pad = reach + margin;
    const int32_t lo[3] = {coord(center.x - pad), coord(center.y - pad), coord(center.z - pad)};
    const int32_t hi[3] = {coord(center.x + pad), coord(center.y + pad), coord(center.z + pad)};
    const bool fast = finite3(center) && std::isfinite(radius);
    // A cell can hold a hit only if its box grown by maxExtent on every axis (which holds every
    // object of the cell, boxes included) is within radius of the centre, with the range margin
    // for rounding. Border cells (a coordinate at the limit) hold everything beyond it: no bound
    // on that axis.
    const float reachR = radius + margin;
    const float limit = fast ? reachR * reachR : std::numeric_limits<float>::infinity();
    const float pc[3] = {center.x, center.y, center.z};
    auto gap2 = [&](int a, int32_t c) {
      if (!fast || c == -kGridCoordLimit || c == kGridCoordLimit) return 0.0f;
      const float c0 = static_cast<float>(c) * cellSize_ - maxExtent_;
      const float c1 = static_cast<float>(c + 1) * cellSize_ + maxExtent_;
      const float g = std::max(std::max(c0 - pc[a], pc[a] - c1), 0.0f);
      return g * g;
    };
    auto cellHits = [&](const GridCell& cell) -> bool {
      onCell(cell);
      st.candidates += cell.count;
      const uint32_t first = cell.head, n = cell.count;
      if (fast) {
        using simd::F4;
        using simd::M4;
        const F4 px = simd::splat(center.x), py = simd::splat(center.y), pz = simd::splat(center.z),
                 rq = simd::splat(radius);
        const F4 zero = simd::splat(0.0f), sqrt3 = simd::splat(kSqrt3Up),
                 boxPad = simd::splat(kBoxFilterPad);
        // Spheres: the exact predicate (same operations as sphereHit). Boxes: within radius +
        // sqrt(3) x the largest half-extent (padded; NaN passes), then sphereHit.
        auto filter = [&](F4 x, F4 y, F4 z, F4 r, M4& sphereIn, M4& boxIn) {
          const F4 dx = x - px, dy = y - py, dz = z - pz;
          const F4 d2 = dx * dx + dy * dy + dz * dz;
          const F4 rr = rq + r;
          sphereIn = simd::le(d2, rr * rr);
          const F4 rb = rq + simd::max(zero, r) * sqrt3;
          boxIn = simd::notGreater(d2, rb * rb * boxPad);
        };
        auto exact = [&](uint32_t id) { return sphereHit(objects_[id], center, radius); };
        return scanCell(cell, filter, exact, emit, hits);
      }
      for (uint32_t i = n; i-- > 0;) {
        const uint32_t id = pool_[first + i] & kPoolIdMask;
        if (!sphereHit(objects_[id], center, radius)) continue;
        ++hits;
        if (!emit(id)) return false;
      }
      return true;
    };
    visitRange(lo, hi, gap2, limit, cellHits, st);
  }
  st.hits += hits;
  if (ioStats) *ioStats += st;
  return hits;
}

template <class Emit>
uint32_t HashGrid::aabbImpl(const Aabb& box, Emit&& emit, GridQueryStats* ioStats) const {
  GridQueryStats st;
  st.bruteForceChecks = objectCount_;
  uint32_t hits = 0;
  if (objectCount_ > 0 && !box.isEmpty()) {
    const float size = maxAbs(box.size()) + maxExtent_ + cellSize_;
    const glm::vec3 lop = box.min - glm::vec3(maxExtent_ + rangeMargin(size, box.min));
    const glm::vec3 hip = box.max + glm::vec3(maxExtent_ + rangeMargin(size, box.max));
    const int32_t lo[3] = {coord(lop.x), coord(lop.y), coord(lop.z)};
    const int32_t hi[3] = {coord(hip.x), coord(hip.y), coord(hip.z)};
    const bool fast = finite3(box.min) && finite3(box.max);
    auto gap2 = [](int, int32_t) { return 0.0f; };
    auto cellHits = [&](const GridCell& cell) -> bool {
      st.candidates += cell.count;
      const uint32_t first = cell.head, n = cell.count;
      if (fast) {
        // Spheres: distanceSquared(box, c) <= r * r, the same operations as boxHit. Boxes: the
        // same with sqrt(3) x their largest half-extent (padded; NaN passes), then the exact test.
        using simd::F4;
        using simd::M4;
        const F4 bx0 = simd::splat(box.min.x), by0 = simd::splat(box.min.y),
                 bz0 = simd::splat(box.min.z), bx1 = simd::splat(box.max.x),
                 by1 = simd::splat(box.max.y), bz1 = simd::splat(box.max.z);
        const F4 zero = simd::splat(0.0f), sqrt3 = simd::splat(kSqrt3Up),
                 boxPad = simd::splat(kBoxFilterPad);
        auto filter = [&](F4 x, F4 y, F4 z, F4 r, M4& sphereIn, M4& boxIn) {
          const F4 dx = simd::max(simd::max(bx0 - x, x - bx1), zero);
          const F4 dy = simd::max(simd::max(by0 - y, y - by1), zero);
          const F4 dz = simd::max(simd::max(bz0 - z, z - bz1), zero);
          const F4 d2 = dx * dx + dy * dy + dz * dz;
          sphereIn = simd::le(d2, r * r);
          const F4 rb = simd::max(zero, r) * sqrt3;
          boxIn = simd::notGreater(d2, rb * rb * boxPad);
        };
        auto exact = [&](uint32_t id) { return boxHit(objects_[id], box); };
        return scanCell(cell, filter, exact, emit, hits);
      }
      for (uint32_t i = n; i-- > 0;) {
        const uint32_t id = pool_[first + i] & kPoolIdMask;
        if (!boxHit(objects_[id], box)) continue;
        ++hits;
        if (!emit(id)) return false;
      }
      return true;
    };
    visitRange(lo, hi, gap2, std::numeric_limits<float>::infinity(), cellHits, st);
  }
  st.hits += hits;
  if (ioStats) *ioStats += st;
  return hits;
}

uint32_t HashGrid::queryRadius(const glm::vec3& center, float radius, GridVisitor visitor,
                               void* context, GridQueryStats* ioStats) const {
  return radiusImpl(
      center, radius, [&](uint32_t id) { return visitor(context, id); }, NoCellTap{}, ioStats);
}

uint32_t HashGrid::queryAabb(const Aabb& box, GridVisitor visitor, void* context,
                             GridQueryStats* ioStats) const {
  return aabbImpl(
      box, [&](uint32_t id) { return visitor(context, id); }, ioStats);
}

uint32_t HashGrid::collectRadius(const glm::vec3& center, float radius, std::span<uint32_t> out,
                                 GridQueryStats* ioStats) const {
  CollectInto collect{out};
  radiusImpl(center, radius, collect, NoCellTap{}, ioStats);
  return collect.count;
}

uint32_t HashGrid::radiusQueryCells(const glm::vec3& center, float radius, std::span<uint32_t> out,
                                    GridQueryStats* ioStats) const {
  uint32_t count = 0;
  radiusImpl(
      center, radius, [](uint32_t) { return true; },
      [&](const GridCell& cell) {
        if (count < out.size()) out[count] = static_cast<uint32_t>(&cell - cells_.data());
        ++count;
      },
      ioStats);
  return count;
}

uint32_t HashGrid::collectAabb(const Aabb& box, std::span<uint32_t> out,
                               GridQueryStats* ioStats) const {
  CollectInto collect{out};
  aabbImpl(box, collect, ioStats);
  return collect.count;
}

uint32_t HashGrid::kNearest(const glm::vec3& p, std::span<GridNeighbor> out,
                            GridQueryStats* ioStats) const {
  GridQueryStats st;
  st.bruteForceChecks = objectCount_;
  const uint32_t k = static_cast<uint32_t>(std::min<size_t>(out.size(), objectCount_));
  uint32_t found = 0;
  auto consider = [&](uint32_t id) {
    ++st.candidates;
    const float d = gridObjectDistance(objects_[id], p);
    if (found == k && !lessNeighbor(d, id, out[k - 1])) return;
    uint32_t i = found < k ? found++ : k - 1;
    while (i > 0 && lessNeighbor(d, id, out[i - 1])) {
      out[i] = out[i - 1];
      --i;
    }
    out[i] = {id, d};
  };
  auto considerCell = [&](const GridCell& cell) {
    for (uint32_t i = cell.count; i-- > 0;) consider(pool_[cell.head + i] & kPoolIdMask);
  };
  if (k > 0) {
    int32_t q[3];
    cellOf(p, q[0], q[1], q[2]);
    const float pc[3] = {p.x, p.y, p.z};
    const float margin = rangeMargin(cellSize_, p) + 1e-6f * cellSize_ * 2.0f;
    for (int64_t n = 0;; ++n) {
      const int64_t side = 2 * n + 1;
      const uint64_t shellCells =
          n == 0 ? 1u
                 : static_cast<uint64_t>(side * side * side - (side - 2) * (side - 2) * (side - 2));
      if (shellCells > cells_.size()) {
        // Scan the occupied cells not yet visited (Chebyshev distance >= n) and stop: exact.
        for (const GridCell& cell : cells_) {
          ++st.cellsVisited;
          const int64_t cheb = std::max({std::llabs(static_cast<int64_t>(cell.x) - q[0]),
                                         std::llabs(static_cast<int64_t>(cell.y) - q[1]),
                                         std::llabs(static_cast<int64_t>(cell.z) - q[2])});
          if (cheb >= n) considerCell(cell);
        }
        break;
      }
      // The shell of Chebyshev radius n, clamped to the coordinate range.
      const int64_t lo[3] = {q[0] - n, q[1] - n, q[2] - n};
      const int64_t hi[3] = {q[0] + n, q[1] + n, q[2] + n};
      auto inRange = [](int64_t v) { return v >= -kGridCoordLimit && v <= kGridCoordLimit; };
      for (int64_t x = lo[0]; x <= hi[0]; ++x) {
        if (!inRange(x)) continue;
        const bool xEdge = x == lo[0] || x == hi[0];
        for (int64_t y = lo[1]; y <= hi[1]; ++y) {
          if (!inRange(y)) continue;
          const bool xyEdge = xEdge || y == lo[1] || y == hi[1];
          const int64_t zStep = xyEdge ? 1 : std::max<int64_t>(1, hi[2] - lo[2]);
          for (int64_t z = lo[2]; z <= hi[2]; z += zStep) {
            if (!inRange(z)) continue;
            ++st.cellsVisited;
            const uint32_t c =
                findCell(static_cast<int32_t>(x), static_cast<int32_t>(y), static_cast<int32_t>(z));
            if (c != kGridInvalidIndex) considerCell(cells_[c]);
          }
        }
      }
      // Nearest possible distance of anything in an unvisited cell: p to the visited cube's
      // faces (sides at the coordinate limit have no unvisited cells), minus maxExtent.
      float bound = std::numeric_limits<float>::infinity();
      for (int a = 0; a < 3; ++a) {
        if (lo[a] > -kGridCoordLimit) {
          bound = std::min(bound, pc[a] - static_cast<float>(lo[a]) * cellSize_);
        }
        if (hi[a] < kGridCoordLimit) {
          bound = std::min(bound, static_cast<float>(hi[a] + 1) * cellSize_ - pc[a]);
        }
      }
      if (bound == std::numeric_limits<float>::infinity()) break;  // every cell visited
      bound -= maxExtent_ + margin + 1e-6f * static_cast<float>(n + 1) * cellSize_;
      if (found == k && out[k - 1].distance < bound) break;
    }
  }
  st.hits += found;
  if (ioStats) *ioStats += st;
  return found;
}

}  // namespace ofps
