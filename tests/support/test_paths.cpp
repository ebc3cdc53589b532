#include "test_paths.h"

#include <cstdlib>
#include <fstream>

namespace ofps::test {

std::string sharedPath(const std::string& relative) {
  // The environment wins so a moved checkout can still find the shared levels.
  if (const char* env = std::getenv("OCTREE_FPS_SHARED_DIR"); env != nullptr && *env != '\0') {
    return std::string(env) + "/" + relative;
  }
  return std::string(OCTREE_FPS_SHARED_DIR) + "/" + relative;
}

std::string sourcePath(const std::string& relative) {
  return std::string(OCTREE_FPS_SOURCE_DIR) + "/" + relative;
}

bool fileExists(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return f.good();
}

}  // namespace ofps::test
