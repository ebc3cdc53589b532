// The demo's props: one frustum traversal of the level's octree culls the level's draw ranges and
// the props together (culling/props_cull.h), then the occlusion pass (occlusion_pass.cpp) keeps
// what the occlusion buffer does not hide; instance lists for the prop renderer, and the
// two-teams mode. The Props panel section is panel/props_panel.cpp.
#include <algorithm>

#include "app/overlay/overlay_colors.h"
#include "app/window/demo_state.h"
#include "octree_fps/culling/frustum.h"

namespace ofps::app {

void resetTeams(DemoState& s) {
  TeamsParams p = s.props.teams.params();
  p.perTeam = static_cast<uint32_t>(std::max(s.props.teamsPerTeam, 1));
  p.radius = s.props.teamsRadius;
  p.cellSize = s.props.teamsCellSize;
  if (s.level.session) {
    // Agents wander over the level's footprint, a little above its floor.
    const Level& l = s.level.session->level;
    // Heights: from the spawn point's floor up, where the player sees them.
    const float floorY = s.level.session->spawn.y;
    p.bounds = Aabb{glm::vec3(l.boundsMin.x, floorY + 0.5f, l.boundsMin.z),
                    glm::vec3(l.boundsMax.x, floorY + 2.5f, l.boundsMax.z)};
  }
  s.props.teams.reset(p);
}

void updateDrawLists(DemoState& s, const glm::mat4& cullViewProj, float frameSeconds) {
  PropsView& v = s.props;
  PropsWorld& world = s.sim.props();
  const Octree& octree = s.level.session->octree;
  const Frustum frustum = Frustum::fromViewProjection(cullViewProj);
  v.cullStats = {};
  s.culling.stats = {};
  v.visibleIds.resize(world.size());
  const bool occlude = s.culling.enabled && s.occlusion.enabled;
  // One traversal: the level's visible runs and the visible props (culling/frame_cull.h). With
  // occlusion on, these runs are the frustum-only comparison, and occlusionCull() writes the
  // drawn ones. Culling off: every run, and no level statistics.
  const uint32_t visible =
      v.culler.cull(octree, s.level.session->drawRanges, world.grid(), frustum,
                    s.culling.enabled ? LevelCull::Frustum : LevelCull::All,
                    occlude ? &s.occlusion.frustumRuns : &s.culling.runs, v.visibleIds,
                    s.culling.enabled ? &s.culling.stats : nullptr, &v.cullStats);
  v.visibleIds.resize(std::min<size_t>(visible, v.visibleIds.size()));
  occlusionCull(s, cullViewProj);  // drops occluded runs and props (or records that it is off)
  v.spheres.clear();
  v.boxes.clear();
  const auto positions = world.positions();
  const auto half = world.halfExtents();
  const auto shapes = world.shapes();
  const auto resting = world.resting();
  auto instance = [&](uint32_t id, const glm::vec4& color) {
    (shapes[id] == PropShape::Sphere ? v.spheres : v.boxes)
        .push_back({positions[id], half[id], color});
  };
  for (uint32_t id : v.visibleIds) {
    // Awake props are bright, resting ones darker: sleeping is visible at a glance.
    glm::vec4 color = shapes[id] == PropShape::Sphere ? glm::vec4(0.95f, 0.55f, 0.15f, 1.0f)
                                                      : glm::vec4(0.3f, 0.7f, 0.95f, 1.0f);
    if (resting[id] != 0) color = glm::vec4(glm::vec3(color) * 0.55f, 1.0f);
    instance(id, color);
  }
  // Frozen view (V): the props occlusion hid, in the red of the level's occluded triangles.
  for (uint32_t id : s.occlusion.occludedPropIds) instance(id, kOccludedColor);
  if (v.teamsMode) {
    v.teams.step(frameSeconds);
    v.teams.query();
    const auto agents = v.teams.positions();
    const auto near = v.teams.enemiesNear();
    for (uint32_t i = 0; i < agents.size(); ++i) {
      uint32_t mask = kFrustumAllPlanes;
      const Aabb box = Aabb::fromCenterHalfExtents(agents[i], glm::vec3(0.25f));
      if (classifyAabb(frustum, box, mask) == Containment::Outside) continue;
      const bool teamA = v.teams.teamOf(i) == 0;
      // Team colour; dark when no enemy is within R, bright when one is.
      glm::vec4 color =
          teamA ? glm::vec4(0.95f, 0.25f, 0.2f, 1.0f) : glm::vec4(0.2f, 0.4f, 1.0f, 1.0f);
      if (i >= near.size() || near[i] == 0) color = glm::vec4(glm::vec3(color) * 0.35f, 1.0f);
      v.spheres.push_back({agents[i], glm::vec3(0.25f), color});
    }
  }
}

}  // namespace ofps::app
