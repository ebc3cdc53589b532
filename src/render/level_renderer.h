#pragma once
// Draws a loaded ofps::Level in octree order: one vertex buffer for every mesh, one index
// buffer ordered so that each octree subtree is a contiguous run (DrawRanges), and each frame
// the visible runs drawn with a single glMultiDrawElements. Materials live in the vertices
// (base colour factor + texture-array layer), so culling never splits a run by material.
//
// Shading (shaders/level.frag): a directional key light, a weak fill and hemispheric ambient,
// base colour x texture; untextured surfaces get a tint by orientation and a world-space metre
// grid (fading with distance) so distances and slopes read; fog scaled by the level's size.
//
// Ownership: owns the GL buffers and textures it uploads; upload() replaces the previous level.
// Needs a current GL 3.3 core context on the calling thread for every call.

#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <span>
#include <string>
#include <vector>

#include "level/level.h"
#include "octree_fps/culling/draw_ranges.h"
#include "render/shader.h"

namespace ofps::gl {

struct FrameParams {
  glm::mat4 viewProj{1.0f};
  glm::vec3 cameraPos{0.0f};
  glm::vec3 lightDir{-0.55f, -0.8f, -0.35f};  // direction the light travels, world space
  glm::vec3 fogColor{0.50f, 0.58f, 0.68f};    // linear
  // Linear fog from fogStart to fogEnd (m); negative: from the uploaded level's size (see
  // LevelRenderer::fogRange), so a small arena and a 400 m outdoor map both keep their depth.
  float fogStart = -1.0f;
  float fogEnd = -1.0f;
  bool gridOnUntextured = true;
  bool wireframe = false;
  // Debug colouring: rgb (linear) mixed into every drawn fragment by a (0 = none, 1 = flat).
  glm::vec4 tint{0.0f};
};

class LevelRenderer {
 public:
  LevelRenderer() = default;
  LevelRenderer(const LevelRenderer&) = delete;
  LevelRenderer& operator=(const LevelRenderer&) = delete;
  ~LevelRenderer();

  // Loads the shaders; false with *outError on failure.
  bool init(std::string* outError);
  // Uploads every mesh's vertices and all textures (resized into one texture array). The
  // vertex buffer follows Level::collisionPositions' numbering, so collision triangle i is
  // (collisionIndices[3i], [3i+1], [3i+2]) in it.
  void upload(const Level& level);
  // Rebuilds the index buffer: drawOrder lists original (collision) triangle indices in the
  // order DrawRanges wants them. Call after upload() and after every octree rebuild.
  void setDrawOrder(const Level& level, std::span<const uint32_t> drawOrder);
  // Draws the given runs (drawn-triangle units) with one glMultiDrawElements.
  void draw(const FrameParams& frame, const DrawRunList& runs);
  // Frees every GL object (shaders included); call while the context is still current.
  void shutdown();

  // The fog's start and end (m) for the uploaded level: from about half its diagonal to a
  // few diagonals (at least 40 m and 120 m, so a small arena is not fogged at all).
  float fogStart() const { return fogStart_; }
  float fogEnd() const { return fogEnd_; }
  uint32_t drawCallsLastFrame() const { return drawCalls_; }

 private:
  void release();

  ShaderProgram program_;
  unsigned vao_ = 0, vbo_ = 0, ibo_ = 0, textureArray_ = 0;
  uint32_t indexCount_ = 0;
  float fogStart_ = 40.0f, fogEnd_ = 120.0f;
  uint32_t drawCalls_ = 0;
  // Scratch for glMultiDrawElements, kept between frames so drawing does not allocate.
  std::vector<const void*> offsets_;
  std::vector<int> counts_;
#ifdef __EMSCRIPTEN__
  // WebGL2 has no polygon mode: the wireframe (T) draws each triangle's three edges as GL_LINES
  // from this buffer, 6 indices per triangle in the same draw order.
  unsigned edgeIbo_ = 0;
#endif
};

}  // namespace ofps::gl
