#include "render/screenshot.h"

#include <glad/gl.h>
#include <stb_image_write.h>

#include <cstdint>
#include <vector>

namespace ofps::gl {

bool writeScreenshotPng(const std::string& path, int width, int height, std::string* outError) {
  if (width <= 0 || height <= 0) {
    *outError = "screenshot: the framebuffer is empty (" + std::to_string(width) + "x" +
                std::to_string(height) + ")";
    return false;
  }
  std::vector<uint8_t> pixels(static_cast<size_t>(width) * static_cast<size_t>(height) * 4);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  glReadBuffer(GL_BACK);
  glReadPixels(0, 0, width, height, GL_RGBA, GL_UNSIGNED_BYTE, pixels.data());
  // GL's rows start at the bottom; PNG's at the top.
  stbi_flip_vertically_on_write(1);
  const int ok = stbi_write_png(path.c_str(), width, height, 4, pixels.data(), width * 4);
  stbi_flip_vertically_on_write(0);
  if (ok == 0) {
    *outError = "screenshot: cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace ofps::gl
