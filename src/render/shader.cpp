#include "render/shader.h"

#include <glad/gl.h>

#include <cstdlib>
#include <fstream>
#include <glm/gtc/type_ptr.hpp>
#include <sstream>
#include <utility>

namespace ofps::gl {
namespace {

bool readFile(const std::string& path, std::string* out) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream ss;
  ss << f.rdbuf();
  *out = ss.str();
  return true;
}

unsigned compile(GLenum stage, const std::string& path, std::string* outError) {
  std::string source;
  if (!readFile(path, &source)) {
    *outError = "cannot read shader file " + path;
    return 0;
  }
#ifdef __EMSCRIPTEN__
  // The shaders are written once, in GLSL 330 core; WebGL2 takes GLSL ES 3.00. The two differ,
  // for what these shaders use, in the version line and in ES's precision qualifiers (a
  // fragment shader has no default float precision, and no sampler2DArray default either); the
  // canvas has no sRGB encoding, so the fragment shaders do it (toGlslEs300).
  source = toGlslEs300(source, stage == GL_FRAGMENT_SHADER);
#endif
  const GLuint shader = glCreateShader(stage);
  const char* text = source.c_str();
  glShaderSource(shader, 1, &text, nullptr);
  glCompileShader(shader);
  GLint ok = GL_FALSE;
  glGetShaderiv(shader, GL_COMPILE_STATUS, &ok);
  if (ok != GL_TRUE) {
    char log[4096] = {};
    glGetShaderInfoLog(shader, sizeof log, nullptr, log);
    *outError = path + ": " + log;
    glDeleteShader(shader);
    return 0;
  }
  return shader;
}

}  // namespace

std::string toGlslEs300(const std::string& glsl330, bool fragment) {
  const std::string versionLine = "#version 330 core";
  if (glsl330.rfind(versionLine, 0) != 0) return glsl330;
  std::string body = glsl330.substr(versionLine.size());
  std::string tail;
  const std::string mainLine = "void main()";
  const size_t mainAt = body.find(mainLine);
  if (fragment && mainAt != std::string::npos &&
      body.find("out vec4 fragColor;") != std::string::npos) {
    // The native demo writes linear colour into an sRGB framebuffer, which encodes it; a canvas
    // is never sRGB, so the shader encodes (IEC 61966-2-1's curve) after the original main.
    body.replace(mainAt, mainLine.size(), "void ofpsLinearMain()");
    tail =
        "\nvoid main() {\n"
        "  ofpsLinearMain();\n"
        "  vec3 c = clamp(fragColor.rgb, 0.0, 1.0);\n"
        "  fragColor.rgb = mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055,\n"
        "                      step(vec3(0.0031308), c));\n"
        "}\n";
  }
  return "#version 300 es\nprecision highp float;\nprecision highp int;\n"
         "precision highp sampler2DArray;\n#define OFPS_GLSL_ES 1\n" +
         body + tail;
}

std::string shaderDirectory() {
  if (const char* env = std::getenv("OCTREE_FPS_SHADER_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  std::ifstream probe(std::string(OCTREE_FPS_SHADER_DIR) + "/level.vert");
  return probe ? std::string(OCTREE_FPS_SHADER_DIR) : std::string("shaders");
}

ShaderProgram::ShaderProgram(ShaderProgram&& other) noexcept
    : program_(std::exchange(other.program_, 0)) {}

ShaderProgram& ShaderProgram::operator=(ShaderProgram&& other) noexcept {
  if (this != &other) {
    if (program_ != 0) glDeleteProgram(program_);
    program_ = std::exchange(other.program_, 0);
  }
  return *this;
}

ShaderProgram::~ShaderProgram() {
  if (program_ != 0) glDeleteProgram(program_);
}

bool ShaderProgram::load(const std::string& vertName, const std::string& fragName,
                         std::string* outError) {
  const std::string dir = shaderDirectory();
  const unsigned vs = compile(GL_VERTEX_SHADER, dir + "/" + vertName, outError);
  if (vs == 0) return false;
  const unsigned fs = compile(GL_FRAGMENT_SHADER, dir + "/" + fragName, outError);
  if (fs == 0) {
    glDeleteShader(vs);
    return false;
  }
  const GLuint program = glCreateProgram();
  glAttachShader(program, vs);
  glAttachShader(program, fs);
  glLinkProgram(program);
  glDeleteShader(vs);
  glDeleteShader(fs);
  GLint ok = GL_FALSE;
  glGetProgramiv(program, GL_LINK_STATUS, &ok);
  if (ok != GL_TRUE) {
    char log[4096] = {};
    glGetProgramInfoLog(program, sizeof log, nullptr, log);
    *outError = vertName + " + " + fragName + ": link failed: " + log;
    glDeleteProgram(program);
    return false;
  }
  if (program_ != 0) glDeleteProgram(program_);
  program_ = program;
  return true;
}

void ShaderProgram::use() const {
  glUseProgram(program_);
}

int ShaderProgram::uniform(const char* name) const {
  return glGetUniformLocation(program_, name);
}

void ShaderProgram::set(const char* name, const glm::mat4& m) const {
  glUniformMatrix4fv(uniform(name), 1, GL_FALSE, glm::value_ptr(m));
}
void ShaderProgram::set(const char* name, const glm::vec3& v) const {
  glUniform3fv(uniform(name), 1, glm::value_ptr(v));
}
void ShaderProgram::set(const char* name, const glm::vec4& v) const {
  glUniform4fv(uniform(name), 1, glm::value_ptr(v));
}
void ShaderProgram::set(const char* name, float v) const {
  glUniform1f(uniform(name), v);
}
void ShaderProgram::set(const char* name, int v) const {
  glUniform1i(uniform(name), v);
}

}  // namespace ofps::gl
