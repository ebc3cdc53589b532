#pragma once
// Parser for the controller's input scripts (docs/script-format.md): parameters, spawn,
// props and timed key/look/fly/throw commands. Text in, a plain value out; never throws.
// A script is untrusted input: every error names the line ("walk.script:12: unknown key 'jmp'")
// and the caller exits with status 2 without simulating anything.
//
// Units as in the file: times in seconds, lengths in metres, ANGLES IN DEGREES (converted to
// radians by the runner, script_runner.h). Y up; yaw 0 looks along -Z, 90 along -X.
//
// `prop` and `throw` are parsed and kept (Script::props; ScriptRunner records each throw), but
// the controller does not simulate props: that is the props system's job.
//
// Rules checked here beyond docs/script-format.md's grammar (each an error naming the line):
// - `set`, `spawn` and `prop` come before the first `at`; `spawn` at most once;
// - a `set` value must lie in the parameter's range (paramInfos(), param_table.h), and the base
//   parameters with every `set` applied must pass validateParams() (reported at the last `set`);
// - times are finite and >= 0; an `at` time smaller than the one before it is an error
//   ("goes backwards"); `end` is required, comes last, and is not earlier than any `at`;
// - numbers must be whole tokens ("1.5x" is an error); extra tokens are errors.

#include <cstdint>
#include <glm/ext/vector_double3.hpp>
#include <glm/vec3.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "scenario/param_table.h"

namespace ofps {

enum class ScriptKey : uint8_t { Forward, Back, Left, Right, Jump, Sprint, Crouch };
inline constexpr uint32_t kScriptKeyCount = 7;
const char* scriptKeyName(ScriptKey key);  // "forward", ...

enum class ScriptAction : uint8_t {
  Hold,     // key held from now on
  Release,  // key released
  Tap,      // key held for exactly one simulation step
  Look,     // absolute view angles: a = yaw, b = pitch (degrees)
  Turn,     // relative: a = dyaw, b = dpitch (degrees), as a mouse would
  Fly,      // on = fly mode on/off
  Throw,    // throw a sphere from the eye along the view
};

struct ScriptEvent {
  double time = 0.0;  // s; takes effect at the first step starting at or after it
  ScriptAction action = ScriptAction::Hold;
  ScriptKey key = ScriptKey::Forward;  // Hold, Release, Tap
  float a = 0.0f;                      // Look, Turn: yaw (degrees)
  float b = 0.0f;                      // Look, Turn: pitch (degrees)
  bool on = false;                     // Fly
  uint32_t line = 0;                   // 1-based source line
};

struct ScriptParam {
  std::string name;  // docs/script-format.md name, e.g. "step_height" (known to be valid)
  float value = 0.0f;
  uint32_t line = 0;
};

struct ScriptSpawn {
  glm::vec3 feet{0.0f};               // m
  std::optional<float> yawDegrees;    // absent: the level's spawn yaw
  std::optional<float> pitchDegrees;  // absent: 0
  uint32_t line = 0;
};

// Limits of `spawn` and `prop` lines (docs/script-format.md): every number must fit a 32-bit
// float; positions within kMaxScriptCoordinate of the origin (the level loader's limit, far
// beyond where float spacing stays useful); a prop's radius or half-extents within
// [kMinPropSize, kMaxPropSize].
inline constexpr double kMaxScriptCoordinate = 1.0e7;  // m
inline constexpr double kMinPropSize = 0.001;          // m (throw_radius's lower bound)
inline constexpr double kMaxPropSize = 1000.0;         // m

struct ScriptProp {
  enum class Shape : uint8_t { Sphere, Box };
  Shape shape = Shape::Sphere;
  glm::vec3 center{0.0f};       // m
  glm::vec3 halfExtents{0.0f};  // m; a sphere's radius three times
  glm::vec3 velocity{0.0f};     // m/s
  uint32_t line = 0;
};

struct Script {
  std::vector<ScriptParam> params;  // `set` lines in file order
  std::optional<ScriptSpawn> spawn;
  std::vector<ScriptProp> props;    // numbered from 0 in file order
  std::vector<ScriptEvent> events;  // `at` lines in file order (times non-decreasing)
  double endTime = 0.0;             // s
  uint32_t endLine = 0;

  // Applies every `set` to ioParams (in file order: controller, thrown props and octree alike),
  // the controller's dependent defaults, and validates the result. Fails only when ioParams did
  // not start from values the script was checked against (see parseScript).
  bool applyParams(ScenarioParams& ioParams, std::string* outError = nullptr) const;
  // The same script with every position (spawn, props) moved by `offset`, metres, computed in
  // double: from the level file's coordinates into a level's local frame (offset = -origin).
  Script translated(const glm::dvec3& offset) const;
};

struct ScriptParseResult {
  bool ok = false;
  std::string error;  // "NAME:LINE: message" when !ok
  Script script;
};

// Parses script text. `name` prefixes messages (the file name). `base` is the parameter set the
// `set` lines will be applied to (the demo's current values); it is used to check relations
// between parameters (e.g. crouch_height <= height).
ScriptParseResult parseScript(std::string_view text, std::string_view name = "script",
                              const ScenarioParams& base = {});
// Reads and parses a file; a missing file is an error like a bad line (line 0).
ScriptParseResult readScript(const std::string& path, const ScenarioParams& base = {});

}  // namespace ofps
