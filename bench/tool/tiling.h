#pragma once
// Tiling a real level into larger ones for the scaling measurement (build time and
// query time at 10 k, 100 k, 1 M and 10 M triangles).

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "bench_types.h"

namespace ofps::bench {

struct TiledLevel {
  Mesh mesh;
  std::vector<glm::vec3> fullTileOffsets;  // translation of every complete copy
};

// Copies `base` side by side on a square grid over its two widest axes (a gap of 1 % of the
// extent between copies) until exactly `targetTriangles` triangles; the last copy may be partial.
// A target below the base's size keeps the first targetTriangles triangles (one partial copy;
// fullTileOffsets then holds only the origin).
TiledLevel tileLevel(const Mesh& base, uint64_t targetTriangles);

// The base queries, each moved into a complete copy picked at random (fixed seed), so every size
// answers the same number of queries with the same local distribution.
QuerySet offsetQueries(const QuerySet& base, std::span<const glm::vec3> offsets, uint32_t seed);

// "10k,100k,1M,10M" -> {10000, 100000, 1000000, 10000000}. Returns false on a malformed list.
bool parseSizes(const std::string& text, std::vector<uint64_t>& out, std::string& outError);

}  // namespace ofps::bench
