#include "render/level_renderer.h"

#include <glad/gl.h>
#include <stb_image_resize.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <glm/geometric.hpp>

#include "render/material_opacity.h"

namespace ofps::gl {
namespace {

// Interleaved vertex; attribute locations match shaders/level.vert.
struct Vertex {
  glm::vec3 position;
  glm::vec3 normal;
  glm::vec2 uv;
  uint8_t color[4];    // material base colour factor, linear, unorm8
  float textureLayer;  // layer in the texture array, -1 = untextured
};
static_assert(sizeof(Vertex) == 40, "Vertex layout must match the attribute pointers");

constexpr GLuint kAttribPosition = 0;
constexpr GLuint kAttribNormal = 1;
constexpr GLuint kAttribUv = 2;
constexpr GLuint kAttribColor = 3;
constexpr GLuint kAttribLayer = 4;
constexpr int kMaxTextureSize = 1024;  // texels; every layer of the array has one size

uint8_t toUnorm8(float v) {
  return static_cast<uint8_t>(std::clamp(v, 0.0f, 1.0f) * 255.0f + 0.5f);
}

}  // namespace

LevelRenderer::~LevelRenderer() {
  release();
}

bool LevelRenderer::init(std::string* outError) {
  return program_.load("level.vert", "level.frag", outError);
}

void LevelRenderer::shutdown() {
  release();
  program_ = ShaderProgram{};
}

void LevelRenderer::release() {
  if (textureArray_ != 0) glDeleteTextures(1, &textureArray_);
  if (ibo_ != 0) glDeleteBuffers(1, &ibo_);
#ifdef __EMSCRIPTEN__
  if (edgeIbo_ != 0) glDeleteBuffers(1, &edgeIbo_);
  edgeIbo_ = 0;
#endif
  if (vbo_ != 0) glDeleteBuffers(1, &vbo_);
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
  vao_ = vbo_ = ibo_ = textureArray_ = 0;
  indexCount_ = 0;
}

void LevelRenderer::upload(const Level& level) {
  release();

  // Textures: one array, every layer resized to the largest texture (capped).
  int size = 1;
  for (const LevelTexture& t : level.textures) size = std::max({size, t.width, t.height});
  size = std::min(size, kMaxTextureSize);
  const auto layers = static_cast<GLsizei>(std::max<size_t>(level.textures.size(), 1));
  glGenTextures(1, &textureArray_);
  glBindTexture(GL_TEXTURE_2D_ARRAY, textureArray_);
  glTexImage3D(GL_TEXTURE_2D_ARRAY, 0, GL_SRGB8_ALPHA8, size, size, layers, 0, GL_RGBA,
               GL_UNSIGNED_BYTE, nullptr);
  std::vector<uint8_t> resized(static_cast<size_t>(size) * static_cast<size_t>(size) * 4);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  for (size_t i = 0; i < level.textures.size(); ++i) {
    const LevelTexture& t = level.textures[i];
    if (t.width <= 0 || t.height <= 0 ||
        t.rgba.size() < static_cast<size_t>(t.width) * t.height * 4) {
      continue;
    }
    const uint8_t* pixels = t.rgba.data();
    if (t.width != size || t.height != size) {
      // sRGB-aware resize so colours do not darken; alpha is channel 3.
      stbir_resize_uint8_srgb(t.rgba.data(), t.width, t.height, 0, resized.data(), size, size, 0, 4,
                              3, 0);
      pixels = resized.data();
    }
    glTexSubImage3D(GL_TEXTURE_2D_ARRAY, 0, 0, 0, static_cast<GLint>(i), size, size, 1, GL_RGBA,
                    GL_UNSIGNED_BYTE, pixels);
  }
  glGenerateMipmap(GL_TEXTURE_2D_ARRAY);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MIN_FILTER, GL_LINEAR_MIPMAP_LINEAR);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_WRAP_S, GL_REPEAT);
  glTexParameteri(GL_TEXTURE_2D_ARRAY, GL_TEXTURE_WRAP_T, GL_REPEAT);

  const float diagonal = glm::length(level.boundsMax - level.boundsMin);
  fogStart_ = std::max(40.0f, 0.5f * diagonal);
  fogEnd_ = std::max(120.0f, 2.5f * diagonal);

  // Vertices of every mesh, visible or not, in collision-soup order.
  std::vector<Vertex> vertices;
  vertices.reserve(level.collisionPositions.size());
  for (const LevelMesh& mesh : level.meshes) {
    const LevelMaterial fallback;
    const LevelMaterial& m =
        mesh.material < level.materials.size() ? level.materials[mesh.material] : fallback;
    const bool textured = m.texture >= 0 && static_cast<size_t>(m.texture) < level.textures.size();
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
      Vertex v;
      v.position = mesh.positions[i];
      v.normal = i < mesh.normals.size() ? mesh.normals[i] : glm::vec3(0, 1, 0);
      v.uv = i < mesh.uvs.size() ? mesh.uvs[i] : glm::vec2(0.0f);
      v.color[0] = toUnorm8(m.baseColor.x);
      v.color[1] = toUnorm8(m.baseColor.y);
      v.color[2] = toUnorm8(m.baseColor.z);
      v.color[3] = toUnorm8(m.baseColor.w);
      v.textureLayer = textured ? static_cast<float>(m.texture) : -1.0f;
      vertices.push_back(v);
    }
  }

  glGenVertexArrays(1, &vao_);
  glBindVertexArray(vao_);
  glGenBuffers(1, &vbo_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(Vertex)),
               vertices.data(), GL_STATIC_DRAW);
  glGenBuffers(1, &ibo_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo_);
  const auto attrib = [](GLuint loc, GLint n, GLenum type, GLboolean norm, size_t offset) {
    glEnableVertexAttribArray(loc);
    glVertexAttribPointer(loc, n, type, norm, sizeof(Vertex), reinterpret_cast<void*>(offset));
  };
  attrib(kAttribPosition, 3, GL_FLOAT, GL_FALSE, offsetof(Vertex, position));
  attrib(kAttribNormal, 3, GL_FLOAT, GL_FALSE, offsetof(Vertex, normal));
  attrib(kAttribUv, 2, GL_FLOAT, GL_FALSE, offsetof(Vertex, uv));
  attrib(kAttribColor, 4, GL_UNSIGNED_BYTE, GL_TRUE, offsetof(Vertex, color));
  attrib(kAttribLayer, 1, GL_FLOAT, GL_FALSE, offsetof(Vertex, textureLayer));
  glBindVertexArray(0);
}

void LevelRenderer::setDrawOrder(const Level& level, std::span<const uint32_t> drawOrder) {
  std::vector<uint32_t> indices;
  indices.reserve(drawOrder.size() * 3);
  for (uint32_t tri : drawOrder) {
    const size_t base = static_cast<size_t>(tri) * 3;
    if (base + 2 >= level.collisionIndices.size()) continue;  // cannot happen for a valid order
    indices.push_back(level.collisionIndices[base]);
    indices.push_back(level.collisionIndices[base + 1]);
    indices.push_back(level.collisionIndices[base + 2]);
  }
  glBindVertexArray(vao_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * sizeof(uint32_t)),
               indices.data(), GL_STATIC_DRAW);
#ifdef __EMSCRIPTEN__
  std::vector<uint32_t> edges;
  edges.reserve(indices.size() * 2);
  for (size_t t = 0; t + 2 < indices.size(); t += 3) {
    const uint32_t a = indices[t], b = indices[t + 1], c = indices[t + 2];
    edges.insert(edges.end(), {a, b, b, c, c, a});
  }
  if (edgeIbo_ == 0) glGenBuffers(1, &edgeIbo_);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, edgeIbo_);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(edges.size() * sizeof(uint32_t)),
               edges.data(), GL_STATIC_DRAW);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo_);  // the VAO keeps the triangles' buffer
#endif
  glBindVertexArray(0);
  indexCount_ = static_cast<uint32_t>(indices.size());
}

void LevelRenderer::draw(const FrameParams& frame, const DrawRunList& runs) {
  drawCalls_ = 0;
  if (vao_ == 0 || !program_.valid() || runs.first.empty()) return;
  offsets_.clear();
  counts_.clear();
  for (size_t i = 0; i < runs.first.size(); ++i) {
    const size_t firstIndex = static_cast<size_t>(runs.first[i]) * 3;
    if (firstIndex + static_cast<size_t>(runs.count[i]) * 3 > indexCount_) continue;
    offsets_.push_back(reinterpret_cast<const void*>(firstIndex * sizeof(uint32_t)));
    counts_.push_back(static_cast<int>(runs.count[i] * 3));
  }
  program_.use();
  program_.set("uViewProj", frame.viewProj);
  program_.set("uCameraPos", frame.cameraPos);
  program_.set("uLightDir", glm::normalize(frame.lightDir));
  program_.set("uFogColor", frame.fogColor);
  program_.set("uFogStart", frame.fogStart >= 0.0f ? frame.fogStart : fogStart_);
  program_.set("uFogEnd", frame.fogEnd >= 0.0f ? frame.fogEnd : fogEnd_);
  program_.set("uGrid", frame.gridOnUntextured ? 1 : 0);
  program_.set("uAlphaCutoff", kAlphaCutoff);
  program_.set("uTint", frame.tint);
  program_.set("uTextures", 0);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D_ARRAY, textureArray_);
  glBindVertexArray(vao_);
#ifdef __EMSCRIPTEN__
  if (frame.wireframe) {
    // The same ranges in the edge buffer: twice the indices, at twice the offset.
    for (size_t i = 0; i < counts_.size(); ++i) {
      offsets_[i] = reinterpret_cast<const void*>(2 * reinterpret_cast<uintptr_t>(offsets_[i]));
      counts_[i] *= 2;
    }
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, edgeIbo_);
    glMultiDrawElements(GL_LINES, counts_.data(), GL_UNSIGNED_INT, offsets_.data(),
                        static_cast<GLsizei>(counts_.size()));
    glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, ibo_);
  } else {
    glMultiDrawElements(GL_TRIANGLES, counts_.data(), GL_UNSIGNED_INT, offsets_.data(),
                        static_cast<GLsizei>(counts_.size()));
  }
  // Without WEBGL_multi_draw the call above is a loop of draws (app/web/gles/glad/gl.h).
  drawCalls_ = ofpsWebMultiDraw() ? 1u : static_cast<uint32_t>(counts_.size());
#else
  if (frame.wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_LINE);
  glMultiDrawElements(GL_TRIANGLES, counts_.data(), GL_UNSIGNED_INT, offsets_.data(),
                      static_cast<GLsizei>(counts_.size()));
  if (frame.wireframe) glPolygonMode(GL_FRONT_AND_BACK, GL_FILL);
  drawCalls_ = 1;
#endif
  glBindVertexArray(0);
}

}  // namespace ofps::gl
