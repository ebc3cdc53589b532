// glTF required extensions; see gltf_extensions.h. Every offset, length, stride and count read
// from the JSON is checked before use: the fuzzer feeds this file hostile JSON.
#include "level/gltf_extensions.h"

#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

namespace ofps {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr char kQuantization[] = "KHR_mesh_quantization";
constexpr char kMeshopt[] = "EXT_meshopt_compression";
constexpr char kTextureTransform[] = "KHR_texture_transform";

// Required extensions that Assimp 5.2.5 (Debian, built with Draco) reads itself.
bool assimpHandles(const std::string& e) {
  static const char* const kNames[] = {"KHR_draco_mesh_compression",
                                       "KHR_texture_transform",
                                       "KHR_lights_punctual",
                                       "KHR_materials_pbrSpecularGlossiness",
                                       "KHR_materials_unlit",
                                       "KHR_materials_sheen",
                                       "KHR_materials_clearcoat",
                                       "KHR_materials_transmission",
                                       "KHR_materials_volume",
                                       "KHR_materials_ior",
                                       "KHR_materials_emissive_strength"};
  for (const char* n : kNames) {
    if (e == n) return true;
  }
  return false;
}

// What to tell the user about an extension nobody here decodes.
std::string hintFor(const std::string& e) {
  if (e == "EXT_mesh_gpu_instancing")
    return " (gltfpack writes it with -mi: run gltfpack without -mi)";
  if (e == "KHR_texture_basisu") {
    return " (gltfpack writes it with -tc or -tu: run gltfpack without texture compression)";
  }
  return " (re-export the level without it)";
}

const json* member(const json& o, const char* key) {
  if (!o.is_object()) return nullptr;
  const auto it = o.find(key);
  return it == o.end() ? nullptr : &*it;
}

// A non-negative integer member; false when absent or of another type.
bool getU64(const json& o, const char* key, uint64_t* out) {
  const json* v = member(o, key);
  if (v == nullptr) return false;
  if (v->is_number_unsigned()) {
    *out = v->get<uint64_t>();
    return true;
  }
  if (v->is_number_integer() && v->get<int64_t>() >= 0) {
    *out = static_cast<uint64_t>(v->get<int64_t>());
    return true;
  }
  return false;
}

std::string getString(const json& o, const char* key) {
  const json* v = member(o, key);
  return (v != nullptr && v->is_string()) ? v->get<std::string>() : std::string();
}

std::vector<std::string> stringList(const json& root, const char* key) {
  std::vector<std::string> out;
  const json* a = member(root, key);
  if (a == nullptr || !a->is_array()) return out;
  for (const json& s : *a) {
    if (s.is_string()) out.push_back(s.get<std::string>());
  }
  return out;
}

bool has(const std::vector<std::string>& v, const char* s) {
  return std::find(v.begin(), v.end(), s) != v.end();
}

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
uint64_t satAdd(uint64_t a, uint64_t b) {
  return b > kMax - a ? kMax : a + b;
}
uint64_t satMul(uint64_t a, uint64_t b) {
  return (a != 0 && b > kMax / a) ? kMax : a * b;
}

// A failure inside the rewrite: becomes GltfPrepared::error.
struct Refuse {
  std::string why;
};

uint32_t readU32(const std::string& b, size_t at) {
  uint32_t v = 0;
  for (int k = 3; k >= 0; --k)
    v = (v << 8) | static_cast<unsigned char>(b[at + static_cast<size_t>(k)]);
  return v;
}

std::vector<unsigned char> base64Decode(const std::string& s, size_t from) {
  std::vector<unsigned char> out;
  out.reserve((s.size() - from) / 4 * 3);
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = from; i < s.size(); ++i) {
    const char c = s[i];
    int v;
    if (c >= 'A' && c <= 'Z')
      v = c - 'A';
    else if (c >= 'a' && c <= 'z')
      v = c - 'a' + 26;
    else if (c >= '0' && c <= '9')
      v = c - '0' + 52;
    else if (c == '+' || c == '-')
      v = 62;
    else if (c == '/' || c == '_')
      v = 63;
    else if (c == '=')
      break;
    else
      throw Refuse{"a data: URI is not valid base64"};
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<unsigned char>((acc >> bits) & 0xFF));
    }
  }
  return out;
}

int componentSize(uint64_t type) {
  switch (type) {
    case 5120:
    case 5121:
      return 1;  // BYTE, UNSIGNED_BYTE
    case 5122:
    case 5123:
      return 2;  // SHORT, UNSIGNED_SHORT
    case 5125:
    case 5126:
      return 4;  // UNSIGNED_INT, FLOAT
    default:
      return 0;
  }
}

int componentCount(const std::string& type) {
  if (type == "SCALAR") return 1;
  if (type == "VEC2") return 2;
  if (type == "VEC3") return 3;
  if (type == "VEC4") return 4;
  return 0;
}

// One component as float; normalized integers map to [0,1] or [-1,1] (glTF 2.0 section 3.11:
// signed values clamp at -1).
float decodeComponent(const unsigned char* p, uint64_t type, bool normalized) {
  switch (type) {
    case 5120: {
      const auto v = static_cast<int8_t>(p[0]);
      return normalized ? std::max(v / 127.0f, -1.0f) : static_cast<float>(v);
    }
    case 5121:
      return normalized ? p[0] / 255.0f : static_cast<float>(p[0]);
    case 5122: {
      int16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? std::max(v / 32767.0f, -1.0f) : static_cast<float>(v);
    }
    case 5123: {
      uint16_t v;
      std::memcpy(&v, p, 2);
      return normalized ? v / 65535.0f : static_cast<float>(v);
    }
    case 5125: {
      uint32_t v;
      std::memcpy(&v, p, 4);
      return normalized ? static_cast<float>(v / 4294967295.0) : static_cast<float>(v);
    }
    default: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

class Rewriter {
 public:
  Rewriter(const std::string& path, uint64_t budget) : path_(path), budget_(budget) {}

  std::vector<unsigned char> run(json& root, const std::string* binChunk) {
    loadBuffers(root, binChunk);
    layoutViews(root);
    dequantizeAttributes(root);
    for (const char* key : {"extensionsRequired", "extensionsUsed"}) {
      json* a = root.is_object() && root.contains(key) ? &root[key] : nullptr;
      if (a == nullptr || !a->is_array()) continue;
      json kept = json::array();
      for (const json& e : *a) {
        if (e != kQuantization && e != kMeshopt) kept.push_back(e);
      }
      if (kept.empty())
        root.erase(key);
      else
        *a = kept;
    }
    root["buffers"] = json::array({json{{"byteLength", out_.size()}}});
    return writeGlb(root);
  }

  bool decodedMeshopt() const { return meshoptViews_ > 0; }
  bool decodedQuantized() const { return quantizedAccessors_ > 0; }

 private:
  void charge(uint64_t bytes) {
    used_ = satAdd(used_, bytes);
    if (used_ > budget_) {
      throw Refuse{"decoding its glTF data would need more than the loader's memory budget (" +
                   std::to_string(budget_) + " bytes; see LevelLoadOptions::memoryBudgetBytes)"};
    }
  }

  void loadBuffers(const json& root, const std::string* binChunk) {
    const json* buffers = member(root, "buffers");
    if (buffers == nullptr || !buffers->is_array()) return;
    for (size_t i = 0; i < buffers->size(); ++i) {
      const json& b = (*buffers)[i];
      uint64_t length = 0;
      if (!getU64(b, "byteLength", &length))
        throw Refuse{"buffer " + std::to_string(i) + " has no byteLength"};
      const std::string uri = getString(b, "uri");
      std::vector<unsigned char> data;
      if (uri.empty()) {
        if (i == 0 && binChunk != nullptr) {
          if (length > binChunk->size()) {
            throw Refuse{"buffer 0 claims " + std::to_string(length) +
                         " bytes but the GLB's BIN chunk has " + std::to_string(binChunk->size())};
          }
          charge(length);
          data.assign(binChunk->begin(), binChunk->begin() + static_cast<std::ptrdiff_t>(length));
        } else {
          // EXT_meshopt_compression's fallback buffer: no data, only compressed views use it.
          fallback_.insert(i);
        }
      } else if (uri.rfind("data:", 0) == 0) {
        const size_t comma = uri.find(',');
        if (comma == std::string::npos || uri.find(";base64") > comma) {
          throw Refuse{"buffer " + std::to_string(i) + " has a data: URI that is not base64"};
        }
        charge(uri.size());
        data = base64Decode(uri, comma + 1);
      } else {
        const fs::path file = fs::path(path_).parent_path() / percentDecode(uri);
        std::error_code ec;
        const uint64_t size = fs::file_size(file, ec);
        if (ec)
          throw Refuse{"buffer " + std::to_string(i) + " '" + uri + "' cannot be read (" +
                       ec.message() + ")"};
        if (length > size) {
          throw Refuse{"buffer " + std::to_string(i) + " '" + uri + "' claims " +
                       std::to_string(length) + " bytes but the file has " + std::to_string(size)};
        }
        charge(length);
        data.resize(static_cast<size_t>(length));
        std::ifstream f(file, std::ios::binary);
        f.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(length));
        if (static_cast<uint64_t>(f.gcount()) != length)
          throw Refuse{"buffer '" + uri + "' could not be read"};
      }
      if (data.size() > length) data.resize(static_cast<size_t>(length));
      if (data.size() < length && fallback_.count(i) == 0) {
        throw Refuse{"buffer " + std::to_string(i) + " holds " + std::to_string(data.size()) +
                     " bytes but claims " + std::to_string(length)};
      }
      bufferBase_.push_back(out_.size());
      bufferSize_.push_back(data.size());
      append(data.data(), data.size());
    }
  }

  void append(const void* data, size_t n) {
    const auto* p = static_cast<const unsigned char*>(data);
    out_.insert(out_.end(), p, p + n);
    while (out_.size() % 4 != 0) out_.push_back(0);
  }

  // Points every buffer view into out_: plain views at their buffer's new base, compressed views
  // at their decoded copy.
  void layoutViews(json& root) {
    if (!root.contains("bufferViews") || !root["bufferViews"].is_array()) return;
    json& views = root["bufferViews"];
    for (size_t v = 0; v < views.size(); ++v) {
      json& view = views[v];
      const std::string where = "bufferView " + std::to_string(v);
      uint64_t buffer = 0, offset = 0, length = 0;
      if (!getU64(view, "buffer", &buffer) || buffer >= bufferBase_.size())
        throw Refuse{where + " names no valid buffer"};
      getU64(view, "byteOffset", &offset);
      if (!getU64(view, "byteLength", &length)) throw Refuse{where + " has no byteLength"};
      const json* ext = member(view, "extensions");
      const json* mo = ext != nullptr ? member(*ext, kMeshopt) : nullptr;
      if (mo != nullptr) {
        decodeMeshoptView(view, *mo, where, length);
        continue;
      }
      if (fallback_.count(buffer) != 0)
        throw Refuse{where + " reads the meshopt fallback buffer, which holds no data"};
      if (satAdd(offset, length) > bufferSize_[buffer]) {
        throw Refuse{where + " (" + std::to_string(offset) + " + " + std::to_string(length) +
                     " bytes) runs past the end of buffer " + std::to_string(buffer) + " (" +
                     std::to_string(bufferSize_[buffer]) + " bytes)"};
      }
      view["buffer"] = 0;
      view["byteOffset"] = bufferBase_[buffer] + offset;
    }
  }

  void decodeMeshoptView(json& view, const json& mo, const std::string& where,
                         uint64_t viewLength) {
    uint64_t buffer = 0, offset = 0, length = 0, stride = 0, count = 0;
    if (!getU64(mo, "buffer", &buffer) || buffer >= bufferBase_.size() ||
        fallback_.count(buffer) != 0 || !getU64(mo, "byteLength", &length) ||
        !getU64(mo, "byteStride", &stride) || !getU64(mo, "count", &count)) {
      throw Refuse{where +
                   ": EXT_meshopt_compression is missing buffer, byteLength, byteStride or count"};
    }
    getU64(mo, "byteOffset", &offset);
    if (satAdd(offset, length) > bufferSize_[buffer]) {
      throw Refuse{where + ": EXT_meshopt_compression data runs past the end of buffer " +
                   std::to_string(buffer)};
    }
    const std::string mode = getString(mo, "mode");
    const std::string filter = member(mo, "filter") != nullptr ? getString(mo, "filter") : "NONE";
    const uint64_t bytes = satMul(count, stride);
    if (bytes > viewLength) {
      throw Refuse{where + ": EXT_meshopt_compression decodes " + std::to_string(count) + " x " +
                   std::to_string(stride) + " bytes, more than the view's byteLength " +
                   std::to_string(viewLength)};
    }
    charge(viewLength);
    std::vector<unsigned char> dst(static_cast<size_t>(viewLength), 0);
    const unsigned char* src = out_.data() + bufferBase_[buffer] + offset;
    int rc = -1;
    if (mode == "ATTRIBUTES") {
      if (stride == 0 || stride % 4 != 0 || stride > 256)
        throw Refuse{where + ": meshopt ATTRIBUTES stride must be 4..256 and a multiple of 4"};
      rc = meshopt_decodeVertexBuffer(dst.data(), count, stride, src, length);
      if (rc == 0 && filter == "OCTAHEDRAL") {
        if (stride != 4 && stride != 8)
          throw Refuse{where + ": meshopt OCTAHEDRAL filter needs stride 4 or 8"};
        meshopt_decodeFilterOct(dst.data(), count, stride);
      } else if (rc == 0 && filter == "QUATERNION") {
        if (stride != 8) throw Refuse{where + ": meshopt QUATERNION filter needs stride 8"};
        meshopt_decodeFilterQuat(dst.data(), count, stride);
      } else if (rc == 0 && filter == "EXPONENTIAL") {
        meshopt_decodeFilterExp(dst.data(), count, stride);
      } else if (rc == 0 && filter != "NONE") {
        throw Refuse{where + ": unknown EXT_meshopt_compression filter '" + filter + "'"};
      }
    } else if (mode == "TRIANGLES" || mode == "INDICES") {
      if (stride != 2 && stride != 4) throw Refuse{where + ": meshopt index stride must be 2 or 4"};
      if (mode == "TRIANGLES" && count % 3 != 0)
        throw Refuse{where + ": meshopt TRIANGLES count is not a multiple of 3"};
      rc = mode == "TRIANGLES"
               ? meshopt_decodeIndexBuffer(dst.data(), count, stride, src, length)
               : meshopt_decodeIndexSequence(dst.data(), count, stride, src, length);
    } else {
      throw Refuse{where + ": unknown EXT_meshopt_compression mode '" + mode + "'"};
    }
    if (rc != 0)
      throw Refuse{where + ": EXT_meshopt_compression data is damaged (the decoder returned " +
                   std::to_string(rc) + ")"};
    view["buffer"] = 0;
    view["byteOffset"] = out_.size();
    view["byteLength"] = viewLength;
    if (mode == "ATTRIBUTES")
      view["byteStride"] = stride;
    else
      view.erase("byteStride");
    view["extensions"].erase(kMeshopt);
    if (view["extensions"].empty()) view.erase("extensions");
    append(dst.data(), dst.size());
    ++meshoptViews_;
  }

  // The KHR_texture_transform of a material's base colour texture when it applies to texture
  // coordinate set `set`, else nullptr.
  static const json* textureTransformFor(const json& root, uint64_t material, uint64_t set) {
    const json* materials = member(root, "materials");
    if (materials == nullptr || !materials->is_array() || material >= materials->size())
      return nullptr;
    const json* pbr = member((*materials)[material], "pbrMetallicRoughness");
    const json* tex = pbr != nullptr ? member(*pbr, "baseColorTexture") : nullptr;
    const json* ext = tex != nullptr ? member(*tex, "extensions") : nullptr;
    const json* tt = ext != nullptr ? member(*ext, kTextureTransform) : nullptr;
    if (tt == nullptr || !tt->is_object()) return nullptr;
    uint64_t texCoord = 0;
    getU64(*tex, "texCoord", &texCoord);
    getU64(*tt, "texCoord", &texCoord);
    return texCoord == set ? tt : nullptr;
  }

  static void stripTextureTransforms(json& root, uint64_t material) {
    if (!root.contains("materials") || !root["materials"].is_array() ||
        material >= root["materials"].size())
      return;
    json& m = root["materials"][material];
    auto strip = [](json* info) {
      if (info == nullptr || !info->is_object() || !info->contains("extensions")) return;
      json& ext = (*info)["extensions"];
      if (!ext.is_object()) return;
      ext.erase(kTextureTransform);
      if (ext.empty()) info->erase("extensions");
    };
    if (!m.is_object()) return;
    for (const char* key : {"normalTexture", "occlusionTexture", "emissiveTexture"}) {
      if (m.contains(key)) strip(&m[key]);
    }
    if (m.contains("pbrMetallicRoughness") && m["pbrMetallicRoughness"].is_object()) {
      json& pbr = m["pbrMetallicRoughness"];
      for (const char* key : {"baseColorTexture", "metallicRoughnessTexture"}) {
        if (pbr.contains(key)) strip(&pbr[key]);
      }
    }
  }

  void dequantizeAttributes(json& root) {
    if (!root.contains("meshes") || !root["meshes"].is_array()) return;
    if (!root.contains("accessors") || !root["accessors"].is_array()) return;
    json& accessors = root["accessors"];
    std::map<uint64_t, uint64_t> done;  // accessor -> new bufferView
    std::set<uint64_t> transformedMaterials;
    for (json& mesh : root["meshes"]) {
      const json* prims = member(mesh, "primitives");
      if (prims == nullptr || !prims->is_array()) continue;
      for (const json& prim : *prims) {
        const json* attrs = member(prim, "attributes");
        if (attrs == nullptr || !attrs->is_object()) continue;
        uint64_t material = kMax;
        getU64(prim, "material", &material);
        for (auto it = attrs->begin(); it != attrs->end(); ++it) {
          const std::string& name = it.key();
          const bool tex = name.rfind("TEXCOORD_", 0) == 0;
          if (name != "POSITION" && name != "NORMAL" && name != "TANGENT" && !tex) continue;
          if (!it->is_number_unsigned() && !(it->is_number_integer() && it->get<int64_t>() >= 0))
            continue;
          const auto a = it->get<uint64_t>();
          if (a >= accessors.size() || done.count(a) != 0) continue;
          uint64_t type = 0;
          if (!getU64(accessors[a], "componentType", &type) || type == 5126) continue;
          const json* tt = nullptr;
          if (tex && material != kMax) {
            uint64_t set = 0;
            for (char c : name.substr(9))
              set = (c >= '0' && c <= '9') ? set * 10 + static_cast<uint64_t>(c - '0') : kMax;
            tt = textureTransformFor(root, material, set);
          }
          done[a] = dequantize(root, a, "accessor " + std::to_string(a) + " (" + name + ")", tt);
          if (tt != nullptr) transformedMaterials.insert(material);
        }
      }
    }
    for (uint64_t m : transformedMaterials) stripTextureTransforms(root, m);
  }

  // Writes accessor a's values as float32 into a new buffer view; returns its index.
  uint64_t dequantize(json& root, uint64_t a, const std::string& where,
                      const json* textureTransform) {
    json& acc = root["accessors"][a];
    uint64_t type = 0, count = 0, offset = 0, view = kMax;
    getU64(acc, "componentType", &type);
    const int cs = componentSize(type);
    const int nc = componentCount(getString(acc, "type"));
    if (cs == 0 || nc == 0 || !getU64(acc, "count", &count))
      throw Refuse{where + " has an invalid componentType, type or count"};
    if (member(acc, "sparse") != nullptr)
      throw Refuse{where + ": sparse quantized accessors are not supported"};
    const json* normalizedJson = member(acc, "normalized");
    const bool normalized =
        normalizedJson != nullptr && normalizedJson->is_boolean() && normalizedJson->get<bool>();
    getU64(acc, "byteOffset", &offset);
    const uint64_t elem = static_cast<uint64_t>(cs) * static_cast<uint64_t>(nc);
    const uint64_t floatBytes = satMul(count, static_cast<uint64_t>(nc) * 4);
    charge(floatBytes);
    std::vector<float> values(static_cast<size_t>(count) * static_cast<size_t>(nc), 0.0f);
    if (getU64(acc, "bufferView", &view)) {
      const json& views = root["bufferViews"];
      if (!views.is_array() || view >= views.size())
        throw Refuse{where + " names no valid bufferView"};
      uint64_t vOffset = 0, vLength = 0, stride = 0;
      getU64(views[view], "byteOffset", &vOffset);
      getU64(views[view], "byteLength", &vLength);
      getU64(views[view], "byteStride", &stride);
      if (stride == 0) stride = elem;
      if (stride < elem)
        throw Refuse{where + ": its bufferView's byteStride is smaller than one element"};
      if (count > 0 && satAdd(satAdd(offset, satMul(count - 1, stride)), elem) > vLength) {
        throw Refuse{where + " (" + std::to_string(count) +
                     " elements) runs past the end of bufferView " + std::to_string(view)};
      }
      if (satAdd(vOffset, vLength) > out_.size())
        throw Refuse{where + ": bufferView " + std::to_string(view) + " is out of range"};
      const unsigned char* base = out_.data() + vOffset + offset;
      for (uint64_t i = 0; i < count; ++i) {
        for (int c = 0; c < nc; ++c) {
          values[static_cast<size_t>(i) * static_cast<size_t>(nc) + static_cast<size_t>(c)] =
              decodeComponent(base + i * stride + static_cast<uint64_t>(c * cs), type, normalized);
        }
      }
    }
    if (textureTransform != nullptr && nc == 2) bakeTextureTransform(*textureTransform, &values);
    std::vector<float> lo(static_cast<size_t>(nc), std::numeric_limits<float>::max());
    std::vector<float> hi(static_cast<size_t>(nc), -std::numeric_limits<float>::max());
    for (size_t i = 0; i < values.size(); ++i) {
      lo[i % static_cast<size_t>(nc)] = std::min(lo[i % static_cast<size_t>(nc)], values[i]);
      hi[i % static_cast<size_t>(nc)] = std::max(hi[i % static_cast<size_t>(nc)], values[i]);
    }
    json& views = root["bufferViews"];
    if (!views.is_array()) views = json::array();
    const uint64_t newView = views.size();
    views.push_back(
        json{{"buffer", 0}, {"byteOffset", out_.size()}, {"byteLength", values.size() * 4}});
    append(values.data(), values.size() * 4);
    acc["bufferView"] = newView;
    acc["byteOffset"] = 0;
    acc["componentType"] = 5126;
    acc.erase("normalized");
    if (count > 0) {
      acc["min"] = lo;
      acc["max"] = hi;
    } else {
      acc.erase("min");
      acc.erase("max");
    }
    ++quantizedAccessors_;
    return newView;
  }

  // KHR_texture_transform: uv' = offset + R(rotation) * S(scale) * uv (the extension's spec,
  // matrix T * R * S with R = [cos sin; -sin cos]).
  static void bakeTextureTransform(const json& tt, std::vector<float>* uv) {
    auto num = [&tt](const char* key, int i, float def) {
      const json* a = member(tt, key);
      if (a == nullptr) return def;
      if (i < 0) return a->is_number() ? a->get<float>() : def;
      return (a->is_array() && a->size() > static_cast<size_t>(i) &&
              (*a)[static_cast<size_t>(i)].is_number())
                 ? (*a)[static_cast<size_t>(i)].get<float>()
                 : def;
    };
    const float ox = num("offset", 0, 0.0f), oy = num("offset", 1, 0.0f);
    const float sx = num("scale", 0, 1.0f), sy = num("scale", 1, 1.0f);
    const float r = num("rotation", -1, 0.0f);
    const float c = std::cos(r), s = std::sin(r);
    for (size_t i = 0; i + 1 < uv->size(); i += 2) {
      const float u = (*uv)[i] * sx, v = (*uv)[i + 1] * sy;
      (*uv)[i] = ox + c * u + s * v;
      (*uv)[i + 1] = oy - s * u + c * v;
    }
  }

  std::vector<unsigned char> writeGlb(const json& root) {
    std::string text = root.dump(-1, ' ', false, json::error_handler_t::replace);
    while (text.size() % 4 != 0) text.push_back(' ');
    const uint64_t total = 12 + 8 + text.size() + 8 + out_.size();
    if (total > 0xFFFFFFFFull) throw Refuse{"the decoded data exceeds the 4 GiB a GLB can hold"};
    charge(total);
    std::vector<unsigned char> glb;
    glb.reserve(static_cast<size_t>(total));
    auto u32 = [&glb](uint64_t v) {
      for (int k = 0; k < 4; ++k) glb.push_back(static_cast<unsigned char>((v >> (8 * k)) & 0xFF));
    };
    glb.insert(glb.end(), {'g', 'l', 'T', 'F'});
    u32(2);
    u32(total);
    u32(text.size());
    u32(0x4E4F534A);  // "JSON"
    glb.insert(glb.end(), text.begin(), text.end());
    u32(out_.size());
    u32(0x004E4942);  // "BIN\0"
    glb.insert(glb.end(), out_.begin(), out_.end());
    return glb;
  }

  const std::string& path_;
  uint64_t budget_;
  uint64_t used_ = 0;
  std::vector<unsigned char> out_;
  std::vector<uint64_t> bufferBase_, bufferSize_;
  std::set<uint64_t> fallback_;
  int meshoptViews_ = 0;
  int quantizedAccessors_ = 0;
};

// True when some mesh attribute the loader reads is not float32.
bool hasQuantizedAttributes(const json& root) {
  const json* meshes = member(root, "meshes");
  const json* accessors = member(root, "accessors");
  if (meshes == nullptr || accessors == nullptr || !meshes->is_array() || !accessors->is_array())
    return false;
  for (const json& mesh : *meshes) {
    const json* prims = member(mesh, "primitives");
    if (prims == nullptr || !prims->is_array()) continue;
    for (const json& prim : *prims) {
      const json* attrs = member(prim, "attributes");
      if (attrs == nullptr || !attrs->is_object()) continue;
      for (auto it = attrs->begin(); it != attrs->end(); ++it) {
        const std::string& name = it.key();
        if (name != "POSITION" && name != "NORMAL" && name != "TANGENT" &&
            name.rfind("TEXCOORD_", 0) != 0)
          continue;
        if (!it->is_number_unsigned()) continue;
        const auto a = it->get<uint64_t>();
        uint64_t type = 0;
        if (a < accessors->size() && getU64((*accessors)[a], "componentType", &type) &&
            type != 5126)
          return true;
      }
    }
  }
  return false;
}

}  // namespace

std::string percentDecode(const std::string& s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

GltfPrepared prepareGltf(const std::string& path, bool isGlb, uint64_t memoryBudget) {
  GltfPrepared result;
  // Only the JSON is read first (a GLB's BIN chunk only when there is something to decode), so a
  // plain 500 MB GLB costs one small read here, not a second copy of the file.
  std::ifstream f(path, std::ios::binary);
  if (!f) return result;
  f.seekg(0, std::ios::end);
  const std::streamoff fileSize = f.tellg();
  if (fileSize <= 0 || static_cast<uint64_t>(fileSize) > memoryBudget) {
    return result;  // the budget check has refused it already
  }
  f.seekg(0);
  auto readAt = [&f, fileSize](uint64_t at, uint64_t n, std::string* out) {
    if (at > static_cast<uint64_t>(fileSize) || n > static_cast<uint64_t>(fileSize) - at)
      return false;
    out->resize(static_cast<size_t>(n));
    f.clear();
    f.seekg(static_cast<std::streamoff>(at));
    f.read(out->data(), static_cast<std::streamsize>(n));
    return f.gcount() == static_cast<std::streamsize>(n);
  };
  std::string jsonText;
  uint64_t binAt = 0;  // GLB: where the BIN chunk header is; 0 when none
  if (isGlb) {
    // checkGlbHeader (level_loader.cpp) has vetted the header and the JSON chunk's length.
    std::string head;
    if (!readAt(0, 20, &head) || head.compare(0, 4, "glTF") != 0) return result;
    const uint64_t jsonLength = readU32(head, 12);
    if (readU32(head, 16) != 0x4E4F534A || !readAt(20, jsonLength, &jsonText)) return result;
    binAt = (20 + jsonLength + 3) & ~uint64_t{3};
  } else if (!readAt(0, static_cast<uint64_t>(fileSize), &jsonText)) {
    return result;
  }
  json root = json::parse(jsonText, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded() || !root.is_object()) return result;  // Assimp says what is wrong

  const std::vector<std::string> required = stringList(root, "extensionsRequired");
  const std::vector<std::string> used = stringList(root, "extensionsUsed");
  std::string refused;
  for (const std::string& e : required) {
    if (e == kQuantization || e == kMeshopt || assimpHandles(e)) continue;
    if (!refused.empty()) refused += "; ";
    refused += "'" + e + "'" + hintFor(e);
  }
  if (!refused.empty()) {
    result.ok = false;
    result.error = path + ": the glTF requires extension" +
                   (refused.find(';') != std::string::npos ? "s " : " ") + refused +
                   ", which this loader does not support";
    return result;
  }
  const bool meshopt = has(required, kMeshopt) || has(used, kMeshopt);
  if (!meshopt && !hasQuantizedAttributes(root)) return result;  // Assimp reads it as it is

  std::string bin;
  bool hasBin = false;
  std::string chunk;
  if (binAt != 0 && readAt(binAt, 8, &chunk) && readU32(chunk, 4) == 0x004E4942) {
    const uint64_t binLength =
        std::min<uint64_t>(readU32(chunk, 0), static_cast<uint64_t>(fileSize) - binAt - 8);
    hasBin = readAt(binAt + 8, binLength, &bin);
  }
  try {
    Rewriter rw(path, memoryBudget);
    result.glb = rw.run(root, hasBin ? &bin : nullptr);
    if (rw.decodedQuantized()) result.decoded.push_back(kQuantization);
    if (rw.decodedMeshopt()) result.decoded.push_back(kMeshopt);
  } catch (const Refuse& r) {
    result.glb.clear();
    result.ok = false;
    result.error = path + ": cannot decode its glTF " +
                   std::string(meshopt ? "EXT_meshopt_compression/KHR_mesh_quantization"
                                       : "KHR_mesh_quantization") +
                   " data: " + r.why;
  } catch (const std::exception& e) {
    result.glb.clear();
    result.ok = false;
    result.error = path + ": malformed glTF: " + e.what();
  }
  return result;
}

}  // namespace ofps
