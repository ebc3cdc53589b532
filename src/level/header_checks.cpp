// Header-count checks; see header_checks.h. Each parser reads only the header it needs, with
// saturating arithmetic (a count of 10^30 must not wrap into something small).
#include "level/header_checks.h"

#include <cctype>
#include <cstring>
#include <fstream>
#include <limits>
#include <vector>

#include "level/load_text.h"

namespace ofps {
namespace {

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
constexpr size_t kHeadBytes = 64 * 1024;

uint64_t satMul(uint64_t a, uint64_t b) {
  if (a != 0 && b > kMax / a) return kMax;
  return a * b;
}
uint64_t satAdd(uint64_t a, uint64_t b) {
  return b > kMax - a ? kMax : a + b;
}

// Parses an unsigned decimal; saturates instead of wrapping. False when not a number.
bool parseCount(const std::string& token, uint64_t* out) {
  if (token.empty()) return false;
  uint64_t v = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return false;
    v = satAdd(satMul(v, 10), static_cast<uint64_t>(c - '0'));
  }
  *out = v;
  return true;
}

std::string refuse(const std::string& path, const std::string& format, const std::string& claim,
                   uint64_t needBytes, uint64_t fileSize) {
  return path + ": the " + format + " header claims " + claim + ", which needs at least " +
         (needBytes == kMax ? std::string("more than 2^64") : std::to_string(needBytes)) +
         " bytes, but the file has only " + std::to_string(fileSize) +
         " bytes; the header lies (damaged or hostile file), so it is not loaded";
}

// --- OFF ----------------------------------------------------------------------------------

// Whitespace-separated tokens, '#' comments to the end of the line skipped. Records where the
// token ended so the data size after the header is known.
class Tokens {
 public:
  explicit Tokens(const std::string& s) : s_(s) {}
  bool next(std::string* tok) {
    for (;;) {
      while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
      if (pos_ < s_.size() && s_[pos_] == '#') {
        while (pos_ < s_.size() && s_[pos_] != '\n') ++pos_;
        continue;
      }
      break;
    }
    if (pos_ >= s_.size()) return false;
    const size_t start = pos_;
    while (pos_ < s_.size() && !std::isspace(static_cast<unsigned char>(s_[pos_])) &&
           s_[pos_] != '#') {
      ++pos_;
    }
    *tok = s_.substr(start, pos_ - start);
    return true;
  }
  size_t pos() const { return pos_; }

 private:
  const std::string& s_;
  size_t pos_ = 0;
};

bool isOffKeyword(const std::string& tok) {
  if (tok.size() < 3 || tok.size() > 8) return false;
  std::string up;
  for (char c : tok) up.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(c))));
  if (up.compare(up.size() - 3, 3, "OFF") != 0) return false;
  for (size_t i = 0; i + 3 < up.size(); ++i) {
    if (std::strchr("STCN4", up[i]) == nullptr) return false;  // ST, C, N, 4 prefixes
  }
  return true;
}

HeaderCounts checkOff(const std::string& path, const std::string& head, uint64_t fileSize,
                      std::string keyword, Tokens tokens) {
  HeaderCounts h;
  h.format = "OFF";
  std::string tok;
  // "nOFF" is followed by the dimension; accept and skip it.
  if (!keyword.empty() && (keyword[0] == 'n')) tokens.next(&tok);
  uint64_t nv = 0, nf = 0;
  if (!tokens.next(&tok) || !parseCount(tok, &nv)) return h;
  if (!tokens.next(&tok) || !parseCount(tok, &nf)) return h;
  h.vertices = nv;
  h.faces = nf;
  const uint64_t headerEnd = tokens.pos();
  const uint64_t rest = fileSize > headerEnd ? fileSize - headerEnd : 0;
  // A vertex is at least 3 numbers, a face at least its vertex count: 2 bytes per number. The
  // last number may end the file without a separator: one byte of slack.
  const uint64_t need = satAdd(satMul(nv, 6), satMul(nf, 2));
  if (need > rest + 1) {
    h.ok = false;
    h.error =
        refuse(path, "OFF", std::to_string(nv) + " vertices and " + std::to_string(nf) + " faces",
               satAdd(need, headerEnd), fileSize);
  }
  (void)head;
  return h;
}

// --- PLY ----------------------------------------------------------------------------------

int plyTypeSize(const std::string& t) {
  if (t == "char" || t == "uchar" || t == "int8" || t == "uint8") return 1;
  if (t == "short" || t == "ushort" || t == "int16" || t == "uint16") return 2;
  if (t == "int" || t == "uint" || t == "int32" || t == "uint32" || t == "float" || t == "float32")
    return 4;
  if (t == "double" || t == "float64") return 8;
  return 0;
}

HeaderCounts checkPly(const std::string& path, const std::string& head, uint64_t fileSize) {
  HeaderCounts h;
  h.format = "PLY";
  struct Element {
    std::string name;
    uint64_t count = 0;
    uint64_t minAscii = 0;  // bytes per instance
    uint64_t minBinary = 0;
  };
  std::vector<Element> elements;
  bool binary = false, formatSeen = false;
  bool countsKnown = true;  // false: a count or type Assimp will reject; only end_header checked
  size_t pos = 0;
  size_t dataStart = std::string::npos;
  while (pos < head.size()) {
    size_t eol = head.find('\n', pos);
    if (eol == std::string::npos) break;  // no end_header in what was read: refused below
    std::string line = head.substr(pos, eol - pos);
    if (line.find('\0') != std::string::npos) break;  // Assimp stops reading text at a NUL
    pos = eol + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    std::vector<std::string> w;
    {
      Tokens t(line);
      std::string tok;
      while (t.next(&tok)) w.push_back(tok);
    }
    if (w.empty()) continue;
    if (w[0] == "format" && w.size() >= 2) {
      formatSeen = true;
      binary = w[1] != "ascii";
    } else if (w[0] == "element" && w.size() >= 3) {
      Element e;
      e.name = w[1];
      if (!parseCount(w[2], &e.count)) countsKnown = false;
      elements.push_back(e);
    } else if (w[0] == "property" && !elements.empty()) {
      Element& e = elements.back();
      if (w.size() >= 5 && w[1] == "list") {
        const int countSize = plyTypeSize(w[2]);
        if (countSize == 0) countsKnown = false;
        e.minAscii += 2;
        e.minBinary += static_cast<uint64_t>(countSize);
      } else if (w.size() >= 3) {
        const int size = plyTypeSize(w[1]);
        if (size == 0) countsKnown = false;
        e.minAscii += 2;
        e.minBinary += static_cast<uint64_t>(size);
      }
    } else if (w[0] == "end_header") {
      dataStart = pos;
      break;
    }
  }
  if (dataStart == std::string::npos) {
    // Found by the fuzzer: Assimp 5.2.5's PLY importer never returns on a header without an
    // end_header line (a cut file). A NUL byte ends its text parsing the same way.
    h.ok = false;
    h.error = path + ": damaged PLY file: no 'end_header' line" +
              (head.size() < fileSize ? " in its first " + std::to_string(head.size()) + " bytes"
                                      : std::string()) +
              " (the header is cut or damaged), so it is not loaded";
    return h;
  }
  if (!formatSeen || !countsKnown) return h;
  h.format = binary ? "PLY binary" : "PLY ascii";
  uint64_t need = 0;
  std::string claim;
  for (const Element& e : elements) {
    const uint64_t per = std::max<uint64_t>(1, binary ? e.minBinary : e.minAscii);
    need = satAdd(need, satMul(e.count, per));
    h.elements = satAdd(h.elements, e.count);
    if (e.name == "vertex") h.vertices = e.count;
    if (e.name == "face") h.faces = e.count;
    if (!claim.empty()) claim += ", ";
    claim += "element " + e.name + " " + std::to_string(e.count);
  }
  const uint64_t rest = fileSize > dataStart ? fileSize - dataStart : 0;
  if (need > rest + (binary ? 0 : 1)) {
    h.ok = false;
    h.error = refuse(path, h.format, claim.empty() ? "no elements" : claim, satAdd(need, dataStart),
                     fileSize);
  }
  return h;
}

// --- binary STL ---------------------------------------------------------------------------

HeaderCounts checkStl(const std::string& path, const std::string& head, uint64_t fileSize) {
  HeaderCounts h;
  size_t i = 0;
  while (i < head.size() && std::isspace(static_cast<unsigned char>(head[i]))) ++i;
  const bool solid = head.compare(i, 5, "solid") == 0;
  uint64_t facets = 0;
  if (head.size() >= 84) {
    for (int k = 3; k >= 0; --k) facets = (facets << 8) | static_cast<unsigned char>(head[80 + k]);
  }
  const uint64_t need = 84 + facets * 50;  // facets < 2^32: no overflow
  // Assimp's rule: a file whose size matches the binary layout exactly is binary even when it
  // starts with "solid"; otherwise "solid" means ASCII.
  if (solid && !(head.size() >= 84 && need == fileSize)) {
    h.format = "ASCII STL";
    return h;
  }
  h.format = "binary STL";
  if (fileSize < 84) {
    h.ok = false;
    h.error = path + ": not a valid STL file: " + std::to_string(fileSize) +
              " bytes is smaller than a binary STL's 84-byte header, and it does not start with"
              " 'solid' (ASCII STL)";
    return h;
  }
  h.faces = facets;
  h.vertices = satMul(facets, 3);
  if (need > fileSize) {
    h.ok = false;
    h.error = refuse(path, "binary STL", std::to_string(facets) + " facets", need, fileSize);
  }
  return h;
}

}  // namespace

HeaderCounts checkHeaderCountsOfBytes(const std::string& path, const std::string& ext,
                                      const std::string& head, uint64_t fileSize) {
  // Assimp 5.2.5's PLY importer takes any file whose first three bytes are "ply" in any case
  // ("PLY", "plyt"), so the header check applies to the same files: a .ply, or any file whose
  // first line is a PLY magic line (Assimp also finds the importer by content).
  if (head.size() > 3 && loader::lower(head.substr(0, 3)) == "ply" &&
      (ext == "ply" || head[3] == '\n' || head[3] == '\r' || head[3] == ' ')) {
    return checkPly(path, head, fileSize);
  }
  {
    Tokens tokens(head);
    std::string first;
    if (tokens.next(&first)) {
      // "OFF 8 6 0" on one line is allowed too: the keyword may carry no separator issue.
      if (isOffKeyword(first)) return checkOff(path, head, fileSize, first, tokens);
    }
  }
  if (ext == "stl") return checkStl(path, head, fileSize);
  return {};
}

HeaderCounts checkHeaderCounts(const std::string& path, const std::string& ext, uint64_t fileSize) {
  std::ifstream f(path, std::ios::binary);
  std::string head(static_cast<size_t>(std::min<uint64_t>(kHeadBytes, fileSize)), '\0');
  f.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(std::max<std::streamsize>(0, f.gcount())));
  return checkHeaderCountsOfBytes(path, ext, head, fileSize);
}

}  // namespace ofps
