#pragma once
// A message on the view itself, drawn over the level whether the panel is shown or hidden, so
// the outcome of a load is seen where the user looks. Success fades after a few seconds; an
// error stays until dismissed or replaced by the next success. While a load runs, its progress
// shows in the same place. Main thread only.
#include <string>
#include <vector>

namespace ofps::app {

struct Toast {
  // Info: what a key just did ("frustum culling off: ..."); it fades like a success.
  enum class Kind { None, Success, Error, Info };
  Kind kind = Kind::None;
  std::string title;   // one line: "Loaded oa_dm1.obj", "Load failed: kept arena.glb"
  std::string detail;  // wrapped: the frame guess, the error
  double shownAt = 0.0;
  std::vector<std::string> history;  // every title shown, in order (--stats-json view.toasts)
};

// Seconds a success stays fully visible, then fades out over kToastFadeSeconds.
inline constexpr double kToastHoldSeconds = 4.0;
inline constexpr double kToastFadeSeconds = 1.0;

void showToast(Toast& toast, Toast::Kind kind, std::string title, std::string detail, double now);
// Opacity at `now` in [0, 1]; 0 once a success has faded (and for None). Errors stay at 1.
float toastAlpha(const Toast& toast, double now);

// What is loading now, for the toast's progress bar.
struct ToastProgress {
  float fraction = 0.0f;
  const char* stage = "";
  std::string path;
};

// Draws the toast near the top centre of the main viewport right of x = `left` (the panel's
// edge, 0 when hidden), inside an ImGui frame. `progress` is null when nothing loads. The
// error's dismiss button sets kind to None.
void drawToast(Toast& toast, double now, const ToastProgress* progress, float left = 0.0f);

}  // namespace ofps::app
