// The occluder mask (which materials may hide what is behind them), against hand-worked cases of
// the level shader's alpha test; no window needed.
#include "render/material_opacity.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ofps {
namespace {

LevelTexture solidTexture(uint8_t alpha, uint8_t oneTexelAlpha) {
  LevelTexture t;
  t.width = 4;
  t.height = 2;
  t.rgba.assign(4 * 2 * 4, 200);
  for (size_t i = 0; i < 8; ++i) t.rgba[i * 4 + 3] = alpha;
  t.rgba[5 * 4 + 3] = oneTexelAlpha;  // one texel differs: the minimum must find it
  return t;
}

// One single-triangle mesh per material, in material order.
Level levelWith(const std::vector<LevelMaterial>& materials, std::vector<LevelTexture> textures) {
  Level level;
  level.materials = materials;
  level.textures = std::move(textures);
  for (uint32_t m = 0; m < materials.size(); ++m) {
    LevelMesh mesh;
    mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh.indices = {0, 1, 2};
    mesh.material = m;
    level.meshes.push_back(mesh);
    level.collisionLayers.push_back(kLayerSolid);
  }
  return level;
}

LevelMaterial material(float alpha, int32_t texture) {
  LevelMaterial m;
  m.baseColor = glm::vec4(1.0f, 1.0f, 1.0f, alpha);
  m.texture = texture;
  return m;
}

TEST(OccluderMask, CutOutMaterialsDoNotOcclude) {
  std::vector<LevelTexture> textures = {
      solidTexture(255, 255),  // 0: opaque everywhere
      solidTexture(255, 0),    // 1: one transparent texel (a grate): discarded there
      solidTexture(255, 230),  // 2: min alpha 0.902: worst case after the resize
                               //    0.902 - 0.48 * 0.098 - 3/255 = 0.843, far above 0.35
      solidTexture(255, 120),  // 3: min 0.471: 0.471 - 0.48 * 0.529 - 0.012 = 0.205 < 0.35
      LevelTexture{},          // 4: nothing to upload: its layer is undefined
  };
  const std::vector<LevelMaterial> materials = {
      material(1.0f, -1),  // untextured, opaque
      material(0.2f, -1),  // base alpha below the cut-off: every fragment discarded
      material(1.0f, 0),   // opaque texture
      material(1.0f, 1),   // cut-out texture
      material(1.0f, 2),   // translucent but never below the cut-off
      material(1.0f, 3),   // may fall below the cut-off after the resize: in doubt, left out
      material(1.0f, 4),   // undefined texels
      // 0.36 is stored as 92 / 255 = 0.3608, within the 3 / 255 margin of 0.35: left out.
      material(0.36f, -1),
      // Base alpha 128 / 255 = 0.502 times texture 2's worst case 0.843 = 0.423 >= 0.362: kept.
      material(0.5f, 2),
      material(1.0f, 99),  // a texture index past the list: drawn untextured, opaque
  };
  const std::vector<uint8_t> expected = {1, 0, 1, 0, 1, 0, 0, 0, 1, 1};
  Level level = levelWith(materials, std::move(textures));
  EXPECT_EQ(gl::opaqueMaterials(level), expected);
  EXPECT_EQ(gl::occluderMask(level), expected);  // one triangle per material
  // A collider (invisible) mesh is never an occluder, whatever its material.
  level.meshes[0].visible = false;
  EXPECT_EQ(gl::occluderMask(level)[0], 0);
}

}  // namespace
}  // namespace ofps
