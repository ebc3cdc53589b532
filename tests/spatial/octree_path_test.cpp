// Octree::slotOfTriangle and Octree::pathToSlot (the demo's probe draws the path from the root
// to the leaf holding the picked triangle). Checked against an independent computation: every
// node's parent found by scanning all nodes' children, every slot's owner by scanning all own
// ranges, the path read upward from the owner; and geometrically: every node on the path
// contains the input triangle (taken from the input, not from the octree's storage).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "octree_fps/geometry/triangle_tests.h"
#include "octree_fps/spatial/octree.h"
#include "support/random_soup.h"

namespace ofps {
namespace {

// Root-first path of every slot, built bottom-up from parent links and own ranges.
std::vector<std::vector<uint32_t>> pathsByScan(const Octree& o) {
  const uint32_t nc = o.nodeCount();
  std::vector<uint32_t> parent(nc, kOctreeInvalidIndex);
  for (uint32_t n = 0; n < nc; ++n) {
    for (uint32_t i = 0; i < o.childCount(n); ++i) parent[o.firstChild(n) + i] = n;
  }
  std::vector<uint32_t> owner(o.triangleCount(), kOctreeInvalidIndex);
  for (uint32_t n = 0; n < nc; ++n) {
    const TriangleRange r = o.ownRange(n);
    for (uint32_t s = r.first; s < r.first + r.count; ++s) owner[s] = n;
  }
  std::vector<std::vector<uint32_t>> paths(o.triangleCount());
  for (uint32_t s = 0; s < o.triangleCount(); ++s) {
    for (uint32_t n = owner[s]; n != kOctreeInvalidIndex; n = parent[n]) paths[s].push_back(n);
    std::reverse(paths[s].begin(), paths[s].end());
  }
  return paths;
}

void expectPathsMatch(const std::vector<Triangle>& input, const OctreeBuildParams& params,
                      const std::string& what) {
  Octree o;
  ASSERT_TRUE(o.build(input, {}, params).ok) << what;
  const std::vector<std::vector<uint32_t>> expected = pathsByScan(o);
  uint32_t path[kOctreeMaxPathLength];
  uint32_t found = 0, longest = 0;
  for (uint32_t t = 0; t < input.size(); ++t) {
    const uint32_t slot = o.slotOfTriangle(t);
    if (slot == kOctreeInvalidIndex) {
      EXPECT_TRUE(params.dropDegenerate && isDegenerateTriangle(input[t]))
          << what << ": triangle " << t << " not found";
      continue;
    }
    ++found;
    ASSERT_LT(slot, o.triangleCount()) << what;
    ASSERT_EQ(o.triangleOrder()[slot], t) << what << ": slot " << slot;
    const uint32_t n = o.pathToSlot(slot, path);
    ASSERT_GE(n, 1u) << what;
    ASSERT_LE(n, kOctreeMaxPathLength) << what;
    longest = std::max(longest, n);
    ASSERT_EQ(std::vector<uint32_t>(path, path + n), expected[slot]) << what << ": slot " << slot;
    const uint32_t leaf = path[n - 1];
    EXPECT_TRUE(o.isLeaf(leaf)) << what << ": slot " << slot;
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_TRUE(o.nodeBounds(path[i]).contains(input[t].bounds()))
          << what << ": triangle " << t << " outside node " << path[i] << " of its path";
    }
  }
  EXPECT_EQ(found, o.triangleCount()) << what;
  // Meaningful: the trees are deep enough that the descent takes several steps.
  EXPECT_GE(longest, 3u) << what;
}

TEST(OctreePath, MatchesParentScanOnRandomSoups) {
  for (uint32_t seed = 1; seed <= 6; ++seed) {
    for (uint32_t leaf : {1u, 8u}) {
      for (float looseness : {1.0f, 3.0f}) {
        OctreeBuildParams p;
        p.trianglesPerLeaf = leaf;
        p.looseness = looseness;
        p.dropDegenerate = seed % 2 == 0;
        expectPathsMatch(test::makeRandomSoup(seed), p,
                         "seed " + std::to_string(seed) + " leaf " + std::to_string(leaf) +
                             " looseness " + std::to_string(looseness));
      }
    }
  }
}

TEST(OctreePath, MatchesParentScanOnRealLevel) {
  std::vector<Triangle> tris;
  std::string why;
  if (!test::loadSharedLevel("levels/oa_dm1/oa_dm1.obj", tris, &why)) GTEST_SKIP() << why;
  for (uint32_t leaf : {2u, 8u, 32u}) {
    OctreeBuildParams p;
    p.trianglesPerLeaf = leaf;
    expectPathsMatch(tris, p, "oa_dm1 leaf " + std::to_string(leaf));
  }
}

TEST(OctreePath, OutOfRangeAndShortBuffers) {
  const std::vector<Triangle> soup = test::makeRandomSoup(3);
  Octree o;
  ASSERT_TRUE(o.build(soup).ok);
  EXPECT_EQ(o.slotOfTriangle(static_cast<uint32_t>(soup.size())), kOctreeInvalidIndex);
  uint32_t path[kOctreeMaxPathLength];
  EXPECT_EQ(o.pathToSlot(o.triangleCount(), path), 0u);
  // The deepest slot's path, written into a buffer two entries short: the full length comes
  // back and only the prefix is written.
  uint32_t deepSlot = 0, deepLength = 0;
  for (uint32_t s = 0; s < o.triangleCount(); ++s) {
    const uint32_t n = o.pathToSlot(s, path);
    if (n > deepLength) deepLength = n, deepSlot = s;
  }
  ASSERT_GE(deepLength, 3u);
  const uint32_t full = o.pathToSlot(deepSlot, path);
  std::vector<uint32_t> shortBuffer(deepLength - 2, 0xDEADBEEFu);
  EXPECT_EQ(o.pathToSlot(deepSlot, shortBuffer), full);
  EXPECT_TRUE(std::equal(shortBuffer.begin(), shortBuffer.end(), path));
  Octree empty;
  EXPECT_EQ(empty.pathToSlot(0, path), 0u);
  EXPECT_EQ(empty.slotOfTriangle(0), kOctreeInvalidIndex);
}

}  // namespace
}  // namespace ofps
