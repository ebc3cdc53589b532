#pragma once
// Small Dear ImGui helpers the panel's sections share. Main thread, inside an ImGui frame.
//
// The panel wraps its text (PushTextWrapPos(0) in panel.cpp). Text placed after another item on
// the same line wraps at the panel's edge starting from where that item ended, which is how a
// line turned into a column of one or two characters; these helpers never do that: what follows
// an item goes on the same line only when it fits whole, and a help marker is glued to the last
// word of its text (it wraps with that word, never alone on a line).
#include <imgui.h>

#include <cstdint>

#include "app/simulation/number_format.h"  // grouped(): counts in the panel

namespace ofps::app {

// Text laid out by words: broken only at spaces, never inside a number ("1,048", "0.25": Dear
// ImGui's own wrapping breaks after ',' and '.') nor a word; a word wider than the panel stays
// whole. Lines start at the cursor; '\n' starts a new line.
void wrappedText(const char* text, bool disabled = false);
void textf(const char* fmt, ...) IM_FMTARGS(1);
void textDisabledf(const char* fmt, ...) IM_FMTARGS(1);
void textColoredf(const ImVec4& color, const char* fmt, ...) IM_FMTARGS(2);
// After the last item: a "(?)" on the same line when it fits, its tooltip `text`; when it does
// not fit, no marker (it would sit alone on a line) and the item's own tooltip says `text`.
// Hovering the item shows `text` either way.
void helpMarker(const char* text);
// Wrapped text that ends in "(?)" joined to its last word by a no-break space, with `help` as the
// tooltip of the whole text. `disabled`: in the dimmed colour.
void textWithHelp(const char* help, const char* fmt, ...) IM_FMTARGS(2);
void textDisabledWithHelp(const char* help, const char* fmt, ...) IM_FMTARGS(2);
// Dimmed text after the last item on the same line when it fits whole; otherwise on the next line.
void sameLineDisabled(const char* fmt, ...) IM_FMTARGS(1);
// v for a "%.Nf" with N = decimals, without a "-0.00": values that round to zero print as 0.
double tidy(double v, int decimals = 2);
// Microseconds with the unit: "0.84 µs", "12.3 µs", "1,204 µs".
const char* microseconds(double us, char (&buf)[32]);

}  // namespace ofps::app
