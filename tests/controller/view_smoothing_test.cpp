// ViewSmoothing (controller/view_smoothing.h): the eye follows steps over a short time while the
// capsule moves exactly. Checked on generated stairs and ramps at several tick rates against the
// controller's own, unsmoothed eye:
//  - up stairs the capsule's eye climbs most of a riser within 50 ms (three frames at 60 fps);
//    the smoothed eye at most three quarters of that (from 60 Hz; at 30 Hz the window is two steps
//    and the capsule already climbs at the stairs' mean slope), and down stairs no more than the
//    capsule's;
//  - it catches up: on the landing, three time constants after the last step, within 5 % of the
//    largest offset, and within 1 mm after ten;
//  - a ramp is followed exactly (offset below 1 mm all the way), and so is a jump;
//  - timeConstant 0 is the controller's eye, bit for bit; the offset never exceeds maxOffset.

#include "octree_fps/controller/view_smoothing.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "controller_test_util.h"
#include "octree_fps/controller/character_controller.h"

namespace ofps::test {
namespace {

constexpr float kDeg = 0.017453292519943295f;

// Changes are measured over 50 ms windows (three frames at 60 fps: what a player sees as a jump
// of the view), at every step.
struct EyeRun {
  float maxRawStep = 0.0f;     // largest |change| of the controller's eye Y over a window
  float maxSmoothStep = 0.0f;  // the same for the smoothed eye
  float maxOffset = 0.0f;      // largest |offset|
  float endOffset = 0.0f;      // |offset| at the end
};

// Walks `seconds` along yaw with forward held (optionally jumping at `jumpAt`), then stands for
// `rest` seconds; records the eye per step.
EyeRun walk(const Octree& octree, float hz, const glm::vec3& feet, float yawDeg, float seconds,
            float rest, ViewSmoothing& smooth, float jumpAt = -1.0f) {
  ControllerParams p;
  p.tickHz = hz;
  CharacterController c(p);
  c.teleport(feet, yawDeg * kDeg);
  CharacterInput in;
  in.yaw = yawDeg * kDeg;
  const float dt = p.tickSeconds();
  EyeRun r;
  for (int i = 0; i < int(0.2f * hz); ++i) {  // settle on the ground
    c.step(octree, in, dt);
    smooth.afterStep(c, dt);
  }
  const size_t window = std::max<size_t>(1, size_t(std::lround(0.05f * hz)));
  std::vector<float> raw{c.interpolatedEye(1.0f).y}, smoothed{smooth.interpolatedEye(c, 1.0f).y};
  const int walking = int(seconds * hz), total = int((seconds + rest) * hz);
  for (int i = 0; i < total; ++i) {
    in.forward = i < walking;
    in.jump = jumpAt >= 0.0f && i >= int(jumpAt * hz);
    c.step(octree, in, dt);
    smooth.afterStep(c, dt);
    const glm::vec3 e = c.interpolatedEye(1.0f), s = smooth.interpolatedEye(c, 1.0f);
    raw.push_back(e.y);
    smoothed.push_back(s.y);
    const size_t back = raw.size() - 1 - std::min(window, raw.size() - 1);
    r.maxRawStep = std::max(r.maxRawStep, std::abs(e.y - raw[back]));
    r.maxSmoothStep = std::max(r.maxSmoothStep, std::abs(s.y - smoothed[back]));
    r.maxOffset = std::max(r.maxOffset, std::abs(smooth.offset()));
    EXPECT_NEAR(s.y - e.y, smooth.offset(), 1e-4f);
    EXPECT_EQ(s.x, e.x);  // only the height is smoothed
    EXPECT_EQ(s.z, e.z);
  }
  r.endOffset = std::abs(smooth.offset());
  return r;
}

TEST(ViewSmoothing, StairsUpAndDownAreSmoothedAndCaughtUp) {
  for (float rise : {0.15f, 0.3f}) {
    MeshBuilder m;
    m.box({-40.0f, -1.0f, -40.0f}, {40.0f, 0.0f, 40.0f});
    m.stairs(rise, 0.4f, 4, -2.0f, 2.0f, 0.0f, 4.0f);  // up along -Z from z = 0 to 4 * rise
    const Octree octree = m.build();
    for (float hz : {30.0f, 60.0f, 120.0f, 240.0f}) {
      ViewSmoothing smooth;
      // Up: 1.6 m of stairs and onto the landing, then stand 10 time constants.
      const EyeRun up =
          walk(octree, hz, {0.0f, 0.0f, 1.0f}, 0.0f, 0.9f, 10.0f * smooth.timeConstant, smooth);
      // The capsule's eye climbs most of a riser within 50 ms; the smoothed one well under that.
      EXPECT_GE(up.maxRawStep, 0.6f * rise) << rise << " " << hz;
      // (At 30 Hz two steps make the window and the raw climb is already the stairs' mean slope:
      // there only no worse.)
      EXPECT_LE(up.maxSmoothStep, (hz < 60.0f ? 1.0f : 0.75f) * up.maxRawStep) << rise << " " << hz;
      EXPECT_GT(up.maxOffset, 0.5f * rise) << rise << " " << hz;  // it did smooth
      EXPECT_LE(up.maxOffset, smooth.maxOffset + 1e-6f);
      EXPECT_LT(up.endOffset, 1e-3f) << rise << " " << hz;
      // Down again from the landing (stick to the floor rolls over each nose: no riser in one
      // step, but 3-10 cm steps at low tick rates that the smoothing spreads out too).
      ViewSmoothing down;
      const EyeRun dn = walk(octree, hz, {0.0f, 4.0f * rise, -2.5f}, 180.0f, 0.9f,
                             3.0f * down.timeConstant, down);
      EXPECT_LE(dn.maxSmoothStep, dn.maxRawStep) << rise << " " << hz;
      EXPECT_GT(dn.maxOffset, 0.0f);
      EXPECT_LE(dn.endOffset, 0.05f * dn.maxOffset + 1e-4f) << rise << " " << hz;
    }
  }
}

TEST(ViewSmoothing, RampsAndJumpsAreFollowedExactly) {
  MeshBuilder m;
  m.box({-40.0f, -1.0f, -40.0f}, {40.0f, 0.0f, 40.0f});
  m.ramp(25.0f, 1.5f, -2.0f, 2.0f, 0.0f, 4.0f);  // up along -Z from z = 0
  const Octree octree = m.build();
  for (float hz : {30.0f, 120.0f, 240.0f}) {
    ViewSmoothing smooth;
    // Starting on the ramp (not at its foot: the foot's bend is a change of face).
    const float z0 = -1.0f;
    const float y0 = -z0 * std::tan(25.0f * kDeg);
    const EyeRun ramp = walk(octree, hz, {0.0f, y0, z0}, 0.0f, 0.3f, 0.0f, smooth);
    EXPECT_LT(ramp.maxOffset, 1e-3f) << hz;
    ViewSmoothing jump;
    const EyeRun j = walk(octree, hz, {10.0f, 0.0f, 10.0f}, 90.0f, 0.2f, 1.0f, jump, 0.1f);
    EXPECT_GT(j.maxRawStep, 0.0f);
    EXPECT_LT(j.maxOffset, 1e-3f) << hz;  // a jump and its landing are not steps
  }
}

TEST(ViewSmoothing, TimeConstantZeroIsTheControllersEye) {
  MeshBuilder m;
  m.box({-40.0f, -1.0f, -40.0f}, {40.0f, 0.0f, 40.0f});
  m.stairs(0.3f, 0.4f, 4, -2.0f, 2.0f, 0.0f, 4.0f);
  const Octree octree = m.build();
  ControllerParams p;
  CharacterController c(p);
  c.teleport({0.0f, 0.0f, 1.0f}, 0.0f);
  CharacterInput in;
  in.forward = true;
  ViewSmoothing smooth;
  smooth.timeConstant = 0.0f;
  for (int i = 0; i < 200; ++i) {
    c.step(octree, in, p.tickSeconds());
    smooth.afterStep(c, p.tickSeconds());
    for (float alpha : {0.0f, 0.5f, 1.0f}) {
      const glm::vec3 a = smooth.interpolatedEye(c, alpha), b = c.interpolatedEye(alpha);
      ASSERT_EQ(a, b) << i;
    }
  }
  EXPECT_GT(c.feet().y, 1.0f);  // it did climb
}

}  // namespace
}  // namespace ofps::test
