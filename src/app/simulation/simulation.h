#pragma once
// The demo's character simulation, shared by the windowed and headless paths: a controller on
// the session's octree, driven either by a script (--script, docs/script-format.md) or by live
// input, with the trace (--trace) collected as it runs. The math is all in
// src/octree_fps/controller; this only wires a level session, parameters and output files together.
#include <memory>
#include <optional>
#include <string>

#include "app/simulation/level_session.h"
#include "octree_fps/controller/character_controller.h"
#include "octree_fps/controller/view_smoothing.h"
#include "octree_fps/props/props_world.h"
#include "scenario/param_table.h"
#include "scenario/script.h"
#include "scenario/script_props.h"
#include "scenario/script_runner.h"

namespace ofps::app {

class Simulation {
 public:
  // Spawns at the session's spawn point (resolved when the level loaded). The controller gets
  // params.controller, throws params.throwing; params.octree is the session's business.
  void reset(const LevelSession& session, const ScenarioParams& params);
  // Attaches a parsed script: its `set` lines were applied to params by the caller; spawn and
  // events come from the script; its `prop` lines are placed and its `throw`s thrown. The trace
  // starts with the t = 0 row; the props trace (when recorded) has a row per prop per step.
  void attachScript(const LevelSession& session, const Script& script, const ScenarioParams& params,
                    bool recordTrace, bool recordPropsTrace);

  bool scripted() const { return runner_ != nullptr; }
  bool scriptFinished() const { return runner_ && runner_->finished(); }
  // One fixed step: the script's input when scripted, else `liveInput`; then the props, with
  // the character's capsule pushing them.
  void step(const LevelSession& session, const CharacterInput& liveInput);
  // A jump key press seen between frames (the key callback): the next live step gets jump held
  // even if the key is up again by then, so a tap jumps at any frame rate. Scripts ignore it.
  void latchJump() { jumpLatched_ = true; }
  // Take-offs since reset: steps on which the controller left the ground upward at jump speed
  // (a jump, live or scripted; flying does not count).
  uint64_t jumps() const { return jumps_; }
  // A click: a sphere from the eye along the view, as the script's `throw` does.
  void throwFromEye();
  // New parameters for the running controller and the next throws (a slider moved).
  void setParams(const ScenarioParams& params);

  PropsWorld& props() { return props_; }
  const PropsWorld& props() const { return props_; }
  const std::string& propsTraceCsv() const { return propsTrace_; }
  // --props file text (header + one row per prop).
  std::string propsCsv() const;

  // The one controller: live input drives it, or the script's runner does.
  CharacterController& controller() { return controller_; }
  const CharacterController& controller() const { return controller_; }
  const CharacterInput& lastInput() const { return runner_ ? runner_->lastInput() : lastInput_; }
  // The view angles (radians), owned here and only read by the camera: the script's, as the
  // controller last used them, when scripted; else the live ones, which reset() sets to the
  // spawn's yaw and a level pitch, setView() (--camera) and turnView() (the mouse) change, and
  // live input hands to the controller.
  float viewYaw() const { return runner_ ? controller_.yaw() : liveYaw_; }
  float viewPitch() const { return runner_ ? controller_.pitch() : livePitch_; }
  void setView(float yaw, float pitch) {
    liveYaw_ = yaw;
    livePitch_ = pitch;
  }
  // Adds mouse deltas (radians) to the live angles: yaw wrapped to [-pi, pi], pitch clamped
  // just short of straight up/down so the view basis never degenerates.
  void turnView(float dYaw, float dPitch);
  static constexpr float kMaxLivePitch = 1.55f;
  // The smooth view over steps (on unless --no-view-smoothing or the panel's checkbox turns it
  // off); eye(alpha) is where the camera goes: the controller's interpolated eye plus its offset.
  void setViewSmoothing(bool on) { view_.timeConstant = on ? kViewSmoothingSeconds : 0.0f; }
  bool viewSmoothing() const { return view_.timeConstant > 0.0f; }
  glm::vec3 eye(float alpha) const { return view_.interpolatedEye(controller_, alpha); }
  static constexpr float kViewSmoothingSeconds = 0.07f;
  const std::string& traceCsv() const { return trace_; }
  uint64_t steps() const { return steps_; }
  double simulatedSeconds() const;

 private:
  CharacterController controller_;
  ThrowParams throwing_;
  CharacterInput lastInput_;
  float liveYaw_ = 0.0f;
  float livePitch_ = 0.0f;
  std::unique_ptr<ScriptRunner> runner_;
  std::unique_ptr<ScriptProps> scriptProps_;
  PropsWorld props_;
  std::string trace_;
  std::string propsTrace_;
  bool recordPropsTrace_ = false;
  bool recordTrace_ = false;
  uint64_t steps_ = 0;
  bool jumpLatched_ = false;
  uint64_t jumps_ = 0;
  ViewSmoothing view_;
  glm::dvec3 origin_{0.0};  // the level's local frame (Level::origin): added to written positions
};

// Reads --script and applies its `set` lines to *ioParams (the one copy of each parameter
// struct). Called before the level is loaded: a bad script then fails at once rather than after
// a long load, and the octree is built once, with the script's parameters.
// Returns true with the script in *outScript, or false with *outError naming the file and line
// (the demo then exits with status 2) and *ioParams unchanged.
bool loadScriptFor(const std::string& path, ScenarioParams* ioParams, Script* outScript,
                   std::string* outError);

// Writes text to a file; false with *error naming the file.
bool writeTextFile(const std::string& path, const std::string& text, std::string* outError);

}  // namespace ofps::app
