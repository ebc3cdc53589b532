// One frame of the windowed demo: the fixed steps due, the camera, one culling traversal for
// the level and the props, the overlay, the panel (and what it asks for), and the draw.
#include <glad/gl.h>
// glad must come before GLFW so GLFW does not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_impl_glfw.h>
#include <imgui_impl_opengl3.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "app/overlay/overlay_colors.h"
#include "app/panel/panel_sections.h"
#include "app/window/demo_parts.h"
#include "render/gl_debug.h"

namespace ofps::app {
namespace {

// Runs the fixed steps due this frame and places the camera at the interpolated eye.
void simulate(DemoState& s, float frameSeconds) {
  const CharacterInput live = readInput(s);
  // Record what the character's queries enter (the Q overlay); storage is reused.
  QueryView& q = s.queries;
  q.trace.nodes = q.traceNodes.data();
  q.trace.capacity = static_cast<uint32_t>(q.traceNodes.size());
  q.trace.entered = 0;
  s.sim.controller().setQueryTrace(s.overlay.queryNodes ? &q.trace : nullptr);
  float alpha = 1.0f;
  uint32_t steps = 0;
  if (s.sim.scripted()) {
    // A script runs a fixed number of steps per frame (60 frames per simulated second) so a
    // windowed replay matches the headless one step for step, however slow the frames are.
    steps = static_cast<uint32_t>(std::ceil(s.params.controller.tickHz / 60.0f));
  } else {
    steps = s.frame.clock.advance(frameSeconds);
    alpha = s.frame.clock.alpha();
  }
  for (uint32_t i = 0; i < steps; ++i) {
    // The Q view shows the last step's queries, the step the start block's headline counts.
    q.trace.entered = 0;
    s.sim.step(*s.level.session, live);
  }
  if (q.trace.entered > 0) {
    const uint32_t n = q.trace.stored();
    q.shownNodes.assign(q.traceNodes.begin(), q.traceNodes.begin() + n);
    std::sort(q.shownNodes.begin(), q.shownNodes.end());
    q.shownNodes.erase(std::unique(q.shownNodes.begin(), q.shownNodes.end()), q.shownNodes.end());
  }
  s.camera.yaw = s.sim.viewYaw();
  s.camera.pitch = s.sim.viewPitch();
  s.camera.position = s.sim.eye(alpha);  // smoothed over steps unless turned off
}

// Carries out what the panel asked for, right after it was drawn (as the panel's own calls did
// before it returned requests), so a rebuild or a load starts in the frame its control moved.
void applyPanelRequests(DemoState& s, const PanelRequests& r) {
  if (r.vsyncChanged) glfwSwapInterval(s.gpu.vsync ? 1 : 0);
  if (r.rebuildOctree) applyOctreeParams(s);
  if (r.paramsChanged) {
    s.sim.setParams(s.params);
    s.frame.clock.setTickHz(s.params.controller.tickHz);
  }
  if (r.loadLevel) requestLevelLoad(s, *r.loadLevel, r.reimport);
  if (r.screenshot) s.ui.screenshotRequested = true;
}

void draw(DemoState& s, const glm::mat4& viewProj) {
  glViewport(0, 0, s.frame.width, s.frame.height);
  // The level is lit in linear space; sRGB conversion on write when the framebuffer has it.
  if (s.gpu.srgb) glEnable(GL_FRAMEBUFFER_SRGB);
  const gl::FrameParams fp{viewProj, s.camera.position};
  glClearColor(fp.fogColor.x, fp.fogColor.y, fp.fogColor.z, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  if (s.frame.width > 0 && s.frame.height > 0) {
    gl::FrameParams params = fp;
    params.wireframe = s.gpu.wireframe;
    s.gpu.renderer.draw(params, s.culling.runs);
    if (!s.occlusion.occludedRuns.first.empty()) {
      // Frozen view (V): what occlusion culled, in red, so flying out shows it behind the walls.
      gl::FrameParams culled = params;
      culled.tint = glm::vec4(glm::vec3(kOccludedColor), 0.75f);
      s.gpu.renderer.draw(culled, s.occlusion.occludedRuns);
    }
    s.props.drawCalls =
        s.gpu.propRenderer.draw(viewProj, params.lightDir, s.props.spheres, s.props.boxes);
    // X-ray: boxes in front of the walls bright, those behind them faint, so a large level's
    // overlay does not bury the view.
    s.gpu.lines.draw(viewProj, gl::LineRenderer::Depth::XRay);
  }
  if (s.gpu.srgb) glDisable(GL_FRAMEBUFFER_SRGB);  // ImGui's colours are already sRGB
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  gl::checkErrors("frame");
}

}  // namespace

void runFrame(DemoState& s, float dt) {
  s.frame.frameMs[s.frame.frameIndex++ % s.frame.frameMs.size()] = dt * 1000.0f;
  s.frame.totalMs += static_cast<double>(dt) * 1000.0;
  s.frame.maxMs = std::max(s.frame.maxMs, static_cast<double>(dt) * 1000.0);

  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();

  const auto cpuStart = std::chrono::steady_clock::now();
  simulate(s, dt);
  glfwGetFramebufferSize(s.input.window, &s.frame.width, &s.frame.height);
  const int fbw = s.frame.width, fbh = s.frame.height;
  const float aspect = fbh > 0 ? static_cast<float>(fbw) / static_cast<float>(fbh) : 1.0f;
  const glm::mat4 viewProj = s.camera.projection(aspect) * s.camera.view();
  s.culling.cullViewProj = s.culling.frozen ? s.culling.frozenViewProj : viewProj;
  s.frame.lastAspect = aspect;
  // The teams wander by at most 0.1 s a frame, as the fixed-step clock bounds the character.
  updateDrawLists(s, s.culling.cullViewProj, std::min(dt, 0.1f));  // one cull: level and props
  s.frame.lastCpuFrameMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - cpuStart)
          .count();
  s.frame.totalCpuFrameMs += s.frame.lastCpuFrameMs;
  sampleWork(s);
  updateToggleToast(s);  // a toggle's toast, with this frame's numbers
  buildOctreeOverlay(s);
  buildProbeOverlay(s);
  buildGridOverlay(s);
  drawViewLegends(s);
  applyPanelRequests(s, drawPanel(s));
  applyKeyPresses(s);
  drawLevelToast(s);
  drawHelpOverlay(s);
  ImGui::Render();
  draw(s, viewProj);
}

}  // namespace ofps::app
