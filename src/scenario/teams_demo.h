#pragma once
// The grid tutorial's two-teams mode: N agents in two teams wander inside a box; every frame
// each agent asks "which enemies are within R of me?". The grid answers from the enemy team's
// own HashGrid; brute force would test every enemy (N_A x N_B checks per team, 2 x N_A x N_B in
// all). The panel shows both counts and a cell-size slider: the grid's checks are lowest near
// cellSize ~ R (smaller cells: more cells visited per query; larger: more candidates per cell).
//
// Frame and units: world space, metres, seconds. Agents are points (radius 0).
// Deterministic: the same params and dt sequence give the same states (own generator).
// Thread-safety: a plain value; one thread steps it; const reads are safe while nothing steps.

#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "octree_fps/geometry/aabb.h"
#include "octree_fps/spatial/hash_grid.h"

namespace ofps {

struct TeamsParams {
  uint32_t perTeam = 1000;  // agents in each team
  float radius = 2.0f;      // m, the "enemies within R" query radius
  float cellSize = 2.0f;    // m, both teams' grids (the sweet spot is about radius)
  float speed = 2.0f;       // m/s, wander speed
  Aabb bounds{glm::vec3(-25.0f, 0.5f, -25.0f), glm::vec3(25.0f, 2.5f, 25.0f)};  // where they live
  uint64_t seed = 1;
};

// One frame's work. Counters are for the whole frame (every agent's query added).
struct TeamsFrameStats {
  GridQueryStats grid;  // cells visited, candidates (the grid's checks), hits, and
                        // bruteForceChecks = the enemy count summed over agents (2 N_A N_B)
  uint64_t enemyPairsInRange = 0;  // hits / 2: each close pair is seen from both sides
};

// The grid's cost of one frame's queries at one cell size (TeamsDemo::measureCellSize).
struct CellSizeCost {
  float cellSize = 0.0f;  // m
  GridQueryStats grid;    // every agent's query, as TeamsFrameStats::grid
  double ms = 0.0;        // wall time of those queries (not counting the re-bucketing)
  // The grid's checks: a hash lookup per cell visited plus an exact test per candidate, the
  // figure the panel sets against brute force's N_A x N_B tests per team.
  uint64_t cost() const { return grid.cellsVisited + grid.candidates; }
};

// count cell sizes spaced evenly in log from lo to hi (m, 0 < lo <= hi), lo and hi included.
std::vector<float> logSpacedCellSizes(float lo, float hi, uint32_t count);
// The index of the lowest cost() in costs (the first of equal ones); 0 when empty.
size_t cheapestCellSize(std::span<const CellSizeCost> costs);

class TeamsDemo {
 public:
  explicit TeamsDemo(const TeamsParams& params = {});
  void reset(const TeamsParams& params);  // new agents from params.seed
  const TeamsParams& params() const { return params_; }
  // Re-buckets both grids (the slider); the agents stay where they are.
  void setCellSize(float cellSize);

  // Moves every agent (reflecting off the bounds), updates the grids, runs every agent's query.
  void step(float dt);
  // Runs every agent's query at the current positions (step() calls it); fills enemiesNear().
  const TeamsFrameStats& query();
  const TeamsFrameStats& lastStats() const { return stats_; }

  // Agents 0 .. perTeam-1 are team 0, perTeam .. 2 perTeam-1 team 1.
  uint32_t agentCount() const { return static_cast<uint32_t>(position_.size()); }
  uint32_t teamOf(uint32_t agent) const { return agent < params_.perTeam ? 0u : 1u; }
  std::span<const glm::vec3> positions() const { return position_; }
  std::span<const uint32_t> enemiesNear() const { return enemiesNear_; }  // after query()
  const HashGrid& teamGrid(uint32_t team) const { return grids_[team]; }

  // Brute-force oracle: for each agent, the enemies within radius (N_A x N_B tests per team).
  // Writes one count per agent; returns the checks made.
  uint64_t bruteForce(std::span<uint32_t> outEnemiesNear) const;

  // The frame's queries (every agent, radius R, current positions) on grids of cellSize > 0
  // built for the purpose: the demo's own grids, cell size and stats are left as they were.
  // O(agents) to bucket plus the queries; allocates the scratch grids on first use.
  CellSizeCost measureCellSize(float cellSize);

 private:
  TeamsParams params_;
  HashGrid grids_[2];
  std::vector<glm::vec3> position_;
  std::vector<glm::vec3> velocity_;
  std::vector<uint32_t> enemiesNear_;
  TeamsFrameStats stats_;
  HashGrid scratch_[2];  // measureCellSize's grids
};

}  // namespace ofps
