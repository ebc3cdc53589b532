// Import settings: the --up/--scale a user chose are remembered beside the level (or per user
// when the level's folder is read-only) so the next load needs no flags.
#include "level/import_settings.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>

#include "level/level_loader.h"
#include "level_test_util.h"

namespace ofps {
namespace {

using test::TempDir;
using test::writeFile;

// A small Z-up "level" in Quake units whose shape would make the guess say Y-up (tall and thin),
// so only the settings can make it load Z-up.
void writeTower(const std::string& path) {
  writeFile(path,
            "v 0 0 0\nv 64 0 0\nv 64 0 1000\nv 0 0 1000\n"  // a tall wall in the XZ plane
            "f 1 2 3\nf 1 3 4\n");
}

struct ScopedXdg {
  explicit ScopedXdg(const std::string& dir) {
    if (const char* old = std::getenv("XDG_CONFIG_HOME")) saved = old;
    setenv("XDG_CONFIG_HOME", dir.c_str(), 1);
  }
  ~ScopedXdg() { setenv("XDG_CONFIG_HOME", saved.c_str(), 1); }
  std::string saved;
};

TEST(ImportSettings, ParseAndFormat) {
  std::string err;
  ImportSettings s;
  ASSERT_TRUE(parseImportSettings(R"({"up": "z", "scale": 0.0254, "level": "/x/y.obj"})", &s, &err))
      << err;
  EXPECT_EQ(s.upAxis, 'z');
  EXPECT_FLOAT_EQ(*s.scale, 0.0254f);
  ImportSettings again;
  ASSERT_TRUE(parseImportSettings(formatImportSettings(s, "/x/y.obj"), &again, &err)) << err;
  EXPECT_EQ(again.upAxis, 'z');
  EXPECT_FLOAT_EQ(*again.scale, 0.0254f);
  ImportSettings empty;
  EXPECT_TRUE(parseImportSettings("{}", &empty, &err));
  EXPECT_FALSE(empty.upAxis.has_value());
  // A failed parse leaves the output as it was.
  ImportSettings kept = s;
  EXPECT_FALSE(parseImportSettings(R"({"up": "x"})", &kept, &err));
  EXPECT_NE(err.find("up"), std::string::npos);
  EXPECT_EQ(kept.upAxis, 'z');
  EXPECT_FALSE(parseImportSettings(R"({"scale": -1})", &kept, &err));
  EXPECT_FALSE(parseImportSettings(R"({"up": "z",)", &kept, &err));
  EXPECT_FALSE(parseImportSettings("not json", &kept, &err));
  EXPECT_FLOAT_EQ(*kept.scale, 0.0254f);
}

TEST(ImportSettings, RememberedBesideTheLevel) {
  TempDir dir, config;
  ScopedXdg xdg(config.path());
  const std::string level = dir.file("tower.obj");
  writeTower(level);

  LevelLoadOptions first;
  first.upAxis = 'z';
  first.scale = 0.0254f;
  LevelLoadResult r = loadLevel(level, first);
  ASSERT_TRUE(r.ok) << r.error;
  const std::string beside = level + ".import.json";
  ASSERT_TRUE(std::filesystem::exists(beside));
  EXPECT_NEAR(r.level->boundsMax.y, 1000 * 0.0254f, 1e-4f);

  // No flags: the settings file decides.
  LevelLoadResult again = loadLevel(level);
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_EQ(again.level->frame.upAxis, 'z');
  EXPECT_FLOAT_EQ(again.level->frame.scale, 0.0254f);
  EXPECT_NE(again.level->frame.upSource.find(beside), std::string::npos)
      << again.level->frame.upSource;
  EXPECT_FALSE(again.level->frame.guessed);
  EXPECT_EQ(again.level->boundsMax, r.level->boundsMax);

  // Flags still win over the file, and replace it.
  LevelLoadOptions yUp;
  yUp.upAxis = 'y';
  yUp.scale = 1.0f;
  r = loadLevel(level, yUp);
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.level->frame.upAxis, 'y');
  auto stored = readImportSettings(level, nullptr);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->settings.upAxis, 'y');
}

TEST(ImportSettings, NotWrittenWithoutFlagsOrWhenAskedNotTo) {
  TempDir dir, config;
  ScopedXdg xdg(config.path());
  const std::string level = dir.file("tower.obj");
  writeTower(level);
  ASSERT_TRUE(loadLevel(level).ok);
  EXPECT_FALSE(std::filesystem::exists(level + ".import.json"));
  LevelLoadOptions o;
  o.upAxis = 'z';
  o.rememberSettings = false;
  ASSERT_TRUE(loadLevel(level, o).ok);
  EXPECT_FALSE(std::filesystem::exists(level + ".import.json"));
  EXPECT_FALSE(std::filesystem::exists(importSettingsPathPerUser(level)));
}

TEST(ImportSettings, FallsBackToPerUserFileWhenBesideIsNotWritable) {
  TempDir dir, config;
  ScopedXdg xdg(config.path());
  const std::string level = dir.file("readonly.obj");
  writeTower(level);
  // A folder where the settings file would go makes "beside" unwritable even for root.
  std::filesystem::create_directory(level + ".import.json");

  LevelLoadOptions o;
  o.upAxis = 'z';
  o.scale = 0.0254f;
  LevelLoadResult r = loadLevel(level, o);
  ASSERT_TRUE(r.ok) << r.error;
  const std::string perUser = importSettingsPathPerUser(level);
  EXPECT_EQ(perUser.rfind(config.path(), 0), 0u) << perUser;
  ASSERT_TRUE(std::filesystem::exists(perUser));
  bool warned = false;
  for (const std::string& w : r.warnings) warned = warned || w.find(perUser) != std::string::npos;
  EXPECT_TRUE(warned) << "no warning naming " << perUser;

  const LevelLoadResult again = loadLevel(level);
  ASSERT_TRUE(again.ok) << again.error;
  EXPECT_EQ(again.level->frame.upAxis, 'z');
  EXPECT_NE(again.level->frame.upSource.find(perUser), std::string::npos);
}

TEST(ImportSettings, NewerOfBesideAndPerUserWins) {
  TempDir dir, config;
  ScopedXdg xdg(config.path());
  const std::string level = dir.file("tower.obj");
  writeTower(level);
  writeFile(level + ".import.json", R"({"up": "y", "scale": 1})");
  const std::string perUser = importSettingsPathPerUser(level);
  std::filesystem::create_directories(std::filesystem::path(perUser).parent_path());
  writeFile(perUser, R"({"up": "z", "scale": 0.0254})");
  const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::hours(1);
  std::filesystem::last_write_time(level + ".import.json", old);
  auto s = readImportSettings(level, nullptr);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->path, perUser);
  std::filesystem::last_write_time(perUser, old - std::chrono::hours(1));
  s = readImportSettings(level, nullptr);
  ASSERT_TRUE(s);
  EXPECT_EQ(s->path, level + ".import.json");
}

TEST(ImportSettings, ReadOnlyFolderIsRespectedEvenForRoot) {
  TempDir dir, config;
  ScopedXdg xdg(config.path());
  const std::string sub = dir.file("shared");
  std::filesystem::create_directory(sub);
  const std::string level = sub + "/tower.obj";
  writeTower(level);
  std::filesystem::permissions(
      sub, std::filesystem::perms::owner_read | std::filesystem::perms::owner_exec);
  LevelLoadOptions o;
  o.upAxis = 'z';
  const LevelLoadResult r = loadLevel(level, o);
  std::filesystem::permissions(sub, std::filesystem::perms::owner_all);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_FALSE(std::filesystem::exists(level + ".import.json"));
  EXPECT_TRUE(std::filesystem::exists(importSettingsPathPerUser(level)));
  EXPECT_NE(test::readFile(importSettingsPathPerUser(level)).find("\"up\": \"z\""),
            std::string::npos);
}

TEST(ImportSettings, BrokenSettingsFileIsIgnoredWithAWarning) {
  TempDir dir, config;
  ScopedXdg xdg(config.path());
  const std::string level = dir.file("tower.obj");
  writeTower(level);
  writeFile(level + ".import.json", "{\"up\": \"sideways\"}");
  const LevelLoadResult r = loadLevel(level);
  ASSERT_TRUE(r.ok) << r.error;
  bool warned = false;
  for (const std::string& w : r.warnings)
    warned = warned || w.find("import.json ignored") != std::string::npos;
  EXPECT_TRUE(warned);
  EXPECT_EQ(r.level->frame.upAxis, 'y');  // the guess
}

TEST(ImportSettings, GuessExplainsItselfAndHowToOverride) {
  TempDir dir, config;
  ScopedXdg xdg(config.path());
  const std::string level = dir.file("tower.obj");
  writeTower(level);
  const LevelLoadResult r = loadLevel(level);
  ASSERT_TRUE(r.ok);
  EXPECT_TRUE(r.level->frame.guessed);
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_NE(r.warnings[0].find("--up"), std::string::npos) << r.warnings[0];
  EXPECT_NE(r.warnings[0].find("tower.obj.import.json"), std::string::npos) << r.warnings[0];
}

// The demo's Reload: the controls say exactly what to use, so remembered settings are not read;
// an explicit choice replaces them, and "auto" for both forgets them so the guess is back.
TEST(ImportSettings, ReimportReplacesOrForgetsRememberedSettings) {
  TempDir dir, config;
  ScopedXdg xdg(config.path());
  const std::string level = dir.file("tower.obj");
  writeTower(level);
  const std::string beside = level + ".import.json";
  writeFile(beside, R"({"up": "z", "scale": 0.0254})");

  LevelLoadOptions chosen;
  chosen.ignoreStoredSettings = true;
  chosen.upAxis = 'y';
  chosen.scale = 0.01f;
  LevelLoadResult r = loadLevel(level, chosen);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_EQ(r.level->frame.upAxis, 'y');
  EXPECT_FLOAT_EQ(r.level->frame.scale, 0.01f);
  auto stored = readImportSettings(level, nullptr);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->settings.upAxis, 'y');
  EXPECT_EQ(stored->settings.scale, 0.01f);

  LevelLoadOptions automatic;
  automatic.ignoreStoredSettings = true;
  r = loadLevel(level, automatic);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.level->frame.guessed);  // the settings file (Y-up cm) was not used
  EXPECT_FLOAT_EQ(r.level->frame.scale, 1.0f);
  EXPECT_FALSE(std::filesystem::exists(beside));
  // The next plain load guesses again.
  r = loadLevel(level);
  ASSERT_TRUE(r.ok) << r.error;
  EXPECT_TRUE(r.level->frame.guessed);
}

}  // namespace
}  // namespace ofps
