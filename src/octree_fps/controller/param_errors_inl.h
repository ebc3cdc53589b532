#pragma once
// The bool + std::string* outError reporting shared by the parameter checks of the controller
// (controller_params.cpp) and the scenario's parameter table (scenario/param_table.cpp), so that
// both write a value the same way in their messages. Internal: include it from .cpp files.

#include <cstdio>
#include <string>

namespace ofps {

// outError may be null (the caller only wants the bool).
inline void setError(std::string* outError, const std::string& message) {
  if (outError) *outError = message;
}

// A value as a message shows it: "%g", so 0.35 reads 0.35, not 0.349999994.
inline std::string fmt(float v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", static_cast<double>(v));
  return buf;
}

}  // namespace ofps
