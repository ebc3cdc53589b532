#include "octree_fps/controller/controller_params.h"

#include <algorithm>
#include <cmath>

#include "octree_fps/controller/param_errors_inl.h"

namespace ofps {

namespace {

// What the controller's arithmetic needs of one field: finite and in [lo, hi] (hi excluded
// where openHi). Narrower, friendlier ranges are the UI's business.
bool checkField(const char* name, float v, float lo, float hi, bool openHi, std::string* outError) {
  if (std::isfinite(v) && v >= lo && (openHi ? v < hi : v <= hi)) return true;
  setError(outError, std::string(name) + " = " + fmt(v) + " is outside [" + fmt(lo) + ", " +
                         fmt(hi) + (openHi ? ")" : "]"));
  return false;
}

}  // namespace

void applyDependentDefaults(ControllerParams& io, const CapsuleParamsSet& set,
                            const ControllerParams& base) {
  const bool r = set.radius, h = set.height, c = set.crouchHeight, e = set.eyeHeight, s = set.skin;
  if (!r) {
    float v = base.radius;
    if (h) v = std::min(v, 0.5f * io.height);
    if (c) v = std::min(v, 0.5f * io.crouchHeight);
    if (s) v = std::max(v, 2.0f * io.skin);
    io.radius = v;
  }
  if (!h) {
    float v = std::max(base.height, 2.0f * io.radius);
    if (c) v = std::max(v, io.crouchHeight);
    if (e) v = std::max(v, io.eyeHeight);
    io.height = v;
  }
  const float scale = base.height > 0.0f ? io.height / base.height : 1.0f;
  if (!c) {
    float v = base.crouchHeight * scale;
    if (e) v = std::max(v, io.height - 0.5f * io.eyeHeight);
    io.crouchHeight = std::clamp(v, std::min(2.0f * io.radius, io.height), io.height);
  }
  if (!e) {
    float v = std::min(base.eyeHeight * scale, io.height);
    if (v <= io.crouchDrop()) v = io.height - 0.5f * io.crouchHeight;
    io.eyeHeight = v;
  }
  if (!s) io.skin = std::min(base.skin, 0.5f * io.radius);
}

bool validateParams(const ControllerParams& p, std::string* outError) {
  constexpr float kInf = INFINITY;
  constexpr float kTiny = 1e-30f;  // "positive": the smallest value the arithmetic divides by
  const bool fieldsOk = checkField("radius", p.radius, kTiny, kInf, true, outError) &&
                        checkField("height", p.height, kTiny, kInf, true, outError) &&
                        checkField("crouch_height", p.crouchHeight, kTiny, kInf, true, outError) &&
                        checkField("eye_height", p.eyeHeight, kTiny, kInf, true, outError) &&
                        checkField("step_height", p.stepHeight, 0.0f, kInf, true, outError) &&
                        checkField("max_slope", p.maxSlopeDeg, 0.0f, 90.0f, true, outError) &&
                        checkField("snap_distance", p.snapDistance, 0.0f, kInf, true, outError) &&
                        checkField("stick_to_floor", p.stickToFloor, 0.0f, kInf, true, outError) &&
                        checkField("skin", p.skin, kTiny, kInf, true, outError) &&
                        checkField("walk_speed", p.walkSpeed, 0.0f, kInf, true, outError) &&
                        checkField("sprint_speed", p.sprintSpeed, 0.0f, kInf, true, outError) &&
                        checkField("crouch_speed", p.crouchSpeed, 0.0f, kInf, true, outError) &&
                        checkField("accel", p.accel, 0.0f, kInf, true, outError) &&
                        checkField("air_control", p.airControl, 0.0f, 1.0f, false, outError) &&
                        checkField("jump_speed", p.jumpSpeed, 0.0f, kInf, true, outError) &&
                        checkField("gravity", p.gravity, 0.0f, kInf, true, outError) &&
                        checkField("max_fall_speed", p.maxFallSpeed, 0.0f, kInf, true, outError) &&
                        checkField("coyote_time", p.coyoteTime, 0.0f, kInf, true, outError) &&
                        checkField("jump_buffer", p.jumpBuffer, 0.0f, kInf, true, outError) &&
                        checkField("tick_hz", p.tickHz, kTiny, kInf, true, outError);
  if (!fieldsOk) return false;
  if (p.height < 2.0f * p.radius) {
    setError(outError, "height (" + fmt(p.height) + ") must be at least 2 * radius (" +
                           fmt(2.0f * p.radius) + ")");
    return false;
  }
  if (p.crouchHeight < 2.0f * p.radius || p.crouchHeight > p.height) {
    setError(outError, "crouch_height (" + fmt(p.crouchHeight) +
                           ") must be in [2 * radius, height] = [" + fmt(2.0f * p.radius) + ", " +
                           fmt(p.height) + "]");
    return false;
  }
  if (p.eyeHeight <= p.crouchDrop() || p.eyeHeight > p.height) {
    setError(outError, "eye_height (" + fmt(p.eyeHeight) + ") must be in (height - " +
                           "crouch_height, height] = (" + fmt(p.crouchDrop()) + ", " +
                           fmt(p.height) + "]");
    return false;
  }
  if (p.skin >= p.radius) {
    setError(outError,
             "skin (" + fmt(p.skin) + ") must be smaller than radius (" + fmt(p.radius) + ")");
    return false;
  }
  return true;
}

}  // namespace ofps
