#pragma once
// The level loader's memory budget: before Assimp is called, the memory an import will need is
// estimated from the file's size and its header counts, and an import over the budget is refused
// with an error instead of being attempted (an attempt that runs out of memory may take the
// machine with it: Linux overcommits, so it ends in the OOM killer, not in std::bad_alloc).
//
// The estimate is deliberately generous (peak resident bytes of Assimp's scene, its
// post-processing copies and the loader's own meshes and collision soup): a factor per byte of
// file by kind, text formats expanding most, and per claimed vertex and face where a header
// gives counts (the factors and why: memory_budget.cpp). Units: bytes everywhere.
//
// Thread-safety: all functions are pure or read /proc-free sysconf values; safe from any thread.
#include <cstdint>
#include <string>

#include "level/header_checks.h"

namespace ofps {

// Physical memory of this machine in bytes (sysconf), or 0 when unknown.
uint64_t physicalMemoryBytes();

// The default budget: half the physical memory, at least 256 MiB; 4 GiB when physical memory
// is unknown.
uint64_t defaultLevelMemoryBudget();

// Estimated peak memory, in bytes, to import a file of fileSize bytes with the given lower-case
// extension (no dot) whose header stated `counts` (see header_checks.h; zeros when none).
struct ImportEstimate {
  uint64_t bytes = 0;       // estimated peak memory
  bool fromHeader = false;  // the header's counts (not the file size) gave the larger figure
};
ImportEstimate estimateImportBytes(const std::string& ext, uint64_t fileSize,
                                   const HeaderCounts& counts);

// "12.3 MB" style, for messages (decimal megabytes).
std::string formatMegabytes(uint64_t bytes);

}  // namespace ofps
