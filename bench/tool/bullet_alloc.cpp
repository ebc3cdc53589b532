// See bullet_alloc.h.
#include "bullet_alloc.h"

#include <LinearMath/btAlignedAllocator.h>

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace ofps::bench {
namespace {

std::atomic<int64_t> gLive{0};
std::atomic<int64_t> gPeak{0};
constexpr size_t kHeader = 16;  // keeps malloc's 16-byte alignment for the caller

void* countingAlloc(size_t size) {
  void* raw = std::malloc(size + kHeader);
  if (!raw) return nullptr;
  std::memcpy(raw, &size, sizeof(size));
  const int64_t now = gLive.fetch_add(static_cast<int64_t>(size)) + static_cast<int64_t>(size);
  int64_t p = gPeak.load();
  while (now > p && !gPeak.compare_exchange_weak(p, now)) {
  }
  return static_cast<unsigned char*>(raw) + kHeader;
}

void countingFree(void* block) {
  if (!block) return;
  void* raw = static_cast<unsigned char*>(block) - kHeader;
  size_t size = 0;
  std::memcpy(&size, raw, sizeof(size));
  gLive.fetch_sub(static_cast<int64_t>(size));
  std::free(raw);
}

}  // namespace

void installBulletAllocCounter() {
  static const bool installed = [] {
    btAlignedAllocSetCustom(countingAlloc, countingFree);
    return true;
  }();
  (void)installed;
}

int64_t bulletLiveBytes() {
  return gLive.load();
}
int64_t bulletPeakBytes() {
  return gPeak.load();
}
void resetBulletPeak() {
  gPeak = gLive.load();
}

}  // namespace ofps::bench
