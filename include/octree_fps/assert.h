#pragma once
// OFPS_ASSERT(condition, message): the core's checks of the invariants its headers state and of
// programmer errors (an id inserted twice, a cell size <= 0, an event out of order).
//
// When the checks run: OFPS_ASSERTS = 1 turns them on, 0 off. The project's CMake sets it for
// every target it builds: on in Debug and RelWithDebInfo (the default build), off in Release and
// MinSizeRel; -DOCTREE_FPS_ASSERTS=ON or OFF forces it (the repository's
// cmake/ProjectWarnings.cmake). Code that includes these headers without the project's CMake gets
// them on unless NDEBUG is defined. The compiled library keeps the setting it was built with. What
// a failed check does: calls the assert handler (file, line, the condition's text, the message).
// The default prints one line to stderr and aborts. setAssertHandler replaces it (a game may log
// and go on): when the handler returns, the function that checked goes on as its header says it
// does for bad input (for most: it does nothing). Off, the condition is not evaluated (it must have
// no side effects) but still compiled.

namespace ofps {

using AssertHandler = void (*)(const char* file, int line, const char* condition,
                               const char* message);

// Installs handler (nullptr: the default) and returns the previous one (nullptr when the default
// was in place). Thread-safe; the handler may be called from any thread that uses the core.
AssertHandler setAssertHandler(AssertHandler handler);

// Called by OFPS_ASSERT on failure.
void assertFailed(const char* file, int line, const char* condition, const char* message);

}  // namespace ofps

#ifndef OFPS_ASSERTS
#ifdef NDEBUG
#define OFPS_ASSERTS 0
#else
#define OFPS_ASSERTS 1
#endif
#endif

#if OFPS_ASSERTS
#define OFPS_ASSERT(condition, message) \
  ((condition) ? static_cast<void>(0)   \
               : ::ofps::assertFailed(__FILE__, __LINE__, #condition, message))
#else
#define OFPS_ASSERT(condition, message) static_cast<void>(sizeof(!(condition)))
#endif
