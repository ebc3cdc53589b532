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
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
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

}  // namespace

int main(int argc, char** argv) {
  CLI::App cli{
      "The visibility floor along the occlusion bench's scripted walks: per frame, the triangles "
      "the frustum-only and occlusion culls draw against those an exact reference rasterizer "
      "sees."};
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
  CLI11_PARSE(cli, argc, argv);

  std::vector<Resolution> resolutions;
  for (const std::string& s : resolutionArgs) {
    const size_t x = s.find('x');
    resolutions.push_back({std::stoi(s.substr(0, x)), std::stoi(s.substr(x + 1))});
  }

  std::printf("## occlusion_oracle: --step %u, --res", step);
  for (const Resolution& r : resolutions) std::printf(" %dx%d", r.width, r.height);
  std::printf(", %u walks of %u frames per level\n\n", ofps::bench::kWalks,
              ofps::bench::kWalkFrames);
  bool ok = true;
  for (const std::string& level : levels) ok = measureLevel(level, step, resolutions) && ok;
  return ok ? 0 : 1;
}
