// Replays the fuzz target's inputs in the normal suite (no clang or libFuzzer needed): every seed
// in tests/fuzz/corpus/ must load (they are small valid files of each format, so this also
// checks the corpus stays useful), and every input in tests/fuzz/regressions/ (crashes the
// fuzzer found, fixed since) must pass the fuzz target's checks: loaded or refused cleanly, a
// valid octree. Layout of both: byte 0 picks the extension (fuzz_inputs.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_inputs.h"
#include "level_test_util.h"
#include "support/test_paths.h"

namespace ofps {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs(const std::string& folder) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(test::sourcePath(folder), ec)) {
    if (e.is_regular_file() && e.path().filename() != "README.md") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Writes the input as the file the fuzz target would write; returns its path.
std::string materialize(const test::TempDir& dir, const fs::path& input) {
  const std::string bytes = test::readFile(input.string());
  if (bytes.empty()) return {};
  const std::string path =
      dir.file(input.stem().string() + "." + fuzz::extensionFor(static_cast<uint8_t>(bytes[0])));
  test::writeFile(path, bytes.substr(1));
  return path;
}

TEST(FuzzReplay, EverySeedLoads) {
  const std::vector<fs::path> seeds = inputs("tests/fuzz/corpus");
  ASSERT_GE(seeds.size(), 15u) << "the seed corpus is missing (tests/fuzz/make_corpus.py)";
  test::TempDir dir;
  for (const fs::path& s : seeds) {
    const std::string path = materialize(dir, s);
    ASSERT_FALSE(path.empty()) << s;
    bool loaded = false;
    EXPECT_EQ(fuzz::loadAndBuild(path, &loaded), "") << s;
    EXPECT_TRUE(loaded) << s << " (as " << path << ") did not load: a seed must be a valid level";
  }
}

TEST(FuzzReplay, RegressionInputsPassTheFuzzChecks) {
  test::TempDir dir;
  for (const fs::path& s : inputs("tests/fuzz/regressions")) {
    const std::string path = materialize(dir, s);
    if (path.empty()) continue;
    EXPECT_EQ(fuzz::loadAndBuild(path), "") << s;
  }
}

}  // namespace
}  // namespace ofps
