// The load toast's life: a success stays a few seconds then fades, an error stays until it is
// dismissed or replaced. Times in seconds, as ImGui::GetTime() gives them.
#include "app/panel/toast.h"

#include <gtest/gtest.h>
#include <imgui.h>

namespace ofps::app {
namespace {

TEST(Toast, SuccessHoldsFourSecondsThenFadesOverOne) {
  Toast t;
  showToast(t, Toast::Kind::Success, "Loaded a.obj", "", 100.0);
  EXPECT_EQ(toastAlpha(t, 100.0), 1.0f);
  EXPECT_EQ(toastAlpha(t, 103.9), 1.0f);
  EXPECT_NEAR(toastAlpha(t, 104.5), 0.5f, 1e-5f);
  EXPECT_EQ(toastAlpha(t, 105.0), 0.0f);
  EXPECT_EQ(toastAlpha(t, 200.0), 0.0f);
}

TEST(Toast, ErrorStaysUntilReplaced) {
  Toast t;
  EXPECT_EQ(toastAlpha(t, 0.0), 0.0f);  // nothing shown yet
  showToast(t, Toast::Kind::Error, "Load failed", "b.obj: no triangles", 10.0);
  EXPECT_EQ(toastAlpha(t, 10.0 + 3600.0), 1.0f);
  showToast(t, Toast::Kind::Success, "Loaded c.obj", "", 4000.0);
  EXPECT_EQ(toastAlpha(t, 4006.0), 0.0f);
}

// Drawing a success that has faded retires it, so it does not come back; an error drawn an
// hour later is still there.
TEST(Toast, DrawingRetiresAFadedSuccessOnly) {
  ImGui::CreateContext();
  ImGuiIO& io = ImGui::GetIO();
  io.DisplaySize = ImVec2(800, 600);
  unsigned char* pixels = nullptr;
  int w = 0, h = 0;
  io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
  Toast ok, bad;
  showToast(ok, Toast::Kind::Success, "Loaded a.obj", "guessed Y-up", 0.0);
  showToast(bad, Toast::Kind::Error, "Load failed", "b.obj", 0.0);
  ImGui::NewFrame();
  drawToast(ok, 6.0, nullptr);
  drawToast(bad, 3600.0, nullptr, 300.0f);
  ImGui::Render();
  ImGui::DestroyContext();
  EXPECT_EQ(ok.kind, Toast::Kind::None);
  EXPECT_EQ(bad.kind, Toast::Kind::Error);
}

}  // namespace
}  // namespace ofps::app

// A toggle's toast (Info) fades like a success; every title shown is kept, in order, for
// --stats-json's view.toasts.
TEST(Toast, InfoFadesAndHistoryKeepsEveryTitle) {
  using namespace ofps::app;
  Toast t;
  showToast(t, Toast::Kind::Info, "frustum culling off (C)", "1,048 of 1,048 drawn", 10.0);
  EXPECT_EQ(toastAlpha(t, 10.0 + kToastHoldSeconds), 1.0f);
  // Half way through the fade: hold + fade / 2 after it was shown.
  EXPECT_NEAR(toastAlpha(t, 10.0 + kToastHoldSeconds + kToastFadeSeconds * 0.5), 0.5f, 1e-6f);
  EXPECT_EQ(toastAlpha(t, 10.0 + kToastHoldSeconds + kToastFadeSeconds), 0.0f);
  showToast(t, Toast::Kind::Error, "Load failed, kept a.obj", "", 20.0);
  showToast(t, Toast::Kind::Info, "culling frozen (V)", "", 30.0);
  const std::vector<std::string> want = {"frustum culling off (C)", "Load failed, kept a.obj",
                                         "culling frozen (V)"};
  EXPECT_EQ(t.history, want);
}
