#pragma once
// Static triangle octree: exact ray, sphere, capsule, box, sweep and closest-point queries over a
// world-space triangle soup, plus the node ranges the renderer culls and draws.
//
// Units and frame: the caller's (the demo: world space, metres, Y up). Nothing assumes a scale:
// there is no absolute epsilon; the few tolerances (push-out convergence) are relative to the
// query's size and position, so a level scaled by 1000 or 0.001 answers the same.
//
// ---- Layout -------------------------------------------------------------------------------------
// Flat arrays with 32-bit indices (no pointers: the tree can be copied, saved or uploaded, and the
// indices are half the size of pointers). 29 bytes per node, 40 per triangle.
// - Children are contiguous: the children of node n are firstChild(n) .. firstChild(n) +
//   childCount(n) - 1 (at most kOctreeMaxChildren = 16). Blocks of children are laid out
//   depth-first, so a subtree's nodes sit close together. A traversal loads the bounds of all of a
//   node's children at once and tests four at a time with SIMD (SSE2; eight with AVX2 for ray
//   casts, "SIMD kernels" below), instead of hopping from sibling to sibling.
// - Node bounds are quantized to 16 bits per coordinate on one grid spanning the level's bounding
//   box (65,535 steps per axis): box = origin + q * scale, rounded OUTWARD at build, so a node's
//   quantized box always contains every triangle of its subtree (checked at build against the
//   very float expression the queries evaluate, with fused multiply-add disabled). Boxes are
//   loose by at most one step: 1.5 cm on a 1 km level, 0.15 m at 10 km. That only costs a few
//   more box tests; every answer still comes from exact triangle tests. 12 bytes per node
//   instead of 24, stored as six planes (min x, y, z, max x, y, z) per block of children, the
//   block's six planes side by side: the boxes of a node's children load with one read per
//   plane, and all of them lie in one run of 12 x childCount bytes (one to four cache lines)
//   instead of six runs in six arrays (bench/micro/RESULTS.md). One byte per node says where a
//   node's planes are, for nodeBounds(). Overlap queries go further: they convert their box to grid
//   steps once (octree_grid.h: the grid's value() is monotone, so this is exactly the float test)
//   and compare 16-bit integers, eight children at a time; ray casts take their slab distances
//   straight from the steps (one multiply and one add per plane, with a rigorous margin:
//   RayGridPlanes in octree_traversal_inl.h); sweeps and closest point dequantize four boxes at a
//   time.
// - Triangles are permuted into depth-first preorder: every node owns one contiguous range of
//   triangle slots (its own triangles), immediately followed by its children's subtree ranges in
//   child order, so its whole subtree is one contiguous range too. The renderer orders its index
//   buffer by triangleOrder() and draws a visible subtree with one call.
// - Each triangle is stored once, pre-gathered (3 vertices, 36 bytes) in slot order, four slots
//   to a block laid out coordinate-major (OctreeTriangleBlock), so that ray and bounding-box tests
//   run on four consecutive slots at once with the same rounding as the scalar tests; with its
//   original index (4 bytes), a degenerate flag (1 bit, so exact tests need not recompute it)
//   and, only when layers were given, its layer mask (4 bytes).
//
// ---- Straddling triangles: kept in the parent, no duplicated references -------------------------
// A node is a cubic cell (the root: the bounding cube of the level). Its triangles go to the
// child octant holding their centroid (bounding-box centre), except a triangle whose bounding box
// is larger than `looseness` (default 3) x a child cell's edge, which stays in the node itself
// ("kept in the parent"). A child's tight bounds therefore exceed its cell by at most 1.5 x the
// cell's edge on each side (a loose octree), and few large triangles sit high in the tree, where
// every query would test them. The default 3 (with children of fewer than 3 triangles merged,
// below) was chosen by measurement on the shared levels: fewer triangles tested per ray and
// sphere than 1.0 or 1.5 at about the same memory (figures in bench/micro/RESULTS.md).
// Every triangle is referenced exactly once, so no query can report a triangle twice and no
// query needs a duplicate check. Cells are used only to assign triangles; queries and culling use
// each node's bounds: the min/max of the actual float vertices of every triangle in its subtree,
// quantized outward. A triangle lying exactly on a split plane can therefore never be lost to
// rounding of child cell bounds, and a triangle larger than every cell stays findable (it is in
// the root).
// A node becomes a leaf when it holds at most trianglesPerLeaf triangles, when it is at maxLevel,
// or when all its centroids coincide (coincident copies or triangles sharing a centroid stop
// immediately instead of forming a maxLevel-deep chain). When all of a node's triangles would go
// to one child, the cell shrinks to that octant without creating a node, so there are no chains
// of single-child nodes. A child that would hold only one or two triangles (one, for
// trianglesPerLeaf 4 or 5; none below 4) is merged into its parent: a node costs more to visit
// than two triangles cost to test, and the saved node memory pays for the larger looseness.
//
// ---- Final form: kept triangles in a leaf of their own, then wide nodes ------------------------
// Two steps turn the octree's nodes into the form queries walk (neither changes which node a
// triangle belongs to in the octree's sense, nor any node's level):
// 1. The triangles kept in an inner node move into a new leaf, the node's first child, with
//    their own tight box and the node's level. A query then tests them only when it meets that
//    box, sorted among the other children by distance, instead of whenever it enters the node.
// 2. Collapse: a child that holds no triangles of its own (now every inner node) is replaced by
//    its children while the parent then still has at most kOctreeMaxChildren = 16 (largest box
//    first). A query takes one wide step instead of two narrow ones. Slot ranges stay contiguous
//    and in preorder.
// So children(n) are n's octree descendants at any depth, and levels may repeat from a node to
// its children (the leaf of kept triangles) or skip. Both steps and 16 children were kept because
// they made rays, sphere and box queries faster on the shared levels at about the same memory
// (fewer nodes, one more leaf per inner node; figures in bench/micro/RESULTS.md).
//
// ---- Build --------------------------------------------------------------------------------------
// O(n log n): every level partitions its range with a stable counting sort into 9 buckets (kept +
// 8 octants), O(n) per level, scattering its records into a second array (the two arrays take
// turns level by level); iterative, with an explicit work list (no recursion). The input is read
// in place, twice: once to check it and make the partition records, once to fill the triangle
// blocks in slot order (no copy of the input is made). On Linux the large arrays (node links,
// bounds, triangle blocks, original indices) are advised onto transparent huge pages, which saves
// TLB misses for queries on levels of millions of triangles. With
// params.threads > 1 the top levels are split first and the subtrees below them are partitioned
// in parallel (the tree is identical for any thread count); the final-form and quantization
// passes are O(n) and serial. A rebuild with new parameters from the octree's own data
// (rebuild()) takes a few ms for 40 k triangles.
//
// ---- Queries ------------------------------------------------------------------------------------
// Every traversal keeps a fixed stack (no allocation) and tests a node's children four (or eight)
// at a time. Nearest-first walks gather the children hit as a bit mask, and order them with a
// branch-free sorting network (stack entries pack the key's bits above the node index).
// Every query: takes a layer mask (a triangle is considered when (triangleLayers & mask) != 0;
// triangles built without layers have all 32 bits set); allocates nothing; throws nothing; is
// const and safe to call from many threads at once; returns values the caller owns; and, when
// ioStats is not null, ADDS the nodes it visited and the exact triangle tests it ran to *ioStats.
// Triangle indices in results are ORIGINAL indices (the input order, numbered from 0).
// Results do not depend on traversal order: ties between equally near triangles go to the lower
// original index, and the push-out resolves contacts deepest-first with the same tie rule.
// Overlap queries visit nodes in depth-first preorder (so they report triangles in slot order);
// ray, sweep and closest-point queries visit children nearest first. Traversals keep a fixed stack
// of kOctreeStackSize entries; maxLevel is clamped to kOctreeMaxLevel so that it cannot overflow.

#include <cstddef>
#include <cstdint>
#include <glm/vec3.hpp>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "octree_fps/geometry/aabb.h"

namespace ofps {

inline constexpr uint32_t kOctreeInvalidIndex = 0xFFFFFFFFu;
inline constexpr uint32_t kOctreeMaxLevel = 24;  // deepest allowed level (root = level 0)
inline constexpr uint32_t kOctreeAllLayers = 0xFFFFFFFFu;
// Most children a node has in the final form (octree.h "Final form"): wide nodes, tested four
// at a time.
inline constexpr uint32_t kOctreeMaxChildren = 16;
// Traversals push at most kOctreeMaxChildren - 1 siblings per level plus one.
inline constexpr uint32_t kOctreeStackSize = kOctreeMaxChildren * (kOctreeMaxLevel + 1);
// Longest root-to-leaf path (Octree::pathToSlot): an inner node's children are deeper than it,
// except its leaf of kept triangles, which has its level and ends the path.
inline constexpr uint32_t kOctreeMaxPathLength = kOctreeMaxLevel + 2;

// Structure of one node (its bounds are stored apart, quantized: Octree::nodeBounds). 16 bytes.
struct OctreeNodeLinks {
  uint32_t firstTriangle;  // first slot of the node's own triangles = first slot of its subtree
  uint32_t ownEnd;         // one past its own triangles = first slot of its first child's subtree
  uint32_t firstChild;     // first of childCount contiguous children (0 for a leaf)
  uint16_t childCount;     // 0 (leaf) .. kOctreeMaxChildren
  uint16_t level;          // root = 0
};
static_assert(sizeof(OctreeNodeLinks) == 16, "OctreeNodeLinks must stay 16 bytes");

// Triangle slots 4b .. 4b+3, coordinate-major: c[3 * vertex + axis][lane] (vertex 0..2, axis
// x, y, z). Lanes past the last triangle repeat it. 144 bytes.
struct alignas(16) OctreeTriangleBlock {
  float c[9][4];
};
static_assert(sizeof(OctreeTriangleBlock) == 144, "OctreeTriangleBlock must stay 144 bytes");

// ---- SIMD kernels -------------------------------------------------------------------------------
// The baseline kernels, which every query has, use SSE2 on x86-64 (four floats per operation:
// four child boxes, or four triangles of a block; overlap queries compare node boxes as 16-bit
// integers, eight per operation) and plain C++ elsewhere (ARM included: no NEON path yet).
// Ray casts (raycast and rayAny) also have an AVX2 kernel, eight floats per operation
// (octree_query_avx2.cpp). It is compiled only by GCC on x86-64; with Clang or MSVC,
// octreeSimdAvailable(kAvx2) is false and everything runs on the baseline. The CPU is checked
// once, on the first query or octreeSimd*() call.
// Both kernels perform the same IEEE single-precision operations per lane, so they return the
// same bits (the repository's tests/spatial/octree_simd_test.cpp); rayAny's answer is the same too,
// but its eight-lane walk enters the nearest child first (a hit found early ends it), where the
// baseline walks in preorder, so its nodes and triangles counted differ. That, and the exactness of
// every query, REQUIRES compiling the core with floating-point contraction off (-ffp-contract=off,
// which the project's CMake sets on its own targets only, the repository's cmake/ExactFloat.cmake;
// the queries are compiled in the library, so a consumer's flags do not matter) and without
// -ffast-math (refused with #error): a fused multiply-add or a reassociated sum changes the
// rounding the box tests are proved against. Engines normally leave the choice alone (the widest
// available is taken); octreeUseSimd() is for tests and benchmarks, and applies to the whole
// process.
enum class OctreeSimd : uint8_t {
  kBaseline,  // four lanes: SSE2, or scalar code without it
  kAvx2,      // eight lanes for ray casts (other queries stay on the baseline kernels)
};
// The kernels queries use now: the widest the CPU and build support, unless octreeUseSimd()
// chose another. Thread-safe.
OctreeSimd octreeSimd();
// Whether this CPU and build can run `simd` (kBaseline always can).
bool octreeSimdAvailable(OctreeSimd simd);
// Selects the kernels for every octree in the process (tests and octree_bench --simd compare
// them). Returns false, changing nothing, when `simd` is not available. Thread-safe, but a query
// already running finishes on the kernels it started with.
bool octreeUseSimd(OctreeSimd simd);
// "avx2"; for kBaseline the build's four-lane path: "sse2" (x86-64), "simde-neon" (ARM64),
// "simde-simd128" or "simde-portable" (WebAssembly with or without -msimd128), "scalar" (built
// with OCTREE_FPS_SIMD=SCALAR, or no SIMDe). All give the same answers (README "Platforms").
const char* octreeSimdName(OctreeSimd simd);

struct OctreeBuildParams {
  uint32_t trianglesPerLeaf = 8;  // a node with at most this many triangles is a leaf (>= 1)
  uint32_t maxLevel = 16;         // deepest level (root = 0); clamped to kOctreeMaxLevel
  bool dropDegenerate = false;    // false: keep zero-area triangles as segments/points (exact for
                                  // overlap and sweep tests); true: leave them out. Either way
                                  // they are counted in OctreeBuildReport::degenerateTriangles.
  float looseness = 3.0f;         // a triangle whose bounding box is larger than looseness x the
                                  // child cell's edge stays in the parent (>= 0; larger: fewer
                                  // triangles kept high in the tree, looser child bounds)
  uint32_t threads = 1;           // build threads (1: the calling thread only; 0: one per
                                  // hardware thread; at most 64). The tree is identical for
                                  // any count.
};

// What build() did. ok == false leaves the octree empty and says why in `error`.
struct OctreeBuildReport {
  bool ok = false;
  std::string error;                 // e.g. "triangle 1234 has a non-finite vertex (nan, 0, 1)"
  uint32_t inputTriangles = 0;       // indices.size() / 3
  uint32_t storedTriangles = 0;      // in the octree (input minus dropped degenerates)
  uint32_t degenerateTriangles = 0;  // zero-area triangles found (kept or dropped)
  uint32_t droppedTriangles = 0;     // degenerate triangles left out (dropDegenerate)
  uint32_t nodeCount = 0;
  uint32_t leafCount = 0;
  uint32_t depth = 0;               // deepest level reached (root only = 0)
  uint32_t maxTrianglesInNode = 0;  // largest own range
  size_t bytes = 0;                 // memory held by the octree (see Octree::bytes())
  uint32_t threadsUsed = 1;         // threads the partition ran on
  double buildMs = 0.0;             // wall time of the build
};

// Work counters of one or more queries (added to, never reset by a query).
// Optional record of where queries went, for debug drawing ("show what this frame's queries
// touched"): the nodes each query ENTERED, i.e. whose own triangles it tested. Caller-owned
// storage (nothing is allocated); entries beyond the capacity are counted in `entered` but not
// stored. A node entered by several queries appears once per query.
struct QueryTrace {
  uint32_t* nodes = nullptr;  // caller's array of `capacity` node indices
  uint32_t capacity = 0;
  uint32_t entered = 0;  // nodes entered so far (may exceed capacity)
  void add(uint32_t node) {
    if (entered < capacity) nodes[entered] = node;
    ++entered;
  }
  uint32_t stored() const { return entered < capacity ? entered : capacity; }
};

struct QueryStats {
  uint32_t nodesVisited = 0;     // nodes whose bounds were tested
  uint32_t trianglesTested = 0;  // exact triangle tests run (after the layer filter)
  QueryTrace* trace = nullptr;   // when set, every entered node is recorded (debug drawing)
};

// Nearest ray hit.
struct RayHit {
  float t = 0.0f;                           // distance along the ray in multiples of dir
  uint32_t triangle = kOctreeInvalidIndex;  // original triangle index
  glm::vec3 point{0.0f};                    // origin + t * dir
  glm::vec3 normal{0.0f};                   // unit geometric normal facing the ray's origin
};

// Resolved push-out: translate the shape by normal * depth to separate it from the level.
struct PushOut {
  glm::vec3 normal{0.0f};                          // unit; zero when depth == 0
  float depth = 0.0f;                              // length of the total translation (level units)
  uint32_t iterations = 0;                         // resolution rounds used
  uint32_t deepestTriangle = kOctreeInvalidIndex;  // triangle of the first (deepest) contact
  bool resolved = true;  // false when maxIterations ran out with contacts left
};

// First contact of a swept shape.
struct SweepHit {
  float toi = 1.0f;                         // time of impact in [0, 1] (fraction of displacement)
  uint32_t triangle = kOctreeInvalidIndex;  // original triangle index (lowest index on ties)
  glm::vec3 point{0.0f};                    // contact point on the triangle
  glm::vec3 normal{0.0f};                   // unit, from the triangle toward the shape
  bool startsOverlapping = false;           // shape overlapped at t = 0 (toi = 0)
};

// Nearest point of the level.
struct PointHit {
  glm::vec3 point{0.0f};
  float distance = 0.0f;
  uint32_t triangle = kOctreeInvalidIndex;  // original index (lowest index on ties)
};

// A range of triangle slots (indices into triangles() / triangleOrder()).
struct TriangleRange {
  uint32_t first = 0;
  uint32_t count = 0;
};

// Called once per overlapping triangle with its original index; return false to stop early.
using OctreeTriangleVisitor = bool (*)(void* context, uint32_t triangle);

class Octree {
 public:
  // ---- Build ----------------------------------------------------------------------------------
  // positions: vertices (world space). indices: 3 per triangle, each < positions.size().
  // layers: empty (every triangle in all layers) or one 32-bit mask per triangle.
  // Validates the input (untrusted: it may come from a file): non-finite vertices, indices out of
  // range, a ragged index count or a layers array of the wrong size fail with a message naming
  // the first bad triangle, and leave the octree empty. Zero-area triangles are counted, then
  // kept or dropped (params.dropDegenerate). Replaces any previous contents; reuses capacity.
  // Not thread-safe with queries on the same octree.
  OctreeBuildReport build(std::span<const glm::vec3> positions, std::span<const uint32_t> indices,
                          std::span<const uint32_t> layers = {},
                          const OctreeBuildParams& params = {});
  // Same, from pre-gathered triangles (original index = position in the span).
  OctreeBuildReport build(std::span<const Triangle> triangles,
                          std::span<const uint32_t> layers = {},
                          const OctreeBuildParams& params = {});
  // Rebuilds from the triangles already stored with new parameters (the input need not be kept).
  // Gives the same tree as build() with the same input and parameters. Cheap enough for a slider.
  // Triangles a previous build dropped (dropDegenerate) are gone: they stay dropped.
  OctreeBuildReport rebuild(const OctreeBuildParams& params);
  void clear();

  // ---- Ray --------------------------------------------------------------------------------------
  // Nearest hit with t in [0, tMax] (dir need not be unit; t is in multiples of dir). Front-to-
  // back traversal; the nearest of equal-t hits is the lowest original index. Returns false on a
  // miss (outHit untouched). A zero dir never hits.
  bool raycast(const glm::vec3& origin, const glm::vec3& dir, float tMax, uint32_t layerMask,
               RayHit& outHit, QueryStats* ioStats = nullptr) const;
  // Any hit with t in [0, tMax] (line of sight); stops at the first found.
  bool rayAny(const glm::vec3& origin, const glm::vec3& dir, float tMax, uint32_t layerMask,
              QueryStats* ioStats = nullptr) const;

  // ---- Overlap: every triangle the closed shape touches -----------------------------------------
  // The visitor is called once per overlapping triangle (original index), in slot order; return
  // false from it to stop. Returns the number of overlapping triangles reported.
  uint32_t overlapSphere(const glm::vec3& center, float radius, uint32_t layerMask,
                         OctreeTriangleVisitor visitor, void* context,
                         QueryStats* ioStats = nullptr) const;
  uint32_t overlapCapsule(const glm::vec3& a, const glm::vec3& b, float radius, uint32_t layerMask,
                          OctreeTriangleVisitor visitor, void* context,
                          QueryStats* ioStats = nullptr) const;
  uint32_t overlapBox(const Aabb& box, uint32_t layerMask, OctreeTriangleVisitor visitor,
                      void* context, QueryStats* ioStats = nullptr) const;

  // Lambda forms: f(uint32_t triangle) returning bool (false stops) or void.
  template <class F>
  uint32_t overlapSphere(const glm::vec3& center, float radius, uint32_t layerMask, F&& f,
                         QueryStats* ioStats = nullptr) const {
    return overlapSphere(center, radius, layerMask, &thunk<F>, &f, ioStats);
  }
  template <class F>
  uint32_t overlapCapsule(const glm::vec3& a, const glm::vec3& b, float radius, uint32_t layerMask,
                          F&& f, QueryStats* ioStats = nullptr) const {
    return overlapCapsule(a, b, radius, layerMask, &thunk<F>, &f, ioStats);
  }
  template <class F>
  uint32_t overlapBox(const Aabb& box, uint32_t layerMask, F&& f,
                      QueryStats* ioStats = nullptr) const {
    return overlapBox(box, layerMask, &thunk<F>, &f, ioStats);
  }

  // Buffer forms: write up to out.size() original indices into the caller's buffer and return
  // the TOTAL number of overlapping triangles (which may exceed out.size(); then only the first
  // out.size() in slot order are written). Pass an empty span to count only.
  uint32_t collectSphere(const glm::vec3& center, float radius, uint32_t layerMask,
                         std::span<uint32_t> out, QueryStats* ioStats = nullptr) const;
  uint32_t collectCapsule(const glm::vec3& a, const glm::vec3& b, float radius, uint32_t layerMask,
                          std::span<uint32_t> out, QueryStats* ioStats = nullptr) const;
  uint32_t collectBox(const Aabb& box, uint32_t layerMask, std::span<uint32_t> out,
                      QueryStats* ioStats = nullptr) const;

  // ---- Push-out (three.js sphereIntersect / capsuleIntersect, made order-independent) ---------
  // Resolution: repeat up to maxIterations rounds: find, over every overlapping triangle, the
  // contact (triangle_tests.h *TriangleContact) of the shape at its current position; take the
  // deepest (ties: lowest original index); if its depth is within the tolerance
  // 1e-6 * (size + max |coordinate| of the shape) stop; else translate the shape by it. The result
  // is the total translation. A reduction by (depth, index) does not depend on visit order, so
  // the result is the same for any traversal. Each round is one overlap traversal.
  // Returns true when the shape overlapped anything at its start position (touching with depth 0
  // counts, then depth = 0). outPushOut is always written.
  bool sphereIntersect(const glm::vec3& center, float radius, uint32_t layerMask,
                       PushOut& outPushOut, QueryStats* ioStats = nullptr,
                       uint32_t maxIterations = 8) const;
  bool capsuleIntersect(const glm::vec3& a, const glm::vec3& b, float radius, uint32_t layerMask,
                        PushOut& outPushOut, QueryStats* ioStats = nullptr,
                        uint32_t maxIterations = 8) const;
  bool boxIntersect(const Aabb& box, uint32_t layerMask, PushOut& outPushOut,
                    QueryStats* ioStats = nullptr, uint32_t maxIterations = 8) const;

  // ---- Sweeps: continuous collision for a controller --------------------------------------------
  // The shape moves by t * displacement, t in [0, 1].
  // Returns true with the earliest contact (sweep*Triangle in triangle_tests.h; ties: lowest
  // original index), false when the whole motion is free. A shape that overlaps at t = 0 returns
  // toi = 0, startsOverlapping = true and the push-out direction of its deepest contact. Nothing
  // tunnels at any speed. Touching counts as overlapping (closed sets), so a shape resting exactly
  // on the floor gets toi = 0: a controller should keep a small skin distance (the script parameter
  // `skin`) between its shape and the level, or sweep a shape shrunk by the skin.
  bool sweepSphere(const glm::vec3& center, float radius, const glm::vec3& displacement,
                   uint32_t layerMask, SweepHit& outHit, QueryStats* ioStats = nullptr) const;
  bool sweepCapsule(const glm::vec3& a, const glm::vec3& b, float radius,
                    const glm::vec3& displacement, uint32_t layerMask, SweepHit& outHit,
                    QueryStats* ioStats = nullptr) const;

  // ---- Closest point ---------------------------------------------------------------------------
  // Nearest point of the level to p within maxDistance (closed: distance == maxDistance counts).
  // Returns false when nothing is that close. Ground snapping, spawn search.
  bool closestPoint(const glm::vec3& p, float maxDistance, uint32_t layerMask, PointHit& outHit,
                    QueryStats* ioStats = nullptr) const;

  // ---- Structure (for culling, debug drawing and the renderer's index buffer) -------------------
  // Node 0 is the root. O(1) each unless noted.
  bool empty() const { return links_.empty(); }
  uint32_t nodeCount() const { return static_cast<uint32_t>(links_.size()); }
  uint32_t triangleCount() const { return static_cast<uint32_t>(originalIndex_.size()); }
  std::span<const OctreeNodeLinks> nodeLinks() const { return links_; }
  // The triangle in a slot (slot order = octree order), and the blocks the slots are stored in.
  Triangle triangle(uint32_t slot) const {
    const OctreeTriangleBlock& b = blocks_[slot >> 2];
    const uint32_t l = slot & 3u;
    return {{b.c[0][l], b.c[1][l], b.c[2][l]},
            {b.c[3][l], b.c[4][l], b.c[5][l]},
            {b.c[6][l], b.c[7][l], b.c[8][l]}};
  }
  std::span<const OctreeTriangleBlock> triangleBlocks() const { return blocks_; }
  // isDegenerateTriangle(triangle(slot)), stored at build.
  bool isDegenerateSlot(uint32_t slot) const {
    return (degenerateLanes_[slot >> 2] >> (slot & 3u)) & 1u;
  }
  // triangleOrder()[slot] = original index of the triangle in that slot.
  std::span<const uint32_t> triangleOrder() const { return originalIndex_; }
  // Layer mask of each slot; empty when built without layers (all layers).
  std::span<const uint32_t> triangleLayers() const { return layers_; }
  uint32_t layersOfSlot(uint32_t slot) const {
    return layers_.empty() ? kOctreeAllLayers : layers_[slot];
  }
  bool isLeaf(uint32_t node) const { return links_[node].childCount == 0; }
  uint32_t childCount(uint32_t node) const { return links_[node].childCount; }
  // Children of `node`: firstChild(n) + i for i < childCount(n), or equivalently
  // for (c = firstChild(n); c != kOctreeInvalidIndex; c = nextSibling(n, c)).
  uint32_t firstChild(uint32_t node) const {
    return isLeaf(node) ? kOctreeInvalidIndex : links_[node].firstChild;
  }
  uint32_t nextSibling(uint32_t parent, uint32_t child) const {
    return child + 1 < links_[parent].firstChild + links_[parent].childCount ? child + 1
                                                                             : kOctreeInvalidIndex;
  }
  // The node's quantized bounds: contain every triangle of its subtree; loose by less than one
  // quantization step (quantizationStep()) on each side.
  Aabb nodeBounds(uint32_t node) const;
  // The bounds of all of node's children at once, plane by plane: child firstChild(node) + i has
  // min[axis][i] and max[axis][i], the very floats nodeBounds() gives (the children are one
  // block of the quantized planes: one pass over 6 x childCount(node) values). Entries past
  // childCount(node) are left as they were. O(children).
  void childBounds(uint32_t node, float (&min)[3][kOctreeMaxChildren],
                   float (&max)[3][kOctreeMaxChildren]) const {
    const uint32_t first = links_[node].firstChild, count = links_[node].childCount;
    const uint16_t* q = &qBounds_[6 * static_cast<size_t>(first)];
    for (uint32_t k = 0; k < 3; ++k) {
      const float origin = qOrigin_[static_cast<int>(k)], scale = qScale_[static_cast<int>(k)];
      for (uint32_t i = 0; i < count; ++i) {
        // Exactly dequantize(): origin + float(q) * scale.
        min[k][i] = origin + static_cast<float>(q[k * count + i]) * scale;
        max[k][i] = origin + static_cast<float>(q[(k + 3) * count + i]) * scale;
      }
    }
  }
  // Size of one quantization step per axis (the level's bounding box / 65,535).
  glm::vec3 quantizationStep() const { return qScale_; }
  // The node's own triangles (those kept in it), and its whole subtree (own + descendants').
  TriangleRange ownRange(uint32_t node) const {
    return {links_[node].firstTriangle, links_[node].ownEnd - links_[node].firstTriangle};
  }
  // O(depth): follows the last child down to the end of the subtree's slot range.
  TriangleRange subtreeRange(uint32_t node) const;
  uint32_t nodeLevel(uint32_t node) const { return links_[node].level; }  // root = 0

  // ---- Where a triangle lives (picking, debug drawing, tools; no query uses these) -----------
  // The slot holding original triangle `triangle`, or kOctreeInvalidIndex when it is not stored
  // (index out of range, or a zero-area triangle the build dropped). O(n): a scan of
  // triangleOrder(), because no inverse permutation is kept (4 bytes per triangle that no query
  // needs). Meant for one pick per click, not per frame.
  uint32_t slotOfTriangle(uint32_t triangle) const;
  // The nodes from the root down to the node that owns `slot` (the node whose ownRange() holds
  // it; in the final form always a leaf), root first, into the caller's outPath. Returns the
  // path's length (the root alone: 1), 0 when slot >= triangleCount(); when it exceeds
  // outPath.size() only the first outPath.size() nodes are written. kOctreeMaxPathLength
  // entries always suffice. O(depth x kOctreeMaxChildren): one descent that picks the child
  // whose subtree slot range holds the slot; no allocation.
  uint32_t pathToSlot(uint32_t slot, std::span<uint32_t> outPath) const;
  // Bounds of the whole level: the exact min/max of the stored vertices (empty box when empty).
  Aabb bounds() const { return rootBounds_; }
  const OctreeBuildParams& params() const { return params_; }
  const OctreeBuildReport& lastReport() const { return report_; }
  // Names this build of the tree: every build, rebuild and clear takes a new id from one
  // process-wide counter (thread-safe), so no two builds share one (0: never built). A copy keeps
  // its source's id: it holds the same tree. Caches derived from an octree (the props cull's
  // cell links) compare it to notice a rebuild instead of comparing the trees.
  uint64_t buildId() const { return buildId_; }

  // Bytes held: node links and bounds, triangles, original indices, layers (sizes, not capacities).
  size_t bytes() const;
  // A 64-bit hash of everything a build produces: node links, quantized bounds planes and their
  // slots, the quantization grid and level bounds, triangle blocks, degenerate flags, original
  // indices and layers (each array's length included). Two octrees with equal hashes hold the
  // same tree, bit for bit, with overwhelming probability. For tests and benchmarks that check a
  // change to the build leaves its output unchanged (octree_bench --tree-hash); O(bytes()).
  uint64_t structureHash() const;

  // Checks every invariant: every node but the root is the child of exactly one node, children's
  // levels not above their parent's, children's bounds inside the parent's, every triangle
  // inside its node's bounds, bounds as tight as the quantization allows, own and child ranges
  // partition the slots in preorder, the permutation is a permutation; and the build rules
  // against params(): no node deeper than maxLevel, the looseness rule (a triangle in a node of
  // level L >= 1 passed its parent's test, so its bounding box's largest edge is at most
  // looseness x the level-L cell's edge, the cell edges being the root cube's halved per level),
  // and the leaf rule (a leaf holding more than trianglesPerLeaf triangles is at maxLevel, or its
  // centroids coincide, or it holds triangles kept in their node: then at most 8 x (minimum
  // child size - 1) of them are small enough to have gone down at every level above maxLevel).
  // Returns false with a message. O(n). The exact assignment of every triangle to its leaf is
  // checked in the tests against an independent recursive build (octree_build_rules_test.cpp).
  bool validate(std::string* outError = nullptr) const;

 private:
  friend struct OctreeTestAccess;  // tests corrupt an octree on purpose to see validate() fail
  bool validateBuildRules(std::string* outError) const;

  template <class F>
  static bool thunk(void* context, uint32_t triangle) {
    F& f = *static_cast<std::remove_reference_t<F>*>(context);
    if constexpr (std::is_void_v<decltype(f(triangle))>) {
      f(triangle);
      return true;
    } else {
      return static_cast<bool>(f(triangle));
    }
  }
  // A query box in grid steps (octree_grid.h): a node's box overlaps [lo, hi] exactly when its
  // steps overlap [qlo, qhi] on every axis. Returns false when nothing can overlap.
  bool quantizeQueryBox(const glm::vec3& lo, const glm::vec3& hi, uint16_t (&qlo)[3],
                        uint16_t (&qhi)[3]) const;
  // Depth-first preorder walk shared by the overlap queries (octree_query.cpp).
  template <class NodeTest, class LaneTest, class TriTest, class Report>
  uint32_t walkOverlap(NodeTest&& nodeTest, LaneTest&& laneTest, TriTest&& triTest, Report&& report,
                       uint32_t layerMask, QueryStats* ioStats) const;
  // walkOverlap over the nodes a query box [bmin, bmax] overlaps: the box quantized to grid
  // steps once (QueryBoxSteps), the node test shared by every box-bounded query.
  template <class LaneTest, class TriTest, class Report>
  uint32_t walkQueryBox(const glm::vec3& bmin, const glm::vec3& bmax, LaneTest&& laneTest,
                        TriTest&& triTest, Report&& report, uint32_t layerMask,
                        QueryStats* ioStats) const;
  // The push-outs' pass: every triangle whose bounding box overlaps [bmin, bmax] goes to
  // contact(slot), which offers its contact (resolvePushOut's DeepestContact).
  template <class Contact>
  void offerBoxContacts(const glm::vec3& bmin, const glm::vec3& bmax, Contact&& contact,
                        uint32_t layerMask, QueryStats* ioStats) const;
  // The eight-lane ray walk both AVX2 ray queries share (octree_query_avx2.cpp): nodes nearest
  // first (Nearest) or in any order, the slab test against `bound` (which the caller lowers as
  // it finds hits), and onPair(b, b1, lanes) for each pair of triangle blocks of a visited node's
  // own range, the layer mask applied; onPair returns false to leave the node. Returns the nodes
  // visited; adds the triangles tested to st.
  template <bool Nearest, class OnPair>
  uint32_t rayWalk8(const glm::vec3& origin, const glm::vec3& dir, uint32_t layerMask,
                    const float& bound, QueryStats& st, QueryTrace* trace, OnPair&& onPair) const;
  // raycast() on the eight-lane kernels (octree_query_avx2.cpp); called only when
  // octreeSimd() is kAvx2.
  bool raycastAvx2(const glm::vec3& origin, const glm::vec3& dir, float tMax, uint32_t layerMask,
                   RayHit& outHit, QueryStats* ioStats) const;
  // rayAny() on the eight-lane kernels, nearest child first (octree_query_avx2.cpp).
  bool rayAnyAvx2(const glm::vec3& origin, const glm::vec3& dir, float tMax, uint32_t layerMask,
                  QueryStats* ioStats) const;
  // Nearest-first walk shared by the sweeps (octree_query.cpp).
  template <class SweepTri>
  bool sweepWalk(const glm::vec3& boxCenter, const glm::vec3& boxHalf,
                 const glm::vec3& displacement, uint32_t mask, SweepTri&& sweepTri,
                 SweepHit& outHit, QueryStats* ioStats) const;
  // Lanes of block b that are in layerMask, among `lanes`.
  uint32_t laneLayers(uint32_t b, uint32_t lanes, uint32_t layerMask) const {
    if (layers_.empty()) return lanes;
    uint32_t m = 0;
    for (uint32_t i = 0; i < 4; ++i) {
      if ((lanes >> i) & 1u) m |= ((layers_[4 * b + i] & layerMask) != 0 ? 1u : 0u) << i;
    }
    return m;
  }
  // Dequantized bounds plane k of node i (the same float expression the SIMD traversal uses).
  float dequantize(uint32_t k, uint32_t q) const;
  // The build proper, from any input (octree_build.cpp). r.degenerateTriangles and
  // r.droppedTriangles count what this build found and dropped.
  struct BuildSource;
  void clearStorage();  // clear() without taking a build id (a build takes its own, once)
  OctreeBuildReport buildFrom(const BuildSource& source, uint32_t inputTriangles,
                              const OctreeBuildParams& params, double startMs);

  // Quantized bounds, stored by block of children (the root is a block of one): the block of
  // nodes f .. f + c - 1 holds its planes at qBounds_[6 f ..  6 (f + c)), plane k (0..2: min x,
  // y, z; 3..5: max x, y, z) of node f + i at qBounds_[6 f + k c + i]. Eight trailing entries
  // leave room for an 8-lane load past the last block.
  std::vector<uint16_t> qBounds_;
  // Per node: its lane in its block (bits 0-3) and the block's size - 1 (bits 4-7), so that
  // nodeBounds() finds a node's planes without its parent.
  std::vector<uint8_t> boundsSlot_;
  size_t boundsIndex(uint32_t node, uint32_t k) const {
    const uint32_t lane = boundsSlot_[node] & 0xFu;
    const uint32_t count = (boundsSlot_[node] >> 4) + 1u;
    return 6 * static_cast<size_t>(node - lane) + k * count + lane;
  }
  glm::vec3 qOrigin_{0.0f};  // bounds = qOrigin_ + q * qScale_ (per axis)
  glm::vec3 qScale_{0.0f};
  glm::vec3 qInvScale_{0.0f};                // 1 / qScale_ (0 on a flat axis), for query boxes
  Aabb rootBounds_;                          // exact bounds of every stored triangle
  uint64_t buildId_ = 0;                     // see buildId()
  std::vector<OctreeNodeLinks> links_;       // node structure (children contiguous)
  std::vector<OctreeTriangleBlock> blocks_;  // slot order, four slots per block
  std::vector<uint8_t> degenerateLanes_;     // per block: bit i set when lane i is degenerate
  std::vector<uint32_t> originalIndex_;      // slot -> original triangle index
  std::vector<uint32_t> layers_;             // slot -> layer mask; empty = all layers
  OctreeBuildParams params_;
  OctreeBuildReport report_;
};

}  // namespace ofps
