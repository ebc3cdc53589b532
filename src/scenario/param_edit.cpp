#include "scenario/param_edit.h"

#include <algorithm>

namespace ofps {

ParamSlider paramSlider(const ParamInfo& info) {
  ParamSlider s;
  s.minValue = info.minValue;
  s.maxValue = info.maxValue;
  s.integer = info.isInteger;
  s.logarithmic = info.maxValue >= 100.0f * std::max(info.minValue, 1.0f) && info.isInteger;
  return s;
}

bool editParam(ScenarioParams& ioParams, const ParamInfo& info, float value,
               std::string* outError) {
  ScenarioParams trial = ioParams;
  if (!setParam(trial, info, value, outError)) return false;
  if (!validateParams(trial, outError)) return false;
  ioParams = trial;
  return true;
}

}  // namespace ofps
