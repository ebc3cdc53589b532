#pragma once
// The windowed demo's parts, each in its own file, all on the one DemoState (demo_state.h).
// Main thread only. Everything but writeRunOutputs and placeCharacter calls GLFW or GL, and
// needs the window's context current (after openWindow).
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/window/demo_state.h"

namespace ofps::app {

// demo_setup.cpp: the window, GL context and ImGui (false with a message on stderr when any
// cannot be made; nothing to close then), and their teardown.
bool openWindow(DemoState& s);
void closeWindow(DemoState& s);
// demo_setup.cpp: everything before the first frame, for both main loops (the native one's and
// the page's): the options into the state, --script's script read and checked, the first level
// loaded, the window opened, then the renderers, UI lists, --spawn-props, --teams and the script
// attached. Returns the exit status so far: 0 (run frames), 2 (a bad script) or 1 (the level,
// the window or a renderer failed); each failure is said on stderr. s.input.window is null when
// the window was never opened (then there is nothing to close).
int openDemo(DemoState& s, const DemoOptions& options);

// demo_level.cpp: the level and the character on it.
// Puts the character at the spawn point, or flying at --camera's pose on the first level.
void placeCharacter(DemoState& s, bool useOptionCamera);
// Adopts a freshly built session: GL upload, camera, UI lists.
void adoptSession(DemoState& s, std::unique_ptr<LevelSession> session, bool useOptionCamera);
// Takes a finished background load: adopts it, or keeps the level and shows the error.
void pollLoader(DemoState& s);
// A load that failed: the error beside the Load button, on the view and in a toast, the level
// kept (also for a failure found before the loader ran: the page's Assimp conversion).
void reportLoadFailure(DemoState& s, const std::string& error,
                       std::vector<std::string> warnings = {});
// Starts loading `path` in the background with params.octree (busy: says so, loads nothing);
// `reimport` is the Level section's Reload with its up axis and scale.
void requestLevelLoad(DemoState& s, const std::string& path,
                      const std::optional<FrameChoice>& reimport = std::nullopt);
// The load's toast over the view (progress, outcome), panel shown or not.
void drawLevelToast(DemoState& s);
// Rebuilds the octree from params.octree and re-uploads the draw order.
void applyOctreeParams(DemoState& s);

// demo_input.cpp: GLFW callbacks on s.input.window, and the keys held now.
void installInputCallbacks(DemoState& s);
// After glfwPollEvents, before ImGui's new frame: keys tapped within the poll are shown to ImGui
// as down for this one frame (ImGui 1.86 reads key state, so it would miss them); readInput lets
// them up again.
void deliverKeyTaps(DemoState& s);
CharacterInput readInput(DemoState& s);
// After the frame's panel: the demo's keys pressed since the last frame (O, C, T, ...), unless a
// text field or slider of the panel took the keyboard in this frame.
void applyKeyPresses(DemoState& s);

// demo_frame.cpp: one frame (simulate, cull, overlay, panel and its requests, draw); dt in
// seconds since the last frame.
void runFrame(DemoState& s, float dt);

// demo_automation.cpp: after each frame (s.frame.count frames done): --swap-to, the trace files
// when a script ends, screenshots. Returns true when this was the last frame; sets *ioStatus to
// 1 when a file cannot be written.
bool endOfFrame(DemoState& s, int* ioStatus);
// demo_automation.cpp: --props and --stats-json at the end of the run; returns status, or 1
// when a file cannot be written. Needs no GL context.
int writeRunOutputs(const DemoState& s, int status);
// demo_automation.cpp: what --stats-json writes (an empty object before the first level); the
// page's stats hook returns it too (src/app/web/web_hooks.cpp).
nlohmann::json runStatsJson(const DemoState& s);

}  // namespace ofps::app
