#pragma once
// The reference rasterizer: an image of triangle ids, the ground truth of "which triangles can be
// seen" for the occlusion tests (tests/culling/occlusion_reference_test.cpp) and the visibility
// floor of bench/micro/occlusion_oracle.cpp. Header-only, so that the benchmarks, which do not
// link the test support library, use this same copy.
//
// Independence: it shares no code with what it judges (no Frustum, OcclusionBuffer, octree or
// DrawRanges); it takes the level as plain arrays and renders every drawn triangle, inside the
// frustum or not, so a culling bug cannot hide itself in the reference.
//
// What it computes, in double precision throughout:
// - Vertices go through the view-projection into OpenGL clip space (glm::perspective: visible
//   when -w <= x, y, z <= w). Each triangle is clipped against the near (z + w >= 0) and far
//   (w - z >= 0) planes (Sutherland-Hodgman); the side planes need no clipping, since after the
//   near plane every vertex has w > 0 and the pixel loop is bounded by the image.
// - Screen position: x_s = (x / w * 0.5 + 0.5) * width, y_s likewise with height, so pixel
//   (x, y) covers [x, x + 1) x [y, y + 1) with row 0 at the bottom (NDC y = -1), as OpenGL's
//   window coordinates.
// - Each pixel is point-sampled at its centre (x + 0.5, y + 0.5). A sample is covered when its
//   three barycentric weights are >= 0: edges are inclusive (a sample exactly on an edge shared
//   by two triangles belongs to both; no top-left rule), and both windings are drawn (no
//   back-face culling: the project's levels are not closed meshes).
// - Depth is 1 / w, interpolated with the screen-space barycentric weights (exact: 1 / w is
//   affine in screen space). The nearest sample wins; on an exact tie the triangle drawn first
//   (the lower id) stays.
// So a triangle "is visible" at a resolution when it is the nearest surface at the centre of at
// least one pixel. A triangle thinner than a pixel can fall between centres and not appear at one
// resolution but appear at a finer one: the count of visible triangles grows with resolution.
//
// Cost: O(triangles + sum over triangles of their clamped screen bounding box), single-threaded;
// 8 bytes of depth and 4 of id per pixel.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <span>
#include <vector>

namespace ofps::test {

class ReferenceRenderer {
 public:
  static constexpr uint32_t kNoTriangle = 0xFFFFFFFFu;  // an empty pixel's id

  ReferenceRenderer(int width, int height) : width_(width), height_(height) {}

  int width() const { return width_; }
  int height() const { return height_; }

  // Renders the triangles (indices, three per triangle, into positions) whose drawn flag is
  // non-zero (drawn: one flag per triangle, or empty = every triangle) and keeps, per pixel, the
  // id (index of the triangle in `indices`) of the nearest one.
  void render(std::span<const glm::vec3> positions, std::span<const uint32_t> indices,
              std::span<const uint8_t> drawn, const glm::mat4& viewProjection) {
    const size_t pixels = static_cast<size_t>(width_) * static_cast<size_t>(height_);
    ids_.assign(pixels, kNoTriangle);
    depth_.assign(pixels, 0.0);  // 1 / w: larger = nearer, 0 = empty
    const glm::dmat4 m(viewProjection);
    const uint32_t n = static_cast<uint32_t>(indices.size() / 3);
    for (uint32_t t = 0; t < n; ++t) {
      if (!drawn.empty() && drawn[t] == 0) continue;
      glm::dvec4 poly[8];  // a triangle clipped by two planes has at most 5 vertices
      for (int k = 0; k < 3; ++k) {
        poly[k] = m * glm::dvec4(glm::dvec3(positions[indices[3 * t + k]]), 1.0);
      }
      int count = clip(poly, 3, 1.0);   // near: z + w >= 0
      count = clip(poly, count, -1.0);  // far: w - z >= 0
      for (int k = 1; k + 1 < count; ++k) fill(poly[0], poly[k], poly[k + 1], t);
    }
  }

  // Per pixel, row by row from the bottom: the nearest triangle's id, or kNoTriangle.
  std::span<const uint32_t> ids() const { return ids_; }
  // Per pixel, likewise: the nearest triangle's 1 / w there (0 where empty).
  std::span<const double> inverseDepth() const { return depth_; }

  // Sets (*visible)[id] = 1 for every id in the image (the vector is resized to `triangles` and
  // cleared first) and returns how many distinct ids there are.
  uint32_t markVisible(uint32_t triangles, std::vector<uint8_t>* visible) const {
    visible->assign(triangles, 0);
    uint32_t distinct = 0;
    for (uint32_t id : ids_) {
      if (id == kNoTriangle || (*visible)[id] != 0) continue;
      (*visible)[id] = 1;
      ++distinct;
    }
    return distinct;
  }

 private:
  // Keeps the part of the polygon with w + side * z >= 0.
  static int clip(glm::dvec4 (&poly)[8], int count, double side) {
    glm::dvec4 out[8];
    int n = 0;
    for (int i = 0; i < count; ++i) {
      const glm::dvec4& a = poly[i];
      const glm::dvec4& b = poly[(i + 1) % count];
      const double da = a.w + side * a.z, db = b.w + side * b.z;
      if (da >= 0.0) out[n++] = a;
      if ((da >= 0.0) != (db >= 0.0)) out[n++] = a + (b - a) * (da / (da - db));
    }
    for (int i = 0; i < n; ++i) poly[i] = out[i];
    return n;
  }

  void fill(const glm::dvec4& a, const glm::dvec4& b, const glm::dvec4& c, uint32_t id) {
    const glm::dvec4* v[3] = {&a, &b, &c};
    double sx[3], sy[3], iw[3];
    for (int k = 0; k < 3; ++k) {
      if (!(v[k]->w > 0.0)) return;
      sx[k] = (v[k]->x / v[k]->w * 0.5 + 0.5) * width_;
      sy[k] = (v[k]->y / v[k]->w * 0.5 + 0.5) * height_;
      iw[k] = 1.0 / v[k]->w;
    }
    const double area = (sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0]);
    if (area == 0.0 || !std::isfinite(area)) return;
    // The pixels whose centres the bounding box can hold, clamped to the image in double first
    // (a vertex just past the near plane can project far outside any int).
    const double minX = std::min({sx[0], sx[1], sx[2]}), maxX = std::max({sx[0], sx[1], sx[2]});
    const double minY = std::min({sy[0], sy[1], sy[2]}), maxY = std::max({sy[0], sy[1], sy[2]});
    if (maxX < 0.0 || maxY < 0.0 || minX >= width_ || minY >= height_) return;
    const int x0 = static_cast<int>(std::floor(std::max(minX, 0.0)));
    const int x1 = static_cast<int>(std::min(std::ceil(maxX), width_ - 1.0));
    const int y0 = static_cast<int>(std::floor(std::max(minY, 0.0)));
    const int y1 = static_cast<int>(std::min(std::ceil(maxY), height_ - 1.0));
    for (int y = y0; y <= y1; ++y) {
      for (int x = x0; x <= x1; ++x) {
        const double px = x + 0.5, py = y + 0.5;
        double bary[3];
        bool inside = true;
        for (int k = 0; k < 3; ++k) {
          const int i = (k + 1) % 3, j = (k + 2) % 3;
          bary[k] = ((sx[j] - sx[i]) * (py - sy[i]) - (px - sx[i]) * (sy[j] - sy[i])) / area;
          inside = inside && bary[k] >= 0.0;
        }
        if (!inside) continue;
        const double inv = bary[0] * iw[0] + bary[1] * iw[1] + bary[2] * iw[2];
        const size_t p = static_cast<size_t>(y) * static_cast<size_t>(width_) + x;
        if (inv > depth_[p]) {
          depth_[p] = inv;
          ids_[p] = id;
        }
      }
    }
  }

  int width_, height_;
  std::vector<uint32_t> ids_;
  std::vector<double> depth_;
};

}  // namespace ofps::test
