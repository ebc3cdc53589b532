#include "level/level_materials.h"

#include <assimp/material.h>
#include <assimp/scene.h>
#include <stb_image.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <system_error>

#include "level/gltf_extensions.h"
#include "level/load_text.h"

namespace ofps::loader {
namespace {

namespace fs = std::filesystem;

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
    if (fp.is_absolute())
      out.push_back(fp);
    else
      out.push_back(levelDir / fp);
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
        for (size_t i = 0; i < static_cast<size_t>(tex.width) * static_cast<size_t>(tex.height);
             ++i) {
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
        if (!ok)
          failure =
              candidate.string() + " cannot be decoded (stb_image: " + stbi_failure_reason() + ")";
        break;
      }
      if (!found)
        failure = "texture file '" + raw + "' not found (looked in " + levelDir_.string() + ")";
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

}  // namespace

void convertMaterials(const aiScene& scene, const std::vector<bool>& used, const std::string& path,
                      Level* level, std::vector<std::string>* warnings) {
  TextureLoader textures(scene, path, level, warnings);
  for (unsigned i = 0; i < scene.mNumMaterials; ++i) {
    const aiMaterial& m = *scene.mMaterials[i];
    LevelMaterial out;
    aiString name;
    out.name =
        m.Get(AI_MATKEY_NAME, name) == AI_SUCCESS ? name.C_Str() : "material " + std::to_string(i);
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
  if (level->materials.empty())
    level->materials.push_back(LevelMaterial{"default", glm::vec4(1.0f), -1});
}

}  // namespace ofps::loader
