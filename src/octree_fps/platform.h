#pragma once
// Internal to the core (src/octree_fps; not an installed interface): the few things the core asks
// of the operating system, behind one seam so that every platform's answer is in one file
// (platform.cpp) and a port touches nothing else.
//
//   Linux (glibc, musl)        huge-page hint: madvise(MADV_HUGEPAGE); threads: std::thread;
//                              temporary folders: mkdtemp
//   Windows (MinGW-w64, MSVC)  huge-page hint: none (large pages need VirtualAlloc with the
//                              SeLockMemoryPrivilege right, which std::vector storage cannot
//                              use); threads: std::thread; temporary folders: a random name
//                              under %TEMP%, created with create_directory (fails if taken)
//   macOS, other POSIX         huge-page hint: none (no transparent huge pages); std::thread;
//                              mkdtemp
//   WebAssembly (Emscripten)   huge-page hint: none; threads: only in a -pthread build; without
//                              it the octree builds on the calling thread; mkdtemp (on Node.js's
//                              file system with NODERAWFS)
// The level loader's process spawn for the Assimp import probe is not here: it belongs to the
// demo's loader (src/level/import_probe.h), which runs the import in-process where it has no
// spawn (Windows, WebAssembly).
//
// Nothing here changes an answer: the octree is bit-identical for any thread count and with or
// without huge pages. Thread-safety: both functions may be called from any thread.

#include <cstddef>
#include <cstdint>
#include <string>

namespace ofps::platform {

// Asks the OS to back [begin, begin + bytes) with huge pages where it offers them transparently
// (a hint; the range is trimmed to whole 2 MiB pages; nothing happens elsewhere).
void adviseHugePages(void* begin, size_t bytes);

// How many threads the octree build may start: std::thread::hardware_concurrency() (at least 1)
// where threads can be started, 1 where they cannot (WebAssembly without -pthread).
uint32_t buildThreads();

// Whether std::thread can start a thread at all on this build.
bool threadsAvailable();

// Creates a new, empty folder that no other caller gets, under the system's temporary folder
// (TMPDIR, TEMP or /tmp), named PREFIX followed by random characters, and returns its path;
// "" when it could not be created. The caller removes it. (The tests' level copies use it.)
std::string makeTempDirectory(const std::string& prefix);

}  // namespace ofps::platform
