#include "render/level_renderer.h"

#include <glad/gl.h>

#include <algorithm>
#include <cstddef>

#include <glm/geometric.hpp>

namespace ofps::gl {
namespace {

// Interleaved vertex; attribute locations match shaders/level.vert.
struct Vertex {
  glm::vec3 position;
  glm::vec3 normal;
  glm::vec2 uv;
};
static_assert(sizeof(Vertex) == 32, "Vertex layout must match the attribute pointers");

constexpr GLuint kAttribPosition = 0;
constexpr GLuint kAttribNormal = 1;
constexpr GLuint kAttribUv = 2;

unsigned uploadTexture(const LevelTexture& t) {
  GLuint tex = 0;
  glGenTextures(1, &tex);
  glBindTexture(GL_TEXTURE_2D, tex);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  // Base-colour textures are authored in sRGB; let the sampler linearise them.
  glTexImage2D(GL_TEXTURE_2D, 0, GL_SRGB8_ALPHA8, t.width, t.height, 0, GL_RGBA,
               GL_UNSIGNED_BYTE, t.rgba.data());
  glGenerateMipmap(GL_TEXTURE_2D);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER,
                  t.isFallbackChecker ? GL_NEAREST : GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_REPEAT);
  return tex;
}

}  // namespace

LevelRenderer::~LevelRenderer() { release(); }

void LevelRenderer::shutdown() {
  release();
  program_ = ShaderProgram{};
}

bool LevelRenderer::init(std::string* error) {
  return program_.load("level.vert", "level.frag", error);
}

void LevelRenderer::release() {
  if (!textures_.empty()) glDeleteTextures(static_cast<GLsizei>(textures_.size()), textures_.data());
  textures_.clear();
  if (ibo_ != 0) glDeleteBuffers(1, &ibo_);
  if (vbo_ != 0) glDeleteBuffers(1, &vbo_);
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
  vao_ = vbo_ = ibo_ = 0;
  ranges_.clear();
  materials_.clear();
  uploadedTriangles_ = 0;
}

void LevelRenderer::upload(const Level& level) {
  release();

  std::vector<Vertex> vertices;
  std::vector<uint32_t> indices;
  for (const LevelMesh& mesh : level.meshes) {
    if (!mesh.visible || mesh.indices.empty()) continue;
    const auto base = static_cast<uint32_t>(vertices.size());
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
      Vertex v;
      v.position = mesh.positions[i];
      v.normal = i < mesh.normals.size() ? mesh.normals[i] : glm::vec3(0, 1, 0);
      v.uv = i < mesh.uvs.size() ? mesh.uvs[i] : glm::vec2(0.0f);
      vertices.push_back(v);
    }
    DrawRange range;
    range.firstIndex = static_cast<uint32_t>(indices.size());
    range.indexCount = static_cast<uint32_t>(mesh.indices.size());
    range.material = mesh.material;
    for (uint32_t idx : mesh.indices) indices.push_back(base + idx);
    ranges_.push_back(range);
  }
  // Fewer state changes: draw all ranges of one material together.
  std::stable_sort(ranges_.begin(), ranges_.end(),
                   [](const DrawRange& a, const DrawRange& b) { return a.material < b.material; });
  uploadedTriangles_ = indices.size() / 3;

  for (const LevelTexture& t : level.textures) textures_.push_back(uploadTexture(t));
  for (const LevelMaterial& m : level.materials) {
    GpuMaterial g;
    g.baseColor = m.baseColor;
    g.texture = (m.texture >= 0 && static_cast<size_t>(m.texture) < textures_.size())
                    ? m.texture
                    : -1;
    materials_.push_back(g);
  }

  glGenVertexArrays(1, &vao_);
  glBindVertexArray(vao_);
  glGenBuffers(1, &vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(Vertex)),
               vertices.data(), GL_STATIC_DRAW);
  glGenBuffers(1, &ibo_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * sizeof(uint32_t)),
               indices.data(), GL_STATIC_DRAW);
  glEnableVertexAttribArray(kAttribPosition);
  glVertexAttribPointer(kAttribPosition, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex),
                        reinterpret_cast<void*>(offsetof(Vertex, position)));
  glEnableVertexAttribArray(kAttribNormal);
  glVertexAttribPointer(kAttribNormal, 3, GL_FLOAT, GL_FALSE, sizeof(Vertex),
                        reinterpret_cast<void*>(offsetof(Vertex, normal)));
  glEnableVertexAttribArray(kAttribUv);
  glVertexAttribPointer(kAttribUv, 2, GL_FLOAT, GL_FALSE, sizeof(Vertex),
                        reinterpret_cast<void*>(offsetof(Vertex, uv)));
  glBindVertexArray(0);
}

void LevelRenderer::draw(const FrameParams& frame) const {
  drawCalls_ = 0;
  if (vao_ == 0 || !program_.valid()) return;
  program_.use();
  program_.set("uViewProj", frame.viewProj);
  program_.set("uCameraPos", frame.cameraPos);
  program_.set("uLightDir", glm::normalize(frame.lightDir));
  program_.set("uGrid", frame.gridOnUntextured ? 1 : 0);
  program_.set("uTexture", 0);
  glActiveTexture(GL_TEXTURE0);
  glBindVertexArray(vao_);
  int32_t boundMaterial = -1;
  for (const DrawRange& r : ranges_) {
    if (static_cast<int32_t>(r.material) != boundMaterial) {
      const GpuMaterial fallback;
      const GpuMaterial& m = r.material < materials_.size() ? materials_[r.material] : fallback;
      program_.set("uBaseColor", m.baseColor);
      program_.set("uHasTexture", m.texture >= 0 ? 1 : 0);
      glBindTexture(GL_TEXTURE_2D, m.texture >= 0 ? textures_[static_cast<size_t>(m.texture)] : 0);
      boundMaterial = static_cast<int32_t>(r.material);
    }
    glDrawElements(GL_TRIANGLES, static_cast<GLsizei>(r.indexCount), GL_UNSIGNED_INT,
                   reinterpret_cast<void*>(static_cast<uintptr_t>(r.firstIndex) * sizeof(uint32_t)));
    ++drawCalls_;
  }
  glBindVertexArray(0);
}

}  // namespace ofps::gl
