#include "level/level_conventions.h"

#include <cctype>

#include "level/load_text.h"

namespace ofps::loader {

bool nameIsNoCollide(const std::string& lowerName) {
  return contains(lowerName, "nocollide") || contains(lowerName, "nocollision");
}

bool nameIsCollider(const std::string& lowerName) {
  return startsWith(lowerName, "ucx_") || startsWith(lowerName, "ubx_") ||
         startsWith(lowerName, "ucp_") || startsWith(lowerName, "usp_") ||
         contains(lowerName, "collider") || endsWith(lowerName, "-colonly");
}

int spawnNamePriority(const std::string& name) {
  std::string key;
  for (char c : lower(name)) {
    if (std::isalnum(static_cast<unsigned char>(c))) key.push_back(c);
  }
  while (!key.empty() && std::isdigit(static_cast<unsigned char>(key.back()))) key.pop_back();
  if (key == "spawn" || key == "playerstart" || key == "infoplayerstart") return 3;
  if (key == "spawnpoint" || key == "playerspawn" || key == "infoplayerdeathmatch") return 2;
  if (startsWith(key, "spawn") || startsWith(key, "playerstart")) return 1;
  return 0;
}

}  // namespace ofps::loader
