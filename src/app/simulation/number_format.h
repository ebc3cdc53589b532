#pragma once
// The one way the demo writes a count: thousands grouped with commas ("1,234,567"), in the
// panel, the toasts, --stats-json's text lines and the terminal alike. Thread-safe (no state).
#include <cstdint>
#include <string>

namespace ofps::app {

// `v` grouped, written into buf, which is returned (no allocation: the panel calls it per frame).
const char* grouped(uint64_t v, char (&buf)[32]);
// The same as a string; a double is rounded to the nearest integer first, and keeps its sign.
std::string withCommas(uint64_t v);
std::string withCommas(double v);

}  // namespace ofps::app
