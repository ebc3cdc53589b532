#pragma once
// Every tunable of the first-person character controller, in one plain struct. The demo's
// parameter table (scenario/param_table.h) gives each its docs/script-format.md name (`set NAME
// VALUE` in a script, one slider each in the demo), range and help; the octree's build
// parameters (OctreeBuildParams) and the thrown props' (ThrowParams) are not here: each struct
// has one owner.
//
// Units: metres, seconds, degrees for angles (as the script writes them), world frame Y up.
// Defaults are tuned for a human-sized player with "game feel" rather than physical realism:
// gravity is 20 m/s² (not 9.81) so that a 1.2 m jump takes 0.7 s instead of a floaty 1 s.
//
// Thread-safety: plain values and pure functions.

#include <cstdint>
#include <string>

#include "octree_fps/spatial/octree.h"

namespace ofps {

struct ControllerParams {
  // ---- Capsule ------------------------------------------------------------------------------
  float radius = 0.35f;       // capsule radius, m (default 0.35)
  float height = 1.8f;        // total standing height, feet to top, m (default 1.8); >= 2*radius
  float crouchHeight = 1.0f;  // total height crouched, m (default 1.0); in [2*radius, height]
  float eyeHeight = 1.65f;    // eye above the feet standing, m (default 1.65); crouched it
                              // drops by height - crouch_height
  // ---- Ground -------------------------------------------------------------------------------
  float stepHeight = 0.35f;    // highest step climbed without jumping, m (default 0.35)
  float maxSlopeDeg = 45.0f;   // steepest walkable slope, degrees (default 45)
  float snapDistance = 0.35f;  // how far below the feet the ground probe looks after a
                               // grounded step (down stairs and ramps), m (default 0.35)
  float stickToFloor = 0.35f;  // stick to the floor: after a grounded step, walkable ground at
                               // most this far below the ground walked on (its plane) keeps the
                               // character grounded: the next tread past a stair's nose, a ramp
                               // past a crest, the floor below a curb; a deeper drop is a ledge
                               // and the character falls. m (default step_height's 0.35; the
                               // script table makes an unset one follow step_height). 0: no
                               // stick (the character drops from each nose to the next tread)
  float skin = 0.02f;          // gap kept between capsule and level, m (default 0.02); must
                               // exceed float rounding at the level's coordinates (1 mm at 10 km)
  // ---- Speeds -------------------------------------------------------------------------------
  float walkSpeed = 4.5f;    // target ground speed walking, m/s (default 4.5)
  float sprintSpeed = 7.0f;  // target ground speed sprinting, m/s (default 7)
  float crouchSpeed = 2.5f;  // target ground speed crouched, m/s (default 2.5)
  float accel = 50.0f;       // ground acceleration toward the target velocity, m/s² (default
                             // 50: walk speed in 0.09 s). Also the friction: with no key held
                             // the ground velocity goes to zero at the same rate.
  float airControl = 0.3f;   // share of accel available in the air, 0..1 (default 0.3); with
                             // no key held the air velocity is kept (no air friction)
  // ---- Vertical -----------------------------------------------------------------------------
  float jumpSpeed = 7.0f;      // upward speed at take-off, m/s (default 7: 1.22 m jump)
  float gravity = 20.0f;       // downward acceleration, positive, m/s² (default 20)
  float maxFallSpeed = 50.0f;  // terminal falling speed, m/s (default 50)
  float coyoteTime = 0.1f;     // a jump still works this long after walking off ground, s
  float jumpBuffer = 0.1f;     // a jump pressed this long before landing happens on landing, s
  // ---- Simulation ---------------------------------------------------------------------------
  float tickHz = 120.0f;                  // fixed simulation rate, Hz, > 0 (default 120)
  uint32_t layerMask = kOctreeAllLayers;  // collision layers the capsule collides with (not a
                                          // script parameter; the demo sets kLayerSolid)

  // Derived values.
  float tickSeconds() const { return 1.0f / tickHz; }
  float crouchDrop() const { return height - crouchHeight; }
};

// Which of the capsule's parameters a user set (the rest may follow them).
struct CapsuleParamsSet {
  bool radius = false;
  bool height = false;
  bool crouchHeight = false;
  bool eyeHeight = false;
  bool skin = false;
};

// Dependent defaults: the capsule parameters a user did not set (not in `set`) follow the ones
// they did, starting from `base` (the defaults they would otherwise keep), so that every
// combination of set parameters that is valid by itself passes validateParams():
//   radius        = base radius, at most height/2 and crouch_height/2 (when those are set), at
//                   least 2 * skin (when skin is set);
//   height        = base height, at least 2 * radius, crouch_height and eye_height (when set);
//   crouch_height = base crouch_height scaled by height / base height, clamped to
//                   [2 * radius, height]; when eye_height is set, at least height - eye_height / 2
//                   (the crouched eye stays above the feet);
//   eye_height    = base eye_height scaled by height / base height (1.65 of 1.8: 8.3 % below the
//                   top); if that does not clear height - crouch_height, the middle of the
//                   crouched capsule above that: height - crouch_height / 2;
//   skin          = base skin, at most radius / 2.
// Parameters that are set are never changed; other parameters have no dependencies.
void applyDependentDefaults(ControllerParams& ioParams, const CapsuleParamsSet& set,
                            const ControllerParams& base = {});

// Checks what the controller needs of every field (finite; radius, skin, height and tick_hz
// positive; speeds, times and accelerations not negative; air_control in [0, 1]; max_slope in
// [0, 90)) and the relations between them (height >= 2*radius, crouch_height in
// [2*radius, height], eye_height in (height - crouch_height, height], skin < radius). Returns
// false with a message naming the parameters. The demo's table (scenario/param_table.h) has
// narrower ranges of its own and checks them first.
bool validateParams(const ControllerParams& params, std::string* outError = nullptr);

}  // namespace ofps
