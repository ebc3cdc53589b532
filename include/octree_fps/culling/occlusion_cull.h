#pragma once
// Frustum and occlusion culling of the level's octree in one front-to-back traversal (Greene,
// Kass and Miller, "Hierarchical Z-Buffer Visibility", SIGGRAPH 1993: walk the octree nearest
// first, skip every node whose box is hidden behind what is already drawn, and draw the visible
// leaves' triangles into the depth buffer as occluders).
//
// Each node is classified against the frustum exactly as cullOctree does it (classifyAabb on
// Octree::nodeBounds with plane masking: the same planes, the same float operations; children
// four at a time by their parent, with detail::classifyAabb4, which decides alike), so the
// frustum-only answer is the same node set. A node that is not outside is then tested against
// the OcclusionBuffer (occlusion_buffer.h); a hidden node is skipped with its subtree. In a
// visible node, each drawn triangle is tested too (OcclusionBuffer::trianglesHidden4, four at a
// time straight from the octree's triangle blocks, against the buffer as it was before the
// node's occluders, so the answer does not depend on the order within the node;
// OcclusionCullParams::testTriangles), and the visible ones are drawn and
// rasterized as occluders before the traversal goes on. Children are visited nearest first:
// sorted by the squared distance from the eye to their box (0 for a box holding the eye), ties
// by node index, so the answer is deterministic. Occluders: every drawn triangle (or the subset
// the caller marks) found visible; those whose screen rectangle (from their hidden test) holds no
// whole pixel are skipped before any setup, and those that cannot hold a whole pixel are rejected
// after a few operations (bench/micro/OCCLUSION_RESULTS.md measures the choice). Two occluders of a
// node that share an edge (paired at build) go in together when both are visible
// (OcclusionBuffer::rasterizeTrianglePair), so the pixels along their shared edge occlude too.
//
// Never hides a visible triangle: a node is dropped only when its box, which contains every
// triangle of its subtree, is hidden, and a triangle only when its own screen rectangle is
// (occlusion_buffer.h's argument for both), and only triangles that are
// drawn (and opaque: the caller's occluder mask) are rasterized, so every occluder is really in
// the image. Order affects only how much is culled, never whether a visible triangle is kept.
//
// Temporal coherence (on by default; OcclusionCullParams::temporalCoherence): in a walk, what was
// visible in the last frame is nearly all visible again, and on open views four in five box and
// triangle tests answer "visible" (bench/micro/OCCLUSION_RESULTS.md). So a node that drew in the
// previous cull() (itself, or a node below it) skips its box test (its re-test comes every
// retestPeriod frames, staggered by node so that the work spreads), its triangles found visible
// last time skip their hidden test, and of those only the ones that raised a pixel of the buffer
// (made it nearer) as occluders last time are rasterized again (the others were too small on screen
// or behind nearer occluders). Still never hides a visible triangle: the history only ever skips a
// test (the node or triangle is drawn) or an occluder; every node or triangle that is NOT drawn was
// tested against this frame's buffer, which holds only this frame's opaque, drawn triangles at
// conservative depths, whichever of them were rasterized (the argument above does not need every
// occluder). What it can cost is culling: a node that became hidden is drawn until its re-test (at
// most retestPeriod - 1 frames), and a triangle that grew on screen joins the occluders at its
// node's next full test. Without the occluder prepass (below) the drawn set is nearly always a
// superset of a fresh cull's at the same pose, but not exactly: an occluder pair's quad writes the
// looser of its two planes' depths over all its pixels, so where the fresh cull rasterizes a pair
// and the history skips one of its triangles, the other one alone can leave a pixel nearer and
// hide a triangle the fresh cull keeps (never a visible one: the repository's tests/culling
// OcclusionCoherence checks every frame of scripted walks against the reference rasterizer). With
// the prepass, the history's cull usually draws fewer triangles than a fresh one.
//
// Occluder prepass (on by default with the history; OcclusionCullParams::occluderPrepass): before
// the traversal, the previous cull's occluders that raised a pixel and were found visible go into
// the buffer, in the order they went in then (nearest first, mostly), so that every test of this
// cull already sees them; those found hidden this time, or not visited, drop out of the list. It
// needs no new argument: the buffer still holds only drawn, opaque triangles of the level at
// conservative depths, and the argument above never asked that an occluder be visible in this
// frame. A triangle hidden behind others hides only what those others hide too; one outside the
// view is clipped away; the culler never drops a truly visible triangle, so at every pixel the
// nearest surface of the level is drawn, and whatever lies behind any drawn opaque triangle there
// cannot be seen.
//
// Frame and units: world space; viewProjection as for OcclusionBuffer::begin (a perspective
// projection times a view, GLM column-major, OpenGL clip space). Triangle counts are in drawn
// triangles (DrawRanges units: invisible collider triangles are not counted).
// Thread-safety: an OcclusionCuller holds the buffer and scratch of one traversal: one per
// thread. The octree and DrawRanges are only read. Ownership of the history: it belongs to one
// view; keep one culler per camera culled every frame (two views culled in turn through one
// culler look like jumps to each other, and the history would never be used).
// Allocation: build() sizes everything; cull() allocates nothing once the caller's DrawRunList
// has grown to its largest size (it is cleared and refilled each frame).
// Complexity: O(nodes visited + occluder pixels + pixels of the tested boxes' rectangles), plus
// O(r log r) to sort the r visible runs into index-buffer order.

#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/culling/occlusion_buffer.h"

namespace ofps {

class Octree;

struct OcclusionCullParams {
  // Count what the frustum alone would draw (stats trianglesDrawnFrustumOnly) by walking hidden
  // subtrees with the frustum test only. Costs time only where the view is occluded; turn it off
  // when nobody looks at the figure.
  bool countFrustumOnly = true;
  // Also test each drawn triangle of a visible node against the buffer (its three vertices'
  // screen rectangle and nearest depth) and leave hidden ones out of the runs and of the
  // occluders. More, shorter runs; far fewer triangles where a visible node is large (the
  // octree keeps large triangles in large nodes). false: whole nodes only.
  bool testTriangles = true;
  // With testTriangles: once every occluder is in, test each drawn triangle again against the
  // whole buffer. The first test of a triangle sees only the occluders of nodes visited before
  // its own (nearer ones, mostly), so a triangle behind a wall of its own node, or of a node
  // visited later, passes it; the second test leaves such triangles out (a quarter to a half of
  // those drawn in excess of the truly visible ones along the benchmark walks:
  // bench/micro/OCCLUSION_RESULTS.md). Correct because the buffer only ever holds real opaque
  // surfaces at conservative depths, and a triangle's own pixels never hide it (they are not
  // strictly nearer than its nearest point). Costs one more hidden test per drawn triangle: along
  // the benchmark walks (with the occluder prepass) 15-30 % of the triangles drawn for 0-30 % more
  // time in the pass, so it is off by default (the GPU draws a few hundred extra triangles faster
  // than the CPU tests them again).
  bool retestDrawn = false;
  // OcclusionBuffer::setMinOccluderInradius for this pass (pixels; 0.5 = every triangle that can
  // hold a whole pixel is an occluder).
  double minOccluderInradius = 0.5;
  // Occluder budget: at most this many triangles rasterized per pass, the nearest visible ones
  // first (traversal order). The rest are still tested and drawn, just not rasterized.
  uint32_t maxOccluders = 0xFFFFFFFFu;
  // Frame-to-frame coherence (the idea of Bittner, Wimmer, Piringer and Purgathofer, "Coherent
  // Hierarchical Culling", Eurographics 2004, for a CPU buffer): a node that drew in the
  // previous cull() (itself or below it) is assumed visible again without its box test, except on
  // its re-test frame (every retestPeriod frames, staggered over the nodes); in such a node, the
  // triangles found visible last time are drawn without their hidden test, and of those, only the
  // ones that raised a pixel as occluders last time are rasterized (the others were too small on
  // screen or behind nearer occluders, and most likely are again). Still conservative: an
  // assumption only skips a test (the node or triangle is drawn) or an occluder; it never hides
  // anything (see "Temporal coherence" above). The history is dropped when the eye moves more than
  // historyMaxEyeMove metres between two cull() calls (a teleport, a respawn) and by build() /
  // resetHistory(). false: every cull() starts afresh.
  bool temporalCoherence = true;
  uint32_t retestPeriod = 8;  // frames; 1 = every node tested every frame
  // With temporalCoherence: before the traversal, rasterize the occluders of the previous cull
  // that raised a pixel and were found visible (the idea of two-pass occlusion culling: what was
  // visible last frame is the best guess for this frame's occluders). The nearest node's first
  // test then sees the whole likely buffer instead of the occluders of the nodes visited before
  // it. Along the benchmark walks it draws 6-18 % fewer triangles for 4-7 % fewer instructions
  // (bench/micro/OCCLUSION_RESULTS.md, round 8). Conservative for any list: see "Occluder
  // prepass" above.
  bool occluderPrepass = true;
  float historyMaxEyeMove = 1.0f;  // metres per cull() call
  // Work budget of one cull(), in OcclusionWork units (about a nanosecond each on the reference
  // machine: see OcclusionWork). The occlusion test is worth its cost where walls hide much; on a
  // view across open terrain most of the frustum is visible, and testing and rasterizing tens of
  // thousands of visible triangles costs more than the GPU takes to draw the third of them it
  // would leave out (measured in bench/micro/OCCLUSION_RESULTS.md, round 10, "What the mean
  // hid"). So the cull meters its work and degrades in two steps, nearest nodes having been
  // served first:
  // - past three quarters of the budget it rasterizes no more occluders and tests no more
  //   triangles (a visible node draws whole; a hidden subtree still costs only its box test);
  // - past all of it, every node not yet reached is drawn as DrawRanges::cull would draw it (a
  //   subtree wholly inside the frustum as one run), without a box test and without a history
  //   stamp (so on views that keep running out, the far nodes get no temporal coherence: they
  //   are drawn, not tested, anyway).
  // The meter is read at every fourth node, so the work can pass the budget by up to four nodes'
  // work (each a box test, its children's frustum tests, and its own triangles' tests and
  // occluders: a few µs at most on the shipped levels). maxOccluders is a separate limit (which
  // ever comes first). Props tested afterwards with boxHidden() are the caller's work, not
  // metered. Only ever draws more, so never hides a visible triangle; the meter is a pure function
  // of the inputs (counts, no clock), so culls are reproducible and the instruction sets agree.
  // 0: the frustum cull alone (no box tested); kOcclusionNoBudget: no budget. What the default
  // costs on the shipped levels, and how the slowest pass scales with the budget, is measured in
  // bench/micro/OCCLUSION_RESULTS.md, round 10 (installed with the package's documentation).
  uint32_t workBudget = 600'000;
};

// OcclusionCullParams::workBudget's "no budget": the pass never degrades.
inline constexpr uint32_t kOcclusionNoBudget = 0xFFFFFFFFu;

// What OcclusionCullParams::workBudget meters, in units of about a nanosecond of the reference
// machine (a 2.6 GHz x86-64 VM with AVX2): weights fitted by least squares to the CPU time of
// each frame of scripted walks on the shared levels, with and without the history (the fit and
// how well it predicts: bench/micro/OCCLUSION_RESULTS.md round 10). Deterministic: counts, not
// a clock.
struct OcclusionWork {
  static constexpr uint32_t kNodeClassified = 30;  // a node's box against the frustum planes
  static constexpr uint32_t kBoxTested = 60;       // a node's box against the buffer
  static constexpr uint32_t kTriangleTested = 18;  // a drawn triangle of a visible node, tested
  static constexpr uint32_t kTriangleAssumed = 3;  // one drawn untested (temporal coherence)
  static constexpr uint32_t kOccluder = 180;       // a triangle rasterized (setup and rows)
  static constexpr uint32_t kPixelEighths = 2;     // per pixel covered, in eighths of a unit
};

// Counters of one or more cull() calls (added to, never reset by cull()).
struct OcclusionCullStats {
  uint32_t nodesTested = 0;                // node boxes classified against the frustum
  uint32_t nodesFrustumCulled = 0;         // of those, outside the frustum
  uint32_t nodesOcclusionTested = 0;       // node boxes tested against the occlusion buffer
  uint32_t nodesOccluded = 0;              // of those, hidden (skipped with their subtrees)
  uint32_t trianglesDrawnFrustumOnly = 0;  // what DrawRanges::cull would draw (countFrustumOnly)
  uint32_t trianglesDrawn = 0;             // what this cull draws (out->triangles)
  uint32_t trianglesOccluded = 0;  // triangles of visible nodes hidden one by one (testTriangles)
  // Triangles of visible nodes left out one by one because they lie outside the view frustum
  // (testTriangles; only in nodes whose box straddles a frustum plane): the frustum-only cull,
  // which works node by node, draws them.
  uint32_t trianglesOutsideFrustum = 0;
  uint32_t occludersRasterized = 0;  // triangles sent to the buffer
  uint32_t occluderPixels = 0;       // pixels they covered (overdraw included)
  // Temporal coherence (OcclusionCullParams::temporalCoherence): nodes drawn without their box
  // test, and triangles without their own test, because they were visible in the previous cull.
  uint32_t nodesAssumedVisible = 0;
  uint32_t trianglesAssumedVisible = 0;
  // Of occludersRasterized, those the prepass put in before the traversal
  // (OcclusionCullParams::occluderPrepass).
  uint32_t occludersPrepassed = 0;
  // OcclusionCullParams::workBudget: the work metered (OcclusionWork units; the frustum cull past
  // the budget not included), the culls that spent three quarters of it (box tests only from
  // there), those that spent all of it (the frustum cull from there), and the nodes those drew
  // without an occlusion test (a subtree wholly inside the frustum counts as one).
  uint64_t work = 0;
  uint32_t budgetBoxesOnly = 0;
  uint32_t budgetExhausted = 0;
  uint32_t nodesPastBudget = 0;

  // Adds every counter of `o` (one cull's) to these: the totals over several culls.
  OcclusionCullStats& operator+=(const OcclusionCullStats& o);
};

class OcclusionCuller {
 public:
  // The occlusion buffer's resolution (OcclusionBuffer's constructor says why 256 x 128).
  explicit OcclusionCuller(uint32_t width = 256, uint32_t height = 128);

  // Call after every octree (re)build and DrawRanges::build (ranges must be built for `octree`).
  // occluders[i] != 0 marks ORIGINAL triangle i as an occluder; leave alpha-tested or blended
  // triangles out (they do not hide what is behind them). Empty = every drawn triangle. Only
  // drawn triangles ever occlude. Pairs occluders that share an edge, each with one of the next
  // 32 slots of its node. O(32 x triangles + nodes); allocates.
  void build(const Octree& octree, const DrawRanges& ranges,
             std::span<const uint8_t> occluders = {});

  // One frame: the visible runs (sorted and merged, as DrawRanges::cull writes them) into *out,
  // which is cleared first. ioStats, when given, receives the counters.
  void cull(const Octree& octree, const DrawRanges& ranges, const glm::mat4& viewProjection,
            DrawRunList* out, OcclusionCullStats* ioStats = nullptr,
            const OcclusionCullParams& params = {});

  // Forget what earlier cull() calls found visible (temporal coherence): call it on a camera cut
  // that moves the eye less than OcclusionCullParams::historyMaxEyeMove (a cut to another view
  // from the same spot). Costs nothing: the history is stamped by frame.
  void resetHistory() { historyValid_ = false; }

  // Nodes whose own triangles the last cull() drew, in visit order (nearest first).
  std::span<const uint32_t> visibleNodes() const { return visible_; }
  // The occlusion buffer as the last cull() left it (debug view).
  const OcclusionBuffer& buffer() const { return buffer_; }

  // True when the closed world-space box is certainly hidden behind the occluders of the last
  // cull() (OcclusionBuffer::boxHidden, with the same argument): for objects that are not in
  // the octree, such as props, tested after the level's cull with the SAME viewProjection. They
  // are not occluders themselves. Before any cull() it returns false (an empty buffer hides
  // nothing). Not const: the buffer refreshes its tile levels lazily. O(its screen rectangle).
  bool boxHidden(const Aabb& box) { return buffer_.boxHidden(box); }

 private:
  uint32_t frustumOnlyTriangles(const Octree& octree, const Frustum& frustum, uint32_t node,
                                uint32_t mask) const;

  OcclusionBuffer buffer_;
  struct SlotRun {
    uint32_t first, count;  // triangle slots
  };
  static constexpr uint8_t kSlotDrawn = 1, kSlotOccluder = 2, kSlotHidden = 4, kSlotPairDone = 8;
  // History (temporal coherence): found visible when last tested or drawn; raised a pixel as an
  // occluder when last tried. Scratch: drawn this frame without its hidden test (no rectangle).
  static constexpr uint8_t kSlotWasVisible = 16, kSlotWasOccluder = 32, kSlotUntested = 64;
  // Scratch: rasterized by this cull's prepass (OcclusionCullParams::occluderPrepass).
  static constexpr uint8_t kSlotPrepassed = 128;
  // occluders_ entries: a slot, with this bit when it went in with its pair partner.
  static constexpr uint32_t kOccluderPair = 0x80000000u;
  // Rasterizes the occluder in `slot` (with its pair partner when both are visible). rects: the
  // screen rectangles of the node's tested triangles, indexed by slot - rectFirst (their hidden
  // tests computed them; the node's pair partners are in the node too), or null when the node's
  // triangles were not tested.
  template <class Isa>
  void rasterizeOccluderT(const Octree& octree, uint32_t slot, const OcclusionCullParams& params,
                          OcclusionCullStats* st, const OcclusionBuffer::ScreenRect* rects,
                          uint32_t rectFirst);
  // OcclusionCullParams::retestDrawn: the runs' drawn triangles tested again, the hidden ones cut
  // out of runs_.
  template <class Isa>
  void retestDrawnT(const Octree& octree, OcclusionCullStats* st);
  // cull() for one instruction set (occlusion_isa_inl.h); defined in occlusion_cull_inl.h with
  // its steps below.
  template <class Isa>
  void cullT(const Octree& octree, const DrawRanges& ranges, const glm::mat4& viewProjection,
             DrawRunList* out, OcclusionCullStats* ioStats, const OcclusionCullParams& params);
  struct WalkEntry;  // a node on the traversal's stack, classified against the frustum
  // This cull's view of the history (temporal coherence).
  struct History {
    bool coherent = false;   // the history holds (the eye moved little since the last cull)
    uint32_t lastFrame = 0;  // the stamp of a node visible in the last cull; 0: none
    uint32_t period = 1;     // OcclusionCullParams::retestPeriod, at least 1
    uint32_t phaseMask = 0;  // period - 1 for a power of two, else 0 (a division then)
  };
  // Starts a cull's history (a new frame stamp; last cull's occluders become the prepass list).
  History beginHistory(const glm::dvec3& eye, const OcclusionCullParams& params);
  // The node was visible in the last cull and is not due for its periodic re-test.
  bool assumedVisible(const History& h, uint32_t node) const;
  // The work budget's meter: OcclusionWork's weights over the counters so far.
  static uint64_t workSpent(const OcclusionCullStats& st, uint64_t trianglesVisited);
  // Past the work budget: the node drawn as the frustum cull would draw it.
  void drawPastBudget(const Octree& octree, const WalkEntry& e, OcclusionCullStats& st);
  void prefetchOwnTriangles(const Octree& octree, uint32_t node) const;
  // A visible node's own triangles: each tested against the buffer, the visible ones drawn
  // (drawVisibleRunsT: runs, occluders rasterized).
  template <class Isa>
  void testOwnTrianglesT(const Octree& octree, SlotRun own, bool assumed, uint32_t mask,
                         const OcclusionCullParams& params, OcclusionCullStats& st);
  template <class Isa>
  void drawVisibleRunsT(const Octree& octree, SlotRun own, const OcclusionCullParams& params,
                        OcclusionCullStats& st);
  // The node's children inside the frustum onto the stack, nearest on top; returns the new top.
  template <class Isa>
  uint32_t pushChildrenNearestFirstT(const Octree& octree, const WalkEntry& e,
                                     const Frustum& frustum, const float (&eye)[3],
                                     WalkEntry* stack, uint32_t top, OcclusionCullStats& st) const;
  // The prepass's scratch bits off the slots the traversal did not reach.
  void clearPrepassScratch();
  uint32_t flagWord(uint32_t block) const;  // a block's four slot flags, lane i in byte i
  void storeFlagWord(uint32_t block, uint32_t w);
  // Per triangle slot: kSlot* bits (kSlotHidden: scratch); paddedSlots(triangleCount()) long.
  std::vector<uint8_t> slotFlags_;
  static uint32_t paddedSlots(uint32_t slots) { return (slots + 3u) & ~3u; }
  // Occluder pairs (OcclusionBuffer::rasterizeTrianglePair): on the first slot of a pair, the
  // second slot, and which edge of the first (bits 0-1) and which corner of the second (bits
  // 2-3) are the shared edge and the far corner. kOctreeInvalidIndex: no pair.
  std::vector<uint32_t> pairPartner_;
  std::vector<uint8_t> pairCode_;
  std::vector<uint32_t> subtreeEnd_;  // per node: one past the last slot of its subtree
  // Per node: drawn triangles among its own slots, and in its whole subtree (DrawRanges units).
  // Kept here, indexed by node like the octree's links (siblings side by side), so that the
  // traversal can prefetch them with the links instead of reading DrawRanges' per-slot prefix
  // counts at two scattered slots per node.
  std::vector<uint32_t> ownDrawn_, subtreeDrawn_;
  // Scratch, as many entries as the largest node's own triangles (sized by build, so that cull
  // never allocates): the screen rectangles of the current node's triangles, from their hidden
  // tests, for the occluder precheck.
  std::vector<OcclusionBuffer::ScreenRect> nodeRects_;
  // Temporal coherence: per node, the frame (cull() call) in which it was last found visible;
  // frame_ counts the calls; the eye of the previous call, and whether the history holds.
  std::vector<uint32_t> nodeVisibleFrame_;
  uint32_t frame_ = 0;
  glm::dvec3 lastEye_{0.0};
  bool historyValid_ = false;
  // The occluders that raised a pixel and were found visible, in the order they went in:
  // this cull's (filled as it goes) and the last one's (the prepass's list).
  std::vector<uint32_t> occluders_, lastOccluders_;
  template <class Isa>
  void prepassT(const Octree& octree, const OcclusionCullParams& params, OcclusionCullStats* st);
  // A slot the prepass put in, met visible by the traversal (with or without triangle tests):
  // carried to the next cull's list if it raised a pixel; its scratch bits cleared.
  void keepPrepassed(uint32_t slot);
  // Rasterizes the triangle in `slot`, or, with `pair`, the quad of it and its pair partner;
  // counts it in *st and returns whether it raised a pixel.
  template <class Isa>
  bool rasterizeSlotT(const Octree& octree, uint32_t slot, bool pair, OcclusionCullStats* st);
  std::vector<uint32_t> visible_;    // nodes drawn by the last cull, visit order
  std::vector<SlotRun> runs_;        // scratch: visible slot runs of the last cull
  std::vector<SlotRun> runsSorted_;  // scratch: runs_ sorted by first slot (radix passes)
};

// The runs of `all` that are not in `part` (drawn-triangle units, sorted and merged, as
// DrawRunList holds them) into *out, which is cleared first: with all = the frustum-only runs
// and part = the occlusion cull's, the triangles occlusion culled (the frozen-view debug draw).
// Both lists must be sorted with disjoint runs, as DrawRanges::cull and cull() write them;
// `part` need not lie inside `all`. O(runs of both); allocates only to grow *out.
void subtractRuns(const DrawRunList& all, const DrawRunList& part, DrawRunList* out);

}  // namespace ofps
