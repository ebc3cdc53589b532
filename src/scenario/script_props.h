#pragma once
// Props driven by a controller script (docs/script-format.md): `prop` lines placed before
// the run, `throw` commands recorded by the ScriptRunner, the `--props OUT.csv` and
// `--props-trace OUT.csv` files. Used by the headless and the windowed demo alike, so both give
// the same files.
//
// Order within one fixed step (tick of dt = 1/tick_hz):
//   1. ScriptRunner::step (commands due, then the controller step; a `throw` is recorded with the
//      eye and velocity of the start of that step);
//   2. ScriptProps::afterRunnerStep: the throws recorded by that step are added (ids after the
//      placed props, in throw order), then PropsWorld::step(dt) with the character's capsule;
//   3. one `--props-trace` row per prop at the end of the step (t = end of the step, as the
//      controller trace's rows).
// Deterministic: same script, level and build -> same files.
//
// Frame and units: world space, metres, seconds. Thread-safety: plain values, one thread.

#include <cstddef>
#include <string>

#include "octree_fps/props/props_world.h"
#include "scenario/script.h"
#include "scenario/script_runner.h"

namespace ofps {

// Adds Script::props to the world in file order (ids 0..n-1 when the world was empty).
void addScriptProps(PropsWorld& ioWorld, const Script& script);

// The character's capsule as the props see it (segment, radius, velocity) after its last step.
CharacterCapsule characterCapsule(const CharacterController& controller);

// One gravity for the world: the props take the controller's (a script's `set gravity`, the
// panel's slider). Call before each PropsWorld::step; a no-op while they agree.
void followControllerGravity(PropsWorld& ioWorld, const ControllerParams& params);

class ScriptProps {
 public:
  // Adds the script's placed props to `world` (which the caller owns and must outlive this).
  // killPlaneY: the level's kill plane (killPlaneY(level)); props below it are removed.
  ScriptProps(const Script& script, PropsWorld& world, float killPlaneY);

  // Call once after every ScriptRunner::step() with the row it returned: adds its new throws
  // and steps the props by runner.stepSeconds(). When ioTrace is not null, appends the step's
  // --props-trace rows at row.t (positions + origin: a level's local frame, Level::origin).
  void afterRunnerStep(const ScriptRunner& runner, const Octree& octree, const TraceRow& row,
                       std::string* ioTrace = nullptr, const glm::dvec3& origin = glm::dvec3(0.0));

 private:
  PropsWorld* world_;
  size_t throwsConsumed_ = 0;
};

// Runs a whole script headless with props: the controller trace (runScriptToCsv's text), the
// props file and the props trace (headers included). Any output pointer may be null.
void runScriptWithProps(const Script& script, const ControllerParams& params,
                        const ThrowParams& throwing, const Octree& octree,
                        const glm::vec3& levelSpawn, float levelSpawnYaw, float killPlaneY,
                        const PropsParams& propsParams, std::string* outTrace,
                        std::string* outProps, std::string* outPropsTrace,
                        PropsWorld* outWorld = nullptr);

}  // namespace ofps
