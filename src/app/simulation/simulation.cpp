#include "app/simulation/simulation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>

#include "octree_fps/props/props_obstacles.h"

namespace ofps::app {

namespace {

PropsParams propsParamsFor(const LevelSession& session) {
  PropsParams p;
  p.killPlaneY = killPlaneY(session.level);
  return p;
}

}  // namespace

void Simulation::reset(const LevelSession& session, const ScenarioParams& params) {
  runner_.reset();
  scriptProps_.reset();
  props_ = PropsWorld(propsParamsFor(session));
  propsTrace_.clear();
  recordPropsTrace_ = false;
  controller_ = CharacterController(params.controller);
  throwing_ = params.throwing;
  controller_.setSpawn(session.spawn, session.spawnYaw);
  controller_.setKillPlaneY(killPlaneY(session.level));
  controller_.teleport(session.spawn, session.spawnYaw);
  origin_ = session.level.origin;
  lastInput_ = {};
  lastInput_.yaw = session.spawnYaw;
  setView(session.spawnYaw, 0.0f);
  trace_.clear();
  steps_ = 0;
  jumpLatched_ = false;
  jumps_ = 0;
  view_.reset();
}

void Simulation::attachScript(const LevelSession& session, const Script& script,
                              const ScenarioParams& params, bool recordTrace,
                              bool recordPropsTrace) {
  throwing_ = params.throwing;
  // The script is written in the level file's coordinates; the simulation runs in the level's
  // local frame (Level::origin, nonzero only for a level far from the origin).
  origin_ = session.level.origin;
  const Script local = script.translated(-origin_);
  // The runner drives the one controller (reset to params.controller and spawned by it).
  runner_ =
      std::make_unique<ScriptRunner>(local, params.controller, params.throwing, session.spawn,
                                     session.spawnYaw, killPlaneY(session.level), controller_);
  props_ = PropsWorld(propsParamsFor(session));
  scriptProps_ = std::make_unique<ScriptProps>(local, props_, killPlaneY(session.level));
  recordTrace_ = recordTrace;
  recordPropsTrace_ = recordPropsTrace;
  trace_.clear();
  propsTrace_ = recordPropsTrace ? propsTraceCsvHeader() : "";
  steps_ = 0;
  jumpLatched_ = false;
  jumps_ = 0;
  view_.reset();
  if (recordTrace_) {
    trace_ = traceCsvHeader();
    appendTraceCsvRow(trace_, runner_->initialRow(), origin_);
  }
}

void Simulation::step(const LevelSession& session, const CharacterInput& liveInput) {
  const float vyBefore = controller_.velocity().y;
  if (runner_) {
    if (runner_->finished()) return;
    const PropsObstacles obstacles(props_);
    const TraceRow row = runner_->step(session.octree, &obstacles);
    if (recordTrace_) appendTraceCsvRow(trace_, row, origin_);
    scriptProps_->afterRunnerStep(*runner_, session.octree, row,
                                  recordPropsTrace_ ? &propsTrace_ : nullptr, origin_);
  } else {
    lastInput_ = liveInput;
    if (jumpLatched_) lastInput_.jump = true;
    jumpLatched_ = false;
    const float dt = controller_.params().tickSeconds();
    const PropsObstacles obstacles(props_);
    controller_.step(session.octree, lastInput_, dt, &obstacles);
    const CharacterCapsule capsule = characterCapsule(controller_);
    followControllerGravity(props_, controller_.params());
    props_.step(session.octree, dt, &capsule);
  }
  // A take-off: the vertical speed crosses half the jump speed upward in one step (gravity
  // alone never raises it; the jump sets it to the full jump speed).
  const CharacterController& c = controller_;
  const float takeOff = 0.5f * c.params().jumpSpeed;
  if (!c.flying() && !c.grounded() && vyBefore < takeOff && c.velocity().y >= takeOff) ++jumps_;
  view_.afterStep(c, c.params().tickSeconds());
  ++steps_;
}

void Simulation::turnView(float dYaw, float dPitch) {
  liveYaw_ = std::remainder(liveYaw_ + dYaw, 2.0f * 3.14159265358979f);
  livePitch_ = std::clamp(livePitch_ + dPitch, -kMaxLivePitch, kMaxLivePitch);
}

void Simulation::throwFromEye() {
  const CharacterController& c = controller_;
  const glm::vec3 view = viewDirection(c.yaw(), c.pitch());
  props_.throwSphere(c.eye(), view * throwing_.speed + c.velocity(), throwing_.radius);
}

void Simulation::setParams(const ScenarioParams& params) {
  controller_.setParams(params.controller);
  throwing_ = params.throwing;
}

std::string Simulation::propsCsv() const {
  std::string out;
  writePropsCsv(out, props_, origin_);
  return out;
}

double Simulation::simulatedSeconds() const {
  return static_cast<double>(steps_) * static_cast<double>(controller_.params().tickSeconds());
}

bool loadScriptFor(const std::string& path, ScenarioParams* ioParams, Script* outScript,
                   std::string* outError) {
  ScriptParseResult parsed = readScript(path, *ioParams);
  if (!parsed.ok) {
    *outError = parsed.error;
    return false;
  }
  ScenarioParams applied = *ioParams;
  if (!parsed.script.applyParams(applied, outError)) return false;
  *ioParams = applied;
  *outScript = std::move(parsed.script);
  return true;
}

bool writeTextFile(const std::string& path, const std::string& text, std::string* outError) {
  std::ofstream out(path, std::ios::binary);
  if (out) out << text;
  if (!out) {
    *outError = "cannot write " + path;
    return false;
  }
  return true;
}

}  // namespace ofps::app
