// The top of the panel, always first and always open: the level (name and size), one line of
// keys, and the headline: what the octree tested this frame beside what brute force would
// test. A newcomer reads how to move and what the octree saves before any internals.
#include <imgui.h>

#include <cstdio>
#include <filesystem>
#include <glm/geometric.hpp>

#include "app/panel/headline.h"
#include "app/panel/panel_sections.h"
#include "app/panel/panel_widgets.h"
#include "app/window/demo_state.h"

namespace ofps::app {

Headline headlineOf(const DemoState& s) {
  Headline h;
  if (!s.level.session) return h;
  const LevelSession& l = *s.level.session;
  const ControllerStepStats& st = s.sim.controller().lastStepStats();
  h.queries = st.queryCount;
  h.queryBoxes = st.queries.nodesVisited;
  h.queryTriangles = st.queries.trianglesTested;
  h.queryBrute = static_cast<uint64_t>(st.queryCount) * l.octree.triangleCount();
  h.culling = s.culling.enabled;
  h.cullBoxes = s.culling.enabled ? s.culling.stats.nodesVisited : 0;
  h.total = l.drawRanges.drawnTriangles();
  h.cullBrute = h.total;
  h.drawn = s.culling.runs.triangles;
  return h;
}

std::string headlineQueryLine(const Headline& h) {
  char a[32], b[32], c[32], line[256];
  if (h.queries == 0) {
    // Flying (F): the character asks nothing, so there is nothing to compare.
    return "character: no queries this step (flying: F lands)";
  }
  std::snprintf(line, sizeof line,
                "character: the octree tested %s boxes and %s triangles; brute force would test %s",
                grouped(h.queryBoxes, a), grouped(h.queryTriangles, b), grouped(h.queryBrute, c));
  return line;
}

std::string headlineCullLine(const Headline& h) {
  char a[32], b[32], c[32], line[256];
  if (!h.culling) {
    std::snprintf(line, sizeof line, "culling off (C): every one of the %s triangles is drawn",
                  grouped(h.total, a));
    return line;
  }
  // No triangle is tested one by one: a visible node's triangles are drawn as one range.
  std::snprintf(line, sizeof line,
                "culling: the octree tested %s boxes to pick %s triangles to draw; brute force "
                "would test %s",
                grouped(h.cullBoxes, a), grouped(h.drawn, c), grouped(h.cullBrute, b));
  return line;
}

void startBlock(DemoState& s) {
  const LevelSession& l = *s.level.session;
  const Level& level = l.level;
  const glm::vec3 size = level.boundsMax - level.boundsMin;
  char a[32];
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.85f, 0.45f, 1.0f));
  textf("%s", std::filesystem::path(level.path).filename().string().c_str());
  ImGui::PopStyleColor();
  ImGui::SameLine();
  // U+00A0 (no-break space) between a key and its word, and inside the size: ImGui wraps at
  // plain spaces only, so "Q queries" or "416 x 166 x 416 m" never splits across lines.
  textDisabledf("%s triangles, %.0f\xC2\xA0x\xC2\xA0%.0f\xC2\xA0x\xC2\xA0%.0f\xC2\xA0m",
                grouped(l.octree.triangleCount(), a), static_cast<double>(size.x),
                static_cast<double>(size.y), static_cast<double>(size.z));
  textf(
      "click\xC2\xA0to\xC2\xA0look \xC2\xB7 WASD \xC2\xB7 Space \xC2\xB7 O\xC2\xA0octree \xC2\xB7 "
      "Q\xC2\xA0queries \xC2\xB7 B\xC2\xA0grid \xC2\xB7 P\xC2\xA0probe \xC2\xB7 G\xC2\xA0props "
      "\xC2\xB7 H\xC2\xA0panel \xC2\xB7 F1\xC2\xA0help");
  const Headline h = headlineOf(s);
  ImGui::Spacing();
  textDisabledf("this frame:");
  const ImVec4 green(0.55f, 0.9f, 0.6f, 1.0f);
  textColoredf(green, "%s", headlineQueryLine(h).c_str());
  textColoredf(green, "%s", headlineCullLine(h).c_str());
  if (ImGui::SmallButton(s.ui.showHelp ? "hide the keys (F1)" : "all keys (F1)")) {
    s.ui.showHelp = !s.ui.showHelp;
  }
  ImGui::Spacing();
}

}  // namespace ofps::app
