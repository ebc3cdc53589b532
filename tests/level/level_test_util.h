#pragma once
// Helpers for the level tests: a temporary folder that cleans up after itself, file writers,
// and an order-independent triangle comparison.
#include <cstdint>
#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <vector>

#include "level/level.h"
#include "level/level_loader.h"

namespace ofps::test {

class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }
  std::string file(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

void writeFile(const std::string& path, const std::string& bytes);
std::string readFile(const std::string& path);
// 8-bit RGBA PNG of w x h pixels filled with one colour.
void writePng(const std::string& path, int w, int h, uint8_t r, uint8_t g, uint8_t b);
// A zip archive (stored, no compression) holding the given files.
std::string makeZip(const std::vector<std::pair<std::string, std::string>>& files);

// Triangle soup in world space.
struct Soup {
  std::vector<glm::vec3> positions;
  std::vector<uint32_t> indices;
};
Soup soupOf(const Level& level);

// Compares two soups as multisets of triangles, up to triangle order and the starting corner
// (winding kept), with an absolute coordinate tolerance. Returns "" when equal, else the first
// difference.
std::string compareSoups(const Soup& a, const Soup& b, float tolerance);

// Writes a soup as a canonical OBJ (v and f lines, %.9g).
void writeObj(const std::string& path, const Soup& soup);

// Load options for a test: no import-settings file is written, so a load never changes the frame
// the next test's load of the same file finds, and nothing is written beside shared files. An
// up axis given keeps the frame guess (and its warning) out of a test about something else.
LevelLoadOptions testLoadOptions(std::optional<char> upAxis = std::nullopt,
                                 std::optional<float> scale = std::nullopt);

}  // namespace ofps::test
