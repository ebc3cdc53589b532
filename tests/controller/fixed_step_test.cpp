// The demo's fixed-step clock: whole steps from frame time, the stall cap, and the
// interpolation factor between the last two steps.
#include "octree_fps/controller/fixed_step.h"

#include <gtest/gtest.h>

namespace ofps::test {
namespace {

TEST(ControllerFixedStep, AccumulatesAndInterpolates) {
  FixedStep clock(100.0, 4);
  EXPECT_EQ(clock.advance(0.025), 2u);
  EXPECT_NEAR(clock.alpha(), 0.5f, 1e-5f);
  EXPECT_EQ(clock.advance(1.0), 4u);  // a stall: capped, excess dropped
  EXPECT_LT(clock.alpha(), 1.0f);
  EXPECT_EQ(clock.advance(-1.0), 0u);
}

}  // namespace
}  // namespace ofps::test
