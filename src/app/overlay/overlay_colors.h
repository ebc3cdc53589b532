#pragma once
// Colours and default ranges shared by the view's overlays (octree_overlay.cpp, grid_overlay.cpp)
// and their legends (overlay_panel.cpp, hud_overlay.cpp), so a legend always shows the colour
// its overlay draws. GL-free: tested headless (tests/app/overlay/overlay_colors_test.cpp).
#include <cstdint>
#include <glm/vec4.hpp>
#include <span>

namespace ofps::app {

// The octree overlay's colour of a node at `depth` (root = 0): a hue ramp, shallow red to deep
// violet, repeating every kDepthColorCount depths.
inline constexpr uint32_t kDepthColorCount = 8;
glm::vec4 octreeDepthColor(uint32_t depth);

// The depth range the overlay starts with after a level load or rebuild: kDefaultDepthSpan
// consecutive depths, centred on the middle of [0, deepest], moved shallower while the range
// holds more than kDefaultBoxBudget nodes (a screen of thousands of boxes reads as noise).
// nodesPerDepth[d] is the number of nodes at depth d; its size is the tree's depth + 1.
struct DepthRange {
  int min = 0;
  int max = 0;
};
inline constexpr int kDefaultDepthSpan = 3;
inline constexpr uint64_t kDefaultBoxBudget = 1500;
DepthRange defaultOverlayDepths(std::span<const uint32_t> nodesPerDepth);

// The Q view's colours: triangles the queries tested, those the character touches, and its
// capsule. The depth ramp spans the hues, so the Q view draws its node boxes faint
// (kQueryBoxAlpha) and the contacts black (hatched), which no depth uses and which stands out on
// the light floors the character mostly touches.
inline constexpr glm::vec4 kTestedTriangleColor{0.95f, 0.25f, 0.90f, 1.0f};
inline constexpr glm::vec4 kContactTriangleColor{0.02f, 0.02f, 0.02f, 1.0f};
inline constexpr glm::vec4 kCapsuleColor{0.20f, 1.00f, 0.45f, 1.0f};
inline constexpr float kQueryBoxAlpha = 0.3f;
// Frozen view (V): what occlusion culled, level triangles (as a tint, alpha 0.75) and props.
inline constexpr glm::vec4 kOccludedColor{1.0f, 0.08f, 0.05f, 1.0f};

// The props grid view: an occupied cell coloured by how many objects it holds (1 -> cool,
// kGridOccupancyTop or more -> hot), and the cells a radius query visited.
inline constexpr uint32_t kGridOccupancyTop = 8;
glm::vec4 gridOccupancyColor(uint32_t objects);
inline constexpr glm::vec4 kGridVisitedColor{1.0f, 1.0f, 1.0f, 1.0f};

}  // namespace ofps::app
