#include "render/line_renderer.h"

#include <glad/gl.h>

#include <array>
#include <cmath>
#include <cstddef>
#include <glm/geometric.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <glm/vec4.hpp>

#include "render/shader.h"

namespace ofps::gl {

LineRenderer::~LineRenderer() {
  shutdown();
}

bool LineRenderer::init(std::string* outError) {
  ShaderProgram program;
  if (!program.load("lines.vert", "lines.frag", outError)) return false;
  // Keep the raw id: this class owns it from here (ShaderProgram would delete it).
  program_ = program.release();
  glGenVertexArrays(1, &vao_);
  glGenBuffers(1, &vbo_);
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  glEnableVertexAttribArray(0);
  glVertexAttribPointer(0, 3, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<void*>(offsetof(LineVertex, position)));
  glEnableVertexAttribArray(1);
  glVertexAttribPointer(1, 4, GL_FLOAT, GL_FALSE, sizeof(LineVertex),
                        reinterpret_cast<void*>(offsetof(LineVertex, color)));
  glBindVertexArray(0);
  return true;
}

void LineRenderer::shutdown() {
  if (vbo_ != 0) glDeleteBuffers(1, &vbo_);
  if (vao_ != 0) glDeleteVertexArrays(1, &vao_);
  if (program_ != 0) glDeleteProgram(program_);
  vbo_ = vao_ = program_ = 0;
  capacity_ = 0;
}

void LineRenderer::line(const glm::vec3& a, const glm::vec3& b, const glm::vec4& color) {
  vertices_.push_back({a, color});
  vertices_.push_back({b, color});
}

void LineRenderer::box(const Aabb& b, const glm::vec4& color) {
  const glm::vec3 lo = b.min, hi = b.max;
  const std::array<glm::vec3, 8> c = {glm::vec3(lo.x, lo.y, lo.z), glm::vec3(hi.x, lo.y, lo.z),
                                      glm::vec3(hi.x, hi.y, lo.z), glm::vec3(lo.x, hi.y, lo.z),
                                      glm::vec3(lo.x, lo.y, hi.z), glm::vec3(hi.x, lo.y, hi.z),
                                      glm::vec3(hi.x, hi.y, hi.z), glm::vec3(lo.x, hi.y, hi.z)};
  for (int i = 0; i < 4; ++i) {
    line(c[i], c[(i + 1) % 4], color);
    line(c[4 + i], c[4 + (i + 1) % 4], color);
    line(c[i], c[4 + i], color);
  }
}

void LineRenderer::capsule(const glm::vec3& a, const glm::vec3& b, float radius,
                           const glm::vec4& color) {
  constexpr int kSegments = 24;  // per full circle
  constexpr float kTwoPi = 6.28318530718f;
  const glm::vec3 ab = b - a;
  const float length = glm::length(ab);
  const glm::vec3 axis = length > 1e-6f ? ab / length : glm::vec3(0.0f, 1.0f, 0.0f);
  // Any two unit vectors perpendicular to the axis and to each other.
  const glm::vec3 helper =
      std::abs(axis.y) < 0.9f ? glm::vec3(0.0f, 1.0f, 0.0f) : glm::vec3(1.0f, 0.0f, 0.0f);
  const glm::vec3 u = glm::normalize(glm::cross(axis, helper));
  const glm::vec3 v = glm::cross(axis, u);
  const auto ring = [&](const glm::vec3& centre, float r) {
    for (int i = 0; i < kSegments; ++i) {
      const float t0 = kTwoPi * static_cast<float>(i) / kSegments;
      const float t1 = kTwoPi * static_cast<float>(i + 1) / kSegments;
      line(centre + r * (std::cos(t0) * u + std::sin(t0) * v),
           centre + r * (std::cos(t1) * u + std::sin(t1) * v), color);
    }
  };
  ring(a, radius);
  ring(b, radius);
  for (const float lat : {0.5f, 0.866f}) {  // 30 and 60 degrees up each hemisphere
    const float r = radius * std::sqrt(1.0f - lat * lat);
    ring(a - axis * (radius * lat), r);
    ring(b + axis * (radius * lat), r);
  }
  // Four meridians: straight along the cylinder, half circles over the caps.
  for (int m = 0; m < 4; ++m) {
    const float phi = kTwoPi * static_cast<float>(m) / 4.0f;
    const glm::vec3 side = std::cos(phi) * u + std::sin(phi) * v;
    line(a + side * radius, b + side * radius, color);
    for (int i = 0; i < kSegments / 4; ++i) {
      const float t0 = (kTwoPi / 4.0f) * static_cast<float>(i) / (kSegments / 4);
      const float t1 = (kTwoPi / 4.0f) * static_cast<float>(i + 1) / (kSegments / 4);
      line(b + radius * (std::cos(t0) * side + std::sin(t0) * axis),
           b + radius * (std::cos(t1) * side + std::sin(t1) * axis), color);
      line(a + radius * (std::cos(t0) * side - std::sin(t0) * axis),
           a + radius * (std::cos(t1) * side - std::sin(t1) * axis), color);
    }
  }
}

void LineRenderer::frustum(const glm::mat4& inverseViewProj, const glm::vec4& color) {
  std::array<glm::vec3, 8> c;
  for (int i = 0; i < 8; ++i) {
    const glm::vec4 ndc((i & 1) ? 1.0f : -1.0f, (i & 2) ? 1.0f : -1.0f, (i & 4) ? 1.0f : -1.0f,
                        1.0f);
    const glm::vec4 w = inverseViewProj * ndc;
    c[static_cast<size_t>(i)] = glm::vec3(w) / w.w;
  }
  constexpr int edges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  for (const auto& e : edges)
    line(c[static_cast<size_t>(e[0])], c[static_cast<size_t>(e[1])], color);
}

void LineRenderer::draw(const glm::mat4& viewProj, Depth depth, float hiddenAlpha) {
  if (vertices_.empty() || program_ == 0) return;
  glBindVertexArray(vao_);
  glBindBuffer(GL_ARRAY_BUFFER, vbo_);
  if (vertices_.size() > capacity_) {
    capacity_ = vertices_.size() * 2;
    glBufferData(GL_ARRAY_BUFFER, static_cast<GLsizeiptr>(capacity_ * sizeof(LineVertex)), nullptr,
                 GL_STREAM_DRAW);
  }
  glBufferSubData(GL_ARRAY_BUFFER, 0,
                  static_cast<GLsizeiptr>(vertices_.size() * sizeof(LineVertex)), vertices_.data());
  glUseProgram(program_);
  glUniformMatrix4fv(glGetUniformLocation(program_, "uViewProj"), 1, GL_FALSE,
                     glm::value_ptr(viewProj));
  const GLint alphaScale = glGetUniformLocation(program_, "uAlphaScale");
  const auto count = static_cast<GLsizei>(vertices_.size());
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  switch (depth) {
    case Depth::Tested:
      glUniform1f(alphaScale, 1.0f);
      glDrawArrays(GL_LINES, 0, count);
      break;
    case Depth::OnTop:
      glUniform1f(alphaScale, 1.0f);
      glDisable(GL_DEPTH_TEST);
      glDrawArrays(GL_LINES, 0, count);
      glEnable(GL_DEPTH_TEST);
      break;
    case Depth::XRay:
      // GREATER then LEQUAL: every fragment is drawn by exactly one of the passes, and neither
      // writes depth, so the second pass is not hidden by the first.
      glDepthMask(GL_FALSE);
      glDepthFunc(GL_GREATER);
      glUniform1f(alphaScale, hiddenAlpha);
      glDrawArrays(GL_LINES, 0, count);
      glDepthFunc(GL_LEQUAL);
      glUniform1f(alphaScale, 1.0f);
      glDrawArrays(GL_LINES, 0, count);
      glDepthFunc(GL_LESS);
      glDepthMask(GL_TRUE);
      break;
  }
  glDisable(GL_BLEND);
  glBindVertexArray(0);
}

}  // namespace ofps::gl
