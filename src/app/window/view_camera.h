#pragma once
// The demo's view: the character's eye plus yaw/pitch from the mouse. Frame: right-handed, Y up,
// metres, radians. Yaw 0 looks along -Z and yaw +pi/2 along -X (docs/script-format.md).
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace ofps::app {

struct ViewCamera {
  glm::vec3 position{0.0f};
  float yaw = 0.0f;    // radians
  float pitch = 0.0f;  // radians, clamped to (-pi/2, pi/2)
  float verticalFovRadians = 1.2f;
  float nearPlane = 0.05f;   // metres
  float farPlane = 5000.0f;  // metres

  glm::vec3 forward() const;  // unit view direction
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;

  // Adds mouse deltas (radians) and clamps pitch just short of straight up/down.
  void turn(float dYaw, float dPitch);
};

}  // namespace ofps::app
