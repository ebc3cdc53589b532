#pragma once
// Fallback spawn point for a level without a spawn node: cast rays straight down over the level
// for walkable floor with room for the character's capsule, and prefer spots that look like the
// inside of the level.
//
// Why "inside": closed levels (Quake maps) are wrapped in sky brushes whose upper faces are flat,
// walkable and open above, so "highest walkable floor" would put the player on the roof of the
// world. Each candidate is scored by how many of 8 probe rays (4 horizontal, 4 slanted up, from
// eye height) hit the level within probeDistance; the best score wins, ties go to the candidate
// nearest the centre of the level's footprint (columns are visited centre-out). Only faces met
// from the front count (counter-clockwise winding, glTF's and OBJ's convention; from the back in
// a level wound inside out, decided by which side the probes meet more often over all candidates):
// inside a closed solid (a crate or pillar modelled as a box standing on the floor) the probes
// meet the solid's own faces from behind, so such a spot never wins over the room around it.
//
// Frame and units: the level's (world space, Y up, metres). Complexity: columns^2 x (hits per
// column + 8 probes) octree ray queries plus one capsule overlap per walkable hit (measured
// times: bench/results/LOADING.md). Thread-safe
// (const queries only); allocates one array of columns and one of candidates.

#include <cstdint>
#include <glm/vec3.hpp>
#include <optional>

#include "level/level.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {

struct SpawnSearchParams {
  float radius = 0.35f;            // capsule radius, m
  float height = 1.8f;             // capsule total height, feet to top, m
  float maxSlopeDegrees = 45.0f;   // steepest floor accepted
  float clearance = 0.05f;         // gap kept above the floor when testing the capsule, m
  uint32_t columns = 32;           // grid of columns per axis over the level's XZ bounds (>= 1)
  uint32_t maxHitsPerColumn = 32;  // floors examined per column, top down
  float probeDistance = 100.0f;    // enclosure probes count hits within this distance, m
  uint32_t layerMask = kLayerSolid;
};

struct SpawnSearchResult {
  glm::vec3 feet{0.0f};     // spawn position: capsule bottom on the floor
  float yaw = 0.0f;         // radians, 0 looks along -Z; faces the longest open direction
  uint32_t enclosure = 0;   // probe rays that met a face from its open side (0..8)
  uint32_t candidates = 0;  // walkable spots with room for the capsule that were scored
  uint32_t raysCast = 0;    // all ray queries run
};

// octree must be built from level.collisionPositions / collisionIndices / collisionLayers.
// Returns nullopt when no walkable spot with room for the capsule exists.
std::optional<SpawnSearchResult> findSpawnPoint(const Level& level, const Octree& octree,
                                                const SpawnSearchParams& params = {});

// The spawn the demo should use: the level's spawn node if it has one, else findSpawnPoint, else
// the centre of the top of the bounds (with *usedFallback set; nullptr allowed).
glm::vec3 resolveSpawn(const Level& level, const Octree& octree, float* outYaw,
                       const SpawnSearchParams& params = {}, bool* usedFallback = nullptr);

}  // namespace ofps
