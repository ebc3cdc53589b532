// Conservative occlusion buffer (contracts and the conservativeness argument in
// occlusion_buffer.h).
#include "octree_fps/culling/occlusion_buffer.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "octree_fps/assert.h"
#include "octree_fps/culling/occlusion_isa_inl.h"
#include "octree_fps/culling/occlusion_raster_inl.h"
#include "octree_fps/spatial/octree.h"

namespace ofps {

using detail::OcclusionIsaAvx2;
using detail::OcclusionIsaBaseline;

OcclusionBuffer::OcclusionBuffer(uint32_t width, uint32_t height) {
  resize(width, height);
}

void OcclusionBuffer::resize(uint32_t width, uint32_t height) {
  OFPS_ASSERT(width >= kOcclusionTileSize && height >= kOcclusionTileSize &&
                  width % kOcclusionTileSize == 0 && height % kOcclusionTileSize == 0 &&
                  width <= (1u << 22) && height <= (1u << 22),
              "OcclusionBuffer: width and height must be non-zero multiples of "
              "kOcclusionTileSize, at most 2^22 (trianglesHidden4's four-wide floors)");
  width_ = width;
  height_ = height;
  tilesX_ = width / kOcclusionTileSize;
  pixels_.assign(static_cast<size_t>(width) * height, 0.0f);
  const size_t tiles = static_cast<size_t>(tilesX_) * (height / kOcclusionTileSize);
  // kTilePadding more: the pixel scan reads a row's tiles a group at a time, past the row's
  // end (those lanes are masked off; the padding is never dirty).
  tileMin_.assign(tiles + kTilePadding, 0.0f);
  tileDirty_.assign(tiles + kTilePadding, 0);
}

void OcclusionBuffer::begin(const glm::mat4& viewProjection) {
  lastRaised_ = false;
#if defined(OFPS_OCCLUSION_AVX2)
  avx2_ = octreeSimd() == OctreeSimd::kAvx2;
#endif
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 4; ++col) {
      const float m = viewProjection[col][row];
      vp_[row][col] = static_cast<double>(m);
      for (int lane = 0; lane < 4; ++lane) vpf_[row][col][lane] = m;
    }
  }
  float largest = 0.0f, largestLast = 0.0f;
  for (int row = 0; row < 4; ++row) {
    for (int col = 0; col < 3; ++col)
      largest = std::max(largest, std::fabs(viewProjection[col][row]));
    largestLast = std::max(largestLast, std::fabs(viewProjection[3][row]));
  }
  for (int lane = 0; lane < 4; ++lane) {
    vpMag_[0][lane] = largest;
    vpMag_[1][lane] = largestLast;
  }
  std::fill(pixels_.begin(), pixels_.end(), 0.0f);
  std::fill(tileMin_.begin(), tileMin_.end(), 0.0f);
  std::fill(tileDirty_.begin(), tileDirty_.end(), uint8_t{0});
}

uint32_t OcclusionBuffer::rasterizeTriangle(const glm::vec3& a, const glm::vec3& b,
                                            const glm::vec3& c) {
  return rasterizeClipTriangle(clipOf(a), clipOf(b), clipOf(c));
}

uint32_t OcclusionBuffer::rasterizeTrianglePair(const glm::vec3& p, const glm::vec3& q,
                                                const glm::vec3& s, const glm::vec3& r) {
  return rasterizeClipTrianglePair(clipOf(p), clipOf(q), clipOf(s), clipOf(r));
}

bool OcclusionBuffer::triangleHidden(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c) {
  ClipPoint clip[3];
  ScreenRect rect;
  return triangleHidden(a, b, c, clip, &rect);
}

OcclusionBuffer::ScreenRect OcclusionBuffer::rectUnion(const ScreenRect& a, const ScreenRect& b) {
  return {std::min(a.x0, b.x0), std::max(a.x1, b.x1), std::min(a.y0, b.y0), std::max(a.y1, b.y1)};
}

bool OcclusionBuffer::mayCoverPixel(const ScreenRect& rect) const {
  // A pixel [i, i + 1] x [j, j + 1] fits when i >= x0, i + 1 <= x1 for some integer 0 <= i <
  // width (and likewise for rows). The bounds are the projected vertices in double, within
  // ~1e-15 relative of the exact ones; the same 1e-6 outward slack as the hidden tests' rectangle
  // keeps every pixel the rasterizer could cover (it covers only pixels strictly inside the
  // triangle, past a positive margin). A NaN bound compares false and keeps the occluder.
  const double slack = 1e-6;
  const auto fits = [slack](double lo, double hi, uint32_t size) {
    lo -= slack * (1.0 + std::fabs(lo));
    hi += slack * (1.0 + std::fabs(hi));
    const int32_t first = ceilClamped(lo, 0, static_cast<int32_t>(size));
    return first < static_cast<int32_t>(size) && !(static_cast<double>(first) + 1.0 > hi);
  };
  return fits(rect.x0, rect.x1, width_) && fits(rect.y0, rect.y1, height_);
}

bool OcclusionBuffer::triangleHidden(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                                     ClipPoint (&out)[3], ScreenRect* rect) {
  out[0] = clipOf(a);
  out[1] = clipOf(b);
  out[2] = clipOf(c);
  double cx[3], cy[3], cw[3];
  bool beyondNear = true;
  for (int k = 0; k < 3; ++k) {
    cx[k] = out[k].x;
    cy[k] = out[k].y;
    cw[k] = out[k].w;
    beyondNear = beyondNear && out[k].z + out[k].w > 0.0 && out[k].w > 0.0;
  }
  if (!beyondNear) {
    const double inf = std::numeric_limits<double>::infinity();
    *rect = {-inf, inf, -inf, inf};
    return false;
  }
  return projectedHullHidden(cx, cy, cw, 3, rect);
}

bool OcclusionBuffer::projectedHullHidden(const double* cx, const double* cy, const double* cw,
                                          int count, ScreenRect* rect) {
  const double halfWidth = 0.5 * width_, halfHeight = 0.5 * height_;
  double minX = std::numeric_limits<double>::infinity(), maxX = -minX, minY = minX, maxY = maxX;
  double maxInvW = 0.0;
  for (int k = 0; k < count; ++k) {
    const double invW = 1.0 / cw[k];
    const double sx = (cx[k] * invW + 1.0) * halfWidth, sy = (cy[k] * invW + 1.0) * halfHeight;
    minX = std::min(minX, sx);
    maxX = std::max(maxX, sx);
    minY = std::min(minY, sy);
    maxY = std::max(maxY, sy);
    maxInvW = std::max(maxInvW, invW);
  }
  if (rect != nullptr) *rect = {minX, maxX, minY, maxY};
  return rectHidden(minX, maxX, minY, maxY, maxInvW);
}

bool OcclusionBuffer::rectHidden(double minX, double maxX, double minY, double maxY,
                                 double maxInvW) {
  // Pixels the rectangle touches (closed), rounded outward past the projection's rounding.
  const double slack = 1e-6;
  const int32_t w = static_cast<int32_t>(width_), h = static_cast<int32_t>(height_);
  const int32_t fx0 = floorClamped(minX - slack * (1.0 + std::fabs(minX)), -1, w);
  const int32_t fx1 = floorClamped(maxX + slack * (1.0 + std::fabs(maxX)), -1, w);
  const int32_t fy0 = floorClamped(minY - slack * (1.0 + std::fabs(minY)), -1, h);
  const int32_t fy1 = floorClamped(maxY + slack * (1.0 + std::fabs(maxY)), -1, h);
  // Entirely off screen: outside the frustum, which is the frustum test's call, not ours.
  if (fx1 < 0 || fy1 < 0 || fx0 >= w || fy0 >= h) return false;
  const uint32_t x0 = static_cast<uint32_t>(std::max(fx0, 0));
  const uint32_t y0 = static_cast<uint32_t>(std::max(fy0, 0));
  const uint32_t x1 = static_cast<uint32_t>(std::min(fx1, w - 1));
  const uint32_t y1 = static_cast<uint32_t>(std::min(fy1, h - 1));
  // The hull's nearest depth as 1 / w, nudged nearer (larger) past rounding, then rounded up.
  return scanHiddenT<OcclusionIsaBaseline>(x0, x1, y0, y1, floatAbove(maxInvW * (1.0 + 1e-9)));
}

// ---- Dispatch to the kernels of the instruction set chosen at begin() (occlusion_isa_inl.h) ----
// The AVX2 instantiations are defined in occlusion_kernels_avx2.cpp, the baseline ones in
// occlusion_kernels.cpp; this file sees only their declarations.

#if defined(OFPS_OCCLUSION_AVX2)
#define OFPS_OCCLUSION_DISPATCH(kernel, ...) \
  return avx2_ ? kernel<OcclusionIsaAvx2>(__VA_ARGS__) : kernel<OcclusionIsaBaseline>(__VA_ARGS__)
#else
#define OFPS_OCCLUSION_DISPATCH(kernel, ...) return kernel<OcclusionIsaBaseline>(__VA_ARGS__)
#endif

uint32_t OcclusionBuffer::rasterizeClipTriangle(const ClipPoint& a, const ClipPoint& b,
                                                const ClipPoint& c) {
  OFPS_OCCLUSION_DISPATCH(rasterizeClipTriangleT, a, b, c);
}

uint32_t OcclusionBuffer::rasterizeClipTrianglePair(const ClipPoint& p, const ClipPoint& q,
                                                    const ClipPoint& s, const ClipPoint& r) {
  OFPS_OCCLUSION_DISPATCH(rasterizeClipTrianglePairT, p, q, s, r);
}

bool OcclusionBuffer::boxHidden(const Aabb& box) {
#if defined(OFPS_OCCLUSION_AVX2)
  if (avx2_) return boxHiddenAvx2(box);
#endif
  return boxHiddenT<OcclusionIsaBaseline>(box);
}

uint32_t OcclusionBuffer::trianglesHidden4(const float (&c)[9][4], uint32_t lanes,
                                           ScreenRect (&rects)[4]) {
  OFPS_OCCLUSION_DISPATCH(trianglesHidden4T, c, lanes, rects, nullptr);
}

uint32_t OcclusionBuffer::trianglesHidden8(const float (&c0)[9][4], const float (&c1)[9][4],
                                           uint32_t lanes, ScreenRect (&rects)[8],
                                           uint32_t* outside) {
#if defined(OFPS_OCCLUSION_AVX2)
  if (avx2_) return trianglesHidden8Avx2(c0, c1, lanes, rects, outside);
#endif
  uint32_t hidden = 0, low = 0, high = 0;
  if ((lanes & 0xFu) != 0) {
    hidden = trianglesHidden4T<OcclusionIsaBaseline>(c0, lanes & 0xFu, rects,
                                                     outside != nullptr ? &low : nullptr);
  }
  if ((lanes >> 4) != 0) {
    hidden |= trianglesHidden4T<OcclusionIsaBaseline>(c1, lanes >> 4, rects + 4,
                                                      outside != nullptr ? &high : nullptr)
              << 4;
  }
  if (outside != nullptr) *outside = low | (high << 4);
  return hidden;
}

#undef OFPS_OCCLUSION_DISPATCH

}  // namespace ofps
