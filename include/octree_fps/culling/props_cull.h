#pragma once
// Props culled through the level's octree: one frustum traversal decides what is drawn, the
// level's triangle ranges and the visible props together.
//
// Frame and units: world space, the level's units (the demo: metres, Y up, right-handed); the
// grid and the octree must share them.
//
// ---- Links: every occupied grid cell belongs to one octree node ---------------------------------
// A grid cell's objects lie inside its LOOSE bounds: the cell grown by the grid's largest object
// extent (HashGrid::maxExtent), plus a relative padding of a few float steps that absorbs the
// rounding of the cell assignment (so the bounds contain every object's box exactly as classifyAabb
// sees it). OctreeCellLinks links the cell to the node found by descending from the root into the
// SMALLEST child whose bounds (Octree::nodeBounds, the very boxes cullOctree classifies) contain
// those loose bounds, until no child contains them: the deepest node on that path. A cell whose
// loose bounds leave the root's bounds (props thrown out of the level, far spawns, the grid's
// border cells) goes to the "outside" group, tested on its own.
// Why this rule: a node's box contains the boxes of everything linked to it, so a node outside
// the frustum hides its cells' props and a node inside shows them, both without a test; the
// deeper the node, the smaller its box, so the sooner the traversal settles a cell. Among
// overlapping children (the octree is loose) the smallest box is the likeliest to be settled
// early (bench/micro/GRID_RESULTS.md, "Props cull through the octree", compares the rules).
// The links live in a CellGroups (culling/cell_groups.h: group = node index, nodeCount() = the
// outside group, then the chunks; per group a contiguous block of cell entries and a subtree
// cell count) that listens to the grid's cell events, so they stay right through every cell
// creation, removal and swap while the grid knows nothing of culling.
// Chunks: a node high in the tree (the arena's floor: a few large triangles kept at level 1)
// collects cells from a wide area, and a view from inside it intersects its box, so every one
// of those cells would be tested. So a node's cells are split in space: the map's blocks linked
// to a node are grouped by a coarse lattice (chunkCells() cells a side, default 8), each group a
// "chunk" below its node whose box is the exact union of its blocks' loose bounds (known at
// relink: the map is static). The traversal classifies a chunk's box before its cells (cells
// tested with and without chunks: bench/micro/GRID_RESULTS.md).
// The link map: while the octree and the extent are fixed, a cell's node depends only on its
// coordinates, so relink() computes it once for the whole level and hands the grid a table of
// nodes (CellGroupMap) over blocks of 2^s x 2^s x 2^s cells (s the smallest whose table
// fits maxMapEntries(); the rule above applied to the block's loose bounds, painted top-down from
// the root: O(blocks x depth) once per relink). A cell created by a move or an insert then joins
// its node in O(1) through the cell event; nothing is linked per frame (linking each new cell by
// a climb and descent from its prop's old node measured far slower: bench/micro/GRID_RESULTS.md).
// When the links stop holding (a larger prop, a new cell size, another octree build), the cull
// falls back to the grid's linear cull until sync() relinks: a late sync() costs speed, never
// correctness.
//
// ---- The traversal ------------------------------------------------------------------------------
// cullLevelAndProps is a client of the one octree frustum walk (culling/frustum_walk_inl.h), the
// walk cullOctree uses, so it reports the same level ranges; its hooks add at each node:
// - outside: the node's subtree and every cell linked below it are skipped;
// - fully inside: the level range is the whole subtree; every prop of every cell linked in the
//   subtree is visible without a test (the subtree's nodes that hold cells, found through the
//   groups' occupied-subtree flags, are walked without classification);
// - intersecting: each chunk of the node holding cells is classified with the planes still
//   active (outside: skipped; inside: its props accepted), then each cell of an intersecting
//   chunk (and any cell linked to the node itself) with the planes left, four at a time (SSE2;
//   one grow for the frame, padded for the largest coordinates of the level, so the box holds
//   the cell's loose bounds); an inside cell accepts its props, an intersecting one classifies
//   each prop's box with the planes left after the cell.
// Then the outside group's cells are classified one by one with all six planes.
// The answer is exactly brute force's: a prop is reported iff classifyAabb(frustum, its box)
// is not Outside (monotone float arithmetic: a box inside another is never further out).
// Cost: O(nodes the level's cull visits + chunks of intersecting nodes + cells of intersecting
// chunks + their props + visible props + outside cells).
// Memory: per occupied cell, its group entry (CellGroups); per relink, the map (4 bytes per block:
// at most 8 blocks per occupied cell, see setMaxMapEntries, and at most maxMapEntries()), 24 bytes
// per chunk (at most one per block) and 4 per node. relink() is O(blocks x depth +
// cells x depth) (for the octree slider and level swaps, not per frame; its time at 100k props
// is in bench/micro/GRID_RESULTS.md).
//
// ---- Threads, allocation ------------------------------------------------------------------------
// cullLevelAndProps and validate are const: no allocation (validate allocates), no exceptions, safe
// from many threads while nothing mutates. relink and sync make this object the grid's cell
// listener (one thread, no concurrent queries); relink allocates (the parent table, the map, the
// chunks), sync only when it relinks. An OctreeCellLinks and its grid may be destroyed in either
// order.
//
// Sources: Assarsson and Möller, "Optimized View Frustum Culling Algorithms for Bounding Boxes"
// (2000) (p/n-vertex, plane masking); Ulrich, "Loose Octrees" (Game Programming Gems, 2000)
// (objects kept at the deepest node whose loose bounds contain them).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "octree_fps/culling/cell_groups.h"
#include "octree_fps/culling/frustum.h"
#include "octree_fps/geometry/aabb.h"

namespace ofps {

class HashGrid;
class Octree;

// One frame's props cull (added to, never reset by the cull).
struct PropsCullStats {
  uint64_t nodesVisited = 0;      // octree nodes classified (the level's traversal)
  uint64_t cellsTested = 0;       // grid cells whose loose bounds were classified
  uint64_t cellsOccupied = 0;     // grid cells holding props
  uint64_t chunksTested = 0;      // chunk boxes (a node's cells split in space) classified
  uint64_t propsTested = 0;       // props whose box was classified
  uint64_t visible = 0;           // props reported
  uint64_t bruteForceChecks = 0;  // props a brute-force loop would classify (every prop)
  PropsCullStats& operator+=(const PropsCullStats& o) {
    nodesVisited += o.nodesVisited;
    cellsTested += o.cellsTested;
    cellsOccupied += o.cellsOccupied;
    chunksTested += o.chunksTested;
    propsTested += o.propsTested;
    visible += o.visible;
    bruteForceChecks += o.bruteForceChecks;
    return *this;
  }
};

class OctreeCellLinks {
 public:
  OctreeCellLinks() = default;
  OctreeCellLinks(const OctreeCellLinks&) = delete;  // the grid holds a pointer to the groups
  OctreeCellLinks& operator=(const OctreeCellLinks&) = delete;

  // Links every occupied cell of grid to its node of octree (see the header comment) and keeps
  // the links through the grid's cell events from then on. O(cells x depth x children). An empty
  // octree puts every cell in the outside group.
  void relink(HashGrid& grid, const Octree& octree);
  // Relinks when the links no longer hold: another grid or octree build (Octree::buildId), a
  // larger object or a new cell size (the groups dropped themselves), or a map that no longer
  // fits the occupied cells (see setMaxMapEntries). O(1) when they hold.
  void sync(HashGrid& grid, const Octree& octree);
  // True when the links were made on this grid for this build of the octree and still hold.
  bool linked(const HashGrid& grid, const Octree& octree) const;
  // Stops listening to the grid (linked() is false until the next relink).
  void detach();
  // The cell groups (nodes, the outside group, chunks) the cull reads.
  const CellGroups& groups() const { return groups_; }
  // Group of the cells outside the level's bounds (= octree.nodeCount() when linked).
  uint32_t outsideGroup() const { return nodeCount_; }

  // The node a box links to (octree.nodeCount() when the box leaves the root's bounds), starting
  // the search at `hint` (a node index, or anything >= nodeCount() for the root). parents: each
  // node's parent (as relink builds it).
  static uint32_t nodeForBox(const Octree& octree, std::span<const uint32_t> parents,
                             const Aabb& box, uint32_t hint);
  // Loose bounds of an occupied grid cell for objects up to `extent` (padded, see above).
  static Aabb looseCellBounds(const HashGrid& grid, uint32_t cell, float extent);
  // The same from the cell's coordinates.
  static Aabb looseBounds(const HashGrid& grid, int32_t x, int32_t y, int32_t z, float extent);
  // Loose bounds of the cube of cells x..x+cells-1 (same on y, z): contains the loose bounds of
  // each of its cells (the padding grows with the magnitudes, which are largest at the cube's
  // corners).
  static Aabb looseBlockBounds(const HashGrid& grid, int32_t x, int32_t y, int32_t z, int32_t cells,
                               float extent);

  // Budget of the link map: kMapEntriesPerCell entries (4 bytes each) per occupied cell at the
  // relink, at least kMinMapEntries, at most maxMapEntries() (default 2^20 = 4 MiB). The map's
  // blocks are the smallest power-of-two cubes of cells for which the level's cell box fits
  // the budget; smaller blocks link cells deeper (fewer cells tested per view). sync() relinks
  // when the occupied cells grew enough for finer blocks to fit, or shrank to a quarter of
  // what the map was made for, so the map's memory stays proportional to the occupied cells
  // (amortized: a relink per doubling or quartering). Takes effect at the next relink.
  static constexpr uint64_t kMapEntriesPerCell = 8;
  static constexpr uint64_t kMinMapEntries = 4096;
  void setMaxMapEntries(uint32_t entries) { maxMapEntries_ = entries; }
  uint32_t maxMapEntries() const { return maxMapEntries_; }
  // Entries of the current map (0 before the first relink).
  uint64_t mapEntries() const {
    return static_cast<uint64_t>(mapDim_[0]) * static_cast<uint64_t>(mapDim_[1]) *
           static_cast<uint64_t>(mapDim_[2]);
  }
  uint32_t mapShift() const { return mapShift_; }
  // Edge of a chunk in cells (rounded up to a power of two, at least one map block; default 8).
  // Takes effect at the next relink.
  void setChunkCells(uint32_t cells) { chunkCells_ = cells; }
  uint32_t chunkCells() const { return chunkCells_; }
  // Chunks: groups nodeCount() + 1 + k for k < chunkCount(), each below one node (its parent),
  // the chunks of node n being nodeChunks(n) (contiguous); chunkBounds(k) contains the loose
  // bounds of every cell that can link to chunk k.
  uint32_t chunkCount() const { return static_cast<uint32_t>(chunkBox_.size()); }
  uint32_t firstChunkGroup() const { return nodeCount_ + 1; }
  uint32_t nodeChunkBegin(uint32_t node) const { return nodeChunkFirst_[node]; }
  uint32_t nodeChunkEnd(uint32_t node) const { return nodeChunkFirst_[node + 1]; }
  const Aabb& chunkBounds(uint32_t k) const { return chunkBox_[k]; }

  // Checks every link: each linked cell's loose bounds inside its node's bounds, the node the
  // one nodeForBox gives the cell's map block (the deepest on the smallest-child path), outside
  // cells' blocks really outside the root, group parents equal to the octree's node parents, the
  // grid's invariants and the groups' (CellGroups::validate). False with a message.
  // O(cells x children + nodes).
  bool validate(const HashGrid& grid, const Octree& octree, std::string* outError = nullptr) const;

 private:
  void buildMap(HashGrid& grid, const Octree& octree);
  void assignGroups(HashGrid& grid, float extent, const int32_t lo[3], const int32_t dims[3],
                    uint32_t shift, std::vector<uint32_t> map, uint32_t outside);
  uint64_t mapBudget(uint32_t occupiedCells) const;
  bool mapOutgrown(const HashGrid& grid) const;

  CellGroups groups_;
  uint64_t buildId_ = 0;  // Octree::buildId() of the octree linked
  uint32_t nodeCount_ = 0;
  std::vector<uint32_t> parents_;  // by group: parent node (root and outside: kCellNoGroup)
  uint32_t maxMapEntries_ = 1u << 20;
  int32_t mapLo_[3] = {0, 0, 0}, mapDim_[3] = {0, 0, 0};  // the map's box (cells) and blocks
  uint32_t mapShift_ = 0;                                 // blocks of 2^mapShift_ cells
  uint64_t finerMapEntries_ = 0;  // entries the next finer blocks would need (0: none finer)
  uint32_t chunkCells_ = 8;
  uint32_t chunkShift_ = 0;               // chunks of 2^chunkShift_ blocks a side
  std::vector<uint32_t> nodeChunkFirst_;  // by node (+1): first chunk of the node
  std::vector<Aabb> chunkBox_;            // by chunk: union of its blocks' loose bounds
};

// One traversal: the level's visible ranges (levelVisitor, exactly as cullOctree reports them)
// and the visible props (ids written to outProps, up to its size; returns the TOTAL count, which
// may exceed it). When links.linked(grid, octree) is false (no octree, or links not made for
// it) the props fall back to the grid's own linear cull (cullGridFrustum, grid_cull.h) and the
// level to cullOctree: same answers, more work. levelVisitor may be null (props only).
uint32_t cullLevelAndProps(const Octree& octree, const Frustum& frustum, const HashGrid& grid,
                           const OctreeCellLinks& links, CullVisitor levelVisitor,
                           void* levelContext, std::span<uint32_t> outProps,
                           CullStats* ioLevelStats = nullptr,
                           PropsCullStats* ioPropsStats = nullptr);

// Brute force over every object of the grid: classifyAabb(frustum, box) != Outside. The
// reference the tests compare with and the benchmark's baseline. O(objects).
uint32_t cullPropsBruteForce(const Frustum& frustum, const HashGrid& grid,
                             std::span<uint32_t> outProps);

}  // namespace ofps
