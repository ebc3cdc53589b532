#pragma once
// The level's materials and textures (loader-internal): base colour, and the base-colour texture
// of every material a mesh uses, embedded (compressed or raw texels) or a file found beside the
// level (as written, relative, with backslashes fixed, URI escapes decoded, or just its name).
// A texture that cannot be found or decoded becomes a magenta checker, with a warning.
#include <string>
#include <vector>

#include "level/level.h"

struct aiScene;

namespace ofps::loader {

// Appends one LevelMaterial per scene material to level->materials (a "default" one when the
// scene has none) and the textures they use to level->textures; used[i]: material i is drawn.
// Warnings name `path` and the material.
void convertMaterials(const aiScene& scene, const std::vector<bool>& used, const std::string& path,
                      Level* level, std::vector<std::string>* warnings);

}  // namespace ofps::loader
