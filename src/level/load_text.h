#pragma once
// Small string helpers of the level loader's parts (loader-internal): case folding, matching,
// and numbers formatted for messages ("%.6g").
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <glm/vec3.hpp>
#include <string>

namespace ofps::loader {

inline std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

inline bool startsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}
inline bool contains(const std::string& s, const char* part) {
  return s.find(part) != std::string::npos;
}
inline bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

inline std::string fmtFloat(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

// v rounded to a whole number, thousands grouped with commas ("1,936"), for sizes read by people.
inline std::string fmtRounded(double v) {
  char raw[48];
  std::snprintf(raw, sizeof raw, "%.0f", v);
  const std::string digits(raw);
  const size_t sign = !digits.empty() && digits[0] == '-' ? 1 : 0;
  std::string out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > sign && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

inline std::string fmtVec(const glm::dvec3& v) {
  return "(" + fmtFloat(v.x) + ", " + fmtFloat(v.y) + ", " + fmtFloat(v.z) + ")";
}

inline std::string countWord(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace ofps::loader
