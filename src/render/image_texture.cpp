#include "render/image_texture.h"

#include <glad/gl.h>

#include <cassert>

namespace ofps::gl {

ImageTexture::~ImageTexture() {
  shutdown();
}

void ImageTexture::shutdown() {
  if (texture_ != 0) glDeleteTextures(1, &texture_);
  texture_ = 0;
  width_ = height_ = 0;
}

void ImageTexture::upload(uint32_t width, uint32_t height, std::span<const uint8_t> rgba) {
  assert(rgba.size() == static_cast<size_t>(width) * height * 4 &&
         "ImageTexture::upload: rgba must hold width * height * 4 bytes");
  if (texture_ == 0) {
    glGenTextures(1, &texture_);
    glBindTexture(GL_TEXTURE_2D, texture_);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  }
  glBindTexture(GL_TEXTURE_2D, texture_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  const auto w = static_cast<GLsizei>(width), h = static_cast<GLsizei>(height);
  if (width != width_ || height != height_) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, w, h, 0, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
    width_ = width;
    height_ = height;
  } else {
    glTexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, w, h, GL_RGBA, GL_UNSIGNED_BYTE, rgba.data());
  }
  glBindTexture(GL_TEXTURE_2D, 0);
}

}  // namespace ofps::gl
