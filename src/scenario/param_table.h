#pragma once
// The demo's one parameter table: every tunable a script can `set` (docs/script-format.md), the
// panel shows as a slider and explains in a help marker. It covers three structs, each with its
// own owner: the character controller's (ControllerParams), the thrown props' (ThrowParams) and
// the octree's build (OctreeBuildParams). ScenarioParams holds one of each, so a script and a
// slider change the same value and nothing keeps a second copy that could go stale.
//
// Units as the script writes them: metres, seconds, degrees (max_slope), Hz. Thread-safety: the
// table is constant; the functions are pure (they touch only their arguments). Lookups by name
// are linear in the table's rows (a couple of dozen); nothing allocates except error messages.
// Errors (unknown name, out of range, not an integer, parameters that do not fit together) are
// returned as false with a message, never thrown.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "octree_fps/controller/controller_params.h"
#include "octree_fps/spatial/octree.h"
#include "scenario/throw_params.h"

namespace ofps {

// The demo's tunables: one struct per owner. The demo rebuilds the octree from `octree`, gives
// the controller `controller` and throws with `throwing`.
struct ScenarioParams {
  ControllerParams controller;
  ThrowParams throwing;
  OctreeBuildParams octree;
};

// Whose struct a row changes: what a change must update (the controller's copy, nothing, or a
// rebuild of the octree).
enum class ParamOwner : uint8_t { Controller, Throw, Octree };

// One row of the table.
struct ParamInfo {
  const char* name;  // docs/script-format.md name, e.g. "max_slope"
  const char* unit;  // "m", "m/s", "deg", "Hz", "" ...
  float minValue;    // inclusive range accepted by setParam, and every slider's range
  float maxValue;
  bool isInteger;  // stored as uint32_t (triangles_per_leaf, max_level)
  ParamOwner owner;
  const char* help;  // one line for the UI's help marker
  // The value in a parameter set, as a float; and the field itself: exactly one of floatField
  // and intField is non-null (intField when isInteger).
  float (*read)(const ScenarioParams&);
  float* (*floatField)(ScenarioParams&);
  uint32_t* (*intField)(ScenarioParams&);
};

// Every parameter, in docs/script-format.md order.
std::span<const ParamInfo> paramInfos();
// The row for `name`, or nullptr.
const ParamInfo* findParam(std::string_view name);

// A parameter's value as a float (integers converted).
float paramValue(const ScenarioParams& params, const ParamInfo& info);
// Reads a parameter by name. Returns false for an unknown name.
bool getParam(const ScenarioParams& params, std::string_view name, float& outValue);

// Sets one parameter. Returns false with a message in *outError (if given) for an unknown name,
// a non-finite value, a value outside [minValue, maxValue] or a non-integer for an integer
// parameter; params is then unchanged. Does not check relations between parameters: call
// validateParams() once all are set.
bool setParam(ScenarioParams& params, const ParamInfo& info, float value,
              std::string* outError = nullptr);
bool setParam(ScenarioParams& params, std::string_view name, float value,
              std::string* outError = nullptr);

// One bit per row of paramInfos() (bit i: row i), for the set of parameters a user set.
using ParamMask = uint32_t;
// The bit of `name`, or 0 for an unknown name.
ParamMask paramBit(std::string_view name);

// The controller's dependent defaults (applyDependentDefaults in controller_params.h) for the
// capsule parameters not in `set`, starting from `base`. Other parameters have none.
void applyDependentDefaults(ScenarioParams& ioParams, ParamMask set,
                            const ScenarioParams& base = {});

// Every row within the table's range, then the controller's own checks (validateParams in
// controller_params.h). Returns false with a message naming the parameter.
bool validateParams(const ScenarioParams& params, std::string* outError = nullptr);

}  // namespace ofps
