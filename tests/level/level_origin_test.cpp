// Levels far from the origin move into a local frame (level/level_origin.h): per axis, only the
// axes reaching beyond 2 km, by their bounds' centre rounded to whole metres; every position of
// the level moves with them, exactly. Expected values are written out by hand.
#include "level/level_origin.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace ofps::loader {
namespace {

TEST(LevelOrigin, OnlyAxesBeyondTwoKilometresMove) {
  // Within 2 km on every axis (a 3 km terrain tile from 0 to 1.9 km, its far corner at 1.999 km).
  EXPECT_EQ(localOrigin({0.0f, -5.0f, -1999.0f}, {1900.0f, 40.0f, 1999.0f}), glm::dvec3(0.0));
  // East of the origin by 100 km, heights near sea level: x only, by the centre 100,010.5 rounded.
  EXPECT_EQ(localOrigin({100000.0f, -1.0f, -10.0f}, {100021.0f, 3.0f, 10.0f}),
            glm::dvec3(100011.0, 0.0, 0.0));
  // Survey coordinates: every axis far (UTM-like easting, northing; a high plateau).
  EXPECT_EQ(localOrigin({-500000.0f, 2500.0f, 4000000.0f}, {-499000.0f, 2600.0f, 4001000.0f}),
            glm::dvec3(-499500.0, 2550.0, 4000500.0));
  // Just past the distance on one side only.
  EXPECT_EQ(localOrigin({-2001.0f, 0.0f, 0.0f}, {-1990.0f, 1.0f, 1.0f}),
            glm::dvec3(-1996.0, 0.0, 0.0));
  // NaN bounds (an empty level never gets here; a broken one must not move by NaN).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(localOrigin({nan, nan, nan}, {nan, nan, nan}), glm::dvec3(0.0));
}

TEST(LevelOrigin, EveryPositionMovesExactly) {
  Level level;
  LevelMesh mesh;
  mesh.positions = {{100000.5f, 1.0f, -100000.25f}, {100002.0f, 2.0f, -99999.0f}};
  level.meshes.push_back(mesh);
  level.collisionPositions = mesh.positions;
  level.boundsMin = {100000.5f, 1.0f, -100000.25f};
  level.boundsMax = {100002.0f, 2.0f, -99999.0f};
  level.spawn = glm::vec3(100001.0f, 1.5f, -99999.5f);
  const glm::dvec3 origin = localOrigin(level.boundsMin, level.boundsMax);
  EXPECT_EQ(origin, glm::dvec3(100001.0, 0.0, -100000.0));  // 100001.25 and -99999.625 rounded
  moveToLocalFrame(level, origin);
  EXPECT_EQ(level.origin, origin);
  // Differences of floats this close are exact: the local values are the file's, minus whole m.
  EXPECT_EQ(level.meshes[0].positions[0], glm::vec3(-0.5f, 1.0f, -0.25f));
  EXPECT_EQ(level.meshes[0].positions[1], glm::vec3(1.0f, 2.0f, 1.0f));
  EXPECT_EQ(level.collisionPositions[1], glm::vec3(1.0f, 2.0f, 1.0f));
  EXPECT_EQ(level.boundsMin, glm::vec3(-0.5f, 1.0f, -0.25f));
  EXPECT_EQ(level.boundsMax, glm::vec3(1.0f, 2.0f, 1.0f));
  EXPECT_EQ(*level.spawn, glm::vec3(0.0f, 1.5f, 0.5f));
  // A zero origin touches nothing.
  Level near = level;
  moveToLocalFrame(near, glm::dvec3(0.0));
  EXPECT_EQ(near.collisionPositions, level.collisionPositions);
}

}  // namespace
}  // namespace ofps::loader
