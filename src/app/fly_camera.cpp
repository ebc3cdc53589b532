#include "app/fly_camera.h"

#include <algorithm>
#include <cmath>

#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/geometric.hpp>

namespace ofps::app {
namespace {
constexpr float kMaxPitch = 1.55f;  // just under pi/2 so the view basis never degenerates
}

glm::vec3 FlyCamera::forward() const {
  const float cp = std::cos(pitch);
  return {-std::sin(yaw) * cp, std::sin(pitch), -std::cos(yaw) * cp};
}

glm::vec3 FlyCamera::right() const { return {std::cos(yaw), 0.0f, -std::sin(yaw)}; }

glm::mat4 FlyCamera::view() const {
  return glm::lookAt(position, position + forward(), glm::vec3(0, 1, 0));
}

glm::mat4 FlyCamera::projection(float aspect) const {
  return glm::perspective(verticalFovRadians, aspect, nearPlane, farPlane);
}

void FlyCamera::turn(float dYaw, float dPitch) {
  yaw = std::remainder(yaw + dYaw, 2.0f * 3.14159265358979f);
  pitch = std::clamp(pitch + dPitch, -kMaxPitch, kMaxPitch);
}

void FlyCamera::lookAt(const glm::vec3& target) {
  const glm::vec3 d = target - position;
  const float len = glm::length(d);
  if (len <= 0.0f) return;
  yaw = std::atan2(-d.x, -d.z);
  pitch = std::clamp(std::asin(std::clamp(d.y / len, -1.0f, 1.0f)), -kMaxPitch, kMaxPitch);
}

}  // namespace ofps::app
