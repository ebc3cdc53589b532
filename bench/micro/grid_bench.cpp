// Micro-benchmarks of the sparse hash grid (the goals it was built for):
// - 100,000 moving props: grid update (move every object) plus frustum culling of the occupied
//   cells under 2 ms per frame on one core (BM_GridUpdateAndCull100k; the two halves alone in
//   BM_GridUpdate100k and BM_GridCull100k);
// - radius queries at least 20x faster than brute force at 10,000 props, uniform and clustered
//   (80 % in 1 % of the volume): BM_RadiusQueryGrid vs BM_RadiusQueryBrute, same queries.
// Props live in a 100 x 20 x 100 m box (a level's size); radius 0.1..0.4 m; cells of 2 m; query
// radius 2 m. Counters: cells occupied, cells visited, candidates, hits, brute-force checks.

#include <benchmark/benchmark.h>

#include <cmath>
#include <glm/gtc/matrix_transform.hpp>
#include <random>
#include <string>
#include <vector>

#include "octree_fps/culling/frustum.h"
#include "octree_fps/culling/grid_cull.h"
#include "octree_fps/spatial/hash_grid.h"

namespace {

using ofps::HashGrid;

struct Cloud {
  std::vector<glm::vec3> pos, vel;
  std::vector<float> radius;
};

const glm::vec3 kMin(-50.0f, 0.0f, -50.0f), kMax(50.0f, 20.0f, 50.0f);

Cloud makeCloud(uint32_t n, bool clustered, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  Cloud c;
  const glm::vec3 size = kMax - kMin;
  const glm::vec3 clusterMin = kMin + size * 0.3f;
  for (uint32_t i = 0; i < n; ++i) {
    glm::vec3 t(u(rng), u(rng), u(rng));
    // Clustered: 80 % in a box of 1 % of the volume (edge 0.215).
    c.pos.push_back(clustered && u(rng) < 0.8f ? clusterMin + t * size * 0.215f : kMin + t * size);
    c.vel.push_back(glm::vec3(u(rng) - 0.5f, u(rng) - 0.5f, u(rng) - 0.5f) * 8.0f);
    c.radius.push_back(0.1f + 0.3f * u(rng));
  }
  return c;
}

void fill(HashGrid& g, const Cloud& c) {
  for (uint32_t i = 0; i < c.pos.size(); ++i) g.insertSphere(i, c.pos[i], c.radius[i]);
}

void advance(Cloud& c, float dt) {
  for (size_t i = 0; i < c.pos.size(); ++i) {
    glm::vec3& p = c.pos[i];
    glm::vec3& v = c.vel[i];
    p += v * dt;
    for (int k = 0; k < 3; ++k) {
      if (p[k] < kMin[k] || p[k] > kMax[k]) {
        v[k] = -v[k];
        p[k] = std::fmin(std::fmax(p[k], kMin[k]), kMax[k]);
      }
    }
  }
}

ofps::Frustum camera(float t) {
  const glm::vec3 eye(std::sin(t) * 30.0f, 1.7f, std::cos(t) * 30.0f);
  const glm::mat4 proj = glm::perspective(glm::radians(75.0f), 16.0f / 9.0f, 0.05f, 200.0f);
  const glm::mat4 view = glm::lookAt(eye, glm::vec3(0.0f, 2.0f, 0.0f), glm::vec3(0.0f, 1.0f, 0.0f));
  return ofps::Frustum::fromViewProjection(proj * view);
}

void report(benchmark::State& state, const HashGrid& g, const ofps::GridQueryStats& st,
            double perIteration) {
  const double n = static_cast<double>(state.iterations()) * perIteration;
  state.counters["cells"] = g.occupiedCells();
  state.counters["cellsVisited"] = static_cast<double>(st.cellsVisited) / n;
  state.counters["candidates"] = static_cast<double>(st.candidates) / n;
  state.counters["hits"] = static_cast<double>(st.hits) / n;
  state.counters["bruteChecks"] = static_cast<double>(st.bruteForceChecks) / n;
}

// The 100k-prop frame: the cloud, its grid (2 m cells), the output buffer and the camera time.
struct Frame100k {
  Cloud c = makeCloud(100000, false, 1);
  HashGrid g{2.0f};
  std::vector<uint32_t> visible;
  ofps::GridQueryStats st;
  float t = 0.0f;
  Frame100k() {
    fill(g, c);
    visible.resize(c.pos.size());
  }
  // Every prop moved by 1/60 s of motion (the advance is the simulation's job, untimed).
  uint32_t move(benchmark::State& state) {
    state.PauseTiming();
    advance(c, 1.0f / 60.0f);
    state.ResumeTiming();
    uint32_t changed = 0;
    for (uint32_t i = 0; i < c.pos.size(); ++i) changed += g.move(i, c.pos[i]) ? 1u : 0u;
    return changed;
  }
  void cull() {
    t += 0.01f;
    benchmark::DoNotOptimize(ofps::cullGridFrustum(g, camera(t), visible, &st));
  }
};

// One frame: every prop moved (1/60 s of motion), then the frustum pass.
void BM_GridUpdateAndCull100k(benchmark::State& state) {
  Frame100k f;
  uint64_t changed = 0;
  for (auto _ : state) {
    changed += f.move(state);
    f.cull();
  }
  report(state, f.g, f.st, 1.0);
  state.counters["cellChanges"] =
      static_cast<double>(changed) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_GridUpdateAndCull100k)->Unit(benchmark::kMillisecond);

void BM_GridUpdate100k(benchmark::State& state) {
  Frame100k f;
  for (auto _ : state) f.move(state);
  state.counters["cells"] = f.g.occupiedCells();
}
BENCHMARK(BM_GridUpdate100k)->Unit(benchmark::kMillisecond);

void BM_GridCull100k(benchmark::State& state) {
  Frame100k f;
  for (auto _ : state) f.cull();
  report(state, f.g, f.st, 1.0);
}
BENCHMARK(BM_GridCull100k)->Unit(benchmark::kMillisecond);

// Radius queries at 10,000 props; arg 0 uniform, 1 clustered; arg 1 the cell size in tenths of
// the query radius (the sweet spot). Query centres: the props
// themselves (every 7th), as a prop asking for its neighbours does.
constexpr float kQueryRadius = 2.0f;

void BM_RadiusQueryGrid(benchmark::State& state) {
  const Cloud c = makeCloud(10000, state.range(0) != 0, 2);
  // Second arg: cell size in tenths of the query radius (10 = the radius).
  HashGrid g(kQueryRadius * static_cast<float>(state.range(1)) * 0.1f);
  fill(g, c);
  if (state.range(2) != 0) g.refreshQueryCache();  // once per frame, after the moves
  ofps::GridQueryStats st;
  uint32_t q = 0;
  uint32_t out[256];
  for (auto _ : state) {
    q = (q + 7) % 10000u;
    benchmark::DoNotOptimize(g.collectRadius(c.pos[q], kQueryRadius, out, &st));
  }
  report(state, g, st, 1.0);
  state.SetLabel(std::string(state.range(0) ? "clustered" : "uniform") +
                 (state.range(2) ? ", query cache" : ""));
}
// Third arg: 1 = refreshQueryCache() after filling (what a frame does once after its moves).
BENCHMARK(BM_RadiusQueryGrid)->ArgsProduct({{0, 1}, {5, 10, 15, 20}, {0, 1}});

// The clustered cloud's queries split by where they are: arg 0 = centres inside the cluster box
// (80 % of the props, ~150 hits per query: the hits alone are ~1.5 % of N), 1 = outside it;
// arg 1 = cell size in tenths of the radius. Grid and brute force on the same centres.
bool inCluster(const glm::vec3& p) {
  const glm::vec3 size = kMax - kMin;
  const glm::vec3 lo = kMin + size * 0.3f, hi = lo + size * 0.215f;
  return p.x >= lo.x && p.x <= hi.x && p.y >= lo.y && p.y <= hi.y && p.z >= lo.z && p.z <= hi.z;
}

std::vector<glm::vec3> clusterQueries(const Cloud& c, bool inside) {
  std::vector<glm::vec3> q;
  for (uint32_t i = 0; i < c.pos.size(); i += 7) {
    if (inCluster(c.pos[i]) == inside) q.push_back(c.pos[i]);
  }
  return q;
}

void BM_RadiusQueryClusterSplit(benchmark::State& state) {
  const Cloud c = makeCloud(10000, true, 2);
  const std::vector<glm::vec3> queries = clusterQueries(c, state.range(0) == 0);
  HashGrid g(kQueryRadius * static_cast<float>(state.range(1)) * 0.1f);
  fill(g, c);
  if (state.range(2) != 0) g.refreshQueryCache();
  ofps::GridQueryStats st;
  size_t q = 0;
  uint32_t out[512];
  for (auto _ : state) {
    q = q + 1 == queries.size() ? 0 : q + 1;
    benchmark::DoNotOptimize(g.collectRadius(queries[q], kQueryRadius, out, &st));
  }
  report(state, g, st, 1.0);
  state.SetLabel(std::string(state.range(0) == 0 ? "in cluster" : "outside cluster") +
                 (state.range(2) ? ", query cache" : ""));
}
BENCHMARK(BM_RadiusQueryClusterSplit)->ArgsProduct({{0, 1}, {5, 10, 20}, {0, 1}});

// Cost of refreshQueryCache() after a frame of moves: 10,000 and 100,000 props (cells 2 m).
void BM_GridRefreshQueryCache(benchmark::State& state) {
  Cloud c = makeCloud(static_cast<uint32_t>(state.range(0)), state.range(1) != 0, 3);
  HashGrid g(2.0f);
  fill(g, c);
  for (auto _ : state) {
    state.PauseTiming();
    advance(c, 1.0f / 60.0f);
    for (uint32_t i = 0; i < c.pos.size(); ++i) g.move(i, c.pos[i]);
    state.ResumeTiming();
    g.refreshQueryCache();
  }
  state.SetLabel(state.range(1) ? "clustered" : "uniform");
}
BENCHMARK(BM_GridRefreshQueryCache)
    ->ArgsProduct({{10000, 100000}, {0, 1}})
    ->Unit(benchmark::kMicrosecond);

// Brute force's radius query: every object whose sphere meets the query sphere around p; the
// first `cap` ids go to out. Returns how many there are.
uint32_t bruteRadiusQuery(const Cloud& c, const glm::vec3& p, uint32_t* out, uint32_t cap) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < c.pos.size(); ++i) {
    const glm::vec3 d = c.pos[i] - p;
    const float rr = kQueryRadius + c.radius[i];
    if (d.x * d.x + d.y * d.y + d.z * d.z <= rr * rr) {
      if (n < cap) out[n] = i;
      ++n;
    }
  }
  return n;
}

void BM_RadiusQueryClusterSplitBrute(benchmark::State& state) {
  const Cloud c = makeCloud(10000, true, 2);
  const std::vector<glm::vec3> queries = clusterQueries(c, state.range(0) == 0);
  size_t q = 0;
  uint32_t out[512];
  for (auto _ : state) {
    q = q + 1 == queries.size() ? 0 : q + 1;
    const glm::vec3 p = queries[q];
    const uint32_t n = bruteRadiusQuery(c, p, out, 512);
    benchmark::DoNotOptimize(n);
    benchmark::DoNotOptimize(out);
  }
  state.SetLabel(state.range(0) == 0 ? "in cluster" : "outside cluster");
}
BENCHMARK(BM_RadiusQueryClusterSplitBrute)->Arg(0)->Arg(1);

void BM_RadiusQueryBrute(benchmark::State& state) {
  const Cloud c = makeCloud(10000, state.range(0) != 0, 2);
  uint32_t q = 0;
  uint32_t out[256];
  for (auto _ : state) {
    q = (q + 7) % 10000u;
    const glm::vec3 p = c.pos[q];
    const uint32_t n = bruteRadiusQuery(c, p, out, 256);
    benchmark::DoNotOptimize(n);
    benchmark::DoNotOptimize(out);
  }
  state.SetLabel(state.range(0) ? "clustered" : "uniform");
}
BENCHMARK(BM_RadiusQueryBrute)->Arg(0)->Arg(1);

}  // namespace
