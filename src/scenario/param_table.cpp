#include "scenario/param_table.h"

#include <array>
#include <cmath>
#include <type_traits>
#include <utility>

#include "octree_fps/controller/param_errors_inl.h"

namespace ofps {

namespace {

// One row for member `Member` of the struct `Owner` in ScenarioParams: its read accessor and
// its field (float or uint32_t), as captureless lambdas.
template <auto Owner, auto Member>
constexpr ParamInfo row(const char* name, const char* unit, float lo, float hi, ParamOwner owner,
                        const char* help) {
  using Field = std::remove_reference_t<decltype(std::declval<ScenarioParams&>().*Owner.*Member)>;
  constexpr bool kInteger = std::is_same_v<Field, uint32_t>;
  static_assert(kInteger || std::is_same_v<Field, float>, "rows are float or uint32_t fields");
  ParamInfo info{name, unit, lo, hi, kInteger, owner, help, nullptr, nullptr, nullptr};
  info.read = [](const ScenarioParams& s) { return static_cast<float>((s.*Owner).*Member); };
  if constexpr (kInteger) {
    info.intField = [](ScenarioParams& s) { return &((s.*Owner).*Member); };
  } else {
    info.floatField = [](ScenarioParams& s) { return &((s.*Owner).*Member); };
  }
  return info;
}

using C = ControllerParams;
// A controller row.
template <auto Member>
constexpr ParamInfo controllerRow(const char* name, const char* unit, float lo, float hi,
                                  const char* help) {
  return row<&ScenarioParams::controller, Member>(name, unit, lo, hi, ParamOwner::Controller, help);
}

constexpr std::array kInfos = {
    controllerRow<&C::radius>("radius", "m", 0.05f, 5.0f, "Capsule radius."),
    controllerRow<&C::height>("height", "m", 0.1f, 20.0f, "Total standing height, feet to top."),
    controllerRow<&C::crouchHeight>("crouch_height", "m", 0.1f, 20.0f,
                                    "Total height while crouched."),
    controllerRow<&C::eyeHeight>("eye_height", "m", 0.01f, 20.0f,
                                 "Eye above the feet, standing (unset: follows height)."),
    controllerRow<&C::stepHeight>("step_height", "m", 0.0f, 5.0f,
                                  "Highest step climbed without jumping; higher ones block."),
    controllerRow<&C::maxSlopeDeg>(
        "max_slope", "deg", 0.0f, 89.0f,
        "Steepest walkable slope; steeper ground slides the character down."),
    controllerRow<&C::walkSpeed>("walk_speed", "m/s", 0.0f, 100.0f, "Target ground speed walking."),
    controllerRow<&C::sprintSpeed>("sprint_speed", "m/s", 0.0f, 100.0f,
                                   "Target ground speed sprinting."),
    controllerRow<&C::crouchSpeed>("crouch_speed", "m/s", 0.0f, 100.0f,
                                   "Target ground speed crouched."),
    controllerRow<&C::accel>("accel", "m/s^2", 0.0f, 10000.0f,
                             "Ground acceleration toward the target velocity (also the friction)."),
    controllerRow<&C::airControl>("air_control", "", 0.0f, 1.0f,
                                  "Share of accel available in the air."),
    controllerRow<&C::jumpSpeed>("jump_speed", "m/s", 0.0f, 100.0f, "Upward speed at take-off."),
    controllerRow<&C::gravity>("gravity", "m/s^2", 0.0f, 1000.0f,
                               "Downward acceleration (the character's and the props')."),
    controllerRow<&C::maxFallSpeed>("max_fall_speed", "m/s", 0.0f, 1000.0f,
                                    "Terminal falling speed."),
    controllerRow<&C::coyoteTime>("coyote_time", "s", 0.0f, 10.0f,
                                  "A jump still works this long after leaving the ground."),
    controllerRow<&C::jumpBuffer>("jump_buffer", "s", 0.0f, 10.0f,
                                  "A jump pressed this long before landing happens on landing."),
    controllerRow<&C::snapDistance>(
        "snap_distance", "m", 0.0f, 5.0f,
        "How far below the feet the ground is looked for after a grounded step."),
    controllerRow<&C::stickToFloor>(
        "stick_to_floor", "m", 0.0f, 5.0f,
        "Walking down, ground at most this far below the ground walked on keeps the character "
        "grounded (stair treads, ramps past a crest, curbs); deeper is a ledge. Unset: "
        "step_height. 0: drop from each stair nose."),
    controllerRow<&C::skin>("skin", "m", 0.0001f, 0.5f,
                            "Gap kept between the capsule and the level."),
    row<&ScenarioParams::throwing, &ThrowParams::speed>(
        "throw_speed", "m/s", 0.0f, 1000.0f, ParamOwner::Throw,
        "Thrown sphere's speed, added to the character's velocity."),
    row<&ScenarioParams::throwing, &ThrowParams::radius>(
        "throw_radius", "m", 0.001f, 10.0f, ParamOwner::Throw, "Thrown sphere's radius."),
    controllerRow<&C::tickHz>("tick_hz", "Hz", 10.0f, 1000.0f, "Fixed simulation rate."),
    row<&ScenarioParams::octree, &OctreeBuildParams::trianglesPerLeaf>(
        "triangles_per_leaf", "", 1.0f, 1024.0f, ParamOwner::Octree,
        "Octree: a node with at most this many triangles is a leaf. Rebuilds the tree."),
    row<&ScenarioParams::octree, &OctreeBuildParams::maxLevel>(
        "max_level", "", 0.0f, static_cast<float>(kOctreeMaxLevel), ParamOwner::Octree,
        "Octree: deepest level (root = 0). Rebuilds the tree."),
};

std::string outsideMessage(const ParamInfo& info, float v) {
  return std::string(info.name) + " = " + fmt(v) + " is outside [" + fmt(info.minValue) + ", " +
         fmt(info.maxValue) + "]";
}

}  // namespace

std::span<const ParamInfo> paramInfos() {
  return kInfos;
}

const ParamInfo* findParam(std::string_view name) {
  for (const ParamInfo& info : kInfos) {
    if (name == info.name) return &info;
  }
  return nullptr;
}

float paramValue(const ScenarioParams& params, const ParamInfo& info) {
  return info.read(params);
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
  // Stick to the floor reaches as deep as a step is high unless set: walking down the stairs one
  // can walk up stays on the ground.
  if (!isSet("stick_to_floor") && isSet("step_height")) {
    io.controller.stickToFloor = io.controller.stepHeight;
  }
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
