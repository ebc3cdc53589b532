// occlusion_oracle: the visibility floor of occlusion culling along the occlusion bench's scripted
// walks. No culler that never hides a visible triangle can draw fewer triangles than are visible,
// so the visible share of the frustum-only triangles bounds from below every drawn / frustum-only
// ratio the occlusion goal is stated in.
//
// Per level, the frames are exactly those of BM_OcclusionWalk (occlusion_levels.h: the same floor
// spots, the same scripted walks). For every frame (every k-th with --step k):
//   F  triangles drawn by the frustum-only cull (DrawRanges::cull);
//   D  triangles drawn by OcclusionCuller::cull at its default resolution and parameters, with
//      history (temporal coherence, the default; this culler sees EVERY frame in order, measured
//      or not, so that its history is the bench's) and fresh (temporalCoherence = false);
//   V  distinct triangle ids in the image of the reference rasterizer
//      (tests/support/reference_renderer.h: exact, double precision, pixel centres, nearest wins)
//      at each --res resolution.
// Every visible id must be drawn by both cullers and by the frustum-only cull; a miss is printed
// to stderr and makes the exit status 1. Frames with F == 0 have no ratio and are left out of the
// per-frame ratios (counted); frames with V == 0 likewise for drawn / visible.
//
// Output: per level a markdown table of the per-frame ratios (mean, ratio of sums, p10 / p50 /
// p90, percentiles as the occlusion bench takes them: the sorted ratio at floor(q * (n - 1))),
// the mean triangle counts, and how much of the mean of per-frame ratios comes from frames where
// the history's cull draws most of the frustum.
// Results: bench/micro/OCCLUSION_RESULTS.md ("Round 6").
//
// --diagnose: instead, per level, every triangle that the default cull draws but the reference
// (at the first --res) does not show is put in one cause, with counterfactual tests that say what
// each change to the culler would remove (diagnoseLevel below).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <memory>
#include <regex>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "occlusion_levels.h"
#include "octree_fps/culling/draw_ranges.h"
#include "octree_fps/culling/occlusion_cull.h"
#include "support/reference_renderer.h"

namespace {

struct Resolution {
  int width = 0, height = 0;
  std::string label() const { return std::to_string(width) + " x " + std::to_string(height); }
};

// One ratio over the frames: the per-frame values (frames with a zero denominator left out) and
// the two sums.
struct RatioSeries {
  explicit RatioSeries(std::string label) : name(std::move(label)) {}

  std::string name;
  std::vector<double> ratios;
  double numeratorSum = 0.0, denominatorSum = 0.0;
  uint32_t skipped = 0;  // frames with a zero denominator

  void add(uint32_t numerator, uint32_t denominator) {
    numeratorSum += numerator;
    denominatorSum += denominator;
    if (denominator == 0) {
      ++skipped;
      return;
    }
    ratios.push_back(static_cast<double>(numerator) / denominator);
  }
  double mean() const {
    double sum = 0.0;
    for (double r : ratios) sum += r;
    return ratios.empty() ? 0.0 : sum / static_cast<double>(ratios.size());
  }
  double ratioOfSums() const { return denominatorSum > 0.0 ? numeratorSum / denominatorSum : 0.0; }
  double percentile(double q) const {
    if (ratios.empty()) return 0.0;
    std::vector<double> sorted = ratios;
    std::sort(sorted.begin(), sorted.end());
    return sorted[static_cast<size_t>(q * static_cast<double>(sorted.size() - 1))];
  }
};

// Marks the original triangle ids of a run list (set sized to the level's triangle count).
void markRuns(const ofps::DrawRunList& runs, std::span<const uint32_t> drawOrder,
              std::vector<uint8_t>* set) {
  std::fill(set->begin(), set->end(), uint8_t{0});
  for (size_t r = 0; r < runs.first.size(); ++r) {
    for (uint32_t i = 0; i < runs.count[r]; ++i) (*set)[drawOrder[runs.first[r] + i]] = 1;
  }
}

// Visible ids that `set` does not hold.
uint64_t countMissing(const std::vector<uint8_t>& visible, const std::vector<uint8_t>& set) {
  uint64_t missing = 0;
  for (size_t t = 0; t < visible.size(); ++t) missing += visible[t] != 0 && set[t] == 0 ? 1 : 0;
  return missing;
}

// Returns false when a visible triangle was culled (by either occlusion culler or the frustum).
bool measureLevel(const std::string& name, uint32_t step, const std::vector<Resolution>& res) {
  const auto start = std::chrono::steady_clock::now();
  ofps::bench::OcclusionLevel L;
  ofps::bench::loadOcclusionLevel(name, &L);
  if (!L.ok) {
    std::fprintf(stderr, "occlusion_oracle: %s\n", L.error.c_str());
    return false;
  }
  const uint32_t triangles = static_cast<uint32_t>(L.indices.size() / 3);
  const std::span<const uint32_t> drawOrder = L.ranges.drawOrder();

  ofps::OcclusionCuller history, fresh;
  history.build(L.octree, L.ranges);
  fresh.build(L.octree, L.ranges);
  const ofps::OcclusionCullParams historyParams;  // the default: temporal coherence on
  ofps::OcclusionCullParams freshParams;
  freshParams.temporalCoherence = false;

  std::vector<std::unique_ptr<ofps::test::ReferenceRenderer>> renderers;
  for (const Resolution& r : res) {
    renderers.push_back(std::make_unique<ofps::test::ReferenceRenderer>(r.width, r.height));
  }

  RatioSeries historyOverFrustum("drawn / frustum-only, history (default)");
  RatioSeries freshOverFrustum("drawn / frustum-only, fresh (no history)");
  std::vector<RatioSeries> visibleOverFrustum, historyOverVisible, freshOverVisible;
  for (const Resolution& r : res) {
    visibleOverFrustum.emplace_back("**visible / frustum-only, " + r.label() + "**");
    historyOverVisible.emplace_back("drawn (history) / visible, " + r.label());
    freshOverVisible.emplace_back("drawn (fresh) / visible, " + r.label());
  }
  std::vector<uint64_t> missHistory(res.size()), missFresh(res.size()), missFrustum(res.size());
  std::vector<double> visibleSum(res.size());
  double frustumSum = 0.0, historySum = 0.0, freshSum = 0.0;

  std::vector<uint8_t> frustumSet(triangles), historySet(triangles), freshSet(triangles), visible;
  ofps::DrawRunList frustumRuns, historyRuns, freshRuns;
  uint32_t measured = 0, emptyFrustum = 0;
  // The mean of per-frame ratios weighs a frame with a few hundred triangles in the frustum as
  // much as one with thousands: the frames where the history's cull draws most of the frustum
  // (kMostlyDrawn) are counted apart, to show what they weigh in the mean and what is visible
  // there.
  constexpr double kMostlyDrawn = 0.7;
  uint32_t mostlyFrames = 0;
  double mostlyFrustumSum = 0.0, mostlyRatioSum = 0.0, mostlyVisibleRatioSum = 0.0;
  for (size_t f = 0; f < L.walkFrames.size(); ++f) {
    const glm::mat4& vp = L.walkFrames[f];
    history.cull(L.octree, L.ranges, vp, &historyRuns, nullptr, historyParams);
    if (f % step != 0) continue;
    ++measured;
    fresh.cull(L.octree, L.ranges, vp, &freshRuns, nullptr, freshParams);
    L.ranges.cull(L.octree, ofps::Frustum::fromViewProjection(vp), &frustumRuns);
    const uint32_t F = frustumRuns.triangles;
    emptyFrustum += F == 0 ? 1 : 0;
    frustumSum += F;
    historySum += historyRuns.triangles;
    freshSum += freshRuns.triangles;
    historyOverFrustum.add(historyRuns.triangles, F);
    freshOverFrustum.add(freshRuns.triangles, F);
    markRuns(frustumRuns, drawOrder, &frustumSet);
    markRuns(historyRuns, drawOrder, &historySet);
    markRuns(freshRuns, drawOrder, &freshSet);
    for (size_t r = 0; r < res.size(); ++r) {
      renderers[r]->render(L.positions, L.indices, {}, vp);
      const uint32_t V = renderers[r]->markVisible(triangles, &visible);
      visibleSum[r] += V;
      if (r == 0 && F > 0 && historyRuns.triangles >= kMostlyDrawn * F) {
        ++mostlyFrames;
        mostlyFrustumSum += F;
        mostlyRatioSum += static_cast<double>(historyRuns.triangles) / F;
        mostlyVisibleRatioSum += static_cast<double>(V) / F;
      }
      visibleOverFrustum[r].add(V, F);
      historyOverVisible[r].add(historyRuns.triangles, V);
      freshOverVisible[r].add(freshRuns.triangles, V);
      const uint64_t mh = countMissing(visible, historySet), mf = countMissing(visible, freshSet),
                     mfr = countMissing(visible, frustumSet);
      if (mh + mf + mfr > 0) {
        std::fprintf(stderr,
                     "occlusion_oracle: MISS %s frame %zu at %s: visible but culled: %llu by the "
                     "history's cull, %llu by the fresh cull, %llu by the frustum cull\n",
                     name.c_str(), f, res[r].label().c_str(), static_cast<unsigned long long>(mh),
                     static_cast<unsigned long long>(mf), static_cast<unsigned long long>(mfr));
      }
      missHistory[r] += mh;
      missFresh[r] += mf;
      missFrustum[r] += mfr;
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const double n = measured > 0 ? measured : 1.0;
  std::printf("### %s\n\n", name.c_str());
  std::printf(
      "%u triangles; %zu walk frames, %u measured (--step %u), %u with nothing in the frustum "
      "(F = 0: no per-frame ratio); %.0f s.\n\n",
      triangles, L.walkFrames.size(), measured, step, emptyFrustum, seconds);
  std::printf("Triangles per measured frame (means): frustum-only %.0f, drawn with history %.0f, ",
              frustumSum / n, historySum / n);
  std::printf("drawn fresh %.0f", freshSum / n);
  for (size_t r = 0; r < res.size(); ++r) {
    std::printf(", visible at %s %.0f", res[r].label().c_str(), visibleSum[r] / n);
  }
  std::printf(".\n\n");

  std::printf("| ratio | mean of per-frame ratios | ratio of sums | p10 | p50 | p90 | frames |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  const auto row = [](const RatioSeries& s) {
    std::printf("| %s | %.3f | %.3f | %.3f | %.3f | %.3f | %zu |\n", s.name.c_str(), s.mean(),
                s.ratioOfSums(), s.percentile(0.1), s.percentile(0.5), s.percentile(0.9),
                s.ratios.size());
  };
  for (const RatioSeries& s : visibleOverFrustum) row(s);
  row(historyOverFrustum);
  row(freshOverFrustum);
  for (const RatioSeries& s : historyOverVisible) row(s);
  for (const RatioSeries& s : freshOverVisible) row(s);

  bool safe = true;
  if (!res.empty() && !historyOverFrustum.ratios.empty()) {
    const size_t frames = historyOverFrustum.ratios.size();
    const double others = static_cast<double>(frames - mostlyFrames);
    const double m = mostlyFrames > 0 ? mostlyFrames : 1.0;
    std::printf(
        "\nFrames where the history's cull draws >= %.0f %% of frustum-only: %u of %zu, with %.0f "
        "triangles in the frustum on average (the other frames: %.0f); they carry %.0f %% of the "
        "sum of the history's per-frame ratios; visible / frustum-only there (%s): %.3f on "
        "average.\n",
        kMostlyDrawn * 100.0, mostlyFrames, frames, mostlyFrustumSum / m,
        others > 0.0 ? (frustumSum - mostlyFrustumSum) / others : 0.0,
        100.0 * mostlyRatioSum / (historyOverFrustum.mean() * static_cast<double>(frames)),
        res[0].label().c_str(), mostlyVisibleRatioSum / m);
  }
  std::printf("\nVisible triangles culled (summed over the frames; must be 0):");
  for (size_t r = 0; r < res.size(); ++r) {
    std::printf(" %s: history %llu, fresh %llu, frustum %llu%s", res[r].label().c_str(),
                static_cast<unsigned long long>(missHistory[r]),
                static_cast<unsigned long long>(missFresh[r]),
                static_cast<unsigned long long>(missFrustum[r]), r + 1 < res.size() ? ";" : ".");
    safe = safe && missHistory[r] == 0 && missFresh[r] == 0 && missFrustum[r] == 0;
  }
  std::printf("%s\n\n", safe ? "" : " **VISIBLE TRIANGLES WERE CULLED.**");
  std::fflush(stdout);
  if (!safe) {
    std::fprintf(stderr, "occlusion_oracle: %s: VISIBLE TRIANGLES WERE CULLED (see above)\n",
                 name.c_str());
  }
  return safe;
}

// ---- --diagnose: why the occlusion cull draws triangles that are not visible -------------------
//
// Every triangle drawn by the history's cull (the default) but absent from the reference image at
// the first --res resolution ("drawn-invisible") is put in ONE cause, the first that applies:
//   history-node   the fresh cull (temporalCoherence = false) draws neither it nor any triangle
//                  of its node (mostly: the node or an ancestor is hidden there): drawn because
//                  the node was assumed visible;
//   history-tri    the fresh cull draws triangles of its node but hides this one: the triangle was
//                  assumed visible;
//   outside        its three vertices lie beyond one of the six frustum planes (clip space, double:
//                  x < -w, x > w, y < -w, y > w, z < -w or z > w): a per-triangle frustum test
//                  rejects it (the culler tests the frustum per node only);
//   near           a vertex is not beyond the near plane (clip w > 0 and z + w > 0, double, with a
//                  relative margin of 1e-9 of |z| + |w|): visible by rule;
//   off-screen     its image meets no on-screen pixel of the buffer in a positive area (its node
//                  is in the frustum, the triangle is not; the rectangle test calls an off-screen
//                  rectangle visible);
//   order          OcclusionBuffer::triangleHidden (the culler's test: vertex rectangle at the
//                  nearest vertex depth, in double) hides it in the fresh cull's FINAL buffer: it
//                  was tested before the occluders that hide it went in;
//   loose          not so, but the FOOTPRINT test on the final buffer does: every buffer pixel
//                  whose square meets the triangle's image in a positive area (> 1e-9 square
//                  pixels: the triangle clipped to the square, Sutherland-Hodgman in double) stores
//                  a value strictly larger than the triangle's largest 1 / w over that part (1 / w
//                  is affine on screen: the largest is at a vertex of the clipped polygon). What
//                  the rectangle and the single nearest depth lose;
//   crack-coplanar, crack-edge, crack-mixed, missing
//                  the footprint test fails on the final buffer but passes on the COMPLETE buffer:
//                  per pixel, over the front triangles the reference shows at the 4 x 4 sample
//                  centres of the pixel (a reference image 4x the buffer's size; 0 if a sample is
//                  empty), the smallest 1 / w of each over its part of the pixel square (exact, in
//                  double, the triangle clipped at the near plane as the reference does): what a
//                  buffer holding every visible surface, each pixel at its farthest depth, would
//                  store. Occluders missing from the real buffer. Split by what the reference shows
//                  at the pixels where the final buffer fails, the first that applies: missing
//                  when one front triangle holds a failing pixel's whole closed square (it could
//                  have been written there); crack-mixed when two or more front triangles, not
//                  all on one plane, meet in one (a corner, a silhouette: inner-conservative
//                  coverage leaves such a pixel open); crack-edge when a single front triangle is
//                  at all 16 samples of one but does not hold its square (an edge within 1/8 pixel
//                  of the border); crack-coplanar otherwise (at every failing pixel, two or more
//                  front triangles on one plane meet: merging coplanar occluders would close it);
//   depth-range    the complete buffer does not hide it either, but the SAMPLED buffer does (per
//                  pixel, the smallest 1 / w of the reference's 16 samples): the front surface's
//                  depth varies over the pixel (a floor or wall at a grazing angle) and one depth
//                  per pixel at 256 x 128 must take its far end;
//   edge-on        its image has (almost) no area (|2 x area| <= 1e-9 square pixels);
//   pixel-limit    nothing above hides it: no buffer of one depth per pixel at this size can (a
//                  pixel where a near occluder meets a farther surface, the triangle between the
//                  two: its pixel's farthest front depth is behind it), or it is seen between
//                  the reference's sample centres (counted apart: visible in the fine image).
// Each test is also counted ALONE ("hidden by this change alone") on every drawn-invisible
// triangle (the buffer tests: those that are not `near`), and on the drawn triangles that ARE
// visible, as a check: the frustum test and the tests on the final buffer must hide none of them
// (they are conservative); the complete and sampled buffers are estimates from samples, and this
// count says how far off they are. One more image for them: the REPAIRED buffer, the final one
// raised, where a front triangle holds a pixel's whole square, to that triangle's smallest 1 / w
// over the pixel (what the buffer would hold had every occluder written every pixel it covers
// wholly; see the occluder audit). The tests on final images stand for a second pass after all
// occluders are in (the fresh cull's buffer, also for the history's triangles). Per test and per
// cause, the mean of per-frame drawn / frustum-only is given as it would be without the
// triangles it accounts for. And per frame: what the camera looks at (the distance to the
// nearest visible point, the visible nodes whose box is not beyond the near plane, how the
// frustum's triangles spread over nodes), apart for the frames where the cull draws >= 70 % of
// frustum-only. Results: OCCLUSION_RESULTS.md, Round 6, "Why the culler draws more than is
// visible".

enum Cause : int {
  kHistoryNode,
  kHistoryTriangle,
  kOutside,
  kNear,
  kOffScreen,
  kOrder,
  kLoose,
  kCrackCoplanar,
  kCrackEdge,
  kCrackMixed,
  kMissingWhole,
  kDepthRange,
  kEdgeOn,
  kPixelLimit,
  kCauseCount
};
constexpr const char* kCauseNames[kCauseCount] = {
    "history-node: node assumed visible",
    "history-tri: triangle assumed visible",
    "outside: its three vertices beyond one frustum plane",
    "near: a vertex not beyond the near plane",
    "off-screen: no part on screen",
    "order: rectangle test on the final buffer hides it",
    "loose: footprint test on the final buffer hides it",
    "crack-coplanar: complete buffer hides it; fails where coplanar occluders meet",
    "crack-edge: ... fails where one occluder's edge nears the pixel border",
    "crack-mixed: ... fails where non-coplanar occluders meet",
    "missing: ... fails inside one occluder holding the whole pixel",
    "depth-range: only the sampled buffer hides it",
    "edge-on: no screen area",
    "pixel-limit: not even the sampled buffer hides it",
};
enum Alone : int {
  kOutcodes,
  kRectFinal,
  kFootFinal,
  kRectRepaired,
  kFootRepaired,
  kRectComplete,
  kFootComplete,
  kFootSampled,
  kOutcodesRectFinal,
  kOutcodesFootFinal,
  kAloneCount
};
constexpr const char* kAloneNames[kAloneCount] = {
    "frustum test per triangle (clip-space outcodes; near triangles included)",
    "rectangle test on the final buffer (a second test after all occluders)",
    "footprint test on the final buffer",
    "rectangle test on the repaired buffer",
    "footprint test on the repaired buffer",
    "rectangle test on the complete buffer",
    "footprint test on the complete buffer",
    "footprint test on the sampled buffer",
    "frustum test per triangle + second rectangle test",
    "frustum test per triangle + footprint test on the final buffer",
};

struct CauseCounts {
  uint64_t cause[kCauseCount] = {};
  uint64_t alone[kAloneCount] = {};
  uint64_t emptyFail = 0;  // crack / missing: a failing pixel is empty in the final buffer
  // near, but the footprint of its part beyond the near plane is hidden (final, complete buffer)
  uint64_t nearFootFinal = 0, nearFootComplete = 0;
  uint64_t subPixelFine = 0;  // pixel-limit, and visible in the fine (4x) reference image
  // pixel-limit, and at the first pixel failing on the sampled buffer: a sample is empty (no
  // surface: sky, outside the level), or the front triangle there lies on the triangle's plane.
  // Else: the sampled value there is within 1 % of the triangle's nearest 1 / w (it touches the
  // front surface, or lies just behind it: a face meeting a visible one at an edge).
  uint64_t limitEmpty = 0, limitCoplanar = 0, limitContact = 0;
  uint64_t visibleTested = 0;                // check: drawn, visible, not near
  uint64_t visibleHidden[kAloneCount] = {};  // of those, hidden by each test (final: must be 0)
  uint64_t total() const {
    uint64_t s = 0;
    for (uint64_t c : cause) s += c;
    return s;
  }
  void add(const CauseCounts& o) {
    for (int i = 0; i < kCauseCount; ++i) cause[i] += o.cause[i];
    for (int i = 0; i < kAloneCount; ++i) alone[i] += o.alone[i];
    for (int i = 0; i < kAloneCount; ++i) visibleHidden[i] += o.visibleHidden[i];
    emptyFail += o.emptyFail;
    subPixelFine += o.subPixelFine;
    limitEmpty += o.limitEmpty;
    limitCoplanar += o.limitCoplanar;
    limitContact += o.limitContact;
    nearFootFinal += o.nearFootFinal;
    nearFootComplete += o.nearFootComplete;
    visibleTested += o.visibleTested;
  }
};

bool beyondNear(const ofps::OcclusionBuffer::ClipPoint& c) {
  const double margin = 1e-9 * (std::fabs(c.z) + std::fabs(c.w));
  return c.w > margin && c.z + c.w > margin;
}

// A convex polygon on screen (buffer pixels) with 1 / w = a x + b y + c over it.
struct ScreenPolygon {
  int n = 0;
  double p[8][2] = {};
  double a = 0.0, b = 0.0, c = 0.0;
  bool planeOk = false;  // false: (nearly) no area, the plane is not defined
};

// Keeps the part of the polygon (n points) with sign * (coordinate[axis] - bound) >= 0.
int clipPolygon(const double (*in)[2], int n, int axis, double bound, double sign,
                double (*out)[2]) {
  int m = 0;
  for (int i = 0; i < n; ++i) {
    const double* a = in[i];
    const double* b = in[(i + 1) % n];
    const double da = sign * (a[axis] - bound), db = sign * (b[axis] - bound);
    if (da >= 0.0) {
      out[m][0] = a[0];
      out[m][1] = a[1];
      ++m;
    }
    if ((da >= 0.0) != (db >= 0.0)) {
      const double t = da / (da - db);
      out[m][0] = a[0] + (b[0] - a[0]) * t;
      out[m][1] = a[1] + (b[1] - a[1]) * t;
      ++m;
    }
  }
  return m;
}

// The polygon clipped to pixel (x, y)'s square into out; returns its vertex count (0 when the
// part has no area: <= 1e-9 square pixels).
int clipToPixel(const ScreenPolygon& s, int x, int y, double (&out)[8][2]) {
  double tmp[8][2];
  int n = clipPolygon(s.p, s.n, 0, x, 1.0, tmp);
  n = clipPolygon(tmp, n, 0, x + 1.0, -1.0, out);
  n = clipPolygon(out, n, 1, y, 1.0, tmp);
  n = clipPolygon(tmp, n, 1, y + 1.0, -1.0, out);
  if (n < 3) return 0;
  double area = 0.0;
  for (int k = 0; k < n; ++k) {
    area += out[k][0] * out[(k + 1) % n][1] - out[(k + 1) % n][0] * out[k][1];
  }
  return std::fabs(area) > 2e-9 ? n : 0;
}

// The triangle's image at the buffer's size: clipped at the near plane (z + w >= 0) as the
// reference clips it, then projected (x = (x / w * 0.5 + 0.5) * width, as the buffer maps it).
ScreenPolygon screenPolygon(const ofps::OcclusionBuffer& buffer, const glm::vec3 (&v)[3]) {
  ofps::OcclusionBuffer::ClipPoint in[3], poly[4];
  for (int k = 0; k < 3; ++k) in[k] = buffer.clipOf(v[k]);
  int n = 0;
  for (int i = 0; i < 3; ++i) {
    const auto& a = in[i];
    const auto& b = in[(i + 1) % 3];
    const double da = a.w + a.z, db = b.w + b.z;
    if (da >= 0.0) poly[n++] = a;
    if ((da >= 0.0) != (db >= 0.0)) {
      const double t = da / (da - db);
      poly[n++] = {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.z + (b.z - a.z) * t,
                   a.w + (b.w - a.w) * t};
    }
  }
  ScreenPolygon s;
  const double W = buffer.width(), H = buffer.height();
  double iw[4];
  for (int k = 0; k < n; ++k) {
    if (!(poly[k].w > 0.0)) return s;  // on the eye plane: no image to speak of
    s.p[k][0] = (poly[k].x / poly[k].w * 0.5 + 0.5) * W;
    s.p[k][1] = (poly[k].y / poly[k].w * 0.5 + 0.5) * H;
    iw[k] = 1.0 / poly[k].w;
  }
  s.n = n;
  if (n < 3) return s;
  const double(&p)[8][2] = s.p;
  const double area2 =
      (p[1][0] - p[0][0]) * (p[2][1] - p[0][1]) - (p[2][0] - p[0][0]) * (p[1][1] - p[0][1]);
  if (!(std::fabs(area2) > 1e-9)) return s;
  s.a = ((iw[1] - iw[0]) * (p[2][1] - p[0][1]) - (iw[2] - iw[0]) * (p[1][1] - p[0][1])) / area2;
  s.b = ((p[1][0] - p[0][0]) * (iw[2] - iw[0]) - (p[2][0] - p[0][0]) * (iw[1] - iw[0])) / area2;
  s.c = iw[0] - s.a * p[0][0] - s.b * p[0][1];
  s.planeOk = std::isfinite(s.a) && std::isfinite(s.b) && std::isfinite(s.c);
  return s;
}

// Whether the convex polygon holds the closed square of pixel (x, y) (its four corners).
bool holdsPixel(const ScreenPolygon& s, int x, int y) {
  double orient = 0.0;
  for (int k = 0; k < s.n; ++k) {
    orient += s.p[k][0] * s.p[(k + 1) % s.n][1] - s.p[(k + 1) % s.n][0] * s.p[k][1];
  }
  for (int corner = 0; corner < 4; ++corner) {
    const double cx = x + (corner & 1), cy = y + (corner >> 1);
    for (int k = 0; k < s.n; ++k) {
      const double* a = s.p[k];
      const double* b = s.p[(k + 1) % s.n];
      const double e = (b[0] - a[0]) * (cy - a[1]) - (b[1] - a[1]) * (cx - a[0]);
      if (orient > 0.0 ? e < 0.0 : e > 0.0) return false;
    }
  }
  return true;
}

// Per-pixel images of the buffer's size that the footprint test reads.
// What the reference shows at a pixel's samples, in the order of precedence of the crack causes:
// none (an empty sample), two or more coplanar triangles, one triangle not holding the whole
// square (an edge within 1/8 pixel of the border, between the samples), two or more triangles
// not all coplanar, one triangle holding the whole square.
enum Front : uint8_t { kFrontNone, kFrontCoplanar, kFrontEdge, kFrontMixed, kFrontWhole };
struct PixelImages {
  std::span<const float> final;  // the fresh cull's final buffer
  std::vector<double> complete;  // see the comment above
  std::vector<double> sampled;
  // The final buffer where a front triangle holds the whole pixel square raised to that
  // triangle's smallest 1 / w over the pixel: the final buffer had every occluder written each
  // pixel it covers wholly.
  std::vector<double> repaired;
  // Per pixel, the front triangles at the samples: kFront* below.
  std::vector<uint8_t> front;
  std::vector<uint32_t> firstFront;  // the front triangle at the pixel's first sample (or none)
};

struct Footprint {
  uint32_t pixels = 0;  // on-screen pixels met in a positive area
  bool finalHidden = true, completeHidden = true, sampledHidden = true, repairedHidden = true;
  bool failEmpty = false;           // a pixel failing on the final buffer is empty there
  uint8_t failFront = 0;            // the largest Front over the failing pixels
  size_t sampledFailPixel = 0;      // the first pixel failing on the sampled buffer
  double sampledFailNearest = 0.0;  // the triangle's largest 1 / w over its part of that pixel
};
Footprint footprintTest(const ScreenPolygon& s, int width, int height, const PixelImages& img) {
  Footprint r;
  double minX = s.p[0][0], maxX = minX, minY = s.p[0][1], maxY = minY;
  for (int k = 1; k < s.n; ++k) {
    minX = std::min(minX, s.p[k][0]);
    maxX = std::max(maxX, s.p[k][0]);
    minY = std::min(minY, s.p[k][1]);
    maxY = std::max(maxY, s.p[k][1]);
  }
  const int x0 = static_cast<int>(std::floor(std::clamp(minX, 0.0, width + 1.0)));
  const int y0 = static_cast<int>(std::floor(std::clamp(minY, 0.0, height + 1.0)));
  const int x1 = static_cast<int>(std::min(std::floor(std::max(maxX, -1.0)), width - 1.0));
  const int y1 = static_cast<int>(std::min(std::floor(std::max(maxY, -1.0)), height - 1.0));
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      double part[8][2];
      const int n = clipToPixel(s, x, y, part);
      if (n == 0) continue;
      ++r.pixels;
      double nearest = 0.0;
      for (int k = 0; k < n; ++k) {
        nearest = std::max(nearest, s.a * part[k][0] + s.b * part[k][1] + s.c);
      }
      const size_t p = static_cast<size_t>(y) * width + x;
      if (!(static_cast<double>(img.final[p]) > nearest)) {
        r.finalHidden = false;
        r.failEmpty = r.failEmpty || img.final[p] == 0.0f;
        r.failFront = std::max(r.failFront, img.front[p]);
      }
      if (!(img.complete[p] > nearest)) r.completeHidden = false;
      if (!(img.sampled[p] > nearest)) {
        if (r.sampledHidden) {
          r.sampledFailPixel = p;
          r.sampledFailNearest = nearest;
        }
        r.sampledHidden = false;
      }
      if (!(img.repaired[p] > nearest)) r.repairedHidden = false;
    }
  }
  return r;
}

// The culler's rectangle test on a double image: every pixel the closed rectangle of the
// triangle's vertices touches (on screen) strictly nearer than the largest vertex 1 / w; an
// off-screen rectangle is visible.
bool rectHidden(const double (&sx)[3], const double (&sy)[3], const double (&iw)[3], int width,
                int height, const std::vector<double>& image) {
  const double minX = std::min({sx[0], sx[1], sx[2]}), maxX = std::max({sx[0], sx[1], sx[2]});
  const double minY = std::min({sy[0], sy[1], sy[2]}), maxY = std::max({sy[0], sy[1], sy[2]});
  if (maxX < 0.0 || maxY < 0.0 || minX > width || minY > height) return false;
  const double nearest = std::max({iw[0], iw[1], iw[2]});
  const int x0 = static_cast<int>(std::floor(std::max(minX, 0.0)));
  const int y0 = static_cast<int>(std::floor(std::max(minY, 0.0)));
  const int x1 = static_cast<int>(std::min(std::floor(maxX), width - 1.0));
  const int y1 = static_cast<int>(std::min(std::floor(maxY), height - 1.0));
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      if (!(image[static_cast<size_t>(y) * width + x] > nearest)) return false;
    }
  }
  return true;
}

// What the camera looks at, summed over frames.
struct ViewStats {
  uint32_t frames = 0;
  double frustum = 0.0, visible = 0.0, drawnInvisible = 0.0;
  std::vector<double> nearestDistance;  // view-axis distance of the nearest visible point (V > 0)
  double straddlingNodes = 0.0;      // visible nodes (fresh) whose box is not beyond the near plane
  double frustumInStraddling = 0.0;  // share of F among those nodes' own triangles
  double drawnInStraddling = 0.0;    // share of the drawn-invisible among them
  double largestNodeShare = 0.0, twoLargestShare = 0.0;  // of F, in the one / two fullest nodes
  static double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }
};

struct ExampleFrame {
  size_t frame;
  uint32_t F, drawnHistory, drawnFresh, V;
  CauseCounts counts;
};

bool diagnoseLevel(const std::string& name, uint32_t step, const Resolution& res) {
  const auto start = std::chrono::steady_clock::now();
  ofps::bench::OcclusionLevel L;
  ofps::bench::loadOcclusionLevel(name, &L);
  if (!L.ok) {
    std::fprintf(stderr, "occlusion_oracle: %s\n", L.error.c_str());
    return false;
  }
  const uint32_t triangles = static_cast<uint32_t>(L.indices.size() / 3);
  const std::span<const uint32_t> drawOrder = L.ranges.drawOrder();
  std::vector<uint32_t> nodeOfTriangle(triangles, ofps::kOctreeInvalidIndex);
  {
    const std::span<const uint32_t> order = L.octree.triangleOrder();
    for (uint32_t node = 0; node < L.octree.nodeCount(); ++node) {
      const ofps::TriangleRange own = L.octree.ownRange(node);
      for (uint32_t s = own.first; s < own.first + own.count; ++s) nodeOfTriangle[order[s]] = node;
    }
  }
  const auto vertices = [&](uint32_t t, glm::vec3(&v)[3]) {
    for (int k = 0; k < 3; ++k) v[k] = L.positions[L.indices[3 * t + k]];
  };
  // Two triangles on one plane: unit normals within 1e-4 (either orientation) and the second's
  // vertices within 1 mm of the first's plane.
  const auto sameWorldPlane = [&](uint32_t t0, uint32_t t1) {
    glm::vec3 a[3], b[3];
    vertices(t0, a);
    vertices(t1, b);
    const glm::dvec3 n0 = glm::cross(glm::dvec3(a[1] - a[0]), glm::dvec3(a[2] - a[0]));
    const glm::dvec3 n1 = glm::cross(glm::dvec3(b[1] - b[0]), glm::dvec3(b[2] - b[0]));
    const double l0 = glm::length(n0), l1 = glm::length(n1);
    if (!(l0 > 0.0) || !(l1 > 0.0)) return false;
    if (std::fabs(glm::dot(n0, n1)) / (l0 * l1) < 1.0 - 1e-4) return false;
    for (int k = 0; k < 3; ++k) {
      if (std::fabs(glm::dot(n0 / l0, glm::dvec3(b[k] - a[0]))) > 1e-3) return false;
    }
    return true;
  };

  ofps::OcclusionCuller history, fresh;
  history.build(L.octree, L.ranges);
  fresh.build(L.octree, L.ranges);
  const ofps::OcclusionCullParams historyParams;
  ofps::OcclusionCullParams freshParams;
  freshParams.temporalCoherence = false;
  const int W = static_cast<int>(fresh.buffer().width());
  const int H = static_cast<int>(fresh.buffer().height());
  // Reference samples per pixel side for the complete and sampled images.
  constexpr int kSamples = 4;
  ofps::test::ReferenceRenderer reference(res.width, res.height);
  ofps::test::ReferenceRenderer fine(W * kSamples, H * kSamples);
  PixelImages img;
  img.complete.resize(static_cast<size_t>(W) * H);
  img.sampled.resize(img.complete.size());
  img.front.resize(img.complete.size());
  img.repaired.resize(img.complete.size());
  img.firstFront.resize(img.complete.size());
  // Occluder audit: per distinct front triangle of the fine reference, the pixels its image holds
  // wholly (on screen) against those OcclusionBuffer::rasterizeTriangle covers, alone, in an
  // empty buffer.
  ofps::OcclusionBuffer solo(static_cast<uint32_t>(W), static_cast<uint32_t>(H));
  uint64_t auditTriangles = 0, auditHeld = 0, auditCovered = 0, auditShort = 0, auditHalf = 0;
  uint64_t auditShortHeld = 0;
  std::vector<uint32_t> polygonIds;
  // Screen polygons of the front triangles, computed once per frame each.
  std::vector<uint32_t> polygonStamp(triangles, 0), polygonIndex(triangles, 0);
  std::vector<ScreenPolygon> polygons;

  std::vector<uint8_t> historySet(triangles), freshSet(triangles), frustumSet(triangles), visible;
  std::vector<uint8_t> visibleFine;
  std::vector<uint32_t> freshNodeStamp(L.octree.nodeCount(), 0);
  std::vector<uint32_t> straddleStamp(L.octree.nodeCount(), 0);
  std::vector<uint32_t> frustumPerNode(L.octree.nodeCount(), 0), touchedNodes;
  ofps::DrawRunList historyRuns, freshRuns, frustumRuns;
  CauseCounts all, mostly;
  ViewStats viewMostly, viewOthers;
  std::vector<ExampleFrame> examples;
  constexpr double kMostlyDrawn = 0.7;
  uint32_t measured = 0, stamp = 0;
  // Sums over the frames with F > 0 of drawn / frustum-only: as drawn, at the floor (V / F), and
  // without the triangles of each cause or each test's catch.
  uint32_t ratioFrames = 0;
  double ratioBase = 0.0, ratioFloor = 0.0, ratioWithout[kCauseCount] = {},
         ratioAlone[kAloneCount] = {};
  for (size_t f = 0; f < L.walkFrames.size(); ++f) {
    const glm::mat4& vp = L.walkFrames[f];
    history.cull(L.octree, L.ranges, vp, &historyRuns, nullptr, historyParams);
    if (f % step != 0) continue;
    ++measured;
    ++stamp;
    fresh.cull(L.octree, L.ranges, vp, &freshRuns, nullptr, freshParams);
    L.ranges.cull(L.octree, ofps::Frustum::fromViewProjection(vp), &frustumRuns);
    markRuns(historyRuns, drawOrder, &historySet);
    markRuns(freshRuns, drawOrder, &freshSet);
    markRuns(frustumRuns, drawOrder, &frustumSet);
    const uint32_t F = frustumRuns.triangles;
    reference.render(L.positions, L.indices, {}, vp);
    const uint32_t V = reference.markVisible(triangles, &visible);
    ofps::OcclusionBuffer finalBuffer = fresh.buffer();  // a copy: hidden tests refresh tiles
    img.final = finalBuffer.inverseDepth();

    // The complete and sampled images from the fine reference.
    fine.render(L.positions, L.indices, {}, vp);
    fine.markVisible(triangles, &visibleFine);
    polygons.clear();
    polygonIds.clear();
    {
      const std::span<const double> d = fine.inverseDepth();
      const std::span<const uint32_t> ids = fine.ids();
      const size_t fw = static_cast<size_t>(W) * kSamples;
      for (int y = 0; y < H; ++y) {
        for (int x = 0; x < W; ++x) {
          uint32_t front[kSamples * kSamples];
          int fronts = 0;
          double lowest = 1e300;
          bool empty = false;
          for (int j = 0; j < kSamples; ++j) {
            for (int i = 0; i < kSamples; ++i) {
              const size_t q = static_cast<size_t>(y * kSamples + j) * fw + x * kSamples + i;
              lowest = std::min(lowest, d[q]);
              if (ids[q] == ofps::test::ReferenceRenderer::kNoTriangle) {
                empty = true;
              } else if (std::find(front, front + fronts, ids[q]) == front + fronts) {
                front[fronts++] = ids[q];
              }
            }
          }
          const size_t p = static_cast<size_t>(y) * W + x;
          img.sampled[p] = empty ? 0.0 : lowest;
          img.front[p] = kFrontNone;
          img.firstFront[p] = fronts > 0 ? front[0] : ofps::test::ReferenceRenderer::kNoTriangle;
          img.repaired[p] = img.final[p];
          double complete = 1e300;
          for (int k = 0; k < fronts; ++k) {
            const uint32_t t = front[k];
            if (polygonStamp[t] != stamp) {
              polygonStamp[t] = stamp;
              polygonIndex[t] = static_cast<uint32_t>(polygons.size());
              glm::vec3 v[3];
              vertices(t, v);
              polygons.push_back(screenPolygon(finalBuffer, v));
              polygonIds.push_back(t);
            }
            const ScreenPolygon& s = polygons[polygonIndex[t]];
            double part[8][2];
            const int n = s.planeOk ? clipToPixel(s, x, y, part) : 0;
            if (n == 0) {  // no plane, or the clipped part is tiny: the samples' value
              complete = std::min(complete, lowest);
              continue;
            }
            double farthest = 1e300;
            for (int m = 0; m < n; ++m) {
              farthest = std::min(farthest, s.a * part[m][0] + s.b * part[m][1] + s.c);
            }
            complete = std::min(complete, farthest);
            const bool holds = holdsPixel(s, x, y);
            if (holds) img.repaired[p] = std::max(img.repaired[p], farthest);
            if (fronts == 1) img.front[p] = holds ? kFrontWhole : kFrontEdge;
          }
          if (fronts > 1 && !empty) {
            bool coplanar = true;
            for (int k = 1; k < fronts && coplanar; ++k) {
              coplanar = sameWorldPlane(front[0], front[k]);
            }
            img.front[p] = coplanar ? kFrontCoplanar : kFrontMixed;
          }
          img.complete[p] = empty ? 0.0 : complete;
        }
      }
    }

    for (size_t k = 0; k < polygons.size(); ++k) {
      const ScreenPolygon& sp = polygons[k];
      if (!sp.planeOk) continue;
      double minX = sp.p[0][0], maxX = minX, minY = sp.p[0][1], maxY = minY;
      for (int m = 1; m < sp.n; ++m) {
        minX = std::min(minX, sp.p[m][0]);
        maxX = std::max(maxX, sp.p[m][0]);
        minY = std::min(minY, sp.p[m][1]);
        maxY = std::max(maxY, sp.p[m][1]);
      }
      uint64_t held = 0;
      const int x0 = static_cast<int>(std::floor(std::clamp(minX, 0.0, W + 1.0)));
      const int y0 = static_cast<int>(std::floor(std::clamp(minY, 0.0, H + 1.0)));
      const int x1 = static_cast<int>(std::min(std::floor(std::max(maxX, -1.0)), W - 1.0));
      const int y1 = static_cast<int>(std::min(std::floor(std::max(maxY, -1.0)), H - 1.0));
      for (int y = y0; y <= y1; ++y) {
        for (int x = x0; x <= x1; ++x) held += holdsPixel(sp, x, y) ? 1 : 0;
      }
      if (held == 0) continue;
      glm::vec3 v[3];
      vertices(polygonIds[k], v);
      solo.begin(vp);
      const uint64_t covered = solo.rasterizeTriangle(v[0], v[1], v[2]);
      ++auditTriangles;
      auditHeld += held;
      auditCovered += covered;
      if (covered < held) {
        ++auditShort;
        auditShortHeld += held - covered;
      }
      auditHalf += 2 * covered < held ? 1 : 0;
    }

    for (uint32_t node : fresh.visibleNodes()) freshNodeStamp[node] = stamp;
    uint32_t straddling = 0;
    for (uint32_t node : fresh.visibleNodes()) {
      const ofps::Aabb box = L.octree.nodeBounds(node);
      bool beyond = true;
      for (int c = 0; c < 8; ++c) {
        const glm::vec3 corner((c & 1) ? box.max.x : box.min.x, (c & 2) ? box.max.y : box.min.y,
                               (c & 4) ? box.max.z : box.min.z);
        beyond = beyond && beyondNear(finalBuffer.clipOf(corner));
      }
      if (!beyond) {
        straddleStamp[node] = stamp;
        ++straddling;
      }
    }

    CauseCounts frame;
    uint64_t inStraddling = 0;
    for (uint32_t t = 0; t < triangles; ++t) {
      if (historySet[t] == 0) continue;
      const bool isVisible = visible[t] != 0;
      const uint32_t node = nodeOfTriangle[t];
      glm::vec3 v[3];
      vertices(t, v);
      ofps::OcclusionBuffer::ClipPoint c[3];
      bool near = false;
      for (int k = 0; k < 3; ++k) {
        c[k] = finalBuffer.clipOf(v[k]);
        near = near || !beyondNear(c[k]);
      }
      // Outcodes: the planes each vertex is strictly beyond.
      uint32_t outside = 0x3Fu;
      for (int k = 0; k < 3; ++k) {
        const auto& q = c[k];
        outside &= (q.x < -q.w ? 1u : 0u) | (q.x > q.w ? 2u : 0u) | (q.y < -q.w ? 4u : 0u) |
                   (q.y > q.w ? 8u : 0u) | (q.z < -q.w ? 16u : 0u) | (q.z > q.w ? 32u : 0u);
      }
      {
        uint64_t* tally = isVisible ? frame.visibleHidden : frame.alone;
        tally[kOutcodes] += outside != 0 ? 1 : 0;
        if (near) {  // the combinations: only the frustum test applies
          tally[kOutcodesRectFinal] += outside != 0 ? 1 : 0;
          tally[kOutcodesFootFinal] += outside != 0 ? 1 : 0;
        }
      }
      if (isVisible && near) continue;
      Cause cause = kPixelLimit;
      if (!isVisible) {
        inStraddling += straddleStamp[node] == stamp ? 1 : 0;
        if (freshSet[t] == 0) {
          cause = freshNodeStamp[node] == stamp ? kHistoryTriangle : kHistoryNode;
        } else if (outside != 0) {
          cause = kOutside;
        } else if (near) {
          cause = kNear;
        }
        if (near) {
          ++frame.cause[cause];
          // Would a footprint test of its part beyond the near plane hide it?
          if (cause == kNear) {
            const ScreenPolygon s = screenPolygon(finalBuffer, v);
            if (s.planeOk) {
              const Footprint fp = footprintTest(s, W, H, img);
              frame.nearFootFinal += fp.finalHidden ? 1 : 0;
              frame.nearFootComplete += fp.completeHidden ? 1 : 0;
            }
          }
          continue;
        }
      }
      double sx[3], sy[3], iw[3];
      for (int k = 0; k < 3; ++k) {
        sx[k] = (c[k].x / c[k].w * 0.5 + 0.5) * W;
        sy[k] = (c[k].y / c[k].w * 0.5 + 0.5) * H;
        iw[k] = 1.0 / c[k].w;
      }
      const ScreenPolygon s = screenPolygon(finalBuffer, v);
      const bool edgeOn = !s.planeOk;
      const bool rectFinal = finalBuffer.triangleHidden(v[0], v[1], v[2]);
      const Footprint fp = edgeOn ? Footprint{} : footprintTest(s, W, H, img);
      const bool hidden[kAloneCount] = {outside != 0,
                                        rectFinal,
                                        !edgeOn && fp.finalHidden,
                                        rectHidden(sx, sy, iw, W, H, img.repaired),
                                        !edgeOn && fp.repairedHidden,
                                        rectHidden(sx, sy, iw, W, H, img.complete),
                                        !edgeOn && fp.completeHidden,
                                        !edgeOn && fp.sampledHidden,
                                        outside != 0 || rectFinal,
                                        outside != 0 || (!edgeOn && fp.finalHidden)};
      uint64_t* tally = isVisible ? frame.visibleHidden : frame.alone;
      for (int i = kOutcodes + 1; i < kAloneCount; ++i) tally[i] += hidden[i] ? 1 : 0;
      if (isVisible) {
        ++frame.visibleTested;
        continue;
      }
      if (cause == kPixelLimit) {  // the fresh cull draws it too
        if (edgeOn) {
          cause = rectFinal ? kOrder : kEdgeOn;
        } else if (fp.pixels == 0) {
          cause = kOffScreen;
        } else if (rectFinal) {
          cause = kOrder;
        } else if (fp.finalHidden) {
          cause = kLoose;
        } else if (fp.completeHidden) {
          cause = fp.failFront == kFrontWhole   ? kMissingWhole
                  : fp.failFront == kFrontMixed ? kCrackMixed
                  : fp.failFront == kFrontEdge  ? kCrackEdge
                                                : kCrackCoplanar;
          frame.emptyFail += fp.failEmpty ? 1 : 0;
        } else if (fp.sampledHidden) {
          cause = kDepthRange;
        }
      }
      ++frame.cause[cause];
      if (cause == kPixelLimit && !edgeOn) {
        frame.subPixelFine += visibleFine[t] != 0 ? 1 : 0;
        const size_t p = fp.sampledFailPixel;
        if (img.sampled[p] == 0.0) {
          ++frame.limitEmpty;
        } else if (img.firstFront[p] != ofps::test::ReferenceRenderer::kNoTriangle &&
                   sameWorldPlane(t, img.firstFront[p])) {
          ++frame.limitCoplanar;
        } else if (img.sampled[p] >= 0.99 * fp.sampledFailNearest) {
          ++frame.limitContact;
        }
      }
    }

    // What the camera looks at.
    const bool isMostly = F > 0 && historyRuns.triangles >= kMostlyDrawn * F;
    if (F > 0) {
      ViewStats& vs = isMostly ? viewMostly : viewOthers;
      ++vs.frames;
      vs.frustum += F;
      vs.visible += V;
      vs.drawnInvisible += static_cast<double>(frame.total());
      double nearestInv = 0.0;
      for (double d : reference.inverseDepth()) nearestInv = std::max(nearestInv, d);
      if (nearestInv > 0.0) vs.nearestDistance.push_back(1.0 / nearestInv);
      vs.straddlingNodes += straddling;
      touchedNodes.clear();
      uint64_t inStraddlingF = 0;
      for (uint32_t t = 0; t < triangles; ++t) {
        if (frustumSet[t] == 0) continue;
        const uint32_t node = nodeOfTriangle[t];
        if (frustumPerNode[node]++ == 0) touchedNodes.push_back(node);
        inStraddlingF += straddleStamp[node] == stamp ? 1 : 0;
      }
      uint32_t best = 0, second = 0;
      for (uint32_t node : touchedNodes) {
        const uint32_t n = frustumPerNode[node];
        if (n > best) {
          second = best;
          best = n;
        } else if (n > second) {
          second = n;
        }
        frustumPerNode[node] = 0;
      }
      vs.frustumInStraddling += static_cast<double>(inStraddlingF) / F;
      vs.largestNodeShare += static_cast<double>(best) / F;
      vs.twoLargestShare += static_cast<double>(best + second) / F;
      vs.drawnInStraddling +=
          frame.total() > 0 ? static_cast<double>(inStraddling) / static_cast<double>(frame.total())
                            : 0.0;
    }
    all.add(frame);
    if (F > 0) {  // the goal's figure with each cause (or each test's catch) taken away
      const double d = historyRuns.triangles;
      ++ratioFrames;
      ratioBase += d / F;
      ratioFloor += static_cast<double>(V) / F;
      for (int i = 0; i < kCauseCount; ++i) {
        ratioWithout[i] += (d - static_cast<double>(frame.cause[i])) / F;
      }
      for (int i = 0; i < kAloneCount; ++i) {
        ratioAlone[i] += (d - static_cast<double>(frame.alone[i])) / F;
      }
    }
    if (isMostly) {
      mostly.add(frame);
      examples.push_back({f, F, historyRuns.triangles, freshRuns.triangles, V, frame});
    }
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  const auto pct = [](uint64_t part, uint64_t whole) {
    return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
  };
  std::printf("### %s (--diagnose)\n\n", name.c_str());
  std::printf(
      "%u triangles; %zu walk frames, %u measured (--step %u); visible = in the reference image "
      "at %s; complete and sampled buffers from a %d x %d reference; %.0f s.\n\n",
      triangles, L.walkFrames.size(), measured, step, res.label().c_str(), W * kSamples,
      H * kSamples, seconds);
  std::printf(
      "Drawn by the history's cull but not visible: %.0f per measured frame (%llu in all); in "
      "the %u frames where it draws >= %.0f %% of frustum-only: %.0f per frame (%llu).\n\n",
      static_cast<double>(all.total()) / std::max(measured, 1u), u(all.total()), viewMostly.frames,
      kMostlyDrawn * 100.0, static_cast<double>(mostly.total()) / std::max(viewMostly.frames, 1u),
      u(mostly.total()));
  const double rf = std::max(ratioFrames, 1u);
  std::printf(
      "Mean of per-frame drawn / frustum-only (history; %u frames with F > 0): %.3f; with only "
      "the visible drawn: %.3f. The last column gives it without one cause's (or one test's) "
      "triangles.\n\n",
      ratioFrames, ratioBase / rf, ratioFloor / rf);
  std::printf(
      "| cause (exclusive: the first that applies) | all frames | %% | >= 70 %% frames | %% "
      "| mean ratio without |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (int i = 0; i < kCauseCount; ++i) {
    std::printf("| %s | %llu | %.1f | %llu | %.1f | %.3f |\n", kCauseNames[i], u(all.cause[i]),
                pct(all.cause[i], all.total()), u(mostly.cause[i]),
                pct(mostly.cause[i], mostly.total()), ratioWithout[i] / rf);
  }
  std::printf(
      "| (of near: the footprint of its part beyond the near plane hidden in the final "
      "buffer) | %llu | %.1f | %llu | %.1f |\n",
      u(all.nearFootFinal), pct(all.nearFootFinal, all.total()), u(mostly.nearFootFinal),
      pct(mostly.nearFootFinal, mostly.total()));
  std::printf("| (of near: ... in the complete buffer) | %llu | %.1f | %llu | %.1f |\n",
              u(all.nearFootComplete), pct(all.nearFootComplete, all.total()),
              u(mostly.nearFootComplete), pct(mostly.nearFootComplete, mostly.total()));
  std::printf(
      "| (of crack + missing: a failing pixel is EMPTY in the final buffer) | %llu | %.1f "
      "| %llu | %.1f |\n",
      u(all.emptyFail), pct(all.emptyFail, all.total()), u(mostly.emptyFail),
      pct(mostly.emptyFail, mostly.total()));
  std::printf(
      "| (of pixel-limit: visible in the %d x %d reference) | %llu | %.1f | %llu | %.1f |\n",
      W * kSamples, H * kSamples, u(all.subPixelFine), pct(all.subPixelFine, all.total()),
      u(mostly.subPixelFine), pct(mostly.subPixelFine, mostly.total()));
  std::printf(
      "| (of pixel-limit: its first failing pixel has an empty sample) | %llu | %.1f | %llu | "
      "%.1f |\n",
      u(all.limitEmpty), pct(all.limitEmpty, all.total()), u(mostly.limitEmpty),
      pct(mostly.limitEmpty, mostly.total()));
  std::printf(
      "| (of pixel-limit: ... else the front triangle there is on its plane) | %llu | %.1f | "
      "%llu | %.1f |\n",
      u(all.limitCoplanar), pct(all.limitCoplanar, all.total()), u(mostly.limitCoplanar),
      pct(mostly.limitCoplanar, mostly.total()));
  std::printf(
      "| (of pixel-limit: ... else the front there is within 1 %% of its nearest depth) | "
      "%llu | %.1f | %llu | %.1f |\n\n",
      u(all.limitContact), pct(all.limitContact, all.total()), u(mostly.limitContact),
      pct(mostly.limitContact, mostly.total()));
  std::printf(
      "| hidden by this test alone (of all drawn-invisible; the buffer tests: not near) | all "
      "frames | %% | >= 70 %% "
      "frames | %% | mean ratio without | visible ones it hides (check) |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (int i = 0; i < kAloneCount; ++i) {
    std::printf("| %s | %llu | %.1f | %llu | %.1f | %.3f | %llu of %llu |\n", kAloneNames[i],
                u(all.alone[i]), pct(all.alone[i], all.total()), u(mostly.alone[i]),
                pct(mostly.alone[i], mostly.total()), ratioAlone[i] / rf, u(all.visibleHidden[i]),
                u(all.visibleTested));
  }
  std::printf(
      "\nOccluder audit: %llu front triangles (distinct per frame) hold %llu whole pixels; "
      "rasterized alone they cover %llu; %llu cover fewer than they hold (%llu pixels short), "
      "%llu under half.\n",
      u(auditTriangles), u(auditHeld), u(auditCovered), u(auditShort), u(auditShortHeld),
      u(auditHalf));
  std::printf("\n| view (frames with F > 0; means) | >= 70 %% frames | other frames |\n");
  std::printf("|---|---|---|\n");
  const double nm = std::max(viewMostly.frames, 1u), no = std::max(viewOthers.frames, 1u);
  const auto row = [](const char* label, double a, double b, int digits) {
    std::printf("| %s | %.*f | %.*f |\n", label, digits, a, digits, b);
  };
  row("frames", viewMostly.frames, viewOthers.frames, 0);
  row("frustum-only triangles", viewMostly.frustum / nm, viewOthers.frustum / no, 0);
  row("visible triangles", viewMostly.visible / nm, viewOthers.visible / no, 0);
  row("drawn-invisible (history)", viewMostly.drawnInvisible / nm, viewOthers.drawnInvisible / no,
      0);
  row("median distance to the nearest visible point (m, view axis)",
      ViewStats::median(viewMostly.nearestDistance), ViewStats::median(viewOthers.nearestDistance),
      2);
  row("visible nodes (fresh) whose box is not beyond the near plane",
      viewMostly.straddlingNodes / nm, viewOthers.straddlingNodes / no, 1);
  row("share of frustum triangles in those nodes", viewMostly.frustumInStraddling / nm,
      viewOthers.frustumInStraddling / no, 2);
  row("share of drawn-invisible in those nodes", viewMostly.drawnInStraddling / nm,
      viewOthers.drawnInStraddling / no, 2);
  row("share of frustum triangles in the fullest node", viewMostly.largestNodeShare / nm,
      viewOthers.largestNodeShare / no, 2);
  row("share of frustum triangles in the two fullest nodes", viewMostly.twoLargestShare / nm,
      viewOthers.twoLargestShare / no, 2);

  std::sort(examples.begin(), examples.end(), [](const ExampleFrame& a, const ExampleFrame& b) {
    return a.counts.total() != b.counts.total() ? a.counts.total() > b.counts.total()
                                                : a.frame < b.frame;
  });
  std::printf(
      "\nExamples: the >= 70 %% frames with the most drawn-invisible (frame, walk / step: "
      "F, drawn history / fresh, V; drawn-invisible per cause in the table's order):\n\n");
  for (size_t i = 0; i < std::min<size_t>(examples.size(), 5); ++i) {
    const ExampleFrame& e = examples[i];
    std::printf("- frame %zu (walk %zu / %zu): F %u, drawn %u / %u, V %u; causes", e.frame,
                e.frame / ofps::bench::kWalkFrames, e.frame % ofps::bench::kWalkFrames, e.F,
                e.drawnHistory, e.drawnFresh, e.V);
    for (int c = 0; c < kCauseCount; ++c) std::printf(" %llu", u(e.counts.cause[c]));
    std::printf("\n");
  }
  std::printf("\n");
  std::fflush(stdout);
  return all.visibleHidden[kRectFinal] == 0 && all.visibleHidden[kFootFinal] == 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{
      "The visibility floor along the occlusion bench's scripted walks: per frame, the triangles "
      "the frustum-only and occlusion culls draw against those an exact reference rasterizer "
      "sees."};
  // Options are --name everywhere: on Windows CLI11 would also read "/name" as an option,
  // which takes an absolute POSIX path (Wine, MSYS) for one.
  cli.allow_windows_style_options(false);
  std::vector<std::string> levels = {"oa_dm1", "oa_dm5", "ons-reborn"};
  uint32_t step = 1;
  std::vector<std::string> resolutionArgs = {"512x256", "1280x720"};
  cli.add_option("--levels", levels, "Shared levels to measure (comma-separated or repeated)")
      ->delimiter(',')
      ->capture_default_str();
  cli.add_option("--step", step, "Measure every k-th walk frame (the history still sees all)")
      ->check(CLI::Range(1u, 1024u))
      ->capture_default_str();
  cli.add_option("--res", resolutionArgs,
                 "Reference image size WIDTHxHEIGHT, repeatable (replaces the defaults)")
      ->check(CLI::Validator(
          [](const std::string& s) -> std::string {
            std::smatch m;
            if (!std::regex_match(s, m, std::regex(R"((\d{1,5})x(\d{1,5}))"))) {
              return "expected WIDTHxHEIGHT, e.g. 1280x720, got '" + s + "'";
            }
            const int w = std::stoi(m[1].str()), h = std::stoi(m[2].str());
            if (w < 1 || h < 1 || w > 16384 || h > 16384) {
              return "each side must be 1..16384 pixels, got '" + s + "'";
            }
            return {};
          },
          "WIDTHxHEIGHT"))
      ->capture_default_str();
  bool diagnose = false;
  cli.add_flag("--diagnose", diagnose,
               "Instead of the ratios: put every triangle the default cull draws but the "
               "reference (at the first --res) does not show in one cause (see diagnoseLevel)");
  CLI11_PARSE(cli, argc, argv);

  std::vector<Resolution> resolutions;
  for (const std::string& s : resolutionArgs) {
    const size_t x = s.find('x');
    resolutions.push_back({std::stoi(s.substr(0, x)), std::stoi(s.substr(x + 1))});
  }

  if (diagnose) {
    std::printf("## occlusion_oracle --diagnose: --step %u, --res %dx%d\n\n", step,
                resolutions[0].width, resolutions[0].height);
    bool ok = true;
    for (const std::string& level : levels) ok = diagnoseLevel(level, step, resolutions[0]) && ok;
    return ok ? 0 : 1;
  }
  std::printf("## occlusion_oracle: --step %u, --res", step);
  for (const Resolution& r : resolutions) std::printf(" %dx%d", r.width, r.height);
  std::printf(", %u walks of %u frames per level\n\n", ofps::bench::kWalks,
              ofps::bench::kWalkFrames);
  bool ok = true;
  for (const std::string& level : levels) ok = measureLevel(level, step, resolutions) && ok;
  return ok ? 0 : 1;
}
