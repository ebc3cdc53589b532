// The demo's one parameter table: a script's `set` and the panel's sliders change the same
// ScenarioParams, so neither undoes the other; the panel's sliders take the table's ranges.
// Expected values are written out by hand, never read back from the table under test.
#include "scenario/param_table.h"

#include <gtest/gtest.h>

#include <string>

#include "scenario/param_edit.h"
#include "scenario/script.h"

namespace ofps::test {
namespace {

// The demo's flow: a script's `set` lines applied to the demo's parameters, then a slider.
TEST(ParamTable, ScriptThenSliderKeepsBothOctreeParameters) {
  ScenarioParams params;  // the demo's one copy
  const ScriptParseResult parsed =
      parseScript("set triangles_per_leaf 32\nend 1\n", "octree.script", params);
  ASSERT_TRUE(parsed.ok) << parsed.error;
  std::string error;
  ASSERT_TRUE(parsed.script.applyParams(params, &error)) << error;
  // The panel shows the script's value (it reads the same struct the script set).
  const ParamInfo* perLeaf = findParam("triangles_per_leaf");
  ASSERT_NE(perLeaf, nullptr);
  EXPECT_EQ(paramValue(params, *perLeaf), 32.0f);
  // Dragging the other octree slider keeps the script's value.
  const ParamInfo* maxLevel = findParam("max_level");
  ASSERT_NE(maxLevel, nullptr);
  ASSERT_TRUE(editParam(params, *maxLevel, 10.0f, &error)) << error;
  EXPECT_EQ(params.octree.trianglesPerLeaf, 32u);
  EXPECT_EQ(params.octree.maxLevel, 10u);
  // And the other way round: a script's max_level survives a triangles_per_leaf drag.
  ScenarioParams other;
  const ScriptParseResult second = parseScript("set max_level 5\nend 1\n", "octree.script", other);
  ASSERT_TRUE(second.ok) << second.error;
  ASSERT_TRUE(second.script.applyParams(other, &error)) << error;
  ASSERT_TRUE(editParam(other, *perLeaf, 100.0f, &error)) << error;
  EXPECT_EQ(other.octree.trianglesPerLeaf, 100u);
  EXPECT_EQ(other.octree.maxLevel, 5u);
}

TEST(ParamTable, ThrowParametersAreTheThrowsOwn) {
  ScenarioParams params;
  const ScriptParseResult parsed =
      parseScript("set throw_speed 20\nset throw_radius 0.3\nend 1\n", "throw.script", params);
  ASSERT_TRUE(parsed.ok) << parsed.error;
  ASSERT_TRUE(parsed.script.applyParams(params));
  EXPECT_EQ(params.throwing.speed, 20.0f);
  EXPECT_EQ(params.throwing.radius, 0.3f);
  // The controller's and the octree's defaults are untouched.
  EXPECT_EQ(params.controller.walkSpeed, 4.5f);
  EXPECT_EQ(params.octree.trianglesPerLeaf, 8u);
  EXPECT_EQ(params.octree.maxLevel, 16u);
}

// Ranges as docs/script-format.md gives them (written out here, not read from the table).
TEST(ParamTable, SlidersTakeTheTableRanges) {
  struct Range {
    const char* name;
    float lo, hi;
    bool integer;
  };
  const Range documented[] = {{"triangles_per_leaf", 1.0f, 1024.0f, true},
                              {"max_level", 0.0f, 24.0f, true},
                              {"radius", 0.05f, 5.0f, false},
                              {"max_slope", 0.0f, 89.0f, false},
                              {"tick_hz", 10.0f, 1000.0f, false},
                              {"throw_speed", 0.0f, 1000.0f, false}};
  for (const Range& r : documented) {
    const ParamInfo* info = findParam(r.name);
    ASSERT_NE(info, nullptr) << r.name;
    const ParamSlider slider = paramSlider(*info);
    EXPECT_EQ(slider.minValue, r.lo) << r.name;
    EXPECT_EQ(slider.maxValue, r.hi) << r.name;
    EXPECT_EQ(slider.integer, r.integer) << r.name;
  }
  // Every row: the slider spans exactly what a script may set, no more and no less.
  for (const ParamInfo& info : paramInfos()) {
    const ParamSlider slider = paramSlider(info);
    ScenarioParams p;
    std::string error;
    EXPECT_TRUE(setParam(p, info, slider.minValue, &error)) << info.name << ": " << error;
    EXPECT_TRUE(setParam(p, info, slider.maxValue, &error)) << info.name << ": " << error;
    const float below = info.isInteger ? slider.minValue - 1.0f : slider.minValue * 0.5f - 1.0f;
    EXPECT_FALSE(setParam(p, info, below)) << info.name;
    EXPECT_FALSE(setParam(p, info, slider.maxValue * 2.0f + 1.0f)) << info.name;
  }
}

TEST(ParamTable, RejectedSliderChangeLeavesTheParameters) {
  ScenarioParams params;
  const ScenarioParams before = params;
  const ParamInfo* crouch = findParam("crouch_height");
  ASSERT_NE(crouch, nullptr);
  std::string error;
  // 3 m crouched is above the 1.8 m standing height: within the row's range, but not valid.
  EXPECT_FALSE(editParam(params, *crouch, 3.0f, &error));
  EXPECT_NE(error.find("crouch_height"), std::string::npos) << error;
  EXPECT_EQ(params.controller.crouchHeight, before.controller.crouchHeight);
  const ParamInfo* perLeaf = findParam("triangles_per_leaf");
  ASSERT_NE(perLeaf, nullptr);
  EXPECT_FALSE(editParam(params, *perLeaf, 2.5f, &error));
  EXPECT_EQ(params.octree.trianglesPerLeaf, 8u);
}

}  // namespace
}  // namespace ofps::test
