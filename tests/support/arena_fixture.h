#pragma once
// The bundled default level (assets/arena.glb), loaded once per test binary with the real loader
// and built into an octree with the controller's default parameters. Shared by the controller
// and props arena tests.
#include "level/level.h"
#include "octree_fps/spatial/octree.h"

namespace ofps::test {

struct Arena {
  Level level;
  Octree octree;
};

// Loads on first use (a failed load or build is reported as a test failure and leaves the
// arena empty). The returned reference lives until the program ends.
const Arena& defaultArena();

}  // namespace ofps::test
