#include "octree_fps/controller/view_smoothing.h"

#include <algorithm>
#include <cmath>

#include "octree_fps/geometry/det_math.h"

namespace ofps {

void ViewSmoothing::afterStep(const CharacterController& c, float dt) {
  prevOffset_ = offset_;
  const bool startGrounded = startGrounded_;
  const glm::vec3 face = startFace_;
  startGrounded_ = c.grounded() && !c.flying();
  startFace_ = c.groundFaceNormal();
  if (timeConstant <= 0.0f || c.respawned() || c.flying()) {
    offset_ = 0.0f;
    if (c.respawned()) prevOffset_ = 0.0f;  // a respawn is a cut, not a motion to smooth
    return;
  }
  if (dt != decayDt_ || timeConstant != decayTau_) {
    decay_ = det::exp(-dt / timeConstant);
    decayDt_ = dt;
    decayTau_ = timeConstant;
  }
  offset_ *= decay_;
  if (!startGrounded || !c.grounded()) return;
  // The feet's vertical motion beyond what walking along the face it started on gives: a riser
  // climbed, a tread or a curb stepped down to. The eye keeps its height by that much, then
  // catches up.
  const glm::vec3 d = c.feet() - c.previousFeet();
  const float alongFace = face.y > 1e-3f ? -(face.x * d.x + face.z * d.z) / face.y : 0.0f;
  offset_ = std::clamp(offset_ - (d.y - alongFace), -maxOffset, maxOffset);
}

glm::vec3 ViewSmoothing::interpolatedEye(const CharacterController& c, float alpha) const {
  const float o = prevOffset_ + (offset_ - prevOffset_) * alpha;
  return c.interpolatedEye(alpha) + glm::vec3(0.0f, o, 0.0f);
}

}  // namespace ofps
