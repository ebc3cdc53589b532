// Randomized comparison of every octree query with the brute-force oracle, on random soups and
// on the canonical shared levels. Zero disagreements, and hit rates in a band so the sample
// means something. Together these run well over 100,000 queries.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "spatial/oracle_harness.h"
#include "support/random_soup.h"

namespace ofps::test {
namespace {

void expectMeaningful(const OracleTally& t, float lo, float hi) {
  for (uint32_t k = 0; k < kKindCount; ++k) {
    if (t.queries[k] == 0) continue;
    const float rate = static_cast<float>(t.hits[k]) / static_cast<float>(t.queries[k]);
    EXPECT_GE(rate, lo) << kindName(k) << " hit rate too low: the queries miss everything";
    EXPECT_LE(rate, hi) << kindName(k) << " hit rate too high: the queries hit everything";
  }
}

struct SoupCase {
  uint32_t seed;
  uint32_t trianglesPerLeaf;
  uint32_t maxLevel;
};

class OctreeOracleSoup : public ::testing::TestWithParam<SoupCase> {};

TEST_P(OctreeOracleSoup, AgreesWithBruteForce) {
  const SoupCase c = GetParam();
  const std::vector<Triangle> tris = makeRandomSoup(c.seed);
  Octree octree;
  OctreeBuildParams params;
  params.trianglesPerLeaf = c.trianglesPerLeaf;
  params.maxLevel = c.maxLevel;
  const OctreeBuildReport rep = octree.build(tris, {}, params);
  ASSERT_TRUE(rep.ok) << rep.error;
  std::string err;
  ASSERT_TRUE(octree.validate(&err)) << err;
  const BruteForce brute(tris);
  OracleTally tally;
  runOracle(tris, octree, brute, 0.5f, 1500, c.seed * 7 + 1, tally);
  EXPECT_EQ(tally.totalDisagreements(), 0u) << tally.summary();
  expectMeaningful(tally, 0.05f, 0.98f);
  // The octree must do much less work than brute force (maxLevel 0 is one root leaf).
  if (c.maxLevel > 0) {
    EXPECT_LT(tally.octreeTrianglesTested * 4, tally.bruteTrianglesTested) << tally.summary();
  }
  RecordProperty("queries", static_cast<int>(tally.total()));
}

INSTANTIATE_TEST_SUITE_P(Soups, OctreeOracleSoup,
                         ::testing::Values(SoupCase{1, 8, 16}, SoupCase{2, 1, 16},
                                           SoupCase{3, 4, 3}, SoupCase{4, 16, 24},
                                           SoupCase{5, 8, 0}),
                         [](const ::testing::TestParamInfo<SoupCase>& param) {
                           const SoupCase& c = param.param;
                           return "seed" + std::to_string(c.seed) + "_perLeaf" +
                                  std::to_string(c.trianglesPerLeaf) + "_maxLevel" +
                                  std::to_string(c.maxLevel);
                         });

TEST(OctreeOracle, LayerMasks) {
  const std::vector<Triangle> tris = makeRandomSoup(11);
  std::vector<uint32_t> layers(tris.size());
  for (size_t i = 0; i < tris.size(); ++i) layers[i] = (i % 3 == 0) ? 1u : (i % 3 == 1 ? 2u : 3u);
  Octree octree;
  ASSERT_TRUE(octree.build(tris, layers).ok);
  ASSERT_TRUE(octree.validate());
  const BruteForce brute(tris, layers);
  OracleTally tally;
  runOracle(tris, octree, brute, 0.5f, 400, 99, tally, 1u);
  runOracle(tris, octree, brute, 0.5f, 400, 98, tally, 2u);
  EXPECT_EQ(tally.totalDisagreements(), 0u) << tally.summary();
  expectMeaningful(tally, 0.03f, 0.98f);
}

struct LevelCase {
  const char* path;
  float size;  // character radius in level units
  uint32_t perKind;
};

class OctreeOracleLevel : public ::testing::TestWithParam<LevelCase> {};

TEST_P(OctreeOracleLevel, AgreesWithBruteForce) {
  const LevelCase c = GetParam();
  std::vector<Triangle> tris;
  std::string why;
  if (!loadSharedLevel(c.path, tris, &why)) GTEST_SKIP() << why;
  Octree octree;
  const OctreeBuildReport rep = octree.build(tris);
  ASSERT_TRUE(rep.ok) << rep.error;
  std::string err;
  ASSERT_TRUE(octree.validate(&err)) << err;
  const BruteForce brute(tris);
  OracleTally tally;
  runOracle(tris, octree, brute, c.size, c.perKind, 5, tally);
  EXPECT_EQ(tally.totalDisagreements(), 0u) << tally.summary();
  expectMeaningful(tally, 0.05f, 0.99f);
  EXPECT_LT(tally.octreeTrianglesTested * 20, tally.bruteTrianglesTested) << tally.summary();
}

INSTANTIATE_TEST_SUITE_P(SharedLevels, OctreeOracleLevel,
                         ::testing::Values(LevelCase{"levels/collision-world/collision-world.obj",
                                                     0.35f, 1000},
                                           LevelCase{"levels/oa_dm1/oa_dm1.obj", 16.0f, 300},
                                           LevelCase{"levels/oa_dm5/oa_dm5.obj", 16.0f, 60}),
                         [](const ::testing::TestParamInfo<LevelCase>& param) {
                           // "levels/oa_dm1/oa_dm1.obj" -> "oa_dm1"
                           std::string name = param.param.path;
                           name = name.substr(name.rfind('/') + 1);
                           name = name.substr(0, name.find('.'));
                           for (char& ch : name) {
                             if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace ofps::test
