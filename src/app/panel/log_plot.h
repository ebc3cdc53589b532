#pragma once
// Helpers for the panel's log-scale plots (work_panel.cpp, teams_plot.cpp): the octree's work
// and brute force's differ by orders of magnitude, so the plots show log10 of a count, with
// axis labels at powers of ten.
#include <cmath>
#include <cstdio>

namespace ofps::app {

// log10 of a count; counts below 1 (nothing done) sit on the 10^0 line.
inline float log10Count(double v) {
  return v > 1.0 ? static_cast<float>(std::log10(v)) : 0.0f;
}

// "1", "10", "100", "1k", ... "100G" for 10^exponent (exponent 0..11).
inline const char* powerOfTenLabel(int exponent, char (&buf)[16]) {
  static const char* const kSuffix[] = {"", "k", "M", "G"};
  const int group = exponent < 0 ? 0 : (exponent / 3 > 3 ? 3 : exponent / 3);
  const int digits = exponent - group * 3;
  int mantissa = 1;
  for (int i = 0; i < digits; ++i) mantissa *= 10;
  std::snprintf(buf, sizeof buf, "%d%s", mantissa, kSuffix[group]);
  return buf;
}

}  // namespace ofps::app
