#include "test_paths.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <system_error>

#include "octree_fps/platform.h"

namespace ofps::test {

std::string sharedPath(const std::string& relative) {
  // The environment wins so a moved checkout can still find the shared levels.
  if (const char* env = std::getenv("OCTREE_FPS_SHARED_DIR"); env != nullptr && *env != '\0') {
    return std::string(env) + "/" + relative;
  }
  return std::string(OCTREE_FPS_SHARED_DIR) + "/" + relative;
}

namespace {

// One temporary folder per test process, removed when the process exits normally.
class TempFolder {
 public:
  const std::filesystem::path& path() {
    std::call_once(once_, [this] { path_ = platform::makeTempDirectory("octree-fps-levels-"); });
    return path_;
  }
  ~TempFolder() {
    std::error_code ec;
    if (!path_.empty()) std::filesystem::remove_all(path_, ec);
  }

 private:
  std::once_flag once_;
  std::filesystem::path path_;
};

TempFolder& tempFolder() {
  static TempFolder folder;
  return folder;
}

}  // namespace

std::string sharedLevelCopy(const std::string& relative) {
  const std::filesystem::path source = sharedPath(relative);
  std::error_code ec;
  if (!std::filesystem::is_regular_file(source, ec)) return "";
  const std::filesystem::path& dir = tempFolder().path();
  if (dir.empty()) return "";
  // Keep the level's own folder name, so messages still say which level it is.
  const std::filesystem::path target = dir / source.parent_path().filename() / source.filename();
  std::filesystem::create_directories(target.parent_path(), ec);
  if (!std::filesystem::exists(target, ec)) {
    std::filesystem::copy_file(source, target, ec);
    if (ec) return "";
  }
  return target.string();
}

std::string sourcePath(const std::string& relative) {
  return std::string(OCTREE_FPS_SOURCE_DIR) + "/" + relative;
}

bool fileExists(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return f.good();
}

}  // namespace ofps::test
