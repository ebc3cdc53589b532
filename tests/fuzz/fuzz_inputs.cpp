#include "fuzz_inputs.h"

#include <cmath>
#include <filesystem>
#include <iterator>
#include <span>

#include "level/level_loader.h"
#include "octree_fps/spatial/octree.h"

namespace ofps::fuzz {
namespace {

const char* const kExtensions[] = {"obj", "glb", "gltf", "off", "ply", "stl",     "fbx", "dae",
                                   "3ds", "x",   "ac",   "ase", "md2", "smd",     "lwo", "nff",
                                   "raw", "ter", "ms3d", "b3d", "xgl", "irrmesh", "q3o", "amf"};

}  // namespace

const char* extensionFor(uint8_t b) {
  return kExtensions[b % std::size(kExtensions)];
}

uint8_t selectorFor(const std::string& ext) {
  for (size_t i = 0; i < std::size(kExtensions); ++i) {
    if (ext == kExtensions[i]) return static_cast<uint8_t>(i);
  }
  return 0;
}

std::string loadAndBuild(const std::string& path, bool* loaded) {
  LevelLoadOptions o;
  o.rememberSettings = false;
  o.memoryBudgetBytes = 256ull << 20;
  // In-process: the fuzzer looks for crashes in our code, and a process per input would cut
  // its speed tenfold; Assimp's own crashes are sorted out by triage.py (and, in the demo, by
  // the separate import process, level/import_probe.h).
  o.isolateImport = false;
  const LevelLoadResult r = loadLevel(path, o);
  if (loaded != nullptr) *loaded = r.ok;
  const std::string name = std::filesystem::path(path).filename().string();
  if (!r.ok) {
    if (r.error.empty()) return "refused without a message";
    if (r.error.find(name) == std::string::npos) return "error does not name the file: " + r.error;
    return {};
  }
  const Level& l = *r.level;
  if (l.triangleCount() == 0) return "loaded with no triangles";
  if (l.collisionIndices.size() != 3 * l.triangleCount()) return "index and layer counts disagree";
  for (const glm::vec3& p : l.collisionPositions) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z))
      return "non-finite vertex";
  }
  for (uint32_t i : l.collisionIndices) {
    if (i >= l.collisionPositions.size()) return "index out of range";
  }
  Octree octree;
  const OctreeBuildReport rep =
      octree.build(l.collisionPositions, l.collisionIndices, l.collisionLayers);
  if (!rep.ok) return "octree build refused a loaded level: " + rep.error;
  std::string why;
  if (!octree.validate(&why)) return "octree validate() failed: " + why;
  return {};
}

}  // namespace ofps::fuzz
