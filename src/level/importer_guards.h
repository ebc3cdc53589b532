#pragma once
// Inputs known to hang or crash Assimp 5.2.5 (Debian 12), refused before import with an error
// that says why. Each guard is the narrowest rule that separates the failing inputs from valid
// files, found by the fuzzer (tests/fuzz) and kept by a regression input under
// tests/fuzz/regressions/ that the normal suite replays.
//
//   SMD: a `nodes` section not closed by a line starting with `end` makes the SMD importer loop
//        forever (seen: a cut or damaged file, or `end` indented or glued to other text).
//
// Thread-safety: pure function of the file's bytes; safe from any thread.
#include <cstdint>
#include <string>

namespace ofps {

// in path: the file; in ext: lower-case extension without the dot. Returns "" when no guard
// applies, else the whole error message (naming the file). Reads the file only when a guard's
// format matches (by extension or first token); never throws.
std::string checkKnownImporterHangs(const std::string& path, const std::string& ext);

}  // namespace ofps
