// Script parsing (docs/script-format.md): every command, and every error naming its line; the
// parameter table; the runner's timing rules (at T, tap = one step, end T) on a flat floor.

#include "scenario/script.h"

#include <gtest/gtest.h>

#include <string>

#include "controller/controller_test_util.h"
#include "octree_fps/controller/controller_params.h"
#include "scenario/param_table.h"
#include "scenario/script_runner.h"

namespace ofps::test {
namespace {

TEST(ControllerScript, ParsesEveryCommand) {
  const ScriptParseResult r = parseScript(
      "# comment\nset step_height 0.3   # trailing comment\nset tick_hz 60\n"
      "spawn 1 2 3 90 -10\nprop sphere 0 1 0 0.2\nprop box 0 1 0 0.5 0.5 0.5 1 0 0\n"
      "at 0 hold forward\nat 0 tap jump\nat 0.5 release forward\nat 0.5 look 45 5\n"
      "at 1 turn -10 2\nat 1 fly on\nat 1.5 fly off\nat 2 throw\nend 3\n",
      "all.script");
  ASSERT_TRUE(r.ok) << r.error;
  const Script& s = r.script;
  ASSERT_EQ(s.params.size(), 2u);
  EXPECT_EQ(s.params[0].name, "step_height");
  EXPECT_EQ(s.params[0].line, 2u);
  ASSERT_TRUE(s.spawn.has_value());
  EXPECT_EQ(s.spawn->feet, glm::vec3(1, 2, 3));
  EXPECT_EQ(*s.spawn->yawDegrees, 90.0f);
  EXPECT_EQ(*s.spawn->pitchDegrees, -10.0f);
  ASSERT_EQ(s.props.size(), 2u);
  EXPECT_EQ(s.props[0].halfExtents, glm::vec3(0.2f));
  EXPECT_EQ(s.props[1].velocity, glm::vec3(1, 0, 0));
  ASSERT_EQ(s.events.size(), 8u);
  EXPECT_EQ(s.events[1].action, ScriptAction::Tap);
  EXPECT_EQ(s.events[1].key, ScriptKey::Jump);
  EXPECT_EQ(s.events[3].action, ScriptAction::Look);
  EXPECT_EQ(s.events[5].on, true);
  EXPECT_EQ(s.events[7].action, ScriptAction::Throw);
  EXPECT_EQ(s.endTime, 3.0);
  ScenarioParams p;
  ASSERT_TRUE(s.applyParams(p));
  EXPECT_EQ(p.controller.stepHeight, 0.3f);
  EXPECT_EQ(p.controller.tickHz, 60.0f);
}

TEST(ControllerScript, ErrorsNameTheLine) {
  struct Case {
    const char* text;
    const char* expect;  // substring of the error
  };
  const Case cases[] = {
      {"at 0 hold forward\nbogus 1\nend 1\n", "s:2: unknown command 'bogus'"},
      {"at 0 hold jmp\nend 1\n", "s:1: unknown key 'jmp'"},
      {"set gravitas 3\nend 1\n", "s:1: unknown parameter 'gravitas'"},
      {"set radius -1\nend 1\n", "s:1: radius = -1 is outside"},
      {"set radius abc\nend 1\n", "s:1: 'abc' is not a number"},
      {"at 1 hold forward\nat 0.5 release forward\nend 2\n", "s:2: time 0.5 goes backwards"},
      {"at 0 hold forward\n", "s:1: missing 'end T'"},
      {"at 0 hold forward\nset radius 0.3\nend 1\n", "s:2: 'set' must come before"},
      {"end 1\nat 2 hold forward\n", "s:2: command after 'end'"},
      {"at 0 fly maybe\nend 1\n", "s:1: expected 'at T fly on'"},
      {"at 0 look 10\nend 1\n", "s:1: expected 'at T look YAW PITCH'"},
      {"spawn 1 2\nend 1\n", "s:1: expected 'spawn X Y Z"},
      {"prop cone 0 0 0 1\nend 1\n", "s:1: unknown prop shape 'cone'"},
      {"at 1.5x hold forward\nend 2\n", "s:1: '1.5x' is not a time"},
      {"at 2 hold forward\nend 1\n", "s:2: time 1 goes backwards"},
      // Set together, height and radius must fit (height 0.5 alone is valid: the unset eye and
      // crouch heights follow it).
      {"set height 0.5\nset radius 0.3\nend 1\n", "s:2: parameters do not fit together"},
      {"set triangles_per_leaf 2.5\nend 1\n", "s:1: triangles_per_leaf must be an integer"},
      // Numbers a float cannot hold, sizes and positions out of range (they used to reach the
      // props' asserts, or fling a 1e30 m sphere away).
      {"prop sphere 0 1 -5 0.1 1e39 0 0\nend 1\n", "s:1: '1e39' is out of range"},
      {"prop sphere 0 1e39 0 0.1\nend 1\n", "s:1: '1e39' is out of range"},
      {"prop sphere 0 1 0 1e-50\nend 1\n", "s:1: sphere radius '1e-50' is out of range"},
      {"prop sphere 0 1 0 1e30\nend 1\n", "s:1: sphere radius '1e30' is out of range"},
      {"prop box 0 1 0 0.5 1e39 0.5\nend 1\n", "s:1: '1e39' is out of range"},
      {"prop box 0 1 0 0.5 2000 0.5\nend 1\n", "s:1: box half-extent '2000' is out of range"},
      {"prop box 1e30 1 0 0.5 0.5 0.5\nend 1\n", "s:1: coordinate '1e30' is farther than"},
      {"spawn 0 0 2e7\nend 1\n", "s:1: coordinate '2e7' is farther than"},
      {"spawn 0 0 0 1e40\nend 1\n", "s:1: '1e40' is out of range"},
  };
  for (const Case& c : cases) {
    const ScriptParseResult r = parseScript(c.text, "s");
    EXPECT_FALSE(r.ok) << c.text;
    EXPECT_NE(r.error.find(c.expect), std::string::npos) << "got: " << r.error;
  }
}

TEST(ControllerScript, ParamTableCoversEveryScriptName) {
  const char* names[] = {"radius",
                         "height",
                         "crouch_height",
                         "eye_height",
                         "step_height",
                         "max_slope",
                         "walk_speed",
                         "sprint_speed",
                         "crouch_speed",
                         "accel",
                         "air_control",
                         "jump_speed",
                         "gravity",
                         "max_fall_speed",
                         "coyote_time",
                         "jump_buffer",
                         "snap_distance",
                         "stick_to_floor",
                         "skin",
                         "throw_speed",
                         "throw_radius",
                         "tick_hz",
                         "triangles_per_leaf",
                         "max_level"};
  EXPECT_EQ(paramInfos().size(), std::size(names));
  ScenarioParams p;
  EXPECT_TRUE(validateParams(p));
  for (const char* n : names) {
    const ParamInfo* info = findParam(n);
    ASSERT_NE(info, nullptr) << n;
    float v = 0.0f;
    ASSERT_TRUE(getParam(p, n, v));
    EXPECT_GE(v, info->minValue) << n;
    EXPECT_LE(v, info->maxValue) << n;
    ScenarioParams q;
    ASSERT_TRUE(setParam(q, n, v)) << n;
  }
}

TEST(ControllerScript, RunnerTimingTapAndEnd) {
  MeshBuilder m;
  m.floor(0.0f, -50.0f, 50.0f, -50.0f, 50.0f);
  const Octree o = m.build();
  // end 0.5 at 120 Hz: 60 steps; tap jump at 0.1 = step 12 exactly; forward from 0.25.
  ScriptParseResult r = parseScript(
      "spawn 0 0 0\nat 0.1 tap jump\nat 0.25 hold forward\nat 0.25 hold jump\nend 0.5\n");
  ASSERT_TRUE(r.ok) << r.error;
  ControllerParams p;
  ScriptRunner runner(r.script, p, ThrowParams{}, glm::vec3(0.0f), 0.0f, -50.0f);
  EXPECT_EQ(runner.totalSteps(), 60u);
  std::vector<TraceRow> rows;
  runner.run(o, [&](const TraceRow& row) { rows.push_back(row); });
  ASSERT_EQ(rows.size(), 61u);
  EXPECT_EQ(rows.back().t, 0.5);
  // Row k is the end of step k-1; the tap acts in step 12 (row 13): the jump starts there.
  EXPECT_LE(rows[12].velocity.y, 0.0f);
  EXPECT_GT(rows[13].velocity.y, 6.0f);
  // Holding jump at 0.25 while airborne from the first jump asks for one more jump (buffered),
  // which fires on landing only if that is within jump_buffer: here it is not, so one jump.
  int takeoffs = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    takeoffs += rows[i].velocity.y > 6.0f && rows[i - 1].velocity.y <= 6.0f ? 1 : 0;
  }
  EXPECT_EQ(takeoffs, 1);
}

}  // namespace
}  // namespace ofps::test
