// The assert handler (contracts in assert.h).
#include "octree_fps/assert.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

namespace ofps {

namespace {

std::atomic<AssertHandler> gHandler{nullptr};

void defaultHandler(const char* file, int line, const char* condition, const char* message) {
  std::fprintf(stderr, "%s:%d: assertion failed: %s (%s)\n", file, line, message, condition);
  std::fflush(stderr);
  std::abort();
}

}  // namespace

AssertHandler setAssertHandler(AssertHandler handler) {
  return gHandler.exchange(handler);
}

void assertFailed(const char* file, int line, const char* condition, const char* message) {
  const AssertHandler h = gHandler.load();
  (h != nullptr ? h : defaultHandler)(file, line, condition, message);
}

}  // namespace ofps
