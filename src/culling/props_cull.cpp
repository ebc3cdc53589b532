// Props culled through the level's octree (contracts in props_cull.h).
#include "culling/props_cull.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "culling/classify_inl.h"
#include "spatial/hash_grid.h"
#include "spatial/octree.h"

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
  GridCell gc;
  gc.x = x;
  gc.y = y;
  gc.z = z;
  Aabb b = grid.cellBounds(gc);
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

bool OctreeCellLinks::sameOctree(const Octree& octree) const {
  const Aabb b = octree.bounds();
  return octree_ == &octree && nodeCount_ == octree.nodeCount() &&
         triangleCount_ == octree.triangleCount() &&
         trianglesPerLeaf_ == octree.params().trianglesPerLeaf &&
         maxLevel_ == octree.params().maxLevel && looseness_ == octree.params().looseness &&
         bounds_.min == b.min && bounds_.max == b.max;
}

bool OctreeCellLinks::linked(const HashGrid& grid, const Octree& octree) const {
  return sameOctree(octree) && grid.groupCount() == nodeCount_ + 1 &&
         grid.groupExtent() >= grid.maxExtent();
}

void OctreeCellLinks::relink(HashGrid& grid, const Octree& octree) {
  octree_ = &octree;
  nodeCount_ = octree.nodeCount();
  triangleCount_ = octree.triangleCount();
  trianglesPerLeaf_ = octree.params().trianglesPerLeaf;
  maxLevel_ = octree.params().maxLevel;
  looseness_ = octree.params().looseness;
  bounds_ = octree.bounds();
  // Groups: one per node with the node's parent, then the outside group (a root of its own).
  parents_.assign(static_cast<size_t>(nodeCount_) + 1, kGridNoGroup);
  for (uint32_t n = 0; n < nodeCount_; ++n) {
    const uint32_t first = octree.firstChild(n);
    if (first == kOctreeInvalidIndex) continue;
    for (uint32_t i = 0; i < octree.childCount(n); ++i) parents_[first + i] = n;
  }
  grid.resetCellGroups(parents_, grid.maxExtent());
  linkPending(grid, octree);
}

void OctreeCellLinks::sync(HashGrid& grid, const Octree& octree) {
  if (!linked(grid, octree)) {
    relink(grid, octree);
    return;
  }
  linkPending(grid, octree);
}

void OctreeCellLinks::linkPending(HashGrid& grid, const Octree& octree) {
  const float extent = grid.groupExtent();
  const uint32_t outside = nodeCount_;
  while (grid.pendingCells() > 0) {
    const uint32_t c = grid.groupCells(kGridNoGroup).back().cell;
    const GridCell& cell = grid.cells()[c];
    uint32_t node = outside;
    if (!HashGrid::isBorderCell(cell)) {
      node = nodeForBox(octree, parents_, looseCellBounds(grid, c, extent), grid.cellGroupHint(c));
    }
    grid.setCellGroup(c, node);  // leaves the pending block
  }
}

bool OctreeCellLinks::validate(const HashGrid& grid, const Octree& octree,
                               std::string* outError) const {
  auto fail = [&](const std::string& m) {
    if (outError) *outError = m;
    return false;
  };
  if (!grid.validate(outError)) return false;
  if (!linked(grid, octree)) return fail("links not made for this octree (call relink)");
  for (uint32_t g = 0; g <= nodeCount_; ++g) {
    if (grid.groupParent(g) != parents_[g]) return fail("group parent differs from the octree");
  }
  for (uint32_t n = 0; n < nodeCount_; ++n) {
    const uint32_t first = octree.firstChild(n);
    if (first == kOctreeInvalidIndex) continue;
    for (uint32_t i = 0; i < octree.childCount(n); ++i) {
      if (parents_[first + i] != n) return fail("stale parent table");
    }
  }
  const float extent = grid.groupExtent();
  for (uint32_t c = 0; c < grid.occupiedCells(); ++c) {
    const uint32_t g = grid.cellGroup(c);
    if (g == kGridNoGroup) continue;  // pending: culled one by one
    const GridCell& cell = grid.cells()[c];
    const std::string name = "cell (" + std::to_string(cell.x) + ", " + std::to_string(cell.y) +
                             ", " + std::to_string(cell.z) + ")";
    if (HashGrid::isBorderCell(cell)) {
      if (g != outsideGroup()) return fail(name + " is a border cell but not in the outside group");
      continue;
    }
    const Aabb loose = looseCellBounds(grid, c, extent);
    if (g == outsideGroup()) {
      if (nodeCount_ > 0 && octree.nodeBounds(0).contains(loose)) {
        return fail(name + " is in the outside group but inside the level's bounds");
      }
      continue;
    }
    if (!octree.nodeBounds(g).contains(loose)) {
      return fail(name + " is linked to node " + std::to_string(g) + " whose bounds miss it");
    }
    const uint32_t first = octree.firstChild(g);
    for (uint32_t i = 0; first != kOctreeInvalidIndex && i < octree.childCount(g); ++i) {
      if (octree.nodeBounds(first + i).contains(loose)) {
        return fail(name + " is linked to node " + std::to_string(g) + " but child " +
                    std::to_string(first + i) + " contains it too");
      }
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
  return true;
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
    const uint32_t n = grid.cullFrustum(frustum, outProps, &gs);
    ps.nodesVisited = ls.nodesVisited;
    ps.cellsTested = gs.cellsVisited;
    ps.propsTested = gs.candidates;
    ps.visible = n;
    if (ioLevelStats) {
      ioLevelStats->nodesVisited += ls.nodesVisited;
      ioLevelStats->planeTests += ls.planeTests;
      ioLevelStats->rangesReported += ls.rangesReported;
      ioLevelStats->trianglesVisible += ls.trianglesVisible;
    }
    if (ioPropsStats) *ioPropsStats += ps;
    return n;
  }

  CullStats ls;
  const float extent = grid.maxExtent();
  auto acceptCell = [&](const GridGroupEntry& e) {
    for (uint32_t i = e.count; i-- > 0;) sink(grid.entryObject(e, i));
  };
  // Classifies a cell's loose bounds with the planes in mask, then its props as needed.
  auto testCell = [&](const GridGroupEntry& e, uint32_t mask) {
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
    for (uint32_t i = e.count; i-- > 0;) {
      const uint32_t id = grid.entryObject(e, i);
      ++ps.propsTested;
      uint32_t m = mask;
      uint32_t planeTests = 0;
      const Aabb ob = grid.object(id).bounds();
      if (detail::classifyCounted(frustum, ob.min, ob.max, m, planeTests) != Containment::Outside) {
        sink(id);
      }
    }
  };
  // A group's cells are one contiguous array of entries: fetch the id block of the cell kAhead
  // ahead so that the misses overlap instead of queueing one after another.
  constexpr size_t kAhead = 8;
  auto prefetch = [&](std::span<const GridGroupEntry> list, size_t i) {
#if defined(__GNUC__)
    if (i + kAhead < list.size()) __builtin_prefetch(grid.poolData(list[i + kAhead].head), 0, 3);
#else
    (void)list;
    (void)i;
#endif
  };
  auto testGroup = [&](uint32_t group, uint32_t mask) {
    const std::span<const GridGroupEntry> list = grid.groupCells(group);
    for (size_t i = 0; i < list.size(); ++i) {
      prefetch(list, i);
      testCell(list[i], mask);
    }
  };
  const uint32_t nc = octree.nodeCount();
  if (nc > 0) {
    struct Entry {
      uint32_t node;
      uint32_t mask;
    };
    Entry stack[kOctreeStackSize];
    uint32_t inner[kOctreeStackSize];  // walk of a fully inside subtree's nodes holding cells
    uint32_t top = 0;
    stack[top++] = {0, kFrustumAllPlanes};
    while (top > 0) {
      const Entry e = stack[--top];
      const Aabb box = octree.nodeBounds(e.node);
      ++ls.nodesVisited;
      uint32_t mask = e.mask;
      const Containment c = detail::classifyCounted(frustum, box.min, box.max, mask, ls.planeTests);
      if (c == Containment::Outside) continue;
      if (c == Containment::Inside) {
        const TriangleRange r = octree.subtreeRange(e.node);
        ++ls.rangesReported;
        ls.trianglesVisible += r.count;
        if (levelVisitor != nullptr) levelVisitor(levelContext, e.node, r.first, r.count, true);
        // Every prop linked in the subtree is visible: walk only the nodes holding cells.
        if (grid.groupSubtreeCells(e.node) == 0) continue;
        uint32_t itop = 0;
        inner[itop++] = e.node;
        while (itop > 0) {
          const uint32_t n = inner[--itop];
          const std::span<const GridGroupEntry> list = grid.groupCells(n);
          for (size_t i = 0; i < list.size(); ++i) {
            prefetch(list, i);
            acceptCell(list[i]);
          }
          const uint32_t first = octree.firstChild(n);
          if (first == kOctreeInvalidIndex) continue;
          for (uint32_t i = octree.childCount(n); i-- > 0;) {
            if (grid.groupSubtreeCells(first + i) != 0) inner[itop++] = first + i;
          }
        }
        continue;
      }
      const TriangleRange own = octree.ownRange(e.node);
      if (own.count > 0) {
        ++ls.rangesReported;
        ls.trianglesVisible += own.count;
        if (levelVisitor != nullptr) levelVisitor(levelContext, e.node, own.first, own.count, false);
      }
      testGroup(e.node, mask);
      // Children last-first, so that they pop in order (preorder, as the triangle slots).
      const uint32_t first = octree.firstChild(e.node);
      for (uint32_t i = octree.childCount(e.node); i-- > 0;) stack[top++] = {first + i, mask};
    }
  }
  // Cells outside the level, and cells not linked yet: all six planes.
  testGroup(links.outsideGroup(), kFrustumAllPlanes);
  testGroup(kGridNoGroup, kFrustumAllPlanes);
  ps.nodesVisited = ls.nodesVisited;
  ps.visible = sink.count;
  if (ioLevelStats) {
    ioLevelStats->nodesVisited += ls.nodesVisited;
    ioLevelStats->planeTests += ls.planeTests;
    ioLevelStats->rangesReported += ls.rangesReported;
    ioLevelStats->trianglesVisible += ls.trianglesVisible;
  }
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
