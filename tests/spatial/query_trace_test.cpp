// QueryTrace: the debug record of the nodes a query entered. The demo draws these nodes and
// their own triangles as "what the character's queries touched", so the record must be
// exactly the nodes whose own triangles the query tested: with every layer in the mask, the
// own-range sizes of the recorded nodes add up to QueryStats::trianglesTested, every recorded
// node was visited, and recording changes no answer.
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "octree_fps/spatial/octree.h"
#include "support/random_soup.h"

namespace ofps {
namespace {

uint64_t ownTriangles(const Octree& o, const std::vector<uint32_t>& nodes, uint32_t n) {
  uint64_t sum = 0;
  for (uint32_t i = 0; i < n; ++i) sum += o.ownRange(nodes[i]).count;
  return sum;
}

TEST(QueryTrace, RecordsExactlyTheNodesWhoseTrianglesWereTested) {
  const std::vector<Triangle> soup = test::makeRandomSoup(21);
  Octree o;
  ASSERT_TRUE(o.build(soup).ok);
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> u(-9.0f, 9.0f), r(0.1f, 2.0f);
  std::vector<uint32_t> storage(1 << 16);
  uint64_t recorded = 0;
  for (int q = 0; q < 400; ++q) {
    const glm::vec3 p(u(rng), u(rng), u(rng)), d(u(rng), u(rng), u(rng));
    const float radius = r(rng);
    for (int kind = 0; kind < 6; ++kind) {
      QueryTrace trace{storage.data(), static_cast<uint32_t>(storage.size())};
      QueryStats traced;
      traced.trace = &trace;
      QueryStats plain;
      bool a = false, b = false;
      switch (kind) {
        case 0: {
          RayHit h1, h2;
          a = o.raycast(p, d, 30.0f, kOctreeAllLayers, h1, &traced);
          b = o.raycast(p, d, 30.0f, kOctreeAllLayers, h2, &plain);
          if (a && b) {
            EXPECT_EQ(h1.triangle, h2.triangle);
          }
          break;
        }
        case 1:
          a = o.collectSphere(p, radius, kOctreeAllLayers, {}, &traced) > 0;
          b = o.collectSphere(p, radius, kOctreeAllLayers, {}, &plain) > 0;
          break;
        case 2: {
          PushOut p1, p2;
          a = o.capsuleIntersect(p, p + d * 0.1f, radius, kOctreeAllLayers, p1, &traced);
          b = o.capsuleIntersect(p, p + d * 0.1f, radius, kOctreeAllLayers, p2, &plain);
          EXPECT_EQ(p1.depth, p2.depth);
          break;
        }
        case 3: {
          SweepHit s1, s2;
          a = o.sweepCapsule(p, p + glm::vec3(0, 1, 0), radius * 0.5f, d, kOctreeAllLayers, s1,
                             &traced);
          b = o.sweepCapsule(p, p + glm::vec3(0, 1, 0), radius * 0.5f, d, kOctreeAllLayers, s2,
                             &plain);
          if (a && b) {
            EXPECT_EQ(s1.toi, s2.toi);
          }
          break;
        }
        case 4: {
          PointHit c1, c2;
          a = o.closestPoint(p, radius * 2.0f, kOctreeAllLayers, c1, &traced);
          b = o.closestPoint(p, radius * 2.0f, kOctreeAllLayers, c2, &plain);
          if (a && b) {
            EXPECT_EQ(c1.distance, c2.distance);
          }
          break;
        }
        default:
          a = o.rayAny(p, d, 30.0f, kOctreeAllLayers, &traced);
          b = o.rayAny(p, d, 30.0f, kOctreeAllLayers, &plain);
          break;
      }
      ASSERT_EQ(a, b) << "recording changed an answer (kind " << kind << ")";
      EXPECT_EQ(traced.nodesVisited, plain.nodesVisited);
      EXPECT_EQ(traced.trianglesTested, plain.trianglesTested);
      ASSERT_LE(trace.entered, storage.size());
      EXPECT_LE(trace.entered, traced.nodesVisited);
      // rayAny stops inside a node at its first hit, so it may test fewer than the node holds.
      if (kind == 5) {
        EXPECT_GE(ownTriangles(o, storage, trace.entered), traced.trianglesTested);
      } else {
        EXPECT_EQ(ownTriangles(o, storage, trace.entered), traced.trianglesTested)
            << "kind " << kind;
      }
      recorded += trace.entered;
    }
  }
  EXPECT_GT(recorded, 1000u) << "the queries should enter many nodes";
}

TEST(QueryTrace, CountsBeyondCapacityWithoutWriting) {
  const std::vector<Triangle> soup = test::makeRandomSoup(22);
  Octree o;
  ASSERT_TRUE(o.build(soup).ok);
  uint32_t two[2] = {0xDEADu, 0xBEEFu};
  QueryTrace trace{two, 2};
  QueryStats st;
  st.trace = &trace;
  o.collectSphere({0, 0, 0}, 30.0f, kOctreeAllLayers, {}, &st);  // enters every node
  EXPECT_EQ(trace.entered, o.nodeCount());
  EXPECT_EQ(trace.stored(), 2u);
  EXPECT_EQ(two[0], 0u) << "the root is entered first";
}

}  // namespace
}  // namespace ofps
