#pragma once
// The demo's view: the character's eye and view angles, copied from the simulation every frame
// (Simulation::eye, viewYaw, viewPitch: the simulation owns them; the mouse turns them there).
// Frame: right-handed, Y up, metres, radians. Yaw 0 looks along -Z and yaw +pi/2 along -X
// (docs/script-format.md).
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>

namespace ofps::app {

struct ViewCamera {
  glm::vec3 position{0.0f};
  float yaw = 0.0f;    // radians
  float pitch = 0.0f;  // radians, in (-pi/2, pi/2)
  float verticalFovRadians = 1.2f;
  float nearPlane = 0.05f;   // metres
  float farPlane = 5000.0f;  // metres

  glm::vec3 forward() const;  // unit view direction
  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
};

}  // namespace ofps::app
