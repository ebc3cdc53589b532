#include "level_test_util.h"

#include <stb_image_write.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "octree_fps/platform.h"

namespace ofps::test {

LevelLoadOptions testLoadOptions(std::optional<char> upAxis, std::optional<float> scale) {
  LevelLoadOptions o;
  o.rememberSettings = false;
  o.upAxis = upAxis;
  o.scale = scale;
  return o;
}

TempDir::TempDir() {
  path_ = platform::makeTempDirectory("ofps-level-");
  if (path_.empty()) throw std::runtime_error("cannot create a temporary folder");
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

void writeFile(const std::string& path, const std::string& bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << bytes;
}

std::string readFile(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

void writePng(const std::string& path, int w, int h, uint8_t r, uint8_t g, uint8_t b) {
  std::vector<uint8_t> px(static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
  for (size_t i = 0; i < px.size(); i += 4) {
    px[i] = r;
    px[i + 1] = g;
    px[i + 2] = b;
    px[i + 3] = 255;
  }
  stbi_write_png(path.c_str(), w, h, 4, px.data(), w * 4);
}

namespace {
uint32_t crc32(const std::string& s) {
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char ch : s) {
    c ^= ch;
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1u)));
  }
  return ~c;
}
void put16(std::string& o, uint32_t v) {
  o.push_back(static_cast<char>(v & 0xFF));
  o.push_back(static_cast<char>((v >> 8) & 0xFF));
}
void put32(std::string& o, uint32_t v) {
  put16(o, v & 0xFFFF);
  put16(o, v >> 16);
}
}  // namespace

std::string makeZip(const std::vector<std::pair<std::string, std::string>>& files) {
  std::string out, central;
  for (const auto& [name, data] : files) {
    const auto offset = static_cast<uint32_t>(out.size());
    const uint32_t crc = crc32(data);
    put32(out, 0x04034b50);
    put16(out, 20);
    put16(out, 0);
    put16(out, 0);
    put16(out, 0);
    put16(out, 0);
    put32(out, crc);
    put32(out, static_cast<uint32_t>(data.size()));
    put32(out, static_cast<uint32_t>(data.size()));
    put16(out, static_cast<uint32_t>(name.size()));
    put16(out, 0);
    out += name;
    out += data;
    put32(central, 0x02014b50);
    put16(central, 20);
    put16(central, 20);
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put32(central, crc);
    put32(central, static_cast<uint32_t>(data.size()));
    put32(central, static_cast<uint32_t>(data.size()));
    put16(central, static_cast<uint32_t>(name.size()));
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put16(central, 0);
    put32(central, 0);
    put32(central, offset);
    central += name;
  }
  const auto cdOffset = static_cast<uint32_t>(out.size());
  out += central;
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<uint32_t>(files.size()));
  put16(out, static_cast<uint32_t>(files.size()));
  put32(out, static_cast<uint32_t>(central.size()));
  put32(out, cdOffset);
  put16(out, 0);
  return out;
}

Soup soupOf(const Level& level) {
  return {level.collisionPositions, level.collisionIndices};
}

namespace {
using Tri = std::array<glm::vec3, 3>;

bool lessVec(const glm::vec3& a, const glm::vec3& b) {
  if (a.x != b.x) return a.x < b.x;
  if (a.y != b.y) return a.y < b.y;
  return a.z < b.z;
}

std::vector<Tri> canonicalTris(const Soup& s) {
  std::vector<Tri> out;
  for (size_t t = 0; t + 2 < s.indices.size(); t += 3) {
    Tri tri = {s.positions[s.indices[t]], s.positions[s.indices[t + 1]],
               s.positions[s.indices[t + 2]]};
    // Rotate (keeping the winding) so the smallest corner comes first.
    int m = 0;
    for (int k = 1; k < 3; ++k) {
      if (lessVec(tri[k], tri[m])) m = k;
    }
    std::rotate(tri.begin(), tri.begin() + m, tri.end());
    out.push_back(tri);
  }
  std::sort(out.begin(), out.end(), [](const Tri& a, const Tri& b) {
    const glm::vec3 ca = a[0] + a[1] + a[2], cb = b[0] + b[1] + b[2];
    return ca.x < cb.x;
  });
  return out;
}

// Equal within tol, for any cyclic rotation (rounding can change which corner sorts first).
bool near(const Tri& a, const Tri& b, float tol) {
  for (int r = 0; r < 3; ++r) {
    bool all = true;
    for (int k = 0; k < 3 && all; ++k) {
      for (int c = 0; c < 3; ++c) {
        if (std::abs(a[k][c] - b[(k + r) % 3][c]) > tol) all = false;
      }
    }
    if (all) return true;
  }
  return false;
}

std::string fmt(const Tri& t) {
  char buf[256];
  std::snprintf(buf, sizeof buf, "(%g %g %g) (%g %g %g) (%g %g %g)", double(t[0].x), double(t[0].y),
                double(t[0].z), double(t[1].x), double(t[1].y), double(t[1].z), double(t[2].x),
                double(t[2].y), double(t[2].z));
  return buf;
}
}  // namespace

std::string compareSoups(const Soup& a, const Soup& b, float tolerance) {
  const std::vector<Tri> ta = canonicalTris(a), tb = canonicalTris(b);
  if (ta.size() != tb.size()) {
    return "triangle counts differ: " + std::to_string(ta.size()) + " vs " +
           std::to_string(tb.size());
  }
  // Both sorted by centroid x: match each of a inside a window of b (centroid x within 3 tol).
  std::vector<bool> used(tb.size(), false);
  size_t start = 0;
  for (const Tri& t : ta) {
    const float cx = t[0].x + t[1].x + t[2].x;
    while (start < tb.size() &&
           tb[start][0].x + tb[start][1].x + tb[start][2].x < cx - 3 * tolerance - 1e-6f)
      ++start;
    bool matched = false;
    for (size_t j = start; j < tb.size(); ++j) {
      const float cj = tb[j][0].x + tb[j][1].x + tb[j][2].x;
      if (cj > cx + 3 * tolerance + 1e-6f) break;
      if (!used[j] && near(t, tb[j], tolerance)) {
        used[j] = true;
        matched = true;
        break;
      }
    }
    if (!matched) return "no match for triangle " + fmt(t);
  }
  return {};
}

void writeObj(const std::string& path, const Soup& soup) {
  std::FILE* f = std::fopen(path.c_str(), "w");
  if (f == nullptr) return;
  for (const glm::vec3& p : soup.positions) {
    std::fprintf(f, "v %.9g %.9g %.9g\n", double(p.x), double(p.y), double(p.z));
  }
  for (size_t t = 0; t + 2 < soup.indices.size(); t += 3) {
    std::fprintf(f, "f %u %u %u\n", soup.indices[t] + 1, soup.indices[t + 1] + 1,
                 soup.indices[t + 2] + 1);
  }
  std::fclose(f);
}

}  // namespace ofps::test

namespace {
// Isolate the per-user import settings from the real $HOME/.config for the whole test binary.
struct IsolateUserConfig {
  IsolateUserConfig() {
    dir = ofps::platform::makeTempDirectory("ofps-level-config-");
    if (!dir.empty()) {
      setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
    }
  }
  ~IsolateUserConfig() {
    std::error_code ec;
    if (!dir.empty()) std::filesystem::remove_all(dir, ec);
  }
  std::string dir;
};
const IsolateUserConfig isolateUserConfig;
}  // namespace
