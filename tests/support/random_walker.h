#pragma once
// A seeded random player for long controller runs (the soak test, the controller benchmark):
// new keys every 30 steps (forward 70 %, back, strafe, sprint, crouch, a turn rate of up to
// +-3 rad/s), jump taps 1 % of the steps. Header-only, so that the benchmarks (which do not link
// the test support library) share this one copy. Deterministic for a seed (std::mt19937 and the
// distribution's draws in a fixed order); not thread-safe (one walker per thread).
#include <cstdint>
#include <random>

#include "octree_fps/controller/character_controller.h"

namespace ofps::test {

struct RandomWalker {
  std::mt19937 rng;
  std::uniform_real_distribution<float> u01{0.0f, 1.0f};
  CharacterInput input;
  float turnRate = 0.0f;  // rad/s
  uint32_t steps = 0;

  explicit RandomWalker(uint32_t seed = 42) : rng(seed) {}

  // The input for the next fixed step of dt seconds.
  const CharacterInput& next(float dt) {
    if (steps++ % 30 == 0) {
      input.forward = u01(rng) < 0.7f;
      input.back = !input.forward && u01(rng) < 0.3f;
      input.left = u01(rng) < 0.2f;
      input.right = !input.left && u01(rng) < 0.2f;
      input.sprint = u01(rng) < 0.4f;
      input.crouch = u01(rng) < 0.08f;
      turnRate = (u01(rng) - 0.5f) * 6.0f;
    }
    input.jump = u01(rng) < 0.01f;  // taps
    input.yaw += turnRate * dt;
    return input;
  }
};

}  // namespace ofps::test
