#pragma once
// Immediate-mode debug lines (octree boxes, the frozen frustum, query shapes). Lines are
// collected on the CPU each frame and drawn with one call; the buffer keeps its capacity.
// Ownership: owns its GL objects. Needs a current GL 3.3 core context.

#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <string>
#include <vector>

#include "octree_fps/geometry/aabb.h"

namespace ofps::gl {

class LineRenderer {
 public:
  LineRenderer() = default;
  LineRenderer(const LineRenderer&) = delete;
  LineRenderer& operator=(const LineRenderer&) = delete;
  ~LineRenderer();

  bool init(std::string* outError);
  void shutdown();

  void clear() { vertices_.clear(); }
  void line(const glm::vec3& a, const glm::vec3& b, const glm::vec4& color);
  void box(const Aabb& box, const glm::vec4& color);
  // A capsule (segment a-b grown by radius) as wire: rings around the segment at both ends and
  // through each hemisphere, and meridians over the whole length. The segment need not be
  // vertical.
  void capsule(const glm::vec3& a, const glm::vec3& b, float radius, const glm::vec4& color);
  // The 12 edges of the frustum whose inverse view-projection is given.
  void frustum(const glm::mat4& inverseViewProj, const glm::vec4& color);
  // How the lines meet the level's depth buffer.
  enum class Depth {
    Tested,  // hidden behind the level where it is in front of them
    OnTop,   // drawn over everything
    // Two passes: the parts in front of the level at full alpha, the hidden parts faint
    // (hiddenAlpha times their alpha). Boxes behind walls stay readable without burying the view.
    XRay,
  };
  // Draws everything collected since clear().
  void draw(const glm::mat4& viewProj, Depth depth, float hiddenAlpha = 0.25f);

  size_t lineCount() const { return vertices_.size() / 2; }

 private:
  struct LineVertex {
    glm::vec3 position;
    glm::vec4 color;
  };
  std::vector<LineVertex> vertices_;
  unsigned program_ = 0;
  unsigned vao_ = 0, vbo_ = 0;
  size_t capacity_ = 0;  // vertices the GL buffer holds
};

}  // namespace ofps::gl
