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
#include "support/random_walker.h"

namespace {

struct CtrlLevel {
  bool ok = false;
  ofps::Octree octree;
  glm::vec3 spawn{0.0f};
};

// Same spawn rule as the soak test: walkable floor, room for the capsule, enclosed.
bool findSpawn(const ofps::Octree& o, const ofps::ControllerParams& p, glm::vec3& out) {
  const ofps::Aabb b = o.bounds();
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> ux(b.min.x, b.max.x), uz(b.min.z, b.max.z);
  int best = -1;
  for (int column = 0; column < 2000 && best < 8; ++column) {
    glm::vec3 origin(ux(rng), b.max.y + 1.0f, uz(rng));
    for (int k = 0; k < 16; ++k) {
      ofps::RayHit hit;
      if (!o.raycast(origin, {0.0f, -1.0f, 0.0f}, b.max.y - b.min.y + 2.0f, ~0u, hit)) break;
      origin = hit.point - glm::vec3(0.0f, 0.01f, 0.0f);
      if (hit.normal.y < 0.8f) continue;
      const glm::vec3 feet = hit.point + glm::vec3(0.0f, 0.05f, 0.0f);
      if (o.collectCapsule(feet + glm::vec3(0.0f, p.radius, 0.0f),
                           feet + glm::vec3(0.0f, p.height - p.radius, 0.0f), p.radius + 0.02f, ~0u,
                           {}) > 0) {
        continue;
      }
      int score = 0;
      for (int j = 0; j < 8; ++j) {
        const float a = 0.785398f * float(j);
        score += o.rayAny(feet + glm::vec3(0.0f, p.eyeHeight, 0.0f),
                          {std::cos(a), j % 2 ? 0.7f : 0.0f, std::sin(a)}, 200.0f, ~0u)
                     ? 1
                     : 0;
      }
      if (score > best) {
        best = score;
        out = feet;
      }
    }
  }
  return best >= 7;
}

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
  L.ok = findSpawn(L.octree, p, L.spawn);
  return L;
}

struct Walker {
  std::mt19937 rng{42};
  std::uniform_real_distribution<float> u01{0.0f, 1.0f};
  ofps::CharacterInput in;
  float turnRate = 0.0f;
  uint32_t i = 0;
  void next(float dt) {
    if (i++ % 30 == 0) {
      in.forward = u01(rng) < 0.7f;
      in.back = !in.forward && u01(rng) < 0.3f;
      in.left = u01(rng) < 0.2f;
      in.right = !in.left && u01(rng) < 0.2f;
      in.sprint = u01(rng) < 0.4f;
      in.crouch = u01(rng) < 0.08f;
      turnRate = (u01(rng) - 0.5f) * 6.0f;
    }
    in.jump = u01(rng) < 0.01f;
    in.yaw += turnRate * dt;
  }
};

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
