// Memory budget; see memory_budget.h.
#include "level/memory_budget.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <limits>

namespace ofps {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
uint64_t satMul(uint64_t a, uint64_t b) {
  return (a != 0 && b > kMax / a) ? kMax : a * b;
}
uint64_t satAdd(uint64_t a, uint64_t b) {
  return b > kMax - a ? kMax : a + b;
}

// Bytes of peak memory per byte of file, by kind. Text formats expand most: an OBJ face line
// "f 1/1/1 2/2/2 3/3/3" (~20 bytes) becomes three un-shared Assimp vertices with position,
// normal and UV (3 x 32 bytes), an aiFace with its index array, then the loader's LevelMesh and
// collision copies: ~25x. Binary formats store floats already: ~8x. Unknown kinds get the text
// factor (the safe side).
uint64_t factorFor(const std::string& ext) {
  static const char* const kBinary[] = {"glb",     "stl", "fbx", "3ds",  "blend", "md2", "md3",
                                        "md5mesh", "mdl", "b3d", "ms3d", "lwo",   "lws", "x3db"};
  for (const char* e : kBinary) {
    if (ext == e) return 10;
  }
  return 32;
}

// Per claimed vertex and face (OFF/PLY/STL): Assimp's vertex arrays (position, normal), the
// loader's LevelMesh (position, normal, UV) and collision copy; faces un-indexed by some
// importers into three vertices each, plus aiFace and index storage.
constexpr uint64_t kBytesPerVertex = 64;
constexpr uint64_t kBytesPerFace = 256;
// A fixed overhead: Assimp's importer registry, post-processing steps, the texture fallback.
constexpr uint64_t kBaseBytes = 16u << 20;

}  // namespace

uint64_t physicalMemoryBytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long pageSize = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || pageSize <= 0) return 0;
  return satMul(static_cast<uint64_t>(pages), static_cast<uint64_t>(pageSize));
}

uint64_t defaultLevelMemoryBudget() {
  const uint64_t phys = physicalMemoryBytes();
  if (phys == 0) return 4ull << 30;
  return std::max<uint64_t>(phys / 2, 256ull << 20);
}

ImportEstimate estimateImportBytes(const std::string& ext, uint64_t fileSize,
                                   const HeaderCounts& counts) {
  uint64_t fromCounts =
      satAdd(satMul(counts.vertices, kBytesPerVertex), satMul(counts.faces, kBytesPerFace));
  // PLY elements other than vertex and face are still parsed into instance lists.
  fromCounts = satAdd(fromCounts, satMul(counts.elements, kBytesPerVertex));
  // Binary PLY stores numbers as they are in memory: the binary factor.
  const bool binaryPly = counts.format == "PLY binary";
  const uint64_t fromSize = satMul(fileSize, binaryPly ? factorFor("stl") : factorFor(ext));
  return {satAdd(kBaseBytes, std::max(fromCounts, fromSize)), fromCounts > fromSize};
}

std::string formatMegabytes(uint64_t bytes) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / 1.0e6);
  return buf;
}

}  // namespace ofps
