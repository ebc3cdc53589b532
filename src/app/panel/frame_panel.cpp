// The panel's frame-time section: frame time, CPU work, vsync and the frame-time graph.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/panel/panel_sections.h"
#include "app/panel/panel_widgets.h"
#include "app/window/demo_state.h"

namespace ofps::app {

void framePanel(DemoState& s, PanelRequests& out) {
  const size_t n = s.frame.frameMs.size();
  const double ms = s.frame.frameMs[(s.frame.frameIndex + n - 1) % n];
  textf("frame %.2f ms (%.1f fps)", ms, ms > 0.0 ? 1000.0 / ms : 0.0);
  textf("CPU work %.3f ms", s.frame.lastCpuFrameMs);
  helpMarker(
      "Frame: wall time since the previous frame, as measured (a slow frame is shown as slow; "
      "only the simulation's catch-up is bounded). CPU work: controller + culling + building "
      "the draw list, this frame.");
  if (ImGui::Checkbox("vsync", &s.gpu.vsync)) out.vsyncChanged = true;
  const float peak = *std::max_element(s.frame.frameMs.begin(), s.frame.frameMs.end());
  // Doubling steps from 20 ms, so a 60 Hz frame fills the graph and a 700 ms one still fits.
  float scale = 20.0f;
  while (scale < peak && scale < 1.0e6f) scale *= 2.0f;
  sameLineDisabled("slowest of the last %zu: %.1f ms", n, static_cast<double>(peak));
  char label[32];
  std::snprintf(label, sizeof label, "frame ms (0-%.0f)", static_cast<double>(scale));
  // An explicit width: ImGui 1.86's PlotLines takes a negative width as a 1-pixel sliver here.
  const float width = ImGui::GetContentRegionAvail().x;
  ImGui::PlotLines("##frametime", s.frame.frameMs.data(), static_cast<int>(n),
                   static_cast<int>(s.frame.frameIndex % n), label, 0.0f, scale, ImVec2(width, 50));
}

}  // namespace ofps::app
