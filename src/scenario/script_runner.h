#pragma once
// Runs a parsed script (script.h) against an octree: the simulation behind
// `octree_demo [--headless] --script FILE --trace OUT.csv LEVEL` (docs/script-format.md).
//
// Timing: fixed steps of dt = 1/tick_hz. Step n (from 0) starts at n/tick_hz and ends at
// (n+1)/tick_hz (computed in double, so "at 0.1" meets step 12 at 120 Hz exactly). Commands
// `at T` take effect at the start of the first step starting at or after T, same-time commands
// in file order. The run has every step starting before `end T` (end 1.0 at 120 Hz: 120 steps,
// the last row at t = 1). `tap` holds a key for exactly one step. Pitch is clamped to
// [-89, 89] degrees. A respawn (kill plane) keeps the view angles.
//
// The runner is steppable (the windowed demo calls step() once per fixed tick and draws
// controller().interpolatedEye(alpha)) or runs to the end (run(), headless). Deterministic:
// the same build, octree, parameters and script give bit-identical rows.
//
// Props: placed props (Script::props) and throws are NOT simulated here; each throw is
// recorded (throws()) with its origin and velocity for the props system to consume.

#include <cstdint>
#include <glm/ext/vector_double3.hpp>
#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <vector>

#include "octree_fps/controller/character_controller.h"
#include "scenario/script.h"

namespace ofps {

// One trace row (docs/script-format.md): the state at the end of a step (t = 0: the spawned state).
struct TraceRow {
  double t = 0.0;            // s
  glm::vec3 feet{0.0f};      // m, the capsule's lowest point
  glm::vec3 velocity{0.0f};  // m/s, the step's real motion: position change / dt
  bool grounded = false;
  bool crouched = false;
  bool flying = false;
  bool respawned = false;
};

// A throw command, for the props system: a sphere of `radius` leaving `origin` (the eye) with
// `velocity` (view direction * throw_speed + the character's velocity).
struct ThrowRecord {
  double t = 0.0;  // start of the step the throw happened in, s
  glm::vec3 origin{0.0f};
  glm::vec3 velocity{0.0f};
  float radius = 0.0f;
};

// "t,x,y,z,vx,vy,vz,grounded,crouched,flying,respawned\n"
const char* traceCsvHeader();
// Appends one row, numbers as %.9g (they read back exactly), ending with '\n'. origin: added to
// the feet (in double) for a level moved into a local frame (Level::origin), so that the trace
// is in the level file's coordinates.
void appendTraceCsvRow(std::string& ioOut, const TraceRow& row,
                       const glm::dvec3& origin = glm::dvec3(0.0));

class ScriptRunner {
 public:
  // params, throwing: the effective parameters (the demo's values with Script::applyParams
  // done); `throwing` sets each recorded throw's speed and radius.
  // levelSpawn/levelSpawnYaw (radians): used unless the script has `spawn`. killPlaneY: world Y
  // below which the character respawns (killPlaneY(level) for a loaded level).
  // The script is copied; the runner owns all its state (the controller too, with this
  // constructor).
  ScriptRunner(const Script& script, const ControllerParams& params, const ThrowParams& throwing,
               const glm::vec3& levelSpawn, float levelSpawnYaw, float killPlaneY);
  // The same, driving `controller` instead of a controller of its own (the demo's one controller,
  // which then serves live input and scripts alike): it is reset to `params` and spawned as
  // above. `controller` must outlive the runner.
  ScriptRunner(const Script& script, const ControllerParams& params, const ThrowParams& throwing,
               const glm::vec3& levelSpawn, float levelSpawnYaw, float killPlaneY,
               CharacterController& controller);
  // Not copyable: controller_ may point into ownController_.
  ScriptRunner(const ScriptRunner&) = delete;
  ScriptRunner& operator=(const ScriptRunner&) = delete;

  // Row for t = 0 (the spawned state).
  TraceRow initialRow() const;
  // True once every step before `end` has run.
  bool finished() const { return stepIndex_ >= totalSteps_; }
  // Applies the commands due at this step's start, runs one controller step, returns its row.
  // Must not be called when finished(). obstacles: props the character stands on (may be null).
  TraceRow step(const Octree& octree, const CharacterObstacles* obstacles = nullptr);
  // Runs every remaining step; sink(const TraceRow&) gets the t = 0 row first when nothing has
  // run yet, then every step's row.
  template <class Sink>
  void run(const Octree& octree, Sink&& sink) {
    if (stepIndex_ == 0) sink(initialRow());
    while (!finished()) sink(step(octree));
  }

  uint64_t totalSteps() const { return totalSteps_; }
  double stepSeconds() const { return 1.0 / hz_; }
  const CharacterController& controller() const { return *controller_; }
  CharacterController& controller() { return *controller_; }
  // Keys and view of the last step (for the UI).
  const CharacterInput& lastInput() const { return input_; }
  const std::vector<ThrowRecord>& throws() const { return throws_; }
  const Script& script() const { return script_; }

 private:
  ScriptRunner(const Script& script, const ControllerParams& params, const ThrowParams& throwing,
               const glm::vec3& levelSpawn, float levelSpawnYaw, float killPlaneY,
               CharacterController* external);
  void apply(const ScriptEvent& e);

  Script script_;
  std::optional<CharacterController> ownController_;  // only when no controller was given
  CharacterController* controller_ = nullptr;         // *ownController_ or the one given
  ThrowParams throwing_;
  CharacterInput input_;
  double hz_ = 120.0;
  uint64_t totalSteps_ = 0;
  uint64_t stepIndex_ = 0;
  size_t nextEvent_ = 0;
  float yawDeg_ = 0.0f;
  float pitchDeg_ = 0.0f;
  bool held_[kScriptKeyCount] = {};
  bool tapped_[kScriptKeyCount] = {};
  std::vector<ThrowRecord> throws_;
};

// Convenience for the headless demo and the tests: runs the whole script and returns the trace
// CSV (header + rows).
std::string runScriptToCsv(const Script& script, const ControllerParams& params,
                           const Octree& octree, const glm::vec3& levelSpawn, float levelSpawnYaw,
                           float killPlaneY);

}  // namespace ofps
