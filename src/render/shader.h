#pragma once
// A linked GLSL program built from two files in the shaders/ directory.
// Ownership: owns its GL program object; move-only. Needs a current GL context.

#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <string>

namespace ofps::gl {

// Directory holding the .vert/.frag files: $OCTREE_FPS_SHADER_DIR if set, else the source tree's
// shaders/ (compiled in), else "shaders" relative to the working directory.
std::string shaderDirectory();

// The GLSL ES 3.00 form (WebGL2) of a shader written in GLSL 330 core: the version line replaced,
// default precisions declared and OFPS_GLSL_ES defined; a `fragment` shader writing `out vec4
// fragColor` also encodes its colour to sRGB after its own main (the native demo's framebuffer
// does that; a WebGL canvas cannot). A source that does not start with "#version 330 core" is
// returned as is. The page compiles this form (ShaderProgram::load under Emscripten); the native
// demo the source itself.
std::string toGlslEs300(const std::string& glsl330, bool fragment);

class ShaderProgram {
 public:
  ShaderProgram() = default;
  ShaderProgram(const ShaderProgram&) = delete;
  ShaderProgram& operator=(const ShaderProgram&) = delete;
  ShaderProgram(ShaderProgram&& other) noexcept;
  ShaderProgram& operator=(ShaderProgram&& other) noexcept;
  ~ShaderProgram();

  // Compiles and links shaderDirectory()/vertName and fragName. On failure returns false and
  // sets *outError to the file name plus the driver's log; the object stays empty.
  bool load(const std::string& vertName, const std::string& fragName, std::string* outError);

  // Gives up ownership of the GL program object and returns it (0 when empty).
  unsigned release() {
    unsigned p = program_;
    program_ = 0;
    return p;
  }

  void use() const;
  bool valid() const { return program_ != 0; }
  int uniform(const char* name) const;  // -1 when the uniform is unused or missing

  void set(const char* name, const glm::mat4& m) const;
  void set(const char* name, const glm::vec3& v) const;
  void set(const char* name, const glm::vec4& v) const;
  void set(const char* name, float v) const;
  void set(const char* name, int v) const;

 private:
  unsigned program_ = 0;
};

}  // namespace ofps::gl
