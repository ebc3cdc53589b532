#pragma once
// Reader for plain triangle levels in Wavefront OBJ: positions and faces only, so that the core,
// the tests and the bench tool read a level the same way without Assimp (standard library only).
//
// What it accepts, line by line (lines end at '\n'; spaces, tabs and '\r' separate tokens, so
// CRLF files read the same):
// - `v x y z`: a vertex. The first three tokens after `v` must be decimal floats (as
//   std::from_chars reads them: no leading '+'); tokens after them (w, colours, a comment) are
//   ignored. Coordinates are kept as written: no units, axes or scale applied, and "inf" or
//   "nan" read as such (finiteness is for the caller to check).
// - `f i j k ...`: a face of three or more vertices. Each token is an index, or an index with
//   texture and normal parts (`i/t`, `i/t/n`, `i//n`) whose parts after the first '/' are
//   ignored. Indices are 1-based; a negative index counts back from the last vertex read so far
//   (-1 is the latest). A face may only use vertices defined above it. A polygon is split into
//   the fan (i0, ik, ik+1), so a quad gives two triangles.
// - Every other line (vt, vn, o, g, s, usemtl, mtllib, comments, blank lines) is skipped.
// Triangles are numbered from 0 in file order (the bench tool's result files use that number).
//
// Errors: the first bad line ends the read with ok = false and a message "<name>:<line>: ...":
// a vertex with a missing or malformed coordinate, a face index that is 0, not an integer or
// out of range (the message gives the vertex count so far), a face with fewer than three
// vertices. readObj also reports a path that is a directory or cannot be opened. Input is
// untrusted: nothing is thrown.

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
