// Sparse hash grid (contracts in hash_grid.h).
#include "octree_fps/spatial/hash_grid.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "octree_fps/assert.h"
#include "octree_fps/geometry/frustum_inl.h"
#include "octree_fps/geometry/simd4.h"
#include "octree_fps/spatial/block_pool_inl.h"
#include "octree_fps/spatial/hash_grid_inl.h"

namespace ofps {

using namespace detail::grid;  // hash_grid_inl.h

float gridObjectDistance(const GridObject& o, const glm::vec3& p) {
  if (o.isSphere) {
    const glm::vec3 d = o.center - p;
    return std::max(0.0f, std::sqrt(d.x * d.x + d.y * d.y + d.z * d.z) - o.radius);
  }
  return std::sqrt(distanceSquared(o.bounds(), p));
}

HashGrid::HashGrid(float cellSize) {
  OFPS_ASSERT(cellSize > 0.0f && std::isfinite(cellSize), "HashGrid: cell size must be > 0");
  cellSize_ = cellSize;
  invCellSize_ = 1.0f / cellSize;
}

int32_t HashGrid::coord(float v) const {
  // floor(t) clamped to [-limit, limit], without a libm call: floor(t) > -limit iff t > -limit
  // and floor(t) >= limit iff t >= limit (limit is an integer); in between, truncation then a
  // step down for negative non-integers is floor exactly (|t| < 2^21: the int is exact).
  const float t = v * invCellSize_;
  if (!(t > -static_cast<float>(kGridCoordLimit))) return -kGridCoordLimit;  // also NaN
  if (t >= static_cast<float>(kGridCoordLimit)) return kGridCoordLimit;
  const int32_t i = static_cast<int32_t>(t);
  return i - (static_cast<float>(i) > t ? 1 : 0);
}

void HashGrid::cellOf(const glm::vec3& p, int32_t& outX, int32_t& outY, int32_t& outZ) const {
  outX = coord(p.x);
  outY = coord(p.y);
  outZ = coord(p.z);
}

Aabb HashGrid::cellBounds(const GridCell& c) const {
  const glm::vec3 lo(static_cast<float>(c.x), static_cast<float>(c.y), static_cast<float>(c.z));
  return {lo * cellSize_, (lo + glm::vec3(1.0f)) * cellSize_};
}

uint32_t HashGrid::findCell(int32_t x, int32_t y, int32_t z) const {
  return findKey(packGridKey(x, y, z));
}

void HashGrid::rehash(uint32_t capacity) {
  table_.assign(capacity, Slot{0, kGridInvalidIndex, 0});
  const uint64_t mask = capacity - 1;
  for (uint32_t c = 0; c < cells_.size(); ++c) {
    uint64_t i = mixKey(cells_[c].key) & mask;
    while (table_[i].cell != kGridInvalidIndex) i = (i + 1) & mask;
    table_[i] = {cells_[c].key, c, 0};
  }
}

uint32_t HashGrid::findOrAddCell(int32_t x, int32_t y, int32_t z) {
  if ((cells_.size() + 1) * 2 > table_.size()) {
    rehash(std::max<uint32_t>(64u, static_cast<uint32_t>(table_.size()) * 2u));
  }
  const uint64_t key = packGridKey(x, y, z);
  const uint64_t mask = table_.size() - 1;
  uint64_t i = mixKey(key) & mask;
  for (;; i = (i + 1) & mask) {
    Slot& s = table_[i];
    if (s.cell == kGridInvalidIndex) break;
    if (s.key == key) return s.cell;
  }
  const uint32_t c = static_cast<uint32_t>(cells_.size());
  GridCell cell;
  cell.key = key;
  cell.x = x;
  cell.y = y;
  cell.z = z;
  cells_.push_back(cell);
  table_[i] = {key, c, 0};
  if (listener_.p) listener_.p->cellAdded(c);
  return c;
}

void HashGrid::eraseTableSlot(uint32_t c) {
  const uint64_t mask = table_.size() - 1;
  // Find the slot and delete it by backward shift (no tombstones).
  uint64_t i = mixKey(cells_[c].key) & mask;
  while (table_[i].cell != c) i = (i + 1) & mask;
  uint64_t j = i;
  for (;;) {
    j = (j + 1) & mask;
    if (table_[j].cell == kGridInvalidIndex) break;
    const uint64_t home = mixKey(table_[j].key) & mask;
    // The entry at j may fill the hole at i unless its home lies cyclically in (i, j].
    const bool stays = i <= j ? (i < home && home <= j) : (i < home || home <= j);
    if (stays) continue;
    table_[i] = table_[j];
    i = j;
  }
  table_[i] = Slot{0, kGridInvalidIndex, 0};
}

void HashGrid::removeCell(uint32_t c) {
  eraseTableSlot(c);
  const uint64_t mask = table_.size() - 1;
  freeBlock(cells_[c].head, cells_[c].capacity);
  // Move the last dense cell into the hole.
  const uint32_t last = static_cast<uint32_t>(cells_.size() - 1);
  if (c != last) {
    cells_[c] = cells_[last];
    uint64_t k = mixKey(cells_[c].key) & mask;
    while (table_[k].cell != last) k = (k + 1) & mask;
    table_[k].cell = c;
    const GridCell& moved = cells_[c];
    for (uint32_t s = 0; s < moved.count; ++s) cell_[pool_[moved.head + s] & kPoolIdMask] = c;
  }
  cells_.pop_back();
  if (listener_.p) listener_.p->cellRemoved(c, last);
  // Shrink when the cells fell below 1/8 of the table (hysteresis: grow happens at 1/2).
  if (table_.size() > 64 && cells_.size() * 8 < table_.size()) {
    uint32_t cap = 64;
    while (cap < cells_.size() * 4) cap *= 2;
    rehash(cap);
  }
}

void HashGrid::growExtent(float radius) {
  if (!(radius > maxExtent_)) return;
  maxExtent_ = radius;
  if (listener_.p) listener_.p->extentGrew();
}

bool HashGrid::isBorderCell(const GridCell& cell) {
  return std::max({std::abs(cell.x), std::abs(cell.y), std::abs(cell.z)}) == kGridCoordLimit;
}

uint32_t HashGrid::allocBlock(uint32_t capacity) {
  return detail::allocPoolBlock(pool_, freeBlocks_, capacity, kGridInvalidIndex);
}

void HashGrid::freeBlock(uint32_t first, uint32_t capacity) {
  detail::freePoolBlock(freeBlocks_, first, capacity);
}

uint32_t HashGrid::poolSlot(uint32_t id) const {
  const GridCell& cell = cells_[cell_[id]];
  uint32_t s = cell.head;
  while ((pool_[s] & kPoolIdMask) != id) ++s;
  return s;
}

void HashGrid::link(uint32_t id, int32_t x, int32_t y, int32_t z, uint32_t entry) {
  const uint32_t c = findOrAddCell(x, y, z);
  if (cells_[c].capacity == 0) {
    cells_[c].head = allocBlock(4);
    cells_[c].capacity = 4;
  } else if (cells_[c].count == cells_[c].capacity) {
    // Full: move the block to one twice as large.
    const uint32_t cap = cells_[c].capacity;
    const uint32_t first = allocBlock(cap * 2);  // may grow the pool
    GridCell& cell = cells_[c];
    std::memcpy(&pool_[first], &pool_[cell.head], sizeof(uint32_t) * cap);
    freeBlock(cell.head, cap);
    cell.head = first;
    cell.capacity = cap * 2;
  }
  GridCell& cell = cells_[c];
  cell_[id] = c;
  key_[id] = cell.key;
  pool_[cell.head + cell.count] = entry;
  ++cell.count;
  if (listener_.p) listener_.p->cellContentsChanged(c);
}

uint32_t HashGrid::unlink(uint32_t id) {
  const uint32_t c = cell_[id];
  const uint32_t s = poolSlot(id);
  const uint32_t entry = pool_[s];
  GridCell& cell = cells_[c];
  // Keep link order: shift the later objects down by one.
  const uint32_t end = cell.head + cell.count;
  uint32_t* pool = pool_.data();
  for (uint32_t t = s + 1; t < end; ++t) pool[t - 1] = pool[t];
  pool[end - 1] = kGridInvalidIndex;
  cell_[id] = kGridInvalidIndex;
  if (--cell.count == 0) {
    removeCell(c);
  } else if (listener_.p) {
    listener_.p->cellContentsChanged(c);
  }
  return entry;
}

void HashGrid::insertObject(uint32_t id, const glm::vec3& center, const glm::vec3& halfExtents,
                            float radius, bool sphere) {
  OFPS_ASSERT(id <= kGridMaxId, "HashGrid::insert: ids must be below 2^31");
  OFPS_ASSERT(!contains(id), "HashGrid::insert: id already in the grid (use move)");
  OFPS_ASSERT(std::isfinite(center.x) && std::isfinite(center.y) && std::isfinite(center.z),
              "HashGrid::insert: non-finite centre");
  if (id > kGridMaxId || contains(id)) return;
  packsFresh_ = false;
  if (id >= objects_.size()) {
    const size_t n = static_cast<size_t>(id) + 1;
    objects_.resize(n);
    key_.resize(n, 0);
    cell_.resize(n, kGridInvalidIndex);
  }
  GridObject& o = objects_[id];
  o.center = center;
  o.halfExtents = halfExtents;
  o.radius = radius;
  o.isSphere = sphere ? 1u : 0u;
  growExtent(radius);
  link(id, coord(center.x), coord(center.y), coord(center.z), poolEntry(id, sphere));
  ++objectCount_;
}

void HashGrid::insertSphere(uint32_t id, const glm::vec3& center, float radius) {
  insertObject(id, center, glm::vec3(radius), radius, true);
}

void HashGrid::insertBox(uint32_t id, const glm::vec3& center, const glm::vec3& halfExtents) {
  insertObject(id, center, halfExtents,
               std::max(halfExtents.x, std::max(halfExtents.y, halfExtents.z)), false);
}

void HashGrid::remove(uint32_t id) {
  OFPS_ASSERT(contains(id), "HashGrid::remove: id not in the grid");
  if (!contains(id)) return;
  packsFresh_ = false;
  unlink(id);
  key_[id] = 0;  // no packed key is 0: moveCenters' four-wide early out relies on it
  --objectCount_;
}

bool HashGrid::moveObject(uint32_t id, const glm::vec3& center, const glm::vec3& halfExtents,
                          float radius, bool sphere) {
  OFPS_ASSERT(contains(id), "HashGrid::move: id not in the grid (insert it first)");
  if (!contains(id)) return false;
  packsFresh_ = false;
  GridObject& o = objects_[id];
  const uint32_t wasSphere = o.isSphere;
  o.center = center;
  o.halfExtents = halfExtents;
  o.radius = radius;
  o.isSphere = sphere ? 1u : 0u;
  growExtent(radius);
  const int32_t x = coord(center.x), y = coord(center.y), z = coord(center.z);
  const uint64_t key = packGridKey(x, y, z);
  const bool changed = key != key_[id];   // else the early out: same cell
  if (changed) relink(id, x, y, z, key);  // carries the old box bit
  if (wasSphere != o.isSphere) {
    const uint32_t slot = poolSlot(id);
    pool_[slot] = poolEntry(id, sphere);
    const uint32_t c = cell_[id];
    if (listener_.p && slot == cells_[c].head) listener_.p->cellContentsChanged(c);
  }
  return changed;
}

bool HashGrid::moveSphere(uint32_t id, const glm::vec3& center, float radius) {
  return moveObject(id, center, glm::vec3(radius), radius, true);
}

bool HashGrid::moveBox(uint32_t id, const glm::vec3& center, const glm::vec3& halfExtents) {
  return moveObject(id, center, halfExtents,
                    std::max(halfExtents.x, std::max(halfExtents.y, halfExtents.z)), false);
}

bool HashGrid::move(uint32_t id, const glm::vec3& center) {
  OFPS_ASSERT(contains(id), "HashGrid::move: id not in the grid (insert it first)");
  if (!contains(id)) return false;
  packsFresh_ = false;
  GridObject& o = objects_[id];
  o.center = center;
  const int32_t x = coord(center.x), y = coord(center.y), z = coord(center.z);
  const uint64_t key = packGridKey(x, y, z);
  if (key == key_[id]) return false;  // early out: same cell
  relink(id, x, y, z, key);
  return true;
}

uint32_t HashGrid::moveCenters(std::span<const glm::vec3> centers) {
  const uint32_t n = static_cast<uint32_t>(std::min<size_t>(centers.size(), cell_.size()));
  packsFresh_ = false;
  moveScratch_.clear();
  // Pass 1: every centre, and the early out (streams the centres, keys and cells by id).
  uint32_t id0 = 0;
#if defined(OFPS_SIMD4_SSE2)
  // Four centres at a time: coord()'s clamp and floor as lane operations (the same results:
  // max/min give -limit for NaN and clamp as its compares do; truncation then one step down
  // where the truncated value lies above t is floor for |t| < 2^21), then packGridKey's two
  // 32-bit halves, compared with the four stored keys at once. When all four stay in their
  // cells (most frames, for most props) only their centres are written. An id not in the grid
  // has key 0, which no packed key equals (every biased coordinate is at least 1), so it never
  // passes as unchanged.
  {
    const __m128 inv = _mm_set1_ps(invCellSize_);
    const __m128 lo = _mm_set1_ps(-static_cast<float>(kGridCoordLimit));
    const __m128 hi = _mm_set1_ps(static_cast<float>(kGridCoordLimit));
    const __m128i bias = _mm_set1_epi32(kGridCoordLimit + 1);
    auto cellCoords = [&](__m128 v) {
      const __m128 t = _mm_min_ps(_mm_max_ps(_mm_mul_ps(v, inv), lo), hi);
      const __m128i i = _mm_cvttps_epi32(t);
      const __m128i above = _mm_castps_si128(_mm_cmpgt_ps(_mm_cvtepi32_ps(i), t));
      return _mm_add_epi32(i, above);
    };
    alignas(16) int32_t cx[4], cy[4], cz[4];
    for (; id0 + 4 <= n; id0 += 4) {
      const float* p = &centers[id0].x;  // x0 y0 z0 x1 | y1 z1 x2 y2 | z2 x3 y3 z3
      const __m128 a = _mm_loadu_ps(p), b = _mm_loadu_ps(p + 4), c = _mm_loadu_ps(p + 8);
      // _mm_shuffle_ps(A, B, _MM_SHUFFLE(d, c, b, a)) = (A[a], A[b], B[c], B[d]).
      const __m128 x23 = _mm_shuffle_ps(b, c, _MM_SHUFFLE(1, 1, 2, 2));  // x2 x2 x3 x3
      const __m128 y01 = _mm_shuffle_ps(a, b, _MM_SHUFFLE(0, 0, 1, 1));  // y0 y0 y1 y1
      const __m128 y23 = _mm_shuffle_ps(b, c, _MM_SHUFFLE(2, 2, 3, 3));  // y2 y2 y3 y3
      const __m128 z01 = _mm_shuffle_ps(a, b, _MM_SHUFFLE(1, 1, 2, 2));  // z0 z0 z1 z1
      const __m128 z23 = _mm_shuffle_ps(c, c, _MM_SHUFFLE(3, 3, 0, 0));  // z2 z2 z3 z3
      const __m128i ix = cellCoords(_mm_shuffle_ps(a, x23, _MM_SHUFFLE(2, 0, 3, 0)));
      const __m128i iy = cellCoords(_mm_shuffle_ps(y01, y23, _MM_SHUFFLE(2, 0, 2, 0)));
      const __m128i iz = cellCoords(_mm_shuffle_ps(z01, z23, _MM_SHUFFLE(2, 0, 2, 0)));
      // packGridKey of biased coordinates X, Y, Z < 2^21: (X << 42) | (Y << 21) | Z, whose low
      // word is (Y << 21) | Z (Y's top bits shifted out) and high word (X << 10) | (Y >> 11).
      const __m128i bx = _mm_add_epi32(ix, bias), by = _mm_add_epi32(iy, bias);
      const __m128i bz = _mm_add_epi32(iz, bias);
      const __m128i klo = _mm_or_si128(_mm_slli_epi32(by, 21), bz);
      const __m128i khi = _mm_or_si128(_mm_slli_epi32(bx, 10), _mm_srli_epi32(by, 11));
      const __m128i k01 = _mm_unpacklo_epi32(klo, khi), k23 = _mm_unpackhi_epi32(klo, khi);
      const __m128i* stored = reinterpret_cast<const __m128i*>(key_.data() + id0);
      const int same = _mm_movemask_epi8(_mm_cmpeq_epi32(k01, _mm_loadu_si128(stored))) |
                       (_mm_movemask_epi8(_mm_cmpeq_epi32(k23, _mm_loadu_si128(stored + 1))) << 16);
      if (same == -1) {  // all four present and staying in their cells
        for (uint32_t k = 0; k < 4; ++k) objects_[id0 + k].center = centers[id0 + k];
        continue;
      }
      _mm_store_si128(reinterpret_cast<__m128i*>(cx), ix);
      _mm_store_si128(reinterpret_cast<__m128i*>(cy), iy);
      _mm_store_si128(reinterpret_cast<__m128i*>(cz), iz);
      for (uint32_t k = 0; k < 4; ++k) {
        const uint32_t id = id0 + k;
        if (key_[id] == 0) continue;  // not in the grid (key 0; cell_ would be a cache miss)
        OFPS_ASSERT(std::isfinite(centers[id].x) && std::isfinite(centers[id].y) &&
                        std::isfinite(centers[id].z),
                    "HashGrid::moveCenters: non-finite centre");
        objects_[id].center = centers[id];
        if (((same >> (8 * k)) & 0xFF) == 0xFF) continue;  // both halves of lane k's key equal
        moveScratch_.push_back({packGridKey(cx[k], cy[k], cz[k]), id, cx[k], cy[k], cz[k]});
      }
    }
  }
#endif
  for (uint32_t id = id0; id < n; ++id) {
    if (cell_[id] == kGridInvalidIndex) continue;
    const glm::vec3& c = centers[id];
    OFPS_ASSERT(std::isfinite(c.x) && std::isfinite(c.y) && std::isfinite(c.z),
                "HashGrid::moveCenters: non-finite centre");
    objects_[id].center = c;
    const int32_t x = coord(c.x), y = coord(c.y), z = coord(c.z);
    const uint64_t key = packGridKey(x, y, z);
    if (key != key_[id]) moveScratch_.push_back({key, id, x, y, z});
  }
  // Pass 2: the changes in id order (as move() one by one would make them), with the cache
  // misses of each change started a few changes ahead, in stages whose addresses come from lines
  // the stage before fetched: kFar ahead the new cell's table slot and the old cell (the object
  // itself is never read: its pool entry moves); kMid ahead the old cell's id block and table
  // slot, the new cell and its block when the slot already holds it. The cell listener gets the
  // same four stages (kFar, kBlock, kMid, kNear: 3 to 0) for what it keeps per cell. Only hints:
  // a cell moved or removed meanwhile costs a miss, nothing else.
  constexpr size_t kFar = 32, kBlock = 20, kMid = 12, kNear = 4;
  const size_t m = moveScratch_.size();
  const GridCellListener* listener = listener_.p;
  const uint64_t tmask = table_.size() - 1;
  auto hint = [&](uint32_t stage, const PendingMove& f) {
    listener->prefetchMove(stage, cell_[f.id], f.x, f.y, f.z);
  };
  for (size_t j = 0; j < m; ++j) {
    if (j + kFar < m) {
      const PendingMove& f = moveScratch_[j + kFar];
      simd::prefetch(&table_[mixKey(f.key) & tmask]);
      simd::prefetch(&cells_[cell_[f.id]]);
      if (listener) hint(3, f);
    }
    if (listener && j + kBlock < m) hint(2, moveScratch_[j + kBlock]);
    if (j + kMid < m) {
      const PendingMove& f = moveScratch_[j + kMid];
      const uint32_t oc = cell_[f.id];
      simd::prefetch(&pool_[cells_[oc].head]);
      simd::prefetch(&table_[mixKey(cells_[oc].key) & tmask]);  // the old cell's, if it empties
      const Slot& sl = table_[mixKey(f.key) & tmask];
      if (sl.key == f.key && sl.cell < cells_.size()) {
        simd::prefetch(&cells_[sl.cell]);
        simd::prefetch(&pool_[cells_[sl.cell].head]);
      }
      if (listener) hint(1, f);
    }
    if (listener && j + kNear < m) hint(0, moveScratch_[j + kNear]);
    const PendingMove& p = moveScratch_[j];
    relink(p.id, p.x, p.y, p.z, p.key);
  }
  return static_cast<uint32_t>(m);
}

void HashGrid::relocateCell(uint32_t c, int32_t x, int32_t y, int32_t z, uint64_t key) {
  eraseTableSlot(c);
  const uint64_t mask = table_.size() - 1;
  uint64_t i = mixKey(key) & mask;
  while (table_[i].cell != kGridInvalidIndex) i = (i + 1) & mask;
  table_[i] = {key, c, 0};
  GridCell& cell = cells_[c];
  cell.key = key;
  cell.x = x;
  cell.y = y;
  cell.z = z;
  if (listener_.p) listener_.p->cellRelocated(c);
}

void HashGrid::relink(uint32_t id, int32_t x, int32_t y, int32_t z, uint64_t key) {
  // Two chains of cache misses (old cell -> its block; new cell's table slot -> cell -> block):
  // start the new cell's probe while the old one is unlinked.
  simd::prefetch(&table_[mixKey(key) & (table_.size() - 1)]);
  const uint32_t c = cell_[id];
  if (cells_[c].count == 1 && findKey(key) == kGridInvalidIndex) {
    // The sole object of its cell moves to an empty cell (most changes when cells hold about
    // one object): the cell itself moves, keeping its dense index, id block and group entry,
    // instead of a removal (table delete, block freed, the last cell swapped into the hole with
    // its table slot, objects and group entry rewritten) and a creation (table insert, block
    // allocated, group entry appended): a few cache misses instead of about fifteen.
    relocateCell(c, x, y, z, key);
    key_[id] = key;
    return;
  }
  // The pool entry (id and box bit) moves as it is: no read of the object.
  const uint32_t entry = unlink(id);
  link(id, x, y, z, entry);
}

void HashGrid::clear() {
  objects_.clear();
  key_.clear();
  cell_.clear();
  pool_.clear();
  packs_.clear();
  packsFresh_ = false;
  freeBlocks_.clear();
  cells_.clear();
  table_.clear();
  objectCount_ = 0;
  maxExtent_ = 0.0f;
  if (listener_.p) listener_.p->cellsCleared();
}

void HashGrid::setCellSize(float cellSize) {
  OFPS_ASSERT(cellSize > 0.0f && std::isfinite(cellSize), "HashGrid::setCellSize: must be > 0");
  if (!(cellSize > 0.0f) || !std::isfinite(cellSize)) return;
  cellSize_ = cellSize;
  invCellSize_ = 1.0f / cellSize;
  packsFresh_ = false;
  std::vector<uint32_t> live;
  live.reserve(objectCount_);
  for (uint32_t id = 0; id < objects_.size(); ++id) {
    if (cell_[id] == kGridInvalidIndex) continue;
    live.push_back(id);
    cell_[id] = kGridInvalidIndex;
  }
  pool_.clear();
  freeBlocks_.clear();
  cells_.clear();
  table_.clear();
  maxExtent_ = 0.0f;
  if (listener_.p) listener_.p->cellsRebuilt();
  // Re-link in decreasing id order so that every cell's walk (last linked first) runs in
  // increasing id: the result depends only on the objects, not on the history of moves.
  for (size_t i = live.size(); i-- > 0;) {
    const uint32_t id = live[i];
    const GridObject& o = objects_[id];
    growExtent(o.radius);
    link(id, coord(o.center.x), coord(o.center.y), coord(o.center.z),
         poolEntry(id, o.isSphere != 0));
  }
}

size_t HashGrid::bytes() const {
  size_t freeLists = freeBlocks_.capacity() * sizeof(std::vector<uint32_t>);
  for (const std::vector<uint32_t>& f : freeBlocks_) freeLists += f.capacity() * sizeof(uint32_t);
  return objects_.capacity() * sizeof(GridObject) + key_.capacity() * sizeof(uint64_t) +
         (cell_.capacity() + pool_.capacity()) * sizeof(uint32_t) + freeLists +
         packs_.capacity() * sizeof(Pack) + cells_.capacity() * sizeof(GridCell) +
         table_.capacity() * sizeof(Slot);
}

void HashGrid::refreshQueryCache() {
  packs_.resize(pool_.size() / 4);
  for (const GridCell& cell : cells_) {
    for (uint32_t i = 0; i < cell.count; ++i) {
      const uint32_t slot = cell.head + i;
      const GridObject& o = objects_[pool_[slot] & kPoolIdMask];
      Pack& p = packs_[slot >> 2];
      const uint32_t l = slot & 3u;
      p.x[l] = o.center.x;
      p.y[l] = o.center.y;
      p.z[l] = o.center.z;
      p.r[l] = o.radius;
    }
  }
  packsFresh_ = true;
}

bool HashGrid::validate(std::string* outError) const {
  auto fail = [&](const std::string& m) {
    if (outError) *outError = m;
    return false;
  };
  if (!table_.empty() && (table_.size() & (table_.size() - 1)) != 0) {
    return fail("table capacity is not a power of two");
  }
  if (cells_.size() * 2 > table_.size() && !cells_.empty()) return fail("table load above 1/2");
  for (uint32_t id = 0; id < cell_.size(); ++id) {
    if (cell_[id] == kGridInvalidIndex && key_[id] != 0) {
      return fail("id " + std::to_string(id) + " is not in the grid but keeps a key");
    }
  }
  std::vector<uint32_t> owner(pool_.size(), kGridInvalidIndex);  // cell owning each pool slot
  uint64_t listed = 0;
  for (uint32_t c = 0; c < cells_.size(); ++c) {
    const GridCell& cell = cells_[c];
    if (cell.count == 0) return fail("empty cell " + std::to_string(c) + " kept");
    if (cell.key != packGridKey(cell.x, cell.y, cell.z)) return fail("cell key mismatch");
    if (findCell(cell.x, cell.y, cell.z) != c) {
      return fail("cell " + std::to_string(c) + " not found through the table");
    }
    const uint32_t cap = cell.capacity;
    if (cap < 4 || (cap & (cap - 1)) != 0 || cell.head % 4 != 0 ||
        static_cast<size_t>(cell.head) + cap > pool_.size() || cell.count > cap) {
      return fail("cell " + std::to_string(c) + " has a bad pool block");
    }
    for (uint32_t s = cell.head; s < cell.head + cap; ++s) {
      if (owner[s] != kGridInvalidIndex) return fail("pool blocks overlap");
      owner[s] = c;
    }
    uint32_t n = 0;
    for (; n < cell.count; ++n) {
      const uint32_t s = cell.head + n;
      const uint32_t id = pool_[s] & kPoolIdMask;
      if (id >= objects_.size()) return fail("pool holds an id out of range");
      const GridObject& o = objects_[id];
      if (((pool_[s] & kPoolBoxBit) != 0) != (o.isSphere == 0)) {
        return fail("object " + std::to_string(id) + " has a stale box bit");
      }
      if (cell_[id] != c) return fail("object " + std::to_string(id) + " lists the wrong cell");
      if (key_[id] != cell.key) return fail("object " + std::to_string(id) + " has a stale key");
      if (packsFresh_) {
        if (packs_.size() * 4 != pool_.size())
          return fail("query cache size differs from the pool");
        const Pack& p = packs_[s >> 2];
        const uint32_t l = s & 3u;
        if (std::memcmp(&p.x[l], &o.center.x, 4) != 0 ||
            std::memcmp(&p.y[l], &o.center.y, 4) != 0 ||
            std::memcmp(&p.z[l], &o.center.z, 4) != 0 || std::memcmp(&p.r[l], &o.radius, 4) != 0) {
          return fail("object " + std::to_string(id) + " is stale in the fresh query cache");
        }
      }
      if (coord(o.center.x) != cell.x || coord(o.center.y) != cell.y ||
          coord(o.center.z) != cell.z) {
        return fail("object " + std::to_string(id) + " is not in the cell of its centre");
      }
      if (o.radius > maxExtent_) return fail("maxExtent below an object's extent");
    }
    if (n != cell.count) return fail("cell count differs from its block");
    listed += n;
  }
  uint32_t live = 0;
  for (const uint32_t c : cell_) live += c != kGridInvalidIndex ? 1u : 0u;
  if (live != objectCount_ || listed != objectCount_) return fail("object count mismatch");
  uint32_t used = 0;
  for (const Slot& s : table_) {
    if (s.cell == kGridInvalidIndex) continue;
    ++used;
    if (s.cell >= cells_.size() || cells_[s.cell].key != s.key) return fail("stale table slot");
  }
  if (used != cells_.size()) return fail("table slot count differs from the cell count");
  return true;
}

}  // namespace ofps
