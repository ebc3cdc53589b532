#pragma once
// SplitMix64 (Steele, Lea and Flood, "Fast Splittable Pseudorandom Number Generators", OOPSLA
// 2014; the constants of Vigna's public-domain splitmix64.c): a small generator with the same
// sequence on every platform and compiler, for seeded scenes (props, the two-teams demo), and its
// finalizer, a 64-bit mix in which every input bit affects every output bit (the hash grid's key
// hash). Not for cryptography. Plain value type: copy it to fork a sequence; no allocation,
// nothing thrown; one instance per thread.
#include <cstdint>

namespace ofps {

struct SplitMix64 {
  uint64_t state = 0;

  // The finalizer alone (a bijection on 64-bit values).
  static constexpr uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t next() { return mix(state += 0x9e3779b97f4a7c15ull); }
  // Uniform in [0, 1): the top 24 bits, so every value is an exact float.
  float uniform() { return static_cast<float>(next() >> 40) * (1.0f / 16777216.0f); }
  // Uniform in [a, b) (a + (b - a) * uniform(), rounded once more).
  float uniform(float a, float b) { return a + (b - a) * uniform(); }
};

}  // namespace ofps
