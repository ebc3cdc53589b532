#pragma once
// Random triangle soups and query placement for the oracle tests (fixed seeds, reproducible on
// one standard library).
#include <cstdint>
#include <glm/vec3.hpp>
#include <random>
#include <string>
#include <vector>

#include "octree_fps/geometry/aabb.h"

namespace ofps::test {

struct SoupOptions {
  uint32_t regular = 400;       // ordinary triangles, edges ~ 0.2..2 inside [-8, 8]^3
  uint32_t slivers = 40;        // very thin triangles
  uint32_t huge = 4;            // triangles spanning the whole soup
  uint32_t onSplitPlanes = 60;  // axis-aligned triangles lying exactly on x, y or z = 0, +-4, +-2
  uint32_t duplicates = 30;     // exact copies of earlier triangles
  uint32_t degenerate = 10;     // zero-area: segments and points
};

// A soup inside [-8, 8]^3 (so the root cell's split planes are at 0, +-4, +-2, ...).
std::vector<Triangle> makeRandomSoup(uint32_t seed, const SoupOptions& options = {});

// Indexed form of a soup (3 fresh vertices per triangle).
void toIndexed(const std::vector<Triangle>& tris, std::vector<glm::vec3>& positions,
               std::vector<uint32_t>& indices);

// Reads a canonical level from the shared folder ("levels/oa_dm1/oa_dm1.obj") as triangles.
// Returns false (and says why in *why) when the file is missing.
bool loadSharedLevel(const std::string& relative, std::vector<Triangle>& out, std::string* why);

// Query placement: a random point on a random triangle, moved by a random offset of length
// up to `maxOffset`; or, with probability `uniformShare`, anywhere in `bounds`.
class QueryPlacer {
 public:
  QueryPlacer(const std::vector<Triangle>& tris, const Aabb& bounds, uint32_t seed)
      : tris_(tris), bounds_(bounds), rng_(seed) {}
  glm::vec3 nearSurface(float maxOffset, float uniformShare = 0.2f);
  glm::vec3 unitVector();
  float uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi)(rng_); }
  std::mt19937& rng() { return rng_; }

 private:
  const std::vector<Triangle>& tris_;
  Aabb bounds_;
  std::mt19937 rng_;
};

Aabb boundsOf(const std::vector<Triangle>& tris);

}  // namespace ofps::test
