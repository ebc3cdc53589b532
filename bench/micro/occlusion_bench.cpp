// Occlusion culling through the octree (culling/occlusion_cull.h) against the frustum-only cull
// (DrawRanges::cull), on the shared Quake levels and ons-reborn.
//
// Camera paths (occlusion_levels.h, shared with occlusion_oracle.cpp): 256 poses, each at eye
// height (1.65 m) above a random floor point that has headroom, any yaw, pitch within +-17
// degrees, 70 degree vertical field of view at 16:9, near 0.05 m (deterministic: fixed seed); and
// the scripted walks from the same floor points. Each benchmark iteration culls the next pose, so
// the time per iteration is the CPU time of one frame's pass on one core.
//
// BM_OcclusionCull/<level>/<width>/<height>/<countFrustumOnly>/<testTriangles>/<10 x minimum
// occluder inradius in pixels>/<occluder budget, 0 = none>/<work budget in thousands of
// OcclusionWork units, 0 = none; OcclusionCullParams::workBudget>: the whole pass (frustum and
// occlusion tests, occluder rasterization, run list). Counters: per-frame means of triangles drawn,
// frustum-only triangles, nodes tested and occluded, occluders rasterized and their pixels; and
// over the 256 poses, computed once outside the timing: drawn / frustum-only as the mean of
// per-pose ratios, the ratio of the sums, and the 10th, 50th and 90th percentiles.
// These poses are unrelated to each other, so the cull's temporal coherence is off for them.
// BM_OcclusionWalk/<level>/<temporalCoherence>/<retestPeriod>/<retestDrawn>/<occluderPrepass>/
// <work budget in thousands, 0 = none>: the chosen configuration (retestDrawn:
// OcclusionCullParams::retestDrawn, off by default; occluderPrepass: on by default, used only with
// the history) along the scripted walks of tests/support/scripted_walk.h (16 walks of 64 frames
// from the same floor spots), each frame once per run and in order, so that the history follows the
// walk; the same counters (ratios from a first pass over the frames with the same setting).
// BM_FrustumCull/<level>: DrawRanges::cull alone, for comparison.
// How far these ratios can go at all: occlusion_oracle.cpp (a standalone tool) counts, along the
// same walks, the triangles an exact reference rasterizer sees, the floor under any culler that
// never hides a visible triangle.
// Results and their discussion: bench/micro/OCCLUSION_RESULTS.md.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "occlusion_levels.h"
#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/culling/occlusion_cull.h"
#include "octree_fps/spatial/octree.h"

namespace {

using ofps::bench::kWalkFrames;
using ofps::bench::kWalks;
using ofps::bench::OcclusionLevel;

OcclusionLevel& load(const std::string& name) {
  static std::map<std::string, OcclusionLevel> cache;
  auto [it, inserted] = cache.try_emplace(name);
  if (inserted) ofps::bench::loadOcclusionLevel(name, &it->second);
  return it->second;
}

// A benchmark argument: the work budget in thousands of units, 0 for none.
uint32_t workBudget(int64_t thousands) {
  return thousands > 0 ? static_cast<uint32_t>(thousands * 1000) : ofps::kOcclusionNoBudget;
}

// The pass over `frames` in order, one per iteration (each frame once per cycle: the history of
// temporal coherence follows the walk).
void occlusionCull(benchmark::State& state, const OcclusionLevel& L,
                   const std::vector<glm::mat4>& frames, uint32_t width, uint32_t height,
                   const ofps::OcclusionCullParams& params);

void BM_OcclusionCull(benchmark::State& state, const std::string& name) {
  OcclusionLevel& L = load(name);
  if (!L.ok) {
    state.SkipWithError(L.error.c_str());
    return;
  }
  ofps::OcclusionCullParams params;
  params.countFrustumOnly = state.range(2) != 0;
  params.testTriangles = state.range(3) != 0;
  params.minOccluderInradius = static_cast<double>(state.range(4)) / 10.0;
  if (state.range(5) > 0) params.maxOccluders = static_cast<uint32_t>(state.range(5));
  params.workBudget = workBudget(state.range(6));
  // Unrelated poses: no frame-to-frame coherence to use (and none assumed).
  params.temporalCoherence = false;
  occlusionCull(state, L, L.viewProj, static_cast<uint32_t>(state.range(0)),
                static_cast<uint32_t>(state.range(1)), params);
}

// BM_OcclusionWalk/<level>/<temporalCoherence>/<retestPeriod>/<retestDrawn>/<occluderPrepass>/
// <work budget in thousands, 0 = none>: the chosen configuration along the scripted walks (16 walks
// of 64 frames).
void BM_OcclusionWalk(benchmark::State& state, const std::string& name) {
  OcclusionLevel& L = load(name);
  if (!L.ok) {
    state.SkipWithError(L.error.c_str());
    return;
  }
  ofps::OcclusionCullParams params;
  params.countFrustumOnly = false;  // as the demo
  params.temporalCoherence = state.range(0) != 0;
  params.retestPeriod = static_cast<uint32_t>(state.range(1));
  params.retestDrawn = state.range(2) != 0;
  params.occluderPrepass = state.range(3) != 0;
  params.workBudget = workBudget(state.range(4));
  occlusionCull(state, L, L.walkFrames, 256, 128, params);
}

void occlusionCull(benchmark::State& state, const OcclusionLevel& L,
                   const std::vector<glm::mat4>& frames, uint32_t width, uint32_t height,
                   const ofps::OcclusionCullParams& params) {
  ofps::OcclusionCuller culler(width, height);
  culler.build(L.octree, L.ranges);
  ofps::DrawRunList runs;

  // The distribution over the poses, once, outside the timing.
  std::vector<double> ratios;
  double drawnSum = 0.0, frustumSum = 0.0;
  for (const glm::mat4& vp : frames) {
    ofps::OcclusionCullStats s;
    ofps::OcclusionCullParams counting = params;
    counting.countFrustumOnly = true;
    culler.cull(L.octree, L.ranges, vp, &runs, &s, counting);
    drawnSum += s.trianglesDrawn;
    frustumSum += s.trianglesDrawnFrustumOnly;
    if (s.trianglesDrawnFrustumOnly > 0) {
      ratios.push_back(static_cast<double>(s.trianglesDrawn) / s.trianglesDrawnFrustumOnly);
    }
  }
  std::sort(ratios.begin(), ratios.end());
  const auto pct = [&ratios](double q) {
    return ratios.empty() ? 0.0 : ratios[static_cast<size_t>(q * (ratios.size() - 1))];
  };
  double mean = 0.0;
  for (double r : ratios) mean += r;
  mean = ratios.empty() ? 0.0 : mean / ratios.size();

  ofps::OcclusionCullStats total;
  size_t pose = 0;
  uint64_t culls = 0;
  for (auto _ : state) {
    culler.cull(L.octree, L.ranges, frames[pose], &runs, &total, params);
    benchmark::DoNotOptimize(runs.first.data());
    ++culls;
    pose = (pose + 1) % frames.size();
  }
  const double f = culls > 0 ? static_cast<double>(culls) : 1.0;
  state.counters["tris_drawn"] = total.trianglesDrawn / f;
  if (params.countFrustumOnly) state.counters["tris_frustum"] = total.trianglesDrawnFrustumOnly / f;
  state.counters["nodes_tested"] = total.nodesTested / f;
  state.counters["nodes_occluded"] = total.nodesOccluded / f;
  state.counters["boxes_tested"] = total.nodesOcclusionTested / f;
  state.counters["tris_occluded"] = total.trianglesOccluded / f;
  state.counters["tris_outside"] = total.trianglesOutsideFrustum / f;
  if (params.temporalCoherence) {
    state.counters["nodes_assumed"] = total.nodesAssumedVisible / f;
    state.counters["tris_assumed"] = total.trianglesAssumedVisible / f;
    state.counters["occluders_prepassed"] = total.occludersPrepassed / f;
  }
  state.counters["occluders"] = total.occludersRasterized / f;
  // Shares of the frames that reached the budget's box-only point, and its end.
  state.counters["budget_boxes_only"] = total.budgetBoxesOnly / f;
  state.counters["budget_exhausted"] = total.budgetExhausted / f;
  state.counters["occluder_px"] = total.occluderPixels / f;
  state.counters["ratio_mean"] = mean;
  state.counters["ratio_of_sums"] = frustumSum > 0.0 ? drawnSum / frustumSum : 0.0;
  state.counters["ratio_p10"] = pct(0.1);
  state.counters["ratio_p50"] = pct(0.5);
  state.counters["ratio_p90"] = pct(0.9);
}

void BM_FrustumCull(benchmark::State& state, const std::string& name) {
  OcclusionLevel& L = load(name);
  if (!L.ok) {
    state.SkipWithError(L.error.c_str());
    return;
  }
  ofps::DrawRunList runs;
  size_t pose = 0;
  uint64_t triangles = 0, frames = 0;
  for (auto _ : state) {
    L.ranges.cull(L.octree, ofps::Frustum::fromViewProjection(L.viewProj[pose]), &runs);
    benchmark::DoNotOptimize(runs.first.data());
    triangles += runs.triangles;
    ++frames;
    pose = (pose + 1) % L.viewProj.size();
  }
  state.counters["tris_drawn"] = static_cast<double>(triangles) / (frames > 0 ? frames : 1);
}

void occlusionArgs(benchmark::internal::Benchmark* b) {
  // Without the work budget (the choices as measured before it), then with the default.
  b->Args({256, 128, 1, 1, 5, 0, 0})->Args({256, 128, 0, 1, 5, 0, 0});
  b->Args({256, 128, 1, 0, 5, 0, 0})->Args({256, 128, 1, 1, 20, 0, 0});
  b->Args({256, 128, 1, 1, 50, 0, 0})->Args({256, 128, 1, 1, 5, 250, 0});
  b->Args({256, 128, 1, 1, 5, 1000, 0})->Args({128, 64, 1, 1, 5, 0, 0});
  b->Args({512, 256, 1, 1, 5, 0, 0})->Args({256, 128, 1, 1, 5, 0, 600});
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK_CAPTURE(BM_OcclusionCull, oa_dm1, std::string("oa_dm1"))->Apply(occlusionArgs);
BENCHMARK_CAPTURE(BM_OcclusionCull, oa_dm5, std::string("oa_dm5"))->Apply(occlusionArgs);
BENCHMARK_CAPTURE(BM_OcclusionCull, ons_reborn, std::string("ons-reborn"))->Apply(occlusionArgs);
// Each walk frame exactly once, in order (the history needs the order; and the same frames for
// every binary).
void walkArgs(benchmark::internal::Benchmark* b) {
  // Without the work budget, then the demo's default configuration (with it).
  b->Args({0, 8, 0, 0, 0})->Args({1, 8, 0, 1, 0})->Args({1, 8, 0, 0, 0})->Args({1, 4, 0, 1, 0});
  b->Args({1, 16, 0, 1, 0})->Args({1, 8, 1, 1, 0})->Args({1, 8, 0, 1, 600});
  b->Iterations(kWalks * kWalkFrames)->Unit(benchmark::kMicrosecond);
}

BENCHMARK_CAPTURE(BM_OcclusionWalk, oa_dm1, std::string("oa_dm1"))->Apply(walkArgs);
BENCHMARK_CAPTURE(BM_OcclusionWalk, oa_dm5, std::string("oa_dm5"))->Apply(walkArgs);
BENCHMARK_CAPTURE(BM_OcclusionWalk, ons_reborn, std::string("ons-reborn"))->Apply(walkArgs);
BENCHMARK_CAPTURE(BM_FrustumCull, oa_dm1, std::string("oa_dm1"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FrustumCull, oa_dm5, std::string("oa_dm5"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FrustumCull, ons_reborn, std::string("ons-reborn"))
    ->Unit(benchmark::kMicrosecond);

}  // namespace
