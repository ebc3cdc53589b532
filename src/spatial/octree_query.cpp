// Octree queries (contracts in octree.h). Every traversal here is iterative: overlap queries
// walk the preorder with skip indices and no stack; nearest-first queries (ray, sweeps, closest
// point) keep a fixed array of kOctreeStackSize entries on the C++ stack.
#include <algorithm>
#include <cmath>
#include <limits>
#if defined(__SSE2__)
#include <immintrin.h>
#endif

#include "geometry/triangle_tests.h"
#include "spatial/octree.h"

namespace ofps {
namespace {

// 1 + 2 gamma(3) with gamma(n) = n u / (1 - n u), u = eps / 2.
constexpr float kUnitRoundoff = std::numeric_limits<float>::epsilon() * 0.5f;
constexpr float kWiden = 1.0f + 2.0f * (3.0f * kUnitRoundoff) / (1.0f - 3.0f * kUnitRoundoff);
constexpr float kShrink = 1.0f - 2.0f * (3.0f * kUnitRoundoff) / (1.0f - 3.0f * kUnitRoundoff);

// std::max(a, b) as one instruction (maxss returns its second operand when the comparison
// fails, exactly like std::max's a < b ? b : a); GCC otherwise sometimes emits a branch.
inline float maxf(float a, float b) {
#if defined(__SSE2__)
  return _mm_cvtss_f32(_mm_max_ss(_mm_set_ss(b), _mm_set_ss(a)));
#else
  return std::max(a, b);
#endif
}

// Ray against a box, robust to zero direction components and to rounding (the far distance is
// widened by 1 + 2 gamma(3) and the near one shrunk by as much, Ize 2013 / pbrt-v3 §3.9.2, so a
// hit on a flat node's face is kept and equal-distance ties in two nodes are both seen).
struct RaySlab {
  glm::vec3 origin;
  glm::vec3 invDir;

  RaySlab(const glm::vec3& o, const glm::vec3& d) : origin(o) {
    for (int k = 0; k < 3; ++k) {
      // A zero component becomes +-1e-30: its slab then spans (-inf, +inf) for an origin strictly
      // inside it and excludes an origin outside; an origin exactly on the slab's far face only
      // touches at t = 0, which can drop only rays running inside a node's face plane (grazing).
      const float dk = d[k] == 0.0f ? std::copysign(1e-30f, d[k]) : d[k];
      invDir[k] = 1.0f / dk;
    }
  }
  // Entry distance (clamped to >= tMin) when the ray meets the closed box within [tMin, tMax].
  // Branch-free: both slab distances per axis, then min/max. For invDir > 0 the smaller is the
  // min face's, for invDir < 0 the max face's, so the values are exactly those of selecting the
  // near and far faces by the sign of the direction (invDir is finite and never zero, so no NaN
  // arises from a finite origin).
  bool hit(const glm::vec3& bmin, const glm::vec3& bmax, float tMin, float tMax,
           float& outNear) const {
    const float ax = (bmin.x - origin.x) * invDir.x, bx = (bmax.x - origin.x) * invDir.x;
    const float ay = (bmin.y - origin.y) * invDir.y, by = (bmax.y - origin.y) * invDir.y;
    const float az = (bmin.z - origin.z) * invDir.z, bz = (bmax.z - origin.z) * invDir.z;
    const float nx = std::min(ax, bx), fx = std::max(ax, bx);
    const float ny = std::min(ay, by), fy = std::max(ay, by);
    const float nz = std::min(az, bz), fz = std::max(az, bz);
    const float tn = maxf(std::max(std::max(nx, ny), nz) * kShrink, tMin);
    const float tfar = std::min(std::min(fx, fy), fz) * kWiden;
    const float tf = std::min(tfar, tMax);
    outNear = tn;
    return tn <= tf;
  }
};

struct StackEntry {
  uint32_t node;
  float key;  // entry distance / time / squared distance, smaller first
};

// Pushes the children of `node` whose key passes `test` so that the smallest key pops first.
template <class KeyFn>
inline void pushChildrenSorted(const OctreeNode* nodes, uint32_t node, StackEntry* stack,
                               uint32_t& top, float bound, KeyFn&& keyOf) {
  StackEntry local[8];
  uint32_t n = 0;
  const uint32_t end = nodes[node].skip;
  // Collect without a branch per child (whether a child is hit is a coin flip for the branch
  // predictor), then sort the few hits: insertion sort, largest key first.
  for (uint32_t c = node + 1; c < end; c = nodes[c].skip) {
    float key = 0.0f;
    const bool hit = keyOf(nodes[c], key);
    local[n] = {c, key};
    n += static_cast<uint32_t>(hit & (key <= bound));
  }
  for (uint32_t i = 1; i < n; ++i) {
    const StackEntry e = local[i];
    uint32_t j = i;
    while (j > 0 && local[j - 1].key < e.key) {
      local[j] = local[j - 1];
      --j;
    }
    local[j] = e;
  }
  for (uint32_t i = 0; i < n; ++i) stack[top++] = local[i];
}

inline bool inMask(const std::vector<uint32_t>& layers, uint32_t slot, uint32_t mask) {
  return ((layers.empty() ? kOctreeAllLayers : layers[slot]) & mask) != 0;
}

inline float maxAbs(const glm::vec3& v) {
  return std::max(std::fabs(v.x), std::max(std::fabs(v.y), std::fabs(v.z)));
}

}  // namespace

// ---- Ray -----------------------------------------------------------------------------------------

bool Octree::raycast(const glm::vec3& origin, const glm::vec3& dir, float tMax, uint32_t layerMask,
                     RayHit& outHit, QueryStats* ioStats) const {
  const uint32_t nc = nodeCount();
  if (nc == 0 || layerMask == 0 || !(tMax >= 0.0f) || (dir.x == 0.0f && dir.y == 0.0f && dir.z == 0.0f)) {
    return false;
  }
  const RaySlab slab(origin, dir);
  const OctreeNode* nodes = nodes_.data();
  QueryStats st;
  QueryTrace* const trace = ioStats != nullptr ? ioStats->trace : nullptr;
  float best = tMax;
  uint32_t bestSlot = kOctreeInvalidIndex;
  uint32_t bestOrig = kOctreeInvalidIndex;
  StackEntry stack[kOctreeStackSize];
  uint32_t top = 0;
  float rootNear;
  ++st.nodesVisited;
  if (slab.hit(nodes[0].boundsMin, nodes[0].boundsMax, 0.0f, tMax, rootNear)) stack[top++] = {0, rootNear};
  while (top > 0) {
    const StackEntry e = stack[--top];
    if (e.key > best) continue;
    if (trace != nullptr) trace->add(e.node);
    const uint32_t first = nodes[e.node].firstTriangle, last = nodes[e.node + 1].firstTriangle;
    for (uint32_t s = first; s < last; ++s) {
      if (!inMask(layers_, s, layerMask)) continue;
      ++st.trianglesTested;
      float t;
      if (rayTriangle(origin, dir, best, triangles_[s], t)) {
        const uint32_t o = originalIndex_[s];
        if (t < best || (t == best && o < bestOrig)) {
          best = t;
          bestSlot = s;
          bestOrig = o;
        }
      }
    }
    pushChildrenSorted(nodes, e.node, stack, top, best, [&](const OctreeNode& c, float& key) {
      ++st.nodesVisited;
      return slab.hit(c.boundsMin, c.boundsMax, 0.0f, best, key);
    });
  }
  if (ioStats) {
    ioStats->nodesVisited += st.nodesVisited;
    ioStats->trianglesTested += st.trianglesTested;
  }
  if (bestSlot == kOctreeInvalidIndex) return false;
  outHit.t = best;
  outHit.triangle = bestOrig;
  outHit.point = origin + dir * best;
  outHit.normal = triangleNormalFacing(triangles_[bestSlot], origin);
  return true;
}

bool Octree::rayAny(const glm::vec3& origin, const glm::vec3& dir, float tMax, uint32_t layerMask,
                    QueryStats* ioStats) const {
  const uint32_t nc = nodeCount();
  if (nc == 0 || layerMask == 0 || !(tMax >= 0.0f) || (dir.x == 0.0f && dir.y == 0.0f && dir.z == 0.0f)) {
    return false;
  }
  const RaySlab slab(origin, dir);
  QueryStats st;
  QueryTrace* const trace = ioStats != nullptr ? ioStats->trace : nullptr;
  bool found = false;
  uint32_t i = 0;
  while (i < nc && !found) {
    const OctreeNode& node = nodes_[i];
    ++st.nodesVisited;
    float tn;
    if (!slab.hit(node.boundsMin, node.boundsMax, 0.0f, tMax, tn)) {
      i = node.skip;
      continue;
    }
    if (trace != nullptr) trace->add(i);
    for (uint32_t s = node.firstTriangle; s < nodes_[i + 1].firstTriangle; ++s) {
      if (!inMask(layers_, s, layerMask)) continue;
      ++st.trianglesTested;
      float t;
      if (rayTriangle(origin, dir, tMax, triangles_[s], t)) {
        found = true;
        break;
      }
    }
    ++i;
  }
  if (ioStats) {
    ioStats->nodesVisited += st.nodesVisited;
    ioStats->trianglesTested += st.trianglesTested;
  }
  return found;
}

// ---- Overlap ------------------------------------------------------------------------------------

namespace {

// Stackless preorder walk: nodeTest(node) decides whether to enter a node, triTest(slot) whether
// a triangle overlaps; report(slot) returns false to stop.
template <class NodeTest, class TriTest, class Report>
uint32_t walkOverlap(const std::vector<OctreeNode>& nodes, uint32_t nodeCount,
                     const std::vector<uint32_t>& layers, uint32_t mask, NodeTest&& nodeTest,
                     TriTest&& triTest, Report&& report, QueryStats* ioStats) {
  QueryStats st;
  QueryTrace* const trace = ioStats != nullptr ? ioStats->trace : nullptr;
  uint32_t found = 0;
  uint32_t i = 0;
  if (mask != 0) {
    while (i < nodeCount) {
      const OctreeNode& node = nodes[i];
      ++st.nodesVisited;
      if (!nodeTest(node)) {
        i = node.skip;
        continue;
      }
      if (trace != nullptr) trace->add(i);
      const uint32_t last = nodes[i + 1].firstTriangle;
      bool stop = false;
      for (uint32_t s = node.firstTriangle; s < last; ++s) {
        if (!inMask(layers, s, mask)) continue;
        ++st.trianglesTested;
        if (triTest(s)) {
          ++found;
          if (!report(s)) {
            stop = true;
            break;
          }
        }
      }
      if (stop) break;
      ++i;
    }
  }
  if (ioStats) {
    ioStats->nodesVisited += st.nodesVisited;
    ioStats->trianglesTested += st.trianglesTested;
  }
  return found;
}

inline bool boxesOverlap(const OctreeNode& n, const glm::vec3& bmin, const glm::vec3& bmax) {
  return (n.boundsMin.x <= bmax.x) & (n.boundsMin.y <= bmax.y) & (n.boundsMin.z <= bmax.z) &
         (bmin.x <= n.boundsMax.x) & (bmin.y <= n.boundsMax.y) & (bmin.z <= n.boundsMax.z);
}

inline bool triBoxOverlap(const Triangle& t, const glm::vec3& bmin, const glm::vec3& bmax) {
  const glm::vec3 tmin = glm::min(t.v0, glm::min(t.v1, t.v2));
  const glm::vec3 tmax = glm::max(t.v0, glm::max(t.v1, t.v2));
  // Bitwise, not &&: one well-predicted branch (most triangles are rejected) instead of a chain
  // of 50/50 ones.
  return (tmin.x <= bmax.x) & (tmin.y <= bmax.y) & (tmin.z <= bmax.z) & (bmin.x <= tmax.x) &
         (bmin.y <= tmax.y) & (bmin.z <= tmax.z);
}

}  // namespace

uint32_t Octree::overlapSphere(const glm::vec3& center, float radius, uint32_t layerMask,
                               OctreeTriangleVisitor visitor, void* context,
                               QueryStats* ioStats) const {
  const float r2 = radius * radius;
  const glm::vec3 bmin = center - glm::vec3(radius), bmax = center + glm::vec3(radius);
  return walkOverlap(
      nodes_, nodeCount(), layers_, layerMask,
      [&](const OctreeNode& n) { return distanceSquared(Aabb{n.boundsMin, n.boundsMax}, center) <= r2; },
      [&](uint32_t s) {
        const Triangle& t = triangles_[s];
        return triBoxOverlap(t, bmin, bmax) && sphereOverlapsTriangle(center, radius, t);
      },
      [&](uint32_t s) { return visitor(context, originalIndex_[s]); }, ioStats);
}

uint32_t Octree::overlapCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                                uint32_t layerMask, OctreeTriangleVisitor visitor, void* context,
                                QueryStats* ioStats) const {
  const glm::vec3 bmin = glm::min(a, b) - glm::vec3(radius), bmax = glm::max(a, b) + glm::vec3(radius);
  return walkOverlap(
      nodes_, nodeCount(), layers_, layerMask,
      [&](const OctreeNode& n) { return boxesOverlap(n, bmin, bmax); },
      [&](uint32_t s) {
        const Triangle& t = triangles_[s];
        return triBoxOverlap(t, bmin, bmax) && capsuleOverlapsTriangle(a, b, radius, t);
      },
      [&](uint32_t s) { return visitor(context, originalIndex_[s]); }, ioStats);
}

uint32_t Octree::overlapBox(const Aabb& box, uint32_t layerMask, OctreeTriangleVisitor visitor,
                            void* context, QueryStats* ioStats) const {
  return walkOverlap(
      nodes_, nodeCount(), layers_, layerMask,
      [&](const OctreeNode& n) { return boxesOverlap(n, box.min, box.max); },
      [&](uint32_t s) { return boxOverlapsTriangle(box, triangles_[s]); },
      [&](uint32_t s) { return visitor(context, originalIndex_[s]); }, ioStats);
}

namespace {
struct CollectContext {
  std::span<uint32_t> out;
  uint32_t written = 0;
};
bool collectInto(void* ctx, uint32_t tri) {
  auto* c = static_cast<CollectContext*>(ctx);
  if (c->written < c->out.size()) c->out[c->written++] = tri;
  return true;
}
}  // namespace

uint32_t Octree::collectSphere(const glm::vec3& center, float radius, uint32_t layerMask,
                               std::span<uint32_t> out, QueryStats* ioStats) const {
  CollectContext c{out};
  return overlapSphere(center, radius, layerMask, &collectInto, &c, ioStats);
}
uint32_t Octree::collectCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                                uint32_t layerMask, std::span<uint32_t> out,
                                QueryStats* ioStats) const {
  CollectContext c{out};
  return overlapCapsule(a, b, radius, layerMask, &collectInto, &c, ioStats);
}
uint32_t Octree::collectBox(const Aabb& box, uint32_t layerMask, std::span<uint32_t> out,
                            QueryStats* ioStats) const {
  CollectContext c{out};
  return overlapBox(box, layerMask, &collectInto, &c, ioStats);
}

// ---- Push-out -----------------------------------------------------------------------------------

namespace {

// Deepest contact so far; ties go to the lower original index, so the reduction is independent
// of visit order.
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

// Runs the push-out rounds (octree.h). round(offset, deepest) fills the deepest contact of the
// shape translated by offset.
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
    // The last round moved the shape: check whether it is now clear.
    DeepestContact deepest;
    round(offset, deepest);
    out.resolved = !deepest.any || deepest.contact.depth <= tolerance;
  }
  const float len = std::sqrt(offset.x * offset.x + offset.y * offset.y + offset.z * offset.z);
  out.depth = len;
  out.normal = len > 0.0f ? offset * (1.0f / len) : glm::vec3(0.0f);
  return overlappedAtStart;
}

}  // namespace

bool Octree::sphereIntersect(const glm::vec3& center, float radius, uint32_t layerMask,
                             PushOut& outPushOut, QueryStats* ioStats,
                             uint32_t maxIterations) const {
  const float tol = 1e-6f * (radius + maxAbs(center));
  return resolvePushOut(tol, maxIterations, outPushOut, [&](const glm::vec3& offset, DeepestContact& d) {
    const glm::vec3 c = center + offset;
    const float r2 = radius * radius;
    const glm::vec3 bmin = c - glm::vec3(radius), bmax = c + glm::vec3(radius);
    walkOverlap(
        nodes_, nodeCount(), layers_, layerMask,
        [&](const OctreeNode& n) { return distanceSquared(Aabb{n.boundsMin, n.boundsMax}, c) <= r2; },
        [&](uint32_t s) {
          TriangleContact tc;
          if (triBoxOverlap(triangles_[s], bmin, bmax) &&
              sphereTriangleContact(c, radius, triangles_[s], tc)) {
            d.offer(tc, originalIndex_[s]);
          }
          return false;
        },
        [](uint32_t) { return true; }, ioStats);
  });
}

bool Octree::capsuleIntersect(const glm::vec3& a, const glm::vec3& b, float radius,
                              uint32_t layerMask, PushOut& outPushOut, QueryStats* ioStats,
                              uint32_t maxIterations) const {
  const float size = radius + 0.5f * maxAbs(b - a);
  const float tol = 1e-6f * (size + maxAbs((a + b) * 0.5f));
  return resolvePushOut(tol, maxIterations, outPushOut, [&](const glm::vec3& offset, DeepestContact& d) {
    const glm::vec3 a1 = a + offset, b1 = b + offset;
    const glm::vec3 bmin = glm::min(a1, b1) - glm::vec3(radius);
    const glm::vec3 bmax = glm::max(a1, b1) + glm::vec3(radius);
    walkOverlap(
        nodes_, nodeCount(), layers_, layerMask,
        [&](const OctreeNode& n) { return boxesOverlap(n, bmin, bmax); },
        [&](uint32_t s) {
          TriangleContact tc;
          if (triBoxOverlap(triangles_[s], bmin, bmax) &&
              capsuleTriangleContact(a1, b1, radius, triangles_[s], tc)) {
            d.offer(tc, originalIndex_[s]);
          }
          return false;
        },
        [](uint32_t) { return true; }, ioStats);
  });
}

bool Octree::boxIntersect(const Aabb& box, uint32_t layerMask, PushOut& outPushOut,
                          QueryStats* ioStats, uint32_t maxIterations) const {
  const float tol = 1e-6f * (maxAbs(box.halfExtents()) + maxAbs(box.center()));
  return resolvePushOut(tol, maxIterations, outPushOut, [&](const glm::vec3& offset, DeepestContact& d) {
    const Aabb b{box.min + offset, box.max + offset};
    walkOverlap(
        nodes_, nodeCount(), layers_, layerMask,
        [&](const OctreeNode& n) { return boxesOverlap(n, b.min, b.max); },
        [&](uint32_t s) {
          TriangleContact tc;
          if (boxTriangleContact(b, triangles_[s], tc)) d.offer(tc, originalIndex_[s]);
          return false;
        },
        [](uint32_t) { return true; }, ioStats);
  });
}

// ---- Sweeps -------------------------------------------------------------------------------------

namespace {

// Best sweep contact so far: earliest toi; at toi 0 with an initial overlap the deepest contact;
// then the lowest original index. Independent of visit order.
struct BestSweep {
  SweepContact contact;
  float depth = 0.0f;  // penetration depth for initial overlaps
  uint32_t triangle = kOctreeInvalidIndex;
  bool better(const SweepContact& c, float dep, uint32_t tri) const {
    if (triangle == kOctreeInvalidIndex) return true;
    if (c.toi != contact.toi) return c.toi < contact.toi;
    if (dep != depth) return dep > depth;
    return tri < triangle;
  }
};

}  // namespace

namespace {
template <class SweepTri>
bool sweepTraverse(const std::vector<OctreeNode>& nodesVec, uint32_t nodeCount,
                   const std::vector<uint32_t>& layers, const std::vector<uint32_t>& orig,
                   uint32_t mask, const glm::vec3& boxCenter, const glm::vec3& boxHalf,
                   const glm::vec3& displacement, SweepTri&& sweepTri, SweepHit& outHit,
                   QueryStats* ioStats) {
  if (nodeCount == 0 || mask == 0) return false;
  const OctreeNode* nodes = nodesVec.data();
  // The shape's box centre moves along a ray; node boxes grow by the shape's half extents.
  const RaySlab slab(boxCenter, displacement);
  // Node boxes also grow by a few ulps of the coordinates in play, so rounding in the slab test
  // can never drop a node whose triangle ties the best time of impact (a shared edge or vertex).
  const float pad = 1e-6f * (std::max(maxAbs(nodes[0].boundsMin), maxAbs(nodes[0].boundsMax)) +
                             maxAbs(boxCenter) + maxAbs(boxHalf) + maxAbs(displacement));
  const glm::vec3 grow = boxHalf + glm::vec3(pad);
  QueryStats st;
  QueryTrace* const trace = ioStats != nullptr ? ioStats->trace : nullptr;
  BestSweep best;
  float bound = 1.0f;
  auto keyOf = [&](const OctreeNode& n, float& key) {
    ++st.nodesVisited;
    return slab.hit(n.boundsMin - grow, n.boundsMax + grow, 0.0f, bound, key);
  };
  StackEntry stack[kOctreeStackSize];
  uint32_t top = 0;
  float rootKey;
  if (keyOf(nodes[0], rootKey)) stack[top++] = {0, rootKey};
  while (top > 0) {
    const StackEntry e = stack[--top];
    if (e.key > bound) continue;
    if (trace != nullptr) trace->add(e.node);
    const uint32_t first = nodes[e.node].firstTriangle, last = nodes[e.node + 1].firstTriangle;
    for (uint32_t s = first; s < last; ++s) {
      if (!inMask(layers, s, mask)) continue;
      ++st.trianglesTested;
      SweepContact c;
      float depth = 0.0f;
      if (sweepTri(s, c, depth) && best.better(c, depth, orig[s])) {
        best.contact = c;
        best.depth = depth;
        best.triangle = orig[s];
        bound = c.toi;
      }
    }
    pushChildrenSorted(nodes, e.node, stack, top, bound, keyOf);
  }
  if (ioStats) {
    ioStats->nodesVisited += st.nodesVisited;
    ioStats->trianglesTested += st.trianglesTested;
  }
  if (best.triangle == kOctreeInvalidIndex) return false;
  outHit.toi = best.contact.toi;
  outHit.triangle = best.triangle;
  outHit.point = best.contact.point;
  outHit.normal = best.contact.normal;
  outHit.startsOverlapping = best.contact.startsOverlapping;
  return true;
}
}  // namespace

bool Octree::sweepSphere(const glm::vec3& center, float radius, const glm::vec3& displacement,
                         uint32_t layerMask, SweepHit& outHit, QueryStats* ioStats) const {
  return sweepTraverse(
      nodes_, nodeCount(), layers_, originalIndex_, layerMask, center, glm::vec3(radius),
      displacement,
      [&](uint32_t s, SweepContact& c, float& depth) {
        if (!sweepSphereTriangle(center, radius, displacement, triangles_[s], c)) return false;
        if (c.startsOverlapping) {
          TriangleContact tc;
          if (sphereTriangleContact(center, radius, triangles_[s], tc)) depth = tc.depth;
        }
        return true;
      },
      outHit, ioStats);
}

bool Octree::sweepCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                          const glm::vec3& displacement, uint32_t layerMask, SweepHit& outHit,
                          QueryStats* ioStats) const {
  const glm::vec3 half = glm::abs(b - a) * 0.5f + glm::vec3(radius);
  return sweepTraverse(
      nodes_, nodeCount(), layers_, originalIndex_, layerMask, (a + b) * 0.5f, half, displacement,
      [&](uint32_t s, SweepContact& c, float& depth) {
        if (!sweepCapsuleTriangle(a, b, radius, displacement, triangles_[s], c)) return false;
        if (c.startsOverlapping) {
          TriangleContact tc;
          if (capsuleTriangleContact(a, b, radius, triangles_[s], tc)) depth = tc.depth;
        }
        return true;
      },
      outHit, ioStats);
}

// ---- Closest point ------------------------------------------------------------------------------

bool Octree::closestPoint(const glm::vec3& p, float maxDistance, uint32_t layerMask,
                          PointHit& outHit, QueryStats* ioStats) const {
  const uint32_t nc = nodeCount();
  if (nc == 0 || layerMask == 0 || !(maxDistance >= 0.0f)) return false;
  const OctreeNode* nodes = nodes_.data();
  QueryStats st;
  QueryTrace* const trace = ioStats != nullptr ? ioStats->trace : nullptr;
  float best2 = maxDistance * maxDistance;
  uint32_t bestOrig = kOctreeInvalidIndex;
  glm::vec3 bestPoint(0.0f);
  auto keyOf = [&](const OctreeNode& n, float& key) {
    ++st.nodesVisited;
    key = distanceSquared(Aabb{n.boundsMin, n.boundsMax}, p);
    return key <= best2;
  };
  StackEntry stack[kOctreeStackSize];
  uint32_t top = 0;
  float rootKey;
  if (keyOf(nodes[0], rootKey)) stack[top++] = {0, rootKey};
  while (top > 0) {
    const StackEntry e = stack[--top];
    if (e.key > best2) continue;
    if (trace != nullptr) trace->add(e.node);
    const uint32_t first = nodes[e.node].firstTriangle, last = nodes[e.node + 1].firstTriangle;
    for (uint32_t s = first; s < last; ++s) {
      if (!inMask(layers_, s, layerMask)) continue;
      ++st.trianglesTested;
      const glm::vec3 cp = closestPointOnTriangle(p, triangles_[s]);
      const glm::vec3 d = p - cp;
      const float d2 = d.x * d.x + d.y * d.y + d.z * d.z;
      const uint32_t o = originalIndex_[s];
      if (d2 < best2 || (d2 == best2 && o < bestOrig)) {
        best2 = d2;
        bestOrig = o;
        bestPoint = cp;
      }
    }
    pushChildrenSorted(nodes, e.node, stack, top, best2, keyOf);
  }
  if (ioStats) {
    ioStats->nodesVisited += st.nodesVisited;
    ioStats->trianglesTested += st.trianglesTested;
  }
  if (bestOrig == kOctreeInvalidIndex) return false;
  outHit.point = bestPoint;
  outHit.distance = std::sqrt(best2);
  outHit.triangle = bestOrig;
  return true;
}

}  // namespace ofps
