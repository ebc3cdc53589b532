#include "render/prop_renderer.h"

#include <glad/gl.h>

#include <cmath>
#include <cstddef>
#include <glm/geometric.hpp>

namespace ofps::gl {
namespace {

// Attribute locations match shaders/props.vert.
constexpr GLuint kAttribPosition = 0;
constexpr GLuint kAttribNormal = 1;
constexpr GLuint kAttribCenter = 2;
constexpr GLuint kAttribHalf = 3;
constexpr GLuint kAttribColor = 4;

// A unit UV sphere (position = normal), 16 segments x 10 rings: round enough at prop sizes.
void unitSphere(std::vector<float>& v, std::vector<uint32_t>& idx) {
  constexpr int kSeg = 16, kRings = 10;
  for (int r = 0; r <= kRings; ++r) {
    const float theta = 3.14159265f * static_cast<float>(r) / kRings;
    for (int s = 0; s <= kSeg; ++s) {
      const float phi = 6.2831853f * static_cast<float>(s) / kSeg;
      const glm::vec3 p(std::sin(theta) * std::cos(phi), std::cos(theta),
                        std::sin(theta) * std::sin(phi));
      v.insert(v.end(), {p.x, p.y, p.z, p.x, p.y, p.z});
    }
  }
  for (int r = 0; r < kRings; ++r) {
    for (int s = 0; s < kSeg; ++s) {
      const auto a = static_cast<uint32_t>(r * (kSeg + 1) + s);
      const auto b = a + kSeg + 1;
      idx.insert(idx.end(), {a, b, a + 1, a + 1, b, b + 1});
    }
  }
}

// The cube [-1, 1]^3 with flat face normals (4 vertices per face).
void unitBox(std::vector<float>& v, std::vector<uint32_t>& idx) {
  for (int axis = 0; axis < 3; ++axis) {
    for (int sign = -1; sign <= 1; sign += 2) {
      glm::vec3 n(0.0f);
      n[axis] = static_cast<float>(sign);
      const glm::vec3 u = axis == 0 ? glm::vec3(0, 1, 0) : glm::vec3(1, 0, 0);
      const glm::vec3 w = glm::cross(n, u);
      const auto base = static_cast<uint32_t>(v.size() / 6);
      for (const auto& [a, b] :
           {std::pair{-1.0f, -1.0f}, {1.0f, -1.0f}, {1.0f, 1.0f}, {-1.0f, 1.0f}}) {
        const glm::vec3 p = n + u * a + w * b;
        v.insert(v.end(), {p.x, p.y, p.z, n.x, n.y, n.z});
      }
      idx.insert(idx.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
    }
  }
}

}  // namespace

PropRenderer::~PropRenderer() {
  shutdown();
}

bool PropRenderer::init(std::string* outError) {
  if (!program_.load("props.vert", "props.frag", outError)) return false;
  std::vector<float> v;
  std::vector<uint32_t> idx;
  unitSphere(v, idx);
  makeMesh(sphere_, v, idx);
  v.clear();
  idx.clear();
  unitBox(v, idx);
  makeMesh(box_, v, idx);
  return true;
}

void PropRenderer::makeMesh(Mesh& mesh, const std::vector<float>& vertices,
                            const std::vector<uint32_t>& indices) {
  glGenVertexArrays(1, &mesh.vao);
  glBindVertexArray(mesh.vao);
  glGenBuffers(1, &mesh.vbo);
  glBindBuffer(GL_ARRAY_BUFFER, mesh.vbo);
  glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(vertices.size() * sizeof(float)),
               vertices.data(), GL_STATIC_DRAW);
  glEnableVertexAttribArray(kAttribPosition);
  glVertexAttribPointer(kAttribPosition, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float), nullptr);
  glEnableVertexAttribArray(kAttribNormal);
  glVertexAttribPointer(kAttribNormal, 3, GL_FLOAT, GL_FALSE, 6 * sizeof(float),
                        reinterpret_cast<void*>(3 * sizeof(float)));
  glGenBuffers(1, &mesh.ibo);
  glBindBuffer(GL_ELEMENT_ARRAY_BUFFER, mesh.ibo);
  glBufferData(GL_ELEMENT_ARRAY_BUFFER, static_cast<GLsizeiptr>(indices.size() * sizeof(uint32_t)),
               indices.data(), GL_STATIC_DRAW);
  mesh.indexCount = static_cast<int>(indices.size());
  glGenBuffers(1, &mesh.instanceVbo);
  glBindBuffer(GL_ARRAY_BUFFER, mesh.instanceVbo);
  const auto instAttrib = [](GLuint loc, GLint n, size_t offset) {
    glEnableVertexAttribArray(loc);
    glVertexAttribPointer(loc, n, GL_FLOAT, GL_FALSE, sizeof(PropInstance),
                          reinterpret_cast<void*>(offset));
    glVertexAttribDivisor(loc, 1);
  };
  instAttrib(kAttribCenter, 3, offsetof(PropInstance, center));
  instAttrib(kAttribHalf, 3, offsetof(PropInstance, halfExtents));
  instAttrib(kAttribColor, 4, offsetof(PropInstance, color));
  glBindVertexArray(0);
}

void PropRenderer::shutdown() {
  for (Mesh* m : {&sphere_, &box_}) {
    if (m->instanceVbo != 0) glDeleteBuffers(1, &m->instanceVbo);
    if (m->ibo != 0) glDeleteBuffers(1, &m->ibo);
    if (m->vbo != 0) glDeleteBuffers(1, &m->vbo);
    if (m->vao != 0) glDeleteVertexArrays(1, &m->vao);
    *m = Mesh{};
  }
  program_ = ShaderProgram{};
}

uint32_t PropRenderer::drawMesh(Mesh& mesh, std::span<const PropInstance> instances) {
  if (instances.empty() || mesh.vao == 0) return 0;
  glBindVertexArray(mesh.vao);
  glBindBuffer(GL_ARRAY_BUFFER, mesh.instanceVbo);
  if (instances.size() > mesh.instanceCapacity) {
    mesh.instanceCapacity = instances.size() * 2;
    glBufferData(GL_ARRAY_BUFFER,
                 static_cast<GLsizeiptr>(mesh.instanceCapacity * sizeof(PropInstance)), nullptr,
                 GL_STREAM_DRAW);
  }
  glBufferSubData(GL_ARRAY_BUFFER, 0, static_cast<GLsizeiptr>(instances.size_bytes()),
                  instances.data());
  glDrawElementsInstanced(GL_TRIANGLES, mesh.indexCount, GL_UNSIGNED_INT, nullptr,
                          static_cast<GLsizei>(instances.size()));
  glBindVertexArray(0);
  return 1;
}

uint32_t PropRenderer::draw(const glm::mat4& viewProj, const glm::vec3& lightDir,
                            std::span<const PropInstance> spheres,
                            std::span<const PropInstance> boxes) {
  if (!program_.valid() || (spheres.empty() && boxes.empty())) return 0;
  program_.use();
  program_.set("uViewProj", viewProj);
  program_.set("uLightDir", glm::normalize(lightDir));
  return drawMesh(sphere_, spheres) + drawMesh(box_, boxes);
}

}  // namespace ofps::gl
