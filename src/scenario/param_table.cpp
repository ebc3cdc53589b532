#include "scenario/param_table.h"

#include <array>
#include <cmath>
#include <cstdio>

namespace ofps {

namespace {

// Field accessors for the table: a captureless lambda per (owner struct, member) pair.
template <auto Owner, auto Member>
constexpr float* (*kFloat)(ScenarioParams&) = [](ScenarioParams& s) { return &((s.*Owner).*Member); };
template <auto Owner, auto Member>
constexpr uint32_t* (*kInt)(ScenarioParams&) = [](ScenarioParams& s) {
  return &((s.*Owner).*Member);
};

using C = ControllerParams;
constexpr ParamInfo F(const char* name, const char* unit, float lo, float hi,
                      float* (*field)(ScenarioParams&), const char* help,
                      ParamOwner owner = ParamOwner::Controller) {
  return {name, unit, lo, hi, false, owner, help, field, nullptr};
}
template <auto Member>
constexpr float* (*kCtl)(ScenarioParams&) = kFloat<&ScenarioParams::controller, Member>;

constexpr std::array kInfos = {
    F("radius", "m", 0.05f, 5.0f, kCtl<&C::radius>, "Capsule radius."),
    F("height", "m", 0.1f, 20.0f, kCtl<&C::height>, "Total standing height, feet to top."),
    F("crouch_height", "m", 0.1f, 20.0f, kCtl<&C::crouchHeight>, "Total height while crouched."),
    F("eye_height", "m", 0.01f, 20.0f, kCtl<&C::eyeHeight>,
      "Eye above the feet, standing (unset: follows height)."),
    F("step_height", "m", 0.0f, 5.0f, kCtl<&C::stepHeight>,
      "Highest step climbed without jumping; higher ones block."),
    F("max_slope", "deg", 0.0f, 89.0f, kCtl<&C::maxSlopeDeg>,
      "Steepest walkable slope; steeper ground slides the character down."),
    F("walk_speed", "m/s", 0.0f, 100.0f, kCtl<&C::walkSpeed>, "Target ground speed walking."),
    F("sprint_speed", "m/s", 0.0f, 100.0f, kCtl<&C::sprintSpeed>,
      "Target ground speed sprinting."),
    F("crouch_speed", "m/s", 0.0f, 100.0f, kCtl<&C::crouchSpeed>,
      "Target ground speed crouched."),
    F("accel", "m/s^2", 0.0f, 10000.0f, kCtl<&C::accel>,
      "Ground acceleration toward the target velocity (also the friction)."),
    F("air_control", "", 0.0f, 1.0f, kCtl<&C::airControl>,
      "Share of accel available in the air."),
    F("jump_speed", "m/s", 0.0f, 100.0f, kCtl<&C::jumpSpeed>, "Upward speed at take-off."),
    F("gravity", "m/s^2", 0.0f, 1000.0f, kCtl<&C::gravity>, "Downward acceleration."),
    F("max_fall_speed", "m/s", 0.0f, 1000.0f, kCtl<&C::maxFallSpeed>, "Terminal falling speed."),
    F("coyote_time", "s", 0.0f, 10.0f, kCtl<&C::coyoteTime>,
      "A jump still works this long after leaving the ground."),
    F("jump_buffer", "s", 0.0f, 10.0f, kCtl<&C::jumpBuffer>,
      "A jump pressed this long before landing happens on landing."),
    F("snap_distance", "m", 0.0f, 5.0f, kCtl<&C::snapDistance>,
      "How far down a walking character is pulled to stay on the ground."),
    F("skin", "m", 0.0001f, 0.5f, kCtl<&C::skin>, "Gap kept between the capsule and the level."),
    F("throw_speed", "m/s", 0.0f, 1000.0f, kFloat<&ScenarioParams::throwing, &ThrowParams::speed>,
      "Thrown sphere's speed, added to the character's velocity.", ParamOwner::Throw),
    F("throw_radius", "m", 0.001f, 10.0f,
      kFloat<&ScenarioParams::throwing, &ThrowParams::radius>, "Thrown sphere's radius.",
      ParamOwner::Throw),
    F("tick_hz", "Hz", 10.0f, 1000.0f, kCtl<&C::tickHz>, "Fixed simulation rate."),
    ParamInfo{"triangles_per_leaf", "", 1.0f, 1024.0f, true, ParamOwner::Octree,
              "Octree: a node with at most this many triangles is a leaf. Rebuilds the tree.",
              nullptr, kInt<&ScenarioParams::octree, &OctreeBuildParams::trianglesPerLeaf>},
    ParamInfo{"max_level", "", 0.0f, static_cast<float>(kOctreeMaxLevel), true,
              ParamOwner::Octree, "Octree: deepest level (root = 0). Rebuilds the tree.", nullptr,
              kInt<&ScenarioParams::octree, &OctreeBuildParams::maxLevel>},
};

void setError(std::string* outError, const std::string& message) {
  if (outError) *outError = message;
}

std::string fmt(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
  return buf;
}

std::string outsideMessage(const ParamInfo& info, float v) {
  return std::string(info.name) + " = " + fmt(v) + " is outside [" + fmt(info.minValue) + ", " +
         fmt(info.maxValue) + "]";
}

}  // namespace

std::span<const ParamInfo> paramInfos() { return kInfos; }

const ParamInfo* findParam(std::string_view name) {
  for (const ParamInfo& info : kInfos) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

float paramValue(const ScenarioParams& params, const ParamInfo& info) {
  // The accessors take a mutable set so one pointer serves reading and writing (sliders).
  ScenarioParams& p = const_cast<ScenarioParams&>(params);
  return info.isInteger ? static_cast<float>(*info.intField(p)) : *info.floatField(p);
}

bool getParam(const ScenarioParams& params, std::string_view name, float& outValue) {
  const ParamInfo* info = findParam(name);
  if (!info) return false;
  outValue = paramValue(params, *info);
  return true;
}

bool setParam(ScenarioParams& params, const ParamInfo& info, float value, std::string* outError) {
  if (!std::isfinite(value) || value < info.minValue || value > info.maxValue) {
    setError(outError, outsideMessage(info, value));
    return false;
  }
  if (info.isInteger) {
    if (value != std::floor(value)) {
      setError(outError, std::string(info.name) + " must be an integer, got " + fmt(value));
      return false;
    }
    *info.intField(params) = static_cast<uint32_t>(value);
  } else {
    *info.floatField(params) = value;
  }
  return true;
}

bool setParam(ScenarioParams& params, std::string_view name, float value, std::string* outError) {
  const ParamInfo* info = findParam(name);
  if (!info) {
    setError(outError, "unknown parameter '" + std::string(name) + "'");
    return false;
  }
  return setParam(params, *info, value, outError);
}

ParamMask paramBit(std::string_view name) {
  static_assert(kInfos.size() <= 32, "ParamMask has one bit per parameter");
  for (size_t i = 0; i < kInfos.size(); ++i) {
    if (name == kInfos[i].name) return ParamMask{1} << i;
  }
  return 0;
}

void applyDependentDefaults(ScenarioParams& io, ParamMask set, const ScenarioParams& base) {
  auto isSet = [set](const char* name) { return (set & paramBit(name)) != 0; };
  CapsuleParamsSet capsule;
  capsule.radius = isSet("radius");
  capsule.height = isSet("height");
  capsule.crouchHeight = isSet("crouch_height");
  capsule.eyeHeight = isSet("eye_height");
  capsule.skin = isSet("skin");
  applyDependentDefaults(io.controller, capsule, base.controller);
}

bool validateParams(const ScenarioParams& params, std::string* outError) {
  for (const ParamInfo& info : kInfos) {
    const float v = paramValue(params, info);
    if (!std::isfinite(v) || v < info.minValue || v > info.maxValue) {
      setError(outError, outsideMessage(info, v));
      return false;
    }
  }
  return validateParams(params.controller, outError);
}

}  // namespace ofps
