#pragma once
// Small scalar helpers that several layers need, defined once so that copies cannot drift apart.
// Internal (the _inl.h name keeps it out of the installed headers): include it from .cpp files.

#include <cmath>
#include <glm/vec3.hpp>

namespace ofps {

inline constexpr float kDegToRad = 0.017453292519943295f;  // pi / 180, rounded once to float

// True when no coordinate is NaN or infinite.
inline bool finite3(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

}  // namespace ofps
