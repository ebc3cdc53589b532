#include "app/window/view_camera.h"

#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/geometric.hpp>

#include "octree_fps/controller/character_controller.h"

namespace ofps::app {
glm::vec3 ViewCamera::forward() const {
  return viewDirection(yaw, pitch);
}

glm::mat4 ViewCamera::view() const {
  return glm::lookAt(position, position + forward(), glm::vec3(0, 1, 0));
}

glm::mat4 ViewCamera::projection(float aspect) const {
  return glm::perspective(verticalFovRadians, aspect, nearPlane, farPlane);
}

}  // namespace ofps::app
