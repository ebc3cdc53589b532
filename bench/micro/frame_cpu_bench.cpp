// Micro-benchmark of the CPU side of one demo frame (goal: under 1 ms on the largest
// real level): the fixed controller steps due in a 60 Hz frame at 120 Hz (two), the octree
// frustum culling pass with plane masking, and building the merged draw-run list.
// BM_FrameCpuOcclusion: the same frame with the occlusion cull (culling/occlusion_cull.h, the
// demo's default settings, frustum-only count off as in the demo) in place of the frustum cull:
// the frame the occlusion issue's last goal names. Each
// iteration moves the camera to the next of 256 pre-chosen poses at eye height inside the level:
// unrelated views, each as costly as the first frame after a jump (the cull's history is dropped
// when the eye moves more than 1 m). Counters: nodes visited, runs and triangles drawn per frame.
// BM_FrameCpuWalk / BM_FrameCpuOcclusionWalk: the frame along scripted walks, the camera at the
// eye of the controller the frame steps (see frameCpuWalk below); their counter pass_cpu_us is
// the culling pass alone (the frame without the controller steps and the camera).
//
// Levels: the shared canonical OBJs (Quake ones converted to Y-up metres), ons-reborn (the
// largest) included; OCTREE_FPS_SHARED_DIR in the environment overrides the configured folder.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "bench_levels.h"
#include "octree_fps/controller/character_controller.h"
#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/culling/occlusion_cull.h"
#include "octree_fps/io/obj_reader.h"
#include "octree_fps/spatial/octree.h"
#include "support/scripted_walk.h"

namespace {

constexpr int kFramePoses = 256;  // camera poses per level

// This thread's CPU time (the culling pass alone, inside the frame: the pass_cpu_us counter;
// two clock reads per frame, about a microsecond against the pass's hundreds).
double threadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

// The q-quantile (0..1, nearest rank) of v, which it reorders; 0 for an empty v.
double quantile(std::vector<double>& v, double q) {
  if (v.empty()) return 0.0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(q * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

struct FrameLevel {
  bool ok = false;
  ofps::Octree octree;
  ofps::DrawRanges ranges;
  ofps::OcclusionCuller occlusion;  // built for the octree and ranges (every triangle occludes)
  std::vector<glm::mat4> viewProj;  // camera poses
  std::vector<glm::vec3> feet;      // a walkable spot under each pose (controller start)
};

FrameLevel& load(const std::string& name) {
  static std::map<std::string, FrameLevel> cache;
  auto [it, inserted] = cache.try_emplace(name);
  FrameLevel& L = it->second;
  if (!inserted) return L;
  ofps::ObjReadResult obj = ofps::bench::readLevelMetres(name);
  if (!obj.ok) return L;
  if (!L.octree.build(obj.mesh.positions, obj.mesh.indices).ok) return L;
  L.ranges.build(L.octree, {});
  L.occlusion.build(L.octree, L.ranges);
  // Camera poses: downward rays onto floors, eye 1.65 m above, random yaw, slight pitch.
  const ofps::Aabb b = L.octree.bounds();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> ux(b.min.x, b.max.x), uz(b.min.z, b.max.z),
      yaw(0.0f, 6.2831853f), pitch(-0.3f, 0.2f);
  for (int tries = 0; tries < 20000 && L.viewProj.size() < kFramePoses; ++tries) {
    ofps::RayHit hit;
    const glm::vec3 origin(ux(rng), b.max.y - 0.01f, uz(rng));
    if (!L.octree.raycast(origin, {0.0f, -1.0f, 0.0f}, b.max.y - b.min.y, ~0u, hit)) continue;
    if (hit.normal.y < 0.7f || hit.point.y > b.max.y - 5.0f) continue;  // skip sky lids
    const glm::vec3 eye = hit.point + glm::vec3(0.0f, 1.65f, 0.0f);
    const float y = yaw(rng), p = pitch(rng);
    const glm::vec3 fwd(-std::sin(y) * std::cos(p), std::sin(p), -std::cos(y) * std::cos(p));
    L.viewProj.push_back(glm::perspective(1.2f, 16.0f / 9.0f, 0.05f, 5000.0f) *
                         glm::lookAt(eye, eye + fwd, glm::vec3(0.0f, 1.0f, 0.0f)));
    L.feet.push_back(hit.point + glm::vec3(0.0f, 0.05f, 0.0f));
  }
  L.ok = !L.viewProj.empty();
  return L;
}

void frameCpu(benchmark::State& state, const std::string& name, bool occlusion) {
  FrameLevel& L = load(name);
  if (!L.ok) {
    state.SkipWithError(("level not available: " + ofps::bench::levelObjPath(name)).c_str());
    return;
  }
  ofps::CharacterController controller;
  ofps::CharacterInput input;
  input.forward = true;
  ofps::DrawRunList runs;
  size_t pose = 0;
  uint64_t nodes = 0, ranges = 0, triangles = 0, frames = 0;
  // Occlusion only: boxes tested and hidden, triangles tested one by one (those of visible nodes)
  // and hidden, occluders rasterized.
  uint64_t boxes = 0, boxesHidden = 0, trisTested = 0, trisHidden = 0, occluders = 0;
  uint64_t exhausted = 0;          // frames that reached the budget's box-only point
  std::vector<double> frameTimes;  // CPU seconds per frame, for its distribution
  frameTimes.reserve(state.max_iterations);
  for (auto _ : state) {
    const double frameStart = threadCpuSeconds();
    if (frames % 64 == 0) controller.teleport(L.feet[pose], 0.0f);  // keep walking somewhere new
    input.yaw += 0.01f;
    const float dt = controller.params().tickSeconds();
    controller.step(L.octree, input, dt);
    controller.step(L.octree, input, dt);
    if (occlusion) {
      ofps::OcclusionCullStats stats;
      ofps::OcclusionCullParams params;
      params.countFrustumOnly = false;  // as the demo: the frustum's figure comes from elsewhere
      if (state.range(0) == 0) params.workBudget = ofps::kOcclusionNoBudget;
      L.occlusion.cull(L.octree, L.ranges, L.viewProj[pose], &runs, &stats, params);
      nodes += stats.nodesTested;
      boxes += stats.nodesOcclusionTested;
      boxesHidden += stats.nodesOccluded;
      trisTested += stats.trianglesDrawnFrustumOnly;  // drawn triangles of visible nodes
      trisHidden += stats.trianglesOccluded;
      occluders += stats.occludersRasterized;
      exhausted += stats.budgetBoxesOnly;
    } else {
      ofps::CullStats stats;
      L.ranges.cull(L.octree, ofps::Frustum::fromViewProjection(L.viewProj[pose]), &runs, &stats);
      nodes += stats.nodesVisited;
    }
    benchmark::DoNotOptimize(runs.first.data());
    frameTimes.push_back(threadCpuSeconds() - frameStart);
    ranges += runs.first.size();
    triangles += runs.triangles;
    ++frames;
    pose = (pose + 1) % L.viewProj.size();
  }
  const double f = frames > 0 ? static_cast<double>(frames) : 1.0;
  state.counters["nodes_visited"] = static_cast<double>(nodes) / f;
  state.counters["nodes_total"] = L.octree.nodeCount();
  state.counters["runs"] = static_cast<double>(ranges) / f;
  state.counters["tris_drawn"] = static_cast<double>(triangles) / f;
  state.counters["tris_total"] = L.ranges.drawnTriangles();
  state.counters["frame_p50_us"] = 1e6 * quantile(frameTimes, 0.5);
  state.counters["frame_p99_us"] = 1e6 * quantile(frameTimes, 0.99);
  state.counters["frame_max_us"] = 1e6 * quantile(frameTimes, 1.0);
  if (occlusion) {
    state.counters["boxes"] = static_cast<double>(boxes) / f;
    state.counters["boxes_hidden"] = static_cast<double>(boxesHidden) / f;
    state.counters["tris_tested"] = static_cast<double>(trisTested) / f;
    state.counters["tris_hidden"] = static_cast<double>(trisHidden) / f;
    state.counters["occluders"] = static_cast<double>(occluders) / f;
    state.counters["budget_boxes_only"] = static_cast<double>(exhausted) / f;
  }
}

// The same frame along the scripted walks (tests/support/scripted_walk.h): the camera at the eye of
// the controller the frame steps, so consecutive frames are alike, as in play (and the occlusion
// cull's temporal coherence, on as in the demo, has a history to use). 16 walks of 64 frames,
// each frame exactly once per run.
constexpr uint32_t kWalks = 16, kWalkFrames = 64;

void frameCpuWalk(benchmark::State& state, const std::string& name, bool occlusion) {
  FrameLevel& L = load(name);
  if (!L.ok) {
    state.SkipWithError(("level not available: " + ofps::bench::levelObjPath(name)).c_str());
    return;
  }
  ofps::test::WalkPlayer walk(L.octree, L.feet, kWalks, kWalkFrames);
  ofps::OcclusionCullParams params;
  params.countFrustumOnly = false;  // as the demo
  params.temporalCoherence = occlusion && state.range(0) != 0;
  params.occluderPrepass = occlusion && state.range(0) == 1;
  if (occlusion && state.range(1) == 0) params.workBudget = ofps::kOcclusionNoBudget;
  ofps::DrawRunList runs;
  uint64_t triangles = 0, frames = 0, boxes = 0, assumed = 0, occluders = 0, exhausted = 0;
  double passSeconds = 0.0;
  // Per frame (allocated before the timed loop): the pass's and the whole frame's CPU seconds,
  // for the distribution a frame budget is about (a mean hides the frames that miss it); the
  // first frame of each walk follows a jump, so the cull has no history there.
  std::vector<double> passTimes, frameTimes, coldPassTimes;
  passTimes.reserve(state.max_iterations);
  frameTimes.reserve(state.max_iterations);
  coldPassTimes.reserve(state.max_iterations / kWalkFrames + 1);
  for (auto _ : state) {
    const double frameStart = threadCpuSeconds();
    const glm::mat4 viewProj = walk.next();  // the controller's two steps, then the camera
    const double passStart = threadCpuSeconds();
    if (occlusion) {
      ofps::OcclusionCullStats stats;
      L.occlusion.cull(L.octree, L.ranges, viewProj, &runs, &stats, params);
      boxes += stats.nodesOcclusionTested;
      assumed += stats.nodesAssumedVisible;
      occluders += stats.occludersRasterized;
      exhausted += stats.budgetBoxesOnly;
    } else {
      L.ranges.cull(L.octree, ofps::Frustum::fromViewProjection(viewProj), &runs);
    }
    const double passEnd = threadCpuSeconds();
    passSeconds += passEnd - passStart;
    benchmark::DoNotOptimize(runs.first.data());
    triangles += runs.triangles;
    passTimes.push_back(passEnd - passStart);
    frameTimes.push_back(passEnd - frameStart);
    if (frames % kWalkFrames == 0) coldPassTimes.push_back(passEnd - passStart);
    ++frames;
  }
  const double f = frames > 0 ? static_cast<double>(frames) : 1.0;
  state.counters["tris_drawn"] = static_cast<double>(triangles) / f;
  state.counters["pass_cpu_us"] = 1e6 * passSeconds / f;
  state.counters["pass_p50_us"] = 1e6 * quantile(passTimes, 0.5);
  state.counters["pass_p99_us"] = 1e6 * quantile(passTimes, 0.99);
  state.counters["pass_max_us"] = 1e6 * quantile(passTimes, 1.0);
  state.counters["cold_pass_us"] = 1e6 * quantile(coldPassTimes, 0.5);  // median over the walks
  state.counters["frame_p99_us"] = 1e6 * quantile(frameTimes, 0.99);
  state.counters["frame_max_us"] = 1e6 * quantile(frameTimes, 1.0);
  if (occlusion) {
    state.counters["boxes"] = static_cast<double>(boxes) / f;
    state.counters["nodes_assumed"] = static_cast<double>(assumed) / f;
    state.counters["occluders"] = static_cast<double>(occluders) / f;
    state.counters["budget_boxes_only"] = static_cast<double>(exhausted) / f;
  }
}

void BM_FrameCpuWalk(benchmark::State& state, const std::string& name) {
  frameCpuWalk(state, name, false);
}

// BM_FrameCpuOcclusionWalk/<level>/<history>/<budget>: history 0 none, 1 temporal coherence with
// the occluder prepass (the demo's default), 2 temporal coherence without the prepass; budget 1
// the default OcclusionCullParams::workBudget (the demo's), 0 none
void BM_FrameCpuOcclusionWalk(benchmark::State& state, const std::string& name) {
  frameCpuWalk(state, name, true);
}

void BM_FrameCpu(benchmark::State& state, const std::string& name) {
  frameCpu(state, name, false);
}

void BM_FrameCpuOcclusion(benchmark::State& state, const std::string& name) {
  frameCpu(state, name, true);
}

BENCHMARK_CAPTURE(BM_FrameCpu, collision_world, std::string("collision-world"))
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FrameCpu, oa_dm1, std::string("oa_dm1"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FrameCpu, oa_dm5, std::string("oa_dm5"))->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_FrameCpu, ons_reborn, std::string("ons-reborn"))
    ->Unit(benchmark::kMicrosecond);

// A whole number of pose cycles (the poses are walked in order, one per iteration): with an
// iteration count of Google Benchmark's choosing, binaries of different speed would average
// different pose sets. 256 iterations = each pose once (0.08 to 0.45 s per run in Release).
// BM_FrameCpuOcclusion/<level>/<budget>: 1 the default work budget, 0 none.
BENCHMARK_CAPTURE(BM_FrameCpuOcclusion, oa_dm1, std::string("oa_dm1"))
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(kFramePoses)
    ->Arg(0)
    ->Arg(1);
BENCHMARK_CAPTURE(BM_FrameCpuOcclusion, oa_dm5, std::string("oa_dm5"))
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(kFramePoses)
    ->Arg(0)
    ->Arg(1);
BENCHMARK_CAPTURE(BM_FrameCpuOcclusion, ons_reborn, std::string("ons-reborn"))
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(kFramePoses)
    ->Arg(0)
    ->Arg(1);

BENCHMARK_CAPTURE(BM_FrameCpuWalk, ons_reborn, std::string("ons-reborn"))
    ->Unit(benchmark::kMicrosecond)
    ->Iterations(kWalks* kWalkFrames);
// Each walk frame exactly once, in order.
void walkArgs(benchmark::internal::Benchmark* b) {
  b->Args({0, 0})->Args({1, 0})->Args({2, 0})->Args({0, 1})->Args({1, 1});
  b->Unit(benchmark::kMicrosecond)->Iterations(kWalks * kWalkFrames);
}
BENCHMARK_CAPTURE(BM_FrameCpuOcclusionWalk, oa_dm1, std::string("oa_dm1"))->Apply(walkArgs);
BENCHMARK_CAPTURE(BM_FrameCpuOcclusionWalk, oa_dm5, std::string("oa_dm5"))->Apply(walkArgs);
BENCHMARK_CAPTURE(BM_FrameCpuOcclusionWalk, ons_reborn, std::string("ons-reborn"))->Apply(walkArgs);

}  // namespace
