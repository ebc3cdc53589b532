// octree_bench: answers a ../shared/bench/FORMAT.md query file on a level with the octree, writes
// the result file and prints JSON on stdout. See bench/README.md.
//
//   octree_bench LEVEL.obj QUERIES [RESULTS] [--oracle] [--compare] [--threads N]
//   octree_bench LEVEL.obj QUERIES --scaling 10k,100k,1M,10M [--compare]
//
// Exit status: 0 success; 1 --oracle found a non-grazing disagreement with brute force;
// 2 bad arguments or bad input (the message names the file and line).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "bench_types.h"
#include "harness.h"
#include "octree_fps/spatial/octree.h"
#include "query_file.h"
#include "tiling.h"

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "octree_bench: %s\n", message.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace ofps::bench;
  using ofps::OctreeSimd;
  using Json = nlohmann::ordered_json;
  CLI::App app{
      "octree_bench: build the octree over LEVEL.obj, answer every query of QUERIES "
      "(../shared/bench/FORMAT.md) single-threaded, write RESULTS, print JSON on stdout.\n"
      "Exit status: 0 ok, 1 --oracle found a non-grazing disagreement, 2 bad input."};
  // Options are --name everywhere: on Windows CLI11 would also read "/name" as an option,
  // which takes an absolute POSIX path (Wine, MSYS) for one.
  app.allow_windows_style_options(false);
  std::string levelPath, queriesPath, resultsPath, jsonPath, scaling;
  RunOptions opt;
  app.add_option("LEVEL", levelPath, "level OBJ (v/f lines; triangles numbered in file order)")
      ->required();
  app.add_option("QUERIES", queriesPath, "query file (ray/sphere/capsule/box lines)")->required();
  app.add_option("RESULTS", resultsPath, "result file to write (one line per query)");
  app.add_flag("--oracle", opt.oracle,
               "also answer by brute force; print per-kind agreement and the octree's speed-up");
  app.add_flag("--compare", opt.compare,
               "also answer with Embree 3 and Bullet (when compiled in) in the same run; print "
               "their throughput and the octree's ratios. Bullet runs as two engines: 'bullet' "
               "(its BVH walk + our exact triangle tests) and 'bullet_contact' (its collision "
               "world: rayTest, contactTest)");
  app.add_option("--threads", opt.threads,
                 "build threads: the octree's partition runs on N threads (same tree for any N; "
                 "JSON 'threads' says how many it used), N is passed to Embree's device; Bullet "
                 "builds on one thread. Queries are always measured on one thread")
      ->check(CLI::Range(1u, 256u))
      ->default_val(1);
  app.add_option("--rounds", opt.rounds, "timed rounds after the warm-up (best pass reported)")
      ->check(CLI::Range(1u, 1000u))
      ->default_val(7);
  app.add_option("--build-rounds", opt.buildRounds,
                 "builds per engine, each from scratch; the fastest is reported")
      ->check(CLI::Range(1u, 100u))
      ->default_val(3);
  app.add_option("--oracle-limit", opt.oracleLimit,
                 "brute force answers only the first N queries of each kind (0: all)")
      ->default_val(0);
  app.add_option("--leaf", opt.octree.trianglesPerLeaf, "octree trianglesPerLeaf")
      ->check(CLI::Range(1u, 1u << 20))
      ->default_val(8);
  app.add_option("--max-level", opt.octree.maxLevel, "octree maxLevel (clamped to 24)")
      ->check(CLI::Range(0u, 64u))
      ->default_val(16);
  app.add_option("--scaling", scaling,
                 "tile LEVEL to each size (e.g. 10k,100k,1M,10M), move each query into a random "
                 "copy, and report build and query rates per size (no RESULTS, no --oracle)");
  app.add_option("--json", jsonPath, "also write the JSON to this file");
  app.add_flag("--tree-hash", opt.octree.treeHash,
               "hash every array of the built octree (Octree::structureHash, after the timed "
               "build) into JSON 'tree_hash': equal hashes, identical trees");
  app.add_option("--peers", opt.peers,
                 "with --compare: only these peers (embree, bullet, bullet_contact; default all)")
      ->delimiter(',')
      ->check(CLI::IsMember({"embree", "bullet", "bullet_contact"}));
  std::string simd = "auto";
  app.add_option("--simd", simd,
                 "octree query kernels: auto (the widest this CPU runs), baseline (four lanes, "
                 "SSE2) or avx2 (eight-lane ray casts); JSON 'simd' says which ran")
      ->check(CLI::IsMember({"auto", "baseline", "avx2"}))
      ->default_val("auto");
  bool quiet = false;
  app.add_flag("--quiet", quiet, "no human-readable summary on stderr");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  }
  opt.printSummary = !quiet;
  if (simd != "auto") {
    const OctreeSimd wanted = simd == "avx2" ? OctreeSimd::kAvx2 : OctreeSimd::kBaseline;
    if (!ofps::octreeUseSimd(wanted))
      return fail("--simd " + simd + ": not available on this CPU or build");
  }

  std::string error;
  Mesh level;
  if (!readLevel(levelPath, level, error)) return fail(error);
  QuerySet queries;
  if (!readQueries(queriesPath, queries, error)) return fail(error);

  if (!resultsPath.empty() && scaling.empty()) {
    // Fail before the (possibly long) run rather than after it.
    std::ofstream probe(resultsPath, std::ios::binary | std::ios::trunc);
    if (!probe) return fail(resultsPath + ": cannot open for writing");
  }
  if (!jsonPath.empty()) {
    std::ofstream probe(jsonPath, std::ios::binary | std::ios::trunc);
    if (!probe) return fail(jsonPath + ": cannot open for writing");
  }

  Json j;
  j["tool"] = "octree_bench";
  j["level"] = levelPath;
  j["queries"] = queriesPath;
  j["machine"] = machineJson();
  j["rounds"] = opt.rounds;
  j["build_rounds"] = opt.buildRounds;
  j["simd"] = ofps::octreeSimdName(ofps::octreeSimd());
  int status = 0;

  if (!scaling.empty()) {
    std::vector<uint64_t> sizes;
    if (!parseSizes(scaling, sizes, error)) return fail(error);
    if (opt.oracle || !resultsPath.empty()) {
      return fail("--scaling takes no RESULTS and no --oracle");
    }
    Json rows = Json::array();
    for (uint64_t n : sizes) {
      if (!quiet)
        std::fprintf(stderr, "--- scaling: %llu triangles\n", static_cast<unsigned long long>(n));
      TiledLevel tiled = tileLevel(level, n);
      const QuerySet moved = offsetQueries(queries, tiled.fullTileOffsets, 1);
      RunOutput r = runBench(tiled.mesh, moved, opt);
      if (!r.ok) return fail(r.error);
      r.json["copies_of_level"] = tiled.fullTileOffsets.size();
      rows.push_back(std::move(r.json));
    }
    j["scaling"] = std::move(rows);
  } else {
    RunOutput r = runBench(level, queries, opt);
    if (!r.ok) return fail(levelPath + ": " + r.error);
    if (!resultsPath.empty()) {
      if (!writeResults(resultsPath, queries, r.octreeAnswers, error)) return fail(error);
      j["results"] = resultsPath;
    }
    for (auto& [k, v] : r.json.items()) j[k] = v;
    if (opt.oracle && r.oracleNonGrazingDisagreements > 0) {
      std::fprintf(stderr, "octree_bench: %llu non-grazing disagreements with brute force\n",
                   static_cast<unsigned long long>(r.oracleNonGrazingDisagreements));
      status = 1;
    }
  }

  const std::string text = j.dump(2);
  std::printf("%s\n", text.c_str());
  if (!jsonPath.empty()) {
    std::ofstream f(jsonPath);
    f << text << "\n";
    if (!f) return fail(jsonPath + ": cannot write");
  }
  return status;
}
