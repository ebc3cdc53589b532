#pragma once
// Levels far from the origin (projected survey coordinates, CAD and city models, IFC sites): the
// loader moves them into a local frame so that the core's single-precision queries and the
// character controller run where a float still resolves a millimetre.
//
// Rule, per axis: when the level's bounds (Y-up metres, after the file's frame and scale) reach
// farther than kLocalFrameDistance from 0 along an axis, the level is translated along it by
// minus the centre of its bounds there, rounded to whole metres (Level::origin); axes within the
// distance are left alone (a city model at 100 km east keeps its heights). Everything in the
// Level is then local: file coordinates = local + origin. Whole metres keep the offset exact in
// float and double and easy to read in messages.
//
// Precision: the file's own coordinates reach the loader as floats (Assimp's), so a level at
// 100 km is already quantised to float's 7.8 mm spacing there; the move itself (double, then
// float) is exact. Thread-safety: pure functions on their arguments.
#include <glm/vec3.hpp>

#include "level/level.h"

namespace ofps::loader {

inline constexpr double kLocalFrameDistance = 2000.0;  // m

// The local frame's origin for bounds [lo, hi]: per axis, zero within kLocalFrameDistance, else
// the bounds' centre on that axis rounded to whole metres. NaN bounds give zero.
glm::dvec3 localOrigin(const glm::vec3& lo, const glm::vec3& hi);

// Translates every position of the level (meshes, collision soup, bounds, spawn) by -origin and
// sets level.origin. Positions are computed in double and rounded once.
void moveToLocalFrame(Level& level, const glm::dvec3& origin);

}  // namespace ofps::loader
