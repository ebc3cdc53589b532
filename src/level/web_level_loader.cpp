// The page's level loader (src/app/web/web.cmake builds it instead of level_loader.cpp): the same
// contract (level_loader.h) without Assimp, for the two formats a browser user is most likely to
// have: glTF/GLB through tinygltf (Debian's libtinygltf-dev) and OBJ through the core's own
// reader (octree_fps/io/obj_reader.h). Every other extension is refused with a message naming
// what the page reads.
//
// The native loader's checks that apply here run here too, most through the same code:
//   - before reading: missing, directory, empty, the memory budget (memory_budget.h);
//   - glTF: the container and JSON (tinygltf's own errors, prefixed with the file), required
//     extensions the page does not decode named, accessors that point outside their buffers,
//     index out of range;
//   - after reading (mesh_checks.h, the native code): non-finite or huge coordinates dropped with
//     a warning, zero-area triangles counted, nothing usable refused; the frame (options >
//     import settings > glTF's Y-up metres > level_frame.h's guess for OBJ); the local frame of a
//     far-away level (level_origin.h); the naming conventions of level_conventions.md (nocollide,
//     UCX_/collider, spawn nodes).
// Not here: texture files beside an OBJ (the core's reader reads no MTL: OBJ levels are
// untextured), EXT_meshopt_compression, and the separate import process (nothing crashes
// tinygltf the way Assimp can).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <glm/geometric.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <utility>

#include "level/import_settings.h"
#include "level/level_conventions.h"
#include "level/level_frame.h"
#include "level/level_loader.h"
#include "level/load_steps.h"
#include "level/load_text.h"
#include "level/memory_budget.h"
#include "level/mesh_checks.h"
#include "octree_fps/io/obj_reader.h"

// tinygltf decodes images through our callback (decodeImage below) and writes nothing.
#define TINYGLTF_IMPLEMENTATION
#define TINYGLTF_NO_STB_IMAGE_WRITE
#define TINYGLTF_NO_EXTERNAL_IMAGE_WRITE
#include <stb_image.h>
#include <tiny_gltf.h>

namespace ofps {
namespace {

using loader::failLoad;
using loader::MeshBuild;
using loader::nameIsCollider;
using loader::nameIsNoCollide;
using loader::spawnNamePriority;

constexpr const char* kPageFormats = "glTF (.gltf, .glb) and OBJ (.obj)";

// True when the file starts with a binary glTF's magic "glTF" (what the page's Assimp writes).
bool startsWithGlbMagic(const std::string& path) {
  char magic[4] = {};
  std::ifstream in(path, std::ios::binary);
  return in.read(magic, 4) && std::memcmp(magic, "glTF", 4) == 0;
}

// --- glTF ---------------------------------------------------------------------------------------

// Extensions a file may require that the page reads: quantized attributes are read by
// readAccessor (any component type, normalized or not); the material ones change colours only.
bool pageHandlesExtension(const std::string& e) {
  return e == "KHR_mesh_quantization" || loader::startsWith(e, "KHR_materials_") ||
         e == "KHR_texture_transform";
}

// Images: RGBA8 through stb_image. A picture that does not decode is not an error of the level:
// the texture becomes the checker (as natively) and the load goes on.
bool decodeImage(tinygltf::Image* image, const int /*index*/, std::string* /*err*/,
                 std::string* warn, int /*reqWidth*/, int /*reqHeight*/, const unsigned char* bytes,
                 int size, void* /*user*/) {
  int w = 0, h = 0, comp = 0;
  stbi_uc* pixels = stbi_load_from_memory(bytes, size, &w, &h, &comp, 4);
  if (pixels == nullptr) {
    if (warn != nullptr) *warn += "image '" + image->name + "' does not decode; ";
    image->width = image->height = 0;
    image->image.clear();
    return true;
  }
  image->width = w;
  image->height = h;
  image->component = 4;
  image->bits = 8;
  image->pixel_type = TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE;
  image->image.assign(pixels, pixels + static_cast<size_t>(w) * h * 4);
  stbi_image_free(pixels);
  return true;
}

// One component of element i of an accessor as a float (normalized integer types mapped to
// [0,1] or [-1,1] as the glTF spec says). Bounds are checked once by accessorView.
struct AccessorView {
  const unsigned char* data = nullptr;
  size_t stride = 0;
  size_t count = 0;
  int components = 0;
  int componentType = 0;
  bool normalized = false;

  double get(size_t i, int c) const {
    const unsigned char* p = data + i * stride;
    switch (componentType) {
      case TINYGLTF_COMPONENT_TYPE_FLOAT: {
        float v;
        std::memcpy(&v, p + 4 * c, 4);
        return v;
      }
      case TINYGLTF_COMPONENT_TYPE_BYTE: {
        const auto v = static_cast<int8_t>(p[c]);
        return normalized ? std::max(v / 127.0, -1.0) : v;
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
        return normalized ? p[c] / 255.0 : p[c];
      case TINYGLTF_COMPONENT_TYPE_SHORT: {
        int16_t v;
        std::memcpy(&v, p + 2 * c, 2);
        return normalized ? std::max(v / 32767.0, -1.0) : v;
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
        uint16_t v;
        std::memcpy(&v, p + 2 * c, 2);
        return normalized ? v / 65535.0 : v;
      }
      case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
        uint32_t v;
        std::memcpy(&v, p + 4 * c, 4);
        return v;
      }
      default:
        return 0.0;
    }
  }
  uint32_t index(size_t i) const {
    const unsigned char* p = data + i * stride;
    if (componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE) return p[0];
    if (componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return v;
    }
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
  }
};

// The accessor's elements, or an error naming it when its view or buffer cannot hold them (a
// file whose lengths lie). Sparse accessors are not read (an error says so).
std::string accessorView(const tinygltf::Model& model, int index, const char* what,
                         AccessorView* out) {
  const std::string name = std::string(what) + " accessor " + std::to_string(index);
  if (index < 0 || static_cast<size_t>(index) >= model.accessors.size()) {
    return name + " does not exist";
  }
  const tinygltf::Accessor& a = model.accessors[index];
  if (a.sparse.isSparse) return name + " is sparse, which the page does not read";
  if (a.bufferView < 0 || static_cast<size_t>(a.bufferView) >= model.bufferViews.size()) {
    return name + " has no buffer view";
  }
  const tinygltf::BufferView& v = model.bufferViews[a.bufferView];
  if (v.buffer < 0 || static_cast<size_t>(v.buffer) >= model.buffers.size()) {
    return name + "'s buffer view names no buffer";
  }
  const tinygltf::Buffer& b = model.buffers[v.buffer];
  const int components = tinygltf::GetNumComponentsInType(static_cast<uint32_t>(a.type));
  const int componentSize =
      tinygltf::GetComponentSizeInBytes(static_cast<uint32_t>(a.componentType));
  if (components <= 0 || componentSize <= 0) return name + " has an unknown type";
  const size_t elementSize = static_cast<size_t>(components) * componentSize;
  const size_t stride = v.byteStride > 0 ? v.byteStride : elementSize;
  const uint64_t start = static_cast<uint64_t>(v.byteOffset) + a.byteOffset;
  const uint64_t need =
      a.count == 0 ? 0 : (a.count - 1) * static_cast<uint64_t>(stride) + elementSize;
  if (a.byteOffset + need > v.byteLength || start + need > b.data.size()) {
    return name + " claims " + std::to_string(a.count) + " elements (" + std::to_string(need) +
           " bytes) but its buffer holds " +
           std::to_string(b.data.size() > start ? b.data.size() - start : 0);
  }
  out->data = b.data.data() + start;
  out->stride = stride;
  out->count = a.count;
  out->components = components;
  out->componentType = a.componentType;
  out->normalized = a.normalized;
  return "";
}

glm::mat4 nodeMatrix(const tinygltf::Node& n) {
  if (n.matrix.size() == 16) {
    glm::mat4 m;
    for (int i = 0; i < 16; ++i) glm::value_ptr(m)[i] = static_cast<float>(n.matrix[i]);
    return m;
  }
  glm::mat4 m(1.0f);
  if (n.translation.size() == 3) {
    m = glm::translate(m, glm::vec3(n.translation[0], n.translation[1], n.translation[2]));
  }
  if (n.rotation.size() == 4) {
    // glTF stores (x, y, z, w); GLM's constructor takes (w, x, y, z).
    const glm::quat q(static_cast<float>(n.rotation[3]), static_cast<float>(n.rotation[0]),
                      static_cast<float>(n.rotation[1]), static_cast<float>(n.rotation[2]));
    m = m * glm::mat4_cast(q);
  }
  if (n.scale.size() == 3) m = glm::scale(m, glm::vec3(n.scale[0], n.scale[1], n.scale[2]));
  return m;
}

struct GltfWalk {
  std::vector<MeshBuild> meshes;
  uint64_t pointsDropped = 0;
  uint64_t linesDropped = 0;
  bool ok = true;  // false: a mesh could not be read, see `error`
  std::string error;
  int spawnPriority = 0;
  glm::mat4 spawnMatrix{1.0f};
  std::string spawnName;
};

// One primitive of a node's mesh, in the file's frame, world transform applied.
std::string addPrimitive(const tinygltf::Model& model, const tinygltf::Primitive& prim,
                         const glm::mat4& world, MeshBuild* b, GltfWalk* walk) {
  auto pos = prim.attributes.find("POSITION");
  if (pos == prim.attributes.end()) return "";  // nothing to place: skipped
  AccessorView pv;
  if (std::string e = accessorView(model, pos->second, "POSITION", &pv); !e.empty()) return e;
  if (pv.components != 3) return "POSITION accessor is not a VEC3";
  const size_t n = pv.count;
  std::vector<uint32_t> indices;
  if (prim.indices >= 0) {
    AccessorView iv;
    if (std::string e = accessorView(model, prim.indices, "index", &iv); !e.empty()) return e;
    indices.resize(iv.count);
    for (size_t i = 0; i < iv.count; ++i) {
      indices[i] = iv.index(i);
      if (indices[i] >= n) {
        return "face index " + std::to_string(indices[i]) + " out of range (" + std::to_string(n) +
               " vertices)";
      }
    }
  } else {
    indices.resize(n);
    for (size_t i = 0; i < n; ++i) indices[i] = static_cast<uint32_t>(i);
  }
  std::vector<uint32_t> tris;
  switch (prim.mode) {
    case TINYGLTF_MODE_TRIANGLES:
      tris.assign(indices.begin(), indices.end() - static_cast<std::ptrdiff_t>(indices.size() % 3));
      break;
    case TINYGLTF_MODE_TRIANGLE_STRIP:
      for (size_t i = 2; i < indices.size(); ++i) {
        const bool odd = (i % 2) == 1;
        tris.insert(tris.end(),
                    {indices[i - 2], indices[odd ? i : i - 1], indices[odd ? i - 1 : i]});
      }
      break;
    case TINYGLTF_MODE_TRIANGLE_FAN:
      for (size_t i = 2; i < indices.size(); ++i) {
        tris.insert(tris.end(), {indices[0], indices[i - 1], indices[i]});
      }
      break;
    case TINYGLTF_MODE_POINTS:
      walk->pointsDropped += indices.size();
      return "";
    default:  // lines, line loops, line strips
      walk->linesDropped += indices.size() / 2;
      return "";
  }
  AccessorView nv, tv;
  bool hasNormals = false, hasUvs = false;
  if (auto it = prim.attributes.find("NORMAL"); it != prim.attributes.end()) {
    hasNormals = accessorView(model, it->second, "NORMAL", &nv).empty() && nv.count == n &&
                 nv.components == 3;
  }
  if (auto it = prim.attributes.find("TEXCOORD_0"); it != prim.attributes.end()) {
    hasUvs = accessorView(model, it->second, "TEXCOORD_0", &tv).empty() && tv.count == n &&
             tv.components == 2;
  }
  const glm::mat3 linear(world);
  const bool mirrored = glm::determinant(linear) < 0.0f;
  const glm::mat3 normalMatrix = glm::transpose(glm::inverse(linear));
  LevelMesh& m = b->mesh;
  const auto base = static_cast<uint32_t>(m.positions.size());
  for (size_t i = 0; i < n; ++i) {
    const glm::vec4 p(pv.get(i, 0), pv.get(i, 1), pv.get(i, 2), 1.0);
    m.positions.push_back(glm::vec3(world * p));
    glm::vec3 nrm(0.0f);
    if (hasNormals) {
      nrm = normalMatrix * glm::vec3(nv.get(i, 0), nv.get(i, 1), nv.get(i, 2));
      const float len = glm::length(nrm);
      nrm = len > 0.0f && std::isfinite(len) ? nrm / len : glm::vec3(0.0f);
    }
    m.normals.push_back(nrm);
    // glTF's v = 0 is the image's top row already, as LevelMesh wants.
    m.uvs.push_back(hasUvs ? glm::vec2(tv.get(i, 0), tv.get(i, 1)) : glm::vec2(0.0f));
  }
  const size_t firstIndex = m.indices.size();
  for (size_t t = 0; t + 2 < tris.size(); t += 3) {
    const uint32_t a = base + tris[t], c1 = base + tris[t + 1], c2 = base + tris[t + 2];
    m.indices.insert(m.indices.end(), {a, mirrored ? c2 : c1, mirrored ? c1 : c2});
  }
  // Flat normals where the file has none (the native loader's GenNormals).
  if (!hasNormals) {
    for (size_t t = firstIndex; t + 2 < m.indices.size(); t += 3) {
      const uint32_t i0 = m.indices[t], i1 = m.indices[t + 1], i2 = m.indices[t + 2];
      const glm::vec3 f =
          glm::cross(m.positions[i1] - m.positions[i0], m.positions[i2] - m.positions[i0]);
      const float len = glm::length(f);
      const glm::vec3 nf = len > 0.0f && std::isfinite(len) ? f / len : glm::vec3(0.0f, 1.0f, 0.0f);
      m.normals[i0] = m.normals[i1] = m.normals[i2] = nf;
    }
  }
  return "";
}

void walkGltf(const tinygltf::Model& model, const std::string& path, bool allSolid, GltfWalk* out) {
  struct Item {
    int node;
    glm::mat4 parent;
    bool noCollide;
    bool collider;
  };
  std::vector<Item> stack;
  std::vector<int> roots;
  if (!model.scenes.empty()) {
    const int scene =
        model.defaultScene >= 0 && static_cast<size_t>(model.defaultScene) < model.scenes.size()
            ? model.defaultScene
            : 0;
    roots = model.scenes[scene].nodes;
  } else {
    for (size_t i = 0; i < model.nodes.size(); ++i) roots.push_back(static_cast<int>(i));
  }
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) {
    stack.push_back({*it, glm::mat4(1.0f), false, false});
  }
  size_t visited = 0;
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    // A node cycle (invalid glTF) would never end: bounded by the node count per root pass.
    if (item.node < 0 || static_cast<size_t>(item.node) >= model.nodes.size() ||
        ++visited > model.nodes.size() * 4 + 16) {
      continue;
    }
    const tinygltf::Node& node = model.nodes[item.node];
    const glm::mat4 world = item.parent * nodeMatrix(node);
    const std::string name = node.name.empty() ? "node " + std::to_string(item.node) : node.name;
    const std::string lname = loader::lower(name);
    const bool noCollide = item.noCollide || nameIsNoCollide(lname);
    const bool collider = item.collider || nameIsCollider(lname);
    if (const int prio = spawnNamePriority(name); prio > out->spawnPriority) {
      out->spawnPriority = prio;
      out->spawnMatrix = world;
      out->spawnName = name;
    }
    if (node.mesh >= 0 && static_cast<size_t>(node.mesh) < model.meshes.size()) {
      const tinygltf::Mesh& mesh = model.meshes[node.mesh];
      for (size_t p = 0; p < mesh.primitives.size(); ++p) {
        const tinygltf::Primitive& prim = mesh.primitives[p];
        MeshBuild b;
        b.meshName = mesh.name.empty() ? "mesh " + std::to_string(node.mesh) : mesh.name;
        b.mesh.name =
            mesh.primitives.size() > 1 ? name + "/" + b.meshName + "#" + std::to_string(p) : name;
        b.mesh.material = prim.material >= 0 ? static_cast<uint32_t>(prim.material) : 0;
        const std::string materialName =
            prim.material >= 0 && static_cast<size_t>(prim.material) < model.materials.size()
                ? loader::lower(model.materials[prim.material].name)
                : std::string();
        const bool meshNoCollide = noCollide || nameIsNoCollide(loader::lower(b.meshName)) ||
                                   nameIsNoCollide(materialName);
        const bool meshCollider = collider || nameIsCollider(loader::lower(b.meshName));
        b.mesh.visible = !meshCollider;
        b.mesh.layers = (meshNoCollide && !allSolid && !meshCollider) ? 0u : kLayerSolid;
        if (std::string e = addPrimitive(model, prim, world, &b, out); !e.empty()) {
          out->ok = false;
          out->error = path + ": mesh '" + b.meshName + "': " + e;
          return;
        }
        if (!b.mesh.indices.empty()) out->meshes.push_back(std::move(b));
      }
    }
    for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) {
      stack.push_back({*it, world, noCollide, collider});
    }
  }
}

void gltfMaterials(const tinygltf::Model& model, Level* level, std::vector<std::string>* warnings) {
  std::vector<int> textureOfImage(model.images.size(), -1);
  size_t broken = 0;
  for (const tinygltf::Material& m : model.materials) {
    LevelMaterial out;
    out.name = m.name;
    const auto& f = m.pbrMetallicRoughness.baseColorFactor;
    if (f.size() == 4) out.baseColor = glm::vec4(f[0], f[1], f[2], f[3]);
    const int tex = m.pbrMetallicRoughness.baseColorTexture.index;
    if (tex >= 0 && static_cast<size_t>(tex) < model.textures.size()) {
      const int src = model.textures[tex].source;
      if (src >= 0 && static_cast<size_t>(src) < model.images.size()) {
        if (textureOfImage[src] < 0) {
          const tinygltf::Image& img = model.images[src];
          LevelTexture t;
          t.source = img.uri.empty() ? "embedded:" + std::to_string(src) : img.uri;
          if (img.width > 0 && img.height > 0 &&
              img.image.size() == static_cast<size_t>(img.width) * img.height * 4) {
            t.width = img.width;
            t.height = img.height;
            t.rgba = img.image;
          } else {
            // The native loader's fallback: a checker says "texture missing" on screen.
            ++broken;
            t.width = t.height = 64;
            t.isFallbackChecker = true;
            t.rgba.resize(64 * 64 * 4);
            for (int y = 0; y < 64; ++y) {
              for (int x = 0; x < 64; ++x) {
                const uint8_t v = ((x / 8 + y / 8) % 2) != 0 ? 255 : 40;
                uint8_t* p = &t.rgba[(static_cast<size_t>(y) * 64 + x) * 4];
                p[0] = v;
                p[1] = 0;
                p[2] = v;
                p[3] = 255;
              }
            }
          }
          textureOfImage[src] = static_cast<int>(level->textures.size());
          level->textures.push_back(std::move(t));
        }
        out.texture = textureOfImage[src];
      }
    }
    level->materials.push_back(std::move(out));
  }
  if (broken > 0) {
    warnings->push_back(level->path + ": " + loader::countWord(broken, "texture", "textures") +
                        " missing or unreadable (drawn as a checker)");
  }
  if (level->materials.empty())
    level->materials.push_back(LevelMaterial{"default", glm::vec4(1.0f), -1});
}

// --- the pipeline -------------------------------------------------------------------------------

LevelLoadResult loadLevelImpl(const std::string& path, const LevelLoadOptions& options) {
  LevelLoadResult result;
  auto progress = [&options](float f, const char* stage) {
    if (options.onProgress) options.onProgress(f, stage);
  };
  namespace fs = std::filesystem;

  // 1. Checks before reading.
  std::string ext = loader::lower(fs::path(path).extension().string());
  if (!ext.empty() && ext[0] == '.') ext.erase(0, 1);
  if (options.upAxis && *options.upAxis != 'y' && *options.upAxis != 'z' &&
      *options.upAxis != 'Y' && *options.upAxis != 'Z') {
    return failLoad(std::move(result), "--up must be y or z");
  }
  if (options.scale && !(*options.scale > 0.0f && std::isfinite(*options.scale))) {
    return failLoad(std::move(result), "--scale must be a positive number");
  }
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) return failLoad(std::move(result), path + ": no such file");
  if (fs::is_directory(status))
    return failLoad(std::move(result), path + ": is a directory, not a level file");
  const uint64_t size = fs::file_size(path, ec);
  if (ec) return failLoad(std::move(result), path + ": cannot read the file size");
  if (size == 0) return failLoad(std::move(result), path + ": the file is empty");
  // Any other format reaches the loader converted: the page runs Assimp (assimpjs) on a dropped
  // FBX, DAE, STL, ... and hands over its GLB under the original name, so the level keeps its
  // name. Whether Assimp brought the file into Y-up metres depends on the format (COLLADA's
  // up_axis and unit are applied, an STL's raw coordinates are not), so the frame is guessed.
  bool converted = false;
  if (ext != "gltf" && ext != "glb" && ext != "obj") {
    converted = startsWithGlbMagic(path);
    if (!converted) {
      return failLoad(
          std::move(result),
          path + ": the page reads " + kPageFormats + " itself, and other formats when they " +
              "are dropped or opened (Assimp converts them); " +
              (ext.empty() ? std::string("a file without an extension") : "'." + ext + "'") +
              " given by its path is not read");
    }
    result.warnings.push_back(path + ": converted to glTF by Assimp (assimpjs) in the page");
  }
  const uint64_t budget =
      options.memoryBudgetBytes ? *options.memoryBudgetBytes : defaultLevelMemoryBudget();
  const ImportEstimate estimate = estimateImportBytes(ext, size, HeaderCounts{});
  if (estimate.bytes > budget) {
    return failLoad(std::move(result),
                    path + ": loading it would take about " + formatMegabytes(estimate.bytes) +
                        ", over the memory budget of " + formatMegabytes(budget));
  }
  const std::optional<char> optUp =
      options.upAxis ? std::optional<char>(static_cast<char>(std::tolower(*options.upAxis)))
                     : std::nullopt;
  progress(0.1f, "reading file");

  // 2. Read, walk.
  GltfWalk walk;
  tinygltf::Model model;
  const bool isGltf = ext != "obj";
  if (isGltf) {
    tinygltf::TinyGLTF reader;
    reader.SetImageLoader(decodeImage, nullptr);
    std::string err, warn;
    const bool ok = ext == "glb" || converted ? reader.LoadBinaryFromFile(&model, &err, &warn, path)
                                              : reader.LoadASCIIFromFile(&model, &err, &warn, path);
    if (!ok) {
      while (!err.empty() && (err.back() == '\n' || err.back() == ' ')) err.pop_back();
      return failLoad(std::move(result), path + ": not a readable glTF file (" +
                                             (err.empty() ? std::string("no reason given") : err) +
                                             ")");
    }
    std::string unsupported;
    for (const std::string& e : model.extensionsRequired) {
      if (!pageHandlesExtension(e)) unsupported += (unsupported.empty() ? "" : ", ") + e;
    }
    if (!unsupported.empty()) {
      return failLoad(std::move(result),
                      path + ": requires the glTF extension " + unsupported +
                          ", which the page does not decode (the native demo decodes "
                          "EXT_meshopt_compression; re-export without compression)");
    }
    progress(0.5f, "building meshes");
    walkGltf(model, path, options.allSolid, &walk);
    if (!walk.ok) return failLoad(std::move(result), walk.error);
  } else {
    ObjReadResult obj = readObj(path);
    if (!obj.ok) return failLoad(std::move(result), obj.error);
    progress(0.5f, "building meshes");
    MeshBuild b;
    b.meshName = fs::path(path).stem().string();
    b.mesh.name = b.meshName;
    b.mesh.positions = std::move(obj.mesh.positions);
    b.mesh.indices = std::move(obj.mesh.indices);
    b.mesh.uvs.assign(b.mesh.positions.size(), glm::vec2(0.0f));
    // Flat normals per vertex of the last face using it: OBJ levels are lit by orientation only,
    // so the (rare) shared vertex between two orientations picks one.
    b.mesh.normals.assign(b.mesh.positions.size(), glm::vec3(0.0f, 1.0f, 0.0f));
    for (size_t t = 0; t + 2 < b.mesh.indices.size(); t += 3) {
      const glm::vec3& p0 = b.mesh.positions[b.mesh.indices[t]];
      const glm::vec3 f = glm::cross(b.mesh.positions[b.mesh.indices[t + 1]] - p0,
                                     b.mesh.positions[b.mesh.indices[t + 2]] - p0);
      const float len = glm::length(f);
      if (len > 0.0f && std::isfinite(len)) {
        for (int k = 0; k < 3; ++k) b.mesh.normals[b.mesh.indices[t + k]] = f / len;
      }
    }
    if (!b.mesh.indices.empty()) walk.meshes.push_back(std::move(b));
  }
  if (walk.pointsDropped + walk.linesDropped > 0) {
    result.warnings.push_back(
        path + ": dropped " + loader::countWord(walk.pointsDropped, "point", "points") + " and " +
        loader::countWord(walk.linesDropped, "line", "lines") + " (only triangles are used)");
  }
  if (walk.meshes.empty()) return failLoad(std::move(result), path + ": no triangles in the file");

  // 3. Frame: options > import settings > the file (glTF: Y-up metres) > the native guess (OBJ,
  // and a converted file: Assimp's GLB keeps the source's axes and units).
  const bool fileFrameKnown = isGltf && !converted;
  Level level;
  level.path = path;
  const auto stored = loader::storedImportSettings(path, options, &result.warnings);
  LevelImportFrame& frame = level.frame;
  const bool upStored = stored && stored->settings.upAxis;
  const bool scaleStored = stored && stored->settings.scale;
  std::optional<loader::FrameGuess> guess;
  if (!fileFrameKnown && (!(optUp || upStored) || !(options.scale || scaleStored))) {
    guess = loader::guessFrame(walk.meshes);
  }
  if (optUp) {
    frame.upAxis = *optUp;
    frame.upSource = "options";
  } else if (upStored) {
    frame.upAxis = *stored->settings.upAxis;
    frame.upSource = "settings file " + stored->path;
  } else if (fileFrameKnown) {
    frame.upAxis = 'y';
    frame.upSource = "file (glTF is Y-up metres)";
  } else {
    frame.upAxis = guess->up;
    frame.upSource = "guessed (" + guess->why + ")";
    frame.guessed = true;
  }
  if (options.scale) {
    frame.scale = *options.scale;
    frame.scaleSource = "options";
  } else if (scaleStored) {
    frame.scale = *stored->settings.scale;
    frame.scaleSource = "settings file " + stored->path;
  } else if (fileFrameKnown) {
    frame.scale = 1.0f;
    frame.scaleSource = "file (glTF is Y-up metres)";
  } else {
    frame.scale = guess->scale;
    frame.scaleSource = "guessed (" + guess->why + ")";
    frame.guessed = true;
  }
  if (frame.guessed && guess) {
    const std::string format =
        converted ? "Assimp's GLB carries no frame the page can trust (Assimp applies the up axis "
                    "and units of some formats, such as COLLADA's, itself)"
                  : "OBJ says nothing about its frame";
    result.warnings.push_back(path + ": " + format + "; guessed " + std::string(1, frame.upAxis) +
                              "-up, " + loader::fmtFloat(frame.scale) + " m per unit (" +
                              guess->why +
                              "); the Level section's up axis, units and Reload change it");
  }

  // 4. The native checks, then Y-up metres.
  uint32_t degenerate = 0;
  if (std::string why =
          loader::checkAndConvertMeshes(walk.meshes, frame, path, &result.warnings, &degenerate);
      !why.empty()) {
    return failLoad(std::move(result), why);
  }
  level.degenerateTriangles = degenerate;

  if (walk.spawnPriority > 0) {
    const glm::vec3 o(walk.spawnMatrix * glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
    const glm::vec3 f(walk.spawnMatrix * glm::vec4(0.0f, 0.0f, -1.0f, 0.0f));
    loader::applySpawnNode(o, f, walk.spawnName, path, &level, &result.warnings);
  }

  // 5. Materials.
  progress(0.8f, "loading textures");
  if (isGltf) {
    gltfMaterials(model, &level, &result.warnings);
  } else {
    level.materials.push_back(LevelMaterial{"default", glm::vec4(1.0f), -1});
  }

  // Collision soup, bounds, the local frame, the frame choice remembered (load_steps.h).
  return loader::finishLoad(std::move(result), std::move(level), walk.meshes, path, options, optUp,
                            stored);
}

}  // namespace

LevelLoadResult loadLevel(const std::string& path, const LevelLoadOptions& options) {
  return loader::loadCatching(path, options, loadLevelImpl);
}

}  // namespace ofps
