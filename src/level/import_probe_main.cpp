// octree_import_probe FILE: imports FILE with Assimp exactly as the level loader does, in a
// process of its own, and exits 0 when the import returns (see level/import_probe.h). A crash,
// an assertion or a hang inside Assimp ends this process instead of the demo.
#include <cstdio>

#include "level/import_probe.h"

// In a sanitizer build, Assimp's own leaks (and zlib's, reached through it) must not turn a
// clean import into a failure: the loader reads any exit status but 0 as a crash. Crashes and
// memory errors are still reported. Unused in other builds.
extern "C" const char* __lsan_default_suppressions() {
  return "leak:libassimp.so\nleak:libz.so\n";
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: octree_import_probe LEVEL_FILE\n");
    return 2;
  }
  return ofps::runImportProbe(argv[1]);
}
