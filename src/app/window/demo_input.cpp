// The windowed demo's input: GLFW key, mouse and drop callbacks (toggles, mouse capture,
// throws, level drops) and the keys held now as the character's input.
#include <glad/gl.h>
// glad must come before GLFW so GLFW does not pull in the system GL header.
#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>

#include "app/panel/panel_sections.h"
#include "app/window/demo_parts.h"

namespace ofps::app {
namespace {

constexpr float kMouseRadiansPerPixel = 0.0025f;

DemoState* stateOf(GLFWwindow* window) {
  return static_cast<DemoState*>(glfwGetWindowUserPointer(window));
}

void setMouseCapture(DemoState& s, bool captured) {
  s.input.mouseCaptured = captured;
  s.input.firstMouse = true;
  glfwSetInputMode(s.input.window, GLFW_CURSOR,
                   captured ? GLFW_CURSOR_DISABLED : GLFW_CURSOR_NORMAL);
}

// A press and its release inside one poll leave the key up when the frame looks: remember the
// tap so ImGui (deliverKeyTaps) and the character (Simulation::latchJump) still see it.
void recordTap(InputState& in, int key, int action) {
  if (key < 0 || key >= static_cast<int>(in.pressedSincePoll.size())) return;
  if (action == GLFW_PRESS) {
    in.pressedSincePoll[key] = 1;
  } else if (action == GLFW_RELEASE && in.pressedSincePoll[key] != 0 &&
             in.tapCount < static_cast<int>(in.taps.size())) {
    in.taps[in.tapCount++] = key;
  }
}

void onKey(GLFWwindow* window, int key, int /*scancode*/, int action, int /*mods*/) {
  DemoState* s = stateOf(window);
  if (s == nullptr) return;
  recordTap(s->input, key, action);
  if (action != GLFW_PRESS || ImGui::GetIO().WantCaptureKeyboard) return;
  // Acted on after this frame's panel (applyKeyPresses): a click into a text field in the same
  // poll (a slow frame) makes the field active only there, and the keys typed after it are text.
  InputState& in = s->input;
  if (in.keyPressCount < static_cast<int>(in.keyPresses.size())) {
    in.keyPresses[static_cast<size_t>(in.keyPressCount++)] = key;
  }
}

void applyKey(DemoState& state, int key) {
  DemoState* s = &state;
  GLFWwindow* window = s->input.window;
  switch (key) {
    case GLFW_KEY_SPACE:
      // Jump is the one edge-triggered character key: a tap counts for the next step even when
      // it is over before the frame reads the keys.
      s->sim.latchJump();
      break;
    case GLFW_KEY_TAB:
      setMouseCapture(*s, !s->input.mouseCaptured);
      break;
    case GLFW_KEY_ESCAPE:
      if (s->ui.showHelp) {
        s->ui.showHelp = false;  // Esc closes the key list first
      } else if (s->input.mouseCaptured) {
        setMouseCapture(*s, false);
      } else {
        glfwSetWindowShouldClose(window, GLFW_TRUE);
      }
      break;
    case GLFW_KEY_O:
      s->overlay.show = !s->overlay.show;
      noteToggle(*s, ToggleNote::Octree);
      break;
    case GLFW_KEY_LEFT_BRACKET:
      s->overlay.minDepth = std::max(0, s->overlay.minDepth - 1);
      s->overlay.maxDepth = std::max(s->overlay.minDepth, s->overlay.maxDepth - 1);
      break;
    case GLFW_KEY_RIGHT_BRACKET: {
      const int deepest =
          s->level.session ? static_cast<int>(s->level.session->octreeReport.depth) : 0;
      s->overlay.maxDepth = std::min(deepest, s->overlay.maxDepth + 1);
      s->overlay.minDepth = std::min(s->overlay.maxDepth, s->overlay.minDepth + 1);
      break;
    }
    case GLFW_KEY_C:
      s->culling.enabled = !s->culling.enabled;
      noteToggle(*s, ToggleNote::Culling);
      break;
    case GLFW_KEY_X:
      s->occlusion.enabled = !s->occlusion.enabled;
      noteToggle(*s, ToggleNote::Occlusion);
      break;
    case GLFW_KEY_V:
      s->culling.frozen = !s->culling.frozen;
      if (s->culling.frozen) s->culling.frozenViewProj = s->culling.cullViewProj;
      noteToggle(*s, ToggleNote::Freeze);
      break;
    case GLFW_KEY_T:
      s->gpu.wireframe = !s->gpu.wireframe;
      noteToggle(*s, ToggleNote::Wireframe);
      break;
    case GLFW_KEY_F:
      s->sim.controller().setFlying(!s->sim.controller().flying());
      noteToggle(*s, ToggleNote::Fly);
      break;
    case GLFW_KEY_P:
      toggleProbe(*s);
      noteToggle(*s, ToggleNote::Probe);
      break;
    case GLFW_KEY_Q:
      s->overlay.queryNodes = !s->overlay.queryNodes;
      noteToggle(*s, ToggleNote::Queries);
      break;
    case GLFW_KEY_B:
      s->grid.show = !s->grid.show;
      noteToggle(*s, ToggleNote::Grid);
      break;
    case GLFW_KEY_G:
      if (s->level.session) {
        const Octree& octree = s->level.session->octree;
        s->sim.props().spawnRandom(static_cast<uint32_t>(s->props.spawnCount), octree,
                                   octree.bounds(), s->props.spawnSeed++);
        noteToggle(*s, ToggleNote::Spawn);
      }
      break;
    case GLFW_KEY_R:
      if (s->level.session && !s->sim.scripted()) {
        placeCharacter(*s, false);
        noteToggle(*s, ToggleNote::Respawn);
      }
      break;
    case GLFW_KEY_H:
      s->ui.showPanel = !s->ui.showPanel;
      break;
    case GLFW_KEY_F1:
      s->ui.showHelp = !s->ui.showHelp;
      break;
    case GLFW_KEY_F12:
      s->ui.screenshotRequested = true;
      break;
    default:
      break;
  }
}

void onMouseButton(GLFWwindow* window, int button, int action, int /*mods*/) {
  DemoState* s = stateOf(window);
  if (s == nullptr || ImGui::GetIO().WantCaptureMouse) return;
  if (probeClick(*s, button, action)) return;
  if (button != GLFW_MOUSE_BUTTON_LEFT || action != GLFW_PRESS) return;
  if (!s->input.mouseCaptured) {
    setMouseCapture(*s, true);
  } else if (s->level.session && !s->sim.scripted()) {
    s->sim.throwFromEye();  // as three.js's games_fps throws balls
  }
}

void onDrop(GLFWwindow* window, int count, const char** paths) {
  DemoState* s = stateOf(window);
  if (s != nullptr && count > 0) requestLevelLoad(*s, paths[0]);
}

}  // namespace

void applyKeyPresses(DemoState& state) {
  DemoState* s = &state;
  InputState& in = s->input;
  const int count = in.keyPressCount;
  in.keyPressCount = 0;
  // A text field or a slider took the keyboard this frame: the keys were its.
  if (ImGui::IsAnyItemActive() || ImGui::GetIO().WantTextInput) return;
  for (int i = 0; i < count; ++i) applyKey(*s, in.keyPresses[static_cast<size_t>(i)]);
}

void installInputCallbacks(DemoState& s) {
  glfwSetWindowUserPointer(s.input.window, &s);
  glfwSetKeyCallback(s.input.window, onKey);
  glfwSetMouseButtonCallback(s.input.window, onMouseButton);
  glfwSetDropCallback(s.input.window, onDrop);
}

void deliverKeyTaps(DemoState& s) {
  InputState& in = s.input;
  ImGuiIO& io = ImGui::GetIO();
  for (int i = 0; i < in.tapCount; ++i) io.KeysDown[in.taps[i]] = true;
  in.tapsShown = in.tapCount;
  in.tapCount = 0;
  in.pressedSincePoll.fill(0);
}

CharacterInput readInput(DemoState& s) {
  GLFWwindow* w = s.input.window;
  {
    // ImGui's new frame has seen the taps down; let them up unless the key went down again.
    ImGuiIO& io = ImGui::GetIO();
    for (int i = 0; i < s.input.tapsShown; ++i) {
      const int key = s.input.taps[i];
      io.KeysDown[key] = glfwGetKey(w, key) == GLFW_PRESS;
    }
    s.input.tapsShown = 0;
  }
  if (s.input.mouseCaptured) {
    double x = 0.0, y = 0.0;
    glfwGetCursorPos(w, &x, &y);
    if (!s.input.firstMouse) {
      s.sim.turnView(-static_cast<float>(x - s.input.lastMouseX) * kMouseRadiansPerPixel,
                     -static_cast<float>(y - s.input.lastMouseY) * kMouseRadiansPerPixel);
    }
    s.input.firstMouse = false;
    s.input.lastMouseX = x;
    s.input.lastMouseY = y;
  }
  CharacterInput in;
  in.yaw = s.sim.viewYaw();
  in.pitch = s.sim.viewPitch();
  if (ImGui::GetIO().WantCaptureKeyboard) return in;
  const auto down = [w](int key) { return glfwGetKey(w, key) == GLFW_PRESS; };
  in.forward = down(GLFW_KEY_W);
  in.back = down(GLFW_KEY_S);
  in.left = down(GLFW_KEY_A);
  in.right = down(GLFW_KEY_D);
  in.jump = down(GLFW_KEY_SPACE);
  in.sprint = down(GLFW_KEY_LEFT_SHIFT) || down(GLFW_KEY_RIGHT_SHIFT);
  in.crouch = down(GLFW_KEY_LEFT_CONTROL) || down(GLFW_KEY_RIGHT_CONTROL);
#ifdef __EMSCRIPTEN__
  // In a browser Ctrl+W closes the tab and Ctrl+S, Ctrl+D open dialogs (a page cannot stop
  // them), so crouch-walking needs a key of its own there.
  in.crouch = in.crouch || down(GLFW_KEY_Z);
#endif
  return in;
}

}  // namespace ofps::app
