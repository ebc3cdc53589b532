// The per-user folder (config_dir.h), one rule for every file the demo remembers.
#include "app/settings/config_dir.h"

#include <cstdlib>

namespace ofps::app {

std::filesystem::path userConfigDir() {
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && *xdg != '\0') {
    return std::filesystem::path(xdg) / "octree-fps";
  }
  if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
    return std::filesystem::path(home) / ".config" / "octree-fps";
  }
  return {};
}

}  // namespace ofps::app
