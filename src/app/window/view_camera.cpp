#include "app/window/view_camera.h"

#include <algorithm>
#include <cmath>
#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/geometric.hpp>

#include "octree_fps/controller/character_controller.h"

namespace ofps::app {
namespace {
constexpr float kMaxPitch = 1.55f;  // just under pi/2 so the view basis never degenerates
}

glm::vec3 ViewCamera::forward() const {
  return viewDirection(yaw, pitch);
}

glm::mat4 ViewCamera::view() const {
  return glm::lookAt(position, position + forward(), glm::vec3(0, 1, 0));
}

glm::mat4 ViewCamera::projection(float aspect) const {
  return glm::perspective(verticalFovRadians, aspect, nearPlane, farPlane);
}

void ViewCamera::turn(float dYaw, float dPitch) {
  yaw = std::remainder(yaw + dYaw, 2.0f * 3.14159265358979f);
  pitch = std::clamp(pitch + dPitch, -kMaxPitch, kMaxPitch);
}

}  // namespace ofps::app
