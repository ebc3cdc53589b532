#include "support/arena_fixture.h"

#include <gtest/gtest.h>

#include <memory>

#include "level/level_loader.h"
#include "octree_fps/spatial/octree.h"
#include "support/test_paths.h"

namespace ofps::test {

const Arena& defaultArena() {
  static const std::unique_ptr<Arena> arena = [] {
    auto out = std::make_unique<Arena>();
    LevelLoadOptions options;
    options.rememberSettings = false;
    LevelLoadResult r = loadLevel(sourcePath("assets/arena.glb"), options);
    EXPECT_TRUE(r.ok) << r.error;
    if (r.ok) {
      out->level = std::move(*r.level);
      const Level& l = out->level;
      const OctreeBuildReport rep = out->octree.build(l.collisionPositions, l.collisionIndices,
                                                      l.collisionLayers, OctreeBuildParams{});
      EXPECT_TRUE(rep.ok) << rep.error;
    }
    return out;
  }();
  return *arena;
}

}  // namespace ofps::test
