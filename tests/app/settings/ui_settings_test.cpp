// The saved view settings' JSON and file (app/settings/ui_settings.h): a round trip of non-default
// values, unknown and missing keys, malformed text and wrong types (defaults and one warning), a
// missing file (defaults, no warning), and where the file lives.
#include "app/settings/ui_settings.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace ofps::app {
namespace {
namespace fs = std::filesystem;

UiSettings everythingChanged() {
  UiSettings u;
  u.showPanel = false;
  u.panelWidth = 512.0f;
  u.octreeBoxes = true;
  u.octreeVisibleOnly = false;
  u.octreeLeavesOnly = true;
  u.queryView = true;
  u.gridView = true;
  u.gridQuery = false;
  u.gridQueryRadius = 7.5f;
  u.crosshair = false;
  u.wireframe = true;
  u.culling = false;
  u.occlusion = false;
  u.temporalCoherence = false;
  u.vsync = false;
  return u;
}

class TempDir : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("octree-fps-settings-" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string file(const char* name) const { return (dir_ / name).string(); }
  void write(const std::string& path, const std::string& text) const {
    fs::create_directories(fs::path(path).parent_path());
    std::ofstream(path) << text;
  }
  fs::path dir_;
};

TEST(UiSettingsJson, EveryFieldSurvivesARoundTrip) {
  const UiSettings u = everythingChanged();
  ASSERT_FALSE(u == UiSettings{});  // every field differs from its default
  std::string warning;
  EXPECT_EQ(parseUiSettings(serializeUiSettings(u), &warning), u);
  EXPECT_EQ(warning, "");
}

TEST(UiSettingsJson, MissingKeysKeepDefaultsUnknownKeysIgnored) {
  std::string warning;
  const UiSettings u = parseUiSettings(
      R"({"wireframe": true, "panel_width": 300, "from_the_future": [1, 2]})", &warning);
  EXPECT_EQ(warning, "");
  UiSettings expected;
  expected.wireframe = true;
  expected.panelWidth = 300.0f;
  EXPECT_EQ(u, expected);
}

TEST(UiSettingsJson, MalformedTextGivesDefaultsAndAWarning) {
  for (const char* text : {"", "{", "not json", "[true]", "42", "{\"vsync\": false,}"}) {
    std::string warning;
    EXPECT_EQ(parseUiSettings(text, &warning), UiSettings{}) << text;
    EXPECT_NE(warning, "") << text;
  }
}

TEST(UiSettingsJson, WrongTypeOrRangeGivesAllDefaultsAndNamesTheKey) {
  struct Case {
    const char* text;
    const char* key;
  };
  for (const Case c :
       {Case{R"({"wireframe": true, "vsync": "no"})", "vsync"},
        Case{R"({"wireframe": true, "panel_width": 5})", "panel_width"},
        Case{R"({"wireframe": true, "grid_query_radius": 1e9})", "grid_query_radius"},
        Case{R"({"wireframe": true, "crosshair": 1})", "crosshair"}}) {
    std::string warning;
    EXPECT_EQ(parseUiSettings(c.text, &warning), UiSettings{}) << c.text;
    EXPECT_NE(warning.find(c.key), std::string::npos) << warning;
  }
}

TEST_F(TempDir, SaveThenLoadGivesTheSameSettings) {
  const std::string path = file("nested/octree-fps/settings.json");
  std::string error, warning;
  ASSERT_TRUE(saveUiSettings(path, everythingChanged(), &error)) << error;
  EXPECT_EQ(loadUiSettings(path, &warning), everythingChanged());
  EXPECT_EQ(warning, "");
}

TEST_F(TempDir, MissingFileIsSilentDefaults) {
  std::string warning;
  EXPECT_EQ(loadUiSettings(file("none.json"), &warning), UiSettings{});
  EXPECT_EQ(warning, "");
}

TEST_F(TempDir, MalformedFileWarnsWithItsPath) {
  const std::string path = file("bad/settings.json");
  write(path, "{\"vsync\": fals");
  std::string warning;
  EXPECT_EQ(loadUiSettings(path, &warning), UiSettings{});
  EXPECT_NE(warning.find(path), std::string::npos) << warning;
}

TEST_F(TempDir, UnwritablePathFails) {
  write(file("blocker"), "a file where a folder should be");
  std::string error;
  EXPECT_FALSE(saveUiSettings(file("blocker/settings.json"), everythingChanged(), &error));
  EXPECT_NE(error, "");
}

TEST(UiSettingsPath, XdgConfigHomeThenHome) {
  const char* oldXdg = std::getenv("XDG_CONFIG_HOME");
  const char* oldHome = std::getenv("HOME");
  const std::string keepXdg = oldXdg ? oldXdg : "", keepHome = oldHome ? oldHome : "";
  setenv("XDG_CONFIG_HOME", "/tmp/xdg-here", 1);
  setenv("HOME", "/tmp/home-here", 1);
  EXPECT_EQ(settingsPath(), "/tmp/xdg-here/octree-fps/settings.json");
  unsetenv("XDG_CONFIG_HOME");
  EXPECT_EQ(settingsPath(), "/tmp/home-here/.config/octree-fps/settings.json");
  unsetenv("HOME");
  EXPECT_EQ(settingsPath(), "");
  if (oldXdg) setenv("XDG_CONFIG_HOME", keepXdg.c_str(), 1);
  if (oldHome) setenv("HOME", keepHome.c_str(), 1);
}

}  // namespace
}  // namespace ofps::app
