#include "app/simulation/async_loader.h"

#include <chrono>

namespace ofps::app {

AsyncLevelLoader::~AsyncLevelLoader() {
  // A running load cannot be cancelled (Assimp has no cancel); wait so it does not outlive us.
  if (future_.valid()) future_.wait();
}

bool AsyncLevelLoader::start(const std::string& path, const DemoOptions& options,
                             const OctreeBuildParams& octreeParams,
                             const std::optional<FrameChoice>& reimport) {
  if (busy()) return false;
  path_ = path;
  progress_ = std::make_unique<LoadProgress>();
  LoadProgress* progress = progress_.get();
  future_ = std::async(std::launch::async, [path, options, octreeParams, progress, reimport]() {
    Result r;
    r.path = path;
    r.session = loadLevelSession(path, options, octreeParams, &r.error, &r.warnings, progress,
                                 reimport ? &*reimport : nullptr);
    return r;
  });
  return true;
}

std::optional<AsyncLevelLoader::Result> AsyncLevelLoader::take() {
  if (!future_.valid() || future_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
    return std::nullopt;
  }
  return future_.get();
}

}  // namespace ofps::app
