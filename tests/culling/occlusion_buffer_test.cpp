// The occlusion buffer's conservative property on hand-made scenes, and every written pixel of
// random occluders (single triangles and pairs sharing an edge) checked against rays cast
// through the pixel's corners.
//
// Camera for every test: eye at the origin looking down -Z (Y up), vertical field of view 90
// degrees, aspect 2, near 0.1, far 100. At view depth d the screen spans x in [-2d, 2d] and
// y in [-d, d], so the buffer's pixel edges are easy to place by hand. The reference in the
// Random*AgreeWithCornerRays tests intersects the four corner rays of each pixel with the
// world-space triangle (Moller-Trumbore in double): it shares no code or formula with the
// homogeneous rasterizer under test.
#include "octree_fps/culling/occlusion_buffer.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <glm/ext/matrix_clip_space.hpp>
#include <glm/ext/matrix_transform.hpp>
#include <random>

namespace ofps {
namespace {

constexpr float kNear = 0.1f;

glm::mat4 testCamera() {
  const glm::mat4 proj = glm::perspective(glm::radians(90.0f), 2.0f, kNear, 100.0f);
  const glm::mat4 view =
      glm::lookAt(glm::vec3(0.0f), glm::vec3(0.0f, 0.0f, -1.0f), glm::vec3(0.0f, 1.0f, 0.0f));
  return proj * view;
}

Aabb box(float x0, float x1, float y0, float y1, float z0, float z1) {
  return {{x0, y0, z0}, {x1, y1, z1}};
}

// One triangle covering the whole screen at view depth d (its edges are far off screen).
void fullScreenWall(OcclusionBuffer& b, float d) {
  b.rasterizeTriangle({-1000.0f * d, -1000.0f * d, -d}, {1000.0f * d, -1000.0f * d, -d},
                      {0.0f, 1000.0f * d, -d});
}

uint32_t writtenPixels(const OcclusionBuffer& b) {
  uint32_t n = 0;
  for (float v : b.inverseDepth()) n += v > 0.0f ? 1u : 0u;
  return n;
}

TEST(OcclusionBuffer, EmptyBufferHidesNothing) {
  OcclusionBuffer b;
  b.begin(testCamera());
  EXPECT_FALSE(b.boxHidden(box(-1, 1, -1, 1, -30, -20)));
  EXPECT_EQ(writtenPixels(b), 0u);
}

TEST(OcclusionBuffer, FullScreenOccluderCoversEveryPixelAtItsDepth) {
  OcclusionBuffer b;
  b.begin(testCamera());
  fullScreenWall(b, 10.0f);
  EXPECT_EQ(writtenPixels(b), b.width() * b.height());
  // A plane facing the camera has w = 10 everywhere: the stored bound is at most 1/10 and
  // within rounding of it.
  for (float v : b.inverseDepth()) {
    ASSERT_LE(v, 0.1f);
    ASSERT_GT(v, 0.1f * (1.0f - 1e-6f));
  }
}

// The wall covers x <= 0 (the screen's left half, up to pixel column 128) at depth 10.
void leftHalfWall(OcclusionBuffer& b) {
  b.rasterizeTriangle({0.0f, -1000.0f, -10.0f}, {0.0f, 1000.0f, -10.0f}, {-1000.0f, 0.0f, -10.0f});
}

TEST(OcclusionBuffer, BoxBehindWallEdge) {
  OcclusionBuffer b;
  b.begin(testCamera());
  leftHalfWall(b);
  // Wholly behind the wall: hidden (shows the test can hide at all).
  EXPECT_TRUE(b.boxHidden(box(-30, -5, -5, 5, -30, -20)));
  // Behind the wall but reaching past its edge by less than a pixel at its depth (a pixel is
  // 4 * 20 / 256 = 0.31 units wide at depth 20): visible past the edge.
  EXPECT_FALSE(b.boxHidden(box(-30, 0.1f, -5, 5, -30, -20)));
  EXPECT_FALSE(b.boxHidden(box(-30, 0.5f, -5, 5, -30, -20)));
  // Past the edge entirely: nothing covers it.
  EXPECT_FALSE(b.boxHidden(box(1, 5, -5, 5, -30, -20)));
  // In front of the wall, and touching it (strictly nearer is required).
  EXPECT_FALSE(b.boxHidden(box(-10, -5, -2, 2, -9, -5)));
  EXPECT_FALSE(b.boxHidden(box(-10, -5, -2, 2, -12, -10)));
  // Just behind the wall: hidden.
  EXPECT_TRUE(b.boxHidden(box(-10, -5, -2, 2, -12, -10.01f)));
}

TEST(OcclusionBuffer, BoxStraddlingNearPlaneIsVisible) {
  OcclusionBuffer b;
  b.begin(testCamera());
  fullScreenWall(b, 1.0f);
  EXPECT_TRUE(b.boxHidden(box(-0.5f, 0.5f, -0.5f, 0.5f, -5, -2)));
  // From in front of the near plane (z > -0.1) to behind the wall.
  EXPECT_FALSE(b.boxHidden(box(-0.5f, 0.5f, -0.5f, 0.5f, -3, -0.05f)));
  // Wholly between the eye and the near plane: not ours to hide (the frustum culls it).
  EXPECT_FALSE(b.boxHidden(box(-0.01f, 0.01f, -0.01f, 0.01f, -0.09f, -0.02f)));
  // Exactly on the near plane.
  EXPECT_FALSE(b.boxHidden(box(-0.01f, 0.01f, -0.01f, 0.01f, -3, -kNear)));
}

TEST(OcclusionBuffer, BoxLargerThanTheView) {
  OcclusionBuffer b;
  b.begin(testCamera());
  fullScreenWall(b, 10.0f);
  EXPECT_TRUE(b.boxHidden(box(-1e4f, 1e4f, -1e4f, 1e4f, -50, -20)));
  EXPECT_FALSE(b.boxHidden(box(-1e4f, 1e4f, -1e4f, 1e4f, -50, -5)));
  EXPECT_FALSE(b.boxHidden(box(-1e4f, 1e4f, -1e4f, 1e4f, -50, 1)));  // holds the eye
}

TEST(OcclusionBuffer, BoxBehindTheEyeIsVisible) {
  OcclusionBuffer b;
  b.begin(testCamera());
  fullScreenWall(b, 10.0f);
  EXPECT_FALSE(b.boxHidden(box(-1, 1, -1, 1, 1, 5)));
  EXPECT_FALSE(b.boxHidden(box(-1, 1, -1, 1, 20, 30)));
}

TEST(OcclusionBuffer, OccluderCrossingNearPlane) {
  OcclusionBuffer b;
  b.begin(testCamera());
  // A floor at y = -1 from behind the eye (z = 5) to z = -50.
  const uint32_t covered =
      b.rasterizeTriangle({-100.0f, -1.0f, 5.0f}, {100.0f, -1.0f, 5.0f}, {0.0f, -1.0f, -50.0f});
  EXPECT_GT(covered, b.width() * b.height() / 4);  // most of the lower half
  // Under the floor: hidden. Reaching above it: visible.
  EXPECT_TRUE(b.boxHidden(box(-1, 1, -5, -3, -20, -12)));
  EXPECT_FALSE(b.boxHidden(box(-1, 1, -5, -0.5f, -20, -12)));
  // Nothing may be written where the floor is nearer than the near plane: the floor reaches
  // depth 0.1 only at the screen's bottom edge (y = -1 at depth 0.1 is far below ndc -1), so
  // every written value is at most 1 / near and the top half stays empty.
  for (uint32_t y = 0; y < b.height(); ++y) {
    for (uint32_t x = 0; x < b.width(); ++x) {
      ASSERT_LE(b.inverseDepthAt(x, y), 1.0f / kNear);
      if (y >= b.height() / 2) {
        ASSERT_EQ(b.inverseDepthAt(x, y), 0.0f);
      }
    }
  }
  // A triangle from a vertex in front of the near plane (depth 0.05, on screen) to depth 20:
  // pixels next to that vertex's image are nearer than the near plane and must stay empty, while
  // pixels just beyond it are written. Points with depth below 0.1 have 1 / w above 10.
  b.begin(testCamera());
  EXPECT_GT(
      b.rasterizeTriangle({0.0f, 0.0f, -0.05f}, {-10.0f, -5.0f, -20.0f}, {10.0f, -5.0f, -20.0f}),
      0u);
  float nearest = 0.0f;
  for (float v : b.inverseDepth()) nearest = std::max(nearest, v);
  EXPECT_LE(nearest, 10.0f);
  EXPECT_GT(nearest, 5.0f);  // something was written closer than depth 0.2
  // A triangle wholly between the eye and the near plane writes nothing.
  b.begin(testCamera());
  EXPECT_EQ(
      b.rasterizeTriangle({-1.0f, -1.0f, -0.05f}, {1.0f, -1.0f, -0.05f}, {0.0f, 1.0f, -0.05f}), 0u);
  EXPECT_EQ(writtenPixels(b), 0u);
}

TEST(OcclusionBuffer, SliversCoveringNoWholePixelDoNotOcclude) {
  OcclusionBuffer b;
  b.begin(testCamera());
  // At depth 10 a pixel is 40 / 256 = 0.156 units square. A vertical sliver 0.07 wide:
  EXPECT_EQ(
      b.rasterizeTriangle({0.01f, -5.0f, -10.0f}, {0.08f, -5.0f, -10.0f}, {0.045f, 5.0f, -10.0f}),
      0u);
  // A diagonal sliver at most 1.2 pixels wide across its length (a pixel needs sqrt(2)):
  const float px = 40.0f / 256.0f;
  EXPECT_EQ(b.rasterizeTriangle({-5.0f, -5.0f, -10.0f}, {5.0f, 5.0f, -10.0f},
                                {0.6f * px * 1.4142f, -0.6f * px * 1.4142f, -10.0f}),
            0u);
  // A triangle inside one pixel.
  EXPECT_EQ(
      b.rasterizeTriangle({0.01f, 0.01f, -10.0f}, {0.1f, 0.01f, -10.0f}, {0.05f, 0.1f, -10.0f}),
      0u);
  EXPECT_EQ(writtenPixels(b), 0u);
  EXPECT_FALSE(b.boxHidden(box(-0.01f, 0.01f, -0.01f, 0.01f, -30, -20)));
  // Two triangles sharing the diagonal of a square: the pixels the diagonal crosses are covered
  // by neither alone, so they stay empty (conservative, at the cost of those pixels).
  b.begin(testCamera());
  b.rasterizeTriangle({-4, -4, -10}, {4, -4, -10}, {4, 4, -10});
  b.rasterizeTriangle({-4, -4, -10}, {4, 4, -10}, {-4, 4, -10});
  EXPECT_FALSE(b.boxHidden(box(-1, 1, -1, 1, -30, -20)));
  EXPECT_TRUE(b.boxHidden(box(2, 3, -3, -2, -30, -20)));  // below the diagonal, one triangle
  // The same square as a pair (shared edge (-4,-4)-(4,4)): the diagonal's pixels are covered.
  b.begin(testCamera());
  b.rasterizeTrianglePair({4, -4, -10}, {4, 4, -10}, {-4, 4, -10}, {-4, -4, -10});
  EXPECT_TRUE(b.boxHidden(box(-1, 1, -1, 1, -30, -20)));
  EXPECT_FALSE(b.boxHidden(box(-1, 10, -1, 1, -30, -20)));  // past the square's edge
  // A folded pair (both triangles on the same side of the shared edge) is not a quad: only what
  // each triangle covers alone may be written.
  b.begin(testCamera());
  b.rasterizeTrianglePair({4, -4, -10}, {4, 4, -10}, {2, -3, -10}, {-4, -4, -10});
  EXPECT_FALSE(b.boxHidden(box(-3.5f, -3.2f, 3.2f, 3.5f, -30, -20)));  // outside both
}

// Reference: the ray from the eye through pixel corner (i, j) (pixel units) hits the triangle
// at view depth t >= near? Returns t, or a negative value on a miss. Moller-Trumbore in double.
double cornerHitDepth(const OcclusionBuffer& b, double i, double j, const glm::dvec3 (&v)[3]) {
  const double ndcX = 2.0 * i / b.width() - 1.0, ndcY = 2.0 * j / b.height() - 1.0;
  const glm::dvec3 dir(ndcX * 2.0, ndcY, -1.0);  // tan(45 deg) = 1, aspect 2; view = world
  const glm::dvec3 e1 = v[1] - v[0], e2 = v[2] - v[0];
  const glm::dvec3 p = glm::cross(dir, e2);
  const double det = glm::dot(e1, p);
  if (std::fabs(det) < 1e-300) return -1.0;
  const glm::dvec3 s = -v[0];
  const double u = glm::dot(s, p) / det;
  const glm::dvec3 q = glm::cross(s, e1);
  const double w = glm::dot(dir, q) / det;
  const double t = glm::dot(e2, q) / det;  // view depth, since dir.z = -1
  if (u < 0.0 || w < 0.0 || u + w > 1.0 || t < static_cast<double>(kNear)) return -1.0;
  return t;
}

// Pairs of triangles sharing an edge (convex, folded, non-planar, crossing the near plane):
// every written pixel's corner rays hit one of the two, and at each corner the nearer hit is at
// least as near as the written bound says.
TEST(OcclusionBuffer, RandomTrianglePairsAgreeWithCornerRays) {
  std::mt19937 rng(99);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  OcclusionBuffer b;
  uint64_t written = 0, quads = 0;
  for (int trial = 0; trial < 300; ++trial) {
    b.begin(testCamera());
    const float scale = trial % 2 == 0 ? 5.0f : 30.0f;
    glm::vec3 f[4];
    for (glm::vec3& p : f) {
      p = glm::vec3(u(rng) * 2.0f, u(rng), -0.5f * (u(rng) + 1.0f)) * scale;
      if (trial % 5 == 0 && u(rng) > 0.5f) p.z = std::fabs(p.z) + 0.01f;
    }
    // Mostly near-planar convex pairs (the common case in levels): s mirrors p across the edge
    // q-r's midpoint, then is perturbed.
    if (trial % 3 != 0) {
      const glm::vec3 mid = (f[1] + f[3]) * 0.5f;
      f[2] = mid + (mid - f[0]) * (0.5f + 0.5f * std::fabs(u(rng))) +
             glm::vec3(u(rng), u(rng), u(rng)) * (0.05f * scale);
    }
    const uint32_t covered = b.rasterizeTrianglePair(f[0], f[1], f[2], f[3]);
    const glm::dvec3 t1[3] = {glm::dvec3(f[0]), glm::dvec3(f[1]), glm::dvec3(f[3])};
    const glm::dvec3 t2[3] = {glm::dvec3(f[1]), glm::dvec3(f[2]), glm::dvec3(f[3])};
    uint32_t count = 0;
    for (uint32_t y = 0; y < b.height(); ++y) {
      for (uint32_t x = 0; x < b.width(); ++x) {
        const float got = b.inverseDepthAt(x, y);
        if (got == 0.0f) continue;
        ++count;
        for (int c = 0; c < 4; ++c) {
          const double d1 = cornerHitDepth(b, x + (c & 1), y + (c >> 1), t1);
          const double d2 = cornerHitDepth(b, x + (c & 1), y + (c >> 1), t2);
          const double nearest = std::min(d1 > 0.0 ? d1 : 1e300, d2 > 0.0 ? d2 : 1e300);
          ASSERT_LT(nearest, 1e300) << "trial " << trial << " pixel " << x << "," << y
                                    << ": written, but its corner " << c << " misses both";
          ASSERT_LE(static_cast<double>(got), 1.0 / nearest)
              << "trial " << trial << " pixel " << x << "," << y << ": depth bound too near";
        }
      }
    }
    EXPECT_LE(count, covered) << "trial " << trial;  // overlapping fallbacks count twice
    written += count;
    quads += count > 0 && trial % 3 != 0 ? 1 : 0;
  }
  EXPECT_GT(written, 50000u);
  EXPECT_GT(quads, 100u);
}

TEST(OcclusionBuffer, RandomOccludersAgreeWithCornerRays) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  OcclusionBuffer b;
  uint64_t written = 0, triangles = 0, crossingNear = 0;
  double tightness = 0.0;
  for (int trial = 0; trial < 400; ++trial) {
    b.begin(testCamera());
    // Vertices in front of and (one in four trials) behind the eye, at various scales.
    const float scale = trial % 3 == 0 ? 0.5f : (trial % 3 == 1 ? 5.0f : 40.0f);
    glm::vec3 f[3];
    bool behind = false;
    for (glm::vec3& p : f) {
      p = glm::vec3(u(rng) * 2.0f, u(rng), -0.5f * (u(rng) + 1.0f)) * scale;
      if (trial % 4 == 0 && u(rng) > 0.3f) p.z = std::fabs(p.z) + 0.01f;
      behind = behind || p.z > -kNear;
    }
    crossingNear += behind ? 1 : 0;
    const uint32_t covered = b.rasterizeTriangle(f[0], f[1], f[2]);
    const glm::dvec3 v[3] = {glm::dvec3(f[0]), glm::dvec3(f[1]), glm::dvec3(f[2])};
    uint32_t count = 0;
    for (uint32_t y = 0; y < b.height(); ++y) {
      for (uint32_t x = 0; x < b.width(); ++x) {
        const float got = b.inverseDepthAt(x, y);
        if (got == 0.0f) continue;
        ++count;
        double minInv = 1e300;
        for (int c = 0; c < 4; ++c) {
          const double t = cornerHitDepth(b, x + (c & 1), y + (c >> 1), v);
          ASSERT_GT(t, 0.0) << "trial " << trial << " pixel " << x << "," << y
                            << ": written, but its corner " << c << " misses the triangle";
          minInv = std::min(minInv, 1.0 / t);
        }
        ASSERT_LE(static_cast<double>(got), minInv)
            << "trial " << trial << " pixel " << x << "," << y << ": depth bound too near";
        tightness += static_cast<double>(got) / minInv;
      }
    }
    EXPECT_EQ(count, covered) << "trial " << trial;
    written += count;
    triangles += count > 0 ? 1 : 0;
  }
  // Meaningful: many triangles and pixels written, near-crossing ones among them, and the bound
  // is tight (within a per mille of the exact value on average).
  EXPECT_GT(triangles, 150u);
  EXPECT_GT(written, 100000u);
  EXPECT_GT(crossingNear, 50u);
  EXPECT_GT(tightness / static_cast<double>(written), 0.999);
}

// Exact reference for the hidden tests: the points' clip coordinates in double from the same
// float matrix (exact to ~1e-15), their screen rectangle floored to the pixels it touches, and the
// largest 1 / w. Hidden when every point is beyond the near plane, the rectangle touches the
// screen, and every touched pixel stores a value strictly larger.
bool exactlyHidden(const OcclusionBuffer& b, const glm::dmat4& m, const glm::vec3* p, int count) {
  double minX = 1e300, maxX = -1e300, minY = 1e300, maxY = -1e300, invW = 0.0;
  for (int k = 0; k < count; ++k) {
    const glm::dvec4 c = m * glm::dvec4(glm::dvec3(p[k]), 1.0);
    if (!(c.w > 0.0) || !(c.z + c.w > 0.0)) return false;
    const double sx = (c.x / c.w + 1.0) * 0.5 * b.width(),
                 sy = (c.y / c.w + 1.0) * 0.5 * b.height();
    minX = std::min(minX, sx);
    maxX = std::max(maxX, sx);
    minY = std::min(minY, sy);
    maxY = std::max(maxY, sy);
    invW = std::max(invW, 1.0 / c.w);
  }
  const double w = b.width(), h = b.height();
  if (maxX < 0.0 || maxY < 0.0 || minX >= w || minY >= h) return false;
  const int x0 = static_cast<int>(std::floor(std::max(minX, 0.0)));
  const int x1 = static_cast<int>(std::floor(std::min(maxX, w - 1.0)));
  const int y0 = static_cast<int>(std::floor(std::max(minY, 0.0)));
  const int y1 = static_cast<int>(std::floor(std::min(maxY, h - 1.0)));
  for (int y = y0; y <= y1; ++y) {
    for (int x = x0; x <= x1; ++x) {
      if (!(static_cast<double>(b.inverseDepthAt(x, y)) > invW)) return false;
    }
  }
  return true;
}

// The float hidden tests (boxHidden, trianglesHidden4) never hide what the exact reference shows,
// in the worst case for float: the camera and the scene around (3000, 50, -2000), so that every
// clip coordinate is a difference of terms near 10^4 (float rounding ~10^-3 units, up to ~10^-4
// of the depth, ~10^-2 pixel), with boxes and triangles within 2e-4 of a wall's depth or within a
// pixel of its edge. Without the error bounds (d in addPoints4, or the outward moves of
// finishHull4), some are reported hidden though a pixel of theirs is not nearer.
TEST(OcclusionBuffer, FloatHiddenTestsAgreeWithExactReference) {
  // A turned camera (yaw 0.3, pitch 0.1), so that the matrix entries round and the view's
  // coordinates are not exact float differences of the world's.
  const glm::dvec3 eye(3000.0, 50.0, -2000.0);
  const glm::dvec3 fwd(-std::sin(0.3) * std::cos(0.1), std::sin(0.1),
                       -std::cos(0.3) * std::cos(0.1));
  const glm::dvec3 right = glm::normalize(glm::cross(fwd, glm::dvec3(0.0, 1.0, 0.0)));
  const glm::dvec3 up = glm::cross(right, fwd);
  const glm::mat4 vp = glm::perspective(glm::radians(90.0f), 2.0f, kNear, 100.0f) *
                       glm::lookAt(glm::vec3(eye), glm::vec3(eye + fwd), glm::vec3(0, 1, 0));
  const glm::dmat4 exact(vp);
  // World point at view coordinates (x right, y up, depth ahead), rounded to float.
  const auto world = [&](double x, double y, double depth) {
    return glm::vec3(eye + right * x + up * y + fwd * depth);
  };
  OcclusionBuffer b;
  b.begin(vp);
  // A wall at view depth 10 covering view x < 0.3 (pixel column ~129.9; a pixel is 10 / 64).
  const double d = 10.0, edge = 0.3;
  b.rasterizeTriangle(world(edge, -1000.0, d), world(edge, 1000.0, d), world(-1000.0, 0.0, d));
  std::mt19937 rng(777);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  uint32_t boxesHidden = 0, boxesExact = 0, trisHidden = 0, trisExact = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    // Depth within 2e-4 (relative) of the wall, half the time; else clearly behind it and within
    // two pixels of its edge (the rectangle decides).
    const bool depthCase = trial % 2 == 0;
    const double behind = depthCase ? d * (1.0 + (u(rng) - 0.5) * 4e-4) : d * 1.05;
    const double px = d / 64.0;
    const double x = depthCase ? edge - 1.0 - 3.0 * u(rng) : edge + (u(rng) - 0.5) * 4.0 * px;
    const double wide = 0.02 + 0.5 * u(rng);
    const double y = (u(rng) - 0.5) * 4.0;
    // The world box around a view-space box whose nearest corner is at (x, y, behind).
    Aabb box{world(x, y, behind), world(x, y, behind)};
    for (int k = 1; k < 8; ++k) {
      const glm::vec3 p =
          world(x - (k & 1) * wide, y + ((k >> 1) & 1) * wide, behind + (k >> 2) * wide);
      box.min = glm::min(box.min, p);
      box.max = glm::max(box.max, p);
    }
    const glm::vec3 corners[8] = {
        {box.min.x, box.min.y, box.min.z}, {box.max.x, box.min.y, box.min.z},
        {box.min.x, box.max.y, box.min.z}, {box.max.x, box.max.y, box.min.z},
        {box.min.x, box.min.y, box.max.z}, {box.max.x, box.min.y, box.max.z},
        {box.min.x, box.max.y, box.max.z}, {box.max.x, box.max.y, box.max.z}};
    const bool boxExact = exactlyHidden(b, exact, corners, 8);
    const bool boxFloat = b.boxHidden(box);
    ASSERT_FALSE(boxFloat && !boxExact) << "trial " << trial << ": box hidden, but not exactly";
    boxesHidden += boxFloat ? 1 : 0;
    boxesExact += boxExact ? 1 : 0;
    // Four triangles with a vertex at (x, y, behind), the others behind and to its left.
    float c[9][4];
    glm::vec3 tri[4][3];
    for (int lane = 0; lane < 4; ++lane) {
      for (int v = 0; v < 3; ++v) {
        tri[lane][v] =
            v == 0 ? world(x, y, behind)
                   : world(x - wide * u(rng), y + wide * (u(rng) - 0.5), behind + wide * u(rng));
        for (int axis = 0; axis < 3; ++axis) c[3 * v + axis][lane] = tri[lane][v][axis];
      }
    }
    OcclusionBuffer::ScreenRect rects[4];
    const uint32_t hidden = b.trianglesHidden4(c, 0xFu, rects);
    for (int lane = 0; lane < 4; ++lane) {
      const bool triExact = exactlyHidden(b, exact, tri[lane], 3);
      const bool triFloat = ((hidden >> lane) & 1u) != 0;
      ASSERT_FALSE(triFloat && !triExact)
          << "trial " << trial << " lane " << lane << ": triangle hidden, but not exactly";
      trisHidden += triFloat ? 1 : 0;
      trisExact += triExact ? 1 : 0;
    }
  }
  // Meaningful: many are hidden exactly. The float tests give up those within their bound of
  // the decision (here about 7e-4 of the depth: every depth case), and keep most of the others.
  EXPECT_GT(boxesExact, 1000u);
  EXPECT_GT(trisExact, 20000u);
  EXPECT_GT(boxesHidden, 800u);
  EXPECT_GT(trisHidden, 8000u);
  std::printf("[ float ] boxes %u / %u, triangles %u / %u hidden (float / exact)\n", boxesHidden,
              boxesExact, trisHidden, trisExact);
}

// The occluder precheck (mayCoverPixel on the rectangle a hidden test computed) against the
// rasterizer: triangles and pairs of one to four pixels, where the check decides most often. A
// triangle or pair it skips must cover no pixel; and it must keep triangles whose rectangle
// holds exactly one whole pixel, which some of these cover (a check one pixel too strict, or a
// pair checked on one triangle's rectangle, fails here).
TEST(OcclusionBuffer, SkippedOccludersCoverNothing) {
  std::mt19937 rng(2718);
  std::uniform_real_distribution<float> u(0.0f, 1.0f);
  OcclusionBuffer b;
  b.begin(testCamera());
  uint32_t skipped = 0, kept = 0, keptTight = 0, pairsKeptOnUnionOnly = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    // At view depth d a pixel is d / 64 units wide and high (see testCamera).
    const float d = 1.0f + 40.0f * u(rng);
    const float px = d / 64.0f;
    const float size = (trial % 2 == 0 ? 1.0f : 4.0f) * px;
    const glm::vec3 c((u(rng) * 2.0f - 1.0f) * 2.0f * d, (u(rng) * 2.0f - 1.0f) * d, -d);
    glm::vec3 f[4];
    for (glm::vec3& p : f) {
      p = c + glm::vec3(u(rng) - 0.5f, u(rng) - 0.5f, (u(rng) - 0.5f) * 0.2f) * 3.0f * size;
    }
    OcclusionBuffer::ClipPoint clip[3];
    OcclusionBuffer::ScreenRect r1, r2;
    ASSERT_FALSE(b.triangleHidden(f[0], f[1], f[3], clip, &r1));  // the buffer stays empty
    ASSERT_FALSE(b.triangleHidden(f[1], f[2], f[3], clip, &r2));
    OcclusionBuffer scratch;
    scratch.begin(testCamera());
    const uint32_t single = scratch.rasterizeTriangle(f[0], f[1], f[3]);
    if (!b.mayCoverPixel(r1)) {
      ASSERT_EQ(single, 0u) << "trial " << trial << ": skipped triangle covers pixels";
      ++skipped;
    } else {
      ++kept;
      const bool onePixelWide = std::ceil(r1.x0) + 2.0 > r1.x1 || std::ceil(r1.y0) + 2.0 > r1.y1;
      keptTight += onePixelWide && single > 0 ? 1 : 0;
    }
    scratch.begin(testCamera());
    const uint32_t pair = scratch.rasterizeTrianglePair(f[0], f[1], f[2], f[3]);
    const OcclusionBuffer::ScreenRect both = OcclusionBuffer::rectUnion(r1, r2);
    if (!b.mayCoverPixel(both)) {
      ASSERT_EQ(pair, 0u) << "trial " << trial << ": skipped pair covers pixels";
    } else if (!b.mayCoverPixel(r1) && pair > 0) {
      ++pairsKeptOnUnionOnly;
    }
  }
  // Meaningful: the check skips many, and keeps covering ones that fit a single pixel.
  EXPECT_GT(skipped, 2000u);
  EXPECT_GT(kept, 2000u);
  EXPECT_GT(keptTight, 100u);
  EXPECT_GT(pairsKeptOnUnionOnly, 20u);
  EXPECT_EQ(b.inverseDepth()[0], 0.0f);
}

// The box test's pixel scan (four pixels per comparison, a column mask per tile) against a plain
// scan of the pixels, on random occluders and random small boxes: a box reported hidden must have
// every pixel of its projected rectangle, shrunk by 1e-3 pixel, strictly nearer than its nearest
// corner; and a box whose rectangle grown by 1e-3 pixel lies on screen, with every pixel nearer
// than its nearest corner by a relative 1e-6, must be reported hidden. The margins keep the
// reference clear of the buffer's own (much smaller) rounding slack, so the test is exact about
// everything else: a lane left out of the scan, or a column mask one pixel short, reports some
// box hidden over a pixel that is not nearer (or the other way round).
TEST(OcclusionBuffer, RandomBoxesAgreeWithPixelScan) {
  std::mt19937 rng(4321);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  OcclusionBuffer b;
  const glm::mat4 camera = testCamera();
  const glm::dmat4 vp(camera);
  uint64_t hidden = 0, visible = 0, partialTiles = 0;
  for (int trial = 0; trial < 200; ++trial) {
    b.begin(camera);
    // A few large occluders at depths 4 to 12, with gaps between them.
    for (int k = 0; k < 6; ++k) {
      const glm::vec3 c(u(rng) * 12.0f, u(rng) * 6.0f, -8.0f - 4.0f * u(rng));
      const float r = 2.0f + 3.0f * std::fabs(u(rng));
      b.rasterizeTrianglePair(c + glm::vec3(-r, -r, u(rng)), c + glm::vec3(r, -r, u(rng)),
                              c + glm::vec3(r, r, u(rng)), c + glm::vec3(-r, r, u(rng)));
    }
    for (int q = 0; q < 200; ++q) {
      const glm::vec3 c(u(rng) * 16.0f, u(rng) * 8.0f, -10.0f - 4.0f * u(rng));
      const glm::vec3 h(0.05f + 0.6f * std::fabs(u(rng)), 0.05f + 0.6f * std::fabs(u(rng)),
                        0.05f + 0.6f * std::fabs(u(rng)));
      const Aabb box{c - h, c + h};
      double minX = 1e300, maxX = -1e300, minY = 1e300, maxY = -1e300, maxInv = 0.0;
      for (int k = 0; k < 8; ++k) {
        const glm::dvec4 p =
            vp * glm::dvec4((k & 1) ? box.max.x : box.min.x, (k & 2) ? box.max.y : box.min.y,
                            (k & 4) ? box.max.z : box.min.z, 1.0);
        const double sx = (p.x / p.w + 1.0) * 0.5 * b.width();
        const double sy = (p.y / p.w + 1.0) * 0.5 * b.height();
        minX = std::min(minX, sx);
        maxX = std::max(maxX, sx);
        minY = std::min(minY, sy);
        maxY = std::max(maxY, sy);
        maxInv = std::max(maxInv, 1.0 / p.w);
      }
      // Every pixel whose closed square meets [x0, x1] x [y0, y1], clamped to the screen.
      const auto allNearer = [&](double x0, double x1, double y0, double y1, double depth) {
        const int i0 = std::max(0, static_cast<int>(std::floor(x0)));
        const int i1 = std::min(static_cast<int>(b.width()) - 1, static_cast<int>(std::floor(x1)));
        const int j0 = std::max(0, static_cast<int>(std::floor(y0)));
        const int j1 = std::min(static_cast<int>(b.height()) - 1, static_cast<int>(std::floor(y1)));
        for (int j = j0; j <= j1; ++j) {
          for (int i = i0; i <= i1; ++i) {
            if (!(static_cast<double>(b.inverseDepthAt(i, j)) > depth)) return false;
          }
        }
        return true;
      };
      const double m = 1e-3;
      const bool onScreen =
          minX - m >= 0.0 && maxX + m < b.width() && minY - m >= 0.0 && maxY + m < b.height();
      if (!onScreen) continue;
      partialTiles += static_cast<int>(std::floor(minX)) % 8 != 0 ? 1 : 0;
      const bool got = b.boxHidden(box);
      if (got) {
        ASSERT_TRUE(allNearer(minX + m, maxX - m, minY + m, maxY - m, maxInv))
            << "trial " << trial << " box " << q << ": hidden over a pixel that is not nearer";
        ++hidden;
      } else {
        ASSERT_FALSE(allNearer(minX - m, maxX + m, minY - m, maxY + m, maxInv * (1.0 + 1e-6)))
            << "trial " << trial << " box " << q << ": visible, yet every pixel is nearer";
        ++visible;
      }
    }
  }
  // Meaningful: many answers each way, most rectangles not aligned with the tiles.
  EXPECT_GT(hidden, 2000u);
  EXPECT_GT(visible, 2000u);
  EXPECT_GT(partialTiles, 5000u);
}

}  // namespace
}  // namespace ofps
