#include "level/assimp_import.h"

#include <assimp/DefaultIOSystem.h>
#include <assimp/MemoryIOWrapper.h>
#include <assimp/scene.h>

#include <algorithm>
#include <assimp/ProgressHandler.hpp>
#include <filesystem>
#include <functional>
#include <utility>

#include "level/import_probe.h"
#include "level/load_text.h"

namespace ofps::loader {
namespace {

namespace fs = std::filesystem;

using ProgressFn = std::function<void(float, const char*)>;

// Assimp reports reading and post-processing separately; they map to [0, 0.45] and
// [0.45, 0.7] of the whole load. The rest is ours.
class ProgressBridge final : public Assimp::ProgressHandler {
 public:
  explicit ProgressBridge(const ProgressFn& fn) : fn_(fn) {}
  bool Update(float percentage) override {
    if (fn_ && percentage >= 0.0f) fn_(std::clamp(percentage, 0.0f, 1.0f) * 0.7f, stage_);
    return true;  // never cancel
  }
  void UpdateFileRead(int currentStep, int numberOfSteps) override {
    stage_ = "reading file";
    report(currentStep, numberOfSteps, 0.0f, 0.45f);
  }
  void UpdatePostProcess(int currentStep, int numberOfSteps) override {
    stage_ = "post-processing";
    report(currentStep, numberOfSteps, 0.45f, 0.7f);
  }

 private:
  void report(int step, int steps, float lo, float hi) {
    if (!fn_) return;
    const float f =
        steps > 0 ? std::clamp(static_cast<float>(step) / static_cast<float>(steps), 0.0f, 1.0f)
                  : 0.0f;
    fn_(lo + (hi - lo) * f, stage_);
  }
  const ProgressFn& fn_;
  const char* stage_ = "reading file";
};

// Serves one file from memory (a decoded glTF, see level/gltf_extensions.h) and every other
// path from disk, so the glTF's relative image URIs still resolve beside the original level.
class OverlayIOSystem final : public Assimp::DefaultIOSystem {
 public:
  OverlayIOSystem(std::string name, const std::vector<unsigned char>& bytes)
      : name_(std::move(name)), bytes_(bytes) {}
  bool Exists(const char* file) const override {
    return name_ == file || Assimp::DefaultIOSystem::Exists(file);
  }
  Assimp::IOStream* Open(const char* file, const char* mode) override {
    if (name_ == file) {
      return new Assimp::MemoryIOStream(bytes_.data(), bytes_.size(), /*own=*/false);
    }
    return Assimp::DefaultIOSystem::Open(file, mode);
  }

 private:
  std::string name_;
  const std::vector<unsigned char>& bytes_;
};

ImportedScene failed(ImportedScene r, std::string message) {
  r.ok = false;
  r.scene = nullptr;
  r.error = std::move(message);
  return r;
}

}  // namespace

ImportedScene importScene(const std::string& path, const Preflight& pre,
                          const LevelLoadOptions& options) {
  ImportedScene out;
  auto progress = [&options](float f, const char* stage) {
    if (options.onProgress) options.onProgress(f, stage);
  };
  progress(0.0f, "reading file");
  if (pre.gltf.glb.empty() && options.isolateImport) {
    // Assimp crashes inside some importers on damaged files: import in a separate process
    // first, so that such a file costs an error and not the caller (level/import_probe.h).
    const std::string probe = findImportProbe(options.importProbePath);
    if (!probe.empty()) {
      progress(0.0f, "reading file (crash check)");
      const double timeout = 10.0 + 4.0 * static_cast<double>(pre.size) / 1e6;  // 125 MB OBJ: 5 s
      const ProbeResult pr = probeAssimpImport(probe, path, timeout);
      if (pr.outcome == ProbeOutcome::Crashed) {
        return failed(std::move(out),
                      path + ": Assimp crashed reading this file (" + pr.detail +
                          ", in the separate import process): the file is damaged or uses"
                          " something Assimp 5.2.5 cannot read; nothing was loaded");
      }
      if (pr.outcome == ProbeOutcome::TimedOut) {
        return failed(std::move(out),
                      path + ": Assimp did not finish reading this file (" + pr.detail +
                          ", in the separate import process): the file is damaged or too large;"
                          " nothing was loaded");
      }
    }
  }
  out.importer = std::make_unique<Assimp::Importer>();
  Assimp::Importer& importer = *out.importer;
  auto bridge = std::make_unique<ProgressBridge>(options.onProgress);
  importer.SetProgressHandler(bridge.get());
  configureAssimpImporter(importer);  // points and lines counted by us; units from metadata
  const unsigned flags = assimpImportFlags();
  std::string importPath = path;
  if (!pre.gltf.glb.empty()) {
    // The decoded GLB, served from memory under a name beside the level (nothing is written).
    importPath =
        (fs::path(path).parent_path() / (fs::path(path).stem().string() + ".decoded.glb")).string();
    importer.SetIOHandler(new OverlayIOSystem(importPath, pre.gltf.glb));  // the importer owns it
  }
  const aiScene* scene = importer.ReadFile(importPath, flags);
  // Hand our handler back before `bridge` dies; the importer deletes only its own default one.
  struct Restore {
    Assimp::Importer& imp;
    ~Restore() { imp.SetProgressHandler(nullptr); }
  } restore{importer};
  if (scene == nullptr) {
    std::string why = importer.GetErrorString();
    if (why.empty()) why = "unknown error";
    if (contains(why, "contains no faces") || contains(why, "mNumMeshes is 0") ||
        contains(why, "file is too small")) {
      return failed(std::move(out), path + ": no triangles in the file (Assimp: " + why + ")");
    }
    if (contains(why, "No suitable reader found") && (pre.ext == "glb" || pre.ext == "gltf")) {
      return failed(std::move(out),
                    path +
                        ": corrupt glTF: Assimp's glTF importer does not recognise the content"
                        " (damaged or invalid JSON" +
                        std::string(pre.ext == "glb" ? " chunk" : "") + "?)");
    }
    if (contains(why, "No suitable reader found")) {
      return failed(std::move(out),
                    path +
                        ": not a level format Assimp 5.2 can read, or the file is damaged so"
                        " that no importer recognises it (extension '" +
                        pre.ext + "')");
    }
    if ((pre.ext == "glb" || pre.ext == "gltf") && !contains(why, "glTF") &&
        !contains(why, "GLTF")) {
      // Assimp falls back to other importers when the glTF one gives up, and reports the last
      // one's complaint (often "OBJ: ..."), which names the wrong format.
      return failed(std::move(out),
                    path +
                        ": corrupt glTF: Assimp's glTF importer could not read it (damaged or"
                        " invalid JSON?); the last importer Assimp tried said: " +
                        why);
    }
    if (contains(why, "is a POINT but") || contains(why, "is a LINE but")) {
      // Assimp's validation of a face with one or two indices (in an OBJ, an 'f' line cut short,
      // most often the last line of a truncated file) names the mesh's internals, not the file.
      return failed(std::move(out),
                    path + ": a face has fewer than three vertices" +
                        std::string(pre.ext == "obj" ? " (an 'f' line with one or two indices:"
                                                       " is the file truncated?)"
                                                     : "") +
                        "; Assimp: " + why);
    }
    return failed(std::move(out), path + ": Assimp cannot import it: " + why);
  }
  if (scene->mRootNode == nullptr) {
    return failed(std::move(out), path + ": the file has no scene (no root node)");
  }
  out.scene = scene;
  out.ok = true;
  return out;
}

}  // namespace ofps::loader
