// Two teams asking for enemies within R (contracts in teams_demo.h).
#include "scenario/teams_demo.h"

#include <chrono>
#include <cmath>

#include "octree_fps/geometry/det_math.h"
#include "octree_fps/geometry/splitmix.h"

namespace ofps {

TeamsDemo::TeamsDemo(const TeamsParams& params) {
  reset(params);
}

void TeamsDemo::reset(const TeamsParams& params) {
  params_ = params;
  const uint32_t n = 2 * params.perTeam;
  position_.resize(n);
  velocity_.resize(n);
  enemiesNear_.assign(n, 0);
  SplitMix64 rng{params.seed};
  for (uint32_t team = 0; team < 2; ++team) {
    grids_[team].clear();
    grids_[team].setCellSize(params.cellSize);
  }
  const Aabb& b = params.bounds;
  for (uint32_t i = 0; i < n; ++i) {
    position_[i] = glm::vec3(rng.uniform(b.min.x, b.max.x), rng.uniform(b.min.y, b.max.y),
                             rng.uniform(b.min.z, b.max.z));
    const float a = rng.uniform(0.0f, 6.28318531f);
    velocity_[i] = glm::vec3(det::cos(a), 0.0f, det::sin(a)) * params.speed;
    grids_[teamOf(i)].insertSphere(i - teamOf(i) * params.perTeam, position_[i], 0.0f);
  }
  stats_ = {};
}

void TeamsDemo::setCellSize(float cellSize) {
  params_.cellSize = cellSize;
  grids_[0].setCellSize(cellSize);
  grids_[1].setCellSize(cellSize);
}

void TeamsDemo::step(float dt) {
  const Aabb& b = params_.bounds;
  for (uint32_t i = 0; i < agentCount(); ++i) {
    glm::vec3& p = position_[i];
    glm::vec3& v = velocity_[i];
    p += v * dt;
    for (int k = 0; k < 3; ++k) {
      if (p[k] < b.min[k]) {
        p[k] = 2.0f * b.min[k] - p[k];
        v[k] = -v[k];
      } else if (p[k] > b.max[k]) {
        p[k] = 2.0f * b.max[k] - p[k];
        v[k] = -v[k];
      }
      p[k] = std::fmin(std::fmax(p[k], b.min[k]), b.max[k]);
    }
    grids_[teamOf(i)].move(i - teamOf(i) * params_.perTeam, p);
  }
  query();
}

const TeamsFrameStats& TeamsDemo::query() {
  stats_ = {};
  for (uint32_t i = 0; i < agentCount(); ++i) {
    const HashGrid& enemies = grids_[1u - teamOf(i)];
    enemiesNear_[i] = enemies.queryRadius(
        position_[i], params_.radius, [](uint32_t) {}, &stats_.grid);
  }
  stats_.enemyPairsInRange = stats_.grid.hits / 2;
  return stats_;
}

uint64_t TeamsDemo::bruteForce(std::span<uint32_t> out) const {
  uint64_t checks = 0;
  const float r2 = params_.radius * params_.radius;
  for (uint32_t i = 0; i < agentCount(); ++i) {
    uint32_t n = 0;
    const uint32_t first = teamOf(i) == 0 ? params_.perTeam : 0;
    for (uint32_t j = first; j < first + params_.perTeam; ++j) {
      const glm::vec3 d = position_[j] - position_[i];
      ++checks;
      n += d.x * d.x + d.y * d.y + d.z * d.z <= r2 ? 1u : 0u;
    }
    if (i < out.size()) out[i] = n;
  }
  return checks;
}

CellSizeCost TeamsDemo::measureCellSize(float cellSize) {
  for (uint32_t team = 0; team < 2; ++team) {
    scratch_[team].clear();
    scratch_[team].setCellSize(cellSize);
  }
  for (uint32_t i = 0; i < agentCount(); ++i) {
    scratch_[teamOf(i)].insertSphere(i - teamOf(i) * params_.perTeam, position_[i], 0.0f);
  }
  CellSizeCost out;
  out.cellSize = cellSize;
  const auto start = std::chrono::steady_clock::now();
  for (uint32_t i = 0; i < agentCount(); ++i) {
    scratch_[1u - teamOf(i)].queryRadius(
        position_[i], params_.radius, [](uint32_t) {}, &out.grid);
  }
  out.ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

std::vector<float> logSpacedCellSizes(float lo, float hi, uint32_t count) {
  std::vector<float> sizes(count);
  const double ratio =
      count > 1 ? det::log(static_cast<double>(hi) / static_cast<double>(lo)) / (count - 1) : 0.0;
  for (uint32_t i = 0; i < count; ++i) {
    sizes[i] = static_cast<float>(static_cast<double>(lo) * det::exp(ratio * i));
  }
  if (count > 1) sizes.back() = hi;  // exactly, not exp's rounding of it
  return sizes;
}

size_t cheapestCellSize(std::span<const CellSizeCost> costs) {
  size_t best = 0;
  for (size_t i = 1; i < costs.size(); ++i) {
    if (costs[i].cost() < costs[best].cost()) best = i;
  }
  return best;
}

}  // namespace ofps
