#include "octree_fps/platform.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <system_error>
#include <thread>

#if defined(__linux__)
#include <sys/mman.h>
#endif
#if !defined(_WIN32)
#include <unistd.h>  // mkdtemp (POSIX; glibc declares it in stdlib.h too)
#endif

namespace ofps::platform {

void adviseHugePages(void* begin, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  constexpr uintptr_t kHugePage = uintptr_t{2} << 20;
  const uintptr_t from = reinterpret_cast<uintptr_t>(begin);
  const uintptr_t first = (from + kHugePage - 1) & ~(kHugePage - 1);
  const uintptr_t last = (from + bytes) & ~(kHugePage - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)begin;
  (void)bytes;
#endif
}

bool threadsAvailable() {
#if defined(__EMSCRIPTEN__) && !defined(__EMSCRIPTEN_PTHREADS__)
  return false;
#else
  return true;
#endif
}

uint32_t buildThreads() {
  if (!threadsAvailable()) return 1;
  return std::max(1u, std::thread::hardware_concurrency());
}

std::string makeTempDirectory(const std::string& prefix) {
  std::error_code ec;
  std::filesystem::path base = std::filesystem::temp_directory_path(ec);
  if (ec) base = ".";
#if defined(_WIN32)
  // No mkdtemp: a random name, and create_directory's "already exists" as the collision check.
  std::random_device seed;
  std::mt19937_64 rng((uint64_t{seed()} << 32) ^ seed());
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::filesystem::path dir = base / (prefix + std::to_string(rng() % 1000000000000ull));
    if (std::filesystem::create_directory(dir, ec) && !ec) return dir.string();
  }
  return "";
#else
  std::string pattern = (base / (prefix + "XXXXXX")).string();
  return mkdtemp(pattern.data()) != nullptr ? pattern : std::string();
#endif
}

}  // namespace ofps::platform
