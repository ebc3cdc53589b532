// --headless: no window, no GL. Load the level, build the octree, run the character (a script,
// or --frames idle steps), write the trace and the statistics.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "app/simulation/level_session.h"
#include "app/simulation/run_modes.h"
#include "app/simulation/simulation.h"
#include "app/simulation/stats_json.h"
#include "scenario/teams_demo.h"

namespace ofps::app {

int runHeadless(const DemoOptions& options) {
  std::string error;
  ScenarioParams params;
  std::optional<Script> script;
  if (!options.scriptPath.empty()) {
    Script loaded;
    if (!loadScriptFor(options.scriptPath, &params, &loaded, &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return 2;
    }
    script = std::move(loaded);
  }
  LevelSessionLoad load = loadLevelSession(options.levelPath, options, params.octree);
  if (!load.ok) {
    std::fprintf(stderr, "error: %s\n", load.error.c_str());
    return 1;
  }
  const std::unique_ptr<LevelSession> session = std::move(load.session);
  if (!options.screenshotPath.empty()) {
    std::fprintf(stderr, "warning: --screenshot ignored with --headless (nothing is drawn)\n");
  }
  if (!options.swapTo.empty()) {
    std::fprintf(stderr,
                 "warning: --swap-to ignored with --headless (level swaps run in the window's "
                 "loader)\n");
  }
  if (!options.occlusion) {
    std::fprintf(stderr, "warning: --no-occlusion ignored with --headless (nothing is culled)\n");
  }
  if (options.occlusionBudget) {
    std::fprintf(stderr,
                 "warning: --occlusion-budget ignored with --headless (nothing is culled)\n");
  }
  if (!options.temporalCoherence) {
    std::fprintf(stderr,
                 "warning: --no-temporal-coherence ignored with --headless (nothing is culled)\n");
  }

  Simulation sim;
  if (script) {
    sim.attachScript(*session, *script, params, !options.tracePath.empty(),
                     !options.propsTracePath.empty());
    // After the script's placed props (ids 0..), as the windowed demo does.
    if (options.spawnProps > 0) {
      sim.props().spawnRandom(options.spawnProps, session->octree, session->octree.bounds(), 1);
    }
    while (!sim.scriptFinished()) sim.step(*session, {});
    if ((!options.tracePath.empty() && !writeTextFile(options.tracePath, sim.traceCsv(), &error)) ||
        (!options.propsTracePath.empty() &&
         !writeTextFile(options.propsTracePath, sim.propsTraceCsv(), &error))) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return 1;
    }
  } else {
    // No script: the character stands at the spawn point for --frames steps (settling onto
    // the floor), so the stats show where it rests.
    sim.reset(*session, params);
    if (options.spawnProps > 0) {
      sim.props().spawnRandom(options.spawnProps, session->octree, session->octree.bounds(), 1);
    }
    for (int i = 0; i < options.frames; ++i) sim.step(*session, {});
  }

  if (!options.propsPath.empty() && !writeTextFile(options.propsPath, sim.propsCsv(), &error)) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 1;
  }
  if (!options.statsJsonPath.empty()) {
    nlohmann::json stats;
    stats["level"] = levelStats(*session);
    stats["octree"] = octreeStats(*session);
    stats["culling"] = nullptr;  // no view: nothing is culled or drawn
    stats["controller"] = controllerStats(sim.controller(), sim.steps(), sim.simulatedSeconds(),
                                          session->level.origin);
    stats["controller"]["jumps"] = sim.jumps();
    stats["props"] = propsStats(sim.props(), nullptr);
    if (options.teams) {
      // The two-teams grid mode without drawing: N frames at 60 Hz over the level's footprint.
      TeamsParams tp;
      const Level& l = session->level;
      tp.bounds = Aabb{glm::vec3(l.boundsMin.x, session->spawn.y + 0.5f, l.boundsMin.z),
                       glm::vec3(l.boundsMax.x, session->spawn.y + 2.5f, l.boundsMax.z)};
      TeamsDemo teams(tp);
      for (int i = 0; i < std::max(options.frames, 1); ++i) {
        teams.step(1.0f / 60.0f);
        teams.query();
      }
      const TeamsFrameStats& t = teams.lastStats();
      stats["teams"] = {{"per_team", tp.perTeam},
                        {"radius", tp.radius},
                        {"cell_size", tp.cellSize},
                        {"cells_visited", t.grid.cellsVisited},
                        {"candidates", t.grid.candidates},
                        {"hits", t.grid.hits},
                        {"brute_force_checks", t.grid.bruteForceChecks},
                        {"enemy_pairs_in_range", t.enemyPairsInRange}};
    }
    stats["run"] = {{"mode", "headless"}, {"frames", options.frames}};
    if (!writeStatsJson(options.statsJsonPath, stats, &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace ofps::app
