#include "octree_fps/platform.h"

#include <algorithm>
#include <thread>

#if defined(__linux__)
#include <sys/mman.h>
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

}  // namespace ofps::platform
