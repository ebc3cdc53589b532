// The panel's frame-time section: frame time, CPU work, vsync and the frame-time graph.
#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "app/demo_state.h"
#include "app/panel_sections.h"
#include "app/panel_widgets.h"

namespace ofps::app {

void framePanel(DemoState& s, PanelRequests& out) {
  const size_t n = s.frame.frameMs.size();
  const double ms = s.frame.frameMs[(s.frame.frameIndex + n - 1) % n];
  ImGui::Text("frame %.2f ms (%.0f fps)   CPU work %.3f ms", ms, ms > 0.0 ? 1000.0 / ms : 0.0,
              s.frame.lastCpuFrameMs);
  helpMarker("CPU work: controller + culling + building the draw list, this frame.");
  if (ImGui::Checkbox("vsync", &s.gpu.vsync)) out.vsyncChanged = true;
  const float peak = *std::max_element(s.frame.frameMs.begin(), s.frame.frameMs.end());
  const float scale = peak <= 17.0f ? 20.0f : (peak <= 34.0f ? 40.0f : 120.0f);
  char label[32];
  std::snprintf(label, sizeof label, "frame ms (0-%.0f)", static_cast<double>(scale));
  ImGui::PlotLines("##frametime", s.frame.frameMs.data(), static_cast<int>(n),
                   static_cast<int>(s.frame.frameIndex % n), label, 0.0f, scale, ImVec2(-1, 50));
}

}  // namespace ofps::app
