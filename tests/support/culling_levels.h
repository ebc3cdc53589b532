#pragma once
// Levels as the culling tests take them: the collision soup (positions, indices) and, per
// triangle, whether it is drawn (collider-only meshes are not). Header-only: the tests that use
// it link octree_test_arena (the bundled arena) and octree_obj (the shared levels' OBJs).
#include <gtest/gtest.h>

#include <cstdint>
#include <glm/vec3.hpp>
#include <string>
#include <utility>
#include <vector>

#include "octree_fps/io/obj_reader.h"
#include "support/arena_fixture.h"
#include "support/test_paths.h"

namespace ofps::test {

struct CullingLevel {
  std::vector<glm::vec3> positions;
  std::vector<uint32_t> indices;
  std::vector<uint8_t> drawn;  // per triangle; empty = all
};

// The bundled arena through the real loader, each triangle drawn as its mesh is.
inline CullingLevel arenaCullingLevel() {
  const Arena& arena = defaultArena();
  CullingLevel level;
  level.positions = arena.level.collisionPositions;
  level.indices = arena.level.collisionIndices;
  for (const LevelMesh& mesh : arena.level.meshes) {
    level.drawn.insert(level.drawn.end(), mesh.indices.size() / 3, mesh.visible ? 1 : 0);
  }
  return level;
}

// A shared level's canonical OBJ (levels/NAME/NAME.obj, every triangle drawn); zUp: Quake units,
// Z up, brought to Y-up metres. False when the file is absent (the caller skips); a file that
// does not read is a test failure too.
inline bool loadCanonicalLevel(const std::string& name, bool zUp, CullingLevel* out) {
  const std::string path = sharedPath("levels/" + name + "/" + name + ".obj");
  if (!fileExists(path)) return false;
  ObjReadResult obj = readObj(path);
  if (!obj.ok) {
    ADD_FAILURE() << obj.error;
    return false;
  }
  if (zUp) {
    for (glm::vec3& v : obj.mesh.positions) v = glm::vec3(v.x, v.z, -v.y) * 0.0254f;
  }
  out->positions = std::move(obj.mesh.positions);
  out->indices = std::move(obj.mesh.indices);
  out->drawn.clear();
  return true;
}

}  // namespace ofps::test
