#pragma once
// Scripted walks for the culling benchmarks and tests: the camera paths the occlusion issue
// measures on ("along scripted walks"), made by the real character controller so that the eye
// stays where a player can be. Header-only, so that the benchmarks (which do not link the test
// support library) share this one copy. Each walk starts on one of the given floor points and lasts
// framesPerWalk frames of 60 Hz; each frame the controller takes its two 120 Hz steps with forward
// held (colliding and sliding along walls, climbing stairs, falling off ledges), while the view
// turns at a yaw rate drawn anew every 45 frames (up to 1.5 rad/s either way, a quarter of the
// walks with one quick 90-degree turn over 10 frames: a look around) and the pitch sways within
// +-0.15 rad. The camera is at the controller's eye, 70-degree vertical field of view, 16:9, near
// 0.05 m, far 5 km (the occlusion bench's poses use the same projection). Deterministic for a seed.
// Between walks the eye jumps to another floor point (a cut, as a respawn is in the demo).
#include <cmath>
#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/mat4x4.hpp>
#include <random>
#include <utility>
#include <vector>

#include "octree_fps/controller/character_controller.h"
#include "octree_fps/spatial/octree.h"

namespace ofps::test {

// Plays the walks frame by frame (the frame benchmark steps the controller inside its timed
// loop, as the demo does); after the last frame of the last walk it starts again from the first,
// identically.
class WalkPlayer {
 public:
  WalkPlayer(const Octree& octree, std::vector<glm::vec3> feet, uint32_t walks,
             uint32_t framesPerWalk, uint32_t seed = 11)
      : octree_(octree),
        feet_(std::move(feet)),
        walks_(walks),
        framesPerWalk_(framesPerWalk),
        seed_(seed) {
    restart();
  }

  bool ok() const { return !feet_.empty() && walks_ > 0 && framesPerWalk_ > 0; }
  glm::vec3 eye() const { return controller_.eye(); }  // of the last frame next() returned
  uint32_t frameCount() const { return walks_ * framesPerWalk_; }

  // The next frame's view-projection, after the controller's two 120 Hz steps.
  glm::mat4 next() {
    if (frame_ == framesPerWalk_) {
      frame_ = 0;
      if (++walk_ == walks_) restart();
    }
    if (frame_ == 0) startWalk();
    if (frame_ % 45 == 0) yawRate_ = (u_(rng_) * 2.0f - 1.0f) * 1.5f;
    input_.yaw += yawRate_ / 60.0f;
    if (lookAround_ && frame_ >= turnAt_ && frame_ < turnAt_ + 10) input_.yaw += 0.15707963f;
    input_.pitch = 0.15f * std::sin(0.05f * static_cast<float>(frame_ + 7 * walk_));
    const float dt = controller_.params().tickSeconds();
    controller_.step(octree_, input_, dt);
    controller_.step(octree_, input_, dt);
    ++frame_;
    const glm::vec3 eye = controller_.eye();
    const glm::vec3 fwd(-std::sin(input_.yaw) * std::cos(input_.pitch), std::sin(input_.pitch),
                        -std::cos(input_.yaw) * std::cos(input_.pitch));
    return glm::perspective(glm::radians(70.0f), 16.0f / 9.0f, 0.05f, 5000.0f) *
           glm::lookAt(eye, eye + fwd, glm::vec3(0.0f, 1.0f, 0.0f));
  }

 private:
  void restart() {
    rng_.seed(seed_);
    walk_ = 0;
    frame_ = 0;
  }
  void startWalk() {
    input_ = {};
    input_.forward = true;
    input_.yaw = u_(rng_) * 6.2831853f;
    controller_.teleport(feet_[walk_ % feet_.size()], input_.yaw);
    yawRate_ = 0.0f;
    lookAround_ = u_(rng_) < 0.25f;
    turnAt_ = static_cast<uint32_t>(u_(rng_) * static_cast<float>(framesPerWalk_));
  }

  const Octree& octree_;
  std::vector<glm::vec3> feet_;
  uint32_t walks_, framesPerWalk_, seed_;
  std::mt19937 rng_;
  std::uniform_real_distribution<float> u_{0.0f, 1.0f};
  CharacterController controller_;
  CharacterInput input_;
  uint32_t walk_ = 0, frame_ = 0, turnAt_ = 0;
  float yawRate_ = 0.0f;
  bool lookAround_ = false;
};

// All frames of the walks, in order.
inline std::vector<glm::mat4> scriptedWalks(const Octree& octree, std::vector<glm::vec3> feet,
                                            uint32_t walks, uint32_t framesPerWalk,
                                            uint32_t seed = 11) {
  std::vector<glm::mat4> frames;
  WalkPlayer player(octree, std::move(feet), walks, framesPerWalk, seed);
  if (!player.ok()) return frames;
  frames.reserve(player.frameCount());
  for (uint32_t f = 0; f < player.frameCount(); ++f) frames.push_back(player.next());
  return frames;
}

}  // namespace ofps::test
