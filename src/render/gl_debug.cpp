#include "render/gl_debug.h"

#include <glad/gl.h>

#include <atomic>
#include <cstdio>

namespace ofps::gl {
namespace {

std::atomic<int> g_errors{0};

const char* errorName(GLenum e) {
  switch (e) {
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    default:
      return "unknown";
  }
}

void GLAD_API_PTR onDebugMessage(GLenum /*source*/, GLenum type, GLuint id, GLenum severity,
                                 GLsizei /*length*/, const GLchar* message, const void* /*user*/) {
  if (type == GL_DEBUG_TYPE_ERROR) {
    g_errors.fetch_add(1, std::memory_order_relaxed);
    std::fprintf(stderr, "GL error (debug output, id %u): %s\n", id, message);
  } else if (severity == GL_DEBUG_SEVERITY_HIGH) {
    std::fprintf(stderr, "GL warning (debug output, id %u): %s\n", id, message);
  }
}

}  // namespace

void installDebugOutput() {
  if (!GLAD_GL_KHR_debug) return;
  glEnable(GL_DEBUG_OUTPUT);
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(onDebugMessage, nullptr);
}

int checkErrors(const char* where) {
  int n = 0;
  // Bounded: a lost context can return GL_CONTEXT_LOST forever on some drivers.
  for (GLenum e = glGetError(); e != GL_NO_ERROR && n < 16; e = glGetError()) {
    std::fprintf(stderr, "GL error 0x%04x (%s) at %s\n", e, errorName(e), where);
    ++n;
  }
  g_errors.fetch_add(n, std::memory_order_relaxed);
  return n;
}

int errorCount() {
  return g_errors.load(std::memory_order_relaxed);
}

}  // namespace ofps::gl
