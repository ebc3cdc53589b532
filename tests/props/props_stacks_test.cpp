// Stacks and pyramids of boxes on a floor, generated, at tick rates from 20 to 500 Hz: placed at
// rest or dropped, with mass ratios up to 100:1 between neighbours and columns centred on a grid
// cell's corner. They must settle and sleep within a stated time, never sink into each other or
// the floor, and not move at all once asleep (PropsWorld's sleep rule, props_world.h).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "octree_fps/geometry/splitmix.h"
#include "octree_fps/props/props_world.h"
#include "props_test_levels.h"

namespace ofps::test {
namespace {

struct BoxSpec {
  glm::vec3 center;
  glm::vec3 half;
};

constexpr float kRates[] = {20.0f, 30.0f, 60.0f, 120.0f, 144.0f, 240.0f, 300.0f, 500.0f};
// Stated bounds (README, props section): every stack sleeps within kSleepWithin seconds of
// simulated time; while they land, overlap between two props never exceeds kSinkTolerance x
// the smaller prop's size (a pair the solver pushes together within a step is only found the
// next step), and no box's centre ever passes to the other side of a box it stacks on.
constexpr float kSleepWithin = 6.0f;
constexpr float kSinkTolerance = 0.1f;
// Once asleep, overlaps are within the solver's slop (PropsParams::slop x the smaller size) and
// a box's bottom at most this far below the floor.
constexpr float kRestSlack = 1e-5f;

// Column of n boxes (sizes drawn so neighbouring masses differ up to 100:1) centred on the cell
// corner (0, 0) of the grid (a corner at any cell size), placed touching (gap 0) or dropped (gaps
// of 0.1-0.6 m).
std::vector<BoxSpec> column(SplitMix64& rng, int n, bool dropped, float& outMaxRatio) {
  std::vector<BoxSpec> out;
  float y = 0.0f;
  float prevMass = 0.0f;
  outMaxRatio = 1.0f;
  for (int k = 0; k < n; ++k) {
    // Footprint 0.3-1 m (half 0.15-0.5), height 0.02-1 m: volume (mass) from 0.0018 to 1.
    const float hxz = rng.uniform(0.15f, 0.5f);
    float hy = rng.uniform(0.01f, 0.5f);
    float mass = 8.0f * hxz * hxz * hy;
    if (prevMass > 0.0f) {
      // Keep the ratio with the box below within 100:1 (clamp the height).
      const float lo = prevMass / 100.0f, hi = prevMass * 100.0f;
      if (mass < lo) hy = lo / (8.0f * hxz * hxz);
      if (mass > hi) hy = hi / (8.0f * hxz * hxz);
      hy = std::clamp(hy, 0.01f, 0.5f);
      mass = 8.0f * hxz * hxz * hy;
      outMaxRatio = std::max(outMaxRatio, std::max(mass / prevMass, prevMass / mass));
    }
    prevMass = mass;
    if (dropped) y += rng.uniform(0.1f, 0.6f);
    out.push_back({{0.0f, y + hy, 0.0f}, {hxz, hy, hxz}});
    y += 2.0f * hy;
  }
  return out;
}

// Pyramid with `base` boxes in its lowest row (base 1-3: 1, 3 or 6 boxes), cubes of half h, 1 cm
// apart in a row, each row centred on the gaps of the row below.
std::vector<BoxSpec> pyramid(int base, float h, bool dropped, SplitMix64& rng) {
  std::vector<BoxSpec> out;
  float y = 0.0f;
  for (int row = 0; row < base; ++row) {
    const int count = base - row;
    const float pitch = 2.0f * h + 0.01f;
    if (dropped) y += rng.uniform(0.05f, 0.3f);
    for (int i = 0; i < count; ++i) {
      const float x = (static_cast<float>(i) - 0.5f * static_cast<float>(count - 1)) * pitch;
      out.push_back({{x, y + h, 0.0f}, glm::vec3(h)});
    }
    y += 2.0f * h;
  }
  return out;
}

float maxSize(const glm::vec3& h) {
  return std::max(h.x, std::max(h.y, h.z));
}

float overlapDepth(const glm::vec3& ca, const glm::vec3& ha, const glm::vec3& cb,
                   const glm::vec3& hb) {
  const glm::vec3 o = ha + hb - glm::abs(cb - ca);
  return std::min(o.x, std::min(o.y, o.z));  // > 0: overlapping by that much (minimum axis)
}

struct StackResult {
  bool slept = false;
  float sleptAt = 0.0f;
  float worstSink = 0.0f;  // overlap / smaller size, worst over the run
  std::string failure;
  std::string where;  // of the worst overlap
};

StackResult runStack(const Octree& floor, const std::vector<BoxSpec>& boxes, float hz) {
  StackResult res;
  PropsWorld w;
  for (const BoxSpec& b : boxes) w.addBox(b.center, b.half);
  const float dt = 1.0f / hz;
  const int steps = static_cast<int>(std::lround(kSleepWithin * hz));
  const uint32_t n = w.size();
  for (int s = 0; s < steps && !res.slept; ++s) {
    w.step(floor, dt);
    for (uint32_t i = 0; i < n; ++i) {
      const glm::vec3 p = w.positions()[i], h = w.halfExtents()[i];
      const float below = (h.y - p.y) / maxSize(h);
      if (below > res.worstSink) {
        res.worstSink = below;
        res.where = "prop " + std::to_string(i) + " into the floor at step " + std::to_string(s);
      }
      for (uint32_t j = i + 1; j < n; ++j) {
        const glm::vec3 q = w.positions()[j], k = w.halfExtents()[j];
        // Stacked (footprints overlapping) boxes keep their vertical order: j was placed above.
        const bool stacked = std::abs(q.x - p.x) < h.x + k.x && std::abs(q.z - p.z) < h.z + k.z;
        if (stacked && q.y < p.y && boxes[j].center.y > boxes[i].center.y && res.failure.empty()) {
          res.failure = "prop " + std::to_string(j) + " passed below prop " + std::to_string(i) +
                        " at step " + std::to_string(s);
        }
        const float d = overlapDepth(p, h, q, k) / std::min(maxSize(h), maxSize(k));
        if (d > res.worstSink) {
          res.worstSink = d;
          res.where = "props " + std::to_string(i) + " and " + std::to_string(j) + " at step " +
                      std::to_string(s);
        }
      }
    }
    if (w.restingCount() == n) {
      res.slept = true;
      res.sleptAt = static_cast<float>(s + 1) * dt;
    }
  }
  if (!res.slept) return res;
  // At rest: within the slop of each other and on the floor.
  const float slop = PropsParams{}.slop;
  for (uint32_t i = 0; i < n; ++i) {
    const glm::vec3 p = w.positions()[i], h = w.halfExtents()[i];
    if (p.y - h.y < -kRestSlack) res.failure = "prop " + std::to_string(i) + " below the floor";
    for (uint32_t j = i + 1; j < n; ++j) {
      const glm::vec3 q = w.positions()[j], k = w.halfExtents()[j];
      const float d = overlapDepth(p, h, q, k);
      if (d > slop * std::min(maxSize(h), maxSize(k)) + kRestSlack) {
        res.failure = "props " + std::to_string(i) + " and " + std::to_string(j) +
                      " overlap at rest by " + std::to_string(d) + " m";
      }
    }
  }
  if (!res.failure.empty()) return res;
  // Asleep: one more second changes nothing, bit for bit.
  const std::vector<glm::vec3> before(w.positions().begin(), w.positions().end());
  for (int s = 0; s < static_cast<int>(hz); ++s) w.step(floor, dt);
  for (uint32_t i = 0; i < n; ++i) {
    if (!w.resting()[i] || w.positions()[i] != before[i]) {
      res.failure = "prop " + std::to_string(i) + " moved or woke after the stack slept";
      break;
    }
  }
  return res;
}

void checkStacks(bool dropped) {
  const Octree floor = makeFloor();
  SplitMix64 rng{dropped ? 0xD40Bu : 0x57ACu};
  int cases = 0, heavyRatios = 0;
  float worstSleep = 0.0f, worstSink = 0.0f;
  for (const float hz : kRates) {
    // Columns of 1-8 boxes (two each), pyramids of 3 and 6 boxes, the five 1 m cubes
    // centred on a cell corner.
    std::vector<std::vector<BoxSpec>> stacks;
    for (int n = 1; n <= 8; ++n) {
      for (int rep = 0; rep < 2; ++rep) {
        float ratio = 1.0f;
        stacks.push_back(column(rng, n, dropped, ratio));
        if (ratio > 30.0f) ++heavyRatios;
      }
    }
    stacks.push_back(pyramid(2, 0.5f, dropped, rng));
    stacks.push_back(pyramid(3, 0.3f, dropped, rng));
    std::vector<BoxSpec> five;
    for (int k = 0; k < 5; ++k) {
      five.push_back(
          {{0.0f, 0.5f + 1.0f * static_cast<float>(k) + (dropped ? 0.2f * k : 0.0f), 0.0f},
           glm::vec3(0.5f)});
    }
    stacks.push_back(five);
    for (const auto& stack : stacks) {
      const StackResult r = runStack(floor, stack, hz);
      ++cases;
      ASSERT_TRUE(r.slept) << hz << " Hz, " << stack.size() << " boxes: not asleep after "
                           << kSleepWithin << " s";
      ASSERT_TRUE(r.failure.empty()) << hz << " Hz, " << stack.size() << " boxes: " << r.failure;
      ASSERT_LE(r.worstSink, kSinkTolerance) << hz << " Hz, " << stack.size() << " boxes: sank by "
                                             << r.worstSink << " x size (" << r.where << ")";
      worstSleep = std::max(worstSleep, r.sleptAt);
      worstSink = std::max(worstSink, r.worstSink);
    }
  }
  // The generator reached heavy ratios (the clamp keeps them within 100:1).
  EXPECT_GE(heavyRatios, 4);
  std::printf("%d stacks: slowest asleep after %.2f s, worst overlap %.4f x size\n", cases,
              static_cast<double>(worstSleep), static_cast<double>(worstSink));
}

TEST(PropsStacks, PlacedStacksSleepAtEveryRate) {
  checkStacks(false);
}

TEST(PropsStacks, DroppedStacksSleepAtEveryRate) {
  checkStacks(true);
}

}  // namespace
}  // namespace ofps::test
