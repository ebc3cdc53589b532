#include "octree_fps/controller/controller_params.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>

namespace ofps {

namespace {

using P = ControllerParams;
constexpr ControllerParamInfo F(const char* name, const char* unit, float lo, float hi,
                                float P::*m, const char* help) {
  return {name, unit, lo, hi, false, m, nullptr, help};
}
constexpr ControllerParamInfo I(const char* name, float lo, float hi, uint32_t P::*m,
                                const char* help) {
  return {name, "", lo, hi, true, nullptr, m, help};
}

constexpr std::array kInfos = {
    F("radius", "m", 0.05f, 5.0f, &P::radius, "Capsule radius."),
    F("height", "m", 0.1f, 20.0f, &P::height, "Total standing height, feet to top."),
    F("crouch_height", "m", 0.1f, 20.0f, &P::crouchHeight, "Total height while crouched."),
    F("eye_height", "m", 0.01f, 20.0f, &P::eyeHeight,
      "Eye above the feet, standing (unset: follows height)."),
    F("step_height", "m", 0.0f, 5.0f, &P::stepHeight,
      "Highest step climbed without jumping; higher ones block."),
    F("max_slope", "deg", 0.0f, 89.0f, &P::maxSlopeDeg,
      "Steepest walkable slope; steeper ground slides the character down."),
    F("walk_speed", "m/s", 0.0f, 100.0f, &P::walkSpeed, "Target ground speed walking."),
    F("sprint_speed", "m/s", 0.0f, 100.0f, &P::sprintSpeed, "Target ground speed sprinting."),
    F("crouch_speed", "m/s", 0.0f, 100.0f, &P::crouchSpeed, "Target ground speed crouched."),
    F("accel", "m/s^2", 0.0f, 10000.0f, &P::accel,
      "Ground acceleration toward the target velocity (also the friction)."),
    F("air_control", "", 0.0f, 1.0f, &P::airControl, "Share of accel available in the air."),
    F("jump_speed", "m/s", 0.0f, 100.0f, &P::jumpSpeed, "Upward speed at take-off."),
    F("gravity", "m/s^2", 0.0f, 1000.0f, &P::gravity, "Downward acceleration."),
    F("max_fall_speed", "m/s", 0.0f, 1000.0f, &P::maxFallSpeed, "Terminal falling speed."),
    F("coyote_time", "s", 0.0f, 10.0f, &P::coyoteTime,
      "A jump still works this long after leaving the ground."),
    F("jump_buffer", "s", 0.0f, 10.0f, &P::jumpBuffer,
      "A jump pressed this long before landing happens on landing."),
    F("snap_distance", "m", 0.0f, 5.0f, &P::snapDistance,
      "How far down a walking character is pulled to stay on the ground."),
    F("skin", "m", 0.0001f, 0.5f, &P::skin, "Gap kept between the capsule and the level."),
    F("throw_speed", "m/s", 0.0f, 1000.0f, &P::throwSpeed,
      "Thrown sphere's speed, added to the character's velocity."),
    F("throw_radius", "m", 0.001f, 10.0f, &P::throwRadius, "Thrown sphere's radius."),
    F("tick_hz", "Hz", 10.0f, 1000.0f, &P::tickHz, "Fixed simulation rate."),
    I("triangles_per_leaf", 1.0f, 1024.0f, &P::trianglesPerLeaf,
      "Octree: a node with at most this many triangles is a leaf."),
    I("max_level", 0.0f, static_cast<float>(kOctreeMaxLevel), &P::maxLevel,
      "Octree: deepest level (root = 0)."),
};

void setError(std::string* outError, const std::string& message) {
  if (outError) *outError = message;
}

std::string fmt(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
  return buf;
}

}  // namespace

std::span<const ControllerParamInfo> controllerParamInfos() { return kInfos; }

const ControllerParamInfo* findControllerParam(std::string_view name) {
  for (const ControllerParamInfo& info : kInfos) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

bool getParam(const ControllerParams& params, std::string_view name, float& outValue) {
  const ControllerParamInfo* info = findControllerParam(name);
  if (!info) return false;
  outValue = info->isInteger ? static_cast<float>(params.*(info->intMember))
                             : params.*(info->member);
  return true;
}

bool setParam(ControllerParams& params, std::string_view name, float value,
              std::string* outError) {
  const ControllerParamInfo* info = findControllerParam(name);
  if (!info) {
    setError(outError, "unknown parameter '" + std::string(name) + "'");
    return false;
  }
  if (!std::isfinite(value) || value < info->minValue || value > info->maxValue) {
    setError(outError, std::string(info->name) + " = " + fmt(value) + " is outside [" +
                           fmt(info->minValue) + ", " + fmt(info->maxValue) + "]");
    return false;
  }
  if (info->isInteger) {
    if (value != std::floor(value)) {
      setError(outError, std::string(info->name) + " must be an integer, got " + fmt(value));
      return false;
    }
    params.*(info->intMember) = static_cast<uint32_t>(value);
  } else {
    params.*(info->member) = value;
  }
  return true;
}

ControllerParamMask controllerParamBit(std::string_view name) {
  static_assert(kInfos.size() <= 32, "ControllerParamMask has one bit per parameter");
  for (size_t i = 0; i < kInfos.size(); ++i) {
    if (name == kInfos[i].name) return ControllerParamMask{1} << i;
  }
  return 0;
}

void applyDependentDefaults(ControllerParams& io, ControllerParamMask set,
                            const ControllerParams& base) {
  auto isSet = [set](const char* name) { return (set & controllerParamBit(name)) != 0; };
  const bool r = isSet("radius"), h = isSet("height"), c = isSet("crouch_height"),
             e = isSet("eye_height"), s = isSet("skin");
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

bool validateParams(const ControllerParams& params, std::string* outError) {
  for (const ControllerParamInfo& info : kInfos) {
    float v = 0.0f;
    getParam(params, info.name, v);
    if (!std::isfinite(v) || v < info.minValue || v > info.maxValue) {
      setError(outError, std::string(info.name) + " = " + fmt(v) + " is outside [" +
                             fmt(info.minValue) + ", " + fmt(info.maxValue) + "]");
      return false;
    }
  }
  if (params.height < 2.0f * params.radius) {
    setError(outError, "height (" + fmt(params.height) + ") must be at least 2 * radius (" +
                           fmt(2.0f * params.radius) + ")");
    return false;
  }
  if (params.crouchHeight < 2.0f * params.radius || params.crouchHeight > params.height) {
    setError(outError, "crouch_height (" + fmt(params.crouchHeight) +
                           ") must be in [2 * radius, height] = [" + fmt(2.0f * params.radius) +
                           ", " + fmt(params.height) + "]");
    return false;
  }
  if (params.eyeHeight <= params.crouchDrop() || params.eyeHeight > params.height) {
    setError(outError, "eye_height (" + fmt(params.eyeHeight) + ") must be in (height - " +
                           "crouch_height, height] = (" + fmt(params.crouchDrop()) + ", " +
                           fmt(params.height) + "]");
    return false;
  }
  if (params.skin >= params.radius) {
    setError(outError, "skin (" + fmt(params.skin) + ") must be smaller than radius (" +
                           fmt(params.radius) + ")");
    return false;
  }
  return true;
}

}  // namespace ofps
