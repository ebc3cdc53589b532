// Crash isolation (level/import_probe.h): files on which Assimp 5.2.5 itself crashes, asserts or
// hangs (found by the fuzzer, tests/fuzz/assimp-crashes/) end in one clear error, and this process,
// which loads them, lives on. Without the separate import process each of these loads would
// abort the test executable.
#include "level/import_probe.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "level/level_loader.h"
#include "level_test_util.h"
#include "support/test_paths.h"

namespace ofps {
namespace {

using test::testLoadOptions;

namespace fs = std::filesystem;

std::string readAll(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(ImportProbe, TheProbeProgramIsBesideTheExecutable) {
  // The tests run from the build folder, where the probe is built (CMAKE_RUNTIME_OUTPUT_DIRECTORY).
  EXPECT_FALSE(findImportProbe("").empty());
  EXPECT_TRUE(findImportProbe("/nonexistent/octree_import_probe").empty());
}

TEST(ImportProbe, AssimpCrashesBecomeErrors) {
  const std::string probe = findImportProbe("");
  ASSERT_FALSE(probe.empty());
  const fs::path dir = test::sourcePath("tests/fuzz/assimp-crashes");
  test::TempDir tmp;
  int crashes = 0, files = 0, hangsKilled = 0;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    // Fuzz inputs: byte 0 chose the extension, the file is the rest; the name keeps the
    // extension (crash-<hash>.<ext>.bin). Only crashes: the oom-* inputs ask Assimp for 2.4 GB.
    const bool hang = name.rfind("timeout-", 0) == 0;
    if ((name.rfind("crash-", 0) != 0 && !hang) || e.path().extension() != ".bin") continue;
    const std::string ext = e.path().stem().extension().string();
    const std::string bytes = readAll(e.path());
    ASSERT_FALSE(bytes.empty());
    const std::string level = tmp.file("level" + std::to_string(files) + ext);
    test::writeFile(level, bytes.substr(1));
    ++files;
    const LevelLoadResult r = loadLevel(level, testLoadOptions());
    ASSERT_FALSE(r.ok) << name << " loaded";
    EXPECT_NE(r.error.find(level), std::string::npos)
        << name << ": the error names the file: " << r.error;
    if (r.error.find("Assimp crashed") != std::string::npos ||
        r.error.find("did not finish") != std::string::npos) {
      ++crashes;
      // The probe alone says the same: it died.
      if (!hang) {
        EXPECT_EQ(probeAssimpImport(probe, level, 60.0).outcome, ProbeOutcome::Crashed) << name;
      }
    }
    if (hang) {
      // Assimp loops forever on it: the probe is killed after its time limit (10 s here), unless
      // the loader's own PLY header check refuses it first (a first line "ply" plus any byte:
      // Assimp's PLY importer takes those, level/header_checks.cpp).
      const bool killed = r.error.find("did not finish") != std::string::npos;
      hangsKilled += killed ? 1 : 0;
      EXPECT_TRUE(killed || r.error.find("no 'end_header' line") != std::string::npos)
          << name << ": " << r.error;
    }
  }
  EXPECT_GE(hangsKilled, 1) << "no input left that hangs Assimp past the loader's checks";
  EXPECT_GE(files, 5);
  // Most of them get past the loader's own checks and crash Assimp in the probe.
  EXPECT_GE(crashes, 3) << "of " << files;
}

TEST(ImportProbe, ACleanFileLoadsWithAndWithoutTheProbe) {
  const std::string level = test::sourcePath("assets/arena.glb");
  LevelLoadOptions o = testLoadOptions();
  const LevelLoadResult isolated = loadLevel(level, o);
  ASSERT_TRUE(isolated.ok) << isolated.error;
  EXPECT_EQ(probeAssimpImport(findImportProbe(""), level, 60.0).outcome, ProbeOutcome::Clean);
  o.isolateImport = false;
  const LevelLoadResult inProcess = loadLevel(level, o);
  ASSERT_TRUE(inProcess.ok) << inProcess.error;
  EXPECT_EQ(isolated.level->triangleCount(), inProcess.level->triangleCount());
}

}  // namespace
}  // namespace ofps
