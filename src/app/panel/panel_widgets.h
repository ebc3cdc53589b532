#pragma once
// Small Dear ImGui helpers the panel's sections share. Main thread, inside an ImGui frame.
#include <cstdint>

namespace ofps::app {

// A "(?)" after the last item whose tooltip shows `text`, wrapped.
void helpMarker(const char* text);
// Just the "(?)" after the last item (on the next line when it does not fit, never split by the
// panel's wrapping), for a section that draws its own tooltip: check ImGui::IsItemHovered() next.
void markerAfterItem();
// `v` with a space every three digits ("1 234 567" reads faster beside another big number);
// written into buf, which is returned.
const char* grouped(uint64_t v, char (&buf)[32]);

}  // namespace ofps::app
