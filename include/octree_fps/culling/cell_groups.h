#pragma once
// Groups of a hash grid's occupied cells, kept in step with the grid through its cell events:
// the bookkeeping under the props cull (culling/props_cull.h), which makes each octree node (and
// each chunk of a node) a group and reads a group's cells as one array.
//
// ---- What is kept -------------------------------------------------------------------------------
// The groups 0..groupCount()-1 form a forest (each group's parent, or kCellNoGroup for a root).
// A map assigns every cell its group by its coordinates: a dense table over a box of cell
// coordinates, one entry per block of 2^shift x 2^shift x 2^shift cells; cells outside the box,
// and the grid's border cells, go to the map's outside group. So a cell created by a move joins
// its group at once, O(1), and nothing is ever "pending".
// Per group: a contiguous block of CellGroupEntry (blocks of 4 << k entries in one shared pool,
// recycled per size class; swap-remove), and whether its subtree holds cells (a count of
// reasons per group: its own cells, one; each child with an occupied subtree, one; updated only
// when a group's own cells go from none to some or back, up the chain while a group's last
// reason comes or goes). Blocks, not linked lists: a traversal reads a group's cells with
// independent loads instead of a chain of dependent cache misses (the list walk measured slower:
// bench/micro/GRID_RESULTS.md).
// Each entry copies what a traversal reads of its cell (coordinates, the id block, the first id)
// so that the walk over a group streams one array instead of gathering cells at random.
//
// ---- Validity -----------------------------------------------------------------------------------
// The assignment holds for objects up to extent() (the caller grew the cells by it when it chose
// the groups) and for the cell size it was made for. active() turns false, and everything kept is
// dropped, when the grid's maxExtent() grows past extent(), when its cells are rebuilt
// (setCellSize, rebuild, a grid assigned over), when the grid is destroyed, or on detach(); the
// caller assigns again (OctreeCellLinks::sync does). clear() on the grid keeps the groups.
//
// Cost: O(1) per cell event (O(depth) when a group's first cell comes or last goes); a move that
// stays in its cell costs nothing. Memory: 12 bytes per occupied cell plus its 28-byte entry
// (blocks at most 2x full), 20 bytes per group, 4 per map block.
// Threads: the events run on the thread that mutates the grid; reads are const and may run from
// many threads while nothing mutates the grid. assign() allocates; events allocate only when a
// block or the per-cell arrays grow.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "octree_fps/spatial/grid_cell_listener.h"

namespace ofps {

class HashGrid;

inline constexpr uint32_t kCellNoGroup = 0xFFFFFFFFu;  // a root's parent; a cell of no group

// A cell as its group's block holds it. 28 bytes.
struct CellGroupEntry {
  uint32_t cell = 0xFFFFFFFFu;  // dense cell index (HashGrid::cells())
  int32_t x = 0, y = 0, z = 0;  // cell coordinates
  uint32_t head = 0;            // first pool entry of the cell's ids (HashGrid::poolData)
  uint32_t count = 0;           // objects in the cell
  uint32_t first = 0;           // the pool entry at head (id, box bit on top)
};
static_assert(sizeof(CellGroupEntry) == 28, "CellGroupEntry must stay 28 bytes");

// Which group each cell of a box of cell coordinates joins (see "What is kept").
struct CellGroupMap {
  int32_t lo[3] = {0, 0, 0};        // the box's first cell
  int32_t dims[3] = {0, 0, 0};      // blocks per axis
  uint32_t shift = 0;               // blocks of 2^shift cells a side
  std::vector<uint32_t> groups;     // groups[bx + dims[0] * (by + dims[1] * bz)]
  uint32_t outside = kCellNoGroup;  // cells beyond the box, and border cells
};

class CellGroups final : public GridCellListener {
 public:
  CellGroups() = default;
  CellGroups(const CellGroups&) = delete;
  CellGroups& operator=(const CellGroups&) = delete;
  ~CellGroups();

  // Becomes grid's cell listener (replacing any other) and assigns every occupied cell by the
  // map. parents: the forest (parents[g] < parents.size() or kCellNoGroup; no cycles). extent:
  // the largest object extent the map was made for (>= grid.maxExtent(), else nothing is kept).
  // map.groups.size() == dims[0] * dims[1] * dims[2] > 0, every entry and outside <
  // parents.size(), shift < 31; otherwise nothing is kept and false is returned.
  // O(cells x depth + groups).
  bool assign(HashGrid& grid, std::span<const uint32_t> parents, float extent, CellGroupMap map);
  // Stops listening and drops everything.
  void detach();

  // True while the assignment holds for the grid it was made on (see "Validity").
  bool active() const { return grid_ != nullptr && !parent_.empty(); }
  const HashGrid* grid() const { return grid_; }
  uint32_t groupCount() const { return static_cast<uint32_t>(parent_.size()); }
  float extent() const { return extent_; }
  const CellGroupMap& map() const { return map_; }
  uint32_t parent(uint32_t group) const { return parent_[group]; }
  // The group of an occupied cell (kCellNoGroup when not active).
  uint32_t cellGroup(uint32_t cell) const { return active() ? cellGroup_[cell] : kCellNoGroup; }
  // A group's cells, in no particular order. Valid until the grid's next mutation.
  std::span<const CellGroupEntry> groupCells(uint32_t group) const {
    const Block& b = block_[group];
    return {pool_.data() + b.first, b.count};
  }
  // True when the group or some group below it holds a cell. O(1).
  bool subtreeOccupied(uint32_t group) const { return subtree_[group] != 0; }
  // The group the map gives cell (x, y, z). O(1).
  uint32_t mappedGroup(int32_t x, int32_t y, int32_t z) const;
  // Id of the i-th object of an entry's cell (i < e.count; i = 0 read from the entry).
  uint32_t entryObject(const CellGroupEntry& e, uint32_t i) const;

  size_t bytes() const;
  // Checks every invariant against the grid: each cell in exactly one block, in the group its map
  // entry gives, its entry equal to the grid's cell; blocks inside the pool and disjoint; parents
  // acyclic; occupied-subtree counts equal to a recount. True when not active. False with a
  // message. O(cells + groups + pool).
  bool validate(std::string* outError = nullptr) const;

  // GridCellListener.
  void cellAdded(uint32_t cell) override;
  void cellContentsChanged(uint32_t cell) override;
  void cellRelocated(uint32_t cell) override;
  void cellRemoved(uint32_t cell, uint32_t last) override;
  void cellsCleared() override;
  void cellsRebuilt() override;
  void extentGrew() override;
  void gridDestroyed() override;
  void prefetchMove(uint32_t stage, uint32_t oldCell, int32_t x, int32_t y,
                    int32_t z) const override;

 private:
  friend struct CellGroupsTestAccess;  // tests misplace a cell on purpose to see validate() fail
  struct Block {
    uint32_t first = 0;     // first entry in pool_
    uint32_t count = 0;     // cells in the group
    uint32_t capacity = 0;  // 0 (no block) or 4 << k
  };
  uint32_t groupOf(uint32_t cell) const;  // by the map (border cells: outside)
  // Index into map_.groups of the block holding cell (x, y, z), or kNoSlot beyond the map's box.
  static constexpr size_t kNoSlot = ~size_t{0};
  size_t mapSlot(int32_t x, int32_t y, int32_t z) const;
  CellGroupEntry& entry(uint32_t cell) {
    return pool_[block_[cellGroup_[cell]].first + slot_[cell]];
  }
  void fillEntry(CellGroupEntry& e, uint32_t cell) const;
  void attach(uint32_t cell, uint32_t group);
  void detachCell(uint32_t cell);
  uint32_t allocBlock(uint32_t capacity);
  void freeBlock(uint32_t first, uint32_t capacity);
  void drop();  // nothing kept (keeps listening until detach or the grid's death)

  HashGrid* grid_ = nullptr;
  float extent_ = 0.0f;
  float cellSize_ = 0.0f;  // the grid's cell size the map was made for
  CellGroupMap map_;
  std::vector<uint32_t> parent_, subtree_;  // by group
  std::vector<Block> block_;                // by group
  std::vector<uint32_t> cellGroup_, slot_;  // by dense cell: group, slot in its block
  std::vector<CellGroupEntry> pool_;
  std::vector<std::vector<uint32_t>> free_;  // by k: free blocks of 4 << k entries
};

}  // namespace ofps
