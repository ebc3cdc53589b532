// The panel's occlusion section: the occlusion pass's switches and work beside the frustum-only
// figures (cull/occlusion_pass.cpp), and the occlusion buffer itself as an image.
#include <imgui.h>

#include <algorithm>

#include "app/panel/panel_sections.h"
#include "app/panel/panel_widgets.h"
#include "app/window/demo_state.h"

namespace ofps::app {
namespace {

// The distance (metres) the buffer's image shows as middle grey: nearer is brighter. Rooms of
// the shipped levels are a few to a few tens of metres across.
constexpr float kImageMidDistance = 8.0f;

// The buffer's 1 / w as an image: grey falling with distance, dark blue where no occluder
// covers the pixel (nothing can be hidden there).
void bufferImage(const OcclusionBuffer& buffer, std::vector<uint8_t>* rgba) {
  const std::span<const float> inverseDepth = buffer.inverseDepth();
  rgba->resize(inverseDepth.size() * 4);
  for (size_t i = 0; i < inverseDepth.size(); ++i) {
    uint8_t* px = rgba->data() + i * 4;
    const float q = inverseDepth[i];
    if (q <= 0.0f) {
      px[0] = 25, px[1] = 35, px[2] = 80, px[3] = 255;
      continue;
    }
    // q / (q + 1 / d0) is 1 at the eye, 1/2 at d0 and falls to 0 far away.
    const float g = q / (q + 1.0f / kImageMidDistance);
    const auto v = static_cast<uint8_t>(std::clamp(g, 0.0f, 1.0f) * 255.0f + 0.5f);
    px[0] = px[1] = px[2] = v;
    px[3] = 255;
  }
}

// The work budget (OcclusionCullParams::workBudget): a checkbox (off: no budget), the budget
// in units on a logarithmic slider (any value set by --occlusion-budget is shown as it is), and
// what this frame's pass spent of it. A unit is about a nanosecond on the reference machine.
void budgetControls(OcclusionView& o) {
  const OcclusionCullStats& c = o.stats;
  char a[32], b[32], d[32];
  bool limited = o.workBudget != kOcclusionNoBudget;
  if (ImGui::Checkbox("work budget", &limited)) {
    o.workBudget = limited ? OcclusionCullParams{}.workBudget : kOcclusionNoBudget;
  }
  helpMarker(
      "The pass meters its work in units of about a nanosecond on the reference machine (a "
      "2.6 GHz x86-64 with AVX2; the slowest passes ran about 1.2 ns a unit there), to bound a "
      "frame's CPU time: past three quarters of the budget it stops rasterizing occluders and "
      "testing triangles (box tests only); past all of it the rest is drawn as the frustum cull "
      "draws it. Views across open terrain, where most of the frustum is visible anyway, are "
      "where it runs out. It only ever draws more. Off: no budget.");
  if (!limited) {
    sameLineDisabled("off: %s work units (~ns) this frame", grouped(c.work, a));
    return;
  }
  constexpr uint32_t kLo = 10'000, kHi = 4'000'000;
  ImGui::SliderScalar("units (~ns)", ImGuiDataType_U32, &o.workBudget, &kLo, &kHi, "%u",
                      ImGuiSliderFlags_Logarithmic);
  const uint64_t boxesOnlyFrom = o.workBudget - o.workBudget / 4;
  if (c.budgetExhausted > 0) {
    textColoredf(ImVec4(1.0f, 0.8f, 0.3f, 1.0f),
                 "out of budget: %s nodes drawn untested (box tests only past %s units)",
                 grouped(c.nodesPastBudget, a), grouped(boxesOnlyFrom, b));
  } else if (c.budgetBoxesOnly > 0) {
    textColoredf(ImVec4(1.0f, 0.9f, 0.5f, 1.0f),
                 "work: %s of %s units (~ns), box tests only past %s", grouped(c.work, a),
                 grouped(o.workBudget, b), grouped(boxesOnlyFrom, d));
  } else {
    textf("work: %s of %s units (~ns)", grouped(c.work, a), grouped(o.workBudget, b));
  }
}

}  // namespace

void occlusionPanel(DemoState& s) {
  OcclusionView& o = s.occlusion;
  if (!ImGui::CollapsingHeader("Occlusion")) return;
  char a[32], b[32], d[32], e[32];
  if (!s.culling.enabled) {
    textDisabledf("occlusion culling needs frustum culling (C)");
    return;
  }
  if (!o.enabled) {
    textDisabledf("off (X): the frustum's %s triangles are drawn",
                  grouped(s.culling.runs.triangles, a));
    return;
  }
  const OcclusionCullStats& c = o.stats;
  const double share = c.trianglesDrawnFrustumOnly > 0
                           ? 100.0 * c.trianglesDrawn / c.trianglesDrawnFrustumOnly
                           : 100.0;
  textf("triangles: %s drawn, %.0f %% of the %s the frustum cull alone would draw",
        grouped(c.trianglesDrawn, a), share, grouped(c.trianglesDrawnFrustumOnly, b));
  textf("nodes: %s tested against the buffer, %s occluded", grouped(c.nodesOcclusionTested, a),
        grouped(c.nodesOccluded, b));
  textf("%s triangles of visible nodes occluded, %s outside the frustum",
        grouped(c.trianglesOccluded, a), grouped(c.trianglesOutsideFrustum, b));
  textf("%s occluders rasterized, %s pixels written", grouped(c.occludersRasterized, a),
        grouped(c.occluderPixels, b));
  if (o.propsStats.cellsTested > 0) {
    textf("props: %s of %s in the frustum occluded (%s of %s grid cells hidden)",
          grouped(o.propsOccluded, a), grouped(o.propsTested, b),
          grouped(o.propsStats.cellsOccluded, d), grouped(o.propsStats.cellsTested, e));
  } else {
    textf("props: %s of %s in the frustum occluded", grouped(o.propsOccluded, a),
          grouped(o.propsTested, b));
  }
  ImGui::Checkbox("temporal coherence", &o.temporalCoherence);
  helpMarker(
      "What was visible last frame is drawn without its test this frame (each node is "
      "re-tested every 8 frames), and occluders that changed no pixel last frame are left out. "
      "Last frame's visible occluders go into the buffer first, before any test. Cheaper when "
      "walking; draws a little more. Never hides a visible triangle. The history is dropped "
      "when the eye jumps more than 1 m (a respawn, a teleport).");
  if (o.temporalCoherence) {
    textf("drawn untested (visible last frame): %s nodes, %s triangles",
          grouped(c.nodesAssumedVisible, a), grouped(c.trianglesAssumedVisible, b));
    textf("occluders from last frame, in first: %s", grouped(c.occludersPrepassed, a));
  }
  textWithHelp(
      "Wall time of this frame's pass on the main thread: the level's traversal with its "
      "rasterization, and the props' box tests. The frustum-only cull is not included.",
      "occlusion pass %s CPU", microseconds(o.cpuMs * 1000.0, a));
  budgetControls(o);
  const LevelSession& l = *s.level.session;
  textWithHelp(
      "Triangles of cut-out materials (texels the level shader discards, or alpha close to its "
      "cut-off) never occlude: what is behind them shows through.",
      "%s of the level's %s drawable triangles may occlude", grouped(l.occluderTriangles, a),
      grouped(l.drawRanges.drawnTriangles(), b));
  ImGui::Checkbox("show the occlusion buffer", &o.showBuffer);
  if (!o.showBuffer) return;
  const OcclusionBuffer& buffer = s.level.session->occlusion.buffer();
  bufferImage(buffer, &o.bufferRgba);
  s.gpu.occlusionImage.upload(buffer.width(), buffer.height(), o.bufferRgba);
  // Shown with the view's aspect (the buffer's pixels are stretched over the whole view).
  const float width = std::min(ImGui::GetContentRegionAvail().x, 1.25f * buffer.width());
  const float height = width / std::max(s.frame.lastAspect, 0.1f);
  // The buffer's row 0 is the bottom of the view; ImGui's first uv is the image's top.
  ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<uintptr_t>(s.gpu.occlusionImage.id())),
               ImVec2(width, height), ImVec2(0, 1), ImVec2(1, 0));
  textDisabledf("bright = near, dark = far, blue = no occluder");
}

}  // namespace ofps::app
