// Micro-benchmarks: octree build and every query kind on the shared levels, with brute force
// and (when available) Embree 3 beside them. Queries are placed as ../shared/bench/genqueries.py
// places them: half near the surfaces, half anywhere in the level's box.
//
//   octree_microbench [--benchmark_filter=oa_dm5]   (levels from OCTREE_FPS_SHARED_DIR)
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "octree_fps/io/obj_reader.h"
#include "octree_fps/spatial/brute_force.h"
#include "octree_fps/spatial/octree.h"

#if defined(OCTREE_FPS_HAVE_EMBREE)
#include <embree3/rtcore.h>
#endif

namespace {

using namespace ofps;

struct LevelInfo {
  const char* name;
  const char* path;
  float radius;  // character size in level units
};

const LevelInfo kLevels[] = {
    {"collision-world", "levels/collision-world/collision-world.obj", 0.35f},
    {"oa_dm1", "levels/oa_dm1/oa_dm1.obj", 16.0f},
    {"oa_dm5", "levels/oa_dm5/oa_dm5.obj", 16.0f},
    {"ons-reborn", "levels/ons-reborn/ons-reborn.obj", 16.0f},
    {"black_forest", "levels/black_forest/black_forest.obj", 0.5f},
};

struct Queries {
  std::vector<glm::vec3> origin, dir, a, b;
  std::vector<float> tMax;
};

struct Level {
  bool ok = false;
  ObjMesh mesh;
  std::vector<Triangle> tris;
  Octree octree;
  std::unique_ptr<BruteForce> brute;
  Aabb bounds;
  float radius = 1.0f;
  Queries q;
};

std::string sharedDir() {
  const char* env = std::getenv("OCTREE_FPS_SHARED_DIR");
  return env && *env ? env : OCTREE_FPS_SHARED_DIR;
}

Level& level(int i) {
  static Level levels[std::size(kLevels)];
  Level& L = levels[i];
  if (L.ok || L.mesh.positions.size()) return L;
  ObjReadResult r = readObj(sharedDir() + "/" + kLevels[i].path);
  if (!r.ok) return L;
  L.mesh = std::move(r.mesh);
  for (uint32_t t = 0; t < L.mesh.triangleCount(); ++t) {
    L.tris.push_back({L.mesh.positions[L.mesh.indices[3 * t]],
                      L.mesh.positions[L.mesh.indices[3 * t + 1]],
                      L.mesh.positions[L.mesh.indices[3 * t + 2]]});
    L.bounds.grow(L.tris.back().bounds());
  }
  L.octree.build(L.tris);
  L.brute = std::make_unique<BruteForce>(L.tris);
  L.radius = kLevels[i].radius;
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u01(0.0f, 1.0f);
  auto unit = [&] {
    for (;;) {
      const glm::vec3 v(u01(rng) * 2 - 1, u01(rng) * 2 - 1, u01(rng) * 2 - 1);
      const float l = std::sqrt(v.x * v.x + v.y * v.y + v.z * v.z);
      if (l > 1e-3f && l <= 1.0f) return v / l;
    }
  };
  const glm::vec3 ext = L.bounds.size();
  const float diag = std::sqrt(ext.x * ext.x + ext.y * ext.y + ext.z * ext.z);
  auto place = [&](int k) {
    if (k % 2 == 1) return L.bounds.min + ext * glm::vec3(u01(rng), u01(rng), u01(rng));
    const Triangle& t = L.tris[rng() % L.tris.size()];
    float s = u01(rng), w = u01(rng);
    if (s + w > 1) {
      s = 1 - s;
      w = 1 - w;
    }
    return t.v0 + (t.v1 - t.v0) * s + (t.v2 - t.v0) * w + unit() * (L.radius * 2.0f * u01(rng));
  };
  for (int k = 0; k < 8192; ++k) {
    L.q.origin.push_back(place(k));
    L.q.dir.push_back(unit());
    L.q.tMax.push_back(diag * 0.25f * u01(rng));
    L.q.a.push_back(L.q.origin.back());
    L.q.b.push_back(L.q.origin.back() + unit() * (L.radius * 2.0f));
  }
  L.ok = true;
  return L;
}

#define LEVEL_OR_SKIP(i)                                          \
  Level& L = level(i);                                            \
  if (!L.ok) {                                                    \
    state.SkipWithError("level not found (fetch-debian-levels)"); \
    return;                                                       \
  }

void BM_Build(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  Octree o;
  OctreeBuildReport r;
  for (auto _ : state) {
    r = o.build(L.mesh.positions, L.mesh.indices);
    benchmark::DoNotOptimize(r.nodeCount);
  }
  state.counters["tris"] = static_cast<double>(L.tris.size());
  state.counters["nodes"] = r.nodeCount;
  state.counters["depth"] = r.depth;
  state.counters["bytes/tri"] = static_cast<double>(r.bytes) / static_cast<double>(L.tris.size());
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(L.tris.size()));
}

void BM_Rebuild(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  Octree o;
  o.build(L.tris);
  uint32_t leaf = 4;
  for (auto _ : state) {
    leaf = leaf == 4 ? 12 : 4;  // as a slider would
    benchmark::DoNotOptimize(o.rebuild(OctreeBuildParams{leaf, 16, false}).nodeCount);
  }
}

template <class F>
void runQueries(benchmark::State& state, Level& L, F&& f) {
  size_t k = 0, hits = 0;
  QueryStats st;
  const size_t n = L.q.origin.size();
  for (auto _ : state) {
    hits += f(k % n, st);
    ++k;
  }
  state.SetItemsProcessed(static_cast<int64_t>(k));
  state.counters["hit%"] = 100.0 * static_cast<double>(hits) / static_cast<double>(k);
  state.counters["nodes/q"] = static_cast<double>(st.nodesVisited) / static_cast<double>(k);
  state.counters["tris/q"] = static_cast<double>(st.trianglesTested) / static_cast<double>(k);
}

void BM_Ray(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  runQueries(state, L, [&](size_t i, QueryStats& st) {
    RayHit h;
    return L.octree.raycast(L.q.origin[i], L.q.dir[i], L.q.tMax[i], kOctreeAllLayers, h, &st);
  });
}
void BM_RayAny(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  runQueries(state, L, [&](size_t i, QueryStats& st) {
    return L.octree.rayAny(L.q.origin[i], L.q.dir[i], L.q.tMax[i], kOctreeAllLayers, &st);
  });
}
void BM_Sphere(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  runQueries(state, L, [&](size_t i, QueryStats& st) {
    return L.octree.collectSphere(L.q.origin[i], L.radius, kOctreeAllLayers, {}, &st) > 0;
  });
}
void BM_Capsule(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  runQueries(state, L, [&](size_t i, QueryStats& st) {
    return L.octree.collectCapsule(L.q.a[i], L.q.b[i], L.radius, kOctreeAllLayers, {}, &st) > 0;
  });
}
void BM_Box(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  runQueries(state, L, [&](size_t i, QueryStats& st) {
    const Aabb box = Aabb::fromCenterHalfExtents(L.q.origin[i], glm::vec3(L.radius));
    return L.octree.collectBox(box, kOctreeAllLayers, {}, &st) > 0;
  });
}
void BM_SpherePush(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  runQueries(state, L, [&](size_t i, QueryStats& st) {
    PushOut p;
    return L.octree.sphereIntersect(L.q.origin[i], L.radius, kOctreeAllLayers, p, &st);
  });
}
void BM_CapsulePush(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  runQueries(state, L, [&](size_t i, QueryStats& st) {
    PushOut p;
    return L.octree.capsuleIntersect(L.q.a[i], L.q.b[i], L.radius, kOctreeAllLayers, p, &st);
  });
}
void BM_SweepSphere(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  runQueries(state, L, [&](size_t i, QueryStats& st) {
    SweepHit h;
    return L.octree.sweepSphere(L.q.origin[i], L.radius, L.q.dir[i] * (L.radius * 8.0f),
                                kOctreeAllLayers, h, &st);
  });
}
void BM_SweepCapsule(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  runQueries(state, L, [&](size_t i, QueryStats& st) {
    SweepHit h;
    return L.octree.sweepCapsule(L.q.a[i], L.q.b[i], L.radius, L.q.dir[i] * (L.radius * 8.0f),
                                 kOctreeAllLayers, h, &st);
  });
}
void BM_Closest(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  runQueries(state, L, [&](size_t i, QueryStats& st) {
    PointHit h;
    return L.octree.closestPoint(L.q.origin[i], L.radius * 4.0f, kOctreeAllLayers, h, &st);
  });
}
void BM_BruteRay(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  runQueries(state, L, [&](size_t i, QueryStats& st) {
    RayHit h;
    return L.brute->raycast(L.q.origin[i], L.q.dir[i], L.q.tMax[i], kOctreeAllLayers, h, &st);
  });
}
void BM_BruteCapsule(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  std::vector<uint32_t> out;
  runQueries(state, L, [&](size_t i, QueryStats& st) {
    return L.brute->overlapCapsule(L.q.a[i], L.q.b[i], L.radius, kOctreeAllLayers, out, &st) > 0;
  });
}

#if defined(OCTREE_FPS_HAVE_EMBREE)
struct EmbreeScene {
  RTCDevice device = nullptr;
  RTCScene scene = nullptr;
  ~EmbreeScene() {
    if (scene) rtcReleaseScene(scene);
    if (device) rtcReleaseDevice(device);
  }
};

void buildEmbree(Level& L, EmbreeScene& e) {
  e.device = rtcNewDevice("threads=1");
  e.scene = rtcNewScene(e.device);
  RTCGeometry g = rtcNewGeometry(e.device, RTC_GEOMETRY_TYPE_TRIANGLE);
  float* v = static_cast<float*>(rtcSetNewGeometryBuffer(
      g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 3 * sizeof(float), L.mesh.positions.size()));
  for (size_t i = 0; i < L.mesh.positions.size(); ++i) {
    v[3 * i] = L.mesh.positions[i].x;
    v[3 * i + 1] = L.mesh.positions[i].y;
    v[3 * i + 2] = L.mesh.positions[i].z;
  }
  unsigned* idx = static_cast<unsigned*>(rtcSetNewGeometryBuffer(
      g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 3 * sizeof(unsigned), L.mesh.triangleCount()));
  for (size_t i = 0; i < L.mesh.indices.size(); ++i) idx[i] = L.mesh.indices[i];
  rtcCommitGeometry(g);
  rtcAttachGeometry(e.scene, g);
  rtcReleaseGeometry(g);
  rtcCommitScene(e.scene);
}

void BM_EmbreeBuild(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  for (auto _ : state) {
    EmbreeScene e;
    buildEmbree(L, e);
  }
}

void BM_EmbreeRay(benchmark::State& state) {
  LEVEL_OR_SKIP(static_cast<int>(state.range(0)));
  EmbreeScene e;
  buildEmbree(L, e);
  RTCIntersectContext ctx;
  rtcInitIntersectContext(&ctx);
  runQueries(state, L, [&](size_t i, QueryStats&) {
    RTCRayHit rh;
    rh.ray.org_x = L.q.origin[i].x;
    rh.ray.org_y = L.q.origin[i].y;
    rh.ray.org_z = L.q.origin[i].z;
    rh.ray.dir_x = L.q.dir[i].x;
    rh.ray.dir_y = L.q.dir[i].y;
    rh.ray.dir_z = L.q.dir[i].z;
    rh.ray.tnear = 0.0f;
    rh.ray.tfar = L.q.tMax[i];
    rh.ray.mask = 0xFFFFFFFFu;
    rh.ray.flags = 0;
    rh.ray.time = 0.0f;
    rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
    rtcIntersect1(e.scene, &ctx, &rh);
    return rh.hit.geomID != RTC_INVALID_GEOMETRY_ID;
  });
}
#endif

}  // namespace

int main(int argc, char** argv) {
  struct Entry {
    const char* name;
    void (*fn)(benchmark::State&);
    int levels;  // how many of kLevels (brute force only on the small ones)
    bool ms;
  };
  const Entry entries[] = {
    {"Build", BM_Build, 5, true},
    {"Rebuild", BM_Rebuild, 5, true},
    {"Ray", BM_Ray, 5, false},
    {"RayAny", BM_RayAny, 5, false},
    {"Sphere", BM_Sphere, 5, false},
    {"Capsule", BM_Capsule, 5, false},
    {"Box", BM_Box, 5, false},
    {"SpherePush", BM_SpherePush, 5, false},
    {"CapsulePush", BM_CapsulePush, 5, false},
    {"SweepSphere", BM_SweepSphere, 5, false},
    {"SweepCapsule", BM_SweepCapsule, 5, false},
    {"Closest", BM_Closest, 5, false},
    {"BruteRay", BM_BruteRay, 3, false},
    {"BruteCapsule", BM_BruteCapsule, 3, false},
#if defined(OCTREE_FPS_HAVE_EMBREE)
    {"EmbreeBuild", BM_EmbreeBuild, 5, true},
    {"EmbreeRay", BM_EmbreeRay, 5, false},
#endif
  };
  for (const Entry& e : entries) {
    for (int i = 0; i < e.levels; ++i) {
      auto* b =
          benchmark::RegisterBenchmark((std::string(e.name) + "/" + kLevels[i].name).c_str(), e.fn);
      b->Arg(i);
      if (e.ms) b->Unit(benchmark::kMillisecond);
    }
  }
  // OCTREE_FPS_SIMD=baseline (or avx2): the kernels every benchmark runs (octreeUseSimd), to time
  // the two kernel sets of the same build against each other.
  if (const char* simd = std::getenv("OCTREE_FPS_SIMD"); simd != nullptr && *simd != '\0') {
    const std::string want(simd);
    const bool ok = want == "baseline" ? octreeUseSimd(OctreeSimd::kBaseline)
                                       : want == "avx2" && octreeUseSimd(OctreeSimd::kAvx2);
    if (!ok) {
      std::fprintf(stderr, "OCTREE_FPS_SIMD=%s: not available here (baseline or avx2)\n", simd);
      return 1;
    }
    std::fprintf(stderr, "kernels: %s\n", octreeSimdName(octreeSimd()));
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
