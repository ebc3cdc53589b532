#pragma once
// Props as obstacles for the character controller: the controller sweeps its capsule against
// the props as well as the level, so the character stands on a box or a ball instead of
// pushing it away. Conventions of CharacterObstacles (character_controller.h): world space,
// metres, toi in [0, 1], normal from the prop toward the capsule.
// Lifetime: refers to the world, which must outlive it. Thread-safety: const queries only.

#include "octree_fps/controller/character_controller.h"
#include "octree_fps/props/props_world.h"

namespace ofps {

class PropsObstacles final : public CharacterObstacles {
 public:
  explicit PropsObstacles(const PropsWorld& world) : world_(&world) {}

  bool sweepCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                    const glm::vec3& displacement, SweepHit& outHit) const override {
    PropSweepHit hit;
    if (!world_->sweepCapsule(a, b, radius, displacement, hit)) return false;
    outHit.toi = hit.toi;
    outHit.point = hit.point;
    outHit.normal = hit.normal;
    outHit.startsOverlapping = hit.startsOverlapping;
    outHit.triangle = kOctreeInvalidIndex;  // not a level triangle
    return true;
  }

 private:
  const PropsWorld* world_;
};

}  // namespace ofps
