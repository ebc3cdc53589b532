#pragma once
// The page's stand-in for glad's <glad/gl.h> (src/app/web/web.cmake puts this folder first on the
// include path of the renderer and the app): WebGL2, which Emscripten exposes as OpenGL ES 3.0,
// plus what the OpenGL 3.3 core code calls that WebGL2 lacks, each mapped to the nearest thing it
// has (README "In the browser" lists them):
//   glMultiDrawElements   WEBGL_multi_draw where the browser has it, else one glDrawElements per
//                         range (ofpsWebMultiDraw() says which; the page's stats hook reports it)
//   glPolygonMode         no polygon mode in WebGL2: the level's wireframe is drawn from an edge
//                         index buffer instead (render/level_renderer.cpp); the call is a no-op
//   debug output          no KHR_debug: GLAD_GL_KHR_debug is 0, errors are counted by glGetError
//   GL_MULTISAMPLE, GL_FRAMEBUFFER_SRGB
//                         not capabilities in WebGL2 (multisampling is the context's antialias
//                         attribute; the canvas is never sRGB): glEnable/glDisable skip them
//   GL_BACK_LEFT          WebGL2's default framebuffer names its colour buffer GL_BACK
#include <GLES3/gl3.h>
// As glad does: keep the desktop GL header (which GLFW's header would include) out.
#define __gl_h_ 1
#ifndef GLFW_INCLUDE_NONE
#define GLFW_INCLUDE_NONE
#endif
// From WEBGL_multi_draw (Emscripten's webgl/webgl1_ext.h, whose other declarations clash with
// gl3.h's).
extern "C" void glMultiDrawElementsWEBGL(GLenum mode, const GLsizei* counts, GLenum type,
                                         const GLvoid* const* offsets, GLsizei drawCount);

#define GLAD_API_PTR
#define GLAD_GL_KHR_debug 0

#ifndef GL_LINE
#define GL_LINE 0x1B01
#endif
#ifndef GL_FILL
#define GL_FILL 0x1B02
#endif
#define GL_BACK_LEFT GL_BACK
#define GL_MULTISAMPLE 0x809D
#define GL_FRAMEBUFFER_SRGB 0x8DB9
#define GL_CONTEXT_LOST 0x0507
#define GL_DEBUG_OUTPUT 0x92E0
#define GL_DEBUG_OUTPUT_SYNCHRONOUS 0x8242
#define GL_DEBUG_TYPE_ERROR 0x824C
#define GL_DEBUG_SEVERITY_HIGH 0x9146

using GLDEBUGPROC = void (*)(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                             const GLchar* message, const void* userParam);
inline void glDebugMessageCallback(GLDEBUGPROC, const void*) {}
inline void glPolygonMode(GLenum, GLenum) {}

// True once the page's context has WEBGL_multi_draw (set by src/app/web/web_window.cpp).
inline bool& ofpsWebMultiDraw() {
  static bool present = false;
  return present;
}

inline void ofpsWebMultiDrawElements(GLenum mode, const GLsizei* counts, GLenum type,
                                     const void* const* offsets, GLsizei drawCount) {
  if (ofpsWebMultiDraw()) {
    glMultiDrawElementsWEBGL(mode, counts, type, offsets, drawCount);
    return;
  }
  for (GLsizei i = 0; i < drawCount; ++i) glDrawElements(mode, counts[i], type, offsets[i]);
}
#define glMultiDrawElements ofpsWebMultiDrawElements

inline bool ofpsWebHasCapability(GLenum cap) {
  return cap != GL_MULTISAMPLE && cap != GL_FRAMEBUFFER_SRGB && cap != GL_DEBUG_OUTPUT &&
         cap != GL_DEBUG_OUTPUT_SYNCHRONOUS;
}
inline void ofpsWebEnable(GLenum cap) {
  if (ofpsWebHasCapability(cap)) glEnable(cap);
}
inline void ofpsWebDisable(GLenum cap) {
  if (ofpsWebHasCapability(cap)) glDisable(cap);
}
#define glEnable ofpsWebEnable
#define glDisable ofpsWebDisable
