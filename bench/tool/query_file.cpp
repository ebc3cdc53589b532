#include "query_file.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <glm/geometric.hpp>
#include <sstream>

#include "octree_fps/io/obj_reader.h"
#include "octree_fps/io/parse_number_inl.h"

namespace ofps::bench {

const char* kindName(Kind kind) {
  switch (kind) {
    case Kind::Ray:
      return "ray";
    case Kind::Sphere:
      return "sphere";
    case Kind::Capsule:
      return "capsule";
    case Kind::Box:
      return "box";
    case Kind::RayAny:
      return "ray_any";
  }
  return "?";
}

namespace {

bool readFile(const std::string& path, std::string& out, std::string& outError) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    outError = path + ": is a directory, not a query file";
    return false;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    outError = path + ": cannot open file";
    return false;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    outError = path + ": read error";
    return false;
  }
  out = std::move(ss).str();
  return true;
}

bool isSpace(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

// Splits on blanks; returns the number of fields written (up to out.size(); more are counted).
size_t splitFields(std::string_view line, std::array<std::string_view, 16>& out) {
  size_t n = 0;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && isSpace(line[i])) ++i;
    if (i >= line.size()) break;
    size_t j = i;
    while (j < line.size() && !isSpace(line[j])) ++j;
    if (n < out.size()) out[n] = line.substr(i, j - i);
    ++n;
    i = j;
  }
  return n;
}

bool parseNumber(std::string_view s, double& out) {
  const char* first = s.data();
  const char* last = s.data() + s.size();
  if (first != last && *first == '+') ++first;  // from_chars refuses a leading '+'
  return ofps::detail::parseWholeNumber(std::string_view(first, size_t(last - first)), out);
}

}  // namespace

bool parseQueries(std::string_view text, std::string_view name, QuerySet& out,
                  std::string& outError) {
  out = QuerySet{};
  size_t lineNo = 0;
  size_t pos = 0;
  std::array<std::string_view, 16> f;
  auto fail = [&](const std::string& msg) {
    outError = std::string(name) + ":" + std::to_string(lineNo) + ": " + msg;
    return false;
  };
  while (pos <= text.size()) {
    size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++lineNo;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) {
      line = line.substr(0, hash);
    }
    const size_t n = splitFields(line, f);
    if (n == 0) {
      if (end == text.size()) break;
      continue;
    }
    Kind kind;
    size_t expected;
    if (f[0] == "ray") {
      kind = Kind::Ray, expected = 7;
    } else if (f[0] == "sphere") {
      kind = Kind::Sphere, expected = 4;
    } else if (f[0] == "capsule") {
      kind = Kind::Capsule, expected = 7;
    } else if (f[0] == "box") {
      kind = Kind::Box, expected = 6;
    } else {
      return fail("unknown query kind '" + std::string(f[0].substr(0, 32)) +
                  "' (expected ray, sphere, capsule or box)");
    }
    if (n != expected + 1) {
      return fail(std::string(f[0]) + " needs " + std::to_string(expected) + " numbers, got " +
                  std::to_string(n - 1));
    }
    double v[7] = {};
    for (size_t i = 0; i < expected; ++i) {
      if (!parseNumber(f[i + 1], v[i])) {
        return fail("field " + std::to_string(i + 2) + " '" + std::string(f[i + 1].substr(0, 32)) +
                    "' is not a number");
      }
      if (!std::isfinite(v[i]) || std::fabs(v[i]) > 3.0e38) {
        return fail("field " + std::to_string(i + 2) + " is not a finite float");
      }
    }
    Query q;
    switch (kind) {
      case Kind::Ray: {
        const double len = std::sqrt(v[3] * v[3] + v[4] * v[4] + v[5] * v[5]);
        if (!(len > 0.0) || !std::isfinite(len)) return fail("ray direction is zero");
        if (v[6] < 0.0) return fail("ray tmax is negative");
        q.p =
            glm::vec3(static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2]));
        q.q = glm::vec3(static_cast<float>(v[3] / len), static_cast<float>(v[4] / len),
                        static_cast<float>(v[5] / len));
        q.r = static_cast<float>(v[6]);
        break;
      }
      case Kind::Sphere:
        if (v[3] < 0.0) return fail("sphere radius is negative");
        q.p =
            glm::vec3(static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2]));
        q.r = static_cast<float>(v[3]);
        break;
      case Kind::Capsule:
        if (v[6] < 0.0) return fail("capsule radius is negative");
        q.p =
            glm::vec3(static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2]));
        q.q =
            glm::vec3(static_cast<float>(v[3]), static_cast<float>(v[4]), static_cast<float>(v[5]));
        q.r = static_cast<float>(v[6]);
        break;
      case Kind::Box:
        if (v[0] > v[3] || v[1] > v[4] || v[2] > v[5]) return fail("box min > max");
        q.p =
            glm::vec3(static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2]));
        q.q =
            glm::vec3(static_cast<float>(v[3]), static_cast<float>(v[4]), static_cast<float>(v[5]));
        break;
      case Kind::RayAny:
        break;  // not a file kind (the harness derives it from the rays)
    }
    auto& list = out.byKind[static_cast<size_t>(kind)];
    out.order.push_back({kind, static_cast<uint32_t>(list.size())});
    list.push_back(q);
    if (end == text.size()) break;
  }
  if (out.order.empty()) {
    lineNo = 0;
    outError = std::string(name) + ": no queries in file";
    return false;
  }
  return true;
}

bool readQueries(const std::string& path, QuerySet& out, std::string& outError) {
  std::string text;
  if (!readFile(path, text, outError)) return false;
  return parseQueries(text, path, out, outError);
}

bool writeResults(const std::string& path, const QuerySet& queries,
                  const std::array<std::vector<Answer>, kKindCount>& answers,
                  std::string& outError) {
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) {
    outError = path + ": cannot open for writing";
    return false;
  }
  for (const QuerySet::Ref& ref : queries.order) {
    const Answer& a = answers[static_cast<size_t>(ref.kind)][ref.index];
    if (!a.hit) {
      std::fprintf(file, "%s 0\n", kindName(ref.kind));
    } else if (ref.kind == Kind::Ray) {
      std::fprintf(file, "ray 1 %.9g %u\n", static_cast<double>(a.t), a.triangle);
    } else {
      std::fprintf(file, "%s 1 %u\n", kindName(ref.kind), a.n);
    }
  }
  const bool ok = std::ferror(file) == 0;
  if (std::fclose(file) != 0 || !ok) {
    outError = path + ": write error";
    return false;
  }
  return true;
}

bool readLevel(const std::string& path, Mesh& out, std::string& outError) {
  ObjReadResult r = readObj(path);
  if (!r.ok) {
    outError = r.error;
    return false;
  }
  if (r.mesh.triangleCount() == 0) {
    outError = path + ": no triangles";
    return false;
  }
  out.positions = std::move(r.mesh.positions);
  out.indices = std::move(r.mesh.indices);
  return true;
}

}  // namespace ofps::bench
