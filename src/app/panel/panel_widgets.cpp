// The panel's shared widgets (panel_widgets.h).
#include "app/panel/panel_widgets.h"

#include <imgui.h>

#include <cstdio>
#include <cstring>

namespace ofps::app {

void markerAfterItem() {
  ImGui::SameLine();
  // The panel wraps its text: a marker that does not fit after the item goes to the next line
  // whole instead of being wrapped a character at a time.
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize("(?)").x) ImGui::NewLine();
  ImGui::PushTextWrapPos(-1.0f);
  ImGui::TextDisabled("(?)");
  ImGui::PopTextWrapPos();
}

void helpMarker(const char* text) {
  markerAfterItem();
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

const char* grouped(uint64_t v, char (&buf)[32]) {
  char raw[32];
  std::snprintf(raw, sizeof raw, "%llu", static_cast<unsigned long long>(v));
  const int len = static_cast<int>(std::strlen(raw));
  int o = 0;
  for (int i = 0; i < len; ++i) {
    if (i > 0 && (len - i) % 3 == 0) buf[o++] = ' ';
    buf[o++] = raw[i];
  }
  buf[o] = '\0';
  return buf;
}

}  // namespace ofps::app
