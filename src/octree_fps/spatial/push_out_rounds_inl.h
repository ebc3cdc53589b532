// Internal to src/octree_fps/spatial: the push-out resolution rounds (contract in octree.h,
// "Push-out") shared by the octree and the brute-force oracle.
//
// Why one copy is safe for the oracle: what the oracle exists to check independently is which
// triangles touch the shape and how deep (the octree finds them through its traversal and SIMD
// filters, the oracle by testing every triangle). The rounds only combine those contacts, and
// they are checked on their own, against nothing that shares code with them:
// tests/spatial/push_out_rounds_test.cpp drives them with scripted contacts (iteration count,
// tolerance, ties, the final check round) and checks, for random shapes on generated soups and
// the shared levels, that a result reported resolved leaves the moved shape without any contact
// deeper than the tolerance, by testing every triangle directly.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/vec3.hpp>

#include "octree_fps/geometry/triangle_tests.h"
#include "octree_fps/spatial/octree.h"

namespace ofps::detail {

// Deepest contact so far; ties go to the lower original index, so the reduction does not
// depend on the order triangles are visited in.
struct DeepestContact {
  TriangleContact contact;
  uint32_t triangle = kOctreeInvalidIndex;
  bool any = false;
  void offer(const TriangleContact& c, uint32_t tri) {
    any = true;
    if (triangle == kOctreeInvalidIndex || c.depth > contact.depth ||
        (c.depth == contact.depth && tri < triangle)) {
      contact = c;
      triangle = tri;
    }
  }
};

// Runs up to maxIterations rounds (at least one). round(offset, deepest) offers every contact of
// the shape translated by offset. Returns whether the shape overlapped anything at its start;
// out is always written.
template <class Round>
bool resolvePushOut(float tolerance, uint32_t maxIterations, PushOut& out, Round&& round) {
  out = PushOut{};
  glm::vec3 offset(0.0f);
  bool overlappedAtStart = false;
  const uint32_t rounds = std::max(1u, maxIterations);
  for (uint32_t it = 0; it < rounds; ++it) {
    DeepestContact deepest;
    round(offset, deepest);
    if (it == 0) {
      overlappedAtStart = deepest.any;
      out.deepestTriangle = deepest.triangle;
    }
    if (!deepest.any || deepest.contact.depth <= tolerance) {
      out.resolved = true;
      break;
    }
    ++out.iterations;
    offset += deepest.contact.normal * deepest.contact.depth;
    out.resolved = false;
  }
  if (!out.resolved) {
    // The last round moved the shape: one more look decides whether it is now clear.
    DeepestContact deepest;
    round(offset, deepest);
    out.resolved = !deepest.any || deepest.contact.depth <= tolerance;
  }
  const float len = std::sqrt(offset.x * offset.x + offset.y * offset.y + offset.z * offset.z);
  out.depth = len;
  out.normal = len > 0.0f ? offset * (1.0f / len) : glm::vec3(0.0f);
  return overlappedAtStart;
}

}  // namespace ofps::detail
