#include "app/level_session.h"

#include <chrono>
#include <cstdio>

#include "level/level_loader.h"

namespace ofps::app {

std::unique_ptr<LevelSession> loadLevelSession(const std::string& path, const DemoOptions& options,
                                               std::string* error) {
  LevelLoadOptions lo;
  lo.upAxis = options.upAxis;
  lo.scale = options.scale;
  lo.allSolid = options.allSolid;
  int lastPercent = -1;
  lo.onProgress = [&lastPercent](float progress, const char* stage) {
    const int percent = static_cast<int>(progress * 100.0f);
    // Console progress in 10% steps keeps logs short for big levels.
    if (percent / 10 != lastPercent / 10) {
      std::fprintf(stderr, "loading: %3d%% %s\n", percent, stage != nullptr ? stage : "");
      lastPercent = percent;
    }
  };
  const auto start = std::chrono::steady_clock::now();
  LevelLoadResult result = loadLevel(path, lo);
  const auto end = std::chrono::steady_clock::now();
  for (const std::string& w : result.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  if (!result.ok()) {
    *error = result.error;
    return nullptr;
  }
  auto session = std::make_unique<LevelSession>();
  session->level = std::move(*result.level);
  session->loadMs = std::chrono::duration<double, std::milli>(end - start).count();
  std::fprintf(stderr, "loaded %s: %zu triangles in %.1f ms\n", path.c_str(),
               session->level.triangleCount(), session->loadMs);
  return session;
}

}  // namespace ofps::app
