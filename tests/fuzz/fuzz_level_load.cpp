// libFuzzer target over the whole level load path: the bytes go through format
// detection (by extension and by content, as Assimp does), the header-count checks, the glTF
// extension decoding, Assimp's import, the conversion to collision triangles and the octree
// build with validate(). A crash, a sanitizer report, an octree that fails validate() or a
// refused file without a message naming it aborts.
//
// Input layout: byte 0 selects the file extension (kExtensions[byte % count]), the rest is the
// file. Seeds in tests/fuzz/corpus/ follow it (tests/fuzz/make_corpus.py writes them).
//
// Build and run (clang only; scripts/install-deps.sh --ci installs clang and its runtime):
//   cmake -S . -B build-fuzz -G Ninja -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ \
//     -DOCTREE_FPS_FUZZ=ON -DOCTREE_FPS_BUILD_APP=OFF -DOCTREE_FPS_BUILD_TESTS=OFF \
//     -DOCTREE_FPS_BUILD_BENCH=OFF
//   cmake --build build-fuzz --target fuzz_level_load
//   mkdir -p /tmp/fuzz-work && build-fuzz/fuzz_level_load -max_total_time=180 -rss_limit_mb=2048 \
//     -max_len=65536 -timeout=10 /tmp/fuzz-work tests/fuzz/corpus
// Crashes go to ./crash-*; turn each into a regression input under tests/fuzz/regressions/
// (same layout), which fuzz_regressions_test runs in the normal suite.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz_inputs.h"
#include "level/level_loader.h"
#include "octree_fps/spatial/octree.h"

namespace {

// The per-process scratch folder (in /dev/shm when there is one: a file is written per input).
// Held in a never-destroyed string: the atexit cleanup runs after static destructors would have.
const std::string& workDir() {
  static const std::string* const dir = [] {
    const std::string base = std::filesystem::exists("/dev/shm")
                                 ? std::string("/dev/shm")
                                 : std::filesystem::temp_directory_path().string();
    std::string tmpl = base + "/ofps-fuzz-XXXXXX";
    if (mkdtemp(tmpl.data()) == nullptr) std::abort();
    auto* d = new std::string(tmpl);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(workDir(), ec);
    });
    return d;
  }();
  return *dir;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const std::string path = workDir() + "/level." + ofps::fuzz::extensionFor(data[0]);
  {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data + 1), static_cast<std::streamsize>(size - 1));
  }
  const std::string problem = ofps::fuzz::loadAndBuild(path);
  std::error_code ec;
  std::filesystem::remove(path, ec);
  if (!problem.empty()) {
    std::fprintf(stderr, "FUZZ CHECK FAILED: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
