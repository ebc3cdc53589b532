// Cell groups kept through the grid's cell events (contracts in cell_groups.h).
#include "octree_fps/culling/cell_groups.h"

#include <algorithm>
#include <cstring>

#include "octree_fps/assert.h"
#include "octree_fps/geometry/simd4.h"
#include "octree_fps/spatial/block_pool_inl.h"
#include "octree_fps/spatial/hash_grid.h"

namespace ofps {

CellGroups::~CellGroups() {
  detach();
}

bool CellGroups::assign(HashGrid& grid, std::span<const uint32_t> parents, float extent,
                        CellGroupMap map) {
  if (grid_ != &grid) {
    detach();
    grid_ = &grid;
    grid.setCellListener(this);
  }
  drop();
  const size_t blocks = static_cast<size_t>(std::max(map.dims[0], 0)) *
                        static_cast<size_t>(std::max(map.dims[1], 0)) *
                        static_cast<size_t>(std::max(map.dims[2], 0));
  bool ok = !parents.empty() && map.groups.size() == blocks && blocks > 0 &&
            map.outside < parents.size() && map.shift < 31 && !(grid.maxExtent() > extent);
  for (const uint32_t g : map.groups) ok = ok && g < parents.size();
  for (const uint32_t p : parents) ok = ok && (p == kCellNoGroup || p < parents.size());
  if (!ok) return false;
  parent_.assign(parents.begin(), parents.end());
  subtree_.assign(parents.size(), 0u);
  block_.assign(parents.size(), Block{});
  extent_ = extent;
  cellSize_ = grid.cellSize();
  map_ = std::move(map);
  const uint32_t nc = grid.occupiedCells();
  cellGroup_.assign(nc, kCellNoGroup);
  slot_.assign(nc, 0u);
  for (uint32_t c = 0; c < nc; ++c) attach(c, groupOf(c));
  return true;
}

void CellGroups::detach() {
  if (grid_ != nullptr && grid_->cellListener() == this) grid_->setCellListener(nullptr);
  grid_ = nullptr;
  drop();
}

void CellGroups::drop() {
  parent_.clear();
  subtree_.clear();
  block_.clear();
  cellGroup_.clear();
  slot_.clear();
  pool_.clear();
  free_.clear();
  map_ = CellGroupMap{};
  extent_ = 0.0f;
}

size_t CellGroups::mapSlot(int32_t x, int32_t y, int32_t z) const {
  const uint32_t bx = static_cast<uint32_t>(x - map_.lo[0]) >> map_.shift;
  const uint32_t by = static_cast<uint32_t>(y - map_.lo[1]) >> map_.shift;
  const uint32_t bz = static_cast<uint32_t>(z - map_.lo[2]) >> map_.shift;
  // Coordinates below lo are refused by their own compare: wrapped and shifted they may land
  // inside the box.
  if (x < map_.lo[0] || y < map_.lo[1] || z < map_.lo[2] ||
      bx >= static_cast<uint32_t>(map_.dims[0]) || by >= static_cast<uint32_t>(map_.dims[1]) ||
      bz >= static_cast<uint32_t>(map_.dims[2])) {
    return kNoSlot;
  }
  return bx + static_cast<size_t>(map_.dims[0]) * (by + static_cast<size_t>(map_.dims[1]) * bz);
}

uint32_t CellGroups::mappedGroup(int32_t x, int32_t y, int32_t z) const {
  const size_t slot = mapSlot(x, y, z);
  return slot == kNoSlot ? map_.outside : map_.groups[slot];
}

uint32_t CellGroups::groupOf(uint32_t cell) const {
  const GridCell& c = grid_->cells()[cell];
  return HashGrid::isBorderCell(c) ? map_.outside : mappedGroup(c.x, c.y, c.z);
}

uint32_t CellGroups::entryObject(const CellGroupEntry& e, uint32_t i) const {
  return (i == 0 ? e.first : grid_->poolData(e.head)[i]) & kGridPoolIdMask;
}

void CellGroups::fillEntry(CellGroupEntry& e, uint32_t cell) const {
  const GridCell& c = grid_->cells()[cell];
  e = {cell, c.x, c.y, c.z, c.head, c.count, c.count > 0 ? *grid_->poolData(c.head) : 0u};
}

void CellGroups::attach(uint32_t cell, uint32_t g) {
  Block& b = block_[g];
  if (b.count == b.capacity) {
    // Full (or none yet): a block twice as large (4 << k entries, recycled per size class).
    const uint32_t cap = b.capacity == 0 ? 4u : b.capacity * 2u;
    const uint32_t first = allocBlock(cap);
    Block& nb = block_[g];
    if (nb.count > 0) {
      std::memcpy(&pool_[first], &pool_[nb.first], sizeof(CellGroupEntry) * nb.count);
    }
    if (nb.capacity > 0) freeBlock(nb.first, nb.capacity);
    nb.first = first;
    nb.capacity = cap;
  }
  Block& blk = block_[g];
  cellGroup_[cell] = g;
  slot_[cell] = blk.count;
  fillEntry(pool_[blk.first + blk.count], cell);
  if (++blk.count == 1) {
    // The group's first own cell: one reason more to be occupied, up the chain while a group
    // gets its first reason.
    for (uint32_t a = g; a != kCellNoGroup; a = parent_[a]) {
      if (subtree_[a]++ > 0) break;
    }
  }
}

void CellGroups::detachCell(uint32_t cell) {
  const uint32_t g = cellGroup_[cell];
  Block& b = block_[g];
  // Swap-remove: the block's last cell takes this cell's slot.
  const uint32_t slot = slot_[cell];
  const CellGroupEntry moved = pool_[b.first + b.count - 1];
  pool_[b.first + slot] = moved;
  slot_[moved.cell] = slot;
  if (--b.count == 0) {  // memory stays proportional to the occupied cells
    freeBlock(b.first, b.capacity);
    b.capacity = 0;
    b.first = 0;
    // The group's own cells ran out: one reason less to be occupied, up the chain while a
    // group's last reason goes (most detaches leave other cells in the group: O(1)).
    for (uint32_t a = g; a != kCellNoGroup; a = parent_[a]) {
      if (--subtree_[a] > 0) break;
    }
  }
  cellGroup_[cell] = kCellNoGroup;
}

uint32_t CellGroups::allocBlock(uint32_t capacity) {
  return detail::allocPoolBlock(pool_, free_, capacity, CellGroupEntry{});
}

void CellGroups::freeBlock(uint32_t first, uint32_t capacity) {
  detail::freePoolBlock(free_, first, capacity);
}

// ---- Cell events --------------------------------------------------------------------------------

void CellGroups::cellAdded(uint32_t cell) {
  if (!active()) return;
  OFPS_ASSERT(cell == cellGroup_.size(), "CellGroups: a new cell is the grid's last dense cell");
  cellGroup_.push_back(kCellNoGroup);
  slot_.push_back(0);
  attach(cell, groupOf(cell));
}

void CellGroups::cellContentsChanged(uint32_t cell) {
  if (!active()) return;
  fillEntry(entry(cell), cell);
}

void CellGroups::cellRelocated(uint32_t cell) {
  if (!active()) return;
  const uint32_t to = groupOf(cell);
  if (to != cellGroup_[cell]) {
    detachCell(cell);
    attach(cell, to);
    return;
  }
  // Same group (most moves: neighbouring cells share their octree node): only the coordinates.
  fillEntry(entry(cell), cell);
}

void CellGroups::cellRemoved(uint32_t cell, uint32_t last) {
  if (!active()) return;
  OFPS_ASSERT(cell <= last && last + 1 == cellGroup_.size(),
              "CellGroups: a removed cell swaps with the grid's last dense cell");
  detachCell(cell);
  if (cell != last) {
    // The moved cell keeps its group and its slot there, which now names `cell`.
    cellGroup_[cell] = cellGroup_[last];
    slot_[cell] = slot_[last];
    entry(cell).cell = cell;
  }
  cellGroup_.pop_back();
  slot_.pop_back();
}

void CellGroups::cellsCleared() {
  if (!active()) return;
  pool_.clear();
  free_.clear();
  std::fill(block_.begin(), block_.end(), Block{});
  std::fill(subtree_.begin(), subtree_.end(), 0u);
  cellGroup_.clear();
  slot_.clear();
}

void CellGroups::cellsRebuilt() {
  drop();
}

void CellGroups::extentGrew() {
  // The groups were chosen for cells grown by extent_: a larger object voids them.
  if (active() && grid_->maxExtent() > extent_) drop();
}

void CellGroups::gridDestroyed() {
  grid_ = nullptr;
  drop();
}

void CellGroups::prefetchMove(uint32_t stage, uint32_t oldCell, int32_t x, int32_t y,
                              int32_t z) const {
  if (!active()) return;
  // Each stage fetches what the lines of the stage before point to: the old cell's group and
  // slot and the new cell's map entry; then both groups' blocks; then the entries a detach swaps
  // and an attach appends; then the slot record of the entry a detach moves.
  switch (stage) {
    case 3: {
      simd::prefetch(&cellGroup_[oldCell]);
      simd::prefetch(&slot_[oldCell]);
      const size_t slot = mapSlot(x, y, z);
      if (slot != kNoSlot) simd::prefetch(&map_.groups[slot]);
      break;
    }
    case 2:
      simd::prefetch(&block_[cellGroup_[oldCell]]);
      simd::prefetch(&block_[mappedGroup(x, y, z)]);
      break;
    case 1: {
      const Block& ob = block_[cellGroup_[oldCell]];
      simd::prefetch(pool_.data() + ob.first + slot_[oldCell]);
      if (ob.count > 0) simd::prefetch(pool_.data() + ob.first + ob.count - 1);
      const Block& nb = block_[mappedGroup(x, y, z)];
      simd::prefetch(pool_.data() + nb.first + nb.count);  // one past a full block: a hint
      break;
    }
    default: {
      const Block& ob = block_[cellGroup_[oldCell]];
      if (ob.count > 0) simd::prefetch(&slot_[pool_[ob.first + ob.count - 1].cell]);
      break;
    }
  }
}

// ---- Size and checks ----------------------------------------------------------------------------

size_t CellGroups::bytes() const {
  size_t freeLists = free_.capacity() * sizeof(std::vector<uint32_t>);
  for (const std::vector<uint32_t>& f : free_) freeLists += f.capacity() * sizeof(uint32_t);
  return (parent_.capacity() + subtree_.capacity() + cellGroup_.capacity() + slot_.capacity() +
          map_.groups.capacity()) *
             sizeof(uint32_t) +
         block_.capacity() * sizeof(Block) + pool_.capacity() * sizeof(CellGroupEntry) + freeLists;
}

bool CellGroups::validate(std::string* outError) const {
  auto fail = [&](const std::string& m) {
    if (outError) *outError = m;
    return false;
  };
  if (!active()) return true;
  const HashGrid& grid = *grid_;
  const uint32_t nc = grid.occupiedCells();
  const uint32_t ng = groupCount();
  if (grid.cellListener() != this) return fail("active, but not the grid's cell listener");
  if (cellGroup_.size() != nc || slot_.size() != nc) {
    return fail("per-cell group arrays differ in size from the cells");
  }
  if (block_.size() != ng || subtree_.size() != ng) return fail("group arrays differ in size");
  if (grid.maxExtent() > extent_) return fail("groups kept past their extent");
  if (grid.cellSize() != cellSize_) return fail("groups kept past a cell size change");
  // Every block in the pool, not overlapping, each cell once, in its own group at its own slot.
  std::vector<uint8_t> seen(nc, 0), owned(pool_.size(), 0);
  std::vector<uint32_t> direct(ng, 0);
  uint32_t listed = 0;
  for (uint32_t g = 0; g < ng; ++g) {
    const Block& b = block_[g];
    if (b.count > b.capacity || static_cast<size_t>(b.first) + b.capacity > pool_.size()) {
      return fail("group block out of the pool");
    }
    if (b.count == 0 && b.capacity != 0) return fail("empty group block kept");
    for (uint32_t s = b.first; s < b.first + b.capacity; ++s) {
      if (owned[s]) return fail("group blocks overlap");
      owned[s] = 1;
    }
    for (uint32_t i = 0; i < b.count; ++i) {
      const CellGroupEntry& e = pool_[b.first + i];
      const uint32_t c = e.cell;
      if (c >= nc) return fail("group block holds a cell index out of range");
      const GridCell& cell = grid.cells()[c];
      if (e.x != cell.x || e.y != cell.y || e.z != cell.z || e.head != cell.head ||
          e.count != cell.count || (cell.count > 0 && e.first != *grid.poolData(cell.head))) {
        return fail("group entry of cell " + std::to_string(c) + " is stale");
      }
      if (seen[c]) return fail("cell " + std::to_string(c) + " listed twice");
      seen[c] = 1;
      if (cellGroup_[c] != g) return fail("cell " + std::to_string(c) + " in another group");
      if (slot_[c] != i) return fail("cell " + std::to_string(c) + " has a stale slot");
      ++listed;
      ++direct[g];
    }
  }
  if (listed != nc) return fail("a cell is in no group block");
  for (uint32_t c = 0; c < nc; ++c) {
    if (cellGroup_[c] != groupOf(c)) {
      return fail("cell " + std::to_string(c) + " is not in the group its map entry gives");
    }
  }
  // Occupied subtrees: every group with cells of its own marks itself and its whole parent chain
  // (the chain must end within ng steps: no cycles); a group's reasons are its own cells (one)
  // plus each child whose subtree is occupied.
  std::vector<uint8_t> occupied(ng, 0);
  for (uint32_t g = 0; g < ng; ++g) {
    uint32_t steps = 0;
    for (uint32_t a = g; a != kCellNoGroup; a = parent_[a]) {
      if (a >= ng) return fail("group parent out of range");
      if (++steps > ng) return fail("group parents form a cycle");
      if (direct[g] > 0) occupied[a] = 1;
    }
  }
  std::vector<uint32_t> reasons(ng, 0);
  for (uint32_t g = 0; g < ng; ++g) {
    reasons[g] += direct[g] > 0 ? 1u : 0u;
    if (occupied[g] && parent_[g] != kCellNoGroup) ++reasons[parent_[g]];
  }
  for (uint32_t g = 0; g < ng; ++g) {
    if (reasons[g] != subtree_[g]) {
      return fail("group " + std::to_string(g) + " occupied-subtree count is stale");
    }
  }
  return true;
}

}  // namespace ofps
