#include "level/level_frame.h"

#include <assimp/scene.h>
// metadata.h is not self-contained: it needs scene.h (aiString, <climits>) first.
#include <assimp/metadata.h>

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>

#include "level/load_text.h"

namespace ofps::loader {
namespace {

bool metaNumber(const aiMetadata* meta, const char* key, double* out) {
  if (meta == nullptr) return false;
  for (unsigned i = 0; i < meta->mNumProperties; ++i) {
    if (std::string(meta->mKeys[i].C_Str()) != key) continue;
    const aiMetadataEntry& e = meta->mValues[i];
    if (e.mData == nullptr) return false;
    switch (e.mType) {
      case AI_BOOL:
        *out = *static_cast<const bool*>(e.mData) ? 1.0 : 0.0;
        return true;
      case AI_INT32:
        *out = *static_cast<const int32_t*>(e.mData);
        return true;
      case AI_UINT64:
        *out = static_cast<double>(*static_cast<const uint64_t*>(e.mData));
        return true;
      case AI_FLOAT:
        *out = static_cast<double>(*static_cast<const float*>(e.mData));
        return true;
      case AI_DOUBLE:
        *out = *static_cast<const double*>(e.mData);
        return true;
      default:
        return false;
    }
  }
  return false;
}

struct FileFrame {
  std::optional<char> up;
  std::optional<float> scale;
  std::string upSource;
  std::string scaleSource;
};

// What the file itself says about its frame, where Assimp exposes it.
FileFrame frameFromFile(const aiScene& scene, const std::string& ext,
                        std::vector<std::string>* warnings, const std::string& path) {
  FileFrame f;
  if (ext == "gltf" || ext == "glb") {
    f.up = 'y';
    f.scale = 1.0f;
    f.upSource = f.scaleSource = "file (glTF is Y-up metres)";
  } else if (ext == "fbx") {
    double upAxis = 1.0, upSign = 1.0, unit = 1.0;
    if (metaNumber(scene.mMetaData, "UpAxis", &upAxis)) {
      metaNumber(scene.mMetaData, "UpAxisSign", &upSign);
      if (upAxis == 1.0 || upAxis == 2.0) {
        f.up = upAxis == 2.0 ? 'z' : 'y';
        f.upSource = "file (FBX UpAxis)";
        if (upSign < 0.0) {
          warnings->push_back(path +
                              ": FBX UpAxisSign is -1 (upside-down up axis), which is not"
                              " supported; the level may be upside down, use --up to fix it");
        }
      } else {
        warnings->push_back(path + ": FBX UpAxis is X, which is not supported; assuming Y-up");
      }
    }
    if (metaNumber(scene.mMetaData, "UnitScaleFactor", &unit) && std::isfinite(unit) &&
        unit > 0.0) {
      f.scale = static_cast<float>(unit / 100.0);  // FBX UnitScaleFactor is centimetres per unit
      f.scaleSource = "file (FBX UnitScaleFactor " + fmtFloat(unit) + " cm)";
    }
  } else if (ext == "dae" || ext == "zae") {
    // Assimp's Collada importer already applies <up_axis> and <unit> to the root node.
    f.up = 'y';
    f.scale = 1.0f;
    f.upSource = f.scaleSource = "file (Collada up_axis and unit, applied by Assimp)";
  } else if (ext == "x3d" || ext == "x3db" || ext == "wrl" || ext == "x3dv") {
    f.up = 'y';
    f.scale = 1.0f;
    f.upSource = f.scaleSource = "file (X3D/VRML are Y-up metres)";
  }
  return f;
}

// Heuristic for files that carry no frame (OBJ, STL, PLY, ...). Two signals must agree for Z-up:
//   - area: more triangle area faces +-Z than +-Y (floors and ceilings face the up axis; walls
//     face sideways, and a level is usually wider than it is tall so there is more floor than
//     wall facing any one horizontal axis);
//   - extent: the level is shallower along Z than along Y (levels are wider than tall).
// A Z-up level wider than 300 units is taken to be in Quake units (1 u = 1 inch = 0.0254 m; a
// 56 u player is 1.42 m): a Z-up metre level that size would be 300 m across.
struct FrameGuess {
  char up = 'y';
  float scale = 1.0f;
  std::string why;
};

FrameGuess guessFrame(const std::vector<MeshBuild>& meshes) {
  double areaY = 0.0, areaZ = 0.0;
  glm::dvec3 lo(1e300), hi(-1e300);
  for (const MeshBuild& b : meshes) {
    const auto& p = b.mesh.positions;
    for (size_t t = 0; t + 2 < b.mesh.indices.size(); t += 3) {
      const glm::dvec3 a(p[b.mesh.indices[t]]), bb(p[b.mesh.indices[t + 1]]),
          c(p[b.mesh.indices[t + 2]]);
      bool good = true;
      for (const glm::dvec3* q : {&a, &bb, &c}) {
        for (int k = 0; k < 3; ++k)
          good = good && std::isfinite((*q)[k]) && std::abs((*q)[k]) < 1e12;
      }
      if (!good) continue;
      for (const glm::dvec3* q : {&a, &bb, &c}) {
        lo = glm::min(lo, *q);
        hi = glm::max(hi, *q);
      }
      const glm::dvec3 n = glm::cross(bb - a, c - a);
      const double len = glm::length(n);
      if (len <= 0.0) continue;
      if (std::abs(n.y) > 0.95 * len) areaY += 0.5 * len;
      if (std::abs(n.z) > 0.95 * len) areaZ += 0.5 * len;
    }
  }
  FrameGuess g;
  if (hi.x < lo.x) {
    g.why = "assumed Y-up metres (no triangle with finite coordinates to guess from)";
    return g;
  }
  const glm::dvec3 ext = hi - lo;
  const bool areaSaysZ = areaZ > areaY;
  const bool extentSaysZ = ext.z < ext.y;
  const std::string evidence = "facing +-Z/+-Y area " + fmtFloat(areaZ / std::max(areaY, 1e-30)) +
                               "x, extent Y " + fmtFloat(ext.y) + " Z " + fmtFloat(ext.z);
  if (areaSaysZ && extentSaysZ) {
    g.up = 'z';
    const double width = std::max(ext.x, ext.y);
    if (width > 300.0) {
      g.scale = 0.0254f;
      g.why = "guessed Z-up in Quake units (0.0254 m) (" + evidence + ", " + fmtFloat(width) +
              " units wide)";
    } else {
      g.why = "guessed Z-up metres (" + evidence + ")";
    }
  } else {
    g.why = "guessed Y-up metres (" + evidence + ")";
  }
  return g;
}

}  // namespace

LevelImportFrame chooseFrame(const aiScene& scene, const std::string& path, const std::string& ext,
                             const std::vector<MeshBuild>& meshes, std::optional<char> optUp,
                             std::optional<float> optScale,
                             const std::optional<LoadedImportSettings>& stored,
                             std::vector<std::string>* warnings) {
  const FileFrame fileFrame = frameFromFile(scene, ext, warnings, path);
  LevelImportFrame frame;
  std::optional<FrameGuess> guess;
  auto needGuess = [&]() -> const FrameGuess& {
    if (!guess) guess = guessFrame(meshes);
    return *guess;
  };
  if (optUp) {
    frame.upAxis = *optUp;
    frame.upSource = "options (--up)";
  } else if (stored && stored->settings.upAxis) {
    frame.upAxis = *stored->settings.upAxis;
    frame.upSource = "settings file " + stored->path;
  } else if (fileFrame.up) {
    frame.upAxis = *fileFrame.up;
    frame.upSource = fileFrame.upSource;
  } else {
    frame.upAxis = needGuess().up;
    frame.upSource = needGuess().why;
    frame.guessed = true;
  }
  if (optScale) {
    frame.scale = *optScale;
    frame.scaleSource = "options (--scale)";
  } else if (stored && stored->settings.scale) {
    frame.scale = *stored->settings.scale;
    frame.scaleSource = "settings file " + stored->path;
  } else if (fileFrame.scale) {
    frame.scale = *fileFrame.scale;
    frame.scaleSource = fileFrame.scaleSource;
  } else if (frame.guessed || (frame.upAxis == needGuess().up && needGuess().scale != 1.0f)) {
    // The guessed up axis brings its units; a chosen up axis takes the guessed units only when
    // they agree and are not plain metres (e.g. --up z on a Quake map: inches).
    frame.scale = needGuess().scale;
    frame.scaleSource = needGuess().why;
    frame.guessed = true;
  } else {
    frame.scale = 1.0f;
    frame.scaleSource = "default (metres)";
  }
  if (frame.guessed) {
    const bool upGuessed = frame.upSource == needGuess().why;
    const bool scaleGuessed = frame.scaleSource == needGuess().why;
    std::string what = upGuessed && scaleGuessed ? "which way is up or its units"
                       : upGuessed               ? "which way is up"
                                                 : "its units";
    warnings->push_back(
        path + ": the file does not say " + what + "; " + needGuess().why +
        ". If that is wrong, load it once with --up y|z and --scale S (metres per unit); the"
        " choice is remembered in " +
        importSettingsPathBeside(path) +
        " (or in ~/.config/octree-fps/import-settings/ when that folder is read-only)");
  }

  return frame;
}

}  // namespace ofps::loader
