#pragma once
// Loads a level session on a worker thread so the window stays responsive. One load at a time;
// the main thread polls take() each frame and adopts the result (GL upload happens there).
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/simulation/level_session.h"

namespace ofps::app {

class AsyncLevelLoader {
 public:
  // loadLevelSession's result, and the file it was for.
  struct Result : LevelSessionLoad {
    std::string path;
  };

  ~AsyncLevelLoader();

  // Starts loading `path` (with `reimport`: the Level section's Reload, see FrameChoice); false
  // when a load is already running.
  bool start(const std::string& path, const DemoOptions& options,
             const OctreeBuildParams& octreeParams,
             const std::optional<FrameChoice>& reimport = std::nullopt);
  bool busy() const { return future_.valid(); }
  const std::string& path() const { return path_; }
  float progress() const { return progress_ ? progress_->fraction.load() : 0.0f; }
  const char* stage() const { return progress_ ? progress_->stage.load() : ""; }
  // The finished load, if any (then busy() turns false).
  std::optional<Result> take();

 private:
  std::future<Result> future_;
  std::unique_ptr<LoadProgress> progress_;
  std::string path_;
};

}  // namespace ofps::app
