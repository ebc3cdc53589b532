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
//     A buffered jump fires when grounded or within coyote_time of leaving the ground.
//  4. Move: collide-and-slide (Fauerby 2003 / Quake's PM_SlideMove): sweep the capsule to the
//     time of impact, back off along the motion so the contact plane is `skin` away (never past
//     the start), clip the remaining motion and the velocity against every plane hit this step
//     (two planes: along their crease; three: stop), repeat up to kMaxSlideIterations. On the
//     ground, walkable planes redirect the motion keeping its horizontal part (so slopes do not
//     slow or deflect a walk) and too-steep planes first lose their horizontal push (they act
//     as walls: no walking or sliding up them). A ceiling ends upward velocity.
//  5. Stairs (Jolt's CharacterVirtual::WalkStairs idea): when a grounded move is blocked, try
//     up by step_height, across, down; keep it when it lands on walkable ground no higher than
//     step_height above the start and got further than the plain move.
//  6. Ground: sweep down by 2*skin (by snap_distance after a grounded step, so walking down
//     stairs and ramps snaps to the ground instead of leaving it); grounded when the support
//     is walkable (slope <= max_slope, judged by a short ray beside a contact on an edge).
//  7. Kill plane: below it the character respawns at the spawn point with zero velocity.
// Sources: Fauerby, "Improved Collision detection and Response" (2003); id Software, Quake III
// bg_slidemove.c (clip planes, creases); Jolt Physics CharacterVirtual (stair walking, ground
// snapping, steep slopes as walls); Box2D v3 mover (the library owns the math, the app input).
//
// Thread-safety: a controller is a plain value; step() reads the octree only (const queries), so
// many controllers may step on one octree from many threads.

#include <cstdint>

#include <glm/vec3.hpp>

#include "controller/controller_params.h"
#include "spatial/octree.h"

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

// Keys held during one step, and the absolute view angles for it.
struct CharacterInput {
  bool forward = false;
  bool back = false;
  bool left = false;
  bool right = false;
  bool jump = false;    // held; a jump is requested on the step where it goes from up to down
  bool sprint = false;
  bool crouch = false;  // held; releasing stands up as soon as there is room
  float yaw = 0.0f;     // radians, 0 looks along -Z, +pi/2 along -X
  float pitch = 0.0f;   // radians, > 0 looks up; used by fly mode (and the eye direction)
};

// Work done by one step, for the UI and the benchmark.
struct ControllerStepStats {
  QueryStats queries;             // octree nodes visited and triangle tests, all queries added
  uint32_t queryCount = 0;        // octree queries issued (brute force would test
                                  // queryCount * triangleCount triangles)
  uint32_t slideIterations = 0;   // sweeps of the collide-and-slide loops (move + stairs)
  bool depenetrated = false;      // an overlap was pushed out this step
  bool steppedUp = false;         // the stair step was taken
  bool snapped = false;           // ground snapping pulled the character down
};

// Sweeps per collide-and-slide loop (Quake uses 4; one more for a crease after a corner).
inline constexpr uint32_t kMaxSlideIterations = 5;
// A moved capsule stops with a gap of skin .. kRestGap * skin to what it hit.
inline constexpr float kRestGap = 1.1f;
// Least forward motion of a stair step, in radii (see CharacterController::tryStepUp).
inline constexpr float kStepForward = 0.25f;

class CharacterController {
 public:
  explicit CharacterController(const ControllerParams& params = {});

  // Parameters may change between steps (the demo's sliders). A height or radius change takes
  // effect at the next step, which pushes the capsule out if it now overlaps.
  const ControllerParams& params() const { return params_; }
  void setParams(const ControllerParams& params) { params_ = params; }

  // Where a respawn puts the character (feet, world) and its yaw (radians).
  void setSpawn(const glm::vec3& feet, float yaw);
  // Falling with the feet below this Y respawns (SCRIPT.md: level's lowest point - 50 m).
  // Default: -infinity (never).
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
  const glm::vec3& feet() const { return feet_; }          // lowest point of the capsule
  const glm::vec3& velocity() const { return velocity_; }  // after collision response, m/s
  bool grounded() const { return grounded_; }   // on walkable ground at the end of the step
  bool crouched() const { return crouched_; }
  bool flying() const { return flying_; }
  bool respawned() const { return respawned_; } // the last step respawned the character
  float yaw() const { return yaw_; }            // view angles used by the last step, radians
  float pitch() const { return pitch_; }
  // Normal of the ground below (unit; (0,1,0) when nothing is below) and its slope, radians.
  const glm::vec3& groundNormal() const { return groundNormal_; }
  float groundSlope() const;
  bool onSteepSlope() const { return onSteep_; } // resting on ground steeper than max_slope
  float currentHeight() const { return crouched_ ? params_.crouchHeight : params_.height; }
  glm::vec3 eye() const;                          // feet + current eye height
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
  // Pushes the capsule out so that the skin is clear (or, where the skin cannot fit, so that
  // the capsule just touches). hint: the contact normal of a sweep that started overlapping, or
  // zero. Returns true when it moved the feet.
  bool depenetrate(const Octree& octree, glm::vec3& ioFeet, const glm::vec3& hint);
  bool overlapsAt(const Octree& octree, const glm::vec3& feet, float height, float radius);
  // Collide-and-slide from ioFeet by disp; clips ioVelocity against the same planes. Returns
  // true when a too-steep plane (a wall, a riser) blocked the motion.
  bool slideMove(const Octree& octree, glm::vec3& ioFeet, const glm::vec3& disp,
                 glm::vec3& ioVelocity, bool groundMode);
  // One sweep from feet by disp of the capsule grown by the skin (the real one when `tight`).
  // Returns false when the path is free (outMoved = |disp|); else the hit and how far the
  // capsule may move along disp (0 when it starts overlapping).
  bool sweep(const Octree& octree, const glm::vec3& feet, const glm::vec3& disp, bool tight,
             float& outMoved, SweepHit& outHit);
  bool tryStepUp(const Octree& octree, const glm::vec3& start, const glm::vec3& disp,
                 const glm::vec3& plainEnd, glm::vec3& outFeet);
  // Downward probe of `distance` below the feet: the gap to the support, and whether it is
  // walkable. Returns false when nothing is within distance.
  // fromY: feet height the character walked from (an edge at or below it supports it while it
  // walks off), -infinity when not walking.
  bool probeGround(const Octree& octree, const glm::vec3& feet, float distance, float fromY,
                   float& outGap, glm::vec3& outNormal, float& outSupportY,
                   bool& outWalkable);
  bool isWalkable(const glm::vec3& n) const;
  void segmentAt(const glm::vec3& feet, float height, glm::vec3& a, glm::vec3& b) const;

  ControllerParams params_;
  glm::vec3 feet_{0.0f};
  glm::vec3 prevFeet_{0.0f};
  glm::vec3 prevEye_{0.0f};
  glm::vec3 velocity_{0.0f};
  glm::vec3 groundNormal_{0.0f, 1.0f, 0.0f};
  glm::vec3 spawnFeet_{0.0f};
  float spawnYaw_ = 0.0f;
  float groundY_ = 0.0f;  // height of the ground's support point at the last grounded probe
  float killPlaneY_;
  float yaw_ = 0.0f;
  float pitch_ = 0.0f;
  float coyoteTimer_ = 0.0f;
  float jumpBufferTimer_ = 0.0f;
  bool grounded_ = false;
  bool inCrevice_ = false;      // grounded_ by the crevice rule (steep contacts cancel the fall)
  bool slideHitFloor_ = false;  // the last slideMove hit a plane facing up
  bool onSteep_ = false;
  bool crouched_ = false;
  bool flying_ = false;
  bool respawned_ = false;
  bool prevJumpHeld_ = false;
  ControllerStepStats stats_;
  const CharacterObstacles* obstacles_ = nullptr;  // set for the duration of step()
  QueryTrace* trace_ = nullptr;                     // debug record of entered nodes
};

}  // namespace ofps
