#pragma once
// The occlusion benchmarks' levels and camera paths, loaded one way for every tool that measures
// them (occlusion_bench.cpp, occlusion_oracle.cpp), so that their frames are the same by
// construction and their figures can be set side by side.
//
// Poses: 256 per level (fixed seed 2024), each with the eye 1.65 m above a random point of a floor
// triangle (normal within ~45 degrees of up) that has 1.9 m of headroom, any yaw, pitch within
// +-17 degrees, 70 degree vertical field of view at 16:9, near 0.05 m. Walks: the scripted walks
// of tests/support/scripted_walk.h (kWalks of kWalkFrames frames) from the same floor spots.
#include <cmath>
#include <cstdint>
#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <glm/geometric.hpp>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "bench_levels.h"
#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/spatial/octree.h"
#include "support/floor_triangles.h"
#include "support/scripted_walk.h"

namespace ofps::bench {

constexpr uint32_t kWalks = 16, kWalkFrames = 64;  // 1,024 frames of 60 Hz per level

struct OcclusionLevel {
  bool ok = false;
  std::string error;  // why not ok
  // The level in metres, Y up, every triangle drawn (what the reference rasterizer takes).
  std::vector<glm::vec3> positions;
  std::vector<uint32_t> indices;
  Octree octree;
  DrawRanges ranges;
  std::vector<glm::mat4> viewProj;    // the unrelated poses
  std::vector<glm::vec3> feet;        // the floor point under each pose (5 cm up)
  std::vector<glm::mat4> walkFrames;  // the scripted walks from those floor points, in order
};

// Loads the shared level `name` (readLevelMetres) into *L, which must be freshly constructed.
// L->ok is false, with L->error, when the level is missing or has no floor spot with headroom.
inline void loadOcclusionLevel(const std::string& name, OcclusionLevel* L) {
  ObjReadResult obj = readLevelMetres(name);
  if (!obj.ok) {
    L->error = "level not available: " + levelObjPath(name) + " (" + obj.error + ")";
    return;
  }
  L->positions = std::move(obj.mesh.positions);
  L->indices = std::move(obj.mesh.indices);
  const OctreeBuildReport report = L->octree.build(L->positions, L->indices);
  if (!report.ok) {
    L->error = name + ": octree build failed: " + report.error;
    return;
  }
  L->ranges.build(L->octree, {});
  const auto& P = L->positions;
  const auto& I = L->indices;
  const std::vector<uint32_t> floors = test::floorTriangles(P, I, {});
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  for (int tries = 0; tries < 100000 && L->viewProj.size() < 256 && !floors.empty(); ++tries) {
    const uint32_t t = floors[static_cast<size_t>(u(rng) * floors.size()) % floors.size()];
    float r1 = u(rng), r2 = u(rng);
    if (r1 + r2 > 1.0f) {
      r1 = 1.0f - r1;
      r2 = 1.0f - r2;
    }
    const glm::vec3 a = P[I[3 * t]];
    const glm::vec3 floor = a + (P[I[3 * t + 1]] - a) * r1 + (P[I[3 * t + 2]] - a) * r2;
    RayHit hit;
    if (L->octree.raycast(floor + glm::vec3(0.0f, 0.01f, 0.0f), {0.0f, 1.0f, 0.0f}, 1.9f, ~0u,
                          hit)) {
      continue;
    }
    const glm::vec3 eye = floor + glm::vec3(0.0f, 1.65f, 0.0f);
    const float yaw = u(rng) * 6.2831853f, pitch = (u(rng) - 0.5f) * 0.6f;
    const glm::vec3 fwd(-std::sin(yaw) * std::cos(pitch), std::sin(pitch),
                        -std::cos(yaw) * std::cos(pitch));
    L->viewProj.push_back(glm::perspective(glm::radians(70.0f), 16.0f / 9.0f, 0.05f, 5000.0f) *
                          glm::lookAt(eye, eye + fwd, glm::vec3(0.0f, 1.0f, 0.0f)));
    L->feet.push_back(floor + glm::vec3(0.0f, 0.05f, 0.0f));
  }
  if (L->viewProj.empty()) {
    L->error = name + ": no floor spot with headroom";
    return;
  }
  L->walkFrames = test::scriptedWalks(L->octree, L->feet, kWalks, kWalkFrames);
  L->ok = true;
}

}  // namespace ofps::bench
