#pragma once
// Reader for the team's canonical OBJ levels (../shared/bench/FORMAT.md): `v x y z` and
// `f a b c ...` lines; `f a/b/c` forms accepted (texture and normal indices ignored); indices
// 1-based, negative indices relative to the vertices read so far; polygons fanned into triangles
// (a, k, k+1); triangles numbered from 0 in file order. Every other line is ignored.
// Standard library only (no Assimp): the core, the tests and the bench tool share it.
// Input is untrusted: errors are returned with the line number, nothing is thrown.

#include <cstdint>
#include <glm/vec3.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace ofps {

struct ObjMesh {
  std::vector<glm::vec3> positions;
  std::vector<uint32_t> indices;  // 3 per triangle
  uint32_t triangleCount() const { return static_cast<uint32_t>(indices.size() / 3); }
};

struct ObjReadResult {
  bool ok = false;
  std::string error;  // e.g. "level.obj:12: face index 40 out of range (37 vertices)"
  ObjMesh mesh;
};

// Parses OBJ text; `name` is used in messages.
ObjReadResult parseObj(std::string_view text, std::string_view name = "obj");
// Reads and parses a file.
ObjReadResult readObj(const std::string& path);

}  // namespace ofps
