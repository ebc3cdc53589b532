// Level loading on Assimp 5.2 + stb_image. See level_loader.h for the contract and
// level_conventions.md for the naming rules (collision layers, spawn) users rely on.
//
// Pipeline (each step says what it guards against):
//   1. Path checks: missing, directory, empty, unreadable -> one clear error before Assimp.
//   2. Assimp import with ValidateDataStructure always on (Assimp 5.2.5's Quake 3 importer
//      segfaults without it), Triangulate, SortByPType (points/lines land in meshes of their
//      own, counted and dropped), GenNormals (flat, only where normals are missing: hard
//      level edges stay hard, and it is 10x faster than angle-limited smoothing on 1M
//      triangles),
//      FlipUVs (v = 0 at the image's top row). No JoinIdenticalVertices (1.4 s per 1M OBJ
//      triangles for little gain with flat normals), no FindDegenerates and no
//      PreTransformVertices: degenerate triangles stay (the octree counts them) and instancing
//      stays visible as one world-space copy per node.
//   3. Our own node walk: world transform per node, mirror transforms flip winding, layer and
//      visibility from names, spawn node.
//   4. Frame: options > import settings > the file's own metadata > a heuristic for formats
//      that say nothing (OBJ, STL, PLY...). Z-up becomes Y-up by a -90 deg rotation about X,
//      (x, y, z) -> (x, z, -y): right-handed, never a mirror.
//   5. Input checks Assimp does not do: non-finite or huge coordinates (triangles dropped with
//      a warning naming the mesh and vertex), out-of-range indices, zero-area triangles
//      (kept, counted), nothing left (error).
//   6. Materials and textures (embedded or beside the file), missing ones become a checker.
#include "level/level_loader.h"

#include <assimp/DefaultIOSystem.h>
#include <assimp/Importer.hpp>
#include <assimp/MemoryIOWrapper.h>
#include <assimp/ProgressHandler.hpp>
#include <assimp/config.h>
#include <assimp/material.h>
#include <assimp/metadata.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <stb_image.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <new>
#include <system_error>
#include <utility>

#include <glm/geometric.hpp>

#include "octree_fps/geometry/aabb.h"
#include "octree_fps/geometry/triangle_tests.h"
#include "level/gltf_extensions.h"
#include "level/header_checks.h"
#include "level/import_settings.h"
#include "level/import_probe.h"
#include "level/importer_guards.h"
#include "level/memory_budget.h"

namespace ofps {
namespace {

namespace fs = std::filesystem;

// A coordinate farther than this from the origin (after scaling to metres) is treated as bad
// input: float32 spacing there is already ~1 m, and such values usually mean a broken exporter.
constexpr double kMaxCoordinateMetres = 1.0e7;

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool startsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }
bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string fmtFloat(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string fmtVec(const glm::dvec3& v) {
  return "(" + fmtFloat(v.x) + ", " + fmtFloat(v.y) + ", " + fmtFloat(v.z) + ")";
}

// --- naming conventions (documented in src/level/level_conventions.md) ------------------------

bool nameIsNoCollide(const std::string& lowerName) {
  return contains(lowerName, "nocollide") || contains(lowerName, "nocollision");
}

bool nameIsCollider(const std::string& lowerName) {
  return startsWith(lowerName, "ucx_") || startsWith(lowerName, "ubx_") ||
         startsWith(lowerName, "ucp_") || startsWith(lowerName, "usp_") ||
         contains(lowerName, "collider") || endsWith(lowerName, "-colonly");
}

// 0 = not a spawn name; higher wins. Blender-style ".001" suffixes are ignored.
int spawnNamePriority(const std::string& name) {
  std::string key;
  for (char c : lower(name)) {
    if (std::isalnum(static_cast<unsigned char>(c))) key.push_back(c);
  }
  while (!key.empty() && std::isdigit(static_cast<unsigned char>(key.back()))) key.pop_back();
  if (key == "spawn" || key == "playerstart" || key == "infoplayerstart") return 3;
  if (key == "spawnpoint" || key == "playerspawn" || key == "infoplayerdeathmatch") return 2;
  if (startsWith(key, "spawn") || startsWith(key, "playerstart")) return 1;
  return 0;
}

// --- progress ------------------------------------------------------------------------------

using ProgressFn = std::function<void(float, const char*)>;

// Assimp reports reading and post-processing separately; they map to [0, 0.45] and
// [0.45, 0.7] of the whole load. The rest is ours.
class ProgressBridge final : public Assimp::ProgressHandler {
 public:
  explicit ProgressBridge(const ProgressFn& fn) : fn_(fn) {}
  bool Update(float percentage) override {
    if (fn_ && percentage >= 0.0f) fn_(std::clamp(percentage, 0.0f, 1.0f) * 0.7f, stage_);
    return true;  // never cancel
  }
  void UpdateFileRead(int currentStep, int numberOfSteps) override {
    stage_ = "reading file";
    report(currentStep, numberOfSteps, 0.0f, 0.45f);
  }
  void UpdatePostProcess(int currentStep, int numberOfSteps) override {
    stage_ = "post-processing";
    report(currentStep, numberOfSteps, 0.45f, 0.7f);
  }

 private:
  void report(int step, int steps, float lo, float hi) {
    if (!fn_) return;
    const float f = steps > 0 ? std::clamp(static_cast<float>(step) / static_cast<float>(steps),
                                           0.0f, 1.0f)
                              : 0.0f;
    fn_(lo + (hi - lo) * f, stage_);
  }
  const ProgressFn& fn_;
  const char* stage_ = "reading file";
};

// --- mesh building in the file's frame -------------------------------------------------------

struct MeshBuild {
  LevelMesh mesh;
  std::string meshName;             // Assimp mesh name, for messages
};

struct WalkResult {
  std::vector<MeshBuild> meshes;
  uint64_t pointsDropped = 0;
  uint64_t linesDropped = 0;
  std::string badIndexError;        // first out-of-range index, if any
  int spawnPriority = 0;
  aiMatrix4x4 spawnMatrix;
  std::string spawnName;
};

std::string nodeLabel(const aiNode* node) {
  return node->mName.length > 0 ? std::string(node->mName.C_Str()) : std::string("(unnamed node)");
}

void walkNodes(const aiScene& scene, const std::string& path, bool allSolid, WalkResult* out) {
  // How many nodes use each mesh: instanced meshes get "node/mesh" names.
  std::vector<uint32_t> useCount(scene.mNumMeshes, 0);
  {
    std::vector<const aiNode*> stack{scene.mRootNode};
    while (!stack.empty()) {
      const aiNode* n = stack.back();
      stack.pop_back();
      for (unsigned i = 0; i < n->mNumMeshes; ++i) {
        if (n->mMeshes[i] < scene.mNumMeshes) ++useCount[n->mMeshes[i]];
      }
      for (unsigned c = 0; c < n->mNumChildren; ++c) stack.push_back(n->mChildren[c]);
    }
  }

  struct Item {
    const aiNode* node;
    aiMatrix4x4 parent;
    bool noCollide;
    bool collider;
  };
  std::vector<Item> stack{{scene.mRootNode, aiMatrix4x4(), false, false}};
  std::vector<Item> children;
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const aiNode* node = item.node;
    const aiMatrix4x4 world = item.parent * node->mTransformation;
    const std::string name = nodeLabel(node);
    const std::string lname = lower(name);
    const bool noCollide = item.noCollide || nameIsNoCollide(lname);
    const bool collider = item.collider || nameIsCollider(lname);

    if (const int prio = spawnNamePriority(name); prio > out->spawnPriority) {
      out->spawnPriority = prio;
      out->spawnMatrix = world;
      out->spawnName = name;
    }

    aiMatrix3x3 normalMatrix(world);
    const float det = normalMatrix.Determinant();
    normalMatrix.Inverse().Transpose();
    const bool mirrored = det < 0.0f;

    for (unsigned mi = 0; mi < node->mNumMeshes; ++mi) {
      const unsigned meshIndex = node->mMeshes[mi];
      if (meshIndex >= scene.mNumMeshes) continue;  // ValidateDataStructure rejects this
      const aiMesh& m = *scene.mMeshes[meshIndex];
      // SortByPType splits meshes by primitive type; count whatever is not a triangle.
      uint64_t points = 0, lines = 0;
      for (unsigned f = 0; f < m.mNumFaces; ++f) {
        const unsigned k = m.mFaces[f].mNumIndices;
        if (k == 1) ++points;
        if (k == 2) ++lines;
      }
      out->pointsDropped += points;
      out->linesDropped += lines;
      if (!(m.mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;

      MeshBuild b;
      b.meshName = m.mName.length > 0 ? std::string(m.mName.C_Str()) : "mesh " + std::to_string(meshIndex);
      b.mesh.name = name;
      if (node->mNumMeshes > 1 || useCount[meshIndex] > 1) b.mesh.name += "/" + b.meshName;
      b.mesh.material = m.mMaterialIndex < scene.mNumMaterials ? m.mMaterialIndex : 0;

      std::string materialName;
      if (m.mMaterialIndex < scene.mNumMaterials) {
        aiString s;
        if (scene.mMaterials[m.mMaterialIndex]->Get(AI_MATKEY_NAME, s) == AI_SUCCESS) {
          materialName = lower(s.C_Str());
        }
      }
      const std::string lmesh = lower(b.meshName);
      const bool isCollider = collider || nameIsCollider(lmesh) || nameIsCollider(materialName);
      const bool isNoCollide =
          noCollide || nameIsNoCollide(lmesh) || nameIsNoCollide(materialName);
      b.mesh.visible = !isCollider;
      b.mesh.layers = (isNoCollide && !isCollider && !allSolid) ? 0u : kLayerSolid;

      const unsigned nv = m.mNumVertices;
      b.mesh.positions.resize(nv);
      b.mesh.normals.resize(nv);
      b.mesh.uvs.assign(nv, glm::vec2(0.0f));
      for (unsigned v = 0; v < nv; ++v) {
        const aiVector3D p = world * m.mVertices[v];
        b.mesh.positions[v] = glm::vec3(p.x, p.y, p.z);
        if (m.mNormals != nullptr) {
          aiVector3D n = normalMatrix * m.mNormals[v];
          b.mesh.normals[v] = glm::vec3(n.x, n.y, n.z);
        }
      }
      if (m.mTextureCoords[0] != nullptr) {
        for (unsigned v = 0; v < nv; ++v) {
          b.mesh.uvs[v] = glm::vec2(m.mTextureCoords[0][v].x, m.mTextureCoords[0][v].y);
        }
      }
      b.mesh.indices.reserve(static_cast<size_t>(m.mNumFaces) * 3);
      for (unsigned f = 0; f < m.mNumFaces; ++f) {
        const aiFace& face = m.mFaces[f];
        if (face.mNumIndices != 3) continue;  // points/lines of a mixed mesh, counted above
        uint32_t tri[3] = {face.mIndices[0], face.mIndices[1], face.mIndices[2]};
        bool inRange = true;
        for (uint32_t idx : tri) inRange = inRange && idx < nv;
        if (!inRange) {
          if (out->badIndexError.empty()) {
            out->badIndexError = path + ": mesh '" + b.meshName + "' face " + std::to_string(f) +
                                 " uses vertex index out of range (mesh has " +
                                 std::to_string(nv) + " vertices)";
          }
          continue;
        }
        if (mirrored) std::swap(tri[1], tri[2]);  // keep front faces front under a mirror
        b.mesh.indices.insert(b.mesh.indices.end(), tri, tri + 3);
      }
      if (!b.mesh.indices.empty()) out->meshes.push_back(std::move(b));
    }

    children.clear();
    for (unsigned c = 0; c < node->mNumChildren; ++c) {
      children.push_back({node->mChildren[c], world, noCollide, collider});
    }
    // Reverse so the stack pops children in file order: mesh order follows the file.
    stack.insert(stack.end(), children.rbegin(), children.rend());
  }
}

// --- frame: up axis and units ------------------------------------------------------------

bool metaNumber(const aiMetadata* meta, const char* key, double* out) {
  if (meta == nullptr) return false;
  for (unsigned i = 0; i < meta->mNumProperties; ++i) {
    if (std::string(meta->mKeys[i].C_Str()) != key) continue;
    const aiMetadataEntry& e = meta->mValues[i];
    if (e.mData == nullptr) return false;
    switch (e.mType) {
      case AI_BOOL: *out = *static_cast<const bool*>(e.mData) ? 1.0 : 0.0; return true;
      case AI_INT32: *out = *static_cast<const int32_t*>(e.mData); return true;
      case AI_UINT64: *out = static_cast<double>(*static_cast<const uint64_t*>(e.mData)); return true;
      case AI_FLOAT: *out = static_cast<double>(*static_cast<const float*>(e.mData)); return true;
      case AI_DOUBLE: *out = *static_cast<const double*>(e.mData); return true;
      default: return false;
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
FileFrame frameFromFile(const aiScene& scene, const std::string& ext, std::vector<std::string>* warnings,
                        const std::string& path) {
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
          warnings->push_back(path + ": FBX UpAxisSign is -1 (upside-down up axis), which is not"
                              " supported; the level may be upside down, use --up to fix it");
        }
      } else {
        warnings->push_back(path + ": FBX UpAxis is X, which is not supported; assuming Y-up");
      }
    }
    if (metaNumber(scene.mMetaData, "UnitScaleFactor", &unit) && std::isfinite(unit) && unit > 0.0) {
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
      const glm::dvec3 a(p[b.mesh.indices[t]]), bb(p[b.mesh.indices[t + 1]]), c(p[b.mesh.indices[t + 2]]);
      bool good = true;
      for (const glm::dvec3* q : {&a, &bb, &c}) {
        for (int k = 0; k < 3; ++k) good = good && std::isfinite((*q)[k]) && std::abs((*q)[k]) < 1e12;
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

// --- textures --------------------------------------------------------------------------------

LevelTexture checkerTexture(const std::string& source) {
  LevelTexture t;
  t.source = source;
  t.width = t.height = 64;
  t.isFallbackChecker = true;
  t.rgba.resize(64 * 64 * 4);
  for (int y = 0; y < 64; ++y) {
    for (int x = 0; x < 64; ++x) {
      const bool on = ((x / 8) + (y / 8)) % 2 == 0;  // magenta / black: clearly "missing"
      uint8_t* px = &t.rgba[static_cast<size_t>(y * 64 + x) * 4];
      px[0] = on ? 255 : 0;
      px[1] = 0;
      px[2] = on ? 255 : 0;
      px[3] = 255;
    }
  }
  return t;
}

bool fromStb(stbi_uc* data, int w, int h, const std::string& source, LevelTexture* out) {
  if (data == nullptr || w <= 0 || h <= 0) {
    if (data != nullptr) stbi_image_free(data);
    return false;
  }
  out->source = source;
  out->width = w;
  out->height = h;
  out->rgba.assign(data, data + static_cast<size_t>(w) * static_cast<size_t>(h) * 4);
  stbi_image_free(data);
  return true;
}


// Candidates for an external texture path: as written, relative to the level's folder, with
// backslashes fixed, URI escapes decoded, and finally just the file name beside the level.
std::vector<fs::path> textureCandidates(const std::string& raw, const fs::path& levelDir) {
  std::string p = raw;
  std::replace(p.begin(), p.end(), '\\', '/');
  if (startsWith(p, "file://")) p = p.substr(7);
  std::vector<fs::path> out;
  for (const std::string& variant : {p, percentDecode(p)}) {
    const fs::path fp(variant);
    if (fp.is_absolute()) out.push_back(fp);
    else out.push_back(levelDir / fp);
    out.push_back(levelDir / fp.filename());
  }
  return out;
}

class TextureLoader {
 public:
  TextureLoader(const aiScene& scene, const std::string& levelPath, Level* level,
                std::vector<std::string>* warnings)
      : scene_(scene), levelPath_(levelPath), level_(level), warnings_(warnings) {
    levelDir_ = fs::path(levelPath).parent_path();
  }

  // Index into level->textures for the material texture path (always valid: a checker stands
  // in for a texture that cannot be loaded).
  int32_t load(const std::string& raw, const std::string& materialName) {
    if (auto it = cache_.find(raw); it != cache_.end()) return it->second;
    LevelTexture tex;
    bool ok = false;
    std::string failure;
    const auto [embedded, embeddedIndex] = scene_.GetEmbeddedTextureAndIndex(raw.c_str());
    if (embedded != nullptr) {
      const std::string source = "embedded:" + std::to_string(embeddedIndex);
      if (embedded->mHeight == 0) {  // compressed (PNG, JPEG, ...): mWidth is the byte count
        int w = 0, h = 0, n = 0;
        stbi_uc* data = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(embedded->pcData),
                                              static_cast<int>(embedded->mWidth), &w, &h, &n, 4);
        ok = fromStb(data, w, h, source, &tex);
        if (!ok) failure = std::string("stb_image: ") + stbi_failure_reason();
      } else if (embedded->pcData != nullptr) {
        tex.source = source;
        tex.width = static_cast<int>(embedded->mWidth);
        tex.height = static_cast<int>(embedded->mHeight);
        tex.rgba.resize(static_cast<size_t>(tex.width) * static_cast<size_t>(tex.height) * 4);
        for (size_t i = 0; i < static_cast<size_t>(tex.width) * static_cast<size_t>(tex.height); ++i) {
          const aiTexel& t = embedded->pcData[i];
          tex.rgba[i * 4 + 0] = t.r;
          tex.rgba[i * 4 + 1] = t.g;
          tex.rgba[i * 4 + 2] = t.b;
          tex.rgba[i * 4 + 3] = t.a;
        }
        ok = true;
      }
    } else if (!raw.empty() && raw[0] == '*') {
      failure = "embedded texture " + raw + " does not exist in the file";
    } else {
      std::error_code ec;
      bool found = false;
      for (const fs::path& candidate : textureCandidates(raw, levelDir_)) {
        if (!fs::is_regular_file(candidate, ec)) continue;
        found = true;
        int w = 0, h = 0, n = 0;
        stbi_uc* data = stbi_load(candidate.string().c_str(), &w, &h, &n, 4);
        ok = fromStb(data, w, h, candidate.string(), &tex);
        if (!ok) failure = candidate.string() + " cannot be decoded (stb_image: " +
                           stbi_failure_reason() + ")";
        break;
      }
      if (!found) failure = "texture file '" + raw + "' not found (looked in " + levelDir_.string() + ")";
    }
    if (!ok) {
      warnings_->push_back(levelPath_ + ": material '" + materialName + "': " + failure +
                           "; using a checker texture");
      tex = checkerTexture(raw);
    }
    const auto index = static_cast<int32_t>(level_->textures.size());
    level_->textures.push_back(std::move(tex));
    cache_.emplace(raw, index);
    return index;
  }

 private:
  const aiScene& scene_;
  const std::string& levelPath_;
  Level* level_;
  std::vector<std::string>* warnings_;
  fs::path levelDir_;
  std::map<std::string, int32_t> cache_;
};

void convertMaterials(const aiScene& scene, const std::vector<bool>& used, const std::string& path,
                      Level* level, std::vector<std::string>* warnings) {
  TextureLoader textures(scene, path, level, warnings);
  for (unsigned i = 0; i < scene.mNumMaterials; ++i) {
    const aiMaterial& m = *scene.mMaterials[i];
    LevelMaterial out;
    aiString name;
    out.name = m.Get(AI_MATKEY_NAME, name) == AI_SUCCESS ? name.C_Str() : "material " + std::to_string(i);
    aiColor4D color(1.0f, 1.0f, 1.0f, 1.0f);
    if (m.Get(AI_MATKEY_BASE_COLOR, color) == AI_SUCCESS ||
        m.Get(AI_MATKEY_COLOR_DIFFUSE, color) == AI_SUCCESS) {
      float opacity = 1.0f;
      if (m.Get(AI_MATKEY_OPACITY, opacity) == AI_SUCCESS && opacity < color.a) color.a = opacity;
      out.baseColor = glm::vec4(color.r, color.g, color.b, color.a);
    }
    for (int k = 0; k < 4; ++k) {
      if (!std::isfinite(out.baseColor[k])) out.baseColor[k] = 1.0f;
      out.baseColor[k] = std::clamp(out.baseColor[k], 0.0f, 1.0f);
    }
    if (i < used.size() && used[i]) {
      aiString texPath;
      if (m.GetTexture(aiTextureType_BASE_COLOR, 0, &texPath) == AI_SUCCESS ||
          m.GetTexture(aiTextureType_DIFFUSE, 0, &texPath) == AI_SUCCESS) {
        if (texPath.length > 0) out.texture = textures.load(texPath.C_Str(), out.name);
      }
    }
    level->materials.push_back(std::move(out));
  }
  if (level->materials.empty()) level->materials.push_back(LevelMaterial{"default", glm::vec4(1.0f), -1});
}

// --- checks and frame application --------------------------------------------------------------

// Drops triangles touching non-finite or huge vertices (in the file frame; `scale` converts to
// metres), then compacts the mesh. Returns the number of triangles dropped and the first bad
// vertex for the message.
struct BadVertexReport {
  size_t trianglesDropped = 0;
  size_t badVertices = 0;
  uint32_t firstBad = 0;
  glm::dvec3 firstBadValue{0.0};
};

BadVertexReport dropBadVertices(LevelMesh* mesh, double scale) {
  BadVertexReport r;
  const double limit = kMaxCoordinateMetres / scale;
  std::vector<uint8_t> bad(mesh->positions.size(), 0);
  for (size_t v = 0; v < mesh->positions.size(); ++v) {
    const glm::vec3& p = mesh->positions[v];
    for (int k = 0; k < 3; ++k) {
      if (!std::isfinite(p[k]) || std::abs(static_cast<double>(p[k])) > limit) bad[v] = 1;
    }
    if (bad[v] != 0 && r.badVertices++ == 0) {
      r.firstBad = static_cast<uint32_t>(v);
      r.firstBadValue = glm::dvec3(p);
    }
  }
  if (r.badVertices == 0) return r;
  std::vector<uint32_t> kept;
  kept.reserve(mesh->indices.size());
  for (size_t t = 0; t + 2 < mesh->indices.size(); t += 3) {
    const uint32_t* tri = &mesh->indices[t];
    if (bad[tri[0]] || bad[tri[1]] || bad[tri[2]]) {
      ++r.trianglesDropped;
      continue;
    }
    kept.insert(kept.end(), tri, tri + 3);
  }
  // Compact: bad vertices must not reach bounds or the GPU.
  std::vector<uint32_t> remap(mesh->positions.size(), UINT32_MAX);
  LevelMesh out;
  for (uint32_t& idx : kept) {
    if (remap[idx] == UINT32_MAX) {
      remap[idx] = static_cast<uint32_t>(out.positions.size());
      out.positions.push_back(mesh->positions[idx]);
      out.normals.push_back(mesh->normals[idx]);
      out.uvs.push_back(mesh->uvs[idx]);
    }
    idx = remap[idx];
  }
  mesh->positions = std::move(out.positions);
  mesh->normals = std::move(out.normals);
  mesh->uvs = std::move(out.uvs);
  mesh->indices = std::move(kept);
  return r;
}

// Zero-area triangles by the octree's own test (geometry/triangle_tests.h: the sine of the
// largest angle below 1e-7, decided in double), so the loader's warning and the octree's
// statistics give the same number. Run on the final (Y-up metre) coordinates; the test is
// scale-invariant.
size_t countDegenerate(const LevelMesh& mesh) {
  size_t n = 0;
  for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const Triangle tri{mesh.positions[mesh.indices[t]], mesh.positions[mesh.indices[t + 1]],
                       mesh.positions[mesh.indices[t + 2]]};
    if (isDegenerateTriangle(tri)) ++n;
  }
  return n;
}

glm::vec3 toYUp(const glm::vec3& p, char up) {
  return up == 'z' ? glm::vec3(p.x, p.z, -p.y) : p;  // -90 deg about X: right-handed rotation
}

void fixNormals(LevelMesh* mesh) {
  // Generated or transformed normals: make them unit length; a zero one (degenerate face) gets
  // the face normal of its first triangle, else +Y, so shaders never see NaN.
  for (glm::vec3& n : mesh->normals) {
    const float len = glm::length(n);
    n = (std::isfinite(len) && len > 1e-20f) ? n / len : glm::vec3(0.0f);
  }
  for (size_t t = 0; t + 2 < mesh->indices.size(); t += 3) {
    const uint32_t* tri = &mesh->indices[t];
    glm::vec3 fn = glm::cross(mesh->positions[tri[1]] - mesh->positions[tri[0]],
                              mesh->positions[tri[2]] - mesh->positions[tri[0]]);
    const float len = glm::length(fn);
    fn = (std::isfinite(len) && len > 0.0f) ? fn / len : glm::vec3(0.0f, 1.0f, 0.0f);
    for (int k = 0; k < 3; ++k) {
      if (mesh->normals[tri[k]] == glm::vec3(0.0f)) mesh->normals[tri[k]] = fn;
    }
  }
  for (glm::vec3& n : mesh->normals) {
    if (n == glm::vec3(0.0f)) n = glm::vec3(0.0f, 1.0f, 0.0f);
  }
}

std::string countWord(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// GLB container checks before Assimp, whose answer for a broken GLB is only "No suitable reader
// found". Returns "" when the header is sound.
std::string checkGlbHeader(const std::string& path, uintmax_t size) {
  std::ifstream f(path, std::ios::binary);
  unsigned char h[20] = {};
  f.read(reinterpret_cast<char*>(h), sizeof h);
  const auto got = static_cast<uintmax_t>(f.gcount());
  auto u32 = [&h](int at) {
    return static_cast<uint32_t>(h[at]) | (static_cast<uint32_t>(h[at + 1]) << 8) |
           (static_cast<uint32_t>(h[at + 2]) << 16) | (static_cast<uint32_t>(h[at + 3]) << 24);
  };
  if (got < 12) {
    return "truncated GLB: " + std::to_string(size) + " bytes, less than the 12-byte header";
  }
  if (std::memcmp(h, "glTF", 4) != 0) return "not a GLB file: the first 4 bytes are not 'glTF'";
  const uint32_t version = u32(4);
  if (version != 1 && version != 2) {
    return "unsupported GLB version " + std::to_string(version) + " (header byte 4; expected 2)";
  }
  const uint32_t length = u32(8);
  if (length > size) {
    return "truncated GLB: the header says " + std::to_string(length) + " bytes, the file has " +
           std::to_string(size);
  }
  if (version == 2) {
    if (got < 20) return "truncated GLB: no chunk after the header";
    const uint32_t jsonLength = u32(12);
    if (u32(16) != 0x4E4F534Au) return "corrupt GLB: the first chunk (byte 16) is not JSON";
    if (static_cast<uintmax_t>(jsonLength) + 20 > size) {
      return "truncated GLB: the JSON chunk (" + std::to_string(jsonLength) +
             " bytes at byte 20) runs past the end of the file (" + std::to_string(size) + " bytes)";
    }
  }
  return {};
}

// Serves one file from memory (a decoded glTF, see level/gltf_extensions.h) and every other
// path from disk, so the glTF's relative image URIs still resolve beside the original level.
class OverlayIOSystem final : public Assimp::DefaultIOSystem {
 public:
  OverlayIOSystem(std::string name, const std::vector<unsigned char>& bytes)
      : name_(std::move(name)), bytes_(bytes) {}
  bool Exists(const char* file) const override {
    return name_ == file || Assimp::DefaultIOSystem::Exists(file);
  }
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (name_ == file) {
      return new Assimp::MemoryIOStream(bytes_.data(), bytes_.size(), /*own=*/false);
    }
    return Assimp::DefaultIOSystem::Open(file, mode);
  }

 private:
  std::string name_;
  const std::vector<unsigned char>& bytes_;
};

LevelLoadResult fail(LevelLoadResult r, std::string message) {
  r.level.reset();
  r.error = std::move(message);
  return r;
}

LevelLoadResult loadLevelImpl(const std::string& path, const LevelLoadOptions& options) {
  LevelLoadResult result;
  auto progress = [&options](float f, const char* stage) {
    if (options.onProgress) options.onProgress(f, stage);
  };

  // 1. Options and path.
  std::optional<char> optUp;
  if (options.upAxis) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(*options.upAxis)));
    if (c != 'y' && c != 'z') {
      return fail(std::move(result), path + ": invalid up axis '" + std::string(1, *options.upAxis) +
                                         "' (use y or z)");
    }
    optUp = c;
  }
  if (options.scale && !(std::isfinite(*options.scale) && *options.scale > 0.0f)) {
    return fail(std::move(result), path + ": invalid scale " + fmtFloat(static_cast<double>(*options.scale)) +
                                       " (metres per file unit, must be > 0)");
  }
  if (path.empty()) return fail(std::move(result), "no level file given (empty path)");
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) return fail(std::move(result), path + ": level file not found");
  if (fs::is_directory(st)) {
    return fail(std::move(result), path + ": is a directory, not a level file");
  }
  if (!fs::is_regular_file(st)) return fail(std::move(result), path + ": is not a regular file");
  const auto size = fs::file_size(path, ec);
  if (ec) return fail(std::move(result), path + ": cannot read its size (" + ec.message() + ")");
  if (size == 0) return fail(std::move(result), path + ": file is empty (0 bytes)");
  if (!std::ifstream(path, std::ios::binary)) {
    return fail(std::move(result), path + ": cannot be opened for reading");
  }
  std::string ext = lower(fs::path(path).extension().string());
  if (!ext.empty() && ext[0] == '.') ext.erase(0, 1);
  if (ext == "glb") {
    if (std::string why = checkGlbHeader(path, size); !why.empty()) {
      return fail(std::move(result), path + ": " + why);
    }
  }
  // Header counts against the file size, then the memory budget: both before Assimp, which
  // trusts the counts and reserves memory for them.
  const HeaderCounts counts = checkHeaderCounts(path, ext, size);
  if (!counts.error.empty()) return fail(std::move(result), counts.error);
  if (std::string why = checkKnownImporterHangs(path, ext); !why.empty()) {
    return fail(std::move(result), why);
  }
  const uint64_t budget = options.memoryBudgetBytes.value_or(defaultLevelMemoryBudget());
  if (const ImportEstimate est = estimateImportBytes(ext, size, counts); est.bytes > budget) {
    const uint64_t need = est.bytes;
    const std::string basis =
        est.fromHeader ? "its " + counts.format + " header: " + std::to_string(counts.vertices) +
                             " vertices, " + std::to_string(counts.faces) + " faces"
                       : "its size, " + std::to_string(size) + " bytes";
    return fail(std::move(result),
                path + ": loading it would need about " + formatMegabytes(need) +
                    " (estimated from " + basis + "), over the loader's memory budget of " +
                    formatMegabytes(budget) +
                    "; it is not attempted. Raise the budget (LevelLoadOptions::memoryBudgetBytes,"
                    " demo flag --memory-budget-mb) if this machine has the memory");
  }
  // glTF: required extensions, and the quantized / meshopt-compressed data Assimp 5.2 misreads.
  GltfPrepared gltf;
  if (ext == "glb" || ext == "gltf") {
    gltf = prepareGltf(path, ext == "glb", budget);
    if (!gltf.error.empty()) return fail(std::move(result), gltf.error);
  }
  // Assimp 5.2.5's Quake 3 importer never loads a map: with validation (always on here) every
  // real .pk3 fails ("mIndices[0] is out of range": it never fills in face indices), and a .pk3
  // whose .bsp is damaged crashes inside the importer before validation can run. A bare .bsp has
  // no importer at all. So these are refused before Assimp sees them.
  if (ext == "pk3" || ext == "bsp") {
    return fail(std::move(result),
                path + ": Quake 3 " + (ext == "pk3" ? ".pk3 archives" : ".bsp maps") +
                    " cannot be loaded: Assimp 5.2's Quake 3 importer produces no valid faces"
                    " (and crashes on damaged maps). Convert the map to OBJ, e.g. with"
                    " ../shared/levels/tools/q3bsp2obj.py, and load the OBJ");
  }

  // 2. Assimp.
  progress(0.0f, "reading file");
  if (gltf.glb.empty() && options.isolateImport) {
    // Assimp crashes inside some importers on damaged files: import in a separate process
    // first, so that such a file costs an error and not the caller (level/import_probe.h).
    const std::string probe = findImportProbe(options.importProbePath);
    if (!probe.empty()) {
      progress(0.0f, "reading file (crash check)");
      const double timeout = 10.0 + 4.0 * static_cast<double>(size) / 1e6;  // 125 MB OBJ: 5 s
      const ProbeResult pr = probeAssimpImport(probe, path, timeout);
      if (pr.outcome == ProbeOutcome::Crashed) {
        return fail(std::move(result),
                    path + ": Assimp crashed reading this file (" + pr.detail +
                        ", in the separate import process): the file is damaged or uses"
                        " something Assimp 5.2.5 cannot read; nothing was loaded");
      }
      if (pr.outcome == ProbeOutcome::TimedOut) {
        return fail(std::move(result),
                    path + ": Assimp did not finish reading this file (" + pr.detail +
                        ", in the separate import process): the file is damaged or too large;"
                        " nothing was loaded");
      }
    }
  }
  Assimp::Importer importer;
  auto bridge = std::make_unique<ProgressBridge>(options.onProgress);
  importer.SetProgressHandler(bridge.get());
  configureAssimpImporter(importer);  // points and lines counted by us; units from metadata
  const unsigned flags = assimpImportFlags();
  std::string importPath = path;
  if (!gltf.glb.empty()) {
    // The decoded GLB, served from memory under a name beside the level (nothing is written).
    importPath = (fs::path(path).parent_path() / (fs::path(path).stem().string() + ".decoded.glb"))
                     .string();
    importer.SetIOHandler(new OverlayIOSystem(importPath, gltf.glb));  // the importer owns it
  }
  const aiScene* scene = importer.ReadFile(importPath, flags);
  // Hand our handler back before `bridge` dies; the importer deletes only its own default one.
  struct Restore {
    Assimp::Importer& imp;
    ~Restore() { imp.SetProgressHandler(nullptr); }
  } restore{importer};
  if (scene == nullptr) {
    std::string why = importer.GetErrorString();
    if (why.empty()) why = "unknown error";
    if (contains(why, "contains no faces") || contains(why, "mNumMeshes is 0") ||
        contains(why, "file is too small")) {
      return fail(std::move(result), path + ": no triangles in the file (Assimp: " + why + ")");
    }
    if (contains(why, "No suitable reader found") && (ext == "glb" || ext == "gltf")) {
      return fail(std::move(result),
                  path + ": corrupt glTF: Assimp's glTF importer does not recognise the content"
                         " (damaged or invalid JSON" + std::string(ext == "glb" ? " chunk" : "") + "?)");
    }
    if (contains(why, "No suitable reader found")) {
      return fail(std::move(result),
                  path + ": not a level format Assimp 5.2 can read, or the file is damaged so"
                         " that no importer recognises it (extension '" + ext + "')");
    }
    if ((ext == "glb" || ext == "gltf") && !contains(why, "glTF") && !contains(why, "GLTF")) {
      // Assimp falls back to other importers when the glTF one gives up, and reports the last
      // one's complaint (often "OBJ: ..."), which names the wrong format.
      return fail(std::move(result),
                  path + ": corrupt glTF: Assimp's glTF importer could not read it (damaged or"
                         " invalid JSON?); the last importer Assimp tried said: " + why);
    }
    return fail(std::move(result), path + ": Assimp cannot import it: " + why);
  }
  if (scene->mRootNode == nullptr) {
    return fail(std::move(result), path + ": the file has no scene (no root node)");
  }
  const bool incomplete = (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0;

  // 3. Node walk, file frame.
  progress(0.7f, "building meshes");
  WalkResult walk;
  walkNodes(*scene, path, options.allSolid, &walk);
  if (!walk.badIndexError.empty()) return fail(std::move(result), walk.badIndexError);
  if (walk.pointsDropped + walk.linesDropped > 0) {
    result.warnings.push_back(path + ": dropped " + countWord(walk.pointsDropped, "point", "points") +
                              " and " + countWord(walk.linesDropped, "line", "lines") +
                              " (only triangles are used)");
  }
  if (walk.meshes.empty()) {
    std::string msg = path + ": no triangles in the file";
    if (walk.pointsDropped + walk.linesDropped > 0) {
      msg += " (only " + countWord(walk.pointsDropped, "point", "points") + " and " +
             countWord(walk.linesDropped, "line", "lines") + ")";
    } else if (incomplete || scene->mNumMeshes == 0) {
      msg += " (no meshes)";
    }
    return fail(std::move(result), msg);
  }

  // 4. Frame.
  Level level;
  level.path = path;
  std::string settingsWarning;
  const auto stored = readImportSettings(path, &settingsWarning);
  if (!settingsWarning.empty()) result.warnings.push_back(settingsWarning);
  const FileFrame fileFrame = frameFromFile(*scene, ext, &result.warnings, path);
  LevelImportFrame& frame = level.frame;
  std::optional<FrameGuess> guess;
  auto needGuess = [&]() -> const FrameGuess& {
    if (!guess) guess = guessFrame(walk.meshes);
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
  if (options.scale) {
    frame.scale = *options.scale;
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
    result.warnings.push_back(
        path + ": the file does not say " + what + "; " + needGuess().why +
        ". If that is wrong, load it once with --up y|z and --scale S (metres per unit); the"
        " choice is remembered in " + importSettingsPathBeside(path) +
        " (or in ~/.config/octree-fps/import-settings/ when that folder is read-only)");
  }

  // 5. Checks, then Y-up metres, then the degenerate count.
  const double scale = frame.scale;
  uint64_t droppedTris = 0, badVerts = 0;
  std::string firstBadWhere;
  for (MeshBuild& b : walk.meshes) {
    const BadVertexReport r = dropBadVertices(&b.mesh, scale);
    if (r.badVertices > 0) {
      droppedTris += r.trianglesDropped;
      badVerts += r.badVertices;
      if (firstBadWhere.empty()) {
        firstBadWhere = "first in mesh '" + b.meshName + "' vertex " + std::to_string(r.firstBad) +
                        " = " + fmtVec(r.firstBadValue);
      }
    }
  }
  if (badVerts > 0) {
    result.warnings.push_back(path + ": dropped " + countWord(droppedTris, "triangle", "triangles") +
                              " using " + countWord(badVerts, "vertex", "vertices") +
                              " with NaN, infinite or huge (> 1e7 m) coordinates (" + firstBadWhere + ")");
  }
  size_t total = 0;
  for (const MeshBuild& b : walk.meshes) total += b.mesh.indices.size() / 3;
  if (total == 0) {
    return fail(std::move(result), path + ": no usable triangles: all " +
                                       countWord(droppedTris, "triangle", "triangles") +
                                       " had NaN, infinite or huge coordinates (" + firstBadWhere + ")");
  }


  const float fscale = frame.scale;
  for (MeshBuild& b : walk.meshes) {
    for (glm::vec3& p : b.mesh.positions) p = toYUp(p, frame.upAxis) * fscale;
    for (glm::vec3& n : b.mesh.normals) n = toYUp(n, frame.upAxis);
    fixNormals(&b.mesh);
  }
  size_t degenerate = 0;
  for (const MeshBuild& b : walk.meshes) degenerate += countDegenerate(b.mesh);
  if (degenerate == total) {
    return fail(std::move(result), path + ": all " + countWord(total, "triangle is", "triangles are") +
                                       " degenerate (zero area): nothing to collide with or draw");
  }
  if (degenerate > 0) {
    result.warnings.push_back(path + ": " + countWord(degenerate, "triangle has", "triangles have") +
                              " zero area; kept as segments/points for collision (they never"
                              " block) and counted in the octree's statistics");
  }
  level.degenerateTriangles = static_cast<uint32_t>(degenerate);

  // Spawn node.
  if (walk.spawnPriority > 0) {
    const aiVector3D o = walk.spawnMatrix * aiVector3D(0.0f, 0.0f, 0.0f);
    const aiVector3D f = aiMatrix3x3(walk.spawnMatrix) * aiVector3D(0.0f, 0.0f, -1.0f);
    const glm::vec3 pos = toYUp(glm::vec3(o.x, o.y, o.z), frame.upAxis) * fscale;
    const glm::vec3 fwd = toYUp(glm::vec3(f.x, f.y, f.z), frame.upAxis);
    bool finite = true;
    for (int k = 0; k < 3; ++k) finite = finite && std::isfinite(pos[k]) && std::isfinite(fwd[k]);
    if (finite) {
      level.spawn = pos;
      level.spawnSource = walk.spawnName;
      level.spawnYaw = (std::abs(fwd.x) + std::abs(fwd.z) > 1e-6f) ? std::atan2(-fwd.x, -fwd.z) + 0.0f : 0.0f;
    } else {
      result.warnings.push_back(path + ": spawn node '" + walk.spawnName +
                                "' has a non-finite transform; ignored");
    }
  }

  // 6. Materials (only those used load textures).
  progress(0.8f, "loading textures");
  std::vector<bool> used(scene->mNumMaterials, false);
  for (const MeshBuild& b : walk.meshes) {
    if (b.mesh.material < used.size()) used[b.mesh.material] = true;
  }
  convertMaterials(*scene, used, path, &level, &result.warnings);

  // Collision soup and bounds.
  progress(0.95f, "collision soup");
  size_t vcount = 0, icount = 0;
  for (const MeshBuild& b : walk.meshes) {
    vcount += b.mesh.positions.size();
    icount += b.mesh.indices.size();
  }
  level.collisionPositions.reserve(vcount);
  level.collisionIndices.reserve(icount);
  level.collisionLayers.reserve(icount / 3);
  glm::vec3 lo(std::numeric_limits<float>::max()), hi(-std::numeric_limits<float>::max());
  level.meshes.reserve(walk.meshes.size());
  for (MeshBuild& b : walk.meshes) {
    const auto base = static_cast<uint32_t>(level.collisionPositions.size());
    level.collisionPositions.insert(level.collisionPositions.end(), b.mesh.positions.begin(),
                                    b.mesh.positions.end());
    for (uint32_t idx : b.mesh.indices) level.collisionIndices.push_back(base + idx);
    level.collisionLayers.insert(level.collisionLayers.end(), b.mesh.indices.size() / 3, b.mesh.layers);
    for (uint32_t idx : b.mesh.indices) {
      lo = glm::min(lo, b.mesh.positions[idx]);
      hi = glm::max(hi, b.mesh.positions[idx]);
    }
    if (b.mesh.material >= level.materials.size()) b.mesh.material = 0;
    level.meshes.push_back(std::move(b.mesh));
  }
  level.boundsMin = lo;
  level.boundsMax = hi;

  // Remember what the user chose, beside the level (or per user).
  if (options.rememberSettings && (optUp || options.scale)) {
    ImportSettings s;
    s.upAxis = frame.upAxis;
    s.scale = frame.scale;
    const bool same = stored && stored->settings.upAxis == s.upAxis && stored->settings.scale == s.scale;
    if (!same) {
      std::string w;
      writeImportSettings(path, s, &w);
      if (!w.empty()) result.warnings.push_back(w);
    }
  }

  progress(1.0f, "done");
  result.level = std::move(level);
  return result;
}

}  // namespace

LevelLoadResult loadLevel(const std::string& path, const LevelLoadOptions& options) {
  try {
    return loadLevelImpl(path, options);
  } catch (const std::bad_alloc&) {
    LevelLoadResult r;
    r.error = path + ": out of memory while loading";
    return r;
  } catch (const std::exception& e) {
    LevelLoadResult r;
    r.error = path + ": " + e.what();
    return r;
  }
}

}  // namespace ofps
