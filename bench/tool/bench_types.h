#pragma once
// Shared types of octree_bench: queries and answers of ../shared/bench/FORMAT.md, and the Engine
// interface every measured implementation (the octree, brute force, Embree, Bullet) adapts to.
//
// Units and frame: the level's own (FORMAT.md: whatever the OBJ uses). Nothing here allocates
// inside a query.

#include <array>
#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace ofps::bench {

// RayAny is not a query file kind: the harness answers the file's rays a second time as any-hit
// (line of sight) queries, so that the octree's rayAny() is measured against Embree's
// rtcOccluded1 on the same rays. Its answers are hit flags only and are not written to the
// result file.
enum class Kind : uint8_t { Ray = 0, Sphere = 1, Capsule = 2, Box = 3, RayAny = 4 };
inline constexpr size_t kKindCount = 5;
inline constexpr std::array<Kind, kKindCount> kAllKinds = {Kind::Ray, Kind::Sphere, Kind::Capsule,
                                                           Kind::Box, Kind::RayAny};
const char* kindName(Kind kind);  // "ray", "sphere", "capsule", "box", "ray_any"

// One query. Field use by kind:
//   ray:     p = origin, q = UNIT direction (normalised by the reader), r = tmax (distance)
//   ray_any: as ray
//   sphere:  p = centre, r = radius
//   capsule: p = a, q = b (segment), r = radius
//   box:     p = min, q = max
struct Query {
  glm::vec3 p{0.0f};
  glm::vec3 q{0.0f};
  float r = 0.0f;
};

inline constexpr uint32_t kNoTriangle = 0xFFFFFFFFu;

// One answer. ray: hit, t (distance along the unit direction), triangle (original index).
// ray_any: hit only (t 0, no triangle): whether anything lies within [0, tmax].
// Overlap kinds: hit = (n > 0), n = number of triangles the closed shape touches.
struct Answer {
  bool hit = false;
  float t = 0.0f;
  uint32_t triangle = kNoTriangle;
  uint32_t n = 0;
};

// The level as indexed triangles, numbered in OBJ file order.
struct Mesh {
  std::vector<glm::vec3> positions;
  std::vector<uint32_t> indices;  // 3 per triangle
  uint32_t triangleCount() const { return static_cast<uint32_t>(indices.size() / 3); }
  // Bytes of the vertex and index arrays: a peer that builds over them in place (both Bullet
  // engines) reports this as its meshBytes.
  size_t bytes() const {
    return positions.size() * sizeof(glm::vec3) + indices.size() * sizeof(uint32_t);
  }
};

// Queries grouped by kind (each kind contiguous, for timing) plus the file order (for results).
struct QuerySet {
  std::array<std::vector<Query>, kKindCount> byKind;
  struct Ref {
    Kind kind;
    uint32_t index;  // into byKind[kind]
  };
  std::vector<Ref> order;  // file order
  size_t size() const { return order.size(); }
};

// What a build cost. bytes: memory the engine holds after the build (its structure plus any
// triangle data it keeps); meshBytes: caller-owned vertex and index buffers it reads at query
// time (shared, not copied). Total = bytes + meshBytes.
struct BuildInfo {
  double buildMs = 0.0;
  size_t bytes = 0;
  size_t meshBytes = 0;
  size_t peakBuildBytes = 0;  // largest live allocation total during the build (0 = unknown)
  size_t fixedBytes = 0;      // level-independent memory left out of bytes (0 = none), e.g. a
                              // physics world's preallocated pools; JSON fixed_overhead_bytes
  uint32_t threads = 1;       // threads the build actually used
  std::string notes;          // how it was built (shown in the JSON)
  std::string treeHash;       // octree only, with --tree-hash: Octree::structureHash() in hex
};

// A measured implementation. build() once, then answer() many times from one thread.
class Engine {
 public:
  virtual ~Engine() = default;
  virtual std::string name() const = 0;
  // Builds over `mesh`, which outlives the engine (peers may share its buffers). threads: the
  // build threads requested (an engine that cannot use them says so in BuildInfo::threads).
  // Returns false and an error message on failure.
  virtual bool build(const Mesh& mesh, uint32_t threads, BuildInfo& outInfo,
                     std::string& outError) = 0;
  // Answers queries[i] into answers[i] (same sizes). Single-threaded; the timed loop.
  virtual void answer(Kind kind, std::span<const Query> queries,
                      std::span<Answer> answers) const = 0;
  // False when the engine's answers of this kind are a related but different question from
  // FORMAT.md's (e.g. Bullet's contact points rather than exact triangle counts): the harness
  // then reports its agreement with the octree as informational only (no grazing
  // classification). Agreement of peers never changes the exit status either way.
  virtual bool answersExactly(Kind /*kind*/) const { return true; }
  // Work counters summed over the queries (untimed pass), when the engine has them.
  virtual bool workStats(Kind /*kind*/, std::span<const Query> /*queries*/,
                         uint64_t& /*outNodesVisited*/, uint64_t& /*outTrianglesTested*/) const {
    return false;
  }
};

struct OctreeEngineParams {
  uint32_t trianglesPerLeaf = 8;
  uint32_t maxLevel = 16;
  bool treeHash = false;  // hash the built tree (after the timed build) into BuildInfo::treeHash
};
std::unique_ptr<Engine> makeOctreeEngine(const OctreeEngineParams& params);
std::unique_ptr<Engine> makeBruteForceEngine();
std::unique_ptr<Engine> makeEmbreeEngine();  // nullptr when not compiled in
std::unique_ptr<Engine> makeBulletEngine();  // nullptr when not compiled in
// Bullet's collision-world API (contactTest/rayTest); nullptr when not compiled in.
std::unique_ptr<Engine> makeBulletContactEngine();

}  // namespace ofps::bench
