#pragma once
// Internal (src/octree_fps; not installed): a whole token read as a float or double, rounded
// to nearest, with the same answer on every platform. std::from_chars where the standard library
// has its floating-point overloads (libstdc++ 11+, MSVC); elsewhere (Emscripten 3.1.6's libc++
// 13) strtof/strtod on a terminated copy, which glibc, musl and MinGW-w64 also round correctly,
// limited to what from_chars accepts: no leading '+' or blank, no hexadecimal. Locale: the
// programs never call setlocale, so strtod reads '.' as the decimal point.
#include <charconv>
#include <cstdlib>
#include <string>
#include <string_view>
#include <system_error>

namespace ofps::detail {

template <class T>
bool parseWholeNumber(std::string_view tok, T& out) {
  if (tok.empty()) return false;
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L
  const auto res = std::from_chars(tok.data(), tok.data() + tok.size(), out);
  return res.ec == std::errc() && res.ptr == tok.data() + tok.size();
#else
  if (tok.front() == '+' || tok.front() == ' ' || tok.front() == '\t') return false;
  if (tok.find_first_of("xX") != std::string_view::npos) return false;
  const std::string copy(tok);
  char* end = nullptr;
  T value;
  if constexpr (sizeof(T) == sizeof(float)) {
    value = std::strtof(copy.c_str(), &end);
  } else {
    value = std::strtod(copy.c_str(), &end);
  }
  if (end != copy.c_str() + copy.size()) return false;
  // from_chars reports out-of-range values as an error and leaves out alone; strto* returns
  // +-HUGE_VAL (or a denormal/zero) with ERANGE. Treat overflow the same way from_chars does.
  if (value == static_cast<T>(HUGE_VAL) || value == -static_cast<T>(HUGE_VAL)) {
    if (copy.find_first_of("iInN") == std::string::npos) return false;
  }
  out = value;
  return true;
#endif
}

}  // namespace ofps::detail
