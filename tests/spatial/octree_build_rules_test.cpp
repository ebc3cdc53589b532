// The octree's build rules (octree.h: looseness, trianglesPerLeaf, maxLevel, small children kept
// in the parent, kept triangles in a leaf of their own) checked two ways:
// 1. every triangle ends in the same leaf, at the same level, as in an independent recursive
//    build written from the rules in octree.h (one std::vector per node, no counting sort, no
//    final-form pass), on random soups and a real level over a grid of parameters;
// 2. validate() fails when an octree breaks a rule on purpose (its recorded parameters changed
//    after the build, so the tree no longer follows them).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "octree_fps/spatial/octree.h"
#include "support/random_soup.h"

namespace ofps {

// Test-only access (a friend of Octree): change the parameters an octree says it was built with.
struct OctreeTestAccess {
  static void setParams(Octree& o, const OctreeBuildParams& p) { o.params_ = p; }
  static std::vector<uint8_t>& boundsSlots(Octree& o) { return o.boundsSlot_; }
};

namespace {

// ---- The reference build --------------------------------------------------------------------

struct RefLeaf {
  uint32_t level;
  std::vector<uint32_t> triangles;  // input indices, sorted
  bool operator<(const RefLeaf& o) const {
    return level != o.level ? level < o.level : triangles < o.triangles;
  }
  bool operator==(const RefLeaf& o) const { return level == o.level && triangles == o.triangles; }
};

struct RefBuilder {
  const std::vector<Triangle>& tris;
  uint32_t leafSize, maxLevel, minChild;
  float looseness;
  std::vector<RefLeaf> leaves;

  glm::vec3 centroid(uint32_t t) const { return tris[t].bounds().center(); }
  float size(uint32_t t) const {
    const glm::vec3 s = tris[t].bounds().size();
    return std::max(s.x, std::max(s.y, s.z));
  }

  void leaf(uint32_t level, std::vector<uint32_t> items) {
    std::sort(items.begin(), items.end());
    leaves.push_back({level, std::move(items)});
  }

  // A node of the octree at `level`, with cell (centre, half edge).
  void node(const std::vector<uint32_t>& items, glm::vec3 center, float half, uint32_t level) {
    if (items.size() <= leafSize || level >= maxLevel) return leaf(level, items);
    bool coincide = true;
    for (uint32_t t : items) coincide = coincide && centroid(t) == centroid(items[0]);
    if (coincide) return leaf(level, items);
    // Which octant (0..7) or kept (8), in a cell that shrinks while everything falls in one
    // octant and nothing is kept (no node is made for those levels).
    uint32_t at = level;
    std::vector<uint32_t> bucket(items.size());
    for (;;) {
      const float keep = half * looseness;
      std::vector<uint32_t> count(9, 0);
      for (size_t i = 0; i < items.size(); ++i) {
        const glm::vec3 c = centroid(items[i]);
        bucket[i] = size(items[i]) > keep
                        ? 8u
                        : (c.x >= center.x ? 1u : 0u) + (c.y >= center.y ? 2u : 0u) +
                              (c.z >= center.z ? 4u : 0u);
        ++count[bucket[i]];
      }
      uint32_t octants = 0, only = 0;
      for (uint32_t k = 0; k < 8; ++k) {
        if (count[k] > 0) {
          ++octants;
          only = k;
        }
      }
      if (count[8] > 0 || octants != 1 || at + 1 >= maxLevel) {
        // Octants too small for a node stay in this one.
        for (uint32_t& b : bucket) {
          if (b < 8 && count[b] < minChild) b = 8;
        }
        break;
      }
      half *= 0.5f;
      center.x += (only & 1u) ? half : -half;
      center.y += (only & 2u) ? half : -half;
      center.z += (only & 4u) ? half : -half;
      ++at;
    }
    std::vector<std::vector<uint32_t>> groups(9);
    for (size_t i = 0; i < items.size(); ++i) groups[bucket[i]].push_back(items[i]);
    if (groups[8].size() == items.size()) return leaf(level, items);
    // Kept triangles: a leaf of their own at this node's level.
    if (!groups[8].empty()) leaf(level, groups[8]);
    const float childHalf = half * 0.5f;
    for (uint32_t k = 0; k < 8; ++k) {
      if (groups[k].empty()) continue;
      const glm::vec3 c(center.x + ((k & 1u) ? childHalf : -childHalf),
                        center.y + ((k & 2u) ? childHalf : -childHalf),
                        center.z + ((k & 4u) ? childHalf : -childHalf));
      node(groups[k], c, childHalf, at + 1);
    }
  }
};

std::vector<RefLeaf> referenceLeaves(const std::vector<Triangle>& tris,
                                     const OctreeBuildParams& p) {
  RefBuilder b{tris,
               std::max(1u, p.trianglesPerLeaf),
               std::min(p.maxLevel, kOctreeMaxLevel),
               0u,
               p.looseness,
               {}};
  b.minChild = b.leafSize >= 6 ? 3u : (b.leafSize >= 4 ? 2u : 1u);
  Aabb all;
  for (const Triangle& t : tris) all.grow(t.bounds());
  const glm::vec3 ext = all.size();
  std::vector<uint32_t> items(tris.size());
  for (uint32_t i = 0; i < items.size(); ++i) items[i] = i;
  if (!items.empty())
    b.node(items, all.center(), std::max(ext.x, std::max(ext.y, ext.z)) * 0.5f, 0);
  std::sort(b.leaves.begin(), b.leaves.end());
  return b.leaves;
}

// The octree's leaves: every node holding triangles of its own (in the final form only leaves do).
std::vector<RefLeaf> octreeLeaves(const Octree& o) {
  std::vector<RefLeaf> out;
  for (uint32_t n = 0; n < o.nodeCount(); ++n) {
    const TriangleRange own = o.ownRange(n);
    if (own.count == 0) continue;
    RefLeaf l{o.nodeLevel(n), {}};
    for (uint32_t s = own.first; s < own.first + own.count; ++s)
      l.triangles.push_back(o.triangleOrder()[s]);
    std::sort(l.triangles.begin(), l.triangles.end());
    out.push_back(std::move(l));
  }
  std::sort(out.begin(), out.end());
  return out;
}

void expectSameLeaves(const std::vector<Triangle>& tris, const OctreeBuildParams& p,
                      const std::string& what) {
  Octree o;
  ASSERT_TRUE(o.build(tris, {}, p).ok);
  std::string err;
  ASSERT_TRUE(o.validate(&err)) << what << ": " << err;
  const std::vector<RefLeaf> got = octreeLeaves(o), want = referenceLeaves(tris, p);
  ASSERT_EQ(got.size(), want.size()) << what << ": leaf count";
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_TRUE(got[i] == want[i])
        << what << ": leaf " << i << " differs (level " << got[i].level << " with "
        << got[i].triangles.size() << " triangles, reference level " << want[i].level << " with "
        << want[i].triangles.size() << ")";
  }
}

TEST(OctreeBuildRules, EveryTriangleInTheLeafTheRulesGive) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    const std::vector<Triangle> soup = test::makeRandomSoup(seed);
    for (uint32_t leafSize : {1u, 2u, 4u, 5u, 8u, 16u}) {
      for (uint32_t maxLevel : {0u, 1u, 3u, 6u, 16u}) {
        for (float looseness : {0.0f, 1.0f, 3.0f, 6.0f}) {
          OctreeBuildParams p;
          p.trianglesPerLeaf = leafSize;
          p.maxLevel = maxLevel;
          p.looseness = looseness;
          expectSameLeaves(soup, p,
                           "seed " + std::to_string(seed) + " trianglesPerLeaf " +
                               std::to_string(leafSize) + " maxLevel " + std::to_string(maxLevel) +
                               " looseness " + std::to_string(looseness));
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

TEST(OctreeBuildRules, RealLevelFollowsTheRules) {
  std::vector<Triangle> tris;
  std::string why;
  if (!test::loadSharedLevel("levels/oa_dm1/oa_dm1.obj", tris, &why)) GTEST_SKIP() << why;
  for (uint32_t leafSize : {2u, 8u, 32u}) {
    OctreeBuildParams p;
    p.trianglesPerLeaf = leafSize;
    expectSameLeaves(tris, p, "oa_dm1 trianglesPerLeaf " + std::to_string(leafSize));
  }
}

// ---- validate() catches an octree that breaks a rule ----------------------------------------

Octree builtWith(const OctreeBuildParams& p) {
  Octree o;
  EXPECT_TRUE(o.build(test::makeRandomSoup(7), {}, p).ok);
  std::string err;
  EXPECT_TRUE(o.validate(&err)) << err;
  return o;
}

std::string validateAfter(Octree& o, const OctreeBuildParams& claimed) {
  OctreeTestAccess::setParams(o, claimed);
  std::string err;
  return o.validate(&err) ? std::string("valid") : err;
}

// A node whose bounds slot names another lane would read its sibling's box in nodeBounds().
TEST(OctreeBuildRules, ValidateCatchesBoundsSlotBroken) {
  Octree o = builtWith({});
  uint32_t parent = kOctreeInvalidIndex;
  for (uint32_t i = 0; i < o.nodeCount() && parent == kOctreeInvalidIndex; ++i) {
    if (o.childCount(i) >= 2) parent = i;
  }
  ASSERT_NE(parent, kOctreeInvalidIndex) << "the soup should give a node with two children";
  const uint32_t first = o.firstChild(parent);
  std::vector<uint8_t>& slots = OctreeTestAccess::boundsSlots(o);
  slots[first + 1] = slots[first];  // the second child claims the first child's lane
  std::string err;
  EXPECT_FALSE(o.validate(&err));
  EXPECT_NE(err.find("wrong bounds slot"), std::string::npos) << err;
}

TEST(OctreeBuildRules, ValidateCatchesLoosenessBroken) {
  OctreeBuildParams p;
  p.looseness = 6.0f;  // large triangles went deeper than looseness 3 lets them
  Octree o = builtWith(p);
  p.looseness = 3.0f;
  EXPECT_NE(validateAfter(o, p).find("larger than looseness"), std::string::npos)
      << validateAfter(o, p);
}

TEST(OctreeBuildRules, ValidateCatchesLeavesTooFull) {
  OctreeBuildParams p;
  p.trianglesPerLeaf = 64;
  p.maxLevel = 4;
  Octree o = builtWith(p);
  p.trianglesPerLeaf = 1;
  EXPECT_NE(validateAfter(o, p).find("small enough to split"), std::string::npos)
      << validateAfter(o, p);
}

TEST(OctreeBuildRules, ValidateCatchesLevelsTooDeep) {
  OctreeBuildParams p;
  p.trianglesPerLeaf = 1;
  Octree o = builtWith(p);
  p.maxLevel = 2;
  EXPECT_NE(validateAfter(o, p).find("deeper than maxLevel"), std::string::npos)
      << validateAfter(o, p);
}

TEST(OctreeBuildRules, ValidateAcceptsTheParametersItWasBuiltWith) {
  // The control for the three tests above: unchanged parameters validate.
  for (float looseness : {0.0f, 3.0f, 6.0f}) {
    OctreeBuildParams p;
    p.looseness = looseness;
    p.trianglesPerLeaf = 1;
    p.maxLevel = 4;
    Octree o = builtWith(p);
    EXPECT_EQ(validateAfter(o, p), "valid");
  }
}

}  // namespace
}  // namespace ofps
