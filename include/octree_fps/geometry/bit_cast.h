#pragma once
// ofps::bitCast<To>(from): the object representation of `from` read as a `To` of the same size,
// as C++20's std::bit_cast. The core uses the compiler builtin that std::bit_cast is written
// with (GCC 11+, Clang 9+, MSVC 19.27+) because not every standard library ships std::bit_cast
// yet (Emscripten 3.1.6's libc++ 13 does not). constexpr, no undefined behaviour, no cost.
#include <type_traits>

namespace ofps {

template <class To, class From>
constexpr To bitCast(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From), "bitCast: the two types differ in size");
  static_assert(std::is_trivially_copyable_v<To> && std::is_trivially_copyable_v<From>,
                "bitCast: both types must be trivially copyable");
  return __builtin_bit_cast(To, from);
}

}  // namespace ofps
