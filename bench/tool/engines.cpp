// The octree and brute-force engines (the peers are in peer_embree.cpp, peer_bullet.cpp and
// peer_bullet_contact.cpp).
#include <chrono>
#include <cstdio>

#include "bench_types.h"
#include "octree_fps/geometry/aabb.h"
#include "octree_fps/spatial/brute_force.h"
#include "octree_fps/spatial/octree.h"

namespace ofps::bench {
namespace {

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

class OctreeEngine final : public Engine {
 public:
  explicit OctreeEngine(const OctreeEngineParams& p) : params_(p) {}
  std::string name() const override { return "octree"; }

  bool build(const Mesh& mesh, uint32_t threads, BuildInfo& outInfo,
             std::string& outError) override {
    OctreeBuildParams bp;
    bp.trianglesPerLeaf = params_.trianglesPerLeaf;
    bp.maxLevel = params_.maxLevel;
    bp.threads = threads;
    const double t0 = nowMs();
    const OctreeBuildReport r = octree_.build(mesh.positions, mesh.indices, {}, bp);
    const double t1 = nowMs();
    if (!r.ok) {
      outError = r.error;
      return false;
    }
    outInfo.buildMs = t1 - t0;  // wall time around build(), input validation included
    outInfo.bytes = octree_.bytes();
    outInfo.meshBytes = 0;            // the octree keeps its own copy of every triangle (in bytes)
    outInfo.threads = r.threadsUsed;  // the partition's threads (the rest of the build is serial)
    outInfo.notes = "trianglesPerLeaf " + std::to_string(bp.trianglesPerLeaf) + ", maxLevel " +
                    std::to_string(bp.maxLevel) + "; " + std::to_string(r.nodeCount) +
                    " nodes, depth " + std::to_string(r.depth) + "; " +
                    (r.threadsUsed == 1 ? std::string("single-threaded build")
                                        : std::to_string(r.threadsUsed) + "-thread partition");
    if (params_.treeHash) {
      char hex[17];
      std::snprintf(hex, sizeof(hex), "%016llx",
                    static_cast<unsigned long long>(octree_.structureHash()));
      outInfo.treeHash = hex;
    }
    return true;
  }

  void answer(Kind kind, std::span<const Query> qs, std::span<Answer> out) const override {
    const size_t n = qs.size();
    switch (kind) {
      case Kind::Ray:
        for (size_t i = 0; i < n; ++i) {
          RayHit h;
          if (octree_.raycast(qs[i].p, qs[i].q, qs[i].r, kOctreeAllLayers, h)) {
            out[i] = {true, h.t, h.triangle, 0};
          } else {
            out[i] = {};
          }
        }
        break;
      case Kind::Sphere:
        for (size_t i = 0; i < n; ++i) {
          const uint32_t c = octree_.collectSphere(qs[i].p, qs[i].r, kOctreeAllLayers, {});
          out[i] = {c > 0, 0.0f, kNoTriangle, c};
        }
        break;
      case Kind::Capsule:
        for (size_t i = 0; i < n; ++i) {
          const uint32_t c =
              octree_.collectCapsule(qs[i].p, qs[i].q, qs[i].r, kOctreeAllLayers, {});
          out[i] = {c > 0, 0.0f, kNoTriangle, c};
        }
        break;
      case Kind::Box:
        for (size_t i = 0; i < n; ++i) {
          const uint32_t c = octree_.collectBox(Aabb{qs[i].p, qs[i].q}, kOctreeAllLayers, {});
          out[i] = {c > 0, 0.0f, kNoTriangle, c};
        }
        break;
      case Kind::RayAny:
        for (size_t i = 0; i < n; ++i) {
          out[i] = {octree_.rayAny(qs[i].p, qs[i].q, qs[i].r, kOctreeAllLayers), 0.0f, kNoTriangle,
                    0};
        }
        break;
    }
  }

  bool workStats(Kind kind, std::span<const Query> qs, uint64_t& outNodes,
                 uint64_t& outTriangles) const override {
    outNodes = outTriangles = 0;
    for (const Query& q : qs) {
      QueryStats st;
      RayHit h;
      switch (kind) {
        case Kind::Ray:
          octree_.raycast(q.p, q.q, q.r, kOctreeAllLayers, h, &st);
          break;
        case Kind::Sphere:
          octree_.collectSphere(q.p, q.r, kOctreeAllLayers, {}, &st);
          break;
        case Kind::Capsule:
          octree_.collectCapsule(q.p, q.q, q.r, kOctreeAllLayers, {}, &st);
          break;
        case Kind::Box:
          octree_.collectBox(Aabb{q.p, q.q}, kOctreeAllLayers, {}, &st);
          break;
        case Kind::RayAny:
          octree_.rayAny(q.p, q.q, q.r, kOctreeAllLayers, &st);
          break;
      }
      outNodes += st.nodesVisited;
      outTriangles += st.trianglesTested;
    }
    return true;
  }

 private:
  OctreeEngineParams params_;
  Octree octree_;
};

class BruteForceEngine final : public Engine {
 public:
  std::string name() const override { return "brute_force"; }

  bool build(const Mesh& mesh, uint32_t /*threads*/, BuildInfo& outInfo,
             std::string& /*outError*/) override {
    const double t0 = nowMs();
    brute_ = BruteForce::fromIndexed(mesh.positions, mesh.indices);
    outInfo.buildMs = nowMs() - t0;
    outInfo.bytes = brute_.triangles().size_bytes();
    outInfo.threads = 1;
    outInfo.notes =
        "every triangle tested with the same exact tests "
        "(include/octree_fps/spatial/brute_force.h)";
    return true;
  }

  void answer(Kind kind, std::span<const Query> qs, std::span<Answer> out) const override {
    std::vector<uint32_t> scratch;
    scratch.reserve(1024);
    for (size_t i = 0; i < qs.size(); ++i) {
      const Query& q = qs[i];
      uint32_t c = 0;
      switch (kind) {
        case Kind::Ray: {
          RayHit h;
          out[i] = brute_.raycast(q.p, q.q, q.r, kOctreeAllLayers, h)
                       ? Answer{true, h.t, h.triangle, 0}
                       : Answer{};
          continue;
        }
        case Kind::RayAny: {
          RayHit h;
          out[i] = {brute_.raycast(q.p, q.q, q.r, kOctreeAllLayers, h), 0.0f, kNoTriangle, 0};
          continue;
        }
        case Kind::Sphere:
          c = brute_.overlapSphere(q.p, q.r, kOctreeAllLayers, scratch);
          break;
        case Kind::Capsule:
          c = brute_.overlapCapsule(q.p, q.q, q.r, kOctreeAllLayers, scratch);
          break;
        case Kind::Box:
          c = brute_.overlapBox(Aabb{q.p, q.q}, kOctreeAllLayers, scratch);
          break;
      }
      out[i] = {c > 0, 0.0f, kNoTriangle, c};
    }
  }

 private:
  BruteForce brute_;
};

}  // namespace

std::unique_ptr<Engine> makeOctreeEngine(const OctreeEngineParams& params) {
  return std::make_unique<OctreeEngine>(params);
}
std::unique_ptr<Engine> makeBruteForceEngine() {
  return std::make_unique<BruteForceEngine>();
}

#ifndef OCTREE_BENCH_HAVE_EMBREE
std::unique_ptr<Engine> makeEmbreeEngine() {
  return nullptr;
}
#endif
#ifndef OCTREE_BENCH_HAVE_BULLET
std::unique_ptr<Engine> makeBulletEngine() {
  return nullptr;
}
std::unique_ptr<Engine> makeBulletContactEngine() {
  return nullptr;
}
#endif

}  // namespace ofps::bench
