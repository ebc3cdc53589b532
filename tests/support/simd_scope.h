#pragma once
// Restores the octree's query kernels (octreeUseSimd) that were active when it was made, so a
// test that switches kernels leaves the process as it found it, even when an assertion returns
// early.
#include "octree_fps/spatial/octree.h"

namespace ofps::test {

class SimdScope {
 public:
  SimdScope() : saved_(octreeSimd()) {}
  ~SimdScope() { octreeUseSimd(saved_); }
  SimdScope(const SimdScope&) = delete;
  SimdScope& operator=(const SimdScope&) = delete;

 private:
  OctreeSimd saved_;
};

}  // namespace ofps::test
