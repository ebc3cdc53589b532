// Micro-benchmark of the props simulation (goal: 10,000 props simulated at 60 Hz in real
// time on one core). One benchmark iteration is ONE SIMULATED SECOND (60 steps of 1/60 s), so
// real time means under 1000 ms per iteration.
// The level is built here (no Assimp in the micro-benchmarks): a 100 x 100 m floor in 2 m quads,
// four walls, and 200 random crates and ramps (~8,000 triangles). Props: PropsWorld::spawnRandom
// (70 % spheres, 30 % boxes).
// Args: 0 = the first second after spawning 10,000 over 80 x 80 m (all falling and landing);
//       1 = seconds 2..3 of the same (sliding, settling, falling asleep);
//       2 = seconds 1..2 of 10,000 dropped over 20 x 20 m (a deep pile: prop contacts dominate).
// Counters per step: awake props, prop contacts, grid candidates and brute force's checks,
// octree queries.

#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "octree_fps/props/props_world.h"

namespace {

void quad(std::vector<ofps::Triangle>& t, glm::vec3 a, glm::vec3 b, glm::vec3 c, glm::vec3 d) {
  t.push_back({a, b, c});
  t.push_back({a, c, d});
}

void box(std::vector<ofps::Triangle>& t, glm::vec3 lo, glm::vec3 hi) {
  const glm::vec3 v[8] = {{lo.x, lo.y, lo.z}, {hi.x, lo.y, lo.z}, {lo.x, hi.y, lo.z},
                          {hi.x, hi.y, lo.z}, {lo.x, lo.y, hi.z}, {hi.x, lo.y, hi.z},
                          {lo.x, hi.y, hi.z}, {hi.x, hi.y, hi.z}};
  quad(t, v[0], v[2], v[3], v[1]);
  quad(t, v[4], v[5], v[7], v[6]);
  quad(t, v[0], v[4], v[6], v[2]);
  quad(t, v[1], v[3], v[7], v[5]);
  quad(t, v[2], v[6], v[7], v[3]);
  quad(t, v[0], v[1], v[5], v[4]);
}

const ofps::Octree& level() {
  static const ofps::Octree o = [] {
    std::vector<ofps::Triangle> t;
    for (int i = 0; i < 50; ++i) {
      for (int k = 0; k < 50; ++k) {
        const float x = -50.0f + 2.0f * float(i), z = -50.0f + 2.0f * float(k);
        quad(t, {x, 0, z}, {x, 0, z + 2}, {x + 2, 0, z + 2}, {x + 2, 0, z});
      }
    }
    box(t, {-51, 0, -51}, {-50, 10, 51});
    box(t, {50, 0, -51}, {51, 10, 51});
    box(t, {-50, 0, -51}, {50, 10, -50});
    box(t, {-50, 0, 50}, {50, 10, 51});
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    for (int i = 0; i < 150; ++i) {
      const glm::vec3 c(u(rng) * 90 - 45, 0.0f, u(rng) * 90 - 45);
      const glm::vec3 h(0.3f + 1.5f * u(rng), 0.3f + 2.0f * u(rng), 0.3f + 1.5f * u(rng));
      box(t, c - glm::vec3(h.x, 0.0f, h.z), c + glm::vec3(h.x, 2.0f * h.y, h.z));
    }
    for (int i = 0; i < 50; ++i) {  // ramps
      const float x = u(rng) * 80 - 40, z = u(rng) * 80 - 40, h = 0.5f + 2.0f * u(rng);
      quad(t, {x, 0, z}, {x, h, z + 4}, {x + 3, h, z + 4}, {x + 3, 0, z});
    }
    ofps::Octree out;
    out.build(t);
    return out;
  }();
  return o;
}

void BM_PropsStep10k(benchmark::State& state) {
  const int mode = static_cast<int>(state.range(0));
  const ofps::Octree& o = level();
  const float dt = 1.0f / 60.0f;
  const ofps::Aabb area =
      mode == 2 ? ofps::Aabb{{-10, 1, -10}, {10, 40, 10}} : ofps::Aabb{{-40, 1, -40}, {40, 15, 40}};
  const int warmSteps = mode == 0 ? 0 : (mode == 1 ? 120 : 60);
  double awake = 0, contacts = 0, candidates = 0, gridHits = 0, brute = 0, octreeQueries = 0,
         steps = 0, cells = 0;
  uint64_t seed = 1;
  for (auto _ : state) {
    state.PauseTiming();
    ofps::PropsParams params;
    params.killPlaneY = -50.0f;
    ofps::PropsWorld w(params);
    w.spawnRandom(10000, o, area, seed++);
    for (int i = 0; i < warmSteps; ++i) w.step(o, dt);
    state.ResumeTiming();
    for (int i = 0; i < 60; ++i) {
      w.step(o, dt);
      const ofps::PropsStepStats& st = w.lastStepStats();
      awake += st.awake;
      contacts += st.contacts;
      candidates += static_cast<double>(st.grid.candidates);
      gridHits += static_cast<double>(st.grid.hits);
      cells += static_cast<double>(st.grid.cellsVisited);
      brute += static_cast<double>(st.grid.bruteForceChecks);
      octreeQueries += st.octreeQueries;
      steps += 1;
    }
  }
  state.counters["awake"] = awake / steps;
  state.counters["contacts"] = contacts / steps;
  state.counters["gridCandidates"] = candidates / steps;
  state.counters["gridHits"] = gridHits / steps;
  state.counters["gridCells"] = cells / steps;
  state.counters["bruteChecks"] = brute / steps;
  state.counters["octreeQueries"] = octreeQueries / steps;
  state.SetLabel(mode == 0   ? "1st second, falling"
                 : mode == 1 ? "3rd second, settling"
                             : "pile, 2nd second");
}
BENCHMARK(BM_PropsStep10k)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(2);

}  // namespace
