// The demo's occlusion pass. After the frustum cull (draw_lists.cpp), the level's occlusion
// culler walks the octree front to back against its software depth buffer and writes the runs
// that are drawn; the props the frustum kept are then tested against the same buffer, their grid
// cells first. Its panel section is panel/occlusion_panel.cpp.
#include <algorithm>
#include <chrono>

#include "app/window/demo_state.h"
#include "octree_fps/culling/props_occlusion.h"

namespace ofps::app {

void occlusionCull(DemoState& s, const glm::mat4& cullViewProj) {
  OcclusionView& o = s.occlusion;
  o.stats = {};
  o.propsTested = o.propsOccluded = 0;
  o.propsStats = {};
  o.occludedPropIds.clear();
  o.cpuMs = 0.0;
  o.occludedRuns.clear();
  if (!s.culling.enabled || !o.enabled) {
    // Nothing hidden: both figures are what is drawn (the frustum's runs, or every triangle).
    o.stats.trianglesDrawnFrustumOnly = o.stats.trianglesDrawn = s.culling.runs.triangles;
    return;
  }
  LevelSession& l = *s.level.session;
  const auto start = std::chrono::steady_clock::now();
  OcclusionCullParams params;
  // The frustum-only count is the frustum cull's, already done (o.frustumRuns).
  params.countFrustumOnly = false;
  params.temporalCoherence = o.temporalCoherence;
  params.workBudget = o.workBudget;
  l.occlusion.cull(l.octree, l.drawRanges, cullViewProj, &s.culling.runs, &o.stats, params);
  // Props are not occluders; the ones the frustum kept are tested against the level's buffer,
  // their grid cells first (culling/props_occlusion.h).
  std::vector<uint32_t>& ids = s.props.visibleIds;
  o.propsTested = static_cast<uint32_t>(ids.size());
  // No node tested: the cull returned before starting its buffer (an empty octree after a
  // failed rebuild), which then still holds an older frame's depths.
  if (o.stats.nodesTested > 0) {
    const uint32_t kept =
        occludeProps(l.occlusion, s.sim.props().grid(), ids, &o.propsScratch,
                     s.culling.frozen ? &o.occludedPropIds : nullptr, &o.propsStats);
    ids.resize(kept);
  }
  o.propsOccluded = o.propsTested - static_cast<uint32_t>(ids.size());
  o.cpuMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  o.stats.trianglesDrawnFrustumOnly = o.frustumRuns.triangles;
  // While the view is frozen (V), what occlusion culled is drawn tinted, to fly out and see.
  if (s.culling.frozen) subtractRuns(o.frustumRuns, s.culling.runs, &o.occludedRuns);
}

}  // namespace ofps::app
