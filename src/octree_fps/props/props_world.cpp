// Dynamic props (contracts in props_world.h).
#include "octree_fps/props/props_world.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "octree_fps/assert.h"
#include "octree_fps/geometry/scalar_inl.h"
#include "octree_fps/geometry/splitmix.h"
#include "octree_fps/geometry/triangle_tests.h"
#include "octree_fps/io/csv_number.h"

namespace ofps {

namespace {

constexpr float kSupportCos = 0.7f;  // a contact normal with y above this supports the prop
constexpr int kSupportSteps = 4;     // support this recent (in steps) lets a slow prop sleep

inline float dot3(const glm::vec3& a, const glm::vec3& b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
inline float len2(const glm::vec3& a) {
  return dot3(a, a);
}
inline float maxComp(const glm::vec3& v) {
  return std::max(v.x, std::max(v.y, v.z));
}
inline float minComp(const glm::vec3& v) {
  return std::min(v.x, std::min(v.y, v.z));
}

// The 12 triangles of a box's surface.
void boxTriangles(const glm::vec3& c, const glm::vec3& h, Triangle out[12]) {
  glm::vec3 v[8];
  for (int i = 0; i < 8; ++i) {
    v[i] = c + glm::vec3((i & 1) ? h.x : -h.x, (i & 2) ? h.y : -h.y, (i & 4) ? h.z : -h.z);
  }
  static constexpr int kQuads[6][4] = {{0, 2, 6, 4}, {1, 5, 7, 3}, {0, 4, 5, 1},
                                       {2, 3, 7, 6}, {0, 1, 3, 2}, {4, 6, 7, 5}};
  for (int f = 0; f < 6; ++f) {
    const int* q = kQuads[f];
    out[2 * f] = {v[q[0]], v[q[1]], v[q[2]]};
    out[2 * f + 1] = {v[q[0]], v[q[2]], v[q[3]]};
  }
}

inline glm::vec3 closestOnSegment(const glm::vec3& a, const glm::vec3& b, const glm::vec3& p) {
  const glm::vec3 ab = b - a;
  const float l2 = len2(ab);
  const float t = l2 > 0.0f ? std::clamp(dot3(p - a, ab) / l2, 0.0f, 1.0f) : 0.0f;
  return a + ab * t;
}

inline glm::vec3 closestOnBox(const glm::vec3& c, const glm::vec3& h, const glm::vec3& p) {
  return glm::clamp(p, c - h, c + h);
}

bool capsuleTouchesSphere(const glm::vec3& a, const glm::vec3& b, float r, const glm::vec3& c,
                          float R) {
  const glm::vec3 s = closestOnSegment(a, b, c);
  return len2(c - s) <= (r + R) * (r + R);
}

bool capsuleTouchesBox(const glm::vec3& a, const glm::vec3& b, float r, const glm::vec3& c,
                       const glm::vec3& h) {
  const Aabb box = Aabb::fromCenterHalfExtents(c, h);
  if (box.contains(a) || box.contains(b)) return true;
  Triangle tris[12];
  boxTriangles(c, h, tris);
  for (const Triangle& t : tris) {
    if (capsuleOverlapsTriangle(a, b, r, t)) return true;
  }
  return false;
}

// Contact between props A and B: normal from A to B and penetration (> 0 overlapping).
// Returns false when they are apart; with evenApart, computes them anyway (the penetration is
// then negative and the normal a separating direction: between the centres for two spheres, the
// axis of the largest gap for two boxes, toward the box's closest point for a sphere and a box).
// The axis of v's least component; ties prefer y (stacking), then x, then z.
inline int leastAxis(const glm::vec3& v) {
  int axis = 1;
  if (v.x < v[axis]) axis = 0;
  if (v.z < v[axis]) axis = 2;
  return axis;
}

// A sphere-box pair in either order: the sphere's centre and radius, the box's centre and
// half-extents, and whether the sphere was the pair's first prop (A).
struct SphereAndBox {
  bool sphereFirst;
  const glm::vec3& sc;
  float r;
  const glm::vec3& bc;
  const glm::vec3& bh;
  SphereAndBox(PropShape sa, const glm::vec3& ca, const glm::vec3& ha, const glm::vec3& cb,
               const glm::vec3& hb)
      : sphereFirst(sa == PropShape::Sphere),
        sc(sphereFirst ? ca : cb),
        r(sphereFirst ? ha.x : hb.x),
        bc(sphereFirst ? cb : ca),
        bh(sphereFirst ? hb : ha) {}
};

bool propContact(PropShape sa, const glm::vec3& ca, const glm::vec3& ha, PropShape sb,
                 const glm::vec3& cb, const glm::vec3& hb, glm::vec3& outN, float& outPen,
                 bool evenApart = false) {
  if (sa == PropShape::Sphere && sb == PropShape::Sphere) {
    const glm::vec3 d = cb - ca;
    const float rr = ha.x + hb.x;
    const float d2 = len2(d);
    if (d2 > rr * rr && !evenApart) return false;
    const float dist = std::sqrt(d2);
    outN = dist > 0.0f ? d / dist : glm::vec3(0.0f, 1.0f, 0.0f);
    outPen = rr - dist;
    return true;
  }
  if (sa == PropShape::Box && sb == PropShape::Box) {
    const glm::vec3 d = cb - ca;
    const glm::vec3 o = ha + hb - glm::abs(d);
    if ((o.x < 0.0f || o.y < 0.0f || o.z < 0.0f) && !evenApart) return false;
    const int axis = leastAxis(o);
    outN = glm::vec3(0.0f);
    outN[axis] = d[axis] >= 0.0f ? 1.0f : -1.0f;
    outPen = o[axis];
    return true;
  }
  // Sphere against box: compute with the sphere as A, flip if needed.
  const SphereAndBox roles(sa, ca, ha, cb, hb);
  const bool sphereFirst = roles.sphereFirst;
  const glm::vec3 &sc = roles.sc, &bc = roles.bc, &bh = roles.bh;
  const float r = roles.r;
  const glm::vec3 q = closestOnBox(bc, bh, sc);
  const glm::vec3 d = q - sc;  // sphere -> box
  const float d2 = len2(d);
  if (d2 > r * r && !evenApart) return false;
  glm::vec3 n;
  float pen;
  if (d2 > 0.0f) {
    const float dist = std::sqrt(d2);
    n = d / dist;
    pen = r - dist;
  } else {
    // Centre inside the box: leave through the nearest face.
    const glm::vec3 rel = sc - bc;
    const glm::vec3 depth = bh - glm::abs(rel);
    const int axis = leastAxis(depth);
    n = glm::vec3(0.0f);
    n[axis] = rel[axis] >= 0.0f ? -1.0f : 1.0f;  // sphere -> box is inward
    pen = r + depth[axis];
  }
  outN = sphereFirst ? n : -n;
  outPen = pen;
  return true;
}

// Extent of a prop along unit direction n from its centre (its support distance).
inline float supportExtent(PropShape s, const glm::vec3& h, const glm::vec3& n) {
  return s == PropShape::Sphere ? h.x
                                : std::abs(n.x) * h.x + std::abs(n.y) * h.y + std::abs(n.z) * h.z;
}

// Point c moved by t * d, t in [0, 1], against the closed box (centre b, half-extents e): the slab
// test. Returns false when the segment misses the box; else the entry time and the axis it enters
// through (-1 when c starts inside). Ties between axes prefer y, then x, then z (as propContact).
bool segmentEntersBox(const glm::vec3& c, const glm::vec3& d, const glm::vec3& b,
                      const glm::vec3& e, float& outT, int& outAxis) {
  float t0 = 0.0f, t1 = 1.0f;
  int axis = -1;
  static constexpr int kOrder[3] = {1, 0, 2};
  for (const int k : kOrder) {
    const float lo = b[k] - e[k], hi = b[k] + e[k];
    if (d[k] == 0.0f) {
      if (c[k] < lo || c[k] > hi) return false;
      continue;
    }
    const float inv = 1.0f / d[k];
    float ta = (lo - c[k]) * inv, tb = (hi - c[k]) * inv;
    if (ta > tb) std::swap(ta, tb);
    if (ta > t0) {
      t0 = ta;
      axis = k;
    }
    t1 = std::min(t1, tb);
    if (t0 > t1) return false;
  }
  outT = t0;
  outAxis = axis;
  return true;
}

// Time of impact of prop A moved by t * d (t in [0, 1]) against prop B at rest, both apart at
// t = 0 (the caller checks with propContact first). Exact for the closed shapes: sphere-sphere
// by the quadratic |ca + t d - cb| = ra + rb; box-box by the slab test of A's centre against B
// grown by A's half-extents (the Minkowski sum of two boxes is a box); sphere-box by the swept
// sphere against the box's 12 triangles (sweepSphereTriangle, the primitive the octree's sweeps
// use), after the slab test against the box grown by the radius (which contains the rounded box,
// so a miss there is a miss). outN: unit contact normal at the impact, from A toward B.
bool propTimeOfImpact(PropShape sa, const glm::vec3& ca, const glm::vec3& ha, PropShape sb,
                      const glm::vec3& cb, const glm::vec3& hb, const glm::vec3& d, float& outT,
                      glm::vec3& outN) {
  if (len2(d) == 0.0f) return false;
  if (sa == PropShape::Sphere && sb == PropShape::Sphere) {
    const float rr = ha.x + hb.x;
    const glm::vec3 m = ca - cb;
    const float b = dot3(m, d);
    const float c = dot3(m, m) - rr * rr;
    if (b >= 0.0f) return false;  // not approaching
    const float a = len2(d);
    const float disc = b * b - a * c;
    if (disc < 0.0f) return false;
    const float t = std::max(0.0f, (-b - std::sqrt(disc)) / a);
    if (t > 1.0f) return false;
    const glm::vec3 rel = cb - (ca + d * t);
    const float l2 = len2(rel);
    outN = l2 > 0.0f ? rel / std::sqrt(l2) : d / std::sqrt(a);
    outT = t;
    return true;
  }
  if (sa == PropShape::Box && sb == PropShape::Box) {
    float t;
    int axis;
    if (!segmentEntersBox(ca, d, cb, ha + hb, t, axis)) return false;
    outN = glm::vec3(0.0f);
    if (axis < 0) {
      // Touching at t = 0 (apart for propContact by a rounding): the normal is the axis of least
      // overlap, toward B, as propContact's.
      const glm::vec3 rel = cb - ca;
      const glm::vec3 o = ha + hb - glm::abs(rel);
      axis = leastAxis(o);
      outN[axis] = rel[axis] >= 0.0f ? 1.0f : -1.0f;
    } else {
      outN[axis] = d[axis] > 0.0f ? 1.0f : -1.0f;  // entering B's slab from that side
    }
    outT = t;
    return true;
  }
  // Sphere against box: the sphere moves by ds relative to the box.
  const SphereAndBox roles(sa, ca, ha, cb, hb);
  const bool sphereFirst = roles.sphereFirst;
  const glm::vec3 &sc = roles.sc, &bc = roles.bc, &bh = roles.bh;
  const float r = roles.r;
  const glm::vec3 ds = sphereFirst ? d : -d;
  float tSlab;
  int axis;
  if (!segmentEntersBox(sc, ds, bc, bh + glm::vec3(r), tSlab, axis)) return false;
  Triangle tris[12];
  boxTriangles(bc, bh, tris);
  bool hit = false;
  SweepContact best;
  for (const Triangle& tri : tris) {
    SweepContact c;
    if (sweepSphereTriangle(sc, r, ds, tri, c) && (!hit || c.toi < best.toi)) {
      best = c;
      hit = true;
    }
  }
  if (!hit) return false;
  // best.normal points from the box toward the sphere.
  outN = sphereFirst ? -best.normal : best.normal;
  outT = best.toi;
  return true;
}

}  // namespace

// ---- Setup --------------------------------------------------------------------------------------

PropsWorld::PropsWorld(const PropsParams& params) : params_(params), grid_(params.cellSize) {}

void PropsWorld::setParams(const PropsParams& params) {
  OFPS_ASSERT(params.cellSize > 0.0f, "PropsParams::cellSize must be > 0");
  const bool regrid = params.cellSize != params_.cellSize;
  params_ = params;
  if (regrid && params.cellSize > 0.0f) grid_.setCellSize(params.cellSize);
}

float PropsWorld::size(uint32_t i) const {
  return maxComp(half_[i]);
}

float PropsWorld::anchorTolerance(uint32_t i) const {
  return 2.0f * params_.skin * size(i);
}

uint32_t PropsWorld::add(PropShape shape, const glm::vec3& center, const glm::vec3& half,
                         const glm::vec3& velocity) {
  OFPS_ASSERT(finite3(center) && finite3(velocity) && finite3(half),
              "PropsWorld::add: non-finite centre, size or velocity");
  OFPS_ASSERT(minComp(half) > 0.0f, "PropsWorld::add: radius / half-extents must be > 0");
  const uint32_t id = static_cast<uint32_t>(position_.size());
  position_.push_back(center);
  velocity_.push_back(velocity);
  half_.push_back(half);
  shape_.push_back(shape);
  resting_.push_back(0);
  removed_.push_back(0);
  supported_.push_back(0);
  supportAge_.push_back(255);
  touched_.push_back(0);
  levelHeld_.push_back(0);
  leavingThrower_.push_back(0);
  moveStamp_.push_back(0);
  sleepTimer_.push_back(0.0f);
  start_.push_back(center);
  anchor_.push_back(center);
  anchorTimer_.push_back(0.0f);
  const float volume = shape == PropShape::Sphere ? 4.18879020f * half.x * half.x * half.x
                                                  : 8.0f * half.x * half.y * half.z;
  invMass_.push_back(1.0f / std::max(volume, 1e-12f));
  if (shape == PropShape::Sphere) {
    grid_.insertSphere(id, center, half.x);
  } else {
    grid_.insertBox(id, center, half);
  }
  return id;
}

uint32_t PropsWorld::addSphere(const glm::vec3& center, float radius, const glm::vec3& velocity) {
  return add(PropShape::Sphere, center, glm::vec3(radius), velocity);
}

uint32_t PropsWorld::throwSphere(const glm::vec3& origin, const glm::vec3& velocity, float radius) {
  const uint32_t id = addSphere(origin, radius, velocity);
  leavingThrower_[id] = 1;
  leavingList_.push_back(id);
  return id;
}

uint32_t PropsWorld::addBox(const glm::vec3& center, const glm::vec3& halfExtents,
                            const glm::vec3& velocity) {
  return add(PropShape::Box, center, halfExtents, velocity);
}

void PropsWorld::clear() {
  grid_.clear();
  position_.clear();
  velocity_.clear();
  half_.clear();
  shape_.clear();
  resting_.clear();
  removed_.clear();
  supported_.clear();
  supportAge_.clear();
  touched_.clear();
  levelHeld_.clear();
  leavingThrower_.clear();
  leavingList_.clear();
  moveStamp_.clear();
  invMass_.clear();
  sleepTimer_.clear();
  start_.clear();
  anchor_.clear();
  anchorTimer_.clear();
  restingCount_ = 0;
  stats_ = {};
}

bool PropsWorld::hasFloorBelow(const Octree& octree, const glm::vec3& point, float lowestY) const {
  // Over open sky or a hole the prop would fall to the kill plane; over a wall's top edge or a
  // steep slope it would slide off. The ray's hit normal faces the ray's origin, so it points up
  // whichever way the triangle is wound.
  RayHit hit;
  const float depth = point.y - lowestY;
  return depth > 0.0f &&
         octree.raycast(point, glm::vec3(0.0f, -1.0f, 0.0f), depth, params_.layerMask, hit) &&
         hit.normal.y >= kPropFloorMinNormalY;
}

uint32_t PropsWorld::spawnRandom(uint32_t count, const Octree& octree, const Aabb& bounds,
                                 uint64_t seed) {
  OFPS_ASSERT(count <= kPropMaxSpawn, "PropsWorld::spawnRandom: at most kPropMaxSpawn per call");
  count = std::min(count, kPropMaxSpawn);
  if (bounds.isEmpty()) return 0;
  static constexpr float kRadii[4] = {0.1f, 0.15f, 0.25f, 0.4f};
  SplitMix64 rng{seed};
  uint32_t added = 0;
  const size_t reserve = position_.size() + count;
  position_.reserve(reserve);
  velocity_.reserve(reserve);
  half_.reserve(reserve);
  shape_.reserve(reserve);
  for (uint32_t n = 0; n < count; ++n) {
    const bool sphere = rng.uniform() < 0.7f;
    glm::vec3 half;
    if (sphere) {
      half = glm::vec3(kRadii[rng.next() & 3u]);
    } else {
      half = glm::vec3(rng.uniform(0.1f, 0.4f), rng.uniform(0.1f, 0.4f), rng.uniform(0.1f, 0.4f));
    }
    for (uint32_t attempt = 0; attempt < kPropSpawnAttempts; ++attempt) {
      const glm::vec3 c(
          rng.uniform(bounds.min.x, bounds.max.x),
          rng.uniform(bounds.min.y + 0.3f * (bounds.max.y - bounds.min.y), bounds.max.y),
          rng.uniform(bounds.min.z, bounds.max.z));
      const bool hitsLevel = sphere ? octree.collectSphere(c, half.x, params_.layerMask, {}) > 0
                                    : octree.collectBox(Aabb::fromCenterHalfExtents(c, half),
                                                        params_.layerMask, {}) > 0;
      if (hitsLevel || !hasFloorBelow(octree, c, bounds.min.y)) continue;
      if (sphere) {
        addSphere(c, half.x);
      } else {
        addBox(c, half);
      }
      ++added;
      break;
    }
  }
  return added;
}

// ---- Sleep --------------------------------------------------------------------------------------

void PropsWorld::setResting(uint32_t i, bool resting) {
  if ((resting_[i] != 0) == resting) return;
  resting_[i] = resting ? 1 : 0;
  sleepTimer_[i] = 0.0f;
  anchorTimer_[i] = 0.0f;
  anchor_[i] = position_[i];
  if (resting) {
    velocity_[i] = glm::vec3(0.0f);
    ++restingCount_;
  } else {
    --restingCount_;
  }
}

void PropsWorld::wakeAround(uint32_t first) {
  // Worklist over the resting props touching (within a skin) each woken prop: a pile wakes as a
  // whole, so nothing is left floating when its support leaves.
  wakeStack_.clear();
  wakeStack_.push_back(first);
  while (!wakeStack_.empty()) {
    const uint32_t i = wakeStack_.back();
    wakeStack_.pop_back();
    const float margin = 2.0f * params_.skin * size(i) + 0.01f * size(i);
    const Aabb box = Aabb::fromCenterHalfExtents(position_[i], half_[i] + glm::vec3(margin));
    grid_.queryAabb(box, [&](uint32_t j) {
      if (resting_[j] && !removed_[j]) {
        setResting(j, false);
        wakeStack_.push_back(j);
      }
    });
  }
}

void PropsWorld::wake(uint32_t id) {
  if (id >= size() || removed_[id] || !resting_[id]) return;
  setResting(id, false);
  wakeAround(id);
}

void PropsWorld::syncGrid(uint32_t i) {
  grid_.move(i, position_[i]);
}

// ---- Level collision ----------------------------------------------------------------------------

void PropsWorld::respond(uint32_t i, const glm::vec3& n, bool& ioSupported) {
  if (n.y > kSupportCos) ioSupported = true;
  glm::vec3& v = velocity_[i];
  const float vn = dot3(v, n);
  if (!(vn < 0.0f)) return;
  const float e = -vn > params_.bounceSpeed ? params_.restitution : 0.0f;
  const float jn = -(1.0f + e) * vn;
  v += n * jn;
  const glm::vec3 vt = v - n * dot3(v, n);
  const float vtLen = std::sqrt(len2(vt));
  if (vtLen > 0.0f) v -= vt * std::min(1.0f, params_.friction * jn / vtLen);
}

bool PropsWorld::pushOutOfLevel(const Octree& octree, uint32_t i, bool& ioSupported) {
  PushOut po;
  glm::vec3& p = position_[i];
  ++stats_.octreeQueries;
  const bool overlapped =
      shape_[i] == PropShape::Sphere
          ? octree.sphereIntersect(p, half_[i].x, params_.layerMask, po, &stats_.octree)
          : octree.boxIntersect(Aabb::fromCenterHalfExtents(p, half_[i]), params_.layerMask, po,
                                &stats_.octree);
  if (!overlapped || po.depth <= 0.0f || len2(po.normal) == 0.0f) return false;
  p += po.normal * (po.depth + params_.skin * size(i));
  respond(i, po.normal, ioSupported);
  return true;
}

void PropsWorld::integrateAndCollideLevel(const Octree& octree, uint32_t i, float dt) {
  glm::vec3& v = velocity_[i];
  glm::vec3& p = position_[i];
  v.y -= params_.gravity * dt;
  float speed2 = len2(v);
  if (speed2 > params_.maxSpeed * params_.maxSpeed) {
    if (std::isinf(speed2)) {  // beyond ~1.8e19 m/s the square overflows: scale first
      v *= 1.0f / maxComp(glm::abs(v));
      speed2 = len2(v);
    }
    v *= params_.maxSpeed / std::sqrt(speed2);
  }
  // Spheres sweep themselves; boxes their inscribed sphere (then the box is pushed out below).
  const float r = shape_[i] == PropShape::Sphere ? half_[i].x : minComp(half_[i]);
  const float skin = params_.skin * size(i);
  bool supported = false;
  float tLeft = dt;
  for (uint32_t s = 0; s < kPropMaxSweeps && tLeft > 0.0f; ++s) {
    const glm::vec3 disp = v * tLeft;
    if (len2(disp) == 0.0f) break;
    SweepHit hit;
    ++stats_.octreeQueries;
    if (!octree.sweepSphere(p, r, disp, params_.layerMask, hit, &stats_.octree)) {
      p += disp;
      tLeft = 0.0f;
      break;
    }
    if (hit.startsOverlapping) {
      PushOut po;
      ++stats_.octreeQueries;
      octree.sphereIntersect(p, r, params_.layerMask, po, &stats_.octree);
      const glm::vec3 n = len2(po.normal) > 0.0f ? po.normal : hit.normal;
      p += n * (po.depth + skin);
      respond(i, n, supported);
      continue;
    }
    p += disp * hit.toi + hit.normal * skin;
    respond(i, hit.normal, supported);
    tLeft *= 1.0f - hit.toi;
  }
  if (shape_[i] == PropShape::Box) pushOutOfLevel(octree, i, supported);
  if (supported) supported_[i] = 1;
}

// ---- Character ----------------------------------------------------------------------------------

void PropsWorld::pushByCharacter(const CharacterCapsule& c) {
  // Thrown spheres clear of the capsule at the start of this step have left their thrower: from
  // now on the character pushes them like any prop.
  size_t kept = 0;
  for (const uint32_t i : leavingList_) {
    if (!removed_[i] && capsuleTouchesSphere(c.a, c.b, c.radius, position_[i], half_[i].x)) {
      leavingList_[kept++] = i;
    } else {
      leavingThrower_[i] = 0;
    }
  }
  leavingList_.resize(kept);
  const glm::vec3 lo = glm::min(c.a, c.b) - glm::vec3(c.radius);
  const glm::vec3 hi = glm::max(c.a, c.b) + glm::vec3(c.radius);
  neighbors_.clear();
  grid_.queryAabb(Aabb{lo, hi}, [&](uint32_t id) { neighbors_.push_back(id); });
  std::sort(neighbors_.begin(), neighbors_.end());
  for (const uint32_t i : neighbors_) {
    if (leavingThrower_[i]) continue;
    glm::vec3& p = position_[i];
    glm::vec3 n;
    float pen;
    const glm::vec3 s = closestOnSegment(c.a, c.b, p);
    const glm::vec3 q = shape_[i] == PropShape::Sphere ? p : closestOnBox(p, half_[i], s);
    const glm::vec3 d = (shape_[i] == PropShape::Sphere ? p : q) - s;
    const float dist = std::sqrt(len2(d));
    if (dist > 0.0f) {
      n = d / dist;
      pen = shape_[i] == PropShape::Sphere ? c.radius + half_[i].x - dist : c.radius - dist;
    } else {
      // Centre on the axis (a sphere) or axis inside the box: push along the relative velocity,
      // else horizontally away from the capsule's segment toward the prop's centre, else +X.
      glm::vec3 dir = velocity_[i] - c.velocity;
      if (len2(dir) == 0.0f) dir = glm::vec3(p.x - s.x, 0.0f, p.z - s.z);
      if (len2(dir) == 0.0f) dir = glm::vec3(1.0f, 0.0f, 0.0f);
      n = dir / std::sqrt(len2(dir));
      pen = c.radius + (shape_[i] == PropShape::Sphere ? half_[i].x : minComp(half_[i]));
    }
    if (pen <= 0.0f) continue;
    const float rel = dot3(velocity_[i] - c.velocity, n);
    if (rel > 0.0f) continue;  // moving away faster than the character (a thrown ball)
    if (resting_[i]) wake(i);
    p += n * (pen + params_.skin * size(i));
    velocity_[i] -= n * rel;  // take the character's velocity along the normal
    ++stats_.characterPushes;
    syncGrid(i);
  }
}

// ---- Prop against prop --------------------------------------------------------------------------

void PropsWorld::addCandidate(uint32_t emitter, uint32_t i, uint32_t j) {
  const uint32_t a = std::min(i, j), b = std::max(i, j);
  Contact c{a, b, glm::vec3(0.0f), ContactMemory::Apart,
            (static_cast<uint64_t>(emitter) << 32) | (emitter == a ? b : a)};
  // Boxes first (every shape lies in its box): most candidates of a swept query never meet.
  const glm::vec3 reach = half_[a] + half_[b];
  const glm::vec3 gap0 = glm::abs(start_[b] - start_[a]) - reach;
  glm::vec3 n;
  float pen;
  const bool boxesOverlap0 = !(gap0.x > 0.0f || gap0.y > 0.0f || gap0.z > 0.0f);
  if (boxesOverlap0 &&
      propContact(shape_[a], start_[a], half_[a], shape_[b], start_[b], half_[b], n, pen)) {
    c.memory = ContactMemory::StartOverlap;
    c.n = n;
  } else {
    // Relative motion over the step: a moved by its displacement less b's (both straight).
    const glm::vec3 d = (position_[a] - start_[a]) - (position_[b] - start_[b]);
    float t;
    int axis;
    if (segmentEntersBox(start_[a], d, start_[b], reach, t, axis) &&
        propTimeOfImpact(shape_[a], start_[a], half_[a], shape_[b], start_[b], half_[b], d, t, n)) {
      c.memory = ContactMemory::Impact;
      c.n = n;
    }
    // Else apart all step. Kept (as the discrete broad phase kept every pair whose boxes touch),
    // since the solver may push them together: then along their separating direction at the
    // start (contactGeometry computes it when needed).
  }
  contacts_.push_back(c);
}

void PropsWorld::findContacts() {
  // Broad phase along the swept bounds. Prop i's query is its box at the start and at the end of
  // the step, grown on each side of each axis k by at most g_i = |d_i|inf (d_i: its displacement
  // this step). If i and j touch at some time t of the step, j's end box is its box at t moved by
  // s = (1 - t) d_j, and its box at t touches i's box at t, which lies within i's swept box Q; so
  // j's end box touches Q moved by s. Each s_k lies between 0 and d_j,k, so between 0 and the
  // smallest (or largest) d_k of all awake props this step, and |s_k| <= g_j. Growing Q by
  // min(g_i, that bound) on each side therefore finds every j with g_j <= g_i: the query of the
  // one with the larger g (either one on a tie) finds the pair, and that one emits it. Resting
  // props do not move: the awake one emits. The contacts are then sorted in the order the
  // discrete broad phase used (by the emitting id, then the other).
  contacts_.clear();
  glm::vec3 dLow(0.0f), dHigh(0.0f);  // extremes of the awake props' displacements, per axis
  // sweepReach_[j]: g_j for an awake prop, -1 for a resting one (one load per candidate).
  sweepReach_.assign(size(), -1.0f);
  for (const uint32_t i : awake_) {
    if (removed_[i]) continue;
    const glm::vec3 d = position_[i] - start_[i];
    dLow = glm::min(dLow, d);
    dHigh = glm::max(dHigh, d);
    sweepReach_[i] = maxComp(glm::abs(d));
  }
  // Every awake prop queries the grid once, after all the moves: the grid's query cache lets the
  // queries stream the objects' centres in cell order instead of gathering them by id.
  grid_.refreshQueryCache();
  for (const uint32_t i : awake_) {
    if (removed_[i]) continue;
    const float gi = sweepReach_[i];
    Aabb query = Aabb::fromCenterHalfExtents(position_[i], half_[i]);
    if (gi > 0.0f) {
      query.grow(Aabb::fromCenterHalfExtents(start_[i], half_[i]));
      query.min += glm::max(dLow, glm::vec3(-gi));
      query.max += glm::min(dHigh, glm::vec3(gi));
    }
    // Candidates in the grid's order: the sort below fixes the solve order.
    grid_.queryAabb(
        query,
        [&](uint32_t j) {
          if (j == i) return;
          const float gj = sweepReach_[j];
          if (gj < 0.0f) {  // resting
            addCandidate(i, i, j);
            return;
          }
          if (gj > gi || (gj == gi && j < i)) return;  // j's query emits it
          addCandidate(std::min(i, j), i, j);
        },
        &stats_.grid);
  }
  std::sort(contacts_.begin(), contacts_.end(),
            [](const Contact& x, const Contact& y) { return x.order < y.order; });
}

bool PropsWorld::contactGeometry(const Contact& c, glm::vec3& outN, float& outPen) const {
  const uint32_t a = c.a, b = c.b;
  if (c.memory != ContactMemory::Impact) {
    // Apart or overlapping at the start: a contact only while the shapes overlap (boxes first).
    const glm::vec3 gap = glm::abs(position_[b] - position_[a]) - (half_[a] + half_[b]);
    if (gap.x > 0.0f || gap.y > 0.0f || gap.z > 0.0f) return false;
    if (!propContact(shape_[a], position_[a], half_[a], shape_[b], position_[b], half_[b], outN,
                     outPen)) {
      return false;
    }
  }
  // Push-out by memory: the pair is separated along the normal it remembers, not the present
  // one (which turns over once a centre crosses the middle of the other prop): the normal at the
  // time of impact for a pair that came into contact during the step (also when the props have
  // already passed each other: the depth along that normal says how far), else while they
  // overlap their normal at the start of the step, or their separating direction at the start
  // for a pair apart all step (pushed together by the solver). The depth is measured along it
  // (support distances: exact for two boxes and on a face, never less than the true depth).
  glm::vec3 n = c.n;
  if (c.memory == ContactMemory::Apart) {
    float startPen;
    propContact(shape_[a], start_[a], half_[a], shape_[b], start_[b], half_[b], n, startPen, true);
  }
  outN = n;
  outPen = supportExtent(shape_[a], half_[a], n) + supportExtent(shape_[b], half_[b], n) -
           dot3(position_[b] - position_[a], n);
  return outPen >= 0.0f;
}

void PropsWorld::separateFromLevelHeld() {
  // Position passes only: a prop the level pushed back after the solver does not yield, the other
  // prop of its contacts does (it is pushed out of the level once more afterwards).
  for (uint32_t it = 0; it < params_.solverIterations; ++it) {
    bool moved = false;
    for (const Contact& c : contacts_) {
      const uint32_t a = c.a, b = c.b;
      if (!levelHeld_[a] && !levelHeld_[b]) continue;
      glm::vec3 n;
      float pen;
      if (!contactGeometry(c, n, pen)) continue;
      const float ima = resting_[a] || levelHeld_[a] ? 0.0f : invMass_[a];
      const float imb = resting_[b] || levelHeld_[b] ? 0.0f : invMass_[b];
      const float im = ima + imb;
      const float corr = pen - params_.slop * std::min(size(a), size(b));
      if (im <= 0.0f || corr <= 0.0f) continue;
      position_[a] -= n * (corr * ima / im);
      position_[b] += n * (corr * imb / im);
      for (const uint32_t k : {a, b}) {
        if (ima + imb > 0.0f && !levelHeld_[k] && !resting_[k]) {
          levelHeld_[k] = 2;  // moved by this pass: held for the next contacts
          moved = true;
          if (!touched_[k]) {  // (the flags were cleared after the first push-out)
            touched_[k] = 1;
            touchedList_.push_back(k);
          }
        }
      }
    }
    if (!moved) break;
  }
}

void PropsWorld::solveContacts() {
  const float e0 = params_.restitution;
  // solverIterations passes of positions and velocities, then up to kPropPositionPasses passes
  // of positions only, while some pair is still deeper than its slop (a landing on a pile, where
  // the depth moves down the column one pair per pass when the lower props do not hold).
  // The position passes visit the pairs in contact during the last velocity pass (activeContacts_).
  const uint32_t passes = params_.solverIterations + kPropPositionPasses;
  activeContacts_.clear();
  // A pair's geometry is a function of its two centres (and of the step's start, fixed here), so
  // it is computed again only when the solver has moved one of the two since it was last
  // computed: the solver clock stamps every correction, and a cached geometry older than either
  // prop's last correction is stale. The answers are the ones a fresh computation gives.
  geometryCache_.resize(contacts_.size());
  const uint64_t solveStart = ++solverClock_;
  auto geometry = [&](size_t ci, glm::vec3& outN, float& outPen) {
    ContactGeometry& g = geometryCache_[ci];
    const Contact& c = contacts_[ci];
    if (g.stamp < solveStart || g.stamp < moveStamp_[c.a] || g.stamp < moveStamp_[c.b]) {
      g.touching = contactGeometry(c, g.n, g.pen);
      g.stamp = solverClock_;
    }
    outN = g.n;
    outPen = g.pen;
    return g.touching;
  };
  for (uint32_t it = 0; it < passes; ++it) {
    const bool velocityPass = it < params_.solverIterations;
    const bool lastVelocityPass = it + 1 == params_.solverIterations;
    bool corrected = false;
    const size_t count = velocityPass ? contacts_.size() : activeContacts_.size();
    for (size_t pos = 0; pos < count; ++pos) {
      const size_t ci = velocityPass ? pos : activeContacts_[pos];
      const Contact& c = contacts_[ci];
      const uint32_t a = c.a, b = c.b;
      glm::vec3 n;
      float pen;
      const bool touching = geometry(ci, n, pen);
      if (!touching) continue;
      if (lastVelocityPass) activeContacts_.push_back(static_cast<uint32_t>(ci));
      if (!velocityPass && !(pen > params_.slop * std::min(size(a), size(b)))) continue;
      if (it == 0) ++stats_.contacts;
      float vn = dot3(velocity_[b] - velocity_[a], n);
      // A resting prop is immovable unless hit hard.
      if (velocityPass && resting_[a] && -vn > params_.wakeSpeed) wake(a);
      if (velocityPass && resting_[b] && -vn > params_.wakeSpeed) wake(b);
      // Shock propagation (Guendelman et al. 2003): across a near-vertical contact, a lower
      // prop that stands on something does not yield to the one above, so the solver cannot push
      // it into the level (which the push-out after the solver would undo, leaving an overlap).
      auto standing = [&](uint32_t k) { return supported_[k] || supportAge_[k] < kSupportSteps; };
      const bool aHolds = n.y > kSupportCos && standing(a);
      const bool bHolds = n.y < -kSupportCos && standing(b);
      const float ima = resting_[a] || aHolds ? 0.0f : invMass_[a];
      const float imb = resting_[b] || bHolds ? 0.0f : invMass_[b];
      const float im = ima + imb;
      if (im <= 0.0f) continue;
      // Support: the upper prop of a contact whose normal is near vertical.
      if (n.y > kSupportCos) supported_[b] = 1;
      if (n.y < -kSupportCos) supported_[a] = 1;
      const float slop = params_.slop * std::min(size(a), size(b));
      const float corr = pen - slop;
      if (corr > 0.0f) {
        position_[a] -= n * (corr * ima / im);
        position_[b] += n * (corr * imb / im);
        moveStamp_[a] = moveStamp_[b] = ++solverClock_;
        corrected = true;
        for (const uint32_t k : {a, b}) {
          if (!touched_[k] && !resting_[k]) {
            touched_[k] = 1;
            touchedList_.push_back(k);
          }
        }
      }
      if (vn < 0.0f && velocityPass) {
        // A prop held by shock propagation acts infinitely heavy; when it is itself moving into
        // the other (it just bounced off what it stands on), a bounce off it would hand the other
        // more than its own speed back, and a falling column would launch its top (the stacked
        // balls' effect, unbounded with infinite masses): no restitution then.
        const bool holderRises = (aHolds && dot3(velocity_[a], n) > params_.bounceSpeed) ||
                                 (bHolds && -dot3(velocity_[b], n) > params_.bounceSpeed);
        const float e = -vn > params_.bounceSpeed && !holderRises ? e0 : 0.0f;
        const float j = -(1.0f + e) * vn / im;
        velocity_[a] -= n * (j * ima);
        velocity_[b] += n * (j * imb);
        const glm::vec3 rv = velocity_[b] - velocity_[a];
        const glm::vec3 vt = rv - n * dot3(rv, n);
        const float vtLen = std::sqrt(len2(vt));
        if (vtLen > 0.0f) {
          const float jt = std::min(params_.friction * j, vtLen / im);
          const glm::vec3 t = vt / vtLen;
          velocity_[a] += t * (jt * ima);
          velocity_[b] -= t * (jt * imb);
        }
        vn = 0.0f;
      }
    }
    // Nothing moved in this pass (a velocity pass included): every pair is within its slop.
    if (!corrected && it + 1 >= params_.solverIterations) break;
  }
}

// ---- Step ---------------------------------------------------------------------------------------

void PropsWorld::step(const Octree& octree, float dt, const CharacterCapsule* character) {
  stats_ = {};
  if (!(dt > 0.0f)) return;
  if (character) pushByCharacter(*character);
  awake_.clear();
  const uint32_t n = size();
  for (uint32_t i = 0; i < n; ++i) {
    if (!removed_[i] && !resting_[i]) awake_.push_back(i);
  }
  for (const uint32_t i : awake_) {
    supported_[i] = 0;
    integrateAndCollideLevel(octree, i, dt);  // the level only: the grid is not read here
  }
  // The grid follows in one batch when many props are awake (moveCenters overlaps the cache
  // misses of the cell changes; its pass over every id costs little next to them), else prop by
  // prop. Both leave the same grid: moves in increasing id (awake_ is), a resting prop's centre
  // unchanged (its early out), a removed one not in the grid.
  if (awake_.size() * 4 >= n) {
    grid_.moveCenters(position_);
  } else {
    for (const uint32_t i : awake_) syncGrid(i);
  }
  findContacts();
  touchedList_.clear();
  solveContacts();
  // Props the solver moved are pushed out of the level again. The level wins: a prop it pushed
  // back holds still in a second, position-only pass over its contacts (so the props above are
  // not left inside it), and what that pass moved is pushed out of the level once more.
  // A touched prop out of the level again and back in the grid; true when the level pushed it.
  auto settle = [&](uint32_t i) {
    touched_[i] = 0;
    bool sup = false;
    const bool pushed = pushOutOfLevel(octree, i, sup);
    if (sup) supported_[i] = 1;
    syncGrid(i);
    return pushed;
  };
  bool levelPushed = false;
  for (const uint32_t i : touchedList_) {
    if (settle(i)) {
      levelHeld_[i] = 1;
      levelPushed = true;
    }
  }
  if (levelPushed) {
    const size_t firstPass = touchedList_.size();
    separateFromLevelHeld();
    for (size_t k = firstPass; k < touchedList_.size(); ++k) settle(touchedList_[k]);
    for (const uint32_t i : touchedList_) levelHeld_[i] = 0;
  }
  // Kill plane, then sleep.
  // One step of gravity is the speed a prop at rest on the ground has between two touches.
  const float sleepV = params_.sleepSpeed + params_.gravity * dt;
  const float sleep2 = sleepV * sleepV;
  for (const uint32_t i : awake_) {
    if (removed_[i] || resting_[i]) continue;
    if (position_[i].y < params_.killPlaneY) {
      wakeAround(i);
      grid_.remove(i);
      removed_[i] = 1;
      ++stats_.removed;
      continue;
    }
    // The skin makes a slow prop on the ground touch it only every other step or so: support
    // within the last kSupportSteps steps counts.
    supportAge_[i] = supported_[i] ? 0 : static_cast<uint8_t>(std::min(supportAge_[i] + 1, 255));
    if (supportAge_[i] < kSupportSteps && len2(velocity_[i]) < sleep2) {
      sleepTimer_[i] += dt;
      if (sleepTimer_[i] >= params_.sleepTime) {
        setResting(i, true);
        continue;
      }
    } else {
      sleepTimer_[i] = 0.0f;
    }
    // Sleep by stillness, whatever the tick rate: at a high rate a prop on the level falls
    // through its skin for several steps between two touches (faster than sleepV at the touch).
    // Supported within the time that fall takes (twice over), and its centre within
    // anchorTolerance of where this still phase began, for sleepTime: it rests.
    const float sk = params_.skin * size(i);
    const float fallSteps =
        params_.gravity > 0.0f ? 2.0f * std::sqrt(2.0f * sk / params_.gravity) / dt : 0.0f;
    const bool recentSupport =
        supportAge_[i] < kSupportSteps || static_cast<float>(supportAge_[i]) <= fallSteps;
    if (recentSupport && maxComp(glm::abs(position_[i] - anchor_[i])) <= anchorTolerance(i)) {
      anchorTimer_[i] += dt;
      if (anchorTimer_[i] >= params_.sleepTime) setResting(i, true);
    } else {
      anchor_[i] = position_[i];
      anchorTimer_[i] = 0.0f;
    }
  }
  // Next step's sweeps start where the props are now (resting props do not move).
  for (const uint32_t i : awake_) start_[i] = position_[i];
  for (const uint32_t i : touchedList_) start_[i] = position_[i];
  stats_.awake = static_cast<uint32_t>(awake_.size());
  stats_.total = grid_.objectCount();
  stats_.resting = restingCount_;
  stats_.cellsOccupied = grid_.occupiedCells();
}

// ---- Queries ------------------------------------------------------------------------------------

uint32_t PropsWorld::overlapCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                                    std::span<uint32_t> out, GridQueryStats* ioStats) const {
  const Aabb box{glm::min(a, b) - glm::vec3(radius), glm::max(a, b) + glm::vec3(radius)};
  uint32_t count = 0;
  grid_.queryAabb(
      box,
      [&](uint32_t i) {
        if (leavingThrower_[i]) return;
        const bool touch = shape_[i] == PropShape::Sphere
                               ? capsuleTouchesSphere(a, b, radius, position_[i], half_[i].x)
                               : capsuleTouchesBox(a, b, radius, position_[i], half_[i]);
        if (!touch) return;
        // Keep the written ids increasing (insertion into the caller's buffer).
        if (count < out.size()) {
          size_t k = count;
          while (k > 0 && out[k - 1] > i) {
            out[k] = out[k - 1];
            --k;
          }
          out[k] = i;
        }
        ++count;
      },
      ioStats);
  return count;
}

bool PropsWorld::sweepCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                              const glm::vec3& displacement, PropSweepHit& outHit,
                              GridQueryStats* ioStats) const {
  Aabb box{glm::min(a, b) - glm::vec3(radius), glm::max(a, b) + glm::vec3(radius)};
  box.grow(box.min + displacement);
  box.grow(box.max + displacement);
  PropSweepHit best;
  bool any = false;
  grid_.queryAabb(
      box,
      [&](uint32_t i) {
        if (leavingThrower_[i]) return;
        SweepContact sc;
        bool hit = false;
        if (shape_[i] == PropShape::Sphere) {
          const glm::vec3 c = position_[i];
          hit =
              sweepCapsuleTriangle(a, b, radius + half_[i].x, displacement, Triangle{c, c, c}, sc);
          if (hit) sc.point = c + (sc.normal * half_[i].x);
        } else if (capsuleTouchesBox(a, b, radius, position_[i], half_[i])) {
          hit = true;
          sc.toi = 0.0f;
          sc.startsOverlapping = true;
          const glm::vec3 mid = (a + b) * 0.5f;
          const glm::vec3 q = closestOnBox(position_[i], half_[i], mid);
          const glm::vec3 d = mid - q;
          sc.normal = len2(d) > 0.0f ? d / std::sqrt(len2(d)) : glm::vec3(0.0f, 1.0f, 0.0f);
          sc.point = q;
        } else {
          Triangle tris[12];
          boxTriangles(position_[i], half_[i], tris);
          for (const Triangle& t : tris) {
            SweepContact c;
            if (sweepCapsuleTriangle(a, b, radius, displacement, t, c) &&
                (!hit || c.toi < sc.toi)) {
              sc = c;
              hit = true;
            }
          }
        }
        if (!hit) return;
        if (!any || sc.toi < best.toi || (sc.toi == best.toi && i < best.prop)) {
          best.prop = i;
          best.toi = sc.toi;
          best.point = sc.point;
          best.normal = sc.normal;
          best.startsOverlapping = sc.startsOverlapping;
          any = true;
        }
      },
      ioStats);
  if (any) outHit = best;
  return any;
}

bool PropsWorld::validate(std::string* outError) const {
  auto fail = [&](const std::string& m) {
    if (outError) *outError = m;
    return false;
  };
  const size_t n = position_.size();
  if (velocity_.size() != n || half_.size() != n || shape_.size() != n || resting_.size() != n ||
      removed_.size() != n || invMass_.size() != n || sleepTimer_.size() != n ||
      start_.size() != n || anchor_.size() != n || anchorTimer_.size() != n ||
      levelHeld_.size() != n || moveStamp_.size() != n || leavingThrower_.size() != n) {
    return fail("state arrays differ in size");
  }
  uint32_t resting = 0, live = 0;
  for (uint32_t i = 0; i < n; ++i) {
    if (!finite3(position_[i]) || !finite3(velocity_[i])) {
      return fail("prop " + std::to_string(i) + " has a non-finite state");
    }
    if (removed_[i]) {
      if (grid_.contains(i))
        return fail("removed prop " + std::to_string(i) + " still in the grid");
      continue;
    }
    ++live;
    if (!grid_.contains(i) || grid_.object(i).center != position_[i]) {
      return fail("prop " + std::to_string(i) + " not in the grid at its position");
    }
    if (resting_[i]) {
      ++resting;
      if (velocity_[i] != glm::vec3(0.0f)) return fail("resting prop with a velocity");
      if (start_[i] != position_[i]) return fail("resting prop moved since its last step");
    }
  }
  if (resting != restingCount_) return fail("resting count mismatch");
  if (live != grid_.objectCount()) return fail("grid holds other props");
  return grid_.validate(outError);
}

// ---- Files --------------------------------------------------------------------------------------

const char* propsCsvHeader() {
  return "id,shape,x,y,z,vx,vy,vz,hx,hy,hz,resting,removed\n";
}
const char* propsTraceCsvHeader() {
  return "t,id,x,y,z\n";
}

namespace {
void appendNumber(std::string& out, double v) {
  appendCsvNumber(out, v);
}
void appendVec(std::string& out, const glm::vec3& v, const glm::dvec3& add = glm::dvec3(0.0)) {
  for (int k = 0; k < 3; ++k) {
    out += ',';
    appendCsvNumber(out, static_cast<double>(v[k]) + add[k], add[k]);
  }
}
}  // namespace

void writePropsCsv(std::string& ioOut, const PropsWorld& world, const glm::dvec3& origin) {
  ioOut += propsCsvHeader();
  for (uint32_t i = 0; i < world.size(); ++i) {
    ioOut += std::to_string(i);
    ioOut += world.shapes()[i] == PropShape::Sphere ? ",sphere" : ",box";
    appendVec(ioOut, world.positions()[i], origin);
    appendVec(ioOut, world.velocities()[i]);
    appendVec(ioOut, world.halfExtents()[i]);
    ioOut += world.resting()[i] ? ",1" : ",0";
    ioOut += world.removed()[i] ? ",1\n" : ",0\n";
  }
}

void appendPropsTraceCsv(std::string& ioOut, double t, const PropsWorld& world,
                         const glm::dvec3& origin) {
  for (uint32_t i = 0; i < world.size(); ++i) {
    appendNumber(ioOut, t);
    ioOut += ',';
    ioOut += std::to_string(i);
    appendVec(ioOut, world.positions()[i], origin);
    ioOut += '\n';
  }
}

}  // namespace ofps
