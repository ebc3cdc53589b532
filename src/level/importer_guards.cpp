// Guards against inputs that hang or crash Assimp 5.2.5; see importer_guards.h.
#include "level/importer_guards.h"

#include <cctype>
#include <fstream>

namespace ofps {
namespace {

bool isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

// True when `line` starting at `at` holds `word` followed by whitespace or its end.
bool tokenAt(const std::string& line, size_t at, const char* word) {
  size_t i = 0;
  for (; word[i] != '\0'; ++i) {
    if (at + i >= line.size() || line[at + i] != word[i]) return false;
  }
  return at + i == line.size() || isBlank(line[at + i]);
}

size_t firstNonBlank(const std::string& line) {
  size_t i = 0;
  while (i < line.size() && isBlank(line[i])) ++i;
  return i;
}

std::string checkSmd(const std::string& path, std::ifstream& f) {
  std::string line;
  bool inNodes = false;
  uint64_t nodesLine = 0, lineNo = 0;
  bool nul = false;
  while (!nul && std::getline(f, line)) {
    ++lineNo;
    // Assimp's text parsers take a NUL byte for the end of the file: so does this scan.
    if (const size_t z = line.find('\0'); z != std::string::npos) {
      line.resize(z);
      nul = true;
    }
    if (inNodes) {
      if (tokenAt(line, 0, "end")) inNodes = false;
    } else if (tokenAt(line, firstNonBlank(line), "nodes")) {
      inNodes = true;
      nodesLine = lineNo;
    }
  }
  if (!inNodes) return {};
  return path + ": damaged SMD file: the 'nodes' section at line " + std::to_string(nodesLine) +
         " is not closed by a line starting with 'end' (Assimp 5.2's SMD importer would never"
         " finish reading it)";
}

}  // namespace

std::string checkKnownImporterHangs(const std::string& path, const std::string& ext) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return {};
  std::string first;
  {
    std::string line;
    while (first.empty() && std::getline(f, line)) {
      const size_t at = firstNonBlank(line);
      size_t end = at;
      while (end < line.size() && !isBlank(line[end])) ++end;
      first = line.substr(at, end - at);
      if (f.tellg() > 4096) break;  // only a text file's first line decides
    }
  }
  // Assimp picks the SMD importer by extension, and falls back to it by content.
  if (ext == "smd" || ext == "vta" || first == "version" || first == "nodes") {
    f.clear();
    f.seekg(0);
    return checkSmd(path, f);
  }
  return {};
}

}  // namespace ofps
