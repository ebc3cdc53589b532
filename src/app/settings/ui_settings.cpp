#include "app/settings/ui_settings.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <system_error>

#include "app/settings/config_dir.h"

namespace ofps::app {
namespace fs = std::filesystem;
namespace {

constexpr double kMinPanelWidth = 200.0, kMaxPanelWidth = 4096.0;  // px
constexpr double kMinQueryRadius = 0.25, kMaxQueryRadius = 20.0;   // m, the slider's range

// One table of every field, so parsing and writing cannot drift apart.
template <class Visit>
void eachField(UiSettings& s, Visit&& visit) {
  visit("show_panel", s.showPanel);
  visit("panel_width", s.panelWidth, kMinPanelWidth, kMaxPanelWidth);
  visit("octree_boxes", s.octreeBoxes);
  visit("octree_visible_only", s.octreeVisibleOnly);
  visit("octree_leaves_only", s.octreeLeavesOnly);
  visit("query_view", s.queryView);
  visit("grid_view", s.gridView);
  visit("grid_query", s.gridQuery);
  visit("grid_query_radius", s.gridQueryRadius, kMinQueryRadius, kMaxQueryRadius);
  visit("crosshair", s.crosshair);
  visit("wireframe", s.wireframe);
  visit("culling", s.culling);
  visit("occlusion", s.occlusion);
  visit("temporal_coherence", s.temporalCoherence);
  visit("vsync", s.vsync);
  visit("smooth_view", s.smoothView);
}

}  // namespace

std::string settingsPath() {
  const fs::path dir = userConfigDir();
  return dir.empty() ? std::string() : (dir / "settings.json").string();
}

UiSettings parseUiSettings(const std::string& text, std::string* warning) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object()) {
    if (warning) *warning = "not a JSON object";
    return {};
  }
  UiSettings out;
  std::string problem;
  auto field = [&](const char* key, auto& value, double lo = 0.0, double hi = 0.0) {
    const auto it = j.find(key);
    if (it == j.end() || !problem.empty()) return;
    using T = std::remove_reference_t<decltype(value)>;
    if constexpr (std::is_same_v<T, bool>) {
      if (!it->is_boolean()) {
        problem = std::string("\"") + key + "\" should be true or false";
        return;
      }
      value = it->template get<bool>();
    } else {
      const double v =
          it->is_number() ? it->template get<double>() : std::numeric_limits<double>::quiet_NaN();
      if (!std::isfinite(v) || v < lo || v > hi) {
        std::ostringstream m;
        m << "\"" << key << "\" should be a number from " << lo << " to " << hi;
        problem = m.str();
        return;
      }
      value = static_cast<float>(v);
    }
  };
  eachField(out, field);
  if (!problem.empty()) {
    if (warning) *warning = problem;
    return {};
  }
  return out;
}

std::string serializeUiSettings(const UiSettings& settings) {
  nlohmann::json j = nlohmann::json::object();
  UiSettings copy = settings;
  eachField(copy,
            [&](const char* key, auto& value, double = 0.0, double = 0.0) { j[key] = value; });
  return j.dump(2) + "\n";
}

UiSettings loadUiSettings(const std::string& path, std::string* warning) {
  std::error_code ec;
  if (path.empty() || !fs::exists(path, ec)) return {};
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in && !in.eof()) {
    if (warning) *warning = "cannot read " + path + "; using the default view settings";
    return {};
  }
  std::string problem;
  UiSettings s = parseUiSettings(text.str(), &problem);
  if (!problem.empty() && warning) {
    *warning = path + ": " + problem + "; using the default view settings";
  }
  return s;
}

bool saveUiSettings(const std::string& path, const UiSettings& settings, std::string* outError) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << serializeUiSettings(settings);
  out.close();
  if (!out) {
    if (outError) *outError = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace ofps::app
