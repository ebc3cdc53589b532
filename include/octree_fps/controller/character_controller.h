#pragma once
// First-person character controller: a vertical capsule moved through a static triangle octree
// by collide-and-slide on swept capsule queries. Fixed time step (see fixed_step.h), no
// allocation, no exceptions, deterministic (same build + level + inputs = same floats).
//
// Frame and units: world space, metres, seconds, Y up. Angles in the API are radians; yaw 0
// looks along -Z, yaw +pi/2 along -X (turning left); pitch > 0 looks up.
//
// The capsule: radius R = params.radius, total height H = params.height (params.crouchHeight
// crouched). "Feet" is the capsule's lowest point; its segment runs from feet + (0, R, 0) to
// feet + (0, H - R, 0). Crouching keeps the feet and lowers the top.
//
// One step (CharacterController::step), in order:
//  1. Input: view angles, jump press (rising edge of `jump`) into the jump buffer, crouch
//     (standing up is refused while the standing capsule would overlap the level).
//  2. Depenetration: if the capsule overlaps the level (a teleport, a spawn inside geometry, a
//     parameter change), it is pushed out with Octree::capsuleIntersect before moving.
//  3. Velocity: on the ground the horizontal velocity approaches the target (wish direction x
//     walk/sprint/crouch speed) by at most accel*dt (which is also the friction); in the air only
//     while a key is held, by air_control*accel*dt. Gravity in the air, capped at max_fall_speed.
//     A buffered jump fires when grounded or within coyote_time of leaving the ground. The
//     step's displacement is the exact integral of that motion (each acceleration held until
//     its target or cap is reached within the step), so paths agree across tick rates.
//  4. Move: collide-and-slide (Fauerby 2003 / Quake's PM_SlideMove): sweep the capsule grown by
//     the skin to the time of impact, back off so the contact is restGap(skin) away (never
//     past the start), clip the remaining motion and the velocity against every plane hit this
//     step (two planes: along their crease; three: stop), repeat up to kMaxSlideIterations.
//     Clipping only removes motion, so sliding never speeds the character up. On the ground,
//     walkable planes redirect the motion keeping its horizontal part (so slopes do not slow or
//     deflect a walk) and too-steep planes first lose their horizontal push (they act as walls:
//     no walking or sliding up them). A ceiling ends upward velocity.
//  5. Stairs (Jolt's CharacterVirtual::WalkStairs, Quake's PM_StepSlideMove): when a grounded
//     move is blocked by a too-steep contact, try up by step_height, across by the step's real
//     horizontal displacement (never padded), down. Kept only when it gains height (more than
//     skin / 4) onto walkable ground, or onto the nose of a step whose top face is walkable,
//     no higher than step_height above the ground walked on, and got further than the plain
//     move: a slide along a wall that lands on the same floor is never a "step".
//  6. Ground: sweep the capsule grown by groundGap(skin) down (by snap_distance after a
//     grounded step, so walking down ramps and stairs keeps to the ground). Grounded when the
//     contact is walkable: its CONTACT NORMAL (from the level's closest point toward the capsule
//     axis) is within max_slope, and a walkable face meets at the contact point. So an edge or
//     a vertex supports the capsule only while the capsule's centre is within
//     (R + gap) sin(max_slope) of it horizontally (the character walks off a ledge there), and
//     spikes and ridges whose faces are all too steep never support it (it slides off). Two
//     exceptions: the step a stair step-up ends on a step's nose (its contact normal still
//     steeper, part way over the nose) is grounded; standing still there, the next step is not.
//     And stick to the floor (Jolt's StickToFloor, Source's stay-on-ground step, Godot's
//     floor_snap_length): after a grounded step that did not jump, a nose the step moved away
//     from (an edge or vertex where a walkable face meets, contact normal too steep) holds the
//     character, grounded, while walkable ground lies beyond it no deeper than stick_to_floor
//     below the ground walked on (found by a narrower sphere swept down from the bottom sphere's
//     centre, clear of the nose); the bottom sphere then rolls over the nose onto that ground.
//     Drops are measured from the plane of the face walked on, or on a nose from the ground found
//     beyond it, so each riser of a staircase counts alone, at any tick rate; a snap onto ground
//     deeper than stick_to_floor below that plane is refused too. A drop deeper than
//     stick_to_floor is a ledge: the character falls, at every tick rate. stick_to_floor 0
//     turns the rule off (the character drops from each nose to the next tread).
//     Grounded, the feet are put exactly groundGap(skin) above the contact: one rest height
//     after any history (spawn, landing, step-up, crouch, snap).
//  7. Kill plane: below it the character respawns at the spawn point with zero velocity.
// Sources: Fauerby, "Improved Collision detection and Response" (2003); id Software, Quake III
// bg_slidemove.c (clip planes, creases); Jolt Physics CharacterVirtual (stair walking, ground
// snapping, steep slopes as walls); Box2D v3 mover (the library owns the math, the app input).
//
// Precision envelope: single-precision floats throughout. Within 10 km of the origin (float
// spacing at most 1 mm) the guarantees above hold with the default 2 cm skin (tested at 1 and
// 10 km: the repository's tests/controller/controller_descent_test.cpp); a path there drifts from
// the same path at the origin by at most half a float spacing per step (each step's displacement is
// rounded to the position's float grid: 0.03 mm per step at 1 km, 0.5 mm at 10 km). The skin must
// exceed the float spacing at the level's coordinates. Levels farther out belong in a local frame:
// the demo's loader moves any level reaching beyond 2 km (the repository's
// src/level/level_origin.h).
//
// Thread-safety: a controller is a plain value; step() reads the octree only (const queries), so
// many controllers may step on one octree from many threads.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <glm/vec3.hpp>

#include "octree_fps/controller/controller_params.h"
#include "octree_fps/geometry/det_math.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {

// Moving obstacles the character collides with besides the level, such as props it can stand
// on. Same conventions as Octree::sweepCapsule (world space; toi in [0, 1] of the displacement;
// normal from the obstacle toward the capsule). The controller only sweeps against them: an
// obstacle that already overlaps the capsule is ignored (the obstacle system pushes itself out
// of the character), so moving props can never trap the character.
class CharacterObstacles {
 public:
  virtual ~CharacterObstacles() = default;
  virtual bool sweepCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                            const glm::vec3& displacement, SweepHit& outHit) const = 0;
};

// The unit view direction for view angles in radians (the frame above: yaw 0 looks along -Z, yaw
// +pi/2 along -X, pitch > 0 looks up): (-sin yaw cos pitch, sin pitch, -cos yaw cos pitch). The
// one formula for the fly mode's forward, the eye's aim (throws, the camera) and the scripts.
inline glm::vec3 viewDirection(float yaw, float pitch) {
  const float cp = det::cos(pitch);
  return {-det::sin(yaw) * cp, det::sin(pitch), -det::cos(yaw) * cp};
}

// Keys held during one step, and the absolute view angles for it.
struct CharacterInput {
  bool forward = false;
  bool back = false;
  bool left = false;
  bool right = false;
  bool jump = false;  // held; a jump is requested on the step where it goes from up to down
  bool sprint = false;
  bool crouch = false;  // held; releasing stands up as soon as there is room
  float yaw = 0.0f;     // radians, 0 looks along -Z, +pi/2 along -X
  float pitch = 0.0f;   // radians, > 0 looks up; used by fly mode (and the eye direction)
};

// Work done by one step, for the UI and the benchmark.
struct ControllerStepStats {
  QueryStats queries;            // octree nodes visited and triangle tests, all queries added
  uint32_t queryCount = 0;       // octree queries issued (brute force would test
                                 // queryCount * triangleCount triangles)
  uint32_t slideIterations = 0;  // sweeps of the collide-and-slide loops (move + stairs)
  bool depenetrated = false;     // an overlap was pushed out this step
  bool steppedUp = false;        // the stair step was taken
  bool snapped = false;          // ground snapping pulled the character down
  bool heldByNose = false;       // grounded by stick to the floor on a nose it rolls over
                                 // (contact normal steeper than max_slope; see step 6)
};

// Sweeps per collide-and-slide loop (Quake uses 4; one more for a crease after a corner).
inline constexpr uint32_t kMaxSlideIterations = 5;
// Probes locating where a step walked off a ledge (the fall's start within 1/16 of the step).
inline constexpr uint32_t kLedgeBisections = 4;
// Standing on walkable ground, the gap between capsule and ground is groundGap(skin) after every
// step, whatever happened before (spawn, landing, step-up, crouch, snap): one rest height (Jolt's
// mCharacterPadding idea), skin + 0.4 mm at most (2 % of the skin below 2 cm), so the gap is the
// skin within 1 mm for every skin. A moved capsule stops restGap(skin) from what it hit (skin +
// 0.8 mm at most): the margin past the skin keeps the next sweep of the capsule grown by the skin
// from starting in contact, and the ground probe (a sweep of the capsule grown by groundGap)
// clear of walls the slide left. Lengths in metres.
inline constexpr float kGroundMargin = 0.0004f;  // m, largest groundGap - skin
inline constexpr float kRestMargin = 0.0008f;    // m, largest restGap - skin
inline float groundGap(float skin) {
  return skin + std::min(0.02f * skin, kGroundMargin);
}
inline float restGap(float skin) {
  return skin + std::min(0.04f * skin, kRestMargin);
}

class CharacterController {
 public:
  explicit CharacterController(const ControllerParams& params = {});

  // Parameters may change between steps (the demo's sliders). A height or radius change takes
  // effect at the next step, which pushes the capsule out if it now overlaps.
  const ControllerParams& params() const { return params_; }
  void setParams(const ControllerParams& params) {
    params_ = params;
    mayOverlap_ = true;
  }

  // Where a respawn puts the character (feet, world) and its yaw (radians).
  void setSpawn(const glm::vec3& feet, float yaw);
  // Falling with the feet below this Y respawns (docs/script-format.md: level's lowest point - 50
  // m). Default: -infinity (never).
  void setKillPlaneY(float y) { killPlaneY_ = y; }
  float killPlaneY() const { return killPlaneY_; }

  // Puts the feet at `feet` with zero velocity, standing state unchanged, no interpolation
  // streak. An overlap there is resolved by the next step.
  void teleport(const glm::vec3& feet, float yaw);
  // Fly mode: free flight along the view without collision (noclip); speed 2 x walk_speed
  // (2 x sprint_speed sprinting); jump rises, crouch sinks. Turning it off keeps the velocity.
  void setFlying(bool flying);

  // Advances by dt seconds (normally params().tickSeconds()). Never throws or allocates.
  // obstacles (may be null): extra moving geometry for this step (props to stand on).
  void step(const Octree& octree, const CharacterInput& input, float dt,
            const CharacterObstacles* obstacles = nullptr);

  // ---- State after the last step (world space) ------------------------------------------------
  const glm::vec3& feet() const { return feet_; }  // lowest point of the capsule
  // The feet before the last step (equal to feet() after a teleport or a respawn).
  const glm::vec3& previousFeet() const { return prevFeet_; }
  // Velocity after collision response, m/s: the one the next step starts from.
  const glm::vec3& velocity() const { return velocity_; }
  // The velocity the character really moved with in the last step: (feet after - feet before)
  // / dt, m/s (zero on a respawn or teleport). What traces record, so that motion can be checked
  // against it; differs from velocity() by what the step-up's rise and the ground snap added.
  const glm::vec3& movedVelocity() const { return movedVelocity_; }
  bool grounded() const { return grounded_; }  // on walkable ground at the end of the step
  bool crouched() const { return crouched_; }
  bool flying() const { return flying_; }
  bool respawned() const { return respawned_; }  // the last step respawned the character
  float yaw() const { return yaw_; }             // view angles used by the last step, radians
  float pitch() const { return pitch_; }
  // Normal of the ground below (unit; (0,1,0) when nothing is below) and its slope, radians.
  const glm::vec3& groundNormal() const { return groundNormal_; }
  float groundSlope() const;
  // The walkable face met at the support (unit; on an edge or a nose, the face whose edge it is,
  // where groundNormal() is the contact normal; (0,1,0) when not grounded).
  const glm::vec3& groundFaceNormal() const { return groundFaceNormal_; }
  bool onSteepSlope() const { return onSteep_; }  // resting on ground steeper than max_slope
  float currentHeight() const { return crouched_ ? params_.crouchHeight : params_.height; }
  glm::vec3 eye() const;  // feet + current eye height
  // Capsule segment endpoints (world) for drawing or queries; the radius is params().radius.
  void capsule(glm::vec3& outA, glm::vec3& outB) const;
  // Render interpolation between the previous and the current step (alpha from FixedStep).
  glm::vec3 interpolatedFeet(float alpha) const;
  glm::vec3 interpolatedEye(float alpha) const;
  const ControllerStepStats& lastStepStats() const { return stats_; }
  // Records the octree nodes every query of the following steps enters (debug drawing of what
  // the character's queries touched); null stops recording. The caller owns the trace and
  // resets its count when it wants a fresh record.
  void setQueryTrace(QueryTrace* trace) { trace_ = trace; }

 private:
  struct Planes;
  void stepImpl(const Octree& octree, const CharacterInput& input, float dt);
  // Octree::sweepCapsule, then the obstacles (if any): the earlier contact wins.
  bool sweepAll(const Octree& octree, const glm::vec3& a, const glm::vec3& b, float radius,
                const glm::vec3& disp, SweepHit& outHit);
  void flyStep(const CharacterInput& input, float dt);
  // The grounded step from `start` to feet_ walked off a ledge: finds where the support ended
  // and applies gravity for the rest of the step (the fall starts there, at any tick rate).
  void fallFromLedge(const Octree& octree, const glm::vec3& start, float dt);
  // Pushes the capsule out so that the skin is clear (or, where the skin cannot fit, so that
  // the capsule just touches). hint: the contact normal of a sweep that started overlapping, or
  // zero. Returns true when it moved the feet.
  bool depenetrate(const Octree& octree, glm::vec3& ioFeet, const glm::vec3& hint);
  bool overlapsAt(const Octree& octree, const glm::vec3& feet, float height, float radius);
  // Collide-and-slide from ioFeet by disp; clips ioVelocity against the same planes. wish: the
  // walk's direction (unit, horizontal) or zero; motion that two clips turn against it or
  // against disp stops (a corner). Returns true when a too-steep plane (a wall, a riser)
  // blocked the motion.
  bool slideMove(const Octree& octree, glm::vec3& ioFeet, const glm::vec3& disp,
                 glm::vec3& ioVelocity, bool groundMode, const glm::vec3& wish);
  // One sweep from feet by disp of the capsule grown by the skin (the real one when `tight`).
  // Returns false when the path is free (outMoved = |disp|); else the hit and how far the
  // capsule may move along disp (0 when it starts overlapping).
  bool sweep(const Octree& octree, const glm::vec3& feet, const glm::vec3& disp, bool tight,
             float& outMoved, SweepHit& outHit);
  // Stair step (see step 5 above): outOnNose is true when it ends on a step's nose (an edge whose
  // top face is walkable, contact normal still steeper than max_slope) part way up the step.
  bool tryStepUp(const Octree& octree, const glm::vec3& start, const glm::vec3& disp,
                 const glm::vec3& plainEnd, glm::vec3& outFeet, bool& outOnNose);
  // What supports the capsule from below (see probeGround).
  struct GroundProbe {
    float restY = 0.0f;            // feet height resting groundGap(skin) above the contact
    glm::vec3 point{0.0f};         // contact point on the level
    glm::vec3 normal{0.0f};        // contact normal (unit, toward the capsule)
    bool contactWalkable = false;  // the contact normal is within max_slope
    bool faceWalkable = false;     // a walkable face meets at the contact point
    glm::vec3 faceNormal{0.0f, 1.0f, 0.0f};  // that face's normal: the ground walked along (on
                                             // an edge, the contact normal would tilt the walk)
    bool supports = false;                   // both: a walkable contact
    bool tight = false;  // no room for the gap: restY is where the capsule touches
  };
  // Sweeps down at most `distance` below the feet for the support. Returns false when nothing
  // is within distance.
  bool probeGround(const Octree& octree, const glm::vec3& feet, float distance, GroundProbe& out,
                   bool seePastNose = false);
  // Stick to the floor (step 6): how far `point` lies below the plane of the face walked on
  // (through walkedPoint, normal walkedFace), and the largest such drop that still sticks.
  static float dropBelow(const glm::vec3& walkedPoint, const glm::vec3& walkedFace,
                         const glm::vec3& point);
  float stickReach(const glm::vec3& walkedPoint) const;
  // The probe `g` (at feet, after a step from stepStart) found a nose the step moved away from (an
  // edge or vertex with a walkable face, contact normal too steep) and walkable ground lies beyond
  // it within stick_to_floor below the ground walked on.
  // On success the ground found becomes the stick base (stickPoint_, stickFace_).
  bool heldByNose(const Octree& octree, const glm::vec3& stepStart, const glm::vec3& feet,
                  const GroundProbe& g, const glm::vec3& walkedPoint, const glm::vec3& walkedFace);
  // Fills io's contactWalkable, faceWalkable and supports from its point and normal (the
  // obstacle flag of the last sweepAll tells an obstacle's contact).
  void judgeSupport(const Octree& octree, const glm::vec3& feet, GroundProbe& io);
  // A walkable face at `point` (down-rays at it and a skin to each side of it).
  bool walkableFaceAt(const Octree& octree, const glm::vec3& point, const glm::vec3& feet,
                      glm::vec3& outFaceNormal);
  bool isWalkable(const glm::vec3& n) const;
  // Vertical velocity of a grounded walk vh along the ground (see the definition).
  float groundWalkVertical(const glm::vec3& vh) const;
  // Vertical displacement of a grounded walk by dispH (exact over an edge; see the definition).
  float groundWalkDisplacementY(const glm::vec3& dispH) const;
  void segmentAt(const glm::vec3& feet, float height, glm::vec3& a, glm::vec3& b) const;

  ControllerParams params_;
  glm::vec3 feet_{0.0f};
  glm::vec3 prevFeet_{0.0f};
  glm::vec3 prevEye_{0.0f};
  glm::vec3 velocity_{0.0f};
  glm::vec3 groundNormal_{0.0f, 1.0f, 0.0f};
  glm::vec3 groundFaceNormal_{0.0f, 1.0f, 0.0f};  // the walkable face met at the support
  glm::vec3 spawnFeet_{0.0f};
  float spawnYaw_ = 0.0f;
  float groundY_ = 0.0f;         // height of the ground's support point at the last grounded probe
  glm::vec3 groundPoint_{0.0f};  // that support point (world)
  // Stick to the floor measures drops from the plane through stickPoint_ with normal stickFace_:
  // the support and its face, or on a nose the ground beyond it (see heldByNose).
  glm::vec3 stickPoint_{0.0f};
  glm::vec3 stickFace_{0.0f, 1.0f, 0.0f};
  float killPlaneY_;
  float yaw_ = 0.0f;
  float pitch_ = 0.0f;
  float coyoteTimer_ = 0.0f;
  float jumpBufferTimer_ = 0.0f;
  bool grounded_ = false;
  bool inCrevice_ = false;      // grounded_ by the crevice rule (steep contacts cancel the fall)
  bool slideHitFloor_ = false;  // the last slideMove hit two different steep planes facing up
  bool onSteep_ = false;
  bool crouched_ = false;
  bool flying_ = false;
  bool respawned_ = false;
  bool prevJumpHeld_ = false;
  bool lastHitObstacle_ = false;  // the last sweepAll's contact was an obstacle's
  bool skinBlocked_ = false;      // this step found the skin cannot be cleared (a tight spot)
  // The capsule may overlap the level at the next step's start (a teleport, a parameter or
  // height change, a respawn, a tight spot): only then does the step begin with a push-out
  // query. Steps that end normally leave the skin clear (their sweeps keep it so).
  bool mayOverlap_ = true;
  bool justPlaced_ = true;  // teleported or respawned: the next step looks for ground first
  glm::vec3 movedVelocity_{0.0f};
  ControllerStepStats stats_;
  const CharacterObstacles* obstacles_ = nullptr;  // set for the duration of step()
  QueryTrace* trace_ = nullptr;                    // debug record of entered nodes
};

}  // namespace ofps
