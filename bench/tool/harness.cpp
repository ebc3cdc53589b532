#include "harness.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <glm/geometric.hpp>
#include <thread>

#include "octree_fps/geometry/aabb.h"
#include "octree_fps/spatial/brute_force.h"
#include "octree_fps/spatial/octree.h"

namespace ofps::bench {
namespace {

using Json = nlohmann::ordered_json;

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

struct KindResult {
  std::vector<double> passMs;
  std::vector<Answer> answers;
  uint32_t hits = 0;
  double bestMs() const {
    return passMs.empty() ? 0.0 : *std::min_element(passMs.begin(), passMs.end());
  }
  double medianMs() const {
    if (passMs.empty()) return 0.0;
    std::vector<double> s = passMs;
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
  }
};

struct EngineRun {
  std::unique_ptr<Engine> engine;
  BuildInfo build;
  std::array<KindResult, kKindCount> kinds;
  bool singlePass = false;            // brute force: one timed pass, no warm-up
  std::vector<double> buildMsRounds;  // every build round, in order
};

struct Agreement {
  uint32_t agree = 0;
  uint32_t disagreeGrazing = 0;
  uint32_t disagreeOther = 0;
  std::vector<std::string> examples;  // first few non-grazing disagreements
};

bool sameAnswer(Kind kind, const Answer& a, const Answer& b, float tTolerance) {
  if (a.hit != b.hit) return false;
  if (!a.hit) return true;
  if (kind == Kind::Ray) return std::fabs(a.t - b.t) <= tTolerance;
  return a.n == b.n;  // ray_any: both 0
}

Answer bruteAnswer(const BruteForce& bf, Kind kind, const Query& q) {
  std::vector<uint32_t> scratch;
  uint32_t c = 0;
  switch (kind) {
    case Kind::Ray: {
      RayHit h;
      return bf.raycast(q.p, q.q, q.r, kOctreeAllLayers, h) ? Answer{true, h.t, h.triangle, 0}
                                                            : Answer{};
    }
    case Kind::RayAny: {
      RayHit h;
      return Answer{bf.raycast(q.p, q.q, q.r, kOctreeAllLayers, h), 0.0f, kNoTriangle, 0};
    }
    case Kind::Sphere:
      c = bf.overlapSphere(q.p, q.r, kOctreeAllLayers, scratch);
      break;
    case Kind::Capsule:
      c = bf.overlapCapsule(q.p, q.q, q.r, kOctreeAllLayers, scratch);
      break;
    case Kind::Box:
      c = bf.overlapBox(Aabb{q.p, q.q}, kOctreeAllLayers, scratch);
      break;
  }
  return {c > 0, 0.0f, kNoTriangle, c};
}

// Queries within eps of q (see harness.h).
std::vector<Query> perturbations(Kind kind, const Query& q, float eps) {
  std::vector<Query> out;
  auto moved = [&](const glm::vec3& d) {
    Query m = q;
    m.p += d;
    if (kind == Kind::Capsule || kind == Kind::Box) m.q += d;
    return m;
  };
  if (kind == Kind::Ray || kind == Kind::RayAny) {
    const glm::vec3 helper = std::fabs(q.q.x) < 0.6f ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
    const glm::vec3 u = glm::normalize(glm::cross(q.q, helper));
    const glm::vec3 v = glm::cross(q.q, u);
    for (const glm::vec3& d : {u, -u, v, -v}) out.push_back(moved(d * eps));
    Query a = q, b = q;
    a.r += eps;
    b.r = std::max(0.0f, b.r - eps);
    out.push_back(a);
    out.push_back(b);
    return out;
  }
  for (int axis = 0; axis < 3; ++axis) {
    glm::vec3 d(0.0f);
    d[axis] = eps;
    out.push_back(moved(d));
    out.push_back(moved(-d));
  }
  Query grown = q, shrunk = q;
  if (kind == Kind::Box) {
    grown.p -= eps, grown.q += eps;
    shrunk.p = glm::min(q.p + eps, 0.5f * (q.p + q.q));
    shrunk.q = glm::max(q.q - eps, 0.5f * (q.p + q.q));
  } else {
    grown.r += eps;
    shrunk.r = std::max(0.0f, q.r - eps);
  }
  out.push_back(grown);
  out.push_back(shrunk);
  return out;
}

std::string describe(Kind kind, const Query& q, const Answer& got, const Answer& want) {
  char buf[512];
  auto ans = [&](const Answer& a) {
    char b[96];
    if (!a.hit) return std::string("0");
    if (kind == Kind::Ray) {
      std::snprintf(b, sizeof b, "1 %.7g %u", static_cast<double>(a.t), a.triangle);
    } else {
      std::snprintf(b, sizeof b, "1 %u", a.n);
    }
    return std::string(b);
  };
  std::snprintf(buf, sizeof buf, "%s p(%.7g %.7g %.7g) q(%.7g %.7g %.7g) r %.7g: got %s, want %s",
                kindName(kind), static_cast<double>(q.p.x), static_cast<double>(q.p.y),
                static_cast<double>(q.p.z), static_cast<double>(q.q.x), static_cast<double>(q.q.y),
                static_cast<double>(q.q.z), static_cast<double>(q.r), ans(got).c_str(),
                ans(want).c_str());
  return buf;
}

// Compares `got` with `reference` query by query; disagreements are classified with brute force.
Agreement compare(Kind kind, std::span<const Query> qs, const std::vector<Answer>& got,
                  const std::vector<Answer>& reference, float tTolerance, float eps,
                  const BruteForce& bf) {
  Agreement a;
  for (size_t i = 0; i < qs.size(); ++i) {
    if (sameAnswer(kind, got[i], reference[i], tTolerance)) {
      ++a.agree;
      continue;
    }
    bool grazing = sameAnswer(kind, got[i], bruteAnswer(bf, kind, qs[i]), tTolerance);
    if (!grazing) {
      for (const Query& p : perturbations(kind, qs[i], eps)) {
        if (sameAnswer(kind, got[i], bruteAnswer(bf, kind, p), tTolerance)) {
          grazing = true;
          break;
        }
      }
    }
    if (grazing) {
      ++a.disagreeGrazing;
    } else {
      ++a.disagreeOther;
      if (a.examples.size() < 3) a.examples.push_back(describe(kind, qs[i], got[i], reference[i]));
    }
  }
  return a;
}

Json agreementJson(const Agreement& a, size_t count) {
  Json j;
  j["agree"] = a.agree;
  j["disagree_grazing"] = a.disagreeGrazing;
  j["disagree_other"] = a.disagreeOther;
  j["agreement"] = count ? static_cast<double>(a.agree) / static_cast<double>(count) : 1.0;
  j["agreement_non_grazing"] =
      count ? static_cast<double>(count - a.disagreeOther) / static_cast<double>(count) : 1.0;
  if (!a.examples.empty()) j["examples"] = a.examples;
  return j;
}

// Agreement of an engine whose answers of this kind are not exact (Engine::answersExactly): plain
// counts against the octree, no grazing classification (which would run brute force on most
// queries), informational only.
Json informationalAgreementJson(Kind kind, std::span<const Query> qs,
                                const std::vector<Answer>& got,
                                const std::vector<Answer>& reference, float tTolerance,
                                uint32_t& outAgree, uint32_t& outHitAgree) {
  uint32_t agree = 0, hitAgree = 0, peerOnly = 0, octreeOnly = 0, nBelow = 0, nAbove = 0;
  std::vector<std::string> examples;
  for (size_t i = 0; i < qs.size(); ++i) {
    const Answer& g = got[i];
    const Answer& r = reference[i];
    if (sameAnswer(kind, g, r, tTolerance)) {
      ++agree;
    } else if (examples.size() < 3) {
      examples.push_back(describe(kind, qs[i], g, r));
    }
    if (g.hit == r.hit) {
      ++hitAgree;
      if (g.hit && kind != Kind::Ray && kind != Kind::RayAny) {
        nBelow += g.n < r.n ? 1u : 0u;
        nAbove += g.n > r.n ? 1u : 0u;
      }
    } else {
      peerOnly += g.hit ? 1u : 0u;
      octreeOnly += r.hit ? 1u : 0u;
    }
  }
  const double count = static_cast<double>(qs.size());
  Json j;
  j["informational"] = true;
  j["agree"] = agree;
  j["disagree"] = static_cast<uint32_t>(qs.size()) - agree;
  j["agreement"] = qs.empty() ? 1.0 : agree / count;
  j["hit_agreement"] = qs.empty() ? 1.0 : hitAgree / count;
  j["hit_only_peer"] = peerOnly;
  j["hit_only_octree"] = octreeOnly;
  if (kind != Kind::Ray && kind != Kind::RayAny) {
    j["both_hit_n_below_octree"] = nBelow;
    j["both_hit_n_above_octree"] = nAbove;
  }
  if (!examples.empty()) j["examples"] = examples;
  outAgree = agree;
  outHitAgree = hitAgree;
  return j;
}

Json kindJson(const KindResult& r, size_t count) {
  Json j;
  const double best = r.bestMs();
  j["count"] = count;
  j["total_ms"] = best;
  j["queries_per_second"] = best > 0.0 ? static_cast<double>(count) / (best * 1e-3) : 0.0;
  j["hits"] = r.hits;
  j["median_ms"] = r.medianMs();
  j["passes"] = r.passMs.size();
  return j;
}

double qps(const KindResult& r, size_t count) {
  const double best = r.bestMs();
  return best > 0.0 ? static_cast<double>(count) / (best * 1e-3) : 0.0;
}

}  // namespace

Json machineJson() {
  Json j;
  std::string model = "unknown";
  std::ifstream cpu("/proc/cpuinfo");
  for (std::string line; std::getline(cpu, line);) {
    if (line.rfind("model name", 0) == 0) {
      const size_t colon = line.find(':');
      if (colon != std::string::npos) model = line.substr(colon + 2);
      break;
    }
  }
  j["cpu"] = model;
  j["logical_cpus"] = std::thread::hardware_concurrency();
  return j;
}

namespace {

// The query file's rays, answered a second time as any-hit rays (Kind::RayAny).
QuerySet withAnyHitRays(const QuerySet& in) {
  QuerySet s = in;
  s.byKind[static_cast<size_t>(Kind::RayAny)] = s.byKind[static_cast<size_t>(Kind::Ray)];
  return s;
}

}  // namespace

RunOutput runBench(const Mesh& mesh, const QuerySet& fileQueries, const RunOptions& opt) {
  const QuerySet queries = withAnyHitRays(fileQueries);
  RunOutput out;
  const uint32_t triangles = mesh.triangleCount();
  Aabb bounds;
  for (const glm::vec3& p : mesh.positions) bounds.grow(p);
  const float diagonal = glm::length(bounds.size());
  const float tTolerance = 1e-4f * diagonal;
  const float eps = 1e-5f * diagonal;

  // ---- engines ----------------------------------------------------------------------------------
  // Each engine is built `buildRounds` times, each time fresh, and the fastest build is reported
  // (the last one is kept for the queries): small levels build in about a millisecond, where one
  // sample on a shared machine is mostly noise. The rounds are interleaved (round b builds every
  // engine once), like the query passes, so that load from other processes falls on all engines
  // alike and the build ratios compare builds made at about the same time.
  std::vector<EngineRun> runs;
  std::vector<std::function<std::unique_ptr<Engine>()>> factories;
  runs.push_back({makeOctreeEngine(opt.octree), {}, {}, false, {}});
  factories.push_back([&] { return makeOctreeEngine(opt.octree); });
  if (opt.oracle) {
    runs.push_back({makeBruteForceEngine(), {}, {}, true, {}});
    factories.push_back([] { return makeBruteForceEngine(); });
  }
  Json unavailable = Json::object();
  auto wanted = [&](const char* name) {
    return opt.peers.empty() ||
           std::find(opt.peers.begin(), opt.peers.end(), std::string(name)) != opt.peers.end();
  };
  if (opt.compare) {
    if (!wanted("embree")) {
    } else if (auto e = makeEmbreeEngine()) {
      runs.push_back({std::move(e), {}, {}, false, {}});
      factories.push_back([] { return makeEmbreeEngine(); });
    } else {
      unavailable["embree"] =
          "not compiled in: Embree 3 was not found when octree_bench was configured "
          "(scripts/install-deps.sh --peers installs libembree-dev; then re-run cmake)";
    }
    if (!wanted("bullet")) {
    } else if (auto e = makeBulletEngine()) {
      runs.push_back({std::move(e), {}, {}, false, {}});
      factories.push_back([] { return makeBulletEngine(); });
    } else {
      unavailable["bullet"] =
          "not compiled in: Bullet was not found when octree_bench was configured "
          "(scripts/install-deps.sh --peers installs libbullet-dev; then re-run cmake)";
    }
    if (!wanted("bullet_contact")) {
    } else if (auto e = makeBulletContactEngine()) {
      runs.push_back({std::move(e), {}, {}, false, {}});
      factories.push_back([] { return makeBulletContactEngine(); });
    } else {
      unavailable["bullet_contact"] =
          "not compiled in: Bullet was not found when octree_bench was configured "
          "(scripts/install-deps.sh --peers installs libbullet-dev; then re-run cmake)";
    }
    for (auto& [name, why] : unavailable.items()) {
      std::fprintf(stderr, "octree_bench --compare: %s %s\n", name.c_str(),
                   why.get<std::string>().c_str());
    }
  }
  for (uint32_t b = 0; b < std::max(1u, opt.buildRounds); ++b) {
    for (size_t i = 0; i < runs.size(); ++i) {
      EngineRun& r = runs[i];
      if (opt.printSummary && b == 0)
        std::fprintf(stderr, "building %s...\n", r.engine->name().c_str());
      if (b > 0) {
        r.engine.reset();  // free the previous build first (memory counters, peak RSS)
        r.engine = factories[i]();
      }
      std::string error;
      r.build = BuildInfo{};
      if (!r.engine->build(mesh, opt.threads, r.build, error)) {
        out.error = r.engine->name() + ": build failed: " + error;
        return out;
      }
      r.buildMsRounds.push_back(r.build.buildMs);
    }
  }
  for (EngineRun& r : runs)
    r.build.buildMs = *std::min_element(r.buildMsRounds.begin(), r.buildMsRounds.end());
  auto medianOf = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
  };

  auto limited = [&](const std::vector<Query>& all) {
    const size_t n = opt.oracleLimit ? std::min<size_t>(opt.oracleLimit, all.size()) : all.size();
    return std::span<const Query>(all.data(), n);
  };

  // ---- answers and timing -----------------------------------------------------------------------
  std::vector<Answer> scratch;
  for (uint32_t round = 0; round <= opt.rounds; ++round) {
    for (Kind kind : kAllKinds) {
      const auto& all = queries.byKind[static_cast<size_t>(kind)];
      if (all.empty()) continue;
      for (EngineRun& r : runs) {
        KindResult& k = r.kinds[static_cast<size_t>(kind)];
        if (r.singlePass && round > 0) continue;
        const std::span<const Query> qs = r.singlePass ? limited(all) : std::span<const Query>(all);
        std::vector<Answer>& dst = round == 0 ? k.answers : scratch;
        dst.assign(qs.size(), Answer{});
        const double t0 = nowMs();
        r.engine->answer(kind, qs, dst);
        const double t1 = nowMs();
        if (round > 0 || r.singlePass) k.passMs.push_back(t1 - t0);
      }
    }
  }
  for (EngineRun& r : runs) {
    for (KindResult& k : r.kinds) {
      k.hits = static_cast<uint32_t>(
          std::count_if(k.answers.begin(), k.answers.end(), [](const Answer& a) { return a.hit; }));
    }
  }

  // ---- agreement --------------------------------------------------------------------------------
  const EngineRun& ours = runs[0];
  const EngineRun* brute = opt.oracle ? &runs[1] : nullptr;
  std::unique_ptr<BruteForce> classifier;
  auto bf = [&]() -> const BruteForce& {
    if (!classifier) {
      classifier =
          std::make_unique<BruteForce>(BruteForce::fromIndexed(mesh.positions, mesh.indices));
    }
    return *classifier;
  };

  // ---- JSON -------------------------------------------------------------------------------------
  Json& j = out.json;
  j["triangles"] = triangles;
  j["vertices"] = mesh.positions.size();
  j["diagonal"] = diagonal;
  j["build_ms"] = ours.build.buildMs;
  j["build_ms_median"] = medianOf(ours.buildMsRounds);
  j["build_ms_rounds"] = ours.buildMsRounds;
  if (!ours.build.treeHash.empty()) j["tree_hash"] = ours.build.treeHash;
  j["bytes"] = ours.build.bytes;
  j["bytes_per_triangle"] = static_cast<double>(ours.build.bytes) / std::max(1u, triangles);
  j["threads"] = ours.build.threads;
  j["threads_requested"] = opt.threads;
  j["build"] = ours.build.notes;
  Json kinds;
  for (Kind kind : kAllKinds) {
    kinds[kindName(kind)] = kindJson(ours.kinds[static_cast<size_t>(kind)],
                                     queries.byKind[static_cast<size_t>(kind)].size());
  }
  for (Kind kind : kAllKinds) {
    const auto& qs = queries.byKind[static_cast<size_t>(kind)];
    uint64_t nodes = 0, tris = 0;
    if (!qs.empty() && ours.engine->workStats(kind, qs, nodes, tris)) {
      Json& kj = kinds[kindName(kind)];
      kj["nodes_visited_per_query"] = static_cast<double>(nodes) / static_cast<double>(qs.size());
      kj["triangles_tested_per_query"] = static_cast<double>(tris) / static_cast<double>(qs.size());
    }
  }
  j["kinds"] = kinds;

  auto engineJson = [&](const EngineRun& r, const std::vector<Answer>* refAnswersByKind,
                        bool oracleSide) {
    Json e;
    const size_t total = r.build.bytes + r.build.meshBytes;
    e["build_ms"] = r.build.buildMs;
    e["build_ms_median"] = medianOf(r.buildMsRounds);
    e["build_ms_rounds"] = r.buildMsRounds;
    e["build_threads"] = r.build.threads;
    e["bytes"] = r.build.bytes;
    e["mesh_bytes"] = r.build.meshBytes;
    e["total_bytes"] = total;
    e["bytes_per_triangle"] = static_cast<double>(total) / std::max(1u, triangles);
    if (r.build.peakBuildBytes) e["peak_build_bytes"] = r.build.peakBuildBytes;
    if (r.build.fixedBytes) e["fixed_overhead_bytes"] = r.build.fixedBytes;
    e["notes"] = r.build.notes;
    if (!oracleSide) {
      e["build_time_ratio"] = r.build.buildMs > 0 ? ours.build.buildMs / r.build.buildMs : 0.0;
      // Median over the rounds: each round's builds ran back to back (interleaved above).
      const double theirMedian = medianOf(r.buildMsRounds);
      e["build_time_ratio_median"] =
          theirMedian > 0 ? medianOf(ours.buildMsRounds) / theirMedian : 0.0;
      e["memory_ratio"] = total ? static_cast<double>(ours.build.bytes) / total : 0.0;
    }
    Json ks;
    for (Kind kind : kAllKinds) {
      const size_t ki = static_cast<size_t>(kind);
      const std::span<const Query> qs =
          r.singlePass ? limited(queries.byKind[ki]) : std::span<const Query>(queries.byKind[ki]);
      Json kj = kindJson(r.kinds[ki], qs.size());
      const double theirs = qps(r.kinds[ki], qs.size());
      const double mine = qps(ours.kinds[ki], queries.byKind[ki].size());
      kj[oracleSide ? "speedup" : "ours_over_peer"] = theirs > 0 ? mine / theirs : 0.0;
      const std::vector<Answer>& ref =
          refAnswersByKind ? refAnswersByKind[ki] : ours.kinds[ki].answers;
      if (!oracleSide && !r.engine->answersExactly(kind)) {
        uint32_t agree = 0, hitAgree = 0;
        kj["agreement_with_octree"] = informationalAgreementJson(kind, qs, r.kinds[ki].answers, ref,
                                                                 tTolerance, agree, hitAgree);
        if (opt.printSummary) {
          const double n = qs.empty() ? 1.0 : static_cast<double>(qs.size());
          std::fprintf(stderr,
                       "%-14s %-8s agreement %.4f, hit flags %.4f (informational: not exact "
                       "answers, see its notes)\n",
                       r.engine->name().c_str(), kindName(kind), qs.empty() ? 1.0 : agree / n,
                       qs.empty() ? 1.0 : hitAgree / n);
        }
        ks[kindName(kind)] = kj;
        continue;
      }
      // oracleSide: grade OUR answers against brute force; else the peer's against ours.
      const Agreement a = oracleSide
                              ? compare(kind, qs, ours.kinds[ki].answers, r.kinds[ki].answers,
                                        tTolerance, eps, bf())
                              : compare(kind, qs, r.kinds[ki].answers, ref, tTolerance, eps, bf());
      if (oracleSide) out.oracleNonGrazingDisagreements += a.disagreeOther;
      if (opt.printSummary) {
        std::fprintf(
            stderr, "%-14s %-8s agreement %.4f (%u grazing, %u other disagreements)\n",
            r.engine->name().c_str(), kindName(kind),
            qs.empty() ? 1.0 : static_cast<double>(a.agree) / static_cast<double>(qs.size()),
            a.disagreeGrazing, a.disagreeOther);
        for (const std::string& ex : a.examples) std::fprintf(stderr, "    %s\n", ex.c_str());
      }
      kj[oracleSide ? "octree_agreement" : "agreement_with_octree"] = agreementJson(a, qs.size());
      ks[kindName(kind)] = kj;
    }
    e["kinds"] = ks;
    return e;
  };

  if (brute) j["oracle"] = engineJson(*brute, nullptr, true);
  Json peers = Json::object();
  for (size_t i = 1; i < runs.size(); ++i) {
    if (&runs[i] == brute) continue;
    peers[runs[i].engine->name()] = engineJson(runs[i], nullptr, false);
  }
  for (auto& [name, why] : unavailable.items())
    peers[name] = {{"available", false}, {"reason", why}};
  if (opt.compare) j["peers"] = peers;

  // ---- goals, evaluated from this run's ratios --------------------------------------------------
  if (opt.compare) {
    Json goals;
    const double bpt = static_cast<double>(ours.build.bytes) / std::max(1u, triangles);
    goals["bytes_per_triangle_at_most_48"] = bpt <= 48.0;
    if (peers.contains("embree") && peers["embree"].contains("kinds")) {
      const Json& em = peers["embree"];
      goals["rays_at_least_half_embree"] =
          em["kinds"]["ray"]["ours_over_peer"].get<double>() >= 0.5;
      // The rays-as-fast-as-Embree goals: nearest hit against rtcIntersect1, any hit against
      // rtcOccluded1, and the build under half of Embree's.
      goals["rays_at_least_embree"] = em["kinds"]["ray"]["ours_over_peer"].get<double>() >= 1.0;
      goals["ray_any_at_least_embree"] =
          em["kinds"]["ray_any"]["ours_over_peer"].get<double>() >= 1.0;
      goals["build_under_half_embree"] = em["build_time_ratio"].get<double>() < 0.5;
      for (const char* k : {"sphere", "capsule", "box"}) {
        goals[std::string(k) + "_at_least_embree"] =
            em["kinds"][k]["ours_over_peer"].get<double>() >= 1.0;
      }
      goals["build_faster_than_embree"] = em["build_time_ratio"].get<double>() < 1.0;
      goals["embree_build_threads"] = em["build_threads"];
    }
    if (peers.contains("bullet") && peers["bullet"].contains("kinds")) {
      const Json& bu = peers["bullet"];
      for (const char* k : {"sphere", "capsule", "box"}) {
        goals[std::string(k) + "_at_least_3x_bullet"] =
            bu["kinds"][k]["ours_over_peer"].get<double>() >= 3.0;
      }
    }
    if (peers.contains("bullet_contact") && peers["bullet_contact"].contains("kinds")) {
      const Json& bc = peers["bullet_contact"];
      for (const char* k : {"sphere", "capsule", "box"}) {
        goals[std::string(k) + "_at_least_3x_bullet_contact"] =
            bc["kinds"][k]["ours_over_peer"].get<double>() >= 3.0;
      }
    }
    j["goals"] = goals;
  }

  for (size_t k = 0; k < kKindCount; ++k) out.octreeAnswers[k] = ours.kinds[k].answers;

  // ---- human summary ----------------------------------------------------------------------------
  if (opt.printSummary) {
    std::fprintf(stderr,
                 "%u triangles; timed rounds %u (best pass shown), single-threaded queries\n",
                 triangles, opt.rounds);
    std::fprintf(stderr, "%-14s %10s %8s %10s | %11s %11s %11s %11s %11s\n", "engine", "build ms",
                 "threads", "B/tri", "ray q/s", "sphere q/s", "capsule q/s", "box q/s",
                 "ray_any q/s");
    for (const EngineRun& r : runs) {
      std::fprintf(
          stderr, "%-14s %10.1f %8u %10.1f |", r.engine->name().c_str(), r.build.buildMs,
          r.build.threads,
          static_cast<double>(r.build.bytes + r.build.meshBytes) / std::max(1u, triangles));
      for (Kind kind : kAllKinds) {
        const size_t ki = static_cast<size_t>(kind);
        const size_t n =
            r.singlePass ? limited(queries.byKind[ki]).size() : queries.byKind[ki].size();
        std::fprintf(stderr, " %11.0f", qps(r.kinds[ki], n));
      }
      std::fprintf(stderr, "\n");
    }
    for (size_t i = 1; i < runs.size(); ++i) {
      const EngineRun& r = runs[i];
      std::fprintf(stderr, "octree / %-14s throughput", r.engine->name().c_str());
      for (Kind kind : kAllKinds) {
        const size_t ki = static_cast<size_t>(kind);
        const size_t n = queries.byKind[ki].size();
        const double theirs =
            qps(r.kinds[ki], r.singlePass ? limited(queries.byKind[ki]).size() : n);
        std::fprintf(stderr, " %s %.2fx", kindName(kind),
                     theirs > 0 ? qps(ours.kinds[ki], n) / theirs : 0.0);
      }
      std::fprintf(stderr, "; build time %.2fx; memory %.2fx\n",
                   r.build.buildMs > 0 ? ours.build.buildMs / r.build.buildMs : 0.0,
                   static_cast<double>(ours.build.bytes) /
                       std::max<size_t>(1, r.build.bytes + r.build.meshBytes));
    }
  }
  out.ok = true;
  return out;
}

}  // namespace ofps::bench
