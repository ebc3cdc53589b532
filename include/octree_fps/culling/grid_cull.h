#pragma once
// Frustum culling of a hash grid's objects on their own, cell by cell: the baseline the props
// cull through the level's octree (props_cull.h) falls back to when its links do not hold, and
// the cull for objects that live without a level.
//
// Each occupied cell's loose bounds (the cell grown by HashGrid::maxExtent()) are classified with
// classifyAabb, four cells at a time: a cell inside reports all its objects; an intersecting one
// classifies each object's bounding box with the planes left in its mask; a border cell (no finite
// bounds) tests its objects one by one. An object is reported iff classifyAabb(frustum, its box)
// is not Outside: exactly what brute force (cullPropsBruteForce) reports, each id once, by cell.
// Statistics (added to): cellsVisited = cells classified, candidates = objects classified, hits,
// bruteForceChecks = objectCount().
// Cost: O(occupied cells + objects in intersecting cells). Const, allocation-free, no exceptions;
// safe from many threads while nothing mutates the grid. Frame: the grid's (world space).
// Source: Assarsson and Möller, "Optimized View Frustum Culling Algorithms for Bounding Boxes"
// (2000) (plane masking from the cell to its objects).

#include <concepts>
#include <cstdint>
#include <span>

#include "octree_fps/geometry/frustum.h"
#include "octree_fps/spatial/hash_grid.h"

namespace ofps {

// visitor(context, id) per visible object; returns false to stop. Returns the number reported.
uint32_t cullGridFrustum(const HashGrid& grid, const Frustum& frustum, GridVisitor visitor,
                         void* context, GridQueryStats* ioStats = nullptr);
// Writes up to out.size() ids, returns the TOTAL count (may exceed out.size()).
uint32_t cullGridFrustum(const HashGrid& grid, const Frustum& frustum, std::span<uint32_t> out,
                         GridQueryStats* ioStats = nullptr);
// f(uint32_t id) returning bool (false stops) or void.
template <class F>
requires std::invocable<F&, uint32_t> uint32_t cullGridFrustum(const HashGrid& grid,
                                                               const Frustum& frustum, F&& f,
                                                               GridQueryStats* ioStats = nullptr) {
  return cullGridFrustum(grid, frustum, &gridVisitorThunk<F>, &f, ioStats);
}

}  // namespace ofps
