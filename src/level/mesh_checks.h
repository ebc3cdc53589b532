#pragma once
// Input checks Assimp does not do, and the move to the level's frame (loader-internal): triangles
// on non-finite or huge coordinates are dropped (a warning names the first), the meshes are
// turned Y-up and scaled to metres, normals made unit length (never NaN), and zero-area
// triangles counted by the octree's own test (kept: they never block, and the octree counts
// them too).
#include <cstdint>
#include <string>
#include <vector>

#include "level/level.h"
#include "level/scene_walk.h"

namespace ofps::loader {

// A coordinate farther than this from the origin (after scaling to metres) is treated as bad
// input: float32 spacing there is already ~1 m, and such values usually mean a broken exporter.
inline constexpr double kMaxCoordinateMetres = 1.0e7;

// Checks and converts `meshes` in place from the file's frame to `frame` (Y-up metres).
// Returns "" or the error that refuses the level (no usable or only degenerate triangles);
// *outDegenerate: zero-area triangles kept.
std::string checkAndConvertMeshes(std::vector<MeshBuild>& meshes, const LevelImportFrame& frame,
                                  const std::string& path, std::vector<std::string>* warnings,
                                  uint32_t* outDegenerate);

}  // namespace ofps::loader
