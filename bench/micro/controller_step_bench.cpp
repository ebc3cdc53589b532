// Micro-benchmark of one character controller step (goal: <= 20 us on the real levels,
// single-threaded). Each level: a deterministic random walk (the soak test's input pattern)
// is pre-run for 2000 steps to reach a typical state; then the benchmark times steps of the same
// walk continuing, so it measures walking, sliding along walls, stairs, jumps and falls mixed as
// in play. Counters: octree queries, nodes visited and triangles tested per step.

#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>

#include "octree_fps/controller/character_controller.h"
#include "octree_fps/io/obj_reader.h"
#include "octree_fps/spatial/octree.h"
#include "support/enclosed_spawn.h"
#include "support/random_walker.h"

namespace {

struct CtrlLevel {
  bool ok = false;
  ofps::Octree octree;
  glm::vec3 spawn{0.0f};
};

CtrlLevel& level(const char* relative, bool quake) {
  static CtrlLevel levels[3];
  static bool loaded[3] = {};
  const int i = quake ? (std::string(relative).find("dm1") != std::string::npos ? 1 : 2) : 0;
  CtrlLevel& L = levels[i];
  if (loaded[i]) return L;
  loaded[i] = true;
  ofps::ObjReadResult obj = ofps::readObj(std::string(OCTREE_FPS_SHARED_DIR) + "/" + relative);
  if (!obj.ok) return L;
  if (quake) {
    for (glm::vec3& v : obj.mesh.positions) v = glm::vec3(v.x, v.z, -v.y) * 0.0254f;
  }
  const ofps::ControllerParams p;
  if (!L.octree.build(obj.mesh.positions, obj.mesh.indices, {}, {}).ok) return L;
  L.ok = ofps::test::findEnclosedSpawn(L.octree, p, L.spawn);
  return L;
}

void BM_ControllerStep(benchmark::State& state, const char* relative, bool quake) {
  CtrlLevel& L = level(relative, quake);
  if (!L.ok) {
    state.SkipWithError("level missing or no spawn found");
    return;
  }
  const ofps::ControllerParams p;
  ofps::CharacterController c(p);
  c.setSpawn(L.spawn, 0.0f);
  c.setKillPlaneY(L.octree.bounds().min.y - 50.0f);
  c.teleport(L.spawn, 0.0f);
  ofps::test::RandomWalker w;
  const float dt = p.tickSeconds();
  for (int k = 0; k < 2000; ++k) {
    c.step(L.octree, w.next(dt), dt);
  }
  uint64_t queries = 0, nodes = 0, tris = 0, steps = 0;
  for (auto _ : state) {
    c.step(L.octree, w.next(dt), dt);
    const ofps::ControllerStepStats& s = c.lastStepStats();
    queries += s.queryCount;
    nodes += s.queries.nodesVisited;
    tris += s.queries.trianglesTested;
    ++steps;
    benchmark::DoNotOptimize(c.feet());
  }
  if (steps > 0) {
    state.counters["queries/step"] = double(queries) / double(steps);
    state.counters["nodes/step"] = double(nodes) / double(steps);
    state.counters["tris/step"] = double(tris) / double(steps);
    state.counters["tris"] = double(L.octree.triangleCount());
  }
}

BENCHMARK_CAPTURE(BM_ControllerStep, collision_world, "levels/collision-world/collision-world.obj",
                  false)
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(100000);
BENCHMARK_CAPTURE(BM_ControllerStep, oa_dm1, "levels/oa_dm1/oa_dm1.obj", true)
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(100000);
BENCHMARK_CAPTURE(BM_ControllerStep, oa_dm5, "levels/oa_dm5/oa_dm5.obj", true)
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(100000);

}  // namespace
