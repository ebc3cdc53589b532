#pragma once
// A small RGBA8 texture that the CPU refills, for debug images drawn with ImGui::Image (the
// occlusion buffer's view). Nearest filtering: each texel stays a crisp square when scaled up.
//
// Ownership: owns one GL texture, freed by shutdown() or the destructor. Needs a current GL
// 3.3 core context on the calling thread for every call.

#include <cstdint>
#include <span>

namespace ofps::gl {

class ImageTexture {
 public:
  ImageTexture() = default;
  ImageTexture(const ImageTexture&) = delete;
  ImageTexture& operator=(const ImageTexture&) = delete;
  ~ImageTexture();

  // Replaces the image: width x height texels, rgba row-major from the BOTTOM row (GL's
  // order), 4 bytes each (asserted: rgba.size() == width * height * 4). Reallocates only when
  // the size changes. O(texels).
  void upload(uint32_t width, uint32_t height, std::span<const uint8_t> rgba);
  // The GL texture name (0 before the first upload), for ImGui::Image.
  unsigned id() const { return texture_; }
  void shutdown();

 private:
  unsigned texture_ = 0;
  uint32_t width_ = 0, height_ = 0;
};

}  // namespace ofps::gl
