// Props culled through the level's octree (contracts in props_cull.h).
#include "octree_fps/culling/props_cull.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "octree_fps/culling/cell_boxes_inl.h"
#include "octree_fps/culling/frustum_walk_inl.h"
#include "octree_fps/culling/grid_cull.h"
#include "octree_fps/geometry/frustum_inl.h"
#include "octree_fps/geometry/simd4.h"
#include "octree_fps/spatial/hash_grid.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {

namespace {

inline float volume(const Aabb& b) {
  const glm::vec3 s = b.max - b.min;
  return s.x * s.y * s.z;
}

// Writes the first out.size() ids and counts them all.
struct PropSink {
  std::span<uint32_t> out;
  uint32_t count = 0;
  void operator()(uint32_t id) {
    if (count < out.size()) out[count] = id;
    ++count;
  }
};

}  // namespace

Aabb OctreeCellLinks::looseCellBounds(const HashGrid& grid, uint32_t cell, float extent) {
  const GridCell& c = grid.cells()[cell];
  return looseBounds(grid, c.x, c.y, c.z, extent);
}

Aabb OctreeCellLinks::looseBounds(const HashGrid& grid, int32_t x, int32_t y, int32_t z,
                                  float extent) {
  return looseBlockBounds(grid, x, y, z, 1, extent);
}

Aabb OctreeCellLinks::looseBlockBounds(const HashGrid& grid, int32_t x, int32_t y, int32_t z,
                                       int32_t cells, float extent) {
  GridCell gc;
  gc.x = x;
  gc.y = y;
  gc.z = z;
  Aabb b = grid.cellBounds(gc);
  if (cells > 1) {
    // The far corner cell's max (the same float expression as its own cellBounds).
    GridCell far = gc;
    far.x = x + cells - 1;
    far.y = y + cells - 1;
    far.z = z + cells - 1;
    b.max = grid.cellBounds(far).max;
  }
  // The cell holds objects whose centre c has floor(c / cellSize) = its coordinates; c may lie a
  // few float steps outside [lo, lo + cellSize] (the division rounds), and c -+ halfExtent rounds
  // again. A padding of 2^-16 relative to the magnitudes involved is far above both.
  const float mag = std::max({std::fabs(b.min.x), std::fabs(b.min.y), std::fabs(b.min.z),
                              std::fabs(b.max.x), std::fabs(b.max.y), std::fabs(b.max.z)});
  const float grow = extent + (mag + grid.cellSize() + extent) * (1.0f / 65536.0f);
  b.min -= glm::vec3(grow);
  b.max += glm::vec3(grow);
  return b;
}

uint32_t OctreeCellLinks::nodeForBox(const Octree& octree, std::span<const uint32_t> parents,
                                     const Aabb& box, uint32_t hint) {
  const uint32_t nc = octree.nodeCount();
  if (nc == 0 || !octree.nodeBounds(0).contains(box)) return nc;  // outside the level
  // Climb from the hint to the first ancestor containing the box (the root always does).
  uint32_t n = hint < nc && hint < parents.size() ? hint : 0;
  while (n != 0 && !octree.nodeBounds(n).contains(box)) n = parents[n];
  // Descend into the smallest containing child until none contains the box.
  for (;;) {
    const uint32_t first = octree.firstChild(n);
    if (first == kOctreeInvalidIndex) return n;
    uint32_t best = kOctreeInvalidIndex;
    float bestVolume = std::numeric_limits<float>::infinity();
    for (uint32_t i = 0; i < octree.childCount(n); ++i) {
      const Aabb cb = octree.nodeBounds(first + i);
      if (!cb.contains(box)) continue;
      const float v = volume(cb);
      if (v < bestVolume) {
        bestVolume = v;
        best = first + i;
      }
    }
    if (best == kOctreeInvalidIndex) return n;
    n = best;
  }
}

bool OctreeCellLinks::linked(const HashGrid& grid, const Octree& octree) const {
  return groups_.active() && groups_.grid() == &grid && buildId_ == octree.buildId() &&
         nodeCount_ == octree.nodeCount() && groups_.groupCount() == nodeCount_ + 1 + chunkCount();
}

void OctreeCellLinks::relink(HashGrid& grid, const Octree& octree) {
  buildId_ = octree.buildId();
  nodeCount_ = octree.nodeCount();
  // Groups: one per node with the node's parent, then the outside group (a root of its own).
  parents_.assign(static_cast<size_t>(nodeCount_) + 1, kCellNoGroup);
  for (uint32_t n = 0; n < nodeCount_; ++n) {
    const uint32_t first = octree.firstChild(n);
    if (first == kOctreeInvalidIndex) continue;
    for (uint32_t i = 0; i < octree.childCount(n); ++i) parents_[first + i] = n;
  }
  buildMap(grid, octree);  // adds the chunk groups, hands the groups and the map to groups_
}

void OctreeCellLinks::detach() {
  groups_.detach();
  buildId_ = 0;
}

void OctreeCellLinks::buildMap(HashGrid& grid, const Octree& octree) {
  const float extent = grid.maxExtent();
  const uint32_t outside = nodeCount_;
  std::vector<uint32_t> map;  // handed to groups_
  int32_t lo[3] = {0, 0, 0}, dims[3] = {1, 1, 1};
  uint32_t shift = 0;
  if (nodeCount_ == 0) {  // no level: every cell outside
    map.assign(1, outside);
    nodeChunkFirst_.assign(1, 0);
    chunkBox_.clear();
    for (int a = 0; a < 3; ++a) {
      mapLo_[a] = lo[a];
      mapDim_[a] = dims[a];
    }
    mapShift_ = 0;
    finerMapEntries_ = 0;
    assignGroups(grid, extent, lo, dims, 0, std::move(map), outside);
    return;
  }
  // The cells whose cell box meets the root's bounds, one more on each side (a cell beyond can
  // never be inside the root: those go to the outside group).
  const Aabb root = octree.nodeBounds(0);
  int32_t hi[3];
  grid.cellOf(root.min, lo[0], lo[1], lo[2]);
  grid.cellOf(root.max, hi[0], hi[1], hi[2]);
  for (int a = 0; a < 3; ++a) {
    lo[a] = std::max(lo[a] - 1, -kGridCoordLimit);
    hi[a] = std::min(hi[a] + 1, kGridCoordLimit);
  }
  // Blocks of 2^shift cells per axis: the finest whose table fits the budget, which follows
  // the occupied cells (so the map's memory does) up to maxMapEntries().
  auto blocks = [&](uint32_t s, int a) { return ((hi[a] - lo[a]) >> s) + 1; };
  auto entries = [&](uint32_t s) {
    return static_cast<uint64_t>(blocks(s, 0)) * static_cast<uint64_t>(blocks(s, 1)) *
           static_cast<uint64_t>(blocks(s, 2));
  };
  const uint64_t budget = mapBudget(grid.occupiedCells());
  for (;; ++shift) {
    if (entries(shift) <= budget || shift >= 20) break;
  }
  finerMapEntries_ = shift > 0 ? entries(shift - 1) : 0;
  for (int a = 0; a < 3; ++a) dims[a] = blocks(shift, a);
  const int32_t side = 1 << shift;
  map.assign(
      static_cast<size_t>(dims[0]) * static_cast<size_t>(dims[1]) * static_cast<size_t>(dims[2]),
      outside);
  // looseBlockBounds of every block from per-axis tables: a block's cell-box ends on axis a
  // depend only on its index on that axis, and its padding only on the largest magnitude, a max
  // over the axes (exact), so a few loads give the very floats looseBlockBounds computes (the
  // paint asks for a block's box once per node level: this is most of relink's time).
  std::vector<float> axisLo[3], axisHi[3], axisMag[3];
  for (int a = 0; a < 3; ++a) {
    const size_t na = static_cast<size_t>(dims[a]);
    axisLo[a].resize(na);
    axisHi[a].resize(na);
    axisMag[a].resize(na);
    for (size_t i = 0; i < na; ++i) {
      const int32_t c0 = lo[a] + static_cast<int32_t>(i) * side;
      const float l = static_cast<float>(c0) * grid.cellSize();
      const float h = (static_cast<float>(c0 + side - 1) + 1.0f) * grid.cellSize();
      axisLo[a][i] = l;
      axisHi[a][i] = h;
      axisMag[a][i] = std::max(std::fabs(l), std::fabs(h));
    }
  }
  const float cellSize = grid.cellSize();
  auto blockBox = [&](int32_t bx, int32_t by, int32_t bz) {
    const size_t i[3] = {static_cast<size_t>(bx), static_cast<size_t>(by), static_cast<size_t>(bz)};
    const float mag = std::max({axisMag[0][i[0]], axisMag[1][i[1]], axisMag[2][i[2]]});
    const float grow = extent + (mag + cellSize + extent) * (1.0f / 65536.0f);
    return Aabb{glm::vec3(axisLo[0][i[0]] - grow, axisLo[1][i[1]] - grow, axisLo[2][i[2]] - grow),
                glm::vec3(axisHi[0][i[0]] + grow, axisHi[1][i[1]] + grow, axisHi[2][i[2]] + grow)};
  };
  // The blocks whose cells meet a box (a superset of those whose loose bounds it contains).
  auto blockRange = [&](const Aabb& box, int32_t bLo[3], int32_t bHi[3]) {
    int32_t cLo[3], cHi[3];
    grid.cellOf(box.min, cLo[0], cLo[1], cLo[2]);
    grid.cellOf(box.max, cHi[0], cHi[1], cHi[2]);
    for (int a = 0; a < 3; ++a) {
      bLo[a] = std::clamp((cLo[a] - lo[a]) >> shift, 0, dims[a] - 1);
      bHi[a] = std::clamp((cHi[a] - lo[a]) >> shift, 0, dims[a] - 1);
      if (cHi[a] < lo[a]) bHi[a] = -1;  // empty
    }
  };
  // Paint top-down: a node's children, largest first, take every block that the node holds (or a
  // larger sibling took) and whose loose bounds they contain: each block ends at the node that
  // nodeForBox's descent (into the smallest containing child, the first of equals) would pick.
  auto at = [&](int32_t x, int32_t y, int32_t z) -> uint32_t& {
    return map[static_cast<size_t>(x) + static_cast<size_t>(dims[0]) *
                                            (static_cast<size_t>(y) + static_cast<size_t>(dims[1]) *
                                                                          static_cast<size_t>(z))];
  };
  {
    int32_t bLo[3], bHi[3];
    blockRange(root, bLo, bHi);
    for (int32_t z = bLo[2]; z <= bHi[2]; ++z)
      for (int32_t y = bLo[1]; y <= bHi[1]; ++y)
        for (int32_t x = bLo[0]; x <= bHi[0]; ++x)
          if (root.contains(blockBox(x, y, z))) at(x, y, z) = 0;
  }
  std::vector<uint32_t> work{0};
  std::vector<std::pair<float, uint32_t>> kids;
  std::vector<float> vol(nodeCount_, 0.0f);
  while (!work.empty()) {
    const uint32_t n = work.back();
    work.pop_back();
    const uint32_t first = octree.firstChild(n);
    if (first == kOctreeInvalidIndex) continue;
    kids.clear();
    for (uint32_t i = 0; i < octree.childCount(n); ++i) {
      vol[first + i] = volume(octree.nodeBounds(first + i));
      kids.push_back({vol[first + i], first + i});
    }
    // Largest first; among equals the first child first (it keeps what it took: strict <).
    std::stable_sort(kids.begin(), kids.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    for (const auto& [v, c] : kids) {
      const Aabb cb = octree.nodeBounds(c);
      int32_t bLo[3], bHi[3];
      blockRange(cb, bLo, bHi);
      for (int32_t z = bLo[2]; z <= bHi[2]; ++z)
        for (int32_t y = bLo[1]; y <= bHi[1]; ++y)
          for (int32_t x = bLo[0]; x <= bHi[0]; ++x) {
            uint32_t& m = at(x, y, z);
            const bool takes = m == n || (m != outside && m != c && parents_[m] == n && v < vol[m]);
            if (takes && cb.contains(blockBox(x, y, z))) m = c;
          }
      work.push_back(c);
    }
  }
  for (int a = 0; a < 3; ++a) {
    mapLo_[a] = lo[a];
    mapDim_[a] = dims[a];
  }
  mapShift_ = shift;
  // Chunks: a node's blocks split by a coarse lattice (chunkCells() cells a side); each chunk is
  // a group below its node whose box is the union of its blocks' loose bounds (exact, known
  // now), so that the cull settles a large node's cells a chunk at a time.
  uint32_t cshift = 0;
  while ((1u << (cshift + shift)) < std::max<uint32_t>(chunkCells_, 1u) && cshift < 20) ++cshift;
  chunkShift_ = cshift;
  const uint64_t cdim[2] = {(static_cast<uint64_t>(dims[0]) >> cshift) + 1,
                            (static_cast<uint64_t>(dims[1]) >> cshift) + 1};
  constexpr uint32_t kChunkTag = 0x80000000u;      // marks a provisional chunk number in the map
  std::unordered_map<uint64_t, uint32_t> chunkOf;  // (node, chunk coords) -> provisional chunk
  std::vector<uint32_t> chunkNode;
  std::vector<Aabb> chunkBox;
  for (int32_t z = 0; z < dims[2]; ++z)
    for (int32_t y = 0; y < dims[1]; ++y)
      for (int32_t x = 0; x < dims[0]; ++x) {
        uint32_t& m = at(x, y, z);
        if (m >= nodeCount_) continue;
        // Chunk lattice index (fewer chunks than blocks: below 2^32), beside the node.
        const uint64_t lattice = static_cast<uint64_t>(x >> cshift) +
                                 cdim[0] * (static_cast<uint64_t>(y >> cshift) +
                                            cdim[1] * static_cast<uint64_t>(z >> cshift));
        const uint64_t key = (static_cast<uint64_t>(m) << 32) | lattice;
        const auto [it, added] = chunkOf.try_emplace(key, static_cast<uint32_t>(chunkNode.size()));
        const Aabb bb = blockBox(x, y, z);
        if (added) {
          chunkNode.push_back(m);
          chunkBox.push_back(bb);
        } else {
          Aabb& cb = chunkBox[it->second];
          cb.min = glm::min(cb.min, bb.min);
          cb.max = glm::max(cb.max, bb.max);
        }
        m = kChunkTag | it->second;  // provisional, remapped below
      }
  // Number the chunks node by node (each node's chunks contiguous): a counting sort.
  const uint32_t chunks = static_cast<uint32_t>(chunkNode.size());
  nodeChunkFirst_.assign(static_cast<size_t>(nodeCount_) + 1, 0);
  for (const uint32_t n : chunkNode) ++nodeChunkFirst_[n + 1];
  for (uint32_t n = 0; n < nodeCount_; ++n) nodeChunkFirst_[n + 1] += nodeChunkFirst_[n];
  std::vector<uint32_t> fill(nodeChunkFirst_.begin(), nodeChunkFirst_.end() - 1), order(chunks);
  chunkBox_.resize(chunks);
  parents_.resize(static_cast<size_t>(nodeCount_) + 1 + chunks);
  for (uint32_t i = 0; i < chunks; ++i) {
    const uint32_t k = fill[chunkNode[i]]++;
    order[i] = k;
    chunkBox_[k] = chunkBox[i];
    parents_[nodeCount_ + 1 + k] = chunkNode[i];
  }
  for (int32_t z = 0; z < dims[2]; ++z)
    for (int32_t y = 0; y < dims[1]; ++y)
      for (int32_t x = 0; x < dims[0]; ++x) {
        uint32_t& m = at(x, y, z);
        if (m & kChunkTag) m = nodeCount_ + 1 + order[m & ~kChunkTag];
      }
  assignGroups(grid, extent, lo, dims, shift, std::move(map), outside);
}

void OctreeCellLinks::assignGroups(HashGrid& grid, float extent, const int32_t lo[3],
                                   const int32_t dims[3], uint32_t shift, std::vector<uint32_t> map,
                                   uint32_t outside) {
  CellGroupMap m;
  for (int a = 0; a < 3; ++a) {
    m.lo[a] = lo[a];
    m.dims[a] = dims[a];
  }
  m.shift = shift;
  m.groups = std::move(map);
  m.outside = outside;
  groups_.assign(grid, parents_, extent, std::move(m));
}

uint64_t OctreeCellLinks::mapBudget(uint32_t occupiedCells) const {
  const uint64_t perCells = kMapEntriesPerCell * static_cast<uint64_t>(occupiedCells);
  return std::min<uint64_t>(std::max<uint32_t>(maxMapEntries_, 1u),
                            std::max<uint64_t>(kMinMapEntries, perCells));
}

bool OctreeCellLinks::mapOutgrown(const HashGrid& grid) const {
  const uint64_t budget = mapBudget(grid.occupiedCells());
  // Finer blocks fit now (the cells grew), or the map holds more than four times what the
  // cells would get (they shrank): both need the cells to have changed by a factor, so the
  // relinks are amortized over that many cell creations or removals.
  const bool grew = finerMapEntries_ != 0 && finerMapEntries_ <= budget;
  const bool shrank = mapEntries() > kMinMapEntries && mapEntries() > 4 * budget;
  return grew || shrank;
}

void OctreeCellLinks::sync(HashGrid& grid, const Octree& octree) {
  if (!linked(grid, octree) || mapOutgrown(grid)) relink(grid, octree);
}

bool OctreeCellLinks::validate(const HashGrid& grid, const Octree& octree,
                               std::string* outError) const {
  auto fail = [&](const std::string& m) {
    if (outError) *outError = m;
    return false;
  };
  if (!linked(grid, octree)) return fail("links not made for this octree (call relink)");
  for (uint32_t g = 0; g < parents_.size(); ++g) {
    if (groups_.parent(g) != parents_[g]) return fail("group parent differs from the octree");
  }
  for (uint32_t n = 0; n < nodeCount_; ++n) {
    const uint32_t first = octree.firstChild(n);
    if (first == kOctreeInvalidIndex) continue;
    for (uint32_t i = 0; i < octree.childCount(n); ++i) {
      if (parents_[first + i] != n) return fail("stale parent table");
    }
  }
  const float extent = groups_.extent();
  const int32_t side = 1 << mapShift_;
  for (uint32_t c = 0; c < grid.occupiedCells(); ++c) {
    uint32_t g = groups_.cellGroup(c);
    const GridCell& cell = grid.cells()[c];
    const std::string name = "cell (" + std::to_string(cell.x) + ", " + std::to_string(cell.y) +
                             ", " + std::to_string(cell.z) + ")";
    if (HashGrid::isBorderCell(cell)) {
      if (g != outsideGroup()) return fail(name + " is a border cell but not in the outside group");
      continue;
    }
    const Aabb loose = looseCellBounds(grid, c, extent);
    // The node the rule gives the cell's block of the map (a cell beyond the map's box: the
    // cell itself), by nodeForBox's descent from the root: computed apart from the map's paint.
    Aabb block = loose;
    const int32_t xyz[3] = {cell.x, cell.y, cell.z};
    bool inMap = true;
    int32_t origin[3];
    for (int a = 0; a < 3; ++a) {
      const int32_t b = (xyz[a] - mapLo_[a]) >> mapShift_;
      inMap = inMap && xyz[a] >= mapLo_[a] && b < mapDim_[a];
      origin[a] = mapLo_[a] + b * side;
    }
    if (inMap) block = looseBlockBounds(grid, origin[0], origin[1], origin[2], side, extent);
    const uint32_t want = nodeForBox(octree, parents_, block, 0);
    if (g == outsideGroup()) {
      if (want != outsideGroup()) {
        return fail(name + " is in the outside group but its block is inside the level's bounds");
      }
      continue;
    }
    if (g >= firstChunkGroup()) {  // a chunk: its box, then its node
      if (!chunkBounds(g - firstChunkGroup()).contains(loose)) {
        return fail(name + " is linked to chunk " + std::to_string(g - firstChunkGroup()) +
                    " whose bounds miss it");
      }
      g = parents_[g];
    }
    if (!octree.nodeBounds(g).contains(loose)) {
      return fail(name + " is linked to node " + std::to_string(g) + " whose bounds miss it");
    }
    if (g != want) {
      return fail(name + " is linked to node " + std::to_string(g) + " but the rule gives node " +
                  std::to_string(want));
    }
    // Every object of the cell inside the loose bounds the link was checked with.
    for (uint32_t i = 0; i < cell.count; ++i) {
      const GridObject& o = grid.object(grid.cellObject(cell, i));
      if (!loose.contains(o.bounds())) {
        return fail(name + ": object " + std::to_string(grid.cellObject(cell, i)) +
                    " sticks out of the cell's loose bounds");
      }
    }
  }
  return grid.validate(outError) && groups_.validate(outError);
}

uint32_t cullLevelAndProps(const Octree& octree, const Frustum& frustum, const HashGrid& grid,
                           const OctreeCellLinks& links, CullVisitor levelVisitor,
                           void* levelContext, std::span<uint32_t> outProps,
                           CullStats* ioLevelStats, PropsCullStats* ioPropsStats) {
  PropsCullStats ps;
  ps.cellsOccupied = grid.occupiedCells();
  ps.bruteForceChecks = grid.objectCount();
  PropSink sink{outProps};
  if (!links.linked(grid, octree)) {
    // Fallback: the level's cull and the grid's linear pass.
    CullStats ls;
    if (levelVisitor != nullptr) cullOctree(octree, frustum, levelVisitor, levelContext, &ls);
    GridQueryStats gs;
    const uint32_t n = cullGridFrustum(grid, frustum, outProps, &gs);
    ps.nodesVisited = ls.nodesVisited;
    ps.cellsTested = gs.cellsVisited;
    ps.propsTested = gs.candidates;
    ps.visible = n;
    if (ioLevelStats) *ioLevelStats += ls;
    if (ioPropsStats) *ioPropsStats += ps;
    return n;
  }

  CullStats ls;
  const CellGroups& groups = links.groups();
  const float extent = groups.extent();
  const uint32_t nc = octree.nodeCount();
  auto acceptCell = [&](const CellGroupEntry& e) {
    for (uint32_t i = e.count; i-- > 0;) sink(groups.entryObject(e, i));  // i = 0: from the entry
  };
  // The props of one cell whose loose bounds were classified Intersecting (or could not be: a
  // border cell), each with the planes left.
  auto testProps = [&](const CellGroupEntry& e, uint32_t mask) {
    for (uint32_t i = e.count; i-- > 0;) {
      const uint32_t id = groups.entryObject(e, i);
      ++ps.propsTested;
      uint32_t m = mask;
      uint32_t planeTests = 0;
      const Aabb ob = grid.object(id).bounds();
      if (detail::classifyCounted(frustum, ob.min, ob.max, m, planeTests) != Containment::Outside) {
        sink(id);
      }
    }
  };
  // Classifies a cell's loose bounds with the planes in mask, then its props as needed.
  auto testCell = [&](const CellGroupEntry& e, uint32_t mask) {
    const bool border = std::max({std::abs(e.x), std::abs(e.y), std::abs(e.z)}) == kGridCoordLimit;
    if (!border) {
      ++ps.cellsTested;
      const Aabb b = OctreeCellLinks::looseBounds(grid, e.x, e.y, e.z, extent);
      uint32_t planeTests = 0;
      const Containment cc = detail::classifyCounted(frustum, b.min, b.max, mask, planeTests);
      if (cc == Containment::Outside) return;
      if (cc == Containment::Inside) {
        acceptCell(e);
        return;
      }
    }
    testProps(e, mask);
  };
  // A group's cells are one contiguous array of entries: fetch the id block of the cell kAhead
  // ahead so that the misses overlap instead of queueing one after another.
  constexpr size_t kAhead = 8;
  // (A cell of one object needs no pool read: the entry holds its id.)
  auto prefetch = [&](std::span<const CellGroupEntry> list, size_t i) {
    if (i + kAhead < list.size() && list[i + kAhead].count > 1) {
      simd::prefetch(grid.poolData(list[i + kAhead].head));
    }
  };
  auto acceptGroup = [&](uint32_t group) {
    const std::span<const CellGroupEntry> list = groups.groupCells(group);
    for (size_t i = 0; i < list.size(); ++i) {
      prefetch(list, i);
      acceptCell(list[i]);
    }
  };
  const uint32_t chunk0 = links.firstChunkGroup();
  // A node's cells (never border cells: those are in the outside group), four at a time. Every
  // cell is classified with one box for the whole frame: the cell grown by the largest padded
  // grow any linked cell can have (the padding grows with the coordinates' magnitude, bounded
  // by the root's), so the box contains the cell's loose bounds; a larger box is never judged
  // further out (the same float operations as classifyCounted: monotone), and a plane the node
  // is inside of needs no test (the node's box holds the cell's props). Same answers as
  // testCell, with SIMD.
  const Aabb rootBox = nc > 0 ? octree.nodeBounds(0) : Aabb{};
  const float rootMag =
      nc > 0
          ? std::max({std::fabs(rootBox.min.x), std::fabs(rootBox.min.y), std::fabs(rootBox.min.z),
                      std::fabs(rootBox.max.x), std::fabs(rootBox.max.y), std::fabs(rootBox.max.z)})
          : 0.0f;
  const float cs = grid.cellSize();
  const float frameGrow = extent + (rootMag + 2.0f * cs + cs + extent) * (1.0f / 65536.0f);
  // perCellPad: the outside group's cells may lie anywhere (no root box bounds their
  // coordinates), so each lane gets its own cell's padding, exactly looseBounds' (its float
  // expression), and border cells (no finite bounds) go to testCell.
  auto testNodeGroup = [&](uint32_t group, uint32_t mask, bool perCellPad) {
    const std::span<const CellGroupEntry> list = groups.groupCells(group);
    const size_t n = list.size();
    size_t i = 0;
    {
      using simd::F4;
      const F4 vext = simd::splat(extent), inv = simd::splat(1.0f / 65536.0f);
      const F4 vcs = simd::splat(cs), g = simd::splat(frameGrow);
      for (; i + 4 <= n; i += 4) {
        const CellGroupEntry* c4 = &list[i];
        if (i + 8 <= n) {
          for (uint32_t l = 4; l < 8; ++l) {
            if (c4[l].count > 1) simd::prefetch(grid.poolData(c4[l].head));
          }
        }
        F4 lo[3], hi[3];
        detail::cellBoxes4(c4, cs, lo, hi);
        F4 gl = g;
        uint32_t border = 0;
        if (perCellPad) {
          // grow = extent + (mag + cellSize + extent) / 65536, mag = the cell box's largest
          // |coordinate|: looseBounds' float expression, lane by lane.
          F4 mag = simd::abs(lo[0]);
          for (int a = 0; a < 3; ++a)
            mag = simd::max(simd::max(mag, simd::abs(lo[a])), simd::abs(hi[a]));
          gl = vext + (mag + vcs + vext) * inv;
          for (uint32_t l = 0; l < 4; ++l) {
            const bool b = std::max({std::abs(c4[l].x), std::abs(c4[l].y), std::abs(c4[l].z)}) ==
                           kGridCoordLimit;
            border |= (b ? 1u : 0u) << l;
          }
        }
        for (int a = 0; a < 3; ++a) {
          lo[a] = lo[a] - gl;
          hi[a] = hi[a] + gl;
        }
        uint32_t masks[4];
        const uint32_t outside = detail::classifyAabb4(frustum, lo, hi, mask, masks);
        ps.cellsTested += 4 - static_cast<uint32_t>(std::popcount(border));
        for (uint32_t l = 0; l < 4; ++l) {
          if ((border >> l) & 1u) {
            testCell(c4[l], mask);
            continue;
          }
          if ((outside >> l) & 1u) continue;
          if (masks[l] == 0) {
            acceptCell(c4[l]);
          } else {
            testProps(c4[l], masks[l]);
          }
        }
      }
    }
    for (; i < n; ++i) {
      const CellGroupEntry& e = list[i];
      if (perCellPad) {
        testCell(e, mask);
        continue;
      }
      ++ps.cellsTested;
      const glm::vec3 c(static_cast<float>(e.x), static_cast<float>(e.y), static_cast<float>(e.z));
      const glm::vec3 bmin = c * cs - glm::vec3(frameGrow);
      const glm::vec3 bmax = (c + glm::vec3(1.0f)) * cs + glm::vec3(frameGrow);
      uint32_t m = mask;
      uint32_t planeTests = 0;
      const Containment cc = detail::classifyCounted(frustum, bmin, bmax, m, planeTests);
      if (cc == Containment::Outside) continue;
      if (cc == Containment::Inside) {
        acceptCell(e);
      } else {
        testProps(e, m);
      }
    }
  };
  // The level's walk; the props ride on its hooks.
  struct PropsHooks {
    const CellGroups& groups;
    const OctreeCellLinks& links;
    const Octree& octree;
    const Frustum& frustum;
    PropsCullStats& ps;
    uint32_t chunk0;
    decltype(acceptGroup)& acceptGroupOf;
    decltype(testNodeGroup)& testNodeGroupOf;
    // Fully inside: every prop linked in the subtree is visible; walk only the nodes holding
    // cells.
    void inside(uint32_t node) {
      if (!groups.subtreeOccupied(node)) return;
      uint32_t inner[kOctreeStackSize];
      uint32_t itop = 0;
      inner[itop++] = node;
      while (itop > 0) {
        const uint32_t n = inner[--itop];
        acceptGroupOf(n);
        for (uint32_t k = links.nodeChunkBegin(n); k < links.nodeChunkEnd(n); ++k) {
          if (groups.subtreeOccupied(chunk0 + k)) acceptGroupOf(chunk0 + k);
        }
        const uint32_t first = octree.firstChild(n);
        if (first == kOctreeInvalidIndex) continue;
        for (uint32_t i = octree.childCount(n); i-- > 0;) {
          if (groups.subtreeOccupied(first + i)) inner[itop++] = first + i;
        }
      }
    }
    // Intersecting: the node's own cells, then each of its chunks: the chunk's box classified
    // with the planes left, then its cells.
    void intersecting(uint32_t node, uint32_t mask) {
      testNodeGroupOf(node, mask, false);
      for (uint32_t k = links.nodeChunkBegin(node); k < links.nodeChunkEnd(node); ++k) {
        const uint32_t group = chunk0 + k;
        if (!groups.subtreeOccupied(group)) continue;
        const Aabb& cb = links.chunkBounds(k);
        ++ps.chunksTested;
        uint32_t cm = mask;
        uint32_t planeTests = 0;
        const Containment cc = detail::classifyCounted(frustum, cb.min, cb.max, cm, planeTests);
        if (cc == Containment::Outside) continue;
        if (cc == Containment::Inside) {
          acceptGroupOf(group);
        } else {
          testNodeGroupOf(group, cm, false);
        }
      }
    }
  };
  PropsHooks hooks{groups, links, octree, frustum, ps, chunk0, acceptGroup, testNodeGroup};
  detail::walkOctreeFrustum(octree, frustum, levelVisitor, levelContext, hooks, ls);
  // Cells outside the level: all six planes.
  testNodeGroup(links.outsideGroup(), kFrustumAllPlanes, true);
  ps.nodesVisited = ls.nodesVisited;
  ps.visible = sink.count;
  if (ioLevelStats) *ioLevelStats += ls;
  if (ioPropsStats) *ioPropsStats += ps;
  return sink.count;
}

uint32_t cullPropsBruteForce(const Frustum& frustum, const HashGrid& grid,
                             std::span<uint32_t> outProps) {
  PropSink sink{outProps};
  for (uint32_t id = 0; id < grid.idEnd(); ++id) {
    if (!grid.contains(id)) continue;
    uint32_t mask = kFrustumAllPlanes;
    if (classifyAabb(frustum, grid.object(id).bounds(), mask) != Containment::Outside) sink(id);
  }
  return sink.count;
}

}  // namespace ofps
