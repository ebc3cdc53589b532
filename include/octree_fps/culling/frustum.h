#pragma once
// View-frustum culling of octree nodes: the iterative walk that reports the level's visible
// triangle ranges. The frustum itself (Plane, Frustum, classifyAabb) is a geometry primitive
// (geometry/frustum.h), included here so that callers of the cull have it.
//
// Frame: world space (the same as the octree). Plane masking (Assarsson and Möller, "Optimized
// View Frustum Culling Algorithms for Bounding Boxes", 2000): a node fully inside plane i clears
// bit i for its whole subtree.
// Everything here is const: thread-safe, no allocation, nothing thrown.

#include <cstdint>
#include <type_traits>

#include "octree_fps/geometry/frustum.h"

namespace ofps {

class Octree;

struct CullStats {
  uint32_t nodesVisited = 0;      // nodes whose box was classified
  uint32_t planeTests = 0;        // box-plane tests run (plane masking makes this smaller)
  uint32_t rangesReported = 0;    // visitor calls
  uint32_t trianglesVisible = 0;  // triangles in the reported ranges
  CullStats& operator+=(const CullStats& o) {
    nodesVisited += o.nodesVisited;
    planeTests += o.planeTests;
    rangesReported += o.rangesReported;
    trianglesVisible += o.trianglesVisible;
    return *this;
  }
};

// Called per visible range: `node` is the node, `range` its own triangles (wholeSubtree false:
// the node intersects the frustum, its children are classified separately) or its whole subtree
// (wholeSubtree true: the node is fully inside; its descendants are not visited or reported).
// Ranges are in triangle slots (Octree::triangleOrder()). Empty own ranges are not reported.
using CullVisitor = void (*)(void* context, uint32_t node, uint32_t first, uint32_t count,
                             bool wholeSubtree);

// Visits the octree's nodes whose bounds (Octree::nodeBounds: tight, rounded outward to the
// quantization grid) are not outside the frustum, in preorder, and
// reports their triangle ranges. Iterative on a fixed stack; adds to *ioStats when given.
void cullOctree(const Octree& octree, const Frustum& frustum, CullVisitor visitor, void* context,
                CullStats* ioStats = nullptr);

template <class F>
void cullOctree(const Octree& octree, const Frustum& frustum, F&& f, CullStats* ioStats = nullptr) {
  cullOctree(
      octree, frustum,
      [](void* ctx, uint32_t node, uint32_t first, uint32_t count, bool whole) {
        (*static_cast<std::remove_reference_t<F>*>(ctx))(node, first, count, whole);
      },
      &f, ioStats);
}

}  // namespace ofps
