#pragma once
// Draws a loaded ofps::Level: its visible meshes with base colour (factor x texture), a
// directional light with hemispheric ambient, and a world-space metre grid on untextured
// surfaces so distances read.
//
// Ownership: owns the GL buffers and textures it uploads; upload() replaces the previous level.
// Needs a current GL 3.3 core context on the calling thread for every call.

#include <cstdint>
#include <string>
#include <vector>

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

#include "level/level.h"
#include "render/shader.h"

namespace ofps::gl {

struct FrameParams {
  glm::mat4 viewProj{1.0f};
  glm::vec3 cameraPos{0.0f};
  glm::vec3 lightDir{-0.4f, -1.0f, -0.3f};  // direction the light travels, world space
  bool gridOnUntextured = true;
};

class LevelRenderer {
 public:
  LevelRenderer() = default;
  LevelRenderer(const LevelRenderer&) = delete;
  LevelRenderer& operator=(const LevelRenderer&) = delete;
  ~LevelRenderer();

  // Loads the shaders; false with *error on failure.
  bool init(std::string* error);
  // Uploads every visible mesh and texture of `level` (the previous level is released).
  void upload(const Level& level);
  void draw(const FrameParams& frame) const;
  // Frees every GL object (shaders included); call while the context is still current.
  void shutdown();

  uint64_t uploadedTriangles() const { return uploadedTriangles_; }
  uint32_t drawCallsLastFrame() const { return drawCalls_; }

 private:
  struct DrawRange {
    uint32_t firstIndex = 0;
    uint32_t indexCount = 0;
    uint32_t material = 0;
  };
  struct GpuMaterial {
    glm::vec4 baseColor{1.0f};
    int32_t texture = -1;
  };

  void release();

  ShaderProgram program_;
  unsigned vao_ = 0, vbo_ = 0, ibo_ = 0;
  std::vector<unsigned> textures_;
  std::vector<GpuMaterial> materials_;
  std::vector<DrawRange> ranges_;
  uint64_t uploadedTriangles_ = 0;
  mutable uint32_t drawCalls_ = 0;
};

}  // namespace ofps::gl
