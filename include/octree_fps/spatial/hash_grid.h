#pragma once
// Sparse hash grid for moving objects: exact radius, box and k-nearest queries over
// objects identified by 32-bit ids, each a sphere (centre, radius) or an axis-aligned box
// (centre, half-extents). The dynamic counterpart of the static triangle octree: props, teams,
// anything that moves every frame.
//
// Units and frame: the caller's (the demo: world space, metres). Cell size is in the same units.
//
// ---- Layout -------------------------------------------------------------------------------------
// - Cells are cubes of edge cellSize; cell (i, j, k) covers [i, i+1) x [j, j+1) x [k, k+1) times
//   cellSize. Cell coordinates are floor(x / cellSize), clamped to [-kGridCoordLimit,
//   kGridCoordLimit] on each axis (21 bits signed: about +-1M cells; +-1000 km at 1 m cells) and
//   packed into a 64-bit key (21 bits per axis, biased). An object beyond the range lands in a
//   border cell; every query clamps its cell range the same way (clamping is monotone), so the
//   border cell is visited whenever the query could reach the object, and the real distance test
//   keeps every answer exact. Only the speed suffers out there. The world has no bounds.
// - Each object lives in exactly ONE cell, the one holding its centre ("loose grid"). A cell's
//   objects therefore lie inside the cell grown by maxExtent(), the largest half-extent or radius
//   ever inserted since the last rebuild(); queries grow their cell ranges by it. Keep objects
//   smaller than about a cell (props: radius 0.1..0.5 m, cells of 1..2 m); a few big objects
//   only make every query visit a wider ring.
// - Occupied cells are a dense array (GridCell: key, coordinates, first slot and capacity of the
//   cell's block in the object pool, count), indexed by an open-addressed hash table (linear
//   probing, power-of-two capacity, load <= 1/2, backward-shift deletion: no tombstones) keyed by
//   the packed coordinates. A cell whose last object leaves is removed at once (swap with the last
//   dense cell), so memory is proportional to the occupied cells and the table shrinks when they
//   drop below 1/8 of it.
// - Objects are slots indexed by id (GridObject: centre, radius, half-extents, sphere flag; beside
//   it, in separate arrays, its cell key and cell index). Ids should be dense (0..n-1): the slot
//   array grows to the largest id + 1. Ids are below 2^31 (kGridMaxId; the top bit is the pool's
//   box flag).
// - Each cell owns one contiguous block of a shared pool of object ids (capacity 4 << k entries;
//   blocks are recycled through one free list per capacity; the top bit of an entry marks a box).
//   A query walks a cell's ids 4 at a time: the 4 objects' centre and radius (GridObject's first
//   16 bytes) are loaded and transposed, and one SSE2 test covers them: for a sphere the exact
//   predicate, for a box a conservative one (sqrt(3) x its largest half-extent, padded) followed
//   by the exact box test. A cell keeps its ids in link order (append; removal shifts the later
//   ones down) and every walk goes from the last to the first, so results come in the same order
//   as the former intrusive lists did (most recently linked first).
// Cost model: a move that stays in its cell writes only the object's slot (the common case at
// 60 Hz); insert, remove and a move to another cell are O(1) hash work plus O(objects in the
// cell) (a scan for the id and a shift of a few ids; a block copy when a full cell doubles).
// The sole object of a cell moving to an empty cell takes the cell along (new coordinates, same
// dense index and id block: one cellRelocated event): no removal and creation, the common change
// when cells hold about one object. A move to another cell is a handful of cache misses at random
// places (old and new cell, their table slots, id blocks, and whatever the cell listener keeps);
// moveCenters overlaps those of many moves. Radius queries skip, before the hash probe, every cell
// of the range whose box grown by maxExtent() is farther than the radius.
// ---- Exact predicates (closed sets: touching counts) --------------------------------------------
// Distance of an object to a point p: a sphere's max(0, |p - c| - r); a box's distance to its
// closed box (0 inside). queryRadius reports objects at distance <= radius; queryAabb objects whose
// sphere/box touches the closed query box; kNearest the k smallest distances, ties broken by the
// smaller id. Frustum culling of the grid's objects is in culling/ (grid_cull.h: every occupied
// cell; props_cull.h: through the level's octree).
//
// ---- Statistics ---------------------------------------------------------------------------------
// Every query takes an optional GridQueryStats* and ADDS to it: cells visited (hash probes, or
// occupied cells scanned / classified), candidates (objects given the exact test), hits (objects
// reported) and bruteForceChecks (what a loop over every object would have tested: objectCount()
// per query).
//
// ---- Cell events -------------------------------------------------------------------------------
// A structure kept over the occupied cells (the props cull links each cell to an octree node:
// culling/cell_groups.h) listens to the grid's cell events (spatial/grid_cell_listener.h:
// created, changed, relocated, removed, all rebuilt, extent grown). The grid knows nothing of
// what it is for; without a listener its hot path pays one pointer test per cell event.

// ---- Threads, errors, allocation ----------------------------------------------------------------
// Queries are const, allocate nothing, throw nothing and may run from many threads at once.
// insert/remove/move/setCellSize/rebuild mutate (one thread, no concurrent queries) and may
// allocate when the object or cell tables grow. Programmer errors (unknown id, inserting an id
// twice, a non-finite centre, a cell size <= 0) are asserts; with asserts off such calls do
// nothing.
//
// Sources: Teschner et al., "Optimized Spatial Hashing for Collision Detection of Deformable
// Objects" (2003) (hashed cells of a uniform grid); Ericson, "Real-Time Collision Detection"
// (2005) §7.1 (uniform grids, loose assignment by centre) and §7.3 (hierarchical search rings);
// meshoptimizer's flat power-of-two hash tables; Knuth TAOCP vol. 3 §6.4 Algorithm R (deletion
// in linear probing without tombstones).

#include <concepts>
#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "octree_fps/geometry/aabb.h"
#include "octree_fps/spatial/grid_cell_listener.h"

namespace ofps {

inline constexpr uint32_t kGridInvalidIndex = 0xFFFFFFFFu;
inline constexpr uint32_t kGridMaxId = 0x7FFFFFFFu;       // ids are below 2^31
inline constexpr uint32_t kGridPoolIdMask = 0x7FFFFFFFu;  // pool entry -> id (top bit: box)
inline constexpr int32_t kGridCoordBits = 21;
inline constexpr int32_t kGridCoordLimit = (1 << (kGridCoordBits - 1)) - 1;  // 1048575

// Work counters of one or more queries (added to, never reset by a query).
struct GridQueryStats {
  uint64_t cellsVisited = 0;      // hash lookups, or occupied cells scanned/classified
  uint64_t candidates = 0;        // objects given the exact test
  uint64_t hits = 0;              // objects reported
  uint64_t bruteForceChecks = 0;  // objects a brute-force loop would have tested
  GridQueryStats& operator+=(const GridQueryStats& o) {
    cellsVisited += o.cellsVisited;
    candidates += o.candidates;
    hits += o.hits;
    bruteForceChecks += o.bruteForceChecks;
    return *this;
  }
};

// One occupied cell. 32 bytes.
struct GridCell {
  uint64_t key = 0;                   // packed clamped coordinates (packGridKey)
  int32_t x = 0, y = 0, z = 0;        // cell coordinates (clamped)
  uint32_t head = kGridInvalidIndex;  // first pool entry of the cell's block
  uint32_t count = 0;                 // objects in the cell (> 0 for every stored cell)
  uint32_t capacity = 0;              // slots of the block (4 << k)
};
static_assert(sizeof(GridCell) == 32, "GridCell must stay 32 bytes");

// One object's shape. 32 bytes. (Its cell and pool slot live in separate arrays: the move
// early-out reads only the key array.)
struct GridObject {
  glm::vec3 center{0.0f};
  float radius = 0.0f;          // sphere radius; for a box the largest half-extent
  glm::vec3 halfExtents{0.0f};  // sphere: (r, r, r)
  uint32_t isSphere = 1;
  Aabb bounds() const { return Aabb::fromCenterHalfExtents(center, halfExtents); }
};
static_assert(sizeof(GridObject) == 32, "GridObject must stay 32 bytes (two per cache line)");

// One k-nearest result.
struct GridNeighbor {
  uint32_t id = kGridInvalidIndex;
  float distance = 0.0f;  // object distance to the query point (0 when it contains the point)
};

// Packs clamped cell coordinates (each in [-kGridCoordLimit, kGridCoordLimit]) into a key.
inline uint64_t packGridKey(int32_t x, int32_t y, int32_t z) {
  const uint64_t bias = static_cast<uint64_t>(kGridCoordLimit) + 1;
  return ((static_cast<uint64_t>(static_cast<int64_t>(x)) + bias) << 42) |
         ((static_cast<uint64_t>(static_cast<int64_t>(y)) + bias) << 21) |
         (static_cast<uint64_t>(static_cast<int64_t>(z)) + bias);
}

// Called per reported object; return false to stop the query.
using GridVisitor = bool (*)(void* context, uint32_t id);

// A GridVisitor calling the callable F behind context: f(id) returning bool (false stops) or
// void. What the lambda forms of the grid's queries (and cullGridFrustum's) pass.
template <class F>
bool gridVisitorThunk(void* context, uint32_t id) {
  F& f = *static_cast<std::remove_reference_t<F>*>(context);
  if constexpr (std::is_void_v<decltype(f(id))>) {
    f(id);
    return true;
  } else {
    return static_cast<bool>(f(id));
  }
}

class HashGrid {
 public:
  // cellSize > 0: edge of a cell (default 1). Choose about the typical query radius (and at
  // least the typical object diameter).
  explicit HashGrid(float cellSize = 1.0f);

  // ---- Objects --------------------------------------------------------------------------------
  // Adds id as a sphere / a box. Asserts that id is not already in the grid.
  void insertSphere(uint32_t id, const glm::vec3& center, float radius);
  void insertBox(uint32_t id, const glm::vec3& center, const glm::vec3& halfExtents);
  // Removes id (asserts that it is in the grid).
  void remove(uint32_t id);
  // New centre (and size: pass the same to keep it). Early out: when the centre stays in its cell
  // only the slot is written. Returns true when the object changed cell.
  bool moveSphere(uint32_t id, const glm::vec3& center, float radius);
  bool moveBox(uint32_t id, const glm::vec3& center, const glm::vec3& halfExtents);
  bool move(uint32_t id, const glm::vec3& center);  // keeps the size
  // Moves every object id < centers.size() that is in the grid to centers[id] (keeping its
  // size): the same final state as move(id, centers[id]) for id = 0, 1, ... in turn (same cells,
  // same link order, so the same query answers and orders), but built for a whole frame of
  // moves: a first pass writes the centres and takes the early out for every object that stays
  // in its cell (streaming, no hash work); a second pass relinks the objects that changed cell
  // with their table slots, cells and id blocks prefetched a few changes ahead, so that the
  // cache misses of consecutive changes overlap instead of queueing. Returns the number of
  // objects that changed cell. O(centers.size() + changes x objects per cell). Allocates only
  // when the scratch list of changes grows past its largest size so far.
  uint32_t moveCenters(std::span<const glm::vec3> centers);
  bool contains(uint32_t id) const { return id < cell_.size() && cell_[id] != kGridInvalidIndex; }
  // Dense index (into cells()) of the cell that holds id; requires contains(id).
  uint32_t cellIndexOf(uint32_t id) const { return cell_[id]; }
  const GridObject& object(uint32_t id) const { return objects_[id]; }
  // One past the largest id slot (ids below it may or may not be in the grid: contains()).
  uint32_t idEnd() const { return static_cast<uint32_t>(cell_.size()); }
  void clear();  // removes everything (keeps capacity)

  // ---- Parameters -------------------------------------------------------------------------------
  float cellSize() const { return cellSize_; }
  // Changes the cell size and re-buckets every object: O(n). Also recomputes maxExtent().
  void setCellSize(float cellSize);
  // Re-buckets with the same cell size; recomputes maxExtent() (after big objects left).
  void rebuild() { setCellSize(cellSize_); }
  // Largest radius / half-extent inserted or moved in since the last rebuild (queries grow their
  // cell ranges by it).
  float maxExtent() const { return maxExtent_; }

  // ---- Queries (const, thread-safe, no allocation) ----------------------------------------------
  // Objects at distance <= radius from center. Visits cells of the box center +- (radius +
  // maxExtent()), or scans the occupied cells when that box has more cells than are occupied.
  // Returns the number reported. Order: deterministic for a given history of insert/move/remove
  // calls, otherwise unspecified (sort the ids when order matters).
  uint32_t queryRadius(const glm::vec3& center, float radius, GridVisitor visitor, void* context,
                       GridQueryStats* ioStats = nullptr) const;
  // Objects touching the closed box.
  uint32_t queryAabb(const Aabb& box, GridVisitor visitor, void* context,
                     GridQueryStats* ioStats = nullptr) const;
  // Buffer forms: write up to out.size() ids, return the TOTAL count (may exceed out.size()).
  uint32_t collectRadius(const glm::vec3& center, float radius, std::span<uint32_t> out,
                         GridQueryStats* ioStats = nullptr) const;
  uint32_t collectAabb(const Aabb& box, std::span<uint32_t> out,
                       GridQueryStats* ioStats = nullptr) const;
  // The occupied cells queryRadius(center, radius) gives the exact test (their objects are its
  // candidates), as dense cell indices (into cells()) in visiting order, each once: what a debug
  // view shows of a query. Writes up to out.size(), returns the total; adds the same stats as
  // queryRadius.
  uint32_t radiusQueryCells(const glm::vec3& center, float radius, std::span<uint32_t> out,
                            GridQueryStats* ioStats = nullptr) const;
  // Lambda forms: f(uint32_t id) returning bool (false stops) or void.
  template <class F>
  requires std::invocable<F&, uint32_t> uint32_t queryRadius(const glm::vec3& center, float radius,
                                                             F&& f,
                                                             GridQueryStats* ioStats = nullptr)
  const { return queryRadius(center, radius, &gridVisitorThunk<F>, &f, ioStats); }
  template <class F>
  requires std::invocable<F&, uint32_t> uint32_t queryAabb(const Aabb& box, F&& f,
                                                           GridQueryStats* ioStats = nullptr)
  const { return queryAabb(box, &gridVisitorThunk<F>, &f, ioStats); }

  // The min(out.size(), objectCount()) objects nearest to p, written to out sorted by (distance,
  // id); returns how many. Rings of cells (Chebyshev shells) grow around p's cell until no
  // unvisited cell can hold an object nearer than the k-th found (bound: distance from p to the
  // visited cube minus maxExtent(), less a relative rounding margin); when a shell would have
  // more cells than are occupied, the remaining occupied cells are scanned instead. Exact,
  // ties included. O(k) per candidate (insertion into the sorted output).
  uint32_t kNearest(const glm::vec3& p, std::span<GridNeighbor> out,
                    GridQueryStats* ioStats = nullptr) const;

  // ---- Query cache ------------------------------------------------------------------------------
  // Copies every object's centre and radius into cell order (4-wide packs beside the id pool), so
  // that radius and box queries stream them instead of gathering them by id. O(objects), one
  // pass; call it once per frame after the moves, before many queries (e.g. every prop asking for
  // its neighbours). Any insert, remove, move, setCellSize or clear makes the cache stale, and
  // queries then read the objects by id again (same answers, the cache only changes speed).
  void refreshQueryCache();
  bool queryCacheFresh() const { return packsFresh_; }

  // ---- Structure --------------------------------------------------------------------------------
  uint32_t objectCount() const { return objectCount_; }
  uint32_t occupiedCells() const { return static_cast<uint32_t>(cells_.size()); }
  std::span<const GridCell> cells() const { return cells_; }  // dense, unordered
  // Cell box (not grown by maxExtent) of an occupied cell, for debug drawing.
  Aabb cellBounds(const GridCell& cell) const;
  // Clamped cell coordinates of a point.
  void cellOf(const glm::vec3& p, int32_t& outX, int32_t& outY, int32_t& outZ) const;
  // Dense index of the cell with these (clamped) coordinates, or kGridInvalidIndex.
  uint32_t findCell(int32_t x, int32_t y, int32_t z) const;
  // Id of the i-th object of an occupied cell (i < cell.count), in link order.
  uint32_t cellObject(const GridCell& cell, uint32_t i) const {
    return pool_[cell.head + i] & kGridPoolIdMask;
  }
  // The pool entries of an id block (ids with the box bit on top), for prefetching.
  const uint32_t* poolData(uint32_t head) const { return pool_.data() + head; }
  // True for a cell at the coordinate limit on some axis: it holds everything beyond the range,
  // so it has no finite bounds (queries test its objects one by one).
  static bool isBorderCell(const GridCell& cell);

  // ---- Cell events (see "Cell events" above) ---------------------------------------------------
  // The one listener told of every cell change (nullptr: none). Replaces any previous one, which
  // hears nothing more. The listener must detach itself before it is destroyed.
  void setCellListener(GridCellListener* listener) { listener_.p = listener; }
  GridCellListener* cellListener() const { return listener_.p; }

  // Bytes held (capacities of the object slots, dense cells and hash table).
  size_t bytes() const;
  uint32_t tableCapacity() const { return static_cast<uint32_t>(table_.size()); }
  // Checks every invariant: each object in the cell of its centre, lists consistent with counts,
  // no empty cell, every cell found through the table, table load <= 1/2, maxExtent covers every
  // object. Returns false with a message. O(n + cells + capacity).
  bool validate(std::string* outError = nullptr) const;

 private:
  struct Slot {
    uint64_t key;
    uint32_t cell;  // dense index; kGridInvalidIndex = empty slot
    uint32_t pad;
  };
  int32_t coord(float v) const;
  void insertObject(uint32_t id, const glm::vec3& center, const glm::vec3& halfExtents,
                    float radius, bool sphere);
  bool moveObject(uint32_t id, const glm::vec3& center, const glm::vec3& halfExtents, float radius,
                  bool sphere);
  // Appends the pool entry (id, box bit on top) to the cell (x, y, z), creating it.
  void link(uint32_t id, int32_t x, int32_t y, int32_t z, uint32_t entry);
  // Takes id out of its cell (removing the cell when it empties); returns its pool entry.
  uint32_t unlink(uint32_t id);
  static uint32_t poolEntry(uint32_t id, bool sphere) {
    return id | (sphere ? 0u : ~kGridPoolIdMask);  // the top bit marks a box
  }
  void relink(uint32_t id, int32_t x, int32_t y, int32_t z, uint64_t key);  // to another cell
  uint32_t findOrAddCell(int32_t x, int32_t y, int32_t z);
  uint32_t findKey(uint64_t key) const;
  void removeCell(uint32_t cellIndex);
  void eraseTableSlot(uint32_t cellIndex);  // backward-shift deletion of the cell's table slot
  // Gives an occupied cell new coordinates (key absent from the table): table slot and cell.
  void relocateCell(uint32_t cellIndex, int32_t x, int32_t y, int32_t z, uint64_t key);
  void rehash(uint32_t capacity);
  void growExtent(float radius);
  // Pool blocks: allocate / free a block of capacity entries (4 << k); the entry of an object.
  uint32_t allocBlock(uint32_t capacity);
  void freeBlock(uint32_t first, uint32_t capacity);
  uint32_t poolSlot(uint32_t id) const;
  uint32_t gatherGroup(uint32_t base, uint32_t left, uint32_t e[4]) const;
  template <class Filter, class Exact, class Emit>
  bool scanCell(const GridCell& cell, Filter&& filter, Exact&& exact, Emit&& emit,
                uint32_t& hits) const;
  // onCell(cell) runs for every occupied cell given the exact test, before its objects.
  template <class Emit, class OnCell>
  uint32_t radiusImpl(const glm::vec3& center, float radius, Emit&& emit, OnCell&& onCell,
                      GridQueryStats* ioStats) const;
  template <class Emit>
  uint32_t aabbImpl(const Aabb& box, Emit&& emit, GridQueryStats* ioStats) const;
  // Visits the cells in [lo, hi] (clamped coordinates) whose gap2(0, x) + gap2(1, y) +
  // gap2(2, z) (squared distances per axis from the query) is <= limit, without probing the
  // others; scans the occupied cells instead when the range is larger than the occupied count.
  // cellHits(cell) tests and reports the cell's objects and returns false when the query stopped.
  template <class Gap2, class CellHits>
  void visitRange(const int32_t lo[3], const int32_t hi[3], Gap2&& gap2, float limit,
                  CellHits&& cellHits, GridQueryStats& st) const;

  // Query cache: centres and radii of pool slots 4i..4i+3 (valid while packsFresh_).
  struct alignas(16) Pack {
    float x[4], y[4], z[4], r[4];
  };

  float cellSize_ = 1.0f;
  float invCellSize_ = 1.0f;
  float maxExtent_ = 0.0f;
  uint32_t objectCount_ = 0;
  std::vector<GridObject> objects_;  // by id: shape
  std::vector<uint64_t> key_;        // by id: packed cell key (valid while in the grid)
  std::vector<uint32_t> cell_;       // by id: dense cell index; kGridInvalidIndex = not in grid
  std::vector<uint32_t> pool_;       // ids (top bit: box) of every cell's block
  std::vector<Pack> packs_;          // query cache, by pool slot / 4
  bool packsFresh_ = false;
  std::vector<std::vector<uint32_t>> freeBlocks_;  // by k: first slots of free blocks of 4 << k
  std::vector<GridCell> cells_;                    // dense occupied cells
  std::vector<Slot> table_;                        // power-of-two open-addressed index of cells_
  // moveCenters' list of the objects that change cell (kept to reuse its capacity).
  struct PendingMove {
    uint64_t key;
    uint32_t id;
    int32_t x, y, z;
  };
  std::vector<PendingMove> moveScratch_;
  // The cell listener: a pointer that a copy of the grid does not inherit, and whose owner hears
  // of a grid assigned over or destroyed (declared last: assignments copy it after the rest).
  struct ListenerSlot {
    GridCellListener* p = nullptr;
    ListenerSlot() = default;
    ListenerSlot(const ListenerSlot&) {}
    ListenerSlot(ListenerSlot&& o) noexcept { o.rebuilt(); }
    ListenerSlot& operator=(const ListenerSlot&) {
      rebuilt();
      return *this;
    }
    ListenerSlot& operator=(ListenerSlot&& o) noexcept {
      rebuilt();
      o.rebuilt();
      return *this;
    }
    ~ListenerSlot() {
      if (p) p->gridDestroyed();
    }
    void rebuilt() const {
      if (p) p->cellsRebuilt();
    }
  };
  ListenerSlot listener_;
};

// Distance from p to the object's closed shape (0 inside).
float gridObjectDistance(const GridObject& o, const glm::vec3& p);

}  // namespace ofps
