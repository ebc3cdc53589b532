// octree_script: the demo's scripted run without the demo. Reads a triangle-only OBJ level (the
// canonical form of ../shared/levels and FORMAT.md), builds the octree, runs a controller script
// (docs/script-format.md) with its props and throws, and writes the same files as
// `octree_demo --headless --script`: --trace, --props, --props-trace. It links only the core, the
// OBJ reader and the scenario layer (no Assimp, no OpenGL), so it builds for every platform the
// core does (README "Platforms") and the traces of different platforms can be compared byte for
// byte (scripts/cross.sh).
//
// Differences from the demo: the level is used as the file has it, or turned and scaled by --up
// and --scale (no guess from the file, no move into a local frame), and there is no level spawn
// point: the script's `spawn` line, or --spawn, says
// where the feet start. Exit status: 0 done, 1 a file could not be read or written or the script
// is invalid, 2 bad arguments (CLI11's message).
#include <CLI/CLI.hpp>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>

#include "octree_fps/geometry/scalar_inl.h"
#include "octree_fps/io/obj_reader.h"
#include "octree_fps/spatial/octree.h"
#include "scenario/param_table.h"
#include "scenario/script.h"
#include "scenario/script_props.h"

namespace {

bool writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  if (out) out << text;
  if (!out) {
    std::fprintf(stderr, "octree_script: cannot write %s\n", path.c_str());
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"octree_script: run a controller script on an OBJ level with the core alone"};
  // Options are --name everywhere: on Windows CLI11 would also read "/name" as an option,
  // which takes an absolute POSIX path (Wine, MSYS) for one.
  app.allow_windows_style_options(false);
  std::string levelPath, scriptPath, tracePath, propsPath, propsTracePath;
  std::array<float, 3> spawn{};
  float spawnYawDeg = 0.0f;
  std::string up = "y";
  float scale = 1.0f;
  app.add_option("level", levelPath, "triangle-only OBJ level (world space, metres, Y up)")
      ->required();
  app.add_option("--script", scriptPath, "controller script (docs/script-format.md)")->required();
  app.add_option("--trace", tracePath, "write the controller trace CSV here");
  app.add_option("--props", propsPath, "write the props' final state CSV here");
  app.add_option("--props-trace", propsTracePath, "write one row per prop and step here");
  CLI::Option* spawnOpt =
      app.add_option("--spawn", spawn, "feet position X Y Z (m) when the script has no spawn line");
  app.add_option("--spawn-yaw", spawnYawDeg, "view yaw at the spawn point, degrees");
  app.add_option("--up", up,
                 "the level's up axis: y (default) or z (Quake maps: z up, x y on the "
                 "floor; turned to y up as (x, z, -y))")
      ->check(CLI::IsMember({"y", "z"}));
  app.add_option("--scale", scale, "metres per level unit (0.0254 for Quake's inches)")
      ->check(CLI::PositiveNumber);
  CLI11_PARSE(app, argc, argv);

  ofps::ObjReadResult obj = ofps::readObj(levelPath);
  if (!obj.ok) {
    std::fprintf(stderr, "octree_script: %s\n", obj.error.c_str());
    return 1;
  }
  // The level's frame to the simulation's (Y up, metres), as the demo's --up/--scale: one
  // rotation and one multiply per coordinate, so the same on every platform.
  for (glm::vec3& p : obj.mesh.positions) {
    if (up == "z") p = glm::vec3(p.x, p.z, -p.y);
    p *= scale;
  }
  ofps::ScenarioParams params;
  ofps::ScriptParseResult parsed = ofps::readScript(scriptPath, params);
  std::string error;
  if (!parsed.ok || !parsed.script.applyParams(params, &error)) {
    std::fprintf(stderr, "octree_script: %s\n", parsed.ok ? error.c_str() : parsed.error.c_str());
    return 1;
  }
  if (!parsed.script.spawn && spawnOpt->count() == 0) {
    std::fprintf(stderr,
                 "octree_script: %s has no spawn line and no --spawn was given: an OBJ level has "
                 "no spawn point of its own\n",
                 scriptPath.c_str());
    return 1;
  }
  ofps::Octree octree;
  const ofps::OctreeBuildReport built =
      octree.build(obj.mesh.positions, obj.mesh.indices, {}, params.octree);
  if (!built.ok) {
    std::fprintf(stderr, "octree_script: %s: %s\n", levelPath.c_str(), built.error.c_str());
    return 1;
  }
  // As the demo: the character and the props respawn or vanish 50 m below the level's lowest
  // point (level.h killPlaneY).
  const float killPlaneY = octree.bounds().min.y - 50.0f;
  ofps::PropsParams propsParams;
  propsParams.killPlaneY = killPlaneY;
  std::string trace, props, propsTrace;
  ofps::runScriptWithProps(parsed.script, params.controller, params.throwing, octree,
                           glm::vec3(spawn[0], spawn[1], spawn[2]), spawnYawDeg * ofps::kDegToRad,
                           killPlaneY, propsParams, tracePath.empty() ? nullptr : &trace,
                           propsPath.empty() ? nullptr : &props,
                           propsTracePath.empty() ? nullptr : &propsTrace);
  if (!tracePath.empty() && !writeFile(tracePath, trace)) return 1;
  if (!propsPath.empty() && !writeFile(propsPath, props)) return 1;
  if (!propsTracePath.empty() && !writeFile(propsTracePath, propsTrace)) return 1;
  return 0;
}
