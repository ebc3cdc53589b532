// The panel's shared widgets (panel_widgets.h).
#include "app/panel/panel_widgets.h"

#include <imgui.h>

#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>

namespace ofps::app {
namespace {

// U+00A0: Dear ImGui's word wrap breaks at spaces and after punctuation, not here, so "(?)"
// stays on the line of the word before it.
constexpr const char* kGluedMarker = "\xC2\xA0(?)";

void tooltip(const char* text) {
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 32.0f);
  ImGui::TextUnformatted(text);
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

// One line of `text` from `begin`: the longest run of whole words that fits `width` (at least
// one word). Returns its end.
const char* lineEnd(const char* begin, const char* end, float width) {
  const char* p = begin;
  while (p < end && *p == ' ') ++p;  // leading spaces belong to the first word (indentation)
  const char* fit = nullptr;
  while (p < end) {
    const char* word = p;
    while (word < end && *word != ' ' && *word != '\n') ++word;
    if (fit != nullptr && ImGui::CalcTextSize(begin, word).x > width) break;
    fit = word;
    if (word >= end || *word == '\n') break;
    p = word;
    while (p < end && *p == ' ') ++p;
  }
  return fit != nullptr ? fit : end;
}

void vtext(bool disabled, const ImVec4* color, const char* fmt, va_list args) {
  char buf[2048];
  std::vsnprintf(buf, sizeof buf, fmt, args);
  if (color != nullptr) ImGui::PushStyleColor(ImGuiCol_Text, *color);
  wrappedText(buf, disabled);
  if (color != nullptr) ImGui::PopStyleColor();
}

void textWithHelpV(bool disabled, const char* help, const char* fmt, va_list args) {
  char buf[1024];
  int n = std::vsnprintf(buf, sizeof buf - 8, fmt, args);
  if (n < 0) n = 0;
  if (n > static_cast<int>(sizeof buf) - 9) n = static_cast<int>(sizeof buf) - 9;
  std::memcpy(buf + n, kGluedMarker, std::strlen(kGluedMarker) + 1);
  ImGui::BeginGroup();
  wrappedText(buf, disabled);
  ImGui::EndGroup();
  if (ImGui::IsItemHovered()) tooltip(help);
}

}  // namespace

void wrappedText(const char* text, bool disabled) {
  if (disabled) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  }
  ImGui::PushTextWrapPos(-1.0f);  // the lines are laid out here
  const char* end = text + std::strlen(text);
  const char* p = text;
  do {
    const float width = ImGui::GetContentRegionAvail().x;
    const char* e = lineEnd(p, end, width);
    ImGui::TextUnformatted(p, e);
    p = e;
    if (p < end && (*p == '\n' || *p == ' ')) ++p;
    while (p < end && *p == ' ') ++p;
  } while (p < end);
  ImGui::PopTextWrapPos();
  if (disabled) ImGui::PopStyleColor();
}

void textf(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vtext(false, nullptr, fmt, args);
  va_end(args);
}

void textDisabledf(const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vtext(true, nullptr, fmt, args);
  va_end(args);
}

void textColoredf(const ImVec4& color, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  vtext(false, &color, fmt, args);
  va_end(args);
}

void helpMarker(const char* text) {
  const bool itemHovered = ImGui::IsItemHovered();
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize("(?)").x) {
    // No room: no orphan marker on a line of its own; the item itself explains.
    ImGui::NewLine();
    if (itemHovered) tooltip(text);
    return;
  }
  ImGui::PushTextWrapPos(-1.0f);
  ImGui::TextDisabled("(?)");
  ImGui::PopTextWrapPos();
  if (itemHovered || ImGui::IsItemHovered()) tooltip(text);
}

void textWithHelp(const char* help, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  textWithHelpV(false, help, fmt, args);
  va_end(args);
}

void textDisabledWithHelp(const char* help, const char* fmt, ...) {
  va_list args;
  va_start(args, fmt);
  textWithHelpV(true, help, fmt, args);
  va_end(args);
}

void sameLineDisabled(const char* fmt, ...) {
  char buf[512];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  ImGui::SameLine();
  if (ImGui::GetContentRegionAvail().x < ImGui::CalcTextSize(buf).x) ImGui::NewLine();
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  ImGui::TextUnformatted(buf);
  ImGui::PopStyleColor();
}

double tidy(double v, int decimals) {
  const double half = 0.5 * std::pow(10.0, -decimals);
  return std::fabs(v) < half ? 0.0 : v;
}

const char* microseconds(double us, char (&buf)[32]) {
  if (us >= 1000.0) {
    char g[32];
    std::snprintf(buf, sizeof buf, "%s \xC2\xB5s", grouped(static_cast<uint64_t>(us + 0.5), g));
  } else {
    std::snprintf(buf, sizeof buf, us < 10.0 ? "%.2f \xC2\xB5s" : "%.1f \xC2\xB5s", us);
  }
  return buf;
}

}  // namespace ofps::app
