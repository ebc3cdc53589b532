#include "app/overlay/overlay_colors.h"

#include <algorithm>

namespace ofps::app {

glm::vec4 octreeDepthColor(uint32_t depth) {
  static constexpr glm::vec4 ramp[kDepthColorCount] = {
      {1.00f, 0.25f, 0.20f, 0.9f}, {1.00f, 0.60f, 0.10f, 0.9f}, {0.95f, 0.90f, 0.15f, 0.9f},
      {0.40f, 0.90f, 0.25f, 0.9f}, {0.15f, 0.85f, 0.80f, 0.9f}, {0.25f, 0.55f, 1.00f, 0.9f},
      {0.55f, 0.35f, 1.00f, 0.9f}, {0.90f, 0.35f, 0.90f, 0.9f}};
  return ramp[depth % kDepthColorCount];
}

DepthRange defaultOverlayDepths(std::span<const uint32_t> nodesPerDepth) {
  const int deepest = static_cast<int>(nodesPerDepth.size()) - 1;
  if (deepest <= 0) return {0, 0};
  const int span = std::min(kDefaultDepthSpan, deepest + 1);
  // The window [lo, lo + span - 1] centred on deepest / 2, inside [0, deepest].
  int lo = std::clamp(deepest / 2 - (span - 1) / 2, 0, deepest - span + 1);
  const auto boxes = [&](int first) {
    uint64_t n = 0;
    for (int d = first; d < first + span; ++d) n += nodesPerDepth[static_cast<size_t>(d)];
    return n;
  };
  while (lo > 0 && boxes(lo) > kDefaultBoxBudget) --lo;
  return {lo, lo + span - 1};
}

glm::vec4 gridOccupancyColor(uint32_t objects) {
  // Blue (one object) through green and yellow to red (kGridOccupancyTop or more).
  static constexpr glm::vec4 stops[] = {{0.20f, 0.45f, 1.00f, 0.9f},
                                        {0.20f, 0.90f, 0.45f, 0.9f},
                                        {1.00f, 0.90f, 0.15f, 0.9f},
                                        {1.00f, 0.25f, 0.15f, 0.9f}};
  constexpr float kLast = static_cast<float>(std::size(stops) - 1);
  const float t =
      std::clamp((static_cast<float>(objects) - 1.0f) / static_cast<float>(kGridOccupancyTop - 1),
                 0.0f, 1.0f) *
      kLast;
  const auto i = std::min(static_cast<size_t>(t), std::size(stops) - 2);
  const float f = t - static_cast<float>(i);
  return stops[i] * (1.0f - f) + stops[i + 1] * f;
}

}  // namespace ofps::app
