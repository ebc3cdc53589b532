#pragma once
// Builds every engine over one level, answers every query with each, times the answers and
// compares them. The timing protocol (also in bench/README.md):
// - Queries are answered single-threaded on the calling thread, kind by kind.
// - Round 0 is a warm-up whose answers are kept (and compared); then `rounds` timed rounds. In
//   each round every engine answers every query of a kind once, engines interleaved, so that
//   load from other processes hits all of them alike. A pass is timed with steady_clock.
// - total_ms is the best (fastest) pass; queries_per_second = count / best pass; median_ms is
//   also reported. Brute force (--oracle) runs one timed pass (no warm-up): it is O(n) per query.
// - Agreement (FORMAT.md): hit flags equal, n equal, ray t within 1e-4 of the level's diagonal
//   (triangle indices may differ on ties). A disagreement is "grazing" when the engine's answer
//   equals the brute-force answer of the same query perturbed by 1e-5 of the diagonal (origin or
//   centre moved along each axis or across the ray, radius/half-size/tmax grown or shrunk):
//   rounding can decide such a query either way.
// - An engine whose answers of a kind are not exact (Engine::answersExactly false: peer
//   "bullet_contact"'s overlaps, Bullet contact points) gets a plain, informational agreement
//   with the octree instead (no grazing classification). Peer agreement never sets the exit
//   status; only --oracle's non-grazing disagreements do.

#include <array>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench_types.h"

namespace ofps::bench {

struct RunOptions {
  bool oracle = false;       // also answer by brute force; report agreement and speed-up
  bool compare = false;      // also answer with Embree 3 and Bullet (two engines) when compiled in
  uint32_t threads = 1;      // build threads requested
  uint32_t rounds = 7;       // timed rounds after the warm-up
  uint32_t buildRounds = 3;  // builds per engine, engines interleaved; the fastest is reported
  uint32_t oracleLimit = 0;  // brute force answers only the first N queries of each kind (0: all)
  OctreeEngineParams octree;
  std::vector<std::string> peers;  // with compare: only the peers named here (empty: all)
  bool printSummary = true;        // human-readable table on stderr
};

struct RunOutput {
  bool ok = false;
  std::string error;
  nlohmann::ordered_json json;
  std::array<std::vector<Answer>, kKindCount> octreeAnswers;
  uint64_t oracleNonGrazingDisagreements = 0;  // octree vs brute force
};

RunOutput runBench(const Mesh& mesh, const QuerySet& queries, const RunOptions& options);

// "AMD EPYC (2 logical CPUs)" from /proc/cpuinfo and hardware_concurrency.
nlohmann::ordered_json machineJson();

}  // namespace ofps::bench
