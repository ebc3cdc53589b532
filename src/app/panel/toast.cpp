#include "app/panel/toast.h"

#include <imgui.h>

#include <algorithm>
#include <utility>

namespace ofps::app {

void showToast(Toast& toast, Toast::Kind kind, std::string title, std::string detail, double now) {
  toast.kind = kind;
  toast.title = std::move(title);
  toast.detail = std::move(detail);
  toast.shownAt = now;
  toast.history.push_back(toast.title);
}

float toastAlpha(const Toast& toast, double now) {
  switch (toast.kind) {
    case Toast::Kind::None:
      return 0.0f;
    case Toast::Kind::Error:
      return 1.0f;
    case Toast::Kind::Success:
    case Toast::Kind::Info:
      break;
  }
  const double fading = now - toast.shownAt - kToastHoldSeconds;
  if (fading <= 0.0) return 1.0f;
  return static_cast<float>(std::max(0.0, 1.0 - fading / kToastFadeSeconds));
}

void drawToast(Toast& toast, double now, const ToastProgress* progress, float left) {
  const float alpha = toastAlpha(toast, now);
  if (alpha <= 0.0f && toast.kind != Toast::Kind::Error) toast.kind = Toast::Kind::None;
  if (alpha <= 0.0f && progress == nullptr) return;
  const ImGuiViewport* vp = ImGui::GetMainViewport();
  // Centred in what the panel leaves free, unless that is too narrow to read (then over it).
  float x0 = vp->WorkPos.x + left + 10.0f;
  const float x1 = vp->WorkPos.x + vp->WorkSize.x - 10.0f;
  if (x1 - x0 < ImGui::GetFontSize() * 20.0f) x0 = vp->WorkPos.x + 10.0f;
  const float width = std::min((x1 - x0) * 0.9f, ImGui::GetFontSize() * 40.0f);
  // Near the top: the crosshair is in the middle and the panel's lines start at the top left.
  ImGui::SetNextWindowPos(ImVec2((x0 + x1) * 0.5f, vp->WorkPos.y + 12.0f), ImGuiCond_Always,
                          ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowSize(ImVec2(width, 0.0f), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::PushStyleVar(ImGuiStyleVar_Alpha, progress != nullptr ? 1.0f : alpha);
  ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                           ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoNav |
                           ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_AlwaysAutoResize;
  // Only an error has a button; any other toast lets clicks through to the view (mouse look,
  // throws, the probe), so a message over the view never swallows a click aimed at the level.
  if (toast.kind != Toast::Kind::Error) flags |= ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("##toast", nullptr, flags)) {
    if (progress != nullptr) {
      ImGui::TextWrapped("loading %s", progress->path.c_str());
      ImGui::ProgressBar(progress->fraction, ImVec2(-1.0f, 0.0f), progress->stage);
    }
    if (toast.kind != Toast::Kind::None && alpha > 0.0f) {
      if (progress != nullptr) ImGui::Separator();
      const bool error = toast.kind == Toast::Kind::Error;
      const ImVec4 colour = error                             ? ImVec4(1.0f, 0.45f, 0.4f, 1.0f)
                            : toast.kind == Toast::Kind::Info ? ImVec4(0.95f, 0.9f, 0.6f, 1.0f)
                                                              : ImVec4(0.5f, 0.9f, 0.5f, 1.0f);
      ImGui::PushStyleColor(ImGuiCol_Text, colour);
      ImGui::TextWrapped("%s", toast.title.c_str());
      ImGui::PopStyleColor();
      if (!toast.detail.empty()) ImGui::TextWrapped("%s", toast.detail.c_str());
      if (error && ImGui::SmallButton("dismiss")) toast.kind = Toast::Kind::None;
    }
  }
  ImGui::End();
  ImGui::PopStyleVar();
}

}  // namespace ofps::app
