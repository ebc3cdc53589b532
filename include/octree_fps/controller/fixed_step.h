#pragma once
// Fixed-timestep accumulator (Glenn Fiedler, "Fix Your Timestep!", 2004): the simulation runs
// whole steps of 1/tickHz seconds whatever the frame rate; rendering interpolates between the
// last two steps with alpha(). Time in seconds, accumulated in double so that hours of play do
// not lose precision. Plain value; not thread-safe (one per simulation).
//
//   FixedStep clock(params.tickHz);
//   for each frame:
//     for (uint32_t n = clock.advance(frameSeconds); n > 0; --n) controller.step(octree, in,
//     clock.dt()); camera = controller.interpolatedEye(clock.alpha());

#include <algorithm>
#include <cstdint>

namespace ofps {

class FixedStep {
 public:
  // tickHz: steps per second (> 0). maxStepsPerFrame bounds the catch-up after a stall (a
  // breakpoint, a level load): the excess time is dropped instead of spiralling.
  explicit FixedStep(double tickHz = 120.0, uint32_t maxStepsPerFrame = 8)
      : stepSeconds_(1.0 / tickHz), maxSteps_(maxStepsPerFrame) {}

  // Changes the rate; keeps the accumulated time (clamped to one new step).
  void setTickHz(double tickHz) {
    stepSeconds_ = 1.0 / tickHz;
    accumulator_ = std::min(accumulator_, stepSeconds_);
  }
  // Adds a frame's wall time (seconds, negative treated as 0) and returns how many whole steps
  // to run now (at most maxStepsPerFrame).
  uint32_t advance(double frameSeconds) {
    accumulator_ += std::max(frameSeconds, 0.0);
    uint32_t steps = 0;
    while (accumulator_ >= stepSeconds_ && steps < maxSteps_) {
      accumulator_ -= stepSeconds_;
      ++steps;
    }
    if (accumulator_ >= stepSeconds_) accumulator_ = std::min(accumulator_, stepSeconds_ * 0.999);
    totalSteps_ += steps;
    return steps;
  }
  // Fraction of a step accumulated but not simulated, in [0, 1): render at
  // mix(previous state, current state, alpha()).
  float alpha() const { return static_cast<float>(accumulator_ / stepSeconds_); }
  float dt() const { return static_cast<float>(stepSeconds_); }
  double stepSeconds() const { return stepSeconds_; }
  uint64_t totalSteps() const { return totalSteps_; }
  // Simulation time of the last completed step's end, seconds.
  double simulatedSeconds() const { return static_cast<double>(totalSteps_) * stepSeconds_; }
  void reset() {
    accumulator_ = 0.0;
    totalSteps_ = 0;
  }

 private:
  double stepSeconds_;
  double accumulator_ = 0.0;
  uint32_t maxSteps_;
  uint64_t totalSteps_ = 0;
};

}  // namespace ofps
