#pragma once
// What a thrown prop starts with: a sphere leaving the eye along the view (a click in the demo,
// `at T throw` in a script). The props simulation (octree_fps/props) moves it from there; the
// controller never sees these. Units: metres, seconds. Plain values, no thread-safety concerns.

namespace ofps {

struct ThrowParams {
  float speed = 15.0f;   // m/s along the view, added to the character's velocity (default 15)
  float radius = 0.15f;  // the sphere's radius, m (default 0.15)
};

}  // namespace ofps
