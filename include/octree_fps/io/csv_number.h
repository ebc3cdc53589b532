#pragma once
// Numbers in the project's CSV files (controller traces, props files): "%.9g", which reads back
// as the same float. A position written in a far level's file coordinates (a float plus the
// level's whole-metre local-frame offset, the repository's src/level/level_origin.h) gets one more
// significant digit per whole digit of the offset, which keeps nine decimal places (1e-9 m): enough
// to name the same float for every local value of 1 m or more (smaller ones to 1e-9 m). Offset 0
// writes exactly "%.9g". Pure function.
#include <cmath>
#include <cstdio>
#include <string>

namespace ofps {

inline void appendCsvNumber(std::string& out, double value, double offset = 0.0) {
  int digits = 9;
  const double whole = std::abs(offset);
  if (whole >= 1.0 && std::isfinite(whole)) digits += static_cast<int>(std::log10(whole)) + 1;
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*g", digits, value);
  out += buf;
}

}  // namespace ofps
