#pragma once
// Reads back the current default framebuffer and writes it as a PNG (stb_image_write).
#include <string>

namespace ofps::gl {

// Reads width x height pixels of the back buffer (call after drawing, before swapping).
// Returns false and sets *outError when the file cannot be written.
bool writeScreenshotPng(const std::string& path, int width, int height, std::string* outError);

}  // namespace ofps::gl
