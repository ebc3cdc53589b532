#include "level/spawn_search.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/trigonometric.hpp>
#include <vector>

namespace ofps {
namespace {

// True when a ray along `dir` met the triangle from behind: its winding (counter-clockwise seen
// from the front, the glTF and OBJ convention) makes a normal that points along the ray.
bool seesBackFace(const Level& level, uint32_t triangle, const glm::vec3& dir) {
  if (static_cast<size_t>(triangle) * 3 + 2 >= level.collisionIndices.size()) return false;
  const glm::vec3& a = level.collisionPositions[level.collisionIndices[triangle * 3 + 0]];
  const glm::vec3& b = level.collisionPositions[level.collisionIndices[triangle * 3 + 1]];
  const glm::vec3& c = level.collisionPositions[level.collisionIndices[triangle * 3 + 2]];
  return glm::dot(glm::cross(b - a, c - a), dir) > 0.0f;
}

}  // namespace

std::optional<SpawnSearchResult> findSpawnPoint(const Level& level, const Octree& octree,
                                                const SpawnSearchParams& params) {
  if (octree.empty() || level.triangleCount() == 0) return std::nullopt;
  const uint32_t n = std::max<uint32_t>(params.columns, 1);
  const float r = params.radius;
  const float minUp = std::cos(glm::radians(params.maxSlopeDegrees));
  const glm::vec3 lo = level.boundsMin, hi = level.boundsMax;
  const glm::vec3 centre = (lo + hi) * 0.5f;
  const float top = hi.y + 1.0f;
  const float span = (hi.y - lo.y) + 2.0f;

  // Column centres, visited centre-out so ties favour the middle of the level.
  struct Column {
    float x, z, d2;
  };
  std::vector<Column> columns;
  columns.reserve(static_cast<size_t>(n) * n);
  for (uint32_t i = 0; i < n; ++i) {
    for (uint32_t j = 0; j < n; ++j) {
      const float x = lo.x + (hi.x - lo.x) * (static_cast<float>(i) + 0.5f) / static_cast<float>(n);
      const float z = lo.z + (hi.z - lo.z) * (static_cast<float>(j) + 0.5f) / static_cast<float>(n);
      columns.push_back({x, z, (x - centre.x) * (x - centre.x) + (z - centre.z) * (z - centre.z)});
    }
  }
  std::stable_sort(columns.begin(), columns.end(),
                   [](const Column& a, const Column& b) { return a.d2 < b.d2; });

  const float eye = std::max(params.height - r, r);
  const float c = 0.70710678f;
  const glm::vec3 probes[8] = {{1, 0, 0}, {-1, 0, 0}, {0, 0, 1}, {0, 0, -1},
                               {c, c, 0}, {-c, c, 0}, {0, c, c}, {0, c, -c}};
  // Every candidate's probe hits, split by the side of the face they met; the choice is made
  // once the level's own facing is known (below).
  struct Candidate {
    glm::vec3 feet;
    float yaw;
    uint32_t front, back;
  };
  std::vector<Candidate> found;
  uint32_t rays = 0;
  for (const Column& col : columns) {
    glm::vec3 origin(col.x, top, col.z);
    float remaining = span;
    for (uint32_t h = 0; h < params.maxHitsPerColumn && remaining > 0.0f; ++h) {
      RayHit hit;
      ++rays;
      if (!octree.raycast(origin, glm::vec3(0, -1, 0), remaining, params.layerMask, hit)) break;
      // Continue below this surface next time, whatever it is.
      const float step = std::max(hit.t + 1e-3f * std::max(1.0f, span), 1e-3f);
      origin.y -= step;
      remaining -= step;
      if (hit.normal.y < minUp) continue;  // too steep (normal faces the ray: up for floors)
      const glm::vec3 feet = hit.point;
      const glm::vec3 a = feet + glm::vec3(0, params.clearance + r, 0);
      const glm::vec3 b = feet + glm::vec3(0, params.clearance + std::max(params.height - r, r), 0);
      const uint32_t blocked =
          octree.overlapCapsule(a, b, r, params.layerMask, [](uint32_t) { return false; });
      if (blocked != 0) continue;
      Candidate cand{feet, 0.0f, 0, 0};
      float longest = -1.0f;
      const glm::vec3 eyePos = feet + glm::vec3(0, eye, 0);
      for (int k = 0; k < 8; ++k) {
        RayHit ph;
        ++rays;
        const bool hitSomething =
            octree.raycast(eyePos, probes[k], params.probeDistance, params.layerMask, ph);
        if (hitSomething) ++(seesBackFace(level, ph.triangle, probes[k]) ? cand.back : cand.front);
        const float dist = hitSomething ? ph.t : params.probeDistance;
        if (k < 4 && dist > longest) {  // face the most open horizontal direction
          longest = dist;
          cand.yaw = std::atan2(-probes[k].x, -probes[k].z) + 0.0f;
        }
      }
      found.push_back(cand);
    }
  }
  if (found.empty()) return std::nullopt;
  // Enclosure counts the faces met from the side the level calls open: their front, unless the
  // level is wound inside out (more back faces than front faces met over all candidates). A spot
  // inside a closed solid (a crate or pillar modelled as a box on the floor) meets the solid's
  // own faces from behind and scores nothing, so a spot in the room beside it wins.
  uint64_t fronts = 0, backs = 0;
  for (const Candidate& cand : found) {
    fronts += cand.front;
    backs += cand.back;
  }
  const bool inverted = backs > fronts;
  SpawnSearchResult best;
  bool chosen = false;
  for (const Candidate& cand : found) {  // centre-out order: the first of equal scores wins
    const uint32_t score = inverted ? cand.back : cand.front;
    if (!chosen || score > best.enclosure) {
      best.feet = cand.feet;
      best.yaw = cand.yaw;
      best.enclosure = score;
      chosen = true;
    }
  }
  best.candidates = static_cast<uint32_t>(found.size());
  best.raysCast = rays;
  return best;
}

glm::vec3 resolveSpawn(const Level& level, const Octree& octree, float* outYaw,
                       const SpawnSearchParams& params, bool* usedFallback) {
  if (usedFallback != nullptr) *usedFallback = false;
  if (level.spawn) {
    if (outYaw != nullptr) *outYaw = level.spawnYaw;
    return *level.spawn;
  }
  if (auto s = findSpawnPoint(level, octree, params)) {
    if (outYaw != nullptr) *outYaw = s->yaw;
    return s->feet;
  }
  if (usedFallback != nullptr) *usedFallback = true;
  if (outYaw != nullptr) *outYaw = 0.0f;
  return glm::vec3((level.boundsMin.x + level.boundsMax.x) * 0.5f, level.boundsMax.y,
                   (level.boundsMin.z + level.boundsMax.z) * 0.5f);
}

}  // namespace ofps
