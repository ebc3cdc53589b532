#pragma once
// The shared levels as the micro-benchmarks load them: the canonical triangle-only OBJ of a level
// in the team's shared folder (OCTREE_FPS_SHARED_DIR from the environment, else the one CMake
// was configured with), in metres, Y up. The Quake levels' OBJs are in Quake units, Z up (1 unit
// = 1 inch); collision-world's are already metres, Y up.
#include <cstdlib>
#include <glm/vec3.hpp>
#include <string>

#include "octree_fps/io/obj_reader.h"

namespace ofps::bench {

inline std::string sharedDir() {
  const char* env = std::getenv("OCTREE_FPS_SHARED_DIR");
  return env != nullptr && *env != '\0' ? env : OCTREE_FPS_SHARED_DIR;
}

// levels/NAME/NAME.obj in the shared folder.
inline std::string levelObjPath(const std::string& name) {
  return sharedDir() + "/levels/" + name + "/" + name + ".obj";
}

// Reads a shared level's OBJ and converts it to metres, Y up. result.ok is false (with the
// reader's message) when the file is missing or malformed.
inline ObjReadResult readLevelMetres(const std::string& name) {
  ObjReadResult obj = readObj(levelObjPath(name));
  if (obj.ok && name != "collision-world") {
    for (glm::vec3& v : obj.mesh.positions) v = glm::vec3(v.x, v.z, -v.y) * 0.0254f;
  }
  return obj;
}

}  // namespace ofps::bench
