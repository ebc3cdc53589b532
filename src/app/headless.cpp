#include <cstdio>
#include <string>

#include "app/level_session.h"
#include "app/run_modes.h"
#include "app/stats_json.h"

namespace ofps::app {

int runHeadless(const DemoOptions& options) {
  std::string error;
  auto session = loadLevelSession(options.levelPath, options, OctreeBuildParams{}, &error);
  if (!session) {
    std::fprintf(stderr, "error: %s\n", error.c_str());
    return 1;
  }
  if (!options.screenshotPath.empty()) {
    std::fprintf(stderr, "warning: --screenshot ignored with --headless (nothing is drawn)\n");
  }
  if (!options.statsJsonPath.empty()) {
    nlohmann::json stats;
    stats["level"] = levelStats(*session);
    stats["octree"] = octreeStats(*session);
    stats["run"] = {{"mode", "headless"}, {"frames", options.frames}};
    if (!writeStatsJson(options.statsJsonPath, stats, &error)) {
      std::fprintf(stderr, "error: %s\n", error.c_str());
      return 1;
    }
  }
  return 0;
}

}  // namespace ofps::app
