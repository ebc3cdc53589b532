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
// what this frame's pass spent of it.
void budgetControls(OcclusionView& o) {
  const OcclusionCullStats& c = o.stats;
  bool limited = o.workBudget != kOcclusionNoBudget;
  if (ImGui::Checkbox("work budget", &limited)) {
    o.workBudget = limited ? OcclusionCullParams{}.workBudget : kOcclusionNoBudget;
  }
  markerAfterItem();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "The pass meters its work, in units of about a nanosecond on the reference machine\n"
        "(a 2.6 GHz x86-64 with AVX2; the slowest passes ran about 1.2 ns a unit there), to\n"
        "bound a frame's CPU time: past three quarters of the budget it stops rasterizing\n"
        "occluders and testing triangles (box tests only); past all of it the rest is drawn as\n"
        "the frustum cull draws it. Views across open terrain, where most of the frustum is\n"
        "visible anyway, are where it runs out. It only ever draws more. Off: no budget.");
  }
  if (!limited) {
    ImGui::SameLine();
    ImGui::TextDisabled("off: %.0f k units of work this frame", static_cast<double>(c.work) / 1e3);
    return;
  }
  constexpr uint32_t kLo = 10'000, kHi = 4'000'000;
  ImGui::SliderScalar("units", ImGuiDataType_U32, &o.workBudget, &kLo, &kHi, "%u",
                      ImGuiSliderFlags_Logarithmic);
  const double boxesOnlyFrom = static_cast<double>(o.workBudget - o.workBudget / 4);
  if (c.budgetExhausted > 0) {
    ImGui::TextColored(ImVec4(1.0f, 0.8f, 0.3f, 1.0f),
                       "out of budget: %u nodes drawn untested (box tests only past %.0f k)",
                       c.nodesPastBudget, boxesOnlyFrom / 1e3);
  } else if (c.budgetBoxesOnly > 0) {
    ImGui::TextColored(ImVec4(1.0f, 0.9f, 0.5f, 1.0f),
                       "work: %.0f k of %.0f k units, box tests only past %.0f k",
                       static_cast<double>(c.work) / 1e3, o.workBudget / 1e3, boxesOnlyFrom / 1e3);
  } else {
    ImGui::Text("work: %.0f k of %.0f k units", static_cast<double>(c.work) / 1e3,
                o.workBudget / 1e3);
  }
}

}  // namespace

void occlusionPanel(DemoState& s) {
  OcclusionView& o = s.occlusion;
  ImGui::Checkbox("occlusion culling (X)", &o.enabled);
  markerAfterItem();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Walks the octree nearest first, drawing the opaque triangles of visible nodes into a\n"
        "256 x 128 software depth buffer, and skips every node, triangle and prop whose box is\n"
        "certainly behind what is already there. Conservative: the image does not change.\n"
        "Freeze (V) and fly out: what occlusion culled is drawn in red.");
  }
  if (!s.culling.enabled) {
    ImGui::TextDisabled("(needs frustum culling: C)");
    return;
  }
  if (!o.enabled) {
    ImGui::TextDisabled("off: the frustum's %u triangles are drawn", s.culling.runs.triangles);
    return;
  }
  const OcclusionCullStats& c = o.stats;
  const double share = c.trianglesDrawnFrustumOnly > 0
                           ? 100.0 * c.trianglesDrawn / c.trianglesDrawnFrustumOnly
                           : 100.0;
  ImGui::Text("triangles: %u drawn, %u with frustum only (%.0f %%)", c.trianglesDrawn,
              c.trianglesDrawnFrustumOnly, share);
  ImGui::Text("nodes: %u tested against the buffer, %u occluded", c.nodesOcclusionTested,
              c.nodesOccluded);
  ImGui::Text("%u triangles of visible nodes occluded, %u outside the frustum", c.trianglesOccluded,
              c.trianglesOutsideFrustum);
  ImGui::Text("%u occluders rasterized, %u pixels written", c.occludersRasterized,
              c.occluderPixels);
  ImGui::Text("props: %u of %u in the frustum occluded", o.propsOccluded, o.propsTested);
  if (o.propsStats.cellsTested > 0) {
    ImGui::SameLine();
    ImGui::TextDisabled("(%u of %u cells hidden)", o.propsStats.cellsOccluded,
                        o.propsStats.cellsTested);
  }
  ImGui::Checkbox("temporal coherence", &o.temporalCoherence);
  markerAfterItem();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "What was visible last frame is drawn without its test this frame (each node is\n"
        "re-tested every 8 frames), and occluders that changed no pixel last frame are left out.\n"
        "Last frame's visible occluders go into the buffer first, before any test.\n"
        "Cheaper when walking; draws a little more. Never hides a visible triangle.\n"
        "The history is dropped when the eye jumps more than 1 m (a respawn, a teleport).");
  }
  if (o.temporalCoherence) {
    ImGui::Text("drawn untested (visible last frame): %u nodes, %u triangles",
                c.nodesAssumedVisible, c.trianglesAssumedVisible);
    ImGui::Text("occluders from last frame, in first: %u", c.occludersPrepassed);
  }
  ImGui::Text("occlusion pass %.3f ms CPU", o.cpuMs);
  markerAfterItem();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Wall time of this frame's pass on the main thread: the level's traversal with its\n"
        "rasterization, and the props' box tests. The frustum-only cull is not included.");
  }
  budgetControls(o);
  const LevelSession& l = *s.level.session;
  ImGui::TextWrapped("%u of the level's %u drawable triangles may occlude", l.occluderTriangles,
                     l.drawRanges.drawnTriangles());
  markerAfterItem();
  if (ImGui::IsItemHovered()) {
    ImGui::SetTooltip(
        "Triangles of cut-out materials (texels the level shader discards, or alpha close\n"
        "to its cut-off) never occlude: what is behind them shows through.");
  }
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
  ImGui::TextDisabled("bright = near, dark = far, blue = no occluder");
}

}  // namespace ofps::app
