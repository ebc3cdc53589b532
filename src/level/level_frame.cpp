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

// Heuristic for files that carry no frame (OBJ, STL, PLY, ...). Two signals for the up axis:
//   - area: floors and ceilings face the up axis, walls face sideways. A storey adds floor
//     area, and a level is wider than it is tall, so more area faces up than any one side;
//   - extent: levels are wider than tall, so the up axis is the shallower of Y and Z.
// Area decides when it is clear (one axis has kAreaClear times the other's): the extent is
// fooled by a level that is long and narrow (a Quake map 8,048 units long, taller in Z than
// deep in Y came out Y-up when both had to agree). Otherwise the extent decides when it is
// clear, else both leaning the same way, else the level is ambiguous and Y-up (the glTF
// convention) is assumed.
// Units, from how wide the level is (horizontally, in the chosen frame):
//   - Z-up and wider than 300 units: Quake units (1 u = 1 inch = 0.0254 m; a 56 u player is
//     1.42 m). A Z-up metre level that size would be 300 m across;
//   - Y-up, thousands of units wide (kBrushWide) and built of boxes (kBrushAligned of the area
//     on axis-aligned planes, as a map compiled from brushes is): inches as well, because a
//     boxy building kilometres across is not plausible. Organic terrain that size (a racing
//     track in metres) has far less of its area on axis-aligned planes and stays metres.
constexpr double kAreaClear = 1.25;
constexpr double kExtentClear = 1.25;
constexpr double kQuakeZWide = 300.0;
constexpr double kBrushWide = 2000.0;
constexpr double kBrushAligned = 0.7;

struct GuessEvidence {
  double areaX = 0.0, areaY = 0.0, areaZ = 0.0;  // triangle area facing +-X, +-Y, +-Z
  double areaTotal = 0.0;
  glm::dvec3 lo{1e300}, hi{-1e300};
};

GuessEvidence gatherEvidence(const std::vector<MeshBuild>& meshes) {
  GuessEvidence e;
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
        e.lo = glm::min(e.lo, *q);
        e.hi = glm::max(e.hi, *q);
      }
      const glm::dvec3 n = glm::cross(bb - a, c - a);
      const double len = glm::length(n);
      if (len <= 0.0) continue;
      e.areaTotal += 0.5 * len;
      if (std::abs(n.x) > 0.95 * len) e.areaX += 0.5 * len;
      if (std::abs(n.y) > 0.95 * len) e.areaY += 0.5 * len;
      if (std::abs(n.z) > 0.95 * len) e.areaZ += 0.5 * len;
    }
  }
  return e;
}

// 'z' or 'y' for the larger of the two when it is more than `clear` times the other, else 0
// (clear = 1: whichever is larger, 0 on a tie).
char clearWinner(double z, double y, double clear) {
  if (z > clear * y) return 'z';
  if (y > clear * z) return 'y';
  return 0;
}

}  // namespace

FrameGuess guessFrame(const std::vector<MeshBuild>& meshes) {
  const GuessEvidence e = gatherEvidence(meshes);
  FrameGuess g;
  if (e.hi.x < e.lo.x) {
    g.why = "assumed Y-up metres (no triangle with finite coordinates to guess from)";
    return g;
  }
  const glm::dvec3 ext = e.hi - e.lo;
  const char byArea = clearWinner(e.areaZ, e.areaY, kAreaClear);
  // The up axis is the shallower one: Z "wins" the extent when Y is the larger.
  const char byExtent = clearWinner(ext.y, ext.z, kExtentClear);
  // In words a user can check: which axis more of the surface faces (floors and ceilings face
  // up), and how far the level reaches along each candidate up axis (levels are flat).
  const bool moreZ = e.areaZ >= e.areaY;
  const double more = moreZ ? e.areaZ : e.areaY, less = moreZ ? e.areaY : e.areaZ;
  const double ratio = more / std::max(less, 1e-30);
  const char* towards = moreZ ? "Z than Y" : "Y than Z";
  std::string faces;
  if (ratio < 1.1) {
    faces = "about as much surface faces along Z as Y";
  } else if (!(less > 0.0)) {  // a flat floor: no ratio to print
    faces =
        std::string("the surface faces along ") + (moreZ ? "Z, none along Y" : "Y, none along Z");
  } else if (ratio >= 1000.0) {
    faces = std::string("over 1000x more surface faces along ") + towards;
  } else {
    char ratioText[32];
    std::snprintf(ratioText, sizeof ratioText, "%.1f", ratio);
    faces = std::string(ratioText) + "x more surface faces along " + towards;
  }
  std::string evidence = faces + "; the level spans " + fmtRounded(ext.y) + " units along Y and " +
                         fmtRounded(ext.z) + " along Z";
  if (byArea != 0) {
    g.up = byArea;
    if (byExtent != 0 && byExtent != byArea) evidence += "; the area outweighs the extent";
  } else if (byExtent != 0) {
    g.up = byExtent;
  } else if (const char lean = clearWinner(e.areaZ, e.areaY, 1.0);
             lean != 0 && lean == clearWinner(ext.y, ext.z, 1.0)) {
    g.up = lean;  // neither is clear, but both lean the same way
  } else {
    g.up = 'y';
    g.ambiguous = true;
    evidence += "; neither is clear, so the default";
  }
  g.width = g.up == 'z' ? std::max(ext.x, ext.y) : std::max(ext.x, ext.z);
  const double aligned = (e.areaX + e.areaY + e.areaZ) / std::max(e.areaTotal, 1e-30);
  const char* upName = g.up == 'z' ? "Z-up" : "Y-up";
  if (g.up == 'z' && g.width > kQuakeZWide) {
    g.scale = 0.0254f;
  } else if (g.up == 'y' && g.width > kBrushWide && aligned >= kBrushAligned) {
    g.scale = 0.0254f;
    evidence += ", " + fmtFloat(aligned * 100.0) + "% of the area on axis-aligned planes";
  }
  const std::string units = g.scale == 1.0f ? " metres" : " in Quake units (0.0254 m)";
  g.why = std::string(g.ambiguous ? "assumed " : "guessed ") + upName + units + " (" + evidence +
          "; " + fmtRounded(g.width) + (g.width == 1.0 ? " unit wide)" : " units wide)");
  return g;
}

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
        ". If that is wrong, load it once with --up y|z and --scale S (metres per unit), or pick"
        " them in the demo's Level section and press Reload; a choice made either way is then"
        " remembered in " +
        importSettingsPathBeside(path) +
        " (or in ~/.config/octree-fps/import-settings/ when that folder is read-only)");
  }

  return frame;
}

}  // namespace ofps::loader
