// Props on the default level (assets/arena.glb): a random spawn settles without sinking into the
// level, and a script with `prop` and `throw` gives the docs/script-format.md files,
// deterministically.

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <sstream>
#include <string>

#include "level/level_loader.h"
#include "scenario/script.h"
#include "scenario/script_props.h"
#include "support/arena_fixture.h"
#include "support/test_paths.h"

namespace ofps::test {
namespace {

const Arena& arena() {
  return defaultArena();
}

size_t countLines(const std::string& s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST(PropsArena, RandomSpawnSettlesWithoutSinking) {
  const Arena& a = arena();
  ASSERT_FALSE(a.octree.empty());
  PropsParams params;
  params.layerMask = kLayerSolid;
  params.killPlaneY = killPlaneY(a.level);
  PropsWorld w(params);
  const uint32_t n = w.spawnRandom(1200, a.octree, a.octree.bounds(), 7);
  ASSERT_GT(n, 1000u);
  const float dt = 1.0f / 120.0f;
  uint64_t contacts = 0;
  for (int i = 0; i < 600; ++i) {
    w.step(a.octree, dt);
    contacts += w.lastStepStats().contacts;
  }
  std::string err;
  ASSERT_TRUE(w.validate(&err)) << err;
  EXPECT_GT(contacts, 100u) << "props never met: the test is not meaningful";
  uint32_t sunk = 0;
  for (uint32_t i = 0; i < w.size(); ++i) {
    if (w.removed()[i]) continue;
    const glm::vec3 c = w.positions()[i];
    const glm::vec3 h = w.halfExtents()[i] * 0.9f;  // deeper than 10 % of the size counts
    const uint32_t hits =
        w.shapes()[i] == PropShape::Sphere
            ? a.octree.collectSphere(c, h.x, kLayerSolid, {})
            : a.octree.collectBox(Aabb::fromCenterHalfExtents(c, h), kLayerSolid, {});
    sunk += hits > 0 ? 1u : 0u;
  }
  EXPECT_EQ(sunk, 0u);
  EXPECT_LE(w.size() - w.liveCount(), w.size() / 50) << "more than 2 % fell out of the arena";
  EXPECT_GT(w.restingCount(), w.liveCount() / 2) << "most props should sleep after 5 s";
}

TEST(PropsArena, ScriptWithPropsAndThrows) {
  const Arena& a = arena();
  const glm::vec3 s = a.level.spawn.value_or(glm::vec3(0.0f));
  std::ostringstream text;
  text << "prop sphere " << s.x << " " << s.y + 3.0f << " " << s.z - 2.0f << " 0.3\n"
       << "prop box " << s.x + 1.0f << " " << s.y + 2.0f << " " << s.z - 2.0f
       << " 0.2 0.3 0.4 0 0 -1\n"
       << "at 0.2 look 0 10\n"
       << "at 0.25 throw\n"
       << "at 0.5 hold forward\n"
       << "at 0.6 throw\n"
       << "end 2.5\n";
  ScriptParseResult parsed = parseScript(text.str(), "props.script");
  ASSERT_TRUE(parsed.ok) << parsed.error;
  ScenarioParams all;
  all.controller.layerMask = kLayerSolid;
  ASSERT_TRUE(parsed.script.applyParams(all));
  const ControllerParams& params = all.controller;
  PropsParams pp;
  pp.layerMask = kLayerSolid;
  std::string trace, props, propsTrace;
  PropsWorld world;
  runScriptWithProps(parsed.script, params, all.throwing, a.octree, s, a.level.spawnYaw,
                     killPlaneY(a.level), pp, &trace, &props, &propsTrace, &world);
  EXPECT_EQ(props.rfind(propsCsvHeader(), 0), 0u);
  EXPECT_EQ(countLines(props), 1u + 4u) << props;  // 2 placed + 2 thrown
  EXPECT_NE(props.find("\n0,sphere,"), std::string::npos);
  EXPECT_NE(props.find("\n1,box,"), std::string::npos);
  EXPECT_NE(props.find("\n3,sphere,"), std::string::npos);
  // 300 steps at 120 Hz; 2 props from the first step, 3 after 0.25 s, 4 after 0.6 s.
  EXPECT_EQ(countLines(propsTrace), 1u + 30u * 2u + 42u * 3u + 228u * 4u);
  EXPECT_EQ(countLines(trace), 1u + 301u);
  for (uint32_t i = 0; i < world.size(); ++i) {
    EXPECT_FALSE(world.removed()[i]) << "prop " << i << " fell out";
    EXPECT_GT(world.positions()[i].y, a.level.boundsMin.y);
  }
  EXPECT_EQ(world.halfExtents()[2].x, all.throwing.radius);
  // Same script, same files.
  std::string trace2, props2, propsTrace2;
  runScriptWithProps(parsed.script, params, all.throwing, a.octree, s, a.level.spawnYaw,
                     killPlaneY(a.level), pp, &trace2, &props2, &propsTrace2);
  EXPECT_EQ(props, props2);
  EXPECT_EQ(propsTrace, propsTrace2);
  EXPECT_EQ(trace, trace2);
}

}  // namespace
}  // namespace ofps::test
