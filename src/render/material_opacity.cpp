// Opaque materials and the occluder mask (contracts in material_opacity.h).
#include "render/material_opacity.h"

#include <algorithm>

namespace ofps::gl {
namespace {

// Bound on how far the texture resize can pull alpha below the smallest input alpha m: the
// result is at least m - kResizeUndershoot * (1 - m). A separable filter whose weights sum to 1
// with negative weights summing to N per axis has 2D negative weight (1 + N) N + N (1 + N);
// Catmull-Rom (upsampling) has N <= 0.125 at every sample position, Mitchell (downsampling)
// less. N = 0.2 leaves room for the normalisation of stretched kernels: 2 x 1.2 x 0.2 = 0.48.
constexpr double kResizeUndershoot = 0.48;
// Rounding to unorm8 after the resize, and the sampler's filtering precision: a few steps of
// 1/255 each.
constexpr double kQuantizationMargin = 3.0 / 255.0;

// Smallest alpha of the texture's texels in [0, 1]; -1 when the renderer cannot upload it (its
// layer is then undefined and must be taken as transparent).
double smallestAlpha(const LevelTexture& t) {
  const size_t texels = t.width > 0 && t.height > 0 ? static_cast<size_t>(t.width) * t.height : 0;
  if (texels == 0 || t.rgba.size() < texels * 4) return -1.0;
  uint8_t lowest = 255;
  for (size_t i = 0; i < texels && lowest > 0; ++i) lowest = std::min(lowest, t.rgba[i * 4 + 3]);
  return lowest / 255.0;
}

// What the vertex stores for a base colour channel (level_renderer.cpp's toUnorm8).
double asUnorm8(float v) {
  return static_cast<int>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f) / 255.0;
}

}  // namespace

std::vector<uint8_t> opaqueMaterials(const Level& level) {
  std::vector<double> textureAlpha(level.textures.size());
  for (size_t i = 0; i < level.textures.size(); ++i)
    textureAlpha[i] = smallestAlpha(level.textures[i]);
  std::vector<uint8_t> opaque(level.materials.size(), 0);
  for (size_t i = 0; i < level.materials.size(); ++i) {
    const LevelMaterial& m = level.materials[i];
    double alpha = 1.0;  // the texture's worst case after resize and filtering
    if (m.texture >= 0 && static_cast<size_t>(m.texture) < level.textures.size()) {
      const double lowest = textureAlpha[static_cast<size_t>(m.texture)];
      if (lowest < 0.0) continue;  // not uploaded: undefined texels
      alpha =
          lowest < 1.0 ? lowest - kResizeUndershoot * (1.0 - lowest) - kQuantizationMargin : 1.0;
    }
    opaque[i] =
        asUnorm8(m.baseColor.w) * alpha >= double{kAlphaCutoff} + kQuantizationMargin ? 1 : 0;
  }
  return opaque;
}

std::vector<uint8_t> occluderMask(const Level& level) {
  const std::vector<uint8_t> opaque = opaqueMaterials(level);
  std::vector<uint8_t> mask(level.triangleCount(), 0);
  size_t tri = 0;
  for (const LevelMesh& mesh : level.meshes) {
    // A mesh whose material index is out of range is drawn with the default material (opaque
    // white, untextured), as the renderer does.
    const bool occludes =
        mesh.visible && (mesh.material >= opaque.size() || opaque[mesh.material] != 0);
    const size_t n = mesh.indices.size() / 3;
    for (size_t i = 0; i < n && tri < mask.size(); ++i) mask[tri++] = occludes ? 1 : 0;
  }
  return mask;
}

}  // namespace ofps::gl
