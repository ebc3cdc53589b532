// octree_export_collision_obj LEVEL OUT.obj: writes the collision triangles the demo's loader
// makes of LEVEL (any format it reads; world space after its frame conversion, in the level's
// local frame) as a triangle-only OBJ whose coordinates read back to the same floats (%.9g).
// Used by scripts/cross.sh: the platforms without Assimp replay the bundled level from it.
#include <cstdio>
#include <string>

#include "level/level_loader.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: octree_export_collision_obj LEVEL OUT.obj\n");
    return 2;
  }
  ofps::LevelLoadOptions options;
  options.rememberSettings = false;
  ofps::LevelLoadResult r = ofps::loadLevel(argv[1], options);
  if (!r.ok) {
    std::fprintf(stderr, "octree_export_collision_obj: %s\n", r.error.c_str());
    return 1;
  }
  const ofps::Level& level = *r.level;
  std::FILE* out = std::fopen(argv[2], "wb");
  if (!out) {
    std::fprintf(stderr, "octree_export_collision_obj: cannot write %s\n", argv[2]);
    return 1;
  }
  std::fprintf(out, "# collision triangles of %s (octree_export_collision_obj)\n", argv[1]);
  for (const glm::vec3& p : level.collisionPositions) {
    std::fprintf(out, "v %.9g %.9g %.9g\n", static_cast<double>(p.x), static_cast<double>(p.y),
                 static_cast<double>(p.z));
  }
  for (size_t i = 0; i + 2 < level.collisionIndices.size(); i += 3) {
    std::fprintf(out, "f %u %u %u\n", level.collisionIndices[i] + 1,
                 level.collisionIndices[i + 1] + 1, level.collisionIndices[i + 2] + 1);
  }
  const bool ok = std::fclose(out) == 0;
  if (!ok) std::fprintf(stderr, "octree_export_collision_obj: cannot write %s\n", argv[2]);
  return ok ? 0 : 1;
}
