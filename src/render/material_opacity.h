#pragma once
// Which of a level's triangles the level shader always draws opaque, so that they may serve as
// occluders (culling/occlusion_cull.h): a triangle whose material can lose a texel to the
// shader's alpha test (cut-out grates, foliage, fences) does not hide what lies behind it.
//
// The rule follows what the renderer does with a material (level_renderer.cpp, level.frag):
// albedo alpha = base colour alpha (stored as unorm8 in the vertex) x the texture's alpha after
// the renderer's resize to the array's layer size (stb_image_resize, whose Mitchell and
// Catmull-Rom kernels have negative lobes and can undershoot the smallest input alpha), then
// mipmapped and filtered (averages, which cannot go below their smallest input). A fragment is
// discarded when that alpha is below kAlphaCutoff. A material is opaque when even the
// worst case of that chain stays above the cut-off with a margin; anything in doubt (a texture
// the renderer cannot upload, alpha near the cut-off) is left out. Leaving an opaque triangle
// out of the occluders only culls less; keeping a cut-out one would hide visible geometry.
//
// Thread-safety: pure functions of their arguments. Complexity: O(texels + triangles).

#include <cstdint>
#include <vector>

#include "level/level.h"

namespace ofps::gl {

// level.frag discards a fragment whose albedo alpha is below this (the renderer sets the
// shader's uniform from it, so the two cannot drift).
inline constexpr float kAlphaCutoff = 0.35f;

// Per material of `level`: 1 when the level shader can never discard a fragment of it.
std::vector<uint8_t> opaqueMaterials(const Level& level);

// Per ORIGINAL (collision-soup) triangle of `level`: 1 when it is drawn (its mesh is visible)
// and its material is opaque. The occlusion culler's occluder mask.
std::vector<uint8_t> occluderMask(const Level& level);

}  // namespace ofps::gl
