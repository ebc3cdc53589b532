// Hostile level files: headers whose counts the file cannot hold, valid files over
// the loader's memory budget, Assimp's own invalid/OutOfMemory.off. Each must end in one clear
// error naming the file, the claim and the size, and the load's peak memory must stay small.
// Memory is measured, not time: every such load runs in a forked child whose peak resident size
// (wait4's ru_maxrss) the parent reads. Counts and sizes in the expected messages are computed
// by hand from the bytes each test writes.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <string>

#include "level/header_checks.h"
#include "level/level_loader.h"
#include "level/memory_budget.h"
#include "level_test_util.h"
#include "support/test_paths.h"

namespace ofps {
namespace {

using test::TempDir;
using test::testLoadOptions;
using test::writeFile;

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAsan = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAsan = true;
#else
constexpr bool kAsan = false;
#endif
#else
constexpr bool kAsan = false;
#endif

// Peak memory a refused load may add, in bytes (a refusal must not cost more than a small level
// does).
constexpr long kMaxGrowthBytes = 200L * 1000 * 1000;

struct ChildLoad {
  bool ok = false;           // the level loaded
  std::string error;         // LevelLoadResult::error
  long peakGrowthBytes = 0;  // child's peak RSS minus its RSS before loading
  bool exited = false;       // the child exited normally (no crash)
};

// Loads `path` in a forked child; returns what happened and how much memory it took. Outside
// ASan the child's address space is capped at 4 GB, so a regression that lets Assimp trust a
// lying header fails this test (bad_alloc -> a different message) instead of taking the machine.
ChildLoad loadInChild(const std::string& path, const LevelLoadOptions& options) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  const pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    if (!kAsan) {
      const rlimit cap{4ull << 30, 4ull << 30};
      setrlimit(RLIMIT_AS, &cap);
    }
    rusage before{};
    getrusage(RUSAGE_SELF, &before);
    const LevelLoadResult r = loadLevel(path, options);
    rusage after{};
    getrusage(RUSAGE_SELF, &after);
    const long growth = (after.ru_maxrss - before.ru_maxrss) * 1024L;
    std::string msg = std::string(r.ok ? "1" : "0") + std::to_string(growth) + "\n" + r.error;
    ssize_t off = 0;
    while (off < static_cast<ssize_t>(msg.size())) {
      const ssize_t n = write(fds[1], msg.data() + off, msg.size() - static_cast<size_t>(off));
      if (n <= 0) break;
      off += n;
    }
    _exit(0);
  }
  close(fds[1]);
  std::string msg;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) msg.append(buf, static_cast<size_t>(n));
  close(fds[0]);
  int status = 0;
  rusage ru{};
  wait4(pid, &status, 0, &ru);
  ChildLoad c;
  c.exited = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  const size_t nl = msg.find('\n');
  if (nl == std::string::npos || msg.empty()) return c;
  c.ok = msg[0] == '1';
  c.peakGrowthBytes = std::stol(msg.substr(1, nl - 1));
  c.error = msg.substr(nl + 1);
  return c;
}

// A refused file: one error naming the file and containing every part; no crash; small memory.
void expectRefused(const std::string& path, std::initializer_list<std::string> parts,
                   const LevelLoadOptions& o = testLoadOptions('y')) {
  const ChildLoad c = loadInChild(path, o);
  ASSERT_TRUE(c.exited) << path << ": the loading child crashed";
  ASSERT_FALSE(c.ok) << path << " loaded; it should have been refused";
  EXPECT_NE(c.error.find(std::filesystem::path(path).filename().string()), std::string::npos)
      << "error does not name the file: " << c.error;
  for (const std::string& p : parts) {
    EXPECT_NE(c.error.find(p), std::string::npos) << "expected '" << p << "' in: " << c.error;
  }
  EXPECT_EQ(c.error.find('\n'), std::string::npos) << "one message, one line: " << c.error;
  EXPECT_LT(c.peakGrowthBytes, kMaxGrowthBytes) << path << ": " << c.error;
}

std::string le32(uint32_t v) {
  std::string s(4, '\0');
  for (int k = 0; k < 4; ++k) s[static_cast<size_t>(k)] = static_cast<char>((v >> (8 * k)) & 0xFF);
  return s;
}

// A binary STL: 80-byte header, the claimed count, then `real` facets of 50 bytes.
std::string binaryStl(uint32_t claimed, uint32_t real) {
  std::string s(80, ' ');
  s.replace(0, 9, "binarystl");
  s += le32(claimed);
  for (uint32_t f = 0; f < real; ++f) {
    std::string facet(50, '\0');
    const float v[12] = {0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0};  // normal, then 3 corners
    std::memcpy(facet.data(), v, sizeof v);
    s += facet;
  }
  return s;
}

TEST(HostileInput, OffHeaderLies) {
  TempDir dir;
  // 60 bytes claiming 1.5 billion vertices.
  std::string off = "OFF\n1500000000 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  off += std::string(60 - off.size(), '\n');
  ASSERT_EQ(off.size(), 60u);
  writeFile(dir.file("lying_vertices.off"), off);
  expectRefused(dir.file("lying_vertices.off"),
                {"OFF header claims 1500000000 vertices", "only 60 bytes"});
  // The faces lie: 3 vertices, 100 million faces (at least 2 bytes each) in 50 bytes.
  const std::string faces = "OFF\n3 100000000 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  writeFile(dir.file("lying_faces.off"), faces);
  expectRefused(dir.file("lying_faces.off"),
                {"100000000 faces", "only " + std::to_string(faces.size()) + " bytes"});
  // A count so big it overflows 64 bits must not wrap into a small claim.
  writeFile(dir.file("overflow.off"), "OFF\n99999999999999999999999 1 0\n0 0 0\n");
  expectRefused(dir.file("overflow.off"), {"OFF header claims", "more than 2^64"});
}

TEST(HostileInput, AssimpCorpusOutOfMemoryOff) {
  const std::string path = "/usr/share/assimp/models/invalid/OutOfMemory.off";
  if (!test::fileExists(path)) GTEST_SKIP() << "assimp-testmodels is not installed";
  TempDir dir;
  std::filesystem::copy_file(path, dir.file("OutOfMemory.off"));
  // Its header claims 353535235358 vertices in 309 bytes (read with a text editor).
  expectRefused(dir.file("OutOfMemory.off"), {"353535235358 vertices", "only 309 bytes"});
}

TEST(HostileInput, PlyHeaderLies) {
  TempDir dir;
  const std::string asciiHead =
      "ply\nformat ascii 1.0\nelement vertex 2000000000\nproperty float x\nproperty float y\n"
      "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n";
  const std::string ascii = asciiHead + "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n";
  writeFile(dir.file("lying.ply"), ascii);
  expectRefused(dir.file("lying.ply"), {"PLY ascii header claims element vertex 2000000000",
                                        "only " + std::to_string(ascii.size()) + " bytes"});
  // Binary: 3 vertices of 12 bytes, then a face element claiming 50 million faces; each face
  // needs at least its 1-byte list length.
  std::string bin =
      "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
      "property float y\nproperty float z\nelement face 50000000\n"
      "property list uchar uint vertex_indices\nend_header\n";
  const float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  bin.append(reinterpret_cast<const char*>(v), sizeof v);
  bin += '\3' + le32(0) + le32(1) + le32(2);
  writeFile(dir.file("lying_binary.ply"), bin);
  expectRefused(dir.file("lying_binary.ply"),
                {"PLY binary header claims element vertex 3, element face 50000000",
                 "only " + std::to_string(bin.size()) + " bytes"});
  // An element with no properties still costs one instance each.
  const std::string empty =
      "ply\nformat binary_big_endian 1.0\nelement junk 4000000000\nend_header\n";
  writeFile(dir.file("empty_element.ply"), empty);
  expectRefused(dir.file("empty_element.ply"), {"element junk 4000000000"});
}

TEST(HostileInput, BinaryStlHeaderLies) {
  TempDir dir;
  // Claims 10^9 facets (84 + 50e9 bytes) but holds one: 134 bytes.
  writeFile(dir.file("lying.stl"), binaryStl(1000000000u, 1));
  expectRefused(dir.file("lying.stl"),
                {"binary STL header claims 1000000000 facets", "50000000084", "only 134 bytes"});
  // Shorter than the 84-byte binary header and not ASCII.
  writeFile(dir.file("stub.stl"), std::string(40, '\x01'));
  expectRefused(dir.file("stub.stl"), {"84-byte header", "40 bytes"});
}

// The checks refuse only what cannot fit: the smallest honest files of each format still load,
// with the triangle counts written into them.
TEST(HostileInput, HonestHeadersStillLoad) {
  TempDir dir;
  struct Case {
    const char* name;
    std::string bytes;
    size_t triangles;
  };
  std::string plyBin =
      "ply\nformat binary_little_endian 1.0\nelement vertex 3\nproperty float x\n"
      "property float y\nproperty float z\nelement face 1\n"
      "property list uchar uint vertex_indices\nend_header\n";
  const float v[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
  plyBin.append(reinterpret_cast<const char*>(v), sizeof v);
  plyBin += '\3' + le32(0) + le32(1) + le32(2);
  const Case cases[] = {
      {"min.off", "OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2", 1},  // no final newline
      {"min.ply",
       "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
       "property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
       "0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n",
       1},
      {"min_binary.ply", plyBin, 1},
      {"two.stl", binaryStl(2, 2), 2},
      {"ascii.stl",
       "solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\n"
       "endloop\nendfacet\nendsolid t\n",
       1},
  };
  for (const Case& c : cases) {
    writeFile(dir.file(c.name), c.bytes);
    const LevelLoadResult r = loadLevel(dir.file(c.name), testLoadOptions('y'));
    ASSERT_TRUE(r.ok) << c.name << ": " << r.error;
    EXPECT_EQ(r.level->triangleCount(), c.triangles) << c.name;
  }
}

// An OBJ made here: an n x n grid of quads, 2 n^2 triangles; ~25 bytes per line.
std::string gridObj(int n) {
  std::string s;
  for (int z = 0; z <= n; ++z) {
    for (int x = 0; x <= n; ++x) s += "v " + std::to_string(x) + " 0 " + std::to_string(z) + "\n";
  }
  for (int z = 0; z < n; ++z) {
    for (int x = 0; x < n; ++x) {
      const int a = z * (n + 1) + x + 1, b = a + 1, c = a + n + 1, d = c + 1;
      s += "f " + std::to_string(a) + " " + std::to_string(c) + " " + std::to_string(b) + "\n";
      s += "f " + std::to_string(b) + " " + std::to_string(c) + " " + std::to_string(d) + "\n";
    }
  }
  return s;
}

TEST(HostileInput, ValidFileOverTheMemoryBudget) {
  TempDir dir;
  const std::string obj = gridObj(60);  // 7200 triangles, ~150 KB
  writeFile(dir.file("grid.obj"), obj);
  // Under the default budget it loads (the budget refuses only what is over it).
  const LevelLoadResult r = loadLevel(dir.file("grid.obj"), testLoadOptions('y'));
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->triangleCount(), 7200u);
  // With a 1 MB budget the same file is refused before Assimp runs.
  LevelLoadOptions small = testLoadOptions('y');
  small.memoryBudgetBytes = 1000000;
  expectRefused(dir.file("grid.obj"),
                {"memory budget of 1.0 MB", "its size, " + std::to_string(obj.size()) + " bytes",
                 "not attempted"},
                small);
  // An honest binary PLY of 40 million vertices (480 MB of floats, written sparse: zeros stand
  // in for the data) is over a 500 MB budget: refused before a byte of its data is read.
  const std::string head =
      "ply\nformat binary_little_endian 1.0\nelement vertex 40000000\nproperty float x\n"
      "property float y\nproperty float z\nelement face 0\n"
      "property list uchar uint vertex_indices\nend_header\n";
  writeFile(dir.file("big.ply"), head);
  std::filesystem::resize_file(dir.file("big.ply"), head.size() + 40000000ull * 12);
  LevelLoadOptions mid = testLoadOptions('y');
  mid.memoryBudgetBytes = 500000000;
  expectRefused(dir.file("big.ply"), {"memory budget of 500.0 MB", "not attempted"}, mid);
}

// Found by the fuzzer: Assimp 5.2.5's PLY importer never returns on a header that does not end.
TEST(HostileInput, PlyHeaderWithoutEnd) {
  TempDir dir;
  writeFile(dir.file("cut.ply"), "ply\nformat ascii 1.0\nelement vertex 1\nproperty float x\n");
  expectRefused(dir.file("cut.ply"), {"no 'end_header' line"});
  writeFile(dir.file("nul.ply"), std::string("ply\nformat ascii 1.0\n\0\nend_header\n", 34));
  expectRefused(dir.file("nul.ply"), {"no 'end_header' line"});
  // Assimp's PLY importer checks only the first three letters, in any case: so does the check.
  writeFile(dir.file("upper.ply"), "PLY\nformat ascii 1.0\nelement vertex 1\nproperty float x\n");
  expectRefused(dir.file("upper.ply"), {"no 'end_header' line"});
  writeFile(dir.file("letter.ply"), "plyt\nformat ascii 1.0\nelement vertex 1\n");
  expectRefused(dir.file("letter.ply"), {"no 'end_header' line"});
}

// Found by the fuzzer: Assimp 5.2.5's SMD importer never returns when the `nodes` section is not
// closed by `end` before the end of the file or a NUL byte. Refused up front; the valid SMD seed
// in tests/fuzz/corpus still loads (FuzzReplay.EverySeedLoads).
TEST(HostileInput, SmdNodesSectionNeverClosed) {
  TempDir dir;
  writeFile(dir.file("open.smd"), "version 1\nnodes\n0 \"root\" -1\n");
  expectRefused(dir.file("open.smd"), {"'nodes' section at line 2", "not closed"});
  writeFile(dir.file("nul.smd"), std::string("version 1\nnodes\n0 \"root\" -1\n\0\nend\n", 34));
  expectRefused(dir.file("nul.smd"), {"'nodes' section at line 2"});
  // Another extension does not hide it: Assimp falls back to reading it as SMD by content.
  writeFile(dir.file("open.txt"), "nodes\n0 \"root\" -1\n");
  expectRefused(dir.file("open.txt"), {"damaged SMD"});
}

TEST(HostileInput, DefaultBudgetIsAFractionOfPhysicalMemory) {
  const uint64_t phys = physicalMemoryBytes();
  ASSERT_GT(phys, 0u);
  EXPECT_EQ(defaultLevelMemoryBudget(), std::max<uint64_t>(phys / 2, 256ull << 20));
}

}  // namespace
}  // namespace ofps
