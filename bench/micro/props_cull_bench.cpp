// Props culled through the level's octree, side by side with the grid's linear cull
// and brute force, on ons-reborn (the largest shared level in the repo: 124,167 triangles).
// - 100,000 props spread over the level (on the ground: a ray down from 3/4 of the level's
//   height, then 0.3..3.3 m above the hit), radius / half-extents 0.1..0.4 m, cells of 2 m (as
//   grid_bench's 100k frame), each moving at up to 4 m/s per axis inside a 16 m box around its
//   spawn point;
// - views: 16 in-level camera poses (the eye 1.7 m above a random ground point, any yaw, pitch
//   -10..10 degrees) with the demo's projection (vertical fov 1.2 rad, 16:9, near 0.05 m, far 2 x
//   the level's diagonal), cycled per iteration;
// - counters: cells tested / occupied (goal: at most 25 % tested), props tested, visible, nodes.
// BM_PropsFrame*: one frame = move every prop + (links: sync) + cull; the goal is < 1 ms.
// BM_PropsCull*: the cull alone. "Octree" includes the level's own traversal (it is the same
// pass); BM_LevelCullOnly is that traversal without props, to subtract.
// The level is loaded in the demo's frame: Z-up Quake inches to Y-up metres.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <glm/gtc/matrix_transform.hpp>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_levels.h"
#include "octree_fps/culling/frustum.h"
#include "octree_fps/culling/grid_cull.h"
#include "octree_fps/culling/props_cull.h"
#include "octree_fps/io/obj_reader.h"
#include "octree_fps/spatial/hash_grid.h"
#include "octree_fps/spatial/octree.h"

namespace {

using ofps::Frustum;
using ofps::HashGrid;
using ofps::Octree;

struct Level {
  Octree octree;
  bool ok = false;
  std::vector<Frustum> views;
  std::vector<glm::vec3> ground;  // random ground points (eye and prop spawns)
};

const Level& onsReborn() {
  static const std::unique_ptr<Level> level = [] {
    auto l = std::make_unique<Level>();
    ofps::ObjReadResult obj = ofps::bench::readLevelMetres("ons-reborn");
    if (!obj.ok) return l;
    l->ok = l->octree.build(obj.mesh.positions, obj.mesh.indices).ok;
    if (!l->ok) return l;
    const ofps::Aabb b = l->octree.bounds();
    const glm::vec3 size = b.max - b.min;
    std::mt19937 rng(77);
    std::uniform_real_distribution<float> u(0.0f, 1.0f);
    // 4096 ground points: a ray down from 3/4 of the height (below the sky brushes).
    while (l->ground.size() < 4096) {
      const glm::vec3 o(b.min.x + size.x * (0.02f + 0.96f * u(rng)), b.min.y + 0.75f * size.y,
                        b.min.z + size.z * (0.02f + 0.96f * u(rng)));
      ofps::RayHit hit;
      if (!l->octree.raycast(o, glm::vec3(0.0f, -1.0f, 0.0f), size.y, ofps::kOctreeAllLayers,
                             hit)) {
        continue;
      }
      l->ground.push_back(hit.point);
    }
    const float diagonal = glm::length(size);
    const glm::mat4 proj = glm::perspective(1.2f, 16.0f / 9.0f, 0.05f, 2.0f * diagonal);
    for (uint32_t i = 0; i < 16; ++i) {
      const glm::vec3 eye = l->ground[i * 97 % l->ground.size()] + glm::vec3(0.0f, 1.7f, 0.0f);
      const float yaw = u(rng) * 6.2831853f;
      const float pitch = glm::radians(-10.0f + 20.0f * u(rng));
      const glm::vec3 fwd(std::cos(pitch) * std::sin(yaw), std::sin(pitch),
                          std::cos(pitch) * std::cos(yaw));
      l->views.push_back(Frustum::fromViewProjection(
          proj * glm::lookAt(eye, eye + fwd, glm::vec3(0.0f, 1.0f, 0.0f))));
    }
    return l;
  }();
  return *level;
}

struct Props {
  std::vector<glm::vec3> home, pos, vel;
  std::vector<float> radius;
};

Props makeProps(const Level& l, uint32_t n) {
  std::mt19937 rng(n);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  Props p;
  p.home.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    const glm::vec3 g = l.ground[rng() % l.ground.size()];
    // Spread around the ground point (the points are 4096 samples; props scatter 12 m around).
    const glm::vec3 c =
        g + glm::vec3((u(rng) - 0.5f) * 24.0f, 0.3f + 3.0f * u(rng), (u(rng) - 0.5f) * 24.0f);
    p.home.push_back(c);
    p.pos.push_back(c);
    p.vel.push_back(glm::vec3(u(rng) - 0.5f, (u(rng) - 0.5f) * 0.25f, u(rng) - 0.5f) * 8.0f);
    p.radius.push_back(0.1f + 0.3f * u(rng));
  }
  return p;
}

void advance(Props& p, float dt) {
  for (size_t i = 0; i < p.pos.size(); ++i) {
    p.pos[i] += p.vel[i] * dt;
    for (int k = 0; k < 3; ++k) {
      if (std::fabs(p.pos[i][k] - p.home[i][k]) > 8.0f) {
        p.vel[i][k] = -p.vel[i][k];
        p.pos[i][k] = p.home[i][k] + (p.pos[i][k] > p.home[i][k] ? 8.0f : -8.0f);
      }
    }
  }
}

struct Setup {
  Props props;
  HashGrid grid{2.0f};
  ofps::OctreeCellLinks links;
  std::vector<uint32_t> visible;
};

// One setup per prop count, shared by the benchmarks (the 1M relink takes a while).
Setup& setup(uint32_t n) {
  static std::map<uint32_t, std::unique_ptr<Setup>> cache;
  auto& s = cache[n];
  if (!s) {
    s = std::make_unique<Setup>();
    const Level& l = onsReborn();
    s->props = makeProps(l, n);
    for (uint32_t i = 0; i < n; ++i) s->grid.insertSphere(i, s->props.pos[i], s->props.radius[i]);
    s->links.relink(s->grid, l.octree);
    s->visible.resize(n);
  }
  return *s;
}

void report(benchmark::State& state, const ofps::PropsCullStats& st, uint64_t frames) {
  const double f = static_cast<double>(frames);
  state.counters["cellsOccupied"] = static_cast<double>(st.cellsOccupied) / f;
  state.counters["cellsTested"] = static_cast<double>(st.cellsTested) / f;
  state.counters["testedShare%"] = st.cellsOccupied ? 100.0 * static_cast<double>(st.cellsTested) /
                                                          static_cast<double>(st.cellsOccupied)
                                                    : 0.0;
  state.counters["propsTested"] = static_cast<double>(st.propsTested) / f;
  state.counters["visible"] = static_cast<double>(st.visible) / f;
  state.counters["nodes"] = static_cast<double>(st.nodesVisited) / f;
  state.counters["chunks"] = static_cast<double>(st.chunksTested) / f;
}

// The cull's counters averaged over exactly the 16 views, once (the timed loop's own counts
// would depend on how many times each view came up). Also the worst view's tested share.
void viewCounters(benchmark::State& state, const Level& l, Setup& s) {
  ofps::PropsCullStats sum;
  double worst = 0.0;
  for (const Frustum& f : l.views) {
    ofps::PropsCullStats st;
    ofps::cullLevelAndProps(l.octree, f, s.grid, s.links, nullptr, nullptr, s.visible, nullptr,
                            &st);
    worst = std::max(worst,
                     static_cast<double>(st.cellsTested) / static_cast<double>(st.cellsOccupied));
    sum += st;
  }
  report(state, sum, l.views.size());
  state.counters["worstView%"] = 100.0 * worst;
  state.counters["outsideCells"] =
      static_cast<double>(s.links.groups().groupCells(s.links.outsideGroup()).size());
}

// Level ranges are collected the way DrawRanges does (a visitor call per range).
void countRange(void* ctx, uint32_t, uint32_t, uint32_t count, bool) {
  *static_cast<uint64_t*>(ctx) += count;
}

// The level, or null after marking the benchmark skipped.
const Level* levelOrSkip(benchmark::State& state) {
  const Level& l = onsReborn();
  if (l.ok) return &l;
  state.SkipWithError("ons-reborn not found");
  return nullptr;
}

// The grid's linear cull (the old path, props only), its work added to st.
uint32_t linearCull(Setup& s, const Frustum& f, ofps::PropsCullStats& st) {
  ofps::GridQueryStats gs;
  const uint32_t n = ofps::cullGridFrustum(s.grid, f, s.visible, &gs);
  st.cellsTested += gs.cellsVisited;
  st.propsTested += gs.candidates;
  st.visible += gs.hits;
  st.cellsOccupied += s.grid.occupiedCells();
  return n;
}

// One frame's grid update: move() per prop, or one moveCenters() call. Returns the cell changes.
uint32_t moveAll(Setup& s, bool batched) {
  if (batched) return s.grid.moveCenters(s.props.pos);
  uint32_t changed = 0;
  for (uint32_t i = 0; i < s.props.pos.size(); ++i)
    changed += s.grid.move(i, s.props.pos[i]) ? 1u : 0u;
  return changed;
}

// The timed loop of the octree cull (level + props), cycling the views; then the view counters.
void timeOctreeCull(benchmark::State& state, const Level& l, Setup& s) {
  ofps::PropsCullStats st;
  uint64_t tris = 0, frames = 0;
  for (auto _ : state) {
    const Frustum& f = l.views[frames++ % l.views.size()];
    benchmark::DoNotOptimize(ofps::cullLevelAndProps(l.octree, f, s.grid, s.links, countRange,
                                                     &tris, s.visible, nullptr, &st));
  }
  viewCounters(state, l, s);
}

void BM_PropsCullOctree(benchmark::State& state) {
  const Level* lp = levelOrSkip(state);
  if (lp == nullptr) return;
  timeOctreeCull(state, *lp, setup(static_cast<uint32_t>(state.range(0))));
  state.SetLabel("level + props, one traversal");
}
BENCHMARK(BM_PropsCullOctree)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMicrosecond);

void BM_PropsCullGridLinear(benchmark::State& state) {
  const Level* lp = levelOrSkip(state);
  if (lp == nullptr) return;
  const Level& l = *lp;
  Setup& s = setup(static_cast<uint32_t>(state.range(0)));
  ofps::PropsCullStats st;
  uint64_t frames = 0;
  for (auto _ : state) {
    const Frustum& f = l.views[frames++ % l.views.size()];
    benchmark::DoNotOptimize(linearCull(s, f, st));
  }
  report(state, st, frames);
  state.SetLabel("props only (add BM_LevelCullOnly)");
}
BENCHMARK(BM_PropsCullGridLinear)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMicrosecond);

void BM_PropsCullBrute(benchmark::State& state) {
  const Level* lp = levelOrSkip(state);
  if (lp == nullptr) return;
  const Level& l = *lp;
  Setup& s = setup(static_cast<uint32_t>(state.range(0)));
  uint64_t frames = 0, visible = 0;
  for (auto _ : state) {
    const Frustum& f = l.views[frames++ % l.views.size()];
    visible += ofps::cullPropsBruteForce(f, s.grid, s.visible);
  }
  state.counters["visible"] = static_cast<double>(visible) / static_cast<double>(frames);
}
BENCHMARK(BM_PropsCullBrute)->Arg(100000)->Arg(1000000)->Unit(benchmark::kMicrosecond);

void BM_LevelCullOnly(benchmark::State& state) {
  const Level* lp = levelOrSkip(state);
  if (lp == nullptr) return;
  const Level& l = *lp;
  uint64_t tris = 0, frames = 0;
  ofps::CullStats cs;
  for (auto _ : state) {
    const Frustum& f = l.views[frames++ % l.views.size()];
    ofps::cullOctree(l.octree, f, countRange, &tris, &cs);
  }
  state.counters["nodes"] = static_cast<double>(cs.nodesVisited) / static_cast<double>(frames);
}
BENCHMARK(BM_LevelCullOnly)->Unit(benchmark::kMicrosecond);

// One frame: every prop moved (1/60 s), links synced, then the cull. arg 1: 0 = octree links
// with move() per prop, 1 = move() per prop, the grid's linear cull plus the level's own cull
// (the old frame), 2 = octree links with one moveCenters() call for all props.
void BM_PropsFrame(benchmark::State& state) {
  const Level* lp = levelOrSkip(state);
  if (lp == nullptr) return;
  const Level& l = *lp;
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  const bool linear = state.range(1) == 1;
  const bool batched = state.range(1) == 2;
  Setup& s = setup(n);
  ofps::PropsCullStats st;
  uint64_t tris = 0, frames = 0, changed = 0;
  for (auto _ : state) {
    state.PauseTiming();
    advance(s.props, 1.0f / 60.0f);  // the simulation's job, not the grid's
    state.ResumeTiming();
    changed += moveAll(s, batched);
    const Frustum& f = l.views[frames++ % l.views.size()];
    if (linear) {
      ofps::cullOctree(l.octree, f, countRange, &tris);
      benchmark::DoNotOptimize(linearCull(s, f, st));
    } else {
      s.links.sync(s.grid, l.octree);
      benchmark::DoNotOptimize(ofps::cullLevelAndProps(l.octree, f, s.grid, s.links, countRange,
                                                       &tris, s.visible, nullptr, &st));
    }
  }
  report(state, st, frames);
  state.counters["cellChanges"] = static_cast<double>(changed) / static_cast<double>(frames);
  state.SetLabel(linear    ? "move one by one + level cull + grid linear cull"
                 : batched ? "moveCenters + sync + one traversal (level + props)"
                           : "move one by one + sync + one traversal (level + props)");
}
BENCHMARK(BM_PropsFrame)
    ->Args({100000, 0})
    ->Args({100000, 1})
    ->Args({100000, 2})
    ->Args({1000000, 0})
    ->Args({1000000, 1})
    ->Args({1000000, 2})
    ->Unit(benchmark::kMillisecond);

// The grid update alone (the moves of one frame, links kept by the grid's map): arg 1 0 = move()
// per prop, 1 = one moveCenters() call. Same motion as BM_PropsFrame.
void BM_PropsGridUpdate(benchmark::State& state) {
  const Level* lp = levelOrSkip(state);
  if (lp == nullptr) return;
  const Level& l = *lp;
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  const bool batched = state.range(1) != 0;
  Setup& s = setup(n);
  uint64_t frames = 0, changed = 0;
  for (auto _ : state) {
    state.PauseTiming();
    advance(s.props, 1.0f / 60.0f);
    state.ResumeTiming();
    changed += moveAll(s, batched);
    ++frames;
  }
  s.links.sync(s.grid, l.octree);
  state.counters["cellChanges"] = static_cast<double>(changed) / static_cast<double>(frames);
  state.SetLabel(batched ? "moveCenters" : "move one by one");
}
BENCHMARK(BM_PropsGridUpdate)->ArgsProduct({{100000}, {0, 1}})->Unit(benchmark::kMillisecond);

// The cull with other link parameters: arg 1 the chunk edge in cells (1: no chunks, one per
// block), arg 2 log2 of the map's entry budget. Relinks before timing and back to the defaults
// after (the setup is shared).
void BM_PropsCullOctreeVariant(benchmark::State& state) {
  const Level* lp = levelOrSkip(state);
  if (lp == nullptr) return;
  const Level& l = *lp;
  Setup& s = setup(static_cast<uint32_t>(state.range(0)));
  s.links.setChunkCells(static_cast<uint32_t>(state.range(1)));
  s.links.setMaxMapEntries(1u << state.range(2));
  s.links.relink(s.grid, l.octree);
  timeOctreeCull(state, l, s);
  s.links.setChunkCells(8);  // the defaults (props_cull.h)
  s.links.setMaxMapEntries(1u << 20);
  s.links.relink(s.grid, l.octree);
}
BENCHMARK(BM_PropsCullOctreeVariant)
    ->ArgsProduct({{100000}, {1, 4, 8, 16}, {20}})
    ->Args({100000, 8, 22})
    ->Unit(benchmark::kMicrosecond);

// What linking a new cell without the map would cost: the descent from the root into the
// smallest containing child (OctreeCellLinks::nodeForBox, the rule the map is painted with) for
// the loose bounds of the occupied cells, one per iteration, cycling through them. The cost a
// map-free design (memory proportional to the occupied cells) would add to each cell creation.
void BM_PropsLinkDescent(benchmark::State& state) {
  const Level* lp = levelOrSkip(state);
  if (lp == nullptr) return;
  const Level& l = *lp;
  Setup& s = setup(static_cast<uint32_t>(state.range(0)));
  std::vector<ofps::Aabb> boxes;
  for (uint32_t c = 0; c < s.grid.occupiedCells(); ++c) {
    boxes.push_back(ofps::OctreeCellLinks::looseCellBounds(s.grid, c, s.grid.maxExtent()));
  }
  // Shuffled, as cells are created at random places.
  std::shuffle(boxes.begin(), boxes.end(), std::mt19937(5));
  size_t i = 0;
  uint64_t outside = 0;
  for (auto _ : state) {
    const uint32_t node = ofps::OctreeCellLinks::nodeForBox(l.octree, {}, boxes[i], ~0u);
    outside += node == l.octree.nodeCount() ? 1u : 0u;
    benchmark::DoNotOptimize(node);
    if (++i == boxes.size()) i = 0;
  }
  state.counters["cells"] = static_cast<double>(boxes.size());
  state.counters["outside%"] =
      100.0 * static_cast<double>(outside) / static_cast<double>(state.iterations());
}
BENCHMARK(BM_PropsLinkDescent)->Arg(100000)->Unit(benchmark::kNanosecond);

// Relinking every cell (octree slider, level swap).
void BM_PropsRelinkAll(benchmark::State& state) {
  const Level* lp = levelOrSkip(state);
  if (lp == nullptr) return;
  const Level& l = *lp;
  Setup& s = setup(static_cast<uint32_t>(state.range(0)));
  for (auto _ : state) s.links.relink(s.grid, l.octree);
  state.counters["cells"] = s.grid.occupiedCells();
}
BENCHMARK(BM_PropsRelinkAll)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

namespace {

// ---- The cell size ----------------------------------------------------------------------------
// The frame above uses 2 m cells, as grid_bench's 100k frame does; there, 100,000 props in a
// 100 x 20 x 100 m box hold about 4 per occupied cell. Spread over ons-reborn they hold about 1.1
// per 2 m cell, so nearly every cell change is a cell born and one dying. These measure the frame
// (and a neighbour query, the props' other use of the grid) against the cell size.

Setup& setupWithCell(uint32_t n, float cell) {
  static std::map<std::pair<uint32_t, float>, std::unique_ptr<Setup>> cache;
  auto& s = cache[{n, cell}];
  if (!s) {
    s = std::make_unique<Setup>();
    const Level& l = onsReborn();
    s->props = makeProps(l, n);
    s->grid.setCellSize(cell);
    for (uint32_t i = 0; i < n; ++i) s->grid.insertSphere(i, s->props.pos[i], s->props.radius[i]);
    s->links.relink(s->grid, l.octree);
    s->visible.resize(n);
  }
  return *s;
}

// arg 0: props; arg 1: the cell edge in tenths of a metre. One frame: moveCenters + sync + cull.
void BM_PropsFrameCellSize(benchmark::State& state) {
  const Level* lp = levelOrSkip(state);
  if (lp == nullptr) return;
  const Level& l = *lp;
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  Setup& s = setupWithCell(n, static_cast<float>(state.range(1)) * 0.1f);
  ofps::PropsCullStats st;
  uint64_t tris = 0, frames = 0, changed = 0;
  for (auto _ : state) {
    state.PauseTiming();
    advance(s.props, 1.0f / 60.0f);
    state.ResumeTiming();
    changed += s.grid.moveCenters(s.props.pos);
    const Frustum& f = l.views[frames++ % l.views.size()];
    s.links.sync(s.grid, l.octree);
    benchmark::DoNotOptimize(ofps::cullLevelAndProps(l.octree, f, s.grid, s.links, countRange,
                                                     &tris, s.visible, nullptr, &st));
  }
  viewCounters(state, l, s);  // the cull's counters over the 16 views, and the worst view
  state.counters["cellChanges"] = static_cast<double>(changed) / static_cast<double>(frames);
  state.counters["propsPerCell"] =
      static_cast<double>(n) / static_cast<double>(s.grid.occupiedCells());
}
BENCHMARK(BM_PropsFrameCellSize)
    ->ArgsProduct({{100000}, {20, 30, 40, 60, 80}})
    ->Unit(benchmark::kMillisecond);

// A prop asking for its neighbours within 1 m (contacts, avoidance), at every 64th prop, per
// query; arg 1 as above. The grid's other job, to weigh the cell size by.
void BM_PropsNeighboursCellSize(benchmark::State& state) {
  const Level* lp = levelOrSkip(state);
  if (lp == nullptr) return;
  const uint32_t n = static_cast<uint32_t>(state.range(0));
  Setup& s = setupWithCell(n, static_cast<float>(state.range(1)) * 0.1f);
  ofps::GridQueryStats st;
  uint32_t out[256];
  uint32_t q = 0;
  uint64_t queries = 0;
  for (auto _ : state) {
    q = (q + 64) % n;
    benchmark::DoNotOptimize(s.grid.collectRadius(s.props.pos[q], 1.0f, out, &st));
    ++queries;
  }
  const double nq = static_cast<double>(queries);
  state.counters["cellsVisited"] = static_cast<double>(st.cellsVisited) / nq;
  state.counters["candidates"] = static_cast<double>(st.candidates) / nq;
  state.counters["hits"] = static_cast<double>(st.hits) / nq;
}
BENCHMARK(BM_PropsNeighboursCellSize)
    ->ArgsProduct({{100000}, {20, 30, 40, 60, 80}})
    ->Unit(benchmark::kNanosecond);

}  // namespace
