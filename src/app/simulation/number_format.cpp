#include "app/simulation/number_format.h"

#include <cmath>
#include <cstdio>
#include <cstring>

namespace ofps::app {

const char* grouped(uint64_t v, char (&buf)[32]) {
  char raw[32];
  std::snprintf(raw, sizeof raw, "%llu", static_cast<unsigned long long>(v));
  const int len = static_cast<int>(std::strlen(raw));
  int o = 0;
  for (int i = 0; i < len; ++i) {
    if (i > 0 && (len - i) % 3 == 0) buf[o++] = ',';
    buf[o++] = raw[i];
  }
  buf[o] = '\0';
  return buf;
}

std::string withCommas(uint64_t v) {
  char buf[32];
  return grouped(v, buf);
}

std::string withCommas(double v) {
  const long long r = std::llround(v);
  const uint64_t magnitude = r < 0 ? 0ull - static_cast<uint64_t>(r) : static_cast<uint64_t>(r);
  return (r < 0 ? "-" : "") + withCommas(magnitude);
}

}  // namespace ofps::app
