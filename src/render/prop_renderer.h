#pragma once
// Draws dynamic props instanced: one draw call per prop shape (spheres, axis-aligned boxes).
// Each frame the caller hands the visible props (from the grid's frustum cull); instance data
// (centre, half-extents, colour) streams into one buffer per shape that keeps its capacity.
// Ownership: owns its GL objects. Needs a current GL 3.3 core context.

#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <span>
#include <string>
#include <vector>

#include "render/shader.h"

namespace ofps::gl {

struct PropInstance {
  glm::vec3 center;       // world, metres
  glm::vec3 halfExtents;  // metres; a sphere's radius three times
  glm::vec4 color;        // linear RGBA
};

class PropRenderer {
 public:
  PropRenderer() = default;
  PropRenderer(const PropRenderer&) = delete;
  PropRenderer& operator=(const PropRenderer&) = delete;
  ~PropRenderer();

  bool init(std::string* outError);
  void shutdown();

  // Draws spheres and boxes: two instanced calls at most. Returns the draw calls issued.
  uint32_t draw(const glm::mat4& viewProj, const glm::vec3& lightDir,
                std::span<const PropInstance> spheres, std::span<const PropInstance> boxes);

 private:
  struct Mesh {
    unsigned vao = 0, vbo = 0, ibo = 0, instanceVbo = 0;
    int indexCount = 0;
    size_t instanceCapacity = 0;
  };
  void makeMesh(Mesh& mesh, const std::vector<float>& vertices,
                const std::vector<uint32_t>& indices);
  uint32_t drawMesh(Mesh& mesh, std::span<const PropInstance> instances);

  ShaderProgram program_;
  Mesh sphere_, box_;
};

}  // namespace ofps::gl
