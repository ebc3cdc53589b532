// Props driven by a controller script (contracts in script_props.h).
#include "scenario/script_props.h"

#include <utility>

#include "octree_fps/props/props_obstacles.h"

namespace ofps {

void addScriptProps(PropsWorld& ioWorld, const Script& script) {
  for (const ScriptProp& p : script.props) {
    if (p.shape == ScriptProp::Shape::Sphere) {
      ioWorld.addSphere(p.center, p.halfExtents.x, p.velocity);
    } else {
      ioWorld.addBox(p.center, p.halfExtents, p.velocity);
    }
  }
}

CharacterCapsule characterCapsule(const CharacterController& controller) {
  CharacterCapsule c;
  controller.capsule(c.a, c.b);
  c.radius = controller.params().radius;
  c.velocity = controller.velocity();
  return c;
}

void followControllerGravity(PropsWorld& ioWorld, const ControllerParams& params) {
  if (ioWorld.params().gravity == params.gravity) return;
  PropsParams p = ioWorld.params();
  p.gravity = params.gravity;
  ioWorld.setParams(p);
}

ScriptProps::ScriptProps(const Script& script, PropsWorld& world, float killPlaneY)
    : world_(&world) {
  PropsParams p = world.params();
  p.killPlaneY = killPlaneY;
  world.setParams(p);
  addScriptProps(world, script);
}

void ScriptProps::afterRunnerStep(const ScriptRunner& runner, const Octree& octree,
                                  const TraceRow& row, std::string* ioTrace,
                                  const glm::dvec3& origin) {
  const auto& throws = runner.throws();
  for (; throwsConsumed_ < throws.size(); ++throwsConsumed_) {
    const ThrowRecord& t = throws[throwsConsumed_];
    world_->throwSphere(t.origin, t.velocity, t.radius);
  }
  const CharacterCapsule c = characterCapsule(runner.controller());
  const float dt = static_cast<float>(runner.stepSeconds());
  followControllerGravity(*world_, runner.controller().params());
  world_->step(octree, dt, runner.controller().flying() ? nullptr : &c);
  if (ioTrace) {
    appendPropsTraceCsv(*ioTrace, row.t, *world_, origin);
  }
}

void runScriptWithProps(const Script& script, const ControllerParams& params,
                        const ThrowParams& throwing, const Octree& octree,
                        const glm::vec3& levelSpawn, float levelSpawnYaw, float killPlaneY,
                        const PropsParams& propsParams, std::string* outTrace,
                        std::string* outProps, std::string* outPropsTrace, PropsWorld* outWorld) {
  ScriptRunner runner(script, params, throwing, levelSpawn, levelSpawnYaw, killPlaneY);
  PropsWorld world(propsParams);
  ScriptProps props(script, world, killPlaneY);
  if (outTrace) {
    *outTrace = traceCsvHeader();
    appendTraceCsvRow(*outTrace, runner.initialRow());
  }
  if (outPropsTrace) *outPropsTrace = propsTraceCsvHeader();
  const PropsObstacles obstacles(world);
  while (!runner.finished()) {
    const TraceRow row = runner.step(octree, &obstacles);
    if (outTrace) appendTraceCsvRow(*outTrace, row);
    props.afterRunnerStep(runner, octree, row, outPropsTrace);
  }
  if (outProps) {
    outProps->clear();
    writePropsCsv(*outProps, world);
  }
  if (outWorld) *outWorld = std::move(world);
}

}  // namespace ofps
