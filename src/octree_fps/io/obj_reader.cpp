// Canonical OBJ reader (format in obj_reader.h).
#include "octree_fps/io/obj_reader.h"

#include <charconv>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "octree_fps/io/parse_number_inl.h"

namespace ofps {
namespace {

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r';
}

// Next whitespace-separated token of `line` starting at `pos`; empty at the end.
std::string_view nextToken(std::string_view line, size_t& pos) {
  while (pos < line.size() && isSpace(line[pos])) ++pos;
  const size_t start = pos;
  while (pos < line.size() && !isSpace(line[pos])) ++pos;
  return line.substr(start, pos - start);
}

bool parseFloat(std::string_view tok, float& out) {
  return detail::parseWholeNumber(tok, out);
}

std::string where(std::string_view name, size_t line) {
  return std::string(name) + ":" + std::to_string(line) + ": ";
}

}  // namespace

ObjReadResult parseObj(std::string_view text, std::string_view name) {
  ObjReadResult result;
  ObjMesh& mesh = result.mesh;
  size_t lineNo = 0;
  size_t pos = 0;
  std::vector<uint32_t> poly;
  while (pos < text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++lineNo;
    size_t p = 0;
    const std::string_view kind = nextToken(line, p);
    if (kind == "v") {
      glm::vec3 v;
      for (int i = 0; i < 3; ++i) {
        const std::string_view tok = nextToken(line, p);
        if (!parseFloat(tok, v[i])) {
          result.error = where(name, lineNo) + "bad vertex coordinate '" + std::string(tok) + "'";
          return result;
        }
      }
      mesh.positions.push_back(v);
    } else if (kind == "f") {
      poly.clear();
      for (std::string_view tok = nextToken(line, p); !tok.empty(); tok = nextToken(line, p)) {
        const std::string_view first = tok.substr(0, tok.find('/'));
        long long idx = 0;
        const auto res = std::from_chars(first.data(), first.data() + first.size(), idx);
        if (res.ec != std::errc() || res.ptr != first.data() + first.size() || idx == 0) {
          result.error = where(name, lineNo) + "bad face index '" + std::string(tok) + "'";
          return result;
        }
        const long long count = static_cast<long long>(mesh.positions.size());
        const long long zeroBased = idx > 0 ? idx - 1 : count + idx;
        if (zeroBased < 0 || zeroBased >= count) {
          result.error = where(name, lineNo) + "face index " + std::to_string(idx) +
                         " out of range (" + std::to_string(count) + " vertices)";
          return result;
        }
        poly.push_back(static_cast<uint32_t>(zeroBased));
      }
      if (poly.size() < 3) {
        result.error = where(name, lineNo) + "face with fewer than 3 vertices";
        return result;
      }
      for (size_t k = 1; k + 1 < poly.size(); ++k) {
        mesh.indices.push_back(poly[0]);
        mesh.indices.push_back(poly[k]);
        mesh.indices.push_back(poly[k + 1]);
      }
    }
  }
  result.ok = true;
  return result;
}

ObjReadResult readObj(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    ObjReadResult r;
    r.error = path + ": is a directory, not an OBJ file";
    return r;
  }
  std::ifstream f(path, std::ios::binary);
  if (!f) {
    ObjReadResult r;
    r.error = path + ": cannot open file";
    return r;
  }
  std::ostringstream ss;
  ss << f.rdbuf();
  const std::string text = ss.str();
  return parseObj(text, path);
}

}  // namespace ofps
