#include "octree_fps/controller/character_controller.h"

#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <limits>

#include "octree_fps/geometry/scalar_inl.h"

namespace ofps {

namespace {

constexpr uint32_t kMaxPlanes = 2 * kMaxSlideIterations;  // a steep contact adds two planes

glm::vec3 horizontal(const glm::vec3& v) {
  return {v.x, 0.0f, v.z};
}

// Moves `current` toward `target` by at most maxDelta (Euclidean).
glm::vec3 approach(const glm::vec3& current, const glm::vec3& target, float maxDelta) {
  const glm::vec3 d = target - current;
  const float len = glm::length(d);
  if (len <= maxDelta || len == 0.0f) return target;
  return current + d * (maxDelta / len);
}

// Vertical velocity that keeps a horizontal velocity on a ground plane with normal n.
float groundVertical(const glm::vec3& vh, const glm::vec3& n) {
  return n.y > 1e-4f ? -(vh.x * n.x + vh.z * n.z) / n.y : 0.0f;
}

// Clip planes of one collide-and-slide loop (Quake III bg_slidemove.c, PM_SlideMove).
struct ClipPlanes {
  glm::vec3 n[kMaxPlanes];
  uint32_t count = 0;
};

// v with its component into plane n removed (v . n >= 0 after).
glm::vec3 clipPlane(const glm::vec3& v, const glm::vec3& n) {
  const float d = glm::dot(v, n);
  return d < 0.0f ? v - n * d : v;
}

// Ground mode on a walkable plane: keep the horizontal motion, change only Y so that the motion
// runs along the plane (walking up a ramp is not slowed or deflected sideways).
glm::vec3 clipWalk(const glm::vec3& v, const glm::vec3& n) {
  if (glm::dot(v, n) >= 0.0f) return v;
  return {v.x, groundVertical(v, n), v.z};
}

bool intoPlane(const glm::vec3& v, const glm::vec3& n) {
  return glm::dot(v, n) < -1e-5f * glm::length(v);
}

// Adds plane e to the set (a plane already there, same normal within 0.8 degrees, is not
// added twice: the crease of two nearly equal planes is numerically meaningless).
void addPlane(ClipPlanes& planes, const glm::vec3& e) {
  for (uint32_t i = 0; i < planes.count; ++i) {
    if (glm::dot(planes.n[i], e) > 0.9999f) return;
  }
  if (planes.count < kMaxPlanes) planes.n[planes.count++] = e;
}

// Clips v against the newest plane e, then against every plane of the set: a second violated
// plane leaves only the motion along the crease of the two; a third stops it.
glm::vec3 clipAgainst(const ClipPlanes& planes, const glm::vec3& e, const glm::vec3& v, bool walk) {
  glm::vec3 out = walk ? clipWalk(v, e) : clipPlane(v, e);
  for (uint32_t i = 0; i < planes.count; ++i) {
    const glm::vec3& p = planes.n[i];
    if (glm::dot(p, e) > 0.9999f || !intoPlane(out, p)) continue;
    glm::vec3 crease = glm::cross(e, p);
    const float len2 = glm::dot(crease, crease);
    if (len2 < 1e-8f) return glm::vec3(0.0f);  // opposite planes: a slot as wide as the capsule
    crease /= std::sqrt(len2);
    out = crease * glm::dot(crease, v);
    for (uint32_t j = 0; j < planes.count; ++j) {
      if (j == i || glm::dot(planes.n[j], e) > 0.9999f) continue;
      if (intoPlane(out, planes.n[j])) return glm::vec3(0.0f);  // a corner of three planes
    }
    break;
  }
  return out;
}

}  // namespace

CharacterController::CharacterController(const ControllerParams& params)
    : params_(params), killPlaneY_(-std::numeric_limits<float>::infinity()) {
  prevEye_ = eye();
}

void CharacterController::setSpawn(const glm::vec3& feet, float yaw) {
  spawnFeet_ = feet;
  spawnYaw_ = yaw;
}

void CharacterController::teleport(const glm::vec3& feet, float yaw) {
  feet_ = feet;
  prevFeet_ = feet;
  velocity_ = glm::vec3(0.0f);
  movedVelocity_ = glm::vec3(0.0f);
  mayOverlap_ = true;
  justPlaced_ = true;
  yaw_ = yaw;
  grounded_ = false;
  inCrevice_ = false;
  onSteep_ = false;
  groundNormal_ = glm::vec3(0.0f, 1.0f, 0.0f);
  groundFaceNormal_ = groundNormal_;
  coyoteTimer_ = 0.0f;
  jumpBufferTimer_ = 0.0f;
  prevEye_ = eye();
}

void CharacterController::setFlying(bool flying) {
  flying_ = flying;
  mayOverlap_ = true;
  grounded_ = false;
  coyoteTimer_ = 0.0f;
}

float CharacterController::groundSlope() const {
  return det::acos(std::clamp(groundNormal_.y, -1.0f, 1.0f));
}

glm::vec3 CharacterController::eye() const {
  const float e = params_.eyeHeight - (crouched_ ? params_.crouchDrop() : 0.0f);
  return feet_ + glm::vec3(0.0f, e, 0.0f);
}

void CharacterController::capsule(glm::vec3& outA, glm::vec3& outB) const {
  segmentAt(feet_, currentHeight(), outA, outB);
}

glm::vec3 CharacterController::interpolatedFeet(float alpha) const {
  return prevFeet_ + (feet_ - prevFeet_) * alpha;
}

glm::vec3 CharacterController::interpolatedEye(float alpha) const {
  const glm::vec3 e = eye();
  return prevEye_ + (e - prevEye_) * alpha;
}

void CharacterController::segmentAt(const glm::vec3& feet, float height, glm::vec3& a,
                                    glm::vec3& b) const {
  const float r = params_.radius;
  a = feet + glm::vec3(0.0f, r, 0.0f);
  b = feet + glm::vec3(0.0f, std::max(height - r, r), 0.0f);
}

float CharacterController::groundWalkVertical(const glm::vec3& vh) const {
  // On a face both normals agree. On an edge the contact normal tilts: walking toward the edge
  // it points back at the character (a climb over the edge, which overshoots and launches the
  // character off a stair's nose at a low tick rate: the face's level walk is taken), walking
  // away from it forward (following it down: taken, so walking down stairs keeps to them).
  return std::min(groundVertical(vh, groundNormal_), groundVertical(vh, groundFaceNormal_));
}

float CharacterController::groundWalkDisplacementY(const glm::vec3& dispH) const {
  // Walking away from an edge the support (ground) point is fixed while the bottom sphere rolls
  // over it: its centre follows the circle of radius Rg (the sphere and the gap) about the
  // edge, up to where the contact normal reaches max_slope (the character leaves the ground
  // there). Followed exactly, not along the tangent (which dropped 0.15 m in one 30 Hz step and
  // made the fall off a ledge start lower at low tick rates).
  const glm::vec3 nh = horizontal(groundNormal_);
  const float nhLen = glm::length(nh);
  const bool edge = glm::dot(groundNormal_, groundFaceNormal_) < 0.9999f && nhLen > 1e-6f;
  if (edge && groundVertical(dispH, groundNormal_) < groundVertical(dispH, groundFaceNormal_)) {
    const glm::vec3 u = nh / nhLen;
    const glm::vec3 centre = feet_ + glm::vec3(0.0f, params_.radius, 0.0f);
    const float d0 = glm::dot(horizontal(centre - groundPoint_), u);
    const float h0 = centre.y - groundPoint_.y;
    const float rg2 = d0 * d0 + h0 * h0;
    const float dMax = std::sqrt(rg2) * det::sin(params_.maxSlopeDeg * kDegToRad);
    const float d1 = std::min(d0 + glm::dot(dispH, u), std::max(dMax, d0));
    if (d1 > d0 && h0 > 0.0f) return std::sqrt(std::max(rg2 - d1 * d1, 0.0f)) - h0;
  }
  return groundWalkVertical(dispH);
}

bool CharacterController::isWalkable(const glm::vec3& n) const {
  // A 1e-4 tolerance on the cosine (about 0.01 degrees at 45) so that a ramp built at exactly
  // max_slope is walkable despite rounding in its normal.
  return n.y > 0.0f && n.y >= det::cos(params_.maxSlopeDeg * kDegToRad) - 1e-4f;
}

bool CharacterController::overlapsAt(const Octree& octree, const glm::vec3& feet, float height,
                                     float radius) {
  glm::vec3 a, b;
  segmentAt(feet, height, a, b);
  ++stats_.queryCount;
  return octree.collectCapsule(a, b, radius, params_.layerMask, {}, &stats_.queries) > 0;
}

bool CharacterController::depenetrate(const Octree& octree, glm::vec3& ioFeet,
                                      const glm::vec3& hint) {
  const float h = currentHeight(), r = params_.radius, skin = params_.skin;
  glm::vec3 a, b;
  segmentAt(ioFeet, h, a, b);
  // Is the skin clear? (The capsule grown by the skin touching the level is the resting state.)
  // One round answers that (and whether the deepest contact only touches).
  PushOut probe;
  ++stats_.queryCount;
  if (!octree.capsuleIntersect(a, b, r + skin, params_.layerMask, probe, &stats_.queries, 1)) {
    return false;
  }
  if (probe.depth == 0.0f) {
    // Within the push-out's convergence tolerance, which grows with the distance from the
    // origin (1e-6 x |coordinate|: 1 cm at 10 km, half the default skin). A sweep has no such
    // tolerance: step back along the contact normal `hint` (from a sweep that started
    // overlapping) and sweep forward again to the exact contact, stopping at the rest gap.
    if (glm::dot(hint, hint) == 0.0f) return false;
    const float lift = 2.0f * restGap(skin);
    const glm::vec3 from = ioFeet + hint * lift;
    SweepHit back;
    glm::vec3 fa, fb;
    segmentAt(from, h, fa, fb);
    ++stats_.queryCount;
    if (!octree.sweepCapsule(fa, fb, r + skin, -hint * lift, params_.layerMask, back,
                             &stats_.queries)) {
      return false;  // the contact is gone from the swept path: leave it to the sweeps
    }
    if (back.startsOverlapping) return false;
    const float moved = std::max(back.toi * lift - (restGap(skin) - skin), 0.0f);
    ioFeet = from - hint * moved;
    return true;
  }
  // Push out the capsule grown by a little more than the skin, so that it rests with the skin
  // clear (a crevice pushes up its bisector). That may be impossible (a slot narrower than the
  // grown capsule): then the push-out of the real capsule grown by a twentieth of the skin.
  PushOut grown;
  ++stats_.queryCount;
  octree.capsuleIntersect(a, b, r + restGap(skin), params_.layerMask, grown, &stats_.queries);
  // An unresolved push-out (its rounds ran out, e.g. pushed to and fro in a floor/ceiling
  // wedge) still moved the capsule out part of the way: kept too where the real capsule is
  // clear there (going to the real capsule instead let the wedge squeeze it to touching).
  const glm::vec3 candidate = ioFeet + grown.normal * grown.depth;
  if (grown.depth > 0.0f && !overlapsAt(octree, candidate, h, r)) {
    ioFeet = candidate;
    return true;
  }
  // The real capsule grown by a twentieth of the skin, so that afterwards it does not touch (a
  // touching capsule starts every sweep overlapping). The skin does not fit here: the rest of
  // this step's sweeps use the real capsule (skinBlocked_), instead of failing the same
  // push-out again on every slide iteration.
  skinBlocked_ = true;
  PushOut exact;
  ++stats_.queryCount;
  if (octree.capsuleIntersect(a, b, r + 0.05f * skin, params_.layerMask, exact, &stats_.queries) &&
      exact.depth > 0.0f) {
    ioFeet += exact.normal * exact.depth;
    return true;
  }
  return false;
}

bool CharacterController::sweep(const Octree& octree, const glm::vec3& feet, const glm::vec3& disp,
                                bool tight, float& outMoved, SweepHit& outHit) {
  const float len = glm::length(disp);
  const float skin = params_.skin;
  glm::vec3 a, b;
  segmentAt(feet, currentHeight(), a, b);
  ++stats_.queryCount;
  ++stats_.slideIterations;
  // The capsule grown by the skin is swept, so a slow approach stops with the skin clear too;
  // in a place too tight for the skin (`tight`), the real capsule.
  const float radius = params_.radius + (tight ? 0.0f : skin);
  if (!sweepAll(octree, a, b, radius, disp, outHit)) {
    outMoved = len;
    return false;
  }
  if (outHit.startsOverlapping) {
    outMoved = 0.0f;
    return true;
  }
  // Stop short of the time of impact so that the contact plane is a little farther than the skin
  // (restGap): the next sweep does not start touching. By convexity of the distance the
  // triangle is at least that far too; never back past the start (the path before is free).
  const float travel = outHit.toi * len;
  const float approachRate = len > 0.0f ? -glm::dot(disp, outHit.normal) / len : 0.0f;
  const float margin = tight ? restGap(skin) : restGap(skin) - skin;
  const float backoff = approachRate > 0.0f ? margin / approachRate : margin;
  outMoved = std::max(travel - backoff, 0.0f);
  return true;
}

bool CharacterController::slideMove(const Octree& octree, glm::vec3& ioFeet, const glm::vec3& disp,
                                    glm::vec3& ioVelocity, bool groundMode, const glm::vec3& wish) {
  const float minMove = params_.skin * 1e-3f;
  ClipPlanes planes;
  bool blocked = false;
  bool tight = skinBlocked_;
  bool depenetrated = false;
  slideHitFloor_ = false;
  glm::vec3 firstSteepUp(0.0f);
  glm::vec3 remaining = disp;
  const glm::vec3 velocityIn = ioVelocity;
  for (uint32_t it = 0; it < kMaxSlideIterations; ++it) {
    const float len2 = glm::dot(remaining, remaining);
    if (len2 <= minMove * minMove) break;
    SweepHit hit;
    float moved = 0.0f;
    if (!sweep(octree, ioFeet, remaining, tight, moved, hit)) {
      ioFeet += remaining;
      break;
    }
    const glm::vec3 n = hit.normal;
    if (hit.startsOverlapping) {
      // Closer than the skin at the start: push out (once per slide: a second overlap means
      // the skin does not fit) and sweep again; else sweep the real capsule from now on. The
      // real capsule overlapping too: stay put rather than sweep again.
      if (tight) break;
      if (!depenetrated && depenetrate(octree, ioFeet, n)) {
        stats_.depenetrated = true;
        depenetrated = true;
      } else {
        tight = true;
      }
      tight = tight || skinBlocked_;
    } else {
      const float len = std::sqrt(len2);
      const glm::vec3 dir = remaining / len;
      ioFeet += dir * moved;
      remaining = dir * (len - moved);
    }
    const bool walkable = isWalkable(n);
    if (!walkable && n.y > -0.01f) blocked = true;
    // A crevice: two different too-steep planes facing up (a vertex or an edge whose contact
    // normal is steep is one plane; a walkable-looking contact normal on a spike is none).
    if (n.y > 0.0f && !walkable) {
      if (glm::dot(firstSteepUp, firstSteepUp) == 0.0f) {
        firstSteepUp = n;
      } else if (glm::dot(firstSteepUp, n) < 0.9999f) {
        slideHitFloor_ = true;
      }
    }
    // A too-steep plane facing up is also a vertical wall (its horizontal normal): walking into
    // it stops instead of sliding up, while gravity still slides down along the real plane.
    const glm::vec3 nh = horizontal(n);
    if (!walkable && n.y > 0.0f && glm::dot(nh, nh) > 1e-12f) {
      const glm::vec3 wall = glm::normalize(nh);
      addPlane(planes, wall);
      remaining = clipAgainst(planes, wall, remaining, false);
      ioVelocity = clipAgainst(planes, wall, ioVelocity, false);
    }
    const bool walk = groundMode && walkable;
    addPlane(planes, n);
    remaining = clipAgainst(planes, n, remaining, walk);
    ioVelocity = clipAgainst(planes, n, ioVelocity, walk);
    if (n.y < -0.01f) ioVelocity.y = std::min(ioVelocity.y, 0.0f);  // a ceiling ends the rise
    // Clipped against two planes in turn the motion may turn back against the step's own or
    // against the walk (one clip never turns back: v' . v = |v|^2 - (v . n)^2 >= 0). In an
    // obtuse corner the slide along one wall, deflected by the other, runs out of the corner
    // and the walk brings it back: an oscillation that never settles. Stop dead instead
    // (Quake's SV_FlyMove: "velocity against the original velocity").
    // Against the walk only counts on the ground: in the air gravity may slide the character
    // down a steep face away from where it walks (off a step's nose it leans on).
    const auto againstWalk = [&](const glm::vec3& m) {
      return groundMode && glm::dot(horizontal(m), wish) < 0.0f;
    };
    if (glm::dot(remaining, disp) <= 0.0f || againstWalk(remaining)) {
      remaining = glm::vec3(0.0f);
    }
    if (glm::dot(ioVelocity, velocityIn) < 0.0f || againstWalk(ioVelocity)) {
      ioVelocity = glm::vec3(0.0f);
    }
  }
  return blocked;
}

bool CharacterController::walkableFaceAt(const Octree& octree, const glm::vec3& point,
                                         const glm::vec3& feet, glm::vec3& outFaceNormal) {
  // Short rays straight down at the contact point and a skin to each side of it (toward the
  // capsule's axis and away): one of the faces meeting at an edge or vertex is hit by one of
  // them. The contact point itself is tried first, which settles a face contact in one ray.
  const float skin = params_.skin;
  glm::vec3 toAxis = glm::vec3(feet.x, point.y, feet.z) - point;
  const float d = glm::length(toAxis);
  toAxis = d > 0.0f ? toAxis * (skin / d) : glm::vec3(0.0f);
  for (float side : {0.0f, 1.0f, -1.0f}) {
    if (side != 0.0f && d == 0.0f) break;
    const glm::vec3 origin = point + toAxis * side + glm::vec3(0.0f, skin, 0.0f);
    RayHit ray;
    ++stats_.queryCount;
    if (octree.raycast(origin, glm::vec3(0.0f, -1.0f, 0.0f), 2.0f * skin, params_.layerMask, ray,
                       &stats_.queries) &&
        isWalkable(ray.normal)) {
      outFaceNormal = ray.normal;
      return true;
    }
  }
  return false;
}

bool CharacterController::probeGround(const Octree& octree, const glm::vec3& feet, float distance,
                                      GroundProbe& out, bool seePastNose) {
  glm::vec3 a, b;
  const float r = params_.radius, skin = params_.skin;
  const float h = currentHeight();
  out = {};
  // Sweep the capsule grown by the ground gap down from a little above the feet: where it
  // touches, the real capsule rests exactly groundGap(skin) from the contact, whether the
  // feet start above or (after a slide that stopped at an angle) a little below that height.
  // The path from the lifted start down is free, so moving the feet there is safe. Never from
  // the feet themselves: resting, the grown capsule starts exactly touching the ground there,
  // where a sweep may miss the face and find an edge beyond it (oa_dm5: 2.3 cm into the floor).
  float usedLift = 0.0f;
  for (float lift : {2.0f * skin, 0.5f * skin}) {
    const float total = lift + distance;
    segmentAt(feet + glm::vec3(0.0f, lift, 0.0f), h, a, b);
    SweepHit hit;
    ++stats_.queryCount;
    if (!sweepAll(octree, a, b, r + groundGap(skin), glm::vec3(0.0f, -total, 0.0f), hit)) {
      return false;
    }
    if (hit.startsOverlapping) continue;  // a ceiling within the lift, or closer than the gap
    out.restY = feet.y + lift - hit.toi * total;
    out.point = hit.point;
    out.normal = hit.normal;
    usedLift = lift;
    break;
  }
  if (out.normal == glm::vec3(0.0f)) {
    // Closer than the gap to something beside the capsule (a free slide may end anywhere at
    // least the skin from a wall): the capsule grown by the skin alone, the rest of the gap
    // made up along the contact normal; where even that does not fit (a low ceiling, a
    // crevice), the real capsule, touching.
    // The real capsule's path down to its contact is free, so any height between that contact
    // and the feet is safe: the tight case rests the gap above the contact, or stays where the
    // slide left it when that is lower; it never puts the capsule touching the level (a capsule
    // that touches starts every later sweep overlapping and could no longer move).
    for (float grow : {skin, 0.0f}) {
      segmentAt(feet, h, a, b);
      SweepHit hit;
      ++stats_.queryCount;
      if (!sweepAll(octree, a, b, r + grow, glm::vec3(0.0f, -distance, 0.0f), hit)) return false;
      if (hit.startsOverlapping && grow > 0.0f) continue;
      const float lift = (groundGap(skin) - grow) / std::max(hit.normal.y, 0.5f);
      // Never above the feet here: only the path below them is known to be free (raising the
      // capsule to the full gap under a low sloped ceiling ratcheted it into the wedge), and
      // the gap stays between the skin and groundGap(skin).
      out.restY =
          std::min(feet.y - (hit.startsOverlapping ? 0.0f : hit.toi * distance) + lift, feet.y);
      out.point = hit.point;
      out.normal = hit.normal;
      out.tight = grow == 0.0f;
      break;
    }
  }
  judgeSupport(octree, feet, out);
  // The first contact is beside the capsule rather than under it: a step's nose in front of a
  // capsule standing on the floor, or a steep face slid down onto the floor (closer than the
  // ground gap, but at least the skin away, as every slide leaves it). Look past it, first with
  // the capsule grown by the skin (which keeps the side contact the skin away: a step's nose
  // still stops it, which the stair step-up relies on), then with the capsule grown by a
  // twentieth of the skin, accepted within the skin below the feet (a floor met at the foot of
  // a steep face), or anywhere within `distance` with seePastNose (the ground snap walking down
  // stairs: the next tread past the nose just left). A support found either way is where the
  // character rests, the gap made up above it.
  for (float grow : {skin, 0.05f * skin}) {
    if (out.supports || out.tight) break;
    const float total = usedLift + distance;
    segmentAt(feet + glm::vec3(0.0f, usedLift, 0.0f), h, a, b);
    SweepHit hit;
    ++stats_.queryCount;
    if (!sweepAll(octree, a, b, r + grow, glm::vec3(0.0f, -total, 0.0f), hit) ||
        hit.startsOverlapping) {
      continue;
    }
    GroundProbe under;
    under.point = hit.point;
    under.normal = hit.normal;
    under.restY = feet.y + usedLift - hit.toi * total +
                  (groundGap(skin) - grow) / std::max(hit.normal.y, 0.5f);
    if (grow == skin) under.restY = std::min(under.restY, feet.y);  // as in the fallback above
    // The closer look may only lower the capsule where it stays clear of the skin everywhere
    // (one overlap query, on this rare path): otherwise the character is not grounded yet and
    // the next slide brings it down along the side contact.
    if (grow < skin && ((!seePastNose && under.restY < feet.y - skin) ||
                        overlapsAt(octree, glm::vec3(feet.x, under.restY, feet.z), h,
                                   r + (1.0f - 0.05f) * skin))) {
      continue;
    }
    judgeSupport(octree, feet, under);
    if (under.supports) out = under;
  }
  return true;
}

void CharacterController::judgeSupport(const Octree& octree, const glm::vec3& feet,
                                       GroundProbe& io) {
  io.contactWalkable = isWalkable(io.normal);
  // Edges and vertices count by their contact normal, and only where a walkable face meets
  // (so a spike or a ridge of steep faces never holds the character up). A moving obstacle
  // (a prop) has no faces in the octree: its contact normal alone decides.
  if (lastHitObstacle_) {
    io.faceWalkable = io.contactWalkable;
    io.faceNormal = io.normal;
  } else if (io.normal.y > 0.0f) {
    io.faceWalkable = walkableFaceAt(octree, io.point, feet, io.faceNormal);
  }
  io.supports = io.contactWalkable && io.faceWalkable;
}

float CharacterController::dropBelow(const glm::vec3& walkedPoint, const glm::vec3& walkedFace,
                                     const glm::vec3& point) {
  // Height of the walked face's plane over `point` minus the point's: how far the ground fell
  // away under the character (a ramp walked on continues as itself: no drop).
  const float ny = std::max(walkedFace.y, 1e-3f);
  const float planeY =
      walkedPoint.y -
      (walkedFace.x * (point.x - walkedPoint.x) + walkedFace.z * (point.z - walkedPoint.z)) / ny;
  return planeY - point.y;
}

float CharacterController::stickReach(const glm::vec3& walkedPoint) const {
  // A drop of exactly stick_to_floor sticks: the tolerance covers float rounding of the
  // support point (grows with the distance from the origin: 1 ulp at 10 km is 1 mm).
  return params_.stickToFloor + 1e-4f + 4e-7f * std::abs(walkedPoint.y);
}

bool CharacterController::heldByNose(const Octree& octree, const glm::vec3& stepStart,
                                     const glm::vec3& feet, const GroundProbe& g,
                                     const glm::vec3& walkedPoint, const glm::vec3& walkedFace) {
  // The probe found an edge or a vertex under the bottom sphere (contact normal pointing up but
  // steeper than max_slope) where a walkable face meets: the nose the character walks off.
  if (g.tight || g.supports || !g.faceWalkable || g.normal.y <= 0.0f) return false;
  // Only a nose the step moved away from, the one being rolled over: the contact normal leans
  // the way the character went. A nose ahead (the next riser, walking up) is met by the stairs'
  // step-up, and standing still on a nose rolls off it as before.
  if (glm::dot(horizontal(g.normal), horizontal(feet - stepStart)) <= 0.0f) return false;
  if (dropBelow(walkedPoint, walkedFace, g.point) > stickReach(walkedPoint)) return false;
  // Is there walkable ground beyond the nose within stick_to_floor below the ground walked on?
  // A sphere narrower than the bottom sphere, at its centre, clears the nose horizontally and is
  // swept straight down to the deepest ground that still sticks. Nothing there (or only steep
  // faces, or ground deeper than that) is a ledge: the character falls as it would without
  // stick.
  const float r = params_.radius, skin = params_.skin;
  const glm::vec3 centre(feet.x, g.restY + r, feet.z);
  const float clearance = glm::length(horizontal(centre - g.point));
  const float thin = std::min(r, clearance - skin);
  if (thin <= skin) return false;
  const float lowest = centre.y + dropBelow(walkedPoint, walkedFace, centre) -
                       params_.stickToFloor;  // plane - stick
  // Down until the sphere's centre reaches that depth: a nose below is met on the sphere's side,
  // lower than its bottom (the hit point's own depth is checked below).
  const float length = centre.y - lowest + skin;
  if (length <= 0.0f) return false;
  SweepHit hit;
  ++stats_.queryCount;
  if (!sweepAll(octree, centre, centre, thin, glm::vec3(0.0f, -length, 0.0f), hit) ||
      hit.startsOverlapping) {
    return false;
  }
  if (dropBelow(walkedPoint, walkedFace, hit.point) > stickReach(walkedPoint)) return false;
  glm::vec3 faceNormal = hit.normal;
  if (!isWalkable(hit.normal) && (lastHitObstacle_ || hit.normal.y <= 0.0f ||
                                  !walkableFaceAt(octree, hit.point, centre, faceNormal))) {
    return false;
  }
  // The ground below becomes the one the next step's drops are measured from.
  stickPoint_ = hit.point;
  stickFace_ = faceNormal;
  return true;
}

bool CharacterController::tryStepUp(const Octree& octree, const glm::vec3& start,
                                    const glm::vec3& disp, const glm::vec3& plainEnd,
                                    glm::vec3& outFeet, bool& outOnNose) {
  // Up by step_height, across by the horizontal part of the real displacement (never more: a
  // step never moves the character farther than its velocity allows), down onto what is there.
  // Kept only when it gains height onto walkable ground (or onto the nose of a step whose top
  // is walkable) that the plain slide did not reach; landing on the same floor is no step.
  const glm::vec3 across = horizontal(disp);
  const float wantedLen = glm::length(across);
  const float skin = params_.skin;
  if (wantedLen <= skin * 1e-3f) return false;
  const glm::vec3 dir = across / wantedLen;
  SweepHit hit;
  float up = 0.0f;
  if (sweep(octree, start, glm::vec3(0.0f, params_.stepHeight, 0.0f), false, up, hit) &&
      hit.startsOverlapping) {
    return false;
  }
  if (up <= skin) return false;
  glm::vec3 p = start + glm::vec3(0.0f, up, 0.0f);
  glm::vec3 ignoredVelocity = across;
  slideMove(octree, p, across, ignoredVelocity, false, dir);
  // No further than the plain slide (a wall taller than a step): no step, and no ground probe
  // (the common case of walking into a wall costs two sweeps, not a probe too).
  const float steppedProgress = glm::dot(horizontal(p - start), dir);
  const float plainProgress = glm::dot(horizontal(plainEnd - start), dir);
  if (steppedProgress <= plainProgress + 0.01f * wantedLen) return false;
  GroundProbe g;
  if (!probeGround(octree, p, up + 2.0f * skin, g) || g.tight) return false;
  p.y = g.restY;
  // A step gains height onto a higher surface: landing on the floor walked on (a slide along a
  // wall) or lower is no step, whatever the forward move gained.
  if (p.y <= start.y || g.point.y <= groundY_ + 0.25f * skin) return false;
  // Higher than a step: the rise is measured between the surfaces (the ground the character
  // stood on and the one it would stand on), not the feet, which hang lower on a step's nose.
  if (g.point.y - groundY_ > params_.stepHeight + 1e-4f * (1.0f + std::abs(groundY_))) {
    return false;
  }
  if (!g.supports && !(g.normal.y > 0.0f && g.faceWalkable)) return false;
  outFeet = p;
  outOnNose = !g.supports;
  return true;
}

void CharacterController::fallFromLedge(const Octree& octree, const glm::vec3& start, float dt) {
  // Bisection on the straight path from start to the feet for the last supported point
  // (kLedgeBisections probes, on the step that walks off only): 1/16 of the step's length.
  const glm::vec3 end = feet_;
  float lo = 0.0f, hi = 1.0f;
  for (uint32_t i = 0; i < kLedgeBisections; ++i) {
    const float mid = 0.5f * (lo + hi);
    GroundProbe g;
    const bool supported =
        probeGround(octree, start + (end - start) * mid, 2.0f * params_.skin, g) && g.supports;
    (supported ? lo : hi) = mid;
  }
  // Gravity over the rest of the step, exactly integrated (from rest vertically).
  const float tau = (1.0f - 0.5f * (lo + hi)) * dt;
  const float vy = std::max(-params_.gravity * tau, -params_.maxFallSpeed);
  const float tFree = std::min(-vy / params_.gravity, tau);
  const float dispY = vy * tau + 0.5f * params_.gravity * tFree * tFree;
  glm::vec3 velocity(0.0f, vy, 0.0f);
  slideMove(octree, feet_, glm::vec3(0.0f, dispY, 0.0f), velocity, false, glm::vec3(0.0f));
  velocity_.y = velocity.y;
}

void CharacterController::flyStep(const CharacterInput& input, float dt) {
  const float cy = det::cos(input.yaw), sy = det::sin(input.yaw);
  const glm::vec3 forward = viewDirection(input.yaw, input.pitch);
  const glm::vec3 right(cy, 0.0f, -sy);
  glm::vec3 wish = forward * (float(input.forward) - float(input.back)) +
                   right * (float(input.right) - float(input.left)) +
                   glm::vec3(0.0f, float(input.jump) - float(input.crouch), 0.0f);
  const float len = glm::length(wish);
  if (len > 0.0f) wish /= len;
  const float speed = 2.0f * (input.sprint ? params_.sprintSpeed : params_.walkSpeed);
  velocity_ = approach(velocity_, wish * speed, params_.accel * dt);
  feet_ += velocity_ * dt;
  movedVelocity_ = velocity_;
  crouched_ = false;
  grounded_ = false;
  onSteep_ = false;
  coyoteTimer_ = 0.0f;
  jumpBufferTimer_ = 0.0f;
}

void CharacterController::step(const Octree& octree, const CharacterInput& input, float dt,
                               const CharacterObstacles* obstacles) {
  obstacles_ = obstacles;
  stepImpl(octree, input, dt);
  obstacles_ = nullptr;
}

bool CharacterController::sweepAll(const Octree& octree, const glm::vec3& a, const glm::vec3& b,
                                   float radius, const glm::vec3& disp, SweepHit& outHit) {
  lastHitObstacle_ = false;
  bool hit = octree.sweepCapsule(a, b, radius, disp, params_.layerMask, outHit, &stats_.queries);
  if (obstacles_ != nullptr && !(hit && outHit.startsOverlapping)) {
    SweepHit other;
    ++stats_.queryCount;
    if (obstacles_->sweepCapsule(a, b, radius, disp, other) && !other.startsOverlapping &&
        (!hit || other.toi < outHit.toi)) {
      outHit = other;
      hit = true;
      lastHitObstacle_ = true;
    }
  }
  return hit;
}

void CharacterController::stepImpl(const Octree& octree, const CharacterInput& input, float dt) {
  stats_ = {};
  stats_.queries.trace = trace_;
  respawned_ = false;
  skinBlocked_ = false;
  prevFeet_ = feet_;
  prevEye_ = eye();
  yaw_ = input.yaw;
  pitch_ = input.pitch;
  const bool jumpPressed = input.jump && !prevJumpHeld_;
  prevJumpHeld_ = input.jump;
  if (flying_) {
    flyStep(input, dt);
    mayOverlap_ = true;
    return;
  }
  const ControllerParams& p = params_;
  if (jumpPressed) jumpBufferTimer_ = p.jumpBuffer;

  // 1. Crouch: shrink at once; stand up only where the standing capsule fits.
  if (input.crouch) {
    crouched_ = true;
  } else if (crouched_ && !overlapsAt(octree, feet_, p.height, p.radius)) {
    crouched_ = false;
    mayOverlap_ = true;  // the taller capsule's skin may touch
  }

  // 2. Resolve an overlap before moving (only where one may be: see mayOverlap_).
  if (mayOverlap_ && depenetrate(octree, feet_, glm::vec3(0.0f))) stats_.depenetrated = true;

  // Just placed (teleport, spawn, respawn) on the ground: grounded from the start of this step,
  // so that it walks with the ground's acceleration at once. Otherwise its first step is one of
  // air control, a start lag of about a step's length: 9 cm at 30 Hz, 2 cm at 120 Hz.
  if (justPlaced_) {
    justPlaced_ = false;
    GroundProbe g;
    if (velocity_.y <= 0.0f && probeGround(octree, feet_, 2.0f * p.skin, g) && g.supports &&
        feet_.y - g.restY <= p.skin) {
      feet_.y = g.restY;
      grounded_ = true;
      groundNormal_ = g.normal;
      groundFaceNormal_ = g.faceNormal;
      groundY_ = g.point.y;
      groundPoint_ = g.point;
      stickPoint_ = g.point;
      stickFace_ = g.faceNormal;
    }
  }

  // 3. Velocity from input, gravity and jump. The displacement is the exact integral of the
  // velocity over the step under its constant accelerations (the approach toward the target,
  // gravity), each held until its target or cap is reached part way through: a jump's arc and a
  // start from rest cover the same ground at any tick rate.
  const bool wasGrounded = grounded_;
  const float cy = det::cos(input.yaw), sy = det::sin(input.yaw);
  const glm::vec3 forward(-sy, 0.0f, -cy), right(cy, 0.0f, -sy);
  glm::vec3 wish = forward * (float(input.forward) - float(input.back)) +
                   right * (float(input.right) - float(input.left));
  const float wishLen = glm::length(wish);
  if (wishLen > 0.0f) wish /= wishLen;
  const float speed = crouched_ ? p.crouchSpeed : (input.sprint ? p.sprintSpeed : p.walkSpeed);
  const glm::vec3 vh0 = horizontal(velocity_);
  float hAccel = 0.0f;
  if (wasGrounded) {
    hAccel = p.accel;
  } else if (wishLen > 0.0f) {
    hAccel = p.airControl * p.accel;
  }
  const glm::vec3 vh = hAccel > 0.0f ? approach(vh0, wish * speed, hAccel * dt) : vh0;
  const float hTau = hAccel > 0.0f ? std::min(glm::length(vh - vh0) / hAccel, dt) : 0.0f;
  const glm::vec3 dispH = vh * dt - (vh - vh0) * (0.5f * hTau);
  // Held up in a crevice (see below), gravity keeps pulling so that the support is re-checked.
  const bool wasInCrevice = wasGrounded && inCrevice_;
  float vy0 = wasGrounded || wasInCrevice ? 0.0f : velocity_.y;
  bool jumped = false;
  if ((jumpPressed || jumpBufferTimer_ > 1e-6f) && (wasGrounded || coyoteTimer_ > 1e-6f)) {
    vy0 = p.jumpSpeed;
    jumped = true;
    jumpBufferTimer_ = 0.0f;
    coyoteTimer_ = 0.0f;
  }
  const bool groundMode = wasGrounded && !jumped && !wasInCrevice;
  float vy = 0.0f, dispY = 0.0f;
  if (groundMode) {
    vy = groundWalkVertical(vh);
    dispY = groundWalkDisplacementY(dispH);
  } else {
    vy = std::max(vy0 - p.gravity * dt, std::min(-p.maxFallSpeed, vy0));
    const float vTau = p.gravity > 0.0f ? std::min((vy0 - vy) / p.gravity, dt) : 0.0f;
    dispY = vy * dt + (vy0 - vy) * (0.5f * vTau);
  }
  const float vyBeforeMove = vy;
  velocity_ = glm::vec3(vh.x, vy, vh.z);

  // 4. Collide and slide; 5. stairs.
  const glm::vec3 start = feet_;
  const glm::vec3 disp(dispH.x, dispY, dispH.z);
  const bool blocked = slideMove(octree, feet_, disp, velocity_, groundMode, wish);
  bool onNose = false;
  if (groundMode && blocked && p.stepHeight > 0.0f) {
    glm::vec3 stepped;
    if (tryStepUp(octree, start, disp, feet_, stepped, onNose)) {
      feet_ = stepped;
      velocity_ = glm::vec3(vh.x, 0.0f, vh.z);
      stats_.steppedUp = true;
    }
  }

  // 6. Ground: the support below decides `grounded` (a walkable contact: its contact normal
  // within max_slope where a walkable face meets), and a grounded character rests exactly
  // groundGap(skin) above it (snapped down after a grounded step, so walking down stairs and
  // ramps keeps to the ground). A step-up resting on a step's nose is grounded by the step.
  const float skin = p.skin;
  // The ground walked on this step (a point and the plane of its face), for stick to the floor.
  const glm::vec3 walkedPoint = stickPoint_;
  const glm::vec3 walkedFace = stickFace_;
  grounded_ = false;
  onSteep_ = false;
  groundNormal_ = glm::vec3(0.0f, 1.0f, 0.0f);
  groundFaceNormal_ = groundNormal_;
  if (stats_.steppedUp) {
    GroundProbe g;
    grounded_ = true;
    if (!onNose && probeGround(octree, feet_, 2.0f * skin, g) && g.supports) {
      groundNormal_ = g.normal;
      groundFaceNormal_ = g.faceNormal;
      groundY_ = g.point.y;
      groundPoint_ = g.point;
    }
    velocity_.y = groundWalkVertical(velocity_);
  } else if (!jumped) {
    const float probe = groundMode ? p.snapDistance + 2.0f * skin : 2.0f * skin;
    GroundProbe g;
    if (probeGround(octree, feet_, probe, g, groundMode)) {
      const bool landing = groundMode || velocity_.y <= 1e-3f;
      const float drop = feet_.y - g.restY;
      if (g.supports && landing && drop <= skin) {
        grounded_ = true;
      } else if (g.supports && groundMode &&
                 (p.stickToFloor <= 0.0f ||
                  dropBelow(walkedPoint, walkedFace, g.point) <= stickReach(walkedPoint))) {
        grounded_ = true;
        stats_.snapped = true;
      } else if (groundMode && p.stickToFloor > 0.0f &&
                 heldByNose(octree, start, feet_, g, walkedPoint, walkedFace)) {
        // Rolling over a stair's nose (or a curb's edge, a crest's) with walkable ground within
        // stick_to_floor below: held on the ground by the nose until the bottom sphere reaches
        // that ground (see heldByNose).
        grounded_ = true;
        stats_.snapped = true;
        stats_.heldByNose = true;
      }
      if (grounded_) {
        // Already at rest (within float noise of the probe): keep the feet bit-stable.
        if (std::abs(feet_.y - g.restY) > 1e-3f * skin) feet_.y = g.restY;
        groundNormal_ = g.normal;
        groundFaceNormal_ = g.faceNormal;
        groundY_ = g.point.y;
        groundPoint_ = g.point;
        velocity_.y = groundWalkVertical(velocity_);
      } else if (drop <= skin) {
        groundNormal_ = g.normal;
        onSteep_ = !g.supports;
      }
    }
  }

  // The next step's drops are measured from the ground this one stands on; on a nose, from the
  // ground beyond it (the tread the roll goes down to), so that a step crossing more than one
  // nose at a low tick rate measures each riser, not their sum.
  if (grounded_ && !stats_.heldByNose) {
    stickPoint_ = groundPoint_;
    stickFace_ = groundFaceNormal_;
  }

  // Walked off the ground part way through this step (a ledge, not snapped to anything below):
  // the fall starts where the support ended, not at the step's end, so that it starts at the
  // same time at every tick rate (a whole step late is g t dt: 9 cm after a 1 m fall at 30 Hz).
  if (groundMode && !grounded_ && !stats_.steppedUp && p.gravity > 0.0f) {
    fallFromLedge(octree, start, dt);
  }

  // Held up by two steep contacts (a V-shaped crevice): the move cancelled the fall entirely,
  // so the character stands there (friction, and it may walk or jump out) instead of sliding
  // forever along the crease. Gravity stays on there, so this is re-checked every step.
  inCrevice_ = false;
  if (!grounded_ && !jumped && !groundMode && slideHitFloor_ && vyBeforeMove < 0.0f &&
      std::abs(velocity_.y) <= 1e-3f * -vyBeforeMove) {
    grounded_ = true;
    inCrevice_ = true;
    velocity_.y = 0.0f;
    groundNormal_ = glm::vec3(0.0f, 1.0f, 0.0f);
    groundFaceNormal_ = groundNormal_;
  }

  // Grace timers.
  coyoteTimer_ = grounded_ ? p.coyoteTime : std::max(coyoteTimer_ - dt, 0.0f);
  if (!jumped) jumpBufferTimer_ = std::max(jumpBufferTimer_ - dt, 0.0f);

  movedVelocity_ = (feet_ - prevFeet_) / dt;
  mayOverlap_ = skinBlocked_;

  // 7. Kill plane.
  if (feet_.y < killPlaneY_) {
    feet_ = spawnFeet_;
    prevFeet_ = spawnFeet_;
    velocity_ = glm::vec3(0.0f);
    grounded_ = false;
    inCrevice_ = false;
    onSteep_ = false;
    coyoteTimer_ = 0.0f;
    jumpBufferTimer_ = 0.0f;
    groundNormal_ = glm::vec3(0.0f, 1.0f, 0.0f);
    groundFaceNormal_ = groundNormal_;
    respawned_ = true;
    justPlaced_ = true;
    mayOverlap_ = true;
    movedVelocity_ = glm::vec3(0.0f);
    prevEye_ = eye();
  }
}

}  // namespace ofps
