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
#ifdef __EMSCRIPTEN__
  // The page has no threads (Emscripten's default build): the load runs when take() asks for it,
  // in the next frame, so the frame that started it still draws the load's toast.
  constexpr auto kPolicy = std::launch::deferred;
#else
  constexpr auto kPolicy = std::launch::async;
#endif
  future_ = std::async(kPolicy, [path, options, octreeParams, progress, reimport]() {
    Result r;
    r.path = path;
    static_cast<LevelSessionLoad&>(r) =
        loadLevelSession(path, options, octreeParams, progress, reimport ? &*reimport : nullptr);
    return r;
  });
  return true;
}

std::optional<AsyncLevelLoader::Result> AsyncLevelLoader::take() {
  if (!future_.valid()) return std::nullopt;
  const std::future_status state = future_.wait_for(std::chrono::seconds(0));
  if (state != std::future_status::ready && state != std::future_status::deferred) {
    return std::nullopt;
  }
  return future_.get();
}

}  // namespace ofps::app
