#include "app/settings/recent_files.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "app/settings/config_dir.h"

namespace ofps::app {
namespace fs = std::filesystem;

namespace {

fs::path recentPath() {
  const fs::path dir = userConfigDir();
  return dir.empty() ? fs::path() : dir / "recent.txt";
}

constexpr size_t kMaxRecent = 10;

}  // namespace

std::vector<std::string> loadRecentFiles() {
  std::vector<std::string> out;
  const fs::path p = recentPath();
  if (p.empty()) return out;
  std::ifstream in(p);
  std::string line;
  while (std::getline(in, line) && out.size() < kMaxRecent) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

void rememberRecentFile(std::vector<std::string>& recent, const std::string& path, bool save) {
  std::error_code ec;
  const std::string abs = fs::absolute(path, ec).lexically_normal().string();
  const std::string& key = ec ? path : abs;
  recent.erase(std::remove(recent.begin(), recent.end(), key), recent.end());
  recent.insert(recent.begin(), key);
  if (recent.size() > kMaxRecent) recent.resize(kMaxRecent);
  if (!save) return;
  const fs::path p = recentPath();
  if (p.empty()) return;
  fs::create_directories(p.parent_path(), ec);
  std::ofstream out(p);
  for (const std::string& r : recent) out << r << '\n';
}

std::vector<std::string> findLevelFiles(const std::string& directory) {
  std::vector<std::string> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(directory, ec)) {
    if (!entry.is_regular_file(ec)) continue;
    std::string ext = entry.path().extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (ext == ".glb" || ext == ".gltf" || ext == ".obj" || ext == ".fbx" || ext == ".dae") {
      out.push_back(entry.path().string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace ofps::app
