#include "level/preflight.h"

#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <system_error>
#include <utility>

#include "level/header_checks.h"
#include "level/importer_guards.h"
#include "level/load_text.h"
#include "level/memory_budget.h"

namespace ofps::loader {
namespace {

namespace fs = std::filesystem;

// GLB container checks before Assimp, whose answer for a broken GLB is only "No suitable reader
// found". Returns "" when the header is sound.
std::string checkGlbHeader(const std::string& path, uintmax_t size) {
  std::ifstream f(path, std::ios::binary);
  unsigned char h[20] = {};
  f.read(reinterpret_cast<char*>(h), sizeof h);
  const auto got = static_cast<uintmax_t>(f.gcount());
  auto u32 = [&h](int at) {
    return static_cast<uint32_t>(h[at]) | (static_cast<uint32_t>(h[at + 1]) << 8) |
           (static_cast<uint32_t>(h[at + 2]) << 16) | (static_cast<uint32_t>(h[at + 3]) << 24);
  };
  if (got < 12) {
    return "truncated GLB: " + std::to_string(size) + " bytes, less than the 12-byte header";
  }
  if (std::memcmp(h, "glTF", 4) != 0) return "not a GLB file: the first 4 bytes are not 'glTF'";
  const uint32_t version = u32(4);
  if (version != 1 && version != 2) {
    return "unsupported GLB version " + std::to_string(version) + " (header byte 4; expected 2)";
  }
  const uint32_t length = u32(8);
  if (length > size) {
    return "truncated GLB: the header says " + std::to_string(length) + " bytes, the file has " +
           std::to_string(size);
  }
  if (version == 2) {
    if (got < 20) return "truncated GLB: no chunk after the header";
    const uint32_t jsonLength = u32(12);
    if (u32(16) != 0x4E4F534Au) return "corrupt GLB: the first chunk (byte 16) is not JSON";
    if (static_cast<uintmax_t>(jsonLength) + 20 > size) {
      return "truncated GLB: the JSON chunk (" + std::to_string(jsonLength) +
             " bytes at byte 20) runs past the end of the file (" + std::to_string(size) +
             " bytes)";
    }
  }
  return {};
}

// pre by reference: nothing is moved out of it until message is built, so a message taken from a
// part of pre (pre.gltf.error) survives whatever order the compiler builds the arguments in
// (clang builds them left to right; a by-value pre emptied the message first: found by the
// fuzzer).
Preflight refuse(Preflight&& pre, std::string message) {
  pre.ok = false;
  pre.error = std::move(message);
  return std::move(pre);
}

}  // namespace

Preflight preflightChecks(const std::string& path, const LevelLoadOptions& options) {
  Preflight pre;
  if (options.upAxis) {
    const char c = static_cast<char>(std::tolower(static_cast<unsigned char>(*options.upAxis)));
    if (c != 'y' && c != 'z') {
      return refuse(std::move(pre), path + ": invalid up axis '" + std::string(1, *options.upAxis) +
                                        "' (use y or z)");
    }
    pre.up = c;
  }
  if (options.scale && !(std::isfinite(*options.scale) && *options.scale > 0.0f)) {
    return refuse(std::move(pre), path + ": invalid scale " +
                                      fmtFloat(static_cast<double>(*options.scale)) +
                                      " (metres per file unit, must be > 0)");
  }
  if (path.empty()) return refuse(std::move(pre), "no level file given (empty path)");
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (!fs::exists(st)) return refuse(std::move(pre), path + ": level file not found");
  if (fs::is_directory(st)) {
    return refuse(std::move(pre), path + ": is a directory, not a level file");
  }
  if (!fs::is_regular_file(st)) return refuse(std::move(pre), path + ": is not a regular file");
  const auto size = fs::file_size(path, ec);
  pre.size = size;
  if (ec) return refuse(std::move(pre), path + ": cannot read its size (" + ec.message() + ")");
  if (size == 0) return refuse(std::move(pre), path + ": file is empty (0 bytes)");
  if (!std::ifstream(path, std::ios::binary)) {
    return refuse(std::move(pre), path + ": cannot be opened for reading");
  }
  std::string& ext = pre.ext;
  ext = lower(fs::path(path).extension().string());
  if (!ext.empty() && ext[0] == '.') ext.erase(0, 1);
  if (ext == "glb") {
    if (std::string why = checkGlbHeader(path, size); !why.empty()) {
      return refuse(std::move(pre), path + ": " + why);
    }
  }
  // Header counts against the file size, then the memory budget: both before Assimp, which
  // trusts the counts and reserves memory for them.
  const HeaderCounts counts = checkHeaderCounts(path, ext, size);
  if (!counts.ok) return refuse(std::move(pre), counts.error);
  if (std::string why = checkKnownImporterHangs(path, ext); !why.empty()) {
    return refuse(std::move(pre), why);
  }
  const uint64_t budget = options.memoryBudgetBytes.value_or(defaultLevelMemoryBudget());
  pre.budget = budget;
  if (const ImportEstimate est = estimateImportBytes(ext, size, counts); est.bytes > budget) {
    const uint64_t need = est.bytes;
    const std::string basis =
        est.fromHeader ? "its " + counts.format + " header: " + std::to_string(counts.vertices) +
                             " vertices, " + std::to_string(counts.faces) + " faces"
                       : "its size, " + std::to_string(size) + " bytes";
    return refuse(
        std::move(pre),
        path + ": loading it would need about " + formatMegabytes(need) + " (estimated from " +
            basis + "), over the loader's memory budget of " + formatMegabytes(budget) +
            "; it is not attempted. Raise the budget (LevelLoadOptions::memoryBudgetBytes,"
            " demo flag --memory-budget-mb) if this machine has the memory");
  }
  // glTF: required extensions, and the quantized / meshopt-compressed data Assimp 5.2 misreads.
  GltfPrepared& gltf = pre.gltf;
  if (ext == "glb" || ext == "gltf") {
    gltf = prepareGltf(path, ext == "glb", budget);
    if (!gltf.ok) return refuse(std::move(pre), gltf.error);
  }
  // Assimp 5.2.5's Quake 3 importer never loads a map: with validation (always on here) every
  // real .pk3 fails ("mIndices[0] is out of range": it never fills in face indices), and a .pk3
  // whose .bsp is damaged crashes inside the importer before validation can run. A bare .bsp has
  // no importer at all. So these are refused before Assimp sees them.
  if (ext == "pk3" || ext == "bsp") {
    return refuse(std::move(pre),
                  path + ": Quake 3 " + (ext == "pk3" ? ".pk3 archives" : ".bsp maps") +
                      " cannot be loaded: Assimp 5.2's Quake 3 importer produces no valid faces"
                      " (and crashes on damaged maps). Convert the map to OBJ or glTF with a BSP"
                      " converter (e.g. q3map2 -convert) and load that file");
  }
  return pre;
}

}  // namespace ofps::loader
