#pragma once
// Levels the props tests build for themselves.
#include <gtest/gtest.h>

#include <vector>

#include "octree_fps/spatial/octree.h"

namespace ofps::test {

// A 40 x 40 m floor at y = 0 (two triangles).
inline Octree makeFloor() {
  const std::vector<Triangle> tris = {{{-20, 0, -20}, {-20, 0, 20}, {20, 0, 20}},
                                      {{-20, 0, -20}, {20, 0, 20}, {20, 0, -20}}};
  Octree o;
  const OctreeBuildReport r = o.build(tris);
  EXPECT_TRUE(r.ok) << r.error;
  return o;
}

}  // namespace ofps::test
