#pragma once
// Dynamic props: spheres and axis-aligned boxes that fall, bounce and slide on the static level
// (through the octree's sweep and push-out queries) and collide with each other (through a
// sparse hash grid, spatial/hash_grid.h). Thrown by the player, placed by scripts, spawned by the
// thousand.
//
// Frame and units: world space, metres, seconds, kilograms (mass = density 1 x volume), Y up.
//
// ---- Model (what is simulated, and what is not) -------------------------------------------------
// - Shapes: spheres (radius) and boxes (half-extents). Boxes stay axis-aligned: there is no
//   rotation and no angular velocity for any prop (spheres slide, they do not roll). A prop's
//   state is its centre and linear velocity.
// - Fixed step: step(dt) with a constant dt (the demo: the controller's 1/tick_hz). Semi-implicit
//   Euler: gravity into the velocity, then the move.
// - Level (continuous): a sphere moves by sweeping it with Octree::sweepSphere to the first
//   contact, backing off by a skin along the contact normal, responding, and sweeping the rest of
//   the step (up to kPropMaxSweeps sweeps). A box sweeps its inscribed sphere the same way (so a
//   fast box cannot tunnel through a thin wall either: its centre stays on the near side), then
//   Octree::boxIntersect pushes the box itself out of whatever its corners reach. A sweep that
//   starts overlapping (after a push by another prop or the character) is pushed out first with
//   Octree::sphereIntersect. Nothing tunnels at any speed.
// - Response at a contact with unit normal n: the normal velocity vn < 0 is reflected with the
//   restitution (0 below bounceSpeed, so props settle instead of chattering), and the tangential
//   velocity loses friction x |normal impulse| (Coulomb, per contact).
// - Prop against prop, continuous (broad phase, narrow phase, solver):
//   * Broad phase along the swept bounds: each awake prop queries the grid (cell size
//     params.cellSize) with its box at the start and at the end of the step, grown on each side
//     of each axis by at most the largest component g of its displacement, and only as far as
//     the awake props' displacements reach on that side. Two props that touch at some time of the
//     step are found by the query of the one with the larger g (its box at that time lies within
//     its swept bounds, the other's end box within the other's displacement of the other's box
//     at that time); resting props do not move. O(cells of the grown box) per awake prop.
//     The pairs offered depend on the shapes only, never on the cell size (exact predicates),
//     so params.cellSize changes the speed of a step, not its result.
//   * Narrow phase, per pair offered: overlapping at the start of the step (then their contact
//     normal there is remembered), else their time of impact under the relative motion of their
//     centres (each moved straight from its start to its end centre): sphere-sphere by the
//     quadratic, box-box by the slab test against their Minkowski box, sphere-box by
//     geometry/'s sweepSphereTriangle against the box's 12 triangles (the primitive the octree's
//     sweeps use) after a slab test; the contact normal at the time of impact is remembered. A
//     pair apart all step remembers its separating direction after the moves.
//   * Push-outs remember where the props came from. Rule: a pair is separated along its
//     remembered normal, never along the present minimum-penetration normal (which turns over
//     once a centre passes the middle of the other prop), by the penetration depth along that
//     normal (support distances: exact for two boxes and on a face, never less than the true
//     depth). A pair that came into contact during the step is separated so even when the props
//     have already passed each other (a fast ball is brought back to the near face of a thin
//     plate); pairs that overlap at the start (spawned inside each other, pushed together by the
//     character) separate along their normal at the start, so repeated push-outs never change
//     side.
//   * Solver: params.solverIterations passes in (emitting id, other id) order (the order of the
//     discrete broad phase before): position correction split by inverse mass beyond a slop, then
//     the same restitution and friction impulse as the level; then up to kPropPositionPasses
//     position-only passes while a pair is still deeper than its slop. Across a near-vertical
//     contact the lower prop, when it stands on something, does not yield (shock propagation, so
//     stacks do not sink into the floor); a bounce off such a held prop while it rises keeps no
//     restitution (a falling column would otherwise launch its top). Props moved by the solver
//     are pushed out of the level again; a prop the level pushed back then holds still in a
//     position-only pass over its contacts, and what that pass moves is pushed out once more.
// - Guarantees between props (the repository's tests/props/props_ccd_test.cpp and
//   props_stacks_test.cpp):
//   * No prop passes through another prop within a step, at any speed up to maxSpeed (faster is
//     clamped): at the end of every step a thrown sphere or box is at most params.slop x the
//     smaller of the two sizes (plus float rounding) inside the prop it hit, on the side it came
//     from or deflected, never through, whether that prop rests or moves. With the level's
//     sweeps, nothing passes through the level either. A prop moving many times its own size per
//     step goes through the same tests as a slow one.
//   * Not guaranteed: the motion within a step is the straight segment from the start to the end
//     centre (a prop that bounced off the level within the step is tested along that chord, and
//     props never rotate); a pair pushed together by the solver (not by their own motion) is
//     found only when their boxes touch after the moves or their swept bounds meet, so a violent
//     landing on a pile can leave a transient overlap (never a change of side) that the next
//     step removes; a prop the solver pushes into the level leaves it by the discrete push-out.
// - Sleep rule: a prop rests (zero velocity, skipped by the integrator, infinite mass to awake
//   props) after sleepTime seconds of either
//   * speed below sleepSpeed + gravity x dt while supported (a contact whose normal points up)
//     within the last 4 steps, or
//   * stillness: its centre within 2 x skin x its size of where the still phase began, while
//     supported within the last max(4 steps, 2 sqrt(2 x skin x size / gravity)) (at a high tick
//     rate a prop on the level falls through its skin for several steps between two touches and
//     lands faster than sleepSpeed: this rule lets it sleep at 300-500 Hz).
//   Once asleep a prop does not move at all until woken. It wakes when an awake prop hits it
//   faster than wakeSpeed, when the character pushes it, or when a neighbour wakes (a prop that
//   wakes or is removed wakes the resting props touching its box grown by a skin, so a stack
//   falls when its base is pushed). Stacks and piles of 1-8 boxes (mass ratios up to 100:1,
//   placed or dropped) sleep at every tick rate from 20 to 500 Hz within 6 s, at rest within
//   their slop of each other and of the floor (props_stacks_test.cpp).
// - Kill plane: a prop whose centre falls below params.killPlaneY is removed: it keeps its id
//   and last state, removed() becomes 1, it leaves the grid and is never simulated again.
// - Character: pass its capsule to step(); props touching it that do not move away from it faster
//   than it moves are pushed out of it (the character is infinitely heavy) and take its velocity
//   along the contact normal. The character stands on props through sweepCapsule() and
//   overlapCapsule(), which answer exactly (with the triangle tests of
//   geometry/triangle_tests.h): PropsObstacles (props_obstacles.h) hands them to the character
//   controller, which sweeps against the props as well as the level, so a character landing on
//   a prop from above stands on it (the repository's tests/props/character_on_props_test.cpp).
//   The push is discrete, at the start of each step: a prop much faster than the capsule's width
//   per step can pass through the character (the character is not a swept obstacle for props).
//   A thrown sphere starts at the eye, inside the thrower: it is neither pushed nor seen by the
//   character until a step starts with it clear of the capsule (throwSphere).
//
// ---- Determinism, threads, allocation ----------------------------------------------------------
// Same inputs (props added in the same order, same dt sequence, same octree and character) give
// bit-identical states: single-threaded, contacts solved in a defined order. A PropsWorld is a
// plain value; const queries (sweepCapsule, overlapCapsule, the arrays) may run from many threads
// while nothing steps. step() reuses its scratch arrays: no allocation once the arrays have
// grown to the number of props and contacts.
//
// Sources: Guendelman, Bridson and Fedkiw, "Nonconvex Rigid Bodies with Stacking" (SIGGRAPH
// 2003: shock propagation); Catto, "Iterative Dynamics with Temporal Coherence" (GDC 2005) and
// Box2D's contact solver (sequential impulses, slop, restitution threshold); Ericson, "Real-Time
// Collision Detection" (2005) §4.4 (sphere-box), §5.5 (swept tests); the three.js games_fps example
// (throwing spheres from the camera, spheres against the octree and each other).

#include <cstdint>
#include <glm/ext/vector_double3.hpp>
#include <glm/vec3.hpp>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "octree_fps/culling/grid_cull.h"
#include "octree_fps/geometry/frustum.h"
#include "octree_fps/spatial/hash_grid.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {

enum class PropShape : uint8_t { Sphere = 0, Box = 1 };

inline constexpr uint32_t kPropInvalid = 0xFFFFFFFFu;
inline constexpr uint32_t kPropMaxSweeps = 4;  // level sweeps per prop per step
// Position-only solver passes after PropsParams::solverIterations, run while a contact is still
// deeper than its slop (see the solver in the model below).
inline constexpr uint32_t kPropPositionPasses = 8;
inline constexpr uint32_t kPropMaxSpawn = 100000;  // spawnRandom's limit per call
// spawnRandom's tries per prop before it skips that prop (each try: one overlap test and at most
// one downward ray, so a spawn costs at most this many of each per prop).
inline constexpr uint32_t kPropSpawnAttempts = 32;
// The floor a spawned prop needs under its centre: a surface whose upward normal has at least
// this y component (slopes up to 60 degrees).
inline constexpr float kPropFloorMinNormalY = 0.5f;

struct PropsParams {
  float gravity = 20.0f;          // m/s², downward (the controller's default)
  float restitution = 0.35f;      // share of the normal speed kept by a bounce, 0..1
  float friction = 0.4f;          // Coulomb coefficient (tangential impulse <= friction x normal)
  float bounceSpeed = 1.0f;       // m/s; slower impacts do not bounce (restitution 0)
  float maxSpeed = 120.0f;        // m/s; speeds are clamped (a sweep is exact at any speed)
  float sleepSpeed = 0.15f;       // m/s; slower (plus gravity x dt) and supported for
                                  // sleepTime -> resting
  float sleepTime = 0.4f;         // s
  float wakeSpeed = 1.0f;         // m/s; approach speed of an awake prop that wakes a resting one
  float skin = 0.005f;            // gap kept to the level, in multiples of the prop's size
  float slop = 0.005f;            // prop-prop overlap left uncorrected, x the smaller size
                                  // (the depth bound of the guarantees below)
  uint32_t solverIterations = 4;  // prop-prop contact passes per step
  // m; grid cell edge. Speed only: the broad phase is exact, so every cell size gives the same
  // simulation, bit for bit; 2 m suits props of 0.1-0.5 m (the repository's
  // bench/micro/GRID_RESULTS.md, "Props step": 0.5-3 m measured).
  float cellSize = 2.0f;
  float killPlaneY = -std::numeric_limits<float>::infinity();  // m; below: removed
  uint32_t layerMask = kOctreeAllLayers;                       // level layers props collide with
};

// The character as props see it: a capsule (segment a-b, radius) and its velocity. World space.
struct CharacterCapsule {
  glm::vec3 a{0.0f};
  glm::vec3 b{0.0f};
  float radius = 0.0f;
  glm::vec3 velocity{0.0f};  // m/s
};

// Work of one step, for the panel and --stats-json.
struct PropsStepStats {
  uint32_t total = 0;     // props not removed
  uint32_t awake = 0;     // simulated this step
  uint32_t resting = 0;   // asleep at the end of the step
  uint32_t removed = 0;   // removed by the kill plane this step
  uint32_t contacts = 0;  // prop-prop contacts found
  uint32_t characterPushes = 0;
  uint32_t cellsOccupied = 0;  // grid cells holding props at the end of the step
  GridQueryStats grid;         // prop-prop broad phase: cells visited, candidates, hits, and
                               // brute force's checks (each awake prop against every prop)
  QueryStats octree;           // level queries' nodes visited and triangle tests
  uint32_t octreeQueries = 0;
};

// Earliest contact of a capsule swept against the props.
struct PropSweepHit {
  uint32_t prop = kPropInvalid;
  float toi = 1.0f;        // fraction of the displacement, [0, 1]
  glm::vec3 point{0.0f};   // contact point on the prop
  glm::vec3 normal{0.0f};  // unit, from the prop toward the capsule
  bool startsOverlapping = false;
};

class PropsWorld {
 public:
  explicit PropsWorld(const PropsParams& params = {});

  const PropsParams& params() const { return params_; }
  // Takes effect at the next step; a new cellSize rebuilds the grid.
  void setParams(const PropsParams& params);

  // ---- Adding props (ids are 0, 1, 2, ... in the order added; never reused) --------------------
  // radius > 0, halfExtents > 0 on every axis, finite values (asserted).
  uint32_t addSphere(const glm::vec3& center, float radius,
                     const glm::vec3& velocity = glm::vec3(0.0f));
  uint32_t addBox(const glm::vec3& center, const glm::vec3& halfExtents,
                  const glm::vec3& velocity = glm::vec3(0.0f));
  // A sphere thrown from origin (the eye) with velocity (view direction x speed + the
  // character's velocity): the ThrowRecord of script_runner.h, or a click in the demo. The eye
  // is inside the thrower's capsule, so until the first step that starts with the sphere clear of
  // the character's capsule, the character neither pushes it (step) nor sees it (sweepCapsule,
  // overlapCapsule): a projectile passes out through its owner. leavingThrower()[id] says which.
  uint32_t throwSphere(const glm::vec3& origin, const glm::vec3& velocity, float radius);
  // count (<= kPropMaxSpawn) props at random over bounds (x and z uniform; y in the upper 70 %
  // of the box), 70 % spheres of radius 0.1, 0.15, 0.25 or 0.4 m and 30 % boxes with
  // half-extents in [0.1, 0.4] m, at rest. A position is redrawn when the shape would overlap the
  // level or when there is no floor under its centre: a ray straight down, within bounds, must
  // first hit a surface no steeper than kPropFloorMinNormalY allows (otherwise the prop falls
  // out of the level). After kPropSpawnAttempts draws the prop is skipped, so a level with
  // little floor in bounds gets fewer props. Deterministic for a seed on every platform (own
  // generator). Returns the number added.
  uint32_t spawnRandom(uint32_t count, const Octree& octree, const Aabb& bounds, uint64_t seed);
  // Removes every prop (ids restart at 0).
  void clear();

  // ---- Simulation -------------------------------------------------------------------------------
  // Advances by dt seconds (> 0). character may be null. Never throws.
  void step(const Octree& octree, float dt, const CharacterCapsule* character = nullptr);
  const PropsStepStats& lastStepStats() const { return stats_; }

  // ---- Queries against the props (const) ------------------------------------------------------
  // Earliest contact of the capsule (segment a-b, radius) moved by displacement with any prop
  // not removed and not leaving its thrower (throwSphere); ties: lower id. Exact. Returns false
  // when the motion is free.
  bool sweepCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                    const glm::vec3& displacement, PropSweepHit& outHit,
                    GridQueryStats* ioStats = nullptr) const;
  // Props the closed capsule touches (not those leaving their thrower): writes up to out.size()
  // ids (increasing), returns the total.
  uint32_t overlapCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                          std::span<uint32_t> out, GridQueryStats* ioStats = nullptr) const;
  // Visible props (not removed) for instanced drawing: the grid's linear frustum pass (every
  // occupied cell classified; the fallback without a level, and the benchmarks' baseline).
  // Writes up to out.size() ids (grid order), returns the total.
  uint32_t cullFrustum(const Frustum& frustum, std::span<uint32_t> out,
                       GridQueryStats* ioStats = nullptr) const {
    return cullGridFrustum(grid_, frustum, out, ioStats);
  }

  // ---- State, as flat arrays indexed by id (for instanced rendering and the CSV files) ---------
  uint32_t size() const { return static_cast<uint32_t>(position_.size()); }  // ids ever added
  uint32_t liveCount() const { return grid_.objectCount(); }                 // not removed
  uint32_t restingCount() const { return restingCount_; }
  // Props removed by the kill plane since the last clear() (removed() counts 1).
  uint32_t removedCount() const { return size() - liveCount(); }
  std::span<const glm::vec3> positions() const { return position_; }   // centres, m
  std::span<const glm::vec3> velocities() const { return velocity_; }  // m/s
  std::span<const glm::vec3> halfExtents() const { return half_; }     // sphere: (r, r, r)
  std::span<const PropShape> shapes() const { return shape_; }
  std::span<const uint8_t> resting() const { return resting_; }  // 1 = asleep
  std::span<const uint8_t> removed() const { return removed_; }  // 1 = below kill plane
  // 1 = thrown and still inside the character's capsule (see throwSphere).
  std::span<const uint8_t> leavingThrower() const { return leavingThrower_; }
  const HashGrid& grid() const { return grid_; }
  // The grid itself, for a cell listener to attach to (the props cull, culling/frame_cull.h).
  // Moving or removing objects through it would leave the props' own arrays behind: don't.
  HashGrid& grid() { return grid_; }

  // Wakes a resting prop (e.g. the demo's "wake all" button or a shot). No-op when removed.
  void wake(uint32_t id);

  // Checks: arrays the same size, every live prop in the grid at its position, removed ones not,
  // resting ones with zero velocity, the resting count right, finite state. O(n).
  bool validate(std::string* outError = nullptr) const;

 private:
  // spawnRandom's floor test: a walkable surface under point, above lowestY.
  bool hasFloorBelow(const Octree& octree, const glm::vec3& point, float lowestY) const;
  // A candidate pair of the narrow phase, with what it remembers of the start of the step.
  enum class ContactMemory : uint8_t {
    Apart = 0,         // apart through the whole step: n separates them after the moves
    StartOverlap = 1,  // overlapping at the start of the step: n is their contact normal then
    Impact = 2,        // came into contact during the step: n is the normal at the time of impact
  };
  struct Contact {
    uint32_t a, b;  // a < b
    glm::vec3 n;    // remembered normal, unit, from a toward b
    ContactMemory memory;
    uint64_t order;  // solve order: (the id whose query emits it, the other id)
  };
  void addCandidate(uint32_t emitter, uint32_t i, uint32_t j);
  uint32_t add(PropShape shape, const glm::vec3& center, const glm::vec3& half,
               const glm::vec3& velocity);
  void integrateAndCollideLevel(const Octree& octree, uint32_t i, float dt);
  void respond(uint32_t i, const glm::vec3& n, bool& ioSupported);
  bool pushOutOfLevel(const Octree& octree, uint32_t i, bool& ioSupported);
  void pushByCharacter(const CharacterCapsule& c);
  void findContacts();
  void solveContacts();
  // The pair's normal (from a toward b) and depth now, or along its remembered normal (see
  // solveContacts); false when apart.
  bool contactGeometry(const Contact& c, glm::vec3& outN, float& outPen) const;
  void separateFromLevelHeld();
  void setResting(uint32_t i, bool resting);
  void wakeAround(uint32_t i);
  void syncGrid(uint32_t i);
  float size(uint32_t i) const;
  float anchorTolerance(uint32_t i) const;  // m: sleep by stillness, 2 x skin x size

  PropsParams params_;
  HashGrid grid_;
  std::vector<glm::vec3> position_;
  std::vector<glm::vec3> velocity_;
  std::vector<glm::vec3> half_;
  std::vector<PropShape> shape_;
  std::vector<uint8_t> resting_;
  std::vector<uint8_t> removed_;
  std::vector<uint8_t> supported_;       // scratch: supported this step
  std::vector<uint8_t> supportAge_;      // steps since the last support (saturates at 255)
  std::vector<uint8_t> touched_;         // scratch: moved by the solver this step
  std::vector<uint8_t> levelHeld_;       // scratch: pushed back by the level after the solver
  std::vector<uint8_t> leavingThrower_;  // thrown, still inside the character (throwSphere)
  std::vector<uint32_t> leavingList_;    // the ids with leavingThrower_ set, in throw order
  std::vector<uint64_t> moveStamp_;      // solver clock of the prop's last correction
  std::vector<float> invMass_;
  std::vector<float> sleepTimer_;
  std::vector<glm::vec3> start_;    // centre at the end of the last step (before any move now)
  std::vector<glm::vec3> anchor_;   // sleep by stillness: where the prop's still phase began
  std::vector<float> anchorTimer_;  // seconds within anchorTolerance of anchor_
  std::vector<uint32_t> awake_;     // scratch: awake ids this step, increasing
  std::vector<Contact> contacts_;   // scratch
  // contactGeometry's answer for contacts_[i], computed at solver clock `stamp` (solveContacts).
  struct ContactGeometry {
    glm::vec3 n{0.0f};
    float pen = 0.0f;
    uint64_t stamp = 0;
    bool touching = false;
  };
  std::vector<ContactGeometry> geometryCache_;  // scratch, parallel to contacts_
  uint64_t solverClock_ = 0;                    // counts solves and corrections
  std::vector<uint32_t> activeContacts_;  // scratch: contacts touching in the last velocity pass
  std::vector<uint32_t> neighbors_;       // scratch
  std::vector<float> sweepReach_;         // scratch of findContacts: |displacement|inf, -1 resting
  std::vector<uint32_t> wakeStack_;       // scratch of wakeAround
  std::vector<uint32_t> touchedList_;     // scratch: props the solver moved
  uint32_t restingCount_ = 0;
  PropsStepStats stats_;
};

// ---- Files (docs/script-format.md) ------------------------------------------------------------
// "id,shape,x,y,z,vx,vy,vz,hx,hy,hz,resting,removed\n"
const char* propsCsvHeader();
// "t,id,x,y,z\n"
const char* propsTraceCsvHeader();
// Appends the header and one row per prop (id order): shape "sphere" or "box", numbers %.9g.
// origin (both functions): added to the positions in double, for a world simulated in a local
// frame whose origin is there (a level far from the origin); 0 writes the positions as they are.
void writePropsCsv(std::string& ioOut, const PropsWorld& world,
                   const glm::dvec3& origin = glm::dvec3(0.0));
// Appends one row per prop ever added (removed ones at their last position), t in seconds.
void appendPropsTraceCsv(std::string& ioOut, double t, const PropsWorld& world,
                         const glm::dvec3& origin = glm::dvec3(0.0));

}  // namespace ofps
