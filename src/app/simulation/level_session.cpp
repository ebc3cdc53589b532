#include "app/simulation/level_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#if defined(_WIN32)
#include <io.h>
#define OFPS_ISATTY(f) _isatty(_fileno(f))
#else
#include <unistd.h>
#define OFPS_ISATTY(f) isatty(fileno(f))
#endif

#include "app/simulation/number_format.h"
#include "level/level_loader.h"
#include "level/spawn_search.h"
#include "render/material_opacity.h"

namespace ofps::app {
namespace {

std::string unitsName(float scale) {
  if (scale == 1.0f) return "metres";
  if (scale == 0.01f) return "centimetres";
  if (scale == 0.001f) return "millimetres";
  if (scale == 0.0254f) return "Quake units (0.0254 m)";
  char buf[48];
  std::snprintf(buf, sizeof buf, "units of %g m", static_cast<double>(scale));
  return buf;
}

bool startsWith(const std::string& s, const char* prefix) {
  return s.rfind(prefix, 0) == 0;
}

}  // namespace

std::string frameSummary(const Level& level) {
  const LevelImportFrame& f = level.frame;
  std::string how;
  if (f.guessed) {
    // The loader says "assumed" when nothing pointed either way: the user should check it.
    how = startsWith(f.upSource, "assumed") || startsWith(f.scaleSource, "assumed") ? "assumed"
                                                                                    : "guessed";
  } else if (startsWith(f.upSource, "options") || startsWith(f.scaleSource, "options")) {
    how = "chosen";
  } else if (startsWith(f.upSource, "settings") || startsWith(f.scaleSource, "settings")) {
    how = "remembered";
  } else {
    how = "file says";
  }
  // Bounds are in metres after the import: back to file units by the scale.
  const glm::vec3 size = level.boundsMax - level.boundsMin;
  const double metres = std::max(size.x, size.z);
  std::string s =
      how + " " + (f.upAxis == 'z' ? "Z-up" : "Y-up") + ", " + unitsName(f.scale) + ": ";
  if (f.scale == 1.0f) return s + withCommas(metres) + " m wide";
  return s + withCommas(metres / static_cast<double>(f.scale)) + " units wide -> " +
         withCommas(metres) + " m";
}

bool LevelSession::rebuildOctree(const OctreeBuildParams& params, std::string* outError) {
  if (!octree.empty()) {  // the octree keeps its triangles: no need for the level's arrays
    octreeReport = octree.rebuild(params);
  } else {
    // A level whose triangles all collide needs no per-triangle layer masks: the octree then
    // keeps none (4 bytes per triangle saved) and every query mask matches, which is what a
    // fully solid level means.
    bool allSolid = true;
    for (uint32_t mask : level.collisionLayers) allSolid = allSolid && mask == kLayerSolid;
    const std::span<const uint32_t> layers =
        allSolid ? std::span<const uint32_t>{} : std::span<const uint32_t>(level.collisionLayers);
    octreeReport = octree.build(level.collisionPositions, level.collisionIndices, layers, params);
  }
  if (!octreeReport.ok) {
    *outError = level.path + ": octree build failed: " + octreeReport.error;
    return false;
  }
  drawRanges.build(octree, drawn);
  occlusion.build(octree, drawRanges, occluders);
  return true;
}

LevelSessionLoad loadLevelSession(const std::string& path, const DemoOptions& options,
                                  const OctreeBuildParams& octreeParams, LoadProgress* progress,
                                  const FrameChoice* reimport) {
  LevelSessionLoad out;
  LevelLoadOptions lo;
  lo.upAxis = options.upAxis;
  lo.scale = options.scale;
  if (reimport != nullptr) {
    lo.upAxis = reimport->up;
    lo.scale = reimport->scale;
    lo.ignoreStoredSettings = true;
  }
  lo.allSolid = options.allSolid;
  if (options.memoryBudgetMb) lo.memoryBudgetBytes = *options.memoryBudgetMb * 1000000ull;
  int lastDecile = -1;
  // Console progress only for a person watching: logs, tests and CI get the result lines alone.
  const bool console = OFPS_ISATTY(stderr) != 0;
  lo.onProgress = [&lastDecile, progress, console](float fraction, const char* stage) {
    // Loading is 90% of the bar, the octree build the rest.
    if (progress != nullptr) {
      progress->fraction.store(0.9f * fraction);
      // The loader passes static strings ("reading file", ...), so keeping the pointer is safe.
      progress->stage.store(stage != nullptr ? stage : "loading");
    }
    const int decile = static_cast<int>(fraction * 10.0f);
    if (console && decile != lastDecile) {  // 10% steps keep the console short
      std::fprintf(stderr, "loading: %3d%% %s\n", decile * 10, stage != nullptr ? stage : "");
      lastDecile = decile;
    }
  };
  const auto start = std::chrono::steady_clock::now();
  LevelLoadResult result = loadLevel(path, lo);
  for (const std::string& w : result.warnings) std::fprintf(stderr, "warning: %s\n", w.c_str());
  out.warnings = result.warnings;
  if (!result.ok) {
    out.error = std::move(result.error);
    return out;
  }
  auto session = std::make_unique<LevelSession>();
  session->level = std::move(*result.level);
  session->warnings = std::move(result.warnings);
  const Level& level = session->level;
  session->drawn.assign(level.triangleCount(), 0);
  size_t tri = 0;
  for (const LevelMesh& mesh : level.meshes) {
    const size_t n = mesh.indices.size() / 3;
    for (size_t i = 0; i < n && tri < session->drawn.size(); ++i) {
      session->drawn[tri++] = mesh.visible ? 1 : 0;
    }
  }
  session->occluders = gl::occluderMask(level);
  for (const uint8_t o : session->occluders) session->occluderTriangles += o;
  for (size_t t = 0; t < session->drawn.size(); ++t) {
    if (!session->drawn[t]) ++session->colliderOnlyTriangles;
  }
  for (const uint32_t layers : session->level.collisionLayers) {
    if (layers == 0) ++session->visualOnlyTriangles;
  }
  if (progress != nullptr) {
    progress->fraction.store(0.9f);
    progress->stage.store("building octree");
  }
  if (!session->rebuildOctree(octreeParams, &out.error)) return out;
  bool fallback = false;
  session->spawn = resolveSpawn(level, session->octree, &session->spawnYaw, {}, &fallback);
  session->spawnSource =
      level.spawn ? "node " + level.spawnSource : (fallback ? "fallback" : "search");
  const auto end = std::chrono::steady_clock::now();
  session->loadMs = std::chrono::duration<double, std::milli>(end - start).count();
  if (progress != nullptr) {
    progress->fraction.store(1.0f);
    progress->stage.store("done");
  }
  const OctreeBuildReport& r = session->octreeReport;
  char tris[32], nodes[32], leaves[32];
  std::fprintf(stderr,
               "loaded %s: %s triangles; octree %s nodes, %s leaves, depth %u, %.1f "
               "bytes/triangle, built in %.1f ms; total %.1f ms\n",
               path.c_str(), grouped(level.triangleCount(), tris), grouped(r.nodeCount, nodes),
               grouped(r.leafCount, leaves), r.depth,
               r.storedTriangles > 0 ? static_cast<double>(r.bytes) / r.storedTriangles : 0.0,
               r.buildMs, session->loadMs);
  if (level.origin != glm::dvec3(0.0)) {
    std::fprintf(stderr,
                 "  far from the origin: moved into a local frame, origin offset (%.0f, %.0f, "
                 "%.0f) m (scripts, traces, --camera and the probe use the file's coordinates)\n",
                 level.origin.x, level.origin.y, level.origin.z);
  }
  out.ok = true;
  out.session = std::move(session);
  return out;
}

}  // namespace ofps::app
