#pragma once
// Shared by the fuzz target and the regression test that replays its findings: the input layout
// (byte 0 picks the extension) and the checks run on each load.
#include <cstdint>
#include <string>

namespace ofps::fuzz {

// The extension for selector byte b: one of every format family the loader handles.
const char* extensionFor(uint8_t b);
// The selector byte for an extension (for writing seeds); 0 when unknown.
uint8_t selectorFor(const std::string& ext);

// Loads the file (memory budget 256 MB, nothing remembered), builds an octree from the
// collision triangles and validates it. Returns "" when all is well (loaded or cleanly
// refused), else what went wrong. *loaded (optional) says whether the level loaded. Sanitizers
// report memory errors themselves.
std::string loadAndBuild(const std::string& path, bool* loaded = nullptr);

}  // namespace ofps::fuzz
