#pragma once
// The start block's headline, the point of the project in two lines: what the octree tested this
// frame beside what brute force would test, for the character's queries (the last fixed step)
// and for culling the view. One function computes it, so the panel and --stats-json's
// "view.headline" say the same numbers. Main thread.
#include <cstdint>
#include <string>

#include "app/window/demo_state.h"

namespace ofps::app {

struct Headline {
  // The character's queries in the last step (ControllerStepStats): node boxes entered,
  // triangles tested, and brute force's queries x the level's triangles.
  uint32_t queries = 0;
  uint32_t queryBoxes = 0;
  uint32_t queryTriangles = 0;
  uint64_t queryBrute = 0;
  // The frustum cull of this frame (CullStats): node boxes visited (0 with culling off). It
  // tests no triangle one by one (a visible node's triangles are drawn as one range); brute
  // force tests every drawable triangle against the frustum.
  bool culling = true;
  uint32_t cullBoxes = 0;
  uint64_t cullBrute = 0;
  uint32_t drawn = 0;  // triangles drawn (after occlusion, when on)
  uint32_t total = 0;  // drawable triangles of the level
};

Headline headlineOf(const DemoState& s);
// The two lines as the start block writes them (thousands grouped with commas).
std::string headlineQueryLine(const Headline& h);
std::string headlineCullLine(const Headline& h);

}  // namespace ofps::app
