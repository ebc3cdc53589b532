#pragma once
// The octree's quantization grid (internal to src/octree_fps/spatial): node boxes are stored as
// 16-bit steps, value(q) = origin + float(q) * scale per axis (octree.h, "Layout"). value() is the
// very float expression the SIMD traversal evaluates (octree_core is compiled with
// -ffp-contract=off), and it is monotone non-decreasing in q. Hence, for any float v:
//   value(q) <= v  <=>  q <= down(v)        and        value(q) >= v  <=>  q >= up(v)
// which is what lets a query compare 16-bit steps directly instead of dequantizing boxes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace ofps::detail {

inline constexpr uint32_t kQuantMax = 65535;

struct QuantAxis {
  float origin = 0.0f;
  float scale = 0.0f;
  float invScale = 0.0f;  // 1 / scale (0 for a flat axis); only speeds up down() and up()

  float value(uint32_t q) const { return origin + static_cast<float>(q) * scale; }

  // Grid spanning [lo, hi]: value(0) == lo and value(kQuantMax) >= hi (lo <= hi, finite).
  static QuantAxis spanning(float lo, float hi) {
    QuantAxis a{
        lo, static_cast<float>((static_cast<double>(hi) - static_cast<double>(lo)) / kQuantMax)};
    if (a.value(kQuantMax) < hi) {
      a.scale = std::max(a.scale, std::numeric_limits<float>::denorm_min());
      for (int i = 0; i < 64 && a.value(kQuantMax) < hi; ++i) {
        a.scale = std::nextafter(a.scale, std::numeric_limits<float>::infinity());
      }
      while (a.value(kQuantMax) < hi) a.scale *= 2.0f;
    }
    a.invScale = inverse(a.scale);
    return a;
  }
  static float inverse(float scale) {
    const float inv = scale > 0.0f ? 1.0f / scale : 0.0f;
    return std::isfinite(inv) ? inv : 0.0f;
  }

  // Largest q with value(q) <= v; -1 when there is none (v below the grid, or NaN).
  // O(1) when value() is close to linear near v, else a 16-step binary search (rounding
  // plateaus far from the origin, a flat axis).
  int32_t down(float v) const {
    if (!(value(0) <= v)) return -1;
    if (value(kQuantMax) <= v) return static_cast<int32_t>(kQuantMax);
    uint32_t q = guess(v, false);
    if (value(q) <= v && value(q + 1) > v) return static_cast<int32_t>(q);
    uint32_t lo = 0, hi = kQuantMax;  // value(lo) <= v < value(hi)
    while (hi - lo > 1) {
      const uint32_t mid = (lo + hi) / 2;
      (value(mid) <= v ? lo : hi) = mid;
    }
    return static_cast<int32_t>(lo);
  }

  // Smallest q with value(q) >= v; kQuantMax + 1 when there is none (v above the grid, or NaN).
  int32_t up(float v) const {
    if (!(value(kQuantMax) >= v)) return static_cast<int32_t>(kQuantMax) + 1;
    if (value(0) >= v) return 0;
    uint32_t q = guess(v, true);
    if (value(q) >= v && value(q - 1) < v) return static_cast<int32_t>(q);
    uint32_t lo = 0, hi = kQuantMax;  // value(lo) < v <= value(hi)
    while (hi - lo > 1) {
      const uint32_t mid = (lo + hi) / 2;
      (value(mid) >= v ? hi : lo) = mid;
    }
    return static_cast<int32_t>(hi);
  }

 private:
  // Linear estimate, rounded down (or up) and kept in [1, kQuantMax - 1]. Any value will do (the
  // callers check it); a good one saves the binary search. Float only: this runs per query.
  uint32_t guess(float v, bool roundUp) const {
    const float e = (v - origin) * invScale;
    if (!(e > 1.0f)) return 1u;
    if (!(e < static_cast<float>(kQuantMax - 1))) return kQuantMax - 1;
    const uint32_t t = static_cast<uint32_t>(e);  // e > 1: truncation is floor
    return roundUp && static_cast<float>(t) < e ? t + 1 : t;
  }
};

}  // namespace ofps::detail
