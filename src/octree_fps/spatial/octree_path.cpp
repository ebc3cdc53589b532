// Octree::slotOfTriangle and Octree::pathToSlot: where a triangle lives in the tree, for picking
// and debug drawing (the demo's probe). Kept apart from the queries, which never need it.
#include "octree_fps/spatial/octree.h"

namespace ofps {

uint32_t Octree::slotOfTriangle(uint32_t triangle) const {
  for (uint32_t slot = 0; slot < originalIndex_.size(); ++slot) {
    if (originalIndex_[slot] == triangle) return slot;
  }
  return kOctreeInvalidIndex;
}

uint32_t Octree::pathToSlot(uint32_t slot, std::span<uint32_t> outPath) const {
  if (slot >= triangleCount()) return 0;
  uint32_t length = 0;
  uint32_t node = 0;
  for (;;) {
    if (length < outPath.size()) outPath[length] = node;
    ++length;
    const OctreeNodeLinks& l = links_[node];
    if (slot < l.ownEnd || l.childCount == 0) return length;
    // Children's subtrees follow the node's own slots in child order, back to back, so the
    // slot lies in the last child whose subtree starts at or before it.
    uint32_t next = l.firstChild;
    for (uint32_t c = l.firstChild + 1; c < l.firstChild + l.childCount; ++c) {
      if (links_[c].firstTriangle <= slot) next = c;
    }
    node = next;
  }
}

}  // namespace ofps
