#pragma once
// What the demo holds for one loaded level: the level itself plus everything derived from it
// on the CPU (the collision octree and the renderer's draw ranges). Shared by the windowed and
// headless paths so both report the same numbers. Building a session touches no GL, so it can
// run on a loader thread; the GL upload happens when the main thread adopts it.
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/simulation/options.h"
#include "level/level.h"
#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/culling/occlusion_cull.h"
#include "octree_fps/spatial/octree.h"

namespace ofps::app {

struct LevelSession {
  Level level;
  Octree octree;
  OctreeBuildReport octreeReport;
  DrawRanges drawRanges;
  std::vector<uint8_t> drawn;  // per original triangle: 1 when its mesh is visible
  // Per original triangle: 1 when it is drawn and always opaque (render/material_opacity.h), so
  // it may hide what is behind it; cut-out materials are left out.
  std::vector<uint8_t> occluders;
  uint32_t occluderTriangles = 0;  // how many of them are 1
  // The octree holds every triangle; these two differ from the drawn ones: collider meshes
  // (UCX_) collide but are not drawn, visual-only (nocollide) ones are drawn but never collide.
  uint32_t colliderOnlyTriangles = 0;
  uint32_t visualOnlyTriangles = 0;
  // The level's occlusion culler, built with the octree and the draw ranges. Its cull() is
  // main-thread only (it holds one traversal's buffer); building runs on the loader thread.
  OcclusionCuller occlusion;
  double loadMs = 0.0;
  // Where the character starts: the level's spawn node, else a spot found by casting down over
  // the level (spawn_search.h). Feet position, world space; yaw in radians.
  glm::vec3 spawn{0.0f};
  float spawnYaw = 0.0f;
  std::string spawnSource;  // "node NAME", "search" or "fallback"
  // The loader's warnings for this level. They belong to the level: a later load that fails
  // has warnings of its own and leaves these as they are.
  std::vector<std::string> warnings;

  // Rebuilds the octree with new parameters (the slider path), the draw ranges and the
  // occlusion culler after it.
  // Returns false with *error when the build fails (the previous octree is then empty).
  bool rebuildOctree(const OctreeBuildParams& params, std::string* outError);
};

// Progress of a load, written by the loading thread and read by the UI.
struct LoadProgress {
  std::atomic<float> fraction{0.0f};
  std::atomic<const char*> stage{"starting"};  // points at a string literal
};

// The up axis and scale the Level section's controls ask for when re-importing a level: unset
// means "auto" (what the file says, else the loader's guess). Settings remembered beside the
// level are ignored, since the controls show them; auto for both forgets them.
struct FrameChoice {
  std::optional<char> up;      // 'y' or 'z'
  std::optional<float> scale;  // metres per file unit
};

// How the level was brought into Y-up metres, for people: "guessed Z-up, Quake units
// (0.0254 m): 8,048 units wide -> 204 m" (ASCII arrow: the panel's font has no U+2192).
std::string frameSummary(const Level& level);

// A loaded session, or why not (CONTRIBUTING.md's failure shape: `ok`, else one message).
struct LevelSessionLoad {
  bool ok = false;
  std::unique_ptr<LevelSession> session;  // set exactly when ok
  std::string error;                      // one clear message when !ok
  // The loader's warnings, also on failure (the way to see why a level came out as it did).
  std::vector<std::string> warnings;
};

// Loads `path` with the options' --up/--scale/--all-solid and builds the octree. Warnings also go
// to stderr. `reimport` (the Level section's Reload) replaces --up/--scale and the remembered
// settings. Thread-safe: touches no global state except stderr.
LevelSessionLoad loadLevelSession(const std::string& path, const DemoOptions& options,
                                  const OctreeBuildParams& octreeParams,
                                  LoadProgress* progress = nullptr,
                                  const FrameChoice* reimport = nullptr);

}  // namespace ofps::app
