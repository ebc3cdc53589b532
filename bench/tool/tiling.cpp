#include "tiling.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <random>

#include "octree_fps/geometry/aabb.h"

namespace ofps::bench {

TiledLevel tileLevel(const Mesh& base, uint64_t targetTriangles) {
  TiledLevel out;
  const uint64_t n0 = base.triangleCount();
  Aabb bounds;
  for (const glm::vec3& p : base.positions) bounds.grow(p);
  const glm::vec3 size = bounds.size();
  // The two widest axes carry the grid (the ground plane of a level, whatever its up axis).
  int axes[3] = {0, 1, 2};
  std::sort(axes, axes + 3, [&](int a, int b) { return size[a] > size[b]; });
  const uint64_t copies = std::max<uint64_t>(1, (targetTriangles + n0 - 1) / n0);
  const uint64_t side = static_cast<uint64_t>(std::ceil(std::sqrt(static_cast<double>(copies))));
  out.mesh.positions.reserve(base.positions.size() * copies);
  out.mesh.indices.reserve(3 * targetTriangles);
  uint64_t remaining = targetTriangles;
  for (uint64_t c = 0; c < copies && remaining > 0; ++c) {
    glm::vec3 offset(0.0f);
    offset[axes[0]] = static_cast<float>(c % side) * size[axes[0]] * 1.01f;
    offset[axes[1]] = static_cast<float>(c / side) * size[axes[1]] * 1.01f;
    const uint32_t firstVertex = static_cast<uint32_t>(out.mesh.positions.size());
    for (const glm::vec3& p : base.positions) out.mesh.positions.push_back(p + offset);
    const uint64_t take = std::min(remaining, n0);
    for (uint64_t i = 0; i < 3 * take; ++i)
      out.mesh.indices.push_back(base.indices[i] + firstVertex);
    remaining -= take;
    if (take == n0) out.fullTileOffsets.push_back(offset);
  }
  if (out.fullTileOffsets.empty()) out.fullTileOffsets.push_back(glm::vec3(0.0f));
  return out;
}

QuerySet offsetQueries(const QuerySet& base, std::span<const glm::vec3> offsets, uint32_t seed) {
  QuerySet out = base;
  std::mt19937 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, offsets.size() - 1);
  for (size_t k = 0; k < kKindCount; ++k) {
    for (Query& q : out.byKind[k]) {
      const glm::vec3 d = offsets[pick(rng)];
      q.p += d;
      // Rays keep their unit direction in q; the other kinds carry a second point there.
      if (static_cast<Kind>(k) == Kind::Capsule || static_cast<Kind>(k) == Kind::Box) q.q += d;
    }
  }
  return out;
}

bool parseSizes(const std::string& text, std::vector<uint64_t>& out, std::string& outError) {
  out.clear();
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t end = text.find(',', pos);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(pos, end - pos);
    uint64_t mult = 1;
    if (!item.empty() && (item.back() == 'k' || item.back() == 'K'))
      mult = 1000, item.pop_back();
    else if (!item.empty() && (item.back() == 'm' || item.back() == 'M'))
      mult = 1000000, item.pop_back();
    uint64_t v = 0;
    auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || v == 0 ||
        v * mult > (uint64_t{1} << 31)) {
      outError = "--scaling: bad size '" + text.substr(pos, end - pos) +
                 "' (expected e.g. 10k,100k,1M,10M; each at most 2^31 triangles)";
      return false;
    }
    out.push_back(v * mult);
    pos = end + 1;
    if (end == text.size()) break;
  }
  return !out.empty();
}

}  // namespace ofps::bench
