#include "scenario/script_runner.h"

#include <algorithm>
#include <cstdio>

#include "octree_fps/geometry/scalar_inl.h"
#include "octree_fps/io/csv_number.h"

namespace ofps {

namespace {
constexpr float kMaxPitchDeg = 89.0f;

void appendNumber(std::string& out, double v) {
  appendCsvNumber(out, v);
}
}  // namespace

const char* traceCsvHeader() {
  return "t,x,y,z,vx,vy,vz,grounded,crouched,flying,respawned\n";
}

void appendTraceCsvRow(std::string& ioOut, const TraceRow& row, const glm::dvec3& origin) {
  appendNumber(ioOut, row.t);
  // At the origin (every level near it) the sums below are the floats themselves: the trace's
  // bytes do not change. Far out a position keeps reading back exactly (csv_number.h).
  for (int k = 0; k < 3; ++k) {
    ioOut += ',';
    appendCsvNumber(ioOut, static_cast<double>(row.feet[k]) + origin[k], origin[k]);
  }
  for (int k = 0; k < 3; ++k) {
    ioOut += ',';
    appendNumber(ioOut, static_cast<double>(row.velocity[k]));
  }
  ioOut += row.grounded ? ",1" : ",0";
  ioOut += row.crouched ? ",1" : ",0";
  ioOut += row.flying ? ",1" : ",0";
  ioOut += row.respawned ? ",1\n" : ",0\n";
}

ScriptRunner::ScriptRunner(const Script& script, const ControllerParams& params,
                           const ThrowParams& throwing, const glm::vec3& levelSpawn,
                           float levelSpawnYaw, float killPlaneY)
    : ScriptRunner(script, params, throwing, levelSpawn, levelSpawnYaw, killPlaneY, nullptr) {}

ScriptRunner::ScriptRunner(const Script& script, const ControllerParams& params,
                           const ThrowParams& throwing, const glm::vec3& levelSpawn,
                           float levelSpawnYaw, float killPlaneY, CharacterController& controller)
    : ScriptRunner(script, params, throwing, levelSpawn, levelSpawnYaw, killPlaneY, &controller) {}

ScriptRunner::ScriptRunner(const Script& script, const ControllerParams& params,
                           const ThrowParams& throwing, const glm::vec3& levelSpawn,
                           float levelSpawnYaw, float killPlaneY, CharacterController* external)
    : script_(script), throwing_(throwing), hz_(static_cast<double>(params.tickHz)) {
  if (external != nullptr) {
    *external = CharacterController(params);
    controller_ = external;
  } else {
    controller_ = &ownController_.emplace(params);
  }
  // Steps n with n / hz < end (the same division the event times are compared with).
  while (static_cast<double>(totalSteps_) / hz_ < script_.endTime) ++totalSteps_;
  glm::vec3 spawn = levelSpawn;
  float yaw = levelSpawnYaw;
  if (script_.spawn) {
    spawn = script_.spawn->feet;
    if (script_.spawn->yawDegrees) yaw = *script_.spawn->yawDegrees * kDegToRad;
    if (script_.spawn->pitchDegrees) pitchDeg_ = *script_.spawn->pitchDegrees;
  }
  yawDeg_ = yaw / kDegToRad;
  pitchDeg_ = std::clamp(pitchDeg_, -kMaxPitchDeg, kMaxPitchDeg);
  controller_->setSpawn(spawn, yaw);
  controller_->setKillPlaneY(killPlaneY);
  controller_->teleport(spawn, yaw);
  input_.yaw = yaw;
  input_.pitch = pitchDeg_ * kDegToRad;
}

TraceRow ScriptRunner::initialRow() const {
  TraceRow row;
  row.t = 0.0;
  row.feet = controller_->feet();
  row.velocity = controller_->movedVelocity();
  row.grounded = controller_->grounded();
  row.crouched = controller_->crouched();
  row.flying = controller_->flying();
  return row;
}

void ScriptRunner::apply(const ScriptEvent& e) {
  const auto k = static_cast<uint32_t>(e.key);
  switch (e.action) {
    case ScriptAction::Hold:
      held_[k] = true;
      break;
    case ScriptAction::Release:
      held_[k] = false;
      break;
    case ScriptAction::Tap:
      tapped_[k] = true;
      break;
    case ScriptAction::Look:
      yawDeg_ = e.a;
      pitchDeg_ = std::clamp(e.b, -kMaxPitchDeg, kMaxPitchDeg);
      break;
    case ScriptAction::Turn:
      yawDeg_ += e.a;
      pitchDeg_ = std::clamp(pitchDeg_ + e.b, -kMaxPitchDeg, kMaxPitchDeg);
      break;
    case ScriptAction::Fly:
      controller_->setFlying(e.on);
      break;
    case ScriptAction::Throw: {
      const glm::vec3 dir = viewDirection(yawDeg_ * kDegToRad, pitchDeg_ * kDegToRad);
      throws_.push_back({static_cast<double>(stepIndex_) / hz_, controller_->eye(),
                         dir * throwing_.speed + controller_->velocity(), throwing_.radius});
      break;
    }
  }
}

TraceRow ScriptRunner::step(const Octree& octree, const CharacterObstacles* obstacles) {
  const double start = static_cast<double>(stepIndex_) / hz_;
  while (nextEvent_ < script_.events.size() && script_.events[nextEvent_].time <= start) {
    apply(script_.events[nextEvent_++]);
  }
  auto key = [&](ScriptKey k) {
    const auto i = static_cast<uint32_t>(k);
    return held_[i] || tapped_[i];
  };
  input_.forward = key(ScriptKey::Forward);
  input_.back = key(ScriptKey::Back);
  input_.left = key(ScriptKey::Left);
  input_.right = key(ScriptKey::Right);
  input_.jump = key(ScriptKey::Jump);
  input_.sprint = key(ScriptKey::Sprint);
  input_.crouch = key(ScriptKey::Crouch);
  input_.yaw = yawDeg_ * kDegToRad;
  input_.pitch = pitchDeg_ * kDegToRad;
  controller_->step(octree, input_, static_cast<float>(1.0 / hz_), obstacles);
  std::fill(std::begin(tapped_), std::end(tapped_), false);
  ++stepIndex_;
  TraceRow row;
  row.t = static_cast<double>(stepIndex_) / hz_;
  row.feet = controller_->feet();
  row.velocity = controller_->movedVelocity();
  row.grounded = controller_->grounded();
  row.crouched = controller_->crouched();
  row.flying = controller_->flying();
  row.respawned = controller_->respawned();
  return row;
}

std::string runScriptToCsv(const Script& script, const ControllerParams& params,
                           const Octree& octree, const glm::vec3& levelSpawn, float levelSpawnYaw,
                           float killPlaneY) {
  // The trace is the character's alone: throws leave it unchanged, so their parameters do not
  // matter here.
  ScriptRunner runner(script, params, ThrowParams{}, levelSpawn, levelSpawnYaw, killPlaneY);
  std::string out = traceCsvHeader();
  runner.run(octree, [&](const TraceRow& row) { appendTraceCsvRow(out, row); });
  return out;
}

}  // namespace ofps
