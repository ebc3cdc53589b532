#pragma once
// A churn for comparing two ways of moving a hash grid's objects: the same 3,000 spheres
// (radius 0.2 m, cell size 1 m) in two grids, `one` (the test moves it id by id with move())
// and `batch` (moved with moveCenters()), with some ids leaving and coming back each frame as
// props removed and thrown again, and every centre wandering far enough to cross cells, so
// cells empty and reappear. Header-only, deterministic for a seed.
#include <cstdint>
#include <glm/vec3.hpp>
#include <random>
#include <vector>

#include "octree_fps/spatial/hash_grid.h"

namespace ofps::test {

struct GridChurn {
  static constexpr uint32_t kCount = 3000;
  static constexpr float kRadius = 0.2f;

  explicit GridChurn(uint32_t seed) : rng(seed), pos(kCount) {
    for (uint32_t i = 0; i < kCount; ++i) {
      pos[i] = glm::vec3(u(rng) * 12.0f, u(rng) * 3.0f, u(rng) * 12.0f);
      one.insertSphere(i, pos[i], kRadius);
      batch.insertSphere(i, pos[i], kRadius);
    }
  }

  // Frame `frame`'s removals and re-inserts (every 11th id from frame % 11: removed on frames
  // 0, 3, 6, ..., back on 1, 4, 7, ...) in both grids, then every centre moved by up to 0.7 m
  // (0.21 m up or down). The test then moves the objects of each grid its own way.
  void nextFrame(int frame) {
    for (uint32_t i = static_cast<uint32_t>(frame) % 11; i < kCount; i += 11) {
      if (frame % 3 == 0 && one.contains(i)) {
        one.remove(i);
        batch.remove(i);
      } else if (frame % 3 == 1 && !one.contains(i)) {
        one.insertSphere(i, pos[i], kRadius);
        batch.insertSphere(i, pos[i], kRadius);
      }
    }
    for (glm::vec3& p : pos) p += glm::vec3(u(rng), u(rng) * 0.3f, u(rng)) * 0.7f;
  }

  std::mt19937 rng;
  std::uniform_real_distribution<float> u{-1.0f, 1.0f};
  HashGrid one{1.0f}, batch{1.0f};
  std::vector<glm::vec3> pos;
};

}  // namespace ofps::test
