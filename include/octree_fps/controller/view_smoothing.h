#pragma once
// Smooth view over steps: the camera follows a stair step-up, a step down a tread or a curb over
// a short time instead of jumping by the riser within one simulation step, while the collision
// capsule moves exactly (Quake's and Source's view smoothing on stairs; Jolt leaves it to the
// application). Presentation only: nothing here feeds back into the simulation, and traces
// report the capsule, never this eye.
//
// What is smoothed: on a fixed step that starts and ends grounded, the part of the feet's
// vertical motion that the ground walked on does not explain (the step's horizontal displacement
// along the plane of the walkable face under the feet at its start). Walking up or down a ramp
// is followed exactly; a riser, a nose roll or a curb goes into an offset of the eye that decays
// exponentially with `timeConstant` (63 % of a step in one time constant, 95 % in three). The
// offset is bounded by `maxOffset`, so a long staircase lags the view by at most that much. A
// jump, a fall, a landing, a teleport, a respawn or fly mode adds nothing (the offset keeps
// decaying; a respawn or teleport clears it).
//
// Units: metres, seconds, world frame Y up. Plain value, no allocation; not thread-safe (one per
// camera). Deterministic: the decay factor per step is computed once per tick rate.
//
//   ViewSmoothing smooth;
//   per fixed step:  smooth.afterStep(controller, dt);   (right after controller.step)
//   per frame:       eye = smooth.interpolatedEye(controller, alpha);

#include <glm/vec3.hpp>

#include "octree_fps/controller/character_controller.h"

namespace ofps {

class ViewSmoothing {
 public:
  float timeConstant = 0.07f;  // s; 0 turns smoothing off
  float maxOffset = 0.5f;      // m, largest lag of the eye behind the capsule's own

  // Records the step the controller just took (dt: its length, seconds). Call it after every
  // step, so that it knows the ground the next step starts on.
  void afterStep(const CharacterController& c, float dt);
  // The eye between the last two steps (as CharacterController::interpolatedEye) plus the
  // smoothing offset at the same alpha.
  glm::vec3 interpolatedEye(const CharacterController& c, float alpha) const;
  float offset() const { return offset_; }  // m, current eye offset (eye drawn minus eye)
  // Drops the offset (a level swap, a camera placed by hand).
  void reset() {
    offset_ = 0.0f;
    prevOffset_ = 0.0f;
    startGrounded_ = false;
  }

 private:
  float offset_ = 0.0f;
  float prevOffset_ = 0.0f;
  bool startGrounded_ = false;                // grounded when the next step starts
  glm::vec3 startFace_{0.0f, 1.0f, 0.0f};     // the walkable face it starts on
  float decayDt_ = -1.0f, decayTau_ = -1.0f;  // what decay_ was computed for
  float decay_ = 1.0f;                        // exp(-dt / timeConstant)
};

}  // namespace ofps
