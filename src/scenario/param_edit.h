#pragma once
// A UI's view of the parameter table (param_table.h): each row's slider and what an edit must
// update. The panel draws what paramSlider() says and applies editParam()'s result, so its
// ranges, its values and a script's `set` lines all come from the same table and the same
// ScenarioParams. No UI library here, so the tests check exactly what the panel shows.
// Thread-safety: pure functions of their arguments.
#include <string>

#include "scenario/param_table.h"

namespace ofps {

// How a row is drawn: the table's range, as an integer slider for integer rows; logarithmic
// where the range spans two decades or more (triangles_per_leaf: 1-1024).
struct ParamSlider {
  float minValue = 0.0f;
  float maxValue = 0.0f;
  bool integer = false;
  bool logarithmic = false;
};
ParamSlider paramSlider(const ParamInfo& info);

// Sets one row from a UI control and checks the whole set (validateParams). On success returns
// true: the row's owner (info.owner) must take the new value (the controller its parameters, the
// octree a rebuild). On failure params is unchanged (e.g. a crouch height above the height) and
// *outError says why.
bool editParam(ScenarioParams& ioParams, const ParamInfo& info, float value,
               std::string* outError = nullptr);

}  // namespace ofps
