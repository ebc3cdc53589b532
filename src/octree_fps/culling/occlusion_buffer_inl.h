#pragma once
// Internal to the core (src/octree_fps/culling; not an installed interface): the occlusion
// buffer's per-frame kernels, as member templates on the instruction set (occlusion_isa_inl.h).
// Included only by occlusion_kernels.cpp and occlusion_kernels_avx2.cpp, each instantiating them
// for its own target; occlusion_buffer.cpp dispatches to them. Contracts and the conservativeness
// argument: occlusion_buffer.h.
#include <bit>
#include <cstring>

#include "octree_fps/culling/occlusion_raster_inl.h"

namespace ofps {

template <class Isa>
uint32_t OcclusionBuffer::rasterizeClipTriangleT(const ClipPoint& a, const ClipPoint& b,
                                                 const ClipPoint& c) {
  lastRaised_ = false;
  const Clip v[3] = {a, b, c};
  // Trivial rejections: all three vertices beyond one clip plane (near, or a screen side).
  const auto allOut = [&](auto&& outside) {
    return outside(v[0]) && outside(v[1]) && outside(v[2]);
  };
  if (allOut([](const Clip& q) { return q.z + q.w <= 0.0; }) ||
      allOut([](const Clip& q) { return q.x < -q.w; }) ||
      allOut([](const Clip& q) { return q.x > q.w; }) ||
      allOut([](const Clip& q) { return q.y < -q.w; }) ||
      allOut([](const Clip& q) { return q.y > q.w; })) {
    return 0;
  }

  const double width = width_, height = height_;
  int32_t x0 = 0, x1 = static_cast<int32_t>(width_) - 1;
  int32_t y0 = 0, y1 = static_cast<int32_t>(height_) - 1;
  // Candidate rows and columns: the screen bounds of the part of the triangle in front of the
  // near plane (the triangle clipped to z + w >= 0, Sutherland-Hodgman, at most four vertices).
  // A candidate set only: the coverage test below decides, so rounding here can only drop pixels
  // that touch the bounds, which is safe.
  Clip poly[4];
  int count = 0;
  for (int i = 0; i < 3; ++i) {
    const Clip& s0 = v[i];
    const Clip& s1 = v[(i + 1) % 3];
    const double d0 = s0.z + s0.w, d1 = s1.z + s1.w;
    if (d0 >= 0.0) poly[count++] = s0;
    if ((d0 >= 0.0) != (d1 >= 0.0)) {
      const double t = d0 / (d0 - d1);
      poly[count++] = {s0.x + (s1.x - s0.x) * t, s0.y + (s1.y - s0.y) * t, s0.z + (s1.z - s0.z) * t,
                       s0.w + (s1.w - s0.w) * t};
    }
  }
  bool bounded = count >= 3;
  double sx[4], sy[4];
  double minX = std::numeric_limits<double>::infinity(), maxX = -minX, minY = minX, maxY = maxX;
  for (int i = 0; i < count && bounded; ++i) {
    const Clip& q = poly[i];
    bounded = q.w > 0.0;  // always, for a perspective projection: w >= near on the near plane
    const double invW = 1.0 / q.w;
    sx[i] = (q.x * invW + 1.0) * 0.5 * width;
    sy[i] = (q.y * invW + 1.0) * 0.5 * height;
    minX = std::min(minX, sx[i]);
    maxX = std::max(maxX, sx[i]);
    minY = std::min(minY, sy[i]);
    maxY = std::max(maxY, sy[i]);
  }
  if (bounded) {
    // No whole pixel fits in bounds narrower than one pixel.
    if (maxX - minX < 1.0 || maxY - minY < 1.0) return 0;
    if (count == 3) {
      // Nor in a triangle whose inscribed circle is smaller than the pixel's (radius 1/2, in
      // pixel units): a triangle holding a square holds the square's inscribed circle. Long
      // slivers (fanned polygons) have wide bounds but cover nothing; this spares their rows.
      const double twiceArea =
          std::fabs((sx[1] - sx[0]) * (sy[2] - sy[0]) - (sx[2] - sx[0]) * (sy[1] - sy[0]));
      const auto length = [](double dx, double dy) { return std::sqrt(dx * dx + dy * dy); };
      const double perimeter = length(sx[1] - sx[0], sy[1] - sy[0]) +
                               length(sx[2] - sx[1], sy[2] - sy[1]) +
                               length(sx[0] - sx[2], sy[0] - sy[2]);
      // inradius = twiceArea / perimeter
      if (twiceArea < std::max(0.5, minOccluderInradius_) * perimeter) return 0;
    }
    // A covered pixel lies wholly inside the bounds: columns ceil(minX) .. floor(maxX) - 1, and
    // likewise rows, so the partial rows at the ends (which never hold a span) are not visited.
    // The bounds' rounding (~1e-15 relative) could only drop a pixel whose side is within that of
    // a vertex, which the edge margins below reject anyway (and dropping a pixel is safe).
    const int32_t w = static_cast<int32_t>(width_), hgt = static_cast<int32_t>(height_);
    x0 = std::max(x0, ceilClamped(minX, -1, w));
    x1 = std::min(x1, floorClamped(maxX, -1, w) - 1);
    y0 = std::max(y0, ceilClamped(minY, -1, hgt));
    y1 = std::min(y1, floorClamped(maxY, -1, hgt) - 1);
    if (x0 > x1 || y0 > y1) return 0;
  }
  // Otherwise (not a perspective matrix) the whole screen is the candidate set.

  // Homogeneous edge functions (Olano and Greer): with h_i = (x_i, y_i, w_i) and
  // det = h_0 . (h_1 x h_2), the ray through NDC point d = (X, Y, 1) meets the triangle at
  // positive w iff every n_i . d >= 0, where n_i = sign(det) (h_j x h_k); the barycentric weights
  // of the hit are (n_i . d) / |det| divided by their sum, and that sum is 1 / w at the hit.
  const Vec3d h[3] = {{v[0].x, v[0].y, v[0].w}, {v[1].x, v[1].y, v[1].w}, {v[2].x, v[2].y, v[2].w}};
  const double mag[3] = {norm1(h[1]) * norm1(h[2]), norm1(h[2]) * norm1(h[0]),
                         norm1(h[0]) * norm1(h[1])};
  const double det = dot(h[0], cross(h[1], h[2]));
  const double volume = norm1(h[0]) * mag[0];
  if (!(std::fabs(det) > kMinConditioning * volume)) return 0;  // edge-on, degenerate or NaN
  const double sign = det > 0.0 ? 1.0 : -1.0;
  Vec3d n[3];
  for (int i = 0; i < 3; ++i) {
    const Vec3d e = cross(h[(i + 1) % 3], h[(i + 2) % 3]);
    n[i] = {sign * e.x, sign * e.y, sign * e.z};
  }
  // The hit's z + w is t * sum_i lambda_i (z_i + w_i) with t > 0: in front of the near plane iff
  // sum_i (z_i + w_i) n_i . d > 0, a fourth affine edge.
  Vec3d nearFn{0.0, 0.0, 0.0};
  double nearMag = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double k = v[i].z + v[i].w;
    nearFn = {nearFn.x + k * n[i].x, nearFn.y + k * n[i].y, nearFn.z + k * n[i].z};
    nearMag += (std::fabs(v[i].z) + std::fabs(v[i].w)) * mag[i];
  }
  ScreenFunction edges[4];
  for (int i = 0; i < 3; ++i) edges[i] = toPixels(n[i], kMargin * mag[i], width, height);
  edges[3] = toPixels(nearFn, kMargin * nearMag, width, height);
  // 1 / w = sum_i n_i . d / |det|. Its margin also covers det's relative rounding, which grows
  // with the conditioning volume / |det| (at most 1 / kMinConditioning).
  const double invDet = 1.0 / std::fabs(det);
  const Vec3d depthFn{(n[0].x + n[1].x + n[2].x) * invDet, (n[0].y + n[1].y + n[2].y) * invDet,
                      (n[0].z + n[1].z + n[2].z) * invDet};
  const double depthMargin = kMargin * (volume * invDet) * (mag[0] + mag[1] + mag[2]) * invDet;
  const ScreenFunction depth = toPixels(depthFn, depthMargin, width, height);

  // A triangle with every vertex beyond the near plane lies wholly beyond it (a convex
  // combination of points in a half-space): its near-plane function is then not needed.
  const bool allBeyondNear =
      v[0].z + v[0].w > 0.0 && v[1].z + v[1].w > 0.0 && v[2].z + v[2].w > 0.0;
  const Target target{pixels_.data(), tileDirty_.data(), width_, tilesX_, &lastRaised_};
  return fillConvex<typename PixelLanes<Isa>::type, 1>(target, edges, allBeyondNear ? 3 : 4, &depth,
                                                       x0, x1, y0, y1);
}

template <class Isa>
uint32_t OcclusionBuffer::rasterizeClipTrianglePairT(const ClipPoint& p, const ClipPoint& q,
                                                     const ClipPoint& s, const ClipPoint& r) {
  lastRaised_ = false;
  // One by one: the pair raised a pixel if either triangle did.
  const auto oneByOne = [&] {
    const uint32_t first = rasterizeClipTriangleT<Isa>(p, q, r);
    const bool raisedFirst = lastRaised_;
    const uint32_t second = rasterizeClipTriangleT<Isa>(q, s, r);
    lastRaised_ = lastRaised_ || raisedFirst;
    return first + second;
  };
  // Corners in the quad's order p, q, s, r: the triangles are (p, q, r) and (q, s, r).
  const Clip v[4] = {p, q, s, r};
  bool simple = true;
  for (int i = 0; i < 4; ++i) simple = simple && v[i].z + v[i].w > 0.0 && v[i].w > 0.0;
  // The union is the quad only when the quad is strictly convex on screen (then the diagonal
  // q-r splits it into exactly the two triangles): every three consecutive corners turn the same
  // way, clearly (relative to the corners' magnitudes). Otherwise, or when a corner is not beyond
  // the near plane, the triangles go one by one.
  const Vec3d h[4] = {{v[0].x, v[0].y, v[0].w},
                      {v[1].x, v[1].y, v[1].w},
                      {v[2].x, v[2].y, v[2].w},
                      {v[3].x, v[3].y, v[3].w}};
  if (!simple) return oneByOne();
  // The corners' norms and the quad's edge crosses (edge i: corners i, i + 1) serve the turn
  // test, both depth planes and the edge functions: computed once, the same operations as each
  // use's own would be, so the same bits.
  double norms[4];
  Vec3d edge[4];
  for (int i = 0; i < 4; ++i) norms[i] = norm1(h[i]);
  for (int i = 0; i < 4; ++i) edge[i] = cross(h[i], h[(i + 1) % 4]);
  double turn = 0.0;
  for (int i = 0; i < 4 && simple; ++i) {
    // h[i] . (h[i + 1] x h[i + 2]): the cross is edge i + 1's.
    const double o = dot(h[i], edge[(i + 1) % 4]);
    const double scale = norms[i] * norms[(i + 1) % 4] * norms[(i + 2) % 4];
    simple = std::fabs(o) > kMinConditioning * scale && (i == 0 || (o > 0.0) == (turn > 0.0));
    turn = o;
  }
  if (!simple) return oneByOne();

  // Every corner is beyond the near plane, so the quad's image is the convex quad of the
  // projected corners. Rejected before the depth planes when it cannot hold a whole pixel: its
  // bounds are under a pixel, or its inscribed circle is smaller than the pixel's (a convex
  // polygon holding a disc of radius r has area >= r * perimeter / 2: the triangles from the
  // disc's centre to its edges are at least r high). Either triangle alone would then cover
  // nothing too (each lies in the quad), so the fallback below could not do better.
  const double width = width_, height = height_;
  double sx[4], sy[4];
  double minX = std::numeric_limits<double>::infinity(), maxX = -minX, minY = minX, maxY = maxX;
  for (int i = 0; i < 4; ++i) {
    const double invW = 1.0 / v[i].w;
    sx[i] = (v[i].x * invW + 1.0) * 0.5 * width;
    sy[i] = (v[i].y * invW + 1.0) * 0.5 * height;
    minX = std::min(minX, sx[i]);
    maxX = std::max(maxX, sx[i]);
    minY = std::min(minY, sy[i]);
    maxY = std::max(maxY, sy[i]);
  }
  if (maxX - minX < 1.0 || maxY - minY < 1.0) return 0;
  {
    const double twiceArea =
        std::fabs((sx[2] - sx[0]) * (sy[3] - sy[1]) - (sx[3] - sx[1]) * (sy[2] - sy[0]));
    double perimeter = 0.0;
    for (int i = 0; i < 4; ++i) {
      const double dx = sx[(i + 1) % 4] - sx[i], dy = sy[(i + 1) % 4] - sy[i];
      perimeter += std::sqrt(dx * dx + dy * dy);
    }
    // The pixel's disc has radius 1/2; a quad that covers a pixel past the edge margins has
    // 2A / P above 1/2 by far more than this 1e-9 allows for rounding.
    if (twiceArea < 0.5 * (1.0 - 1e-9) * perimeter) return 0;
  }
  // The triangles (p, q, r) = corners 0, 1, 3 and (q, s, r) = 1, 2, 3: of each one's three
  // crosses, two are edges of the quad and one crosses the diagonal.
  ScreenFunction depths[2];
  if (!inverseDepthFunction({h[0], h[1], h[3]}, {norms[0], norms[1], norms[3]},
                            {cross(h[1], h[3]), edge[3], edge[0]}, width, height, &depths[0]) ||
      !inverseDepthFunction({h[1], h[2], h[3]}, {norms[1], norms[2], norms[3]},
                            {edge[2], cross(h[3], h[1]), edge[1]}, width, height, &depths[1])) {
    return oneByOne();
  }
  // Only pixels wholly inside the bounds (as for a single triangle, rasterizeClipTriangle).
  const int32_t w = static_cast<int32_t>(width_), hgt = static_cast<int32_t>(height_);
  const int32_t x0 = std::max(0, ceilClamped(minX, -1, w));
  const int32_t x1 = std::min(w - 1, floorClamped(maxX, -1, w) - 1);
  const int32_t y0 = std::max(0, ceilClamped(minY, -1, hgt));
  const int32_t y1 = std::min(hgt - 1, floorClamped(maxY, -1, hgt) - 1);
  if (x0 > x1 || y0 > y1) return 0;
  // Edge i runs from corner i to corner i + 1; the interior is on the side of the turn.
  const double sign = turn > 0.0 ? 1.0 : -1.0;
  ScreenFunction edges[4];
  for (int i = 0; i < 4; ++i) {
    const Vec3d& e = edge[i];
    edges[i] = toPixels({sign * e.x, sign * e.y, sign * e.z},
                        kMargin * norms[i] * norms[(i + 1) % 4], width, height);
  }
  const Target target{pixels_.data(), tileDirty_.data(), width_, tilesX_, &lastRaised_};
  return fillConvex<typename PixelLanes<Isa>::type, 2>(target, edges, 4, depths, x0, x1, y0, y1);
}

template <class Isa>
void OcclusionBuffer::refreshTileT(uint32_t tile) {
  const uint32_t tx = tile % tilesX_, ty = tile / tilesX_;
  // V's lanes of columns at a time (a minimum is exact, so the lanes' order does not matter;
  // pixels are never NaN).
  using V = typename PixelLanes<Isa>::type;
  static_assert(kOcclusionTileSize % V::kCount == 0, "the tile minimum reads whole lane groups");
  typename V::F m = V::splat(std::numeric_limits<float>::infinity());
  for (uint32_t y = 0; y < kOcclusionTileSize; ++y) {
    const float* row = &pixels_[(ty * kOcclusionTileSize + y) * width_ + tx * kOcclusionTileSize];
    for (uint32_t x = 0; x < kOcclusionTileSize; x += V::kCount) m = V::min(m, V::load(row + x));
  }
  float lanes[V::kCount];
  V::store(lanes, m);
  float least = lanes[0];
  for (int i = 1; i < V::kCount; ++i) least = std::min(least, lanes[i]);
  tileMin_[tile] = least;
  tileDirty_[tile] = 0;
}

template <class Isa>
bool OcclusionBuffer::boxHiddenT(const Aabb& box) {
  if (box.isEmpty()) return false;
  // The eight corners in two groups of four lanes (z = min, then z = max), in float with
  // outward bounds (addPoints4); the box is tested only when every corner is certainly beyond
  // the near plane.
  const simd::F4 halfW = simd::splat(0.5f * static_cast<float>(width_));
  const simd::F4 halfH = simd::splat(0.5f * static_cast<float>(height_));
  const float cx[4] = {box.min.x, box.max.x, box.min.x, box.max.x};
  const float cy[4] = {box.min.y, box.min.y, box.max.y, box.max.y};
  const simd::F4 xs = simd::load(cx), ys = simd::load(cy);
  Hull<Lanes4> h = emptyHull<Lanes4>();
  addPoints<Lanes4>(vpf_, vpMag_, halfW, halfH, xs, ys, simd::splat(box.min.z), h);
  addPoints<Lanes4>(vpf_, vpMag_, halfW, halfH, xs, ys, simd::splat(box.max.z), h);
  if (simd::bits(h.ok) != 0xFu) return false;
  finishHull<Lanes4>(halfW, halfH, h);
  const HullLanes<Lanes4> hl = lanesOf(h);
  const auto lo = [](const float(&v)[4]) {
    return std::min(std::min(v[0], v[1]), std::min(v[2], v[3]));
  };
  const auto hi = [](const float(&v)[4]) {
    return std::max(std::max(v[0], v[1]), std::max(v[2], v[3]));
  };
  return floatRectHiddenT<Isa>(lo(hl.x0), hi(hl.x1), lo(hl.y0), hi(hl.y1), hi(hl.depth));
}

template <class Isa>
OFPS_OCCLUSION_INLINE bool OcclusionBuffer::floatRectHiddenT(float minX, float maxX, float minY,
                                                             float maxY, float depth) {
  // Floors of bounds clamped to [-1, size] (so that the conversions cannot overflow): truncation,
  // then one down where it rounded a negative value up.
  const float fw = static_cast<float>(width_), fh = static_cast<float>(height_);
  const auto floorIn = [](float f, float size) {
    f = std::min(std::max(f, -1.0f), size);
    const int32_t i = static_cast<int32_t>(f);
    return i - (static_cast<float>(i) > f ? 1 : 0);
  };
  return flooredRectHiddenT<Isa>(floorIn(minX, fw), floorIn(maxX, fw), floorIn(minY, fh),
                                 floorIn(maxY, fh), depth);
}

template <class Isa>
OFPS_OCCLUSION_INLINE bool OcclusionBuffer::flooredRectHiddenT(int32_t fx0, int32_t fx1,
                                                               int32_t fy0, int32_t fy1,
                                                               float depth) {
  const int32_t w = static_cast<int32_t>(width_), h = static_cast<int32_t>(height_);
  // Entirely off screen: outside the frustum, which is the frustum test's call, not ours.
  if (fx1 < 0 || fy1 < 0 || fx0 >= w || fy0 >= h) return false;
  return scanHiddenT<Isa>(
      static_cast<uint32_t>(std::max(fx0, 0)), static_cast<uint32_t>(std::min(fx1, w - 1)),
      static_cast<uint32_t>(std::max(fy0, 0)), static_cast<uint32_t>(std::min(fy1, h - 1)), depth);
}

template <class Isa>
uint32_t OcclusionBuffer::trianglesHidden4T(const float (&c)[9][4], uint32_t lanes,
                                            ScreenRect* rects, uint32_t* outside) {
  const simd::F4 coords[9] = {simd::load(c[0]), simd::load(c[1]), simd::load(c[2]),
                              simd::load(c[3]), simd::load(c[4]), simd::load(c[5]),
                              simd::load(c[6]), simd::load(c[7]), simd::load(c[8])};
  return trianglesHiddenLanes<Isa, Lanes4>(coords, lanes, rects, outside);
}

template <class Isa, class V>
uint32_t OcclusionBuffer::trianglesHiddenLanes(const typename V::F (&coords)[9], uint32_t lanes,
                                               ScreenRect* rects, uint32_t* outside) {
  using F = typename V::F;
  const F halfW = V::splat(0.5f * static_cast<float>(width_));
  const F halfH = V::splat(0.5f * static_cast<float>(height_));
  Hull<V> h = emptyHull<V>();
  Outside<V> beyond = allOutside<V>();
  for (int v = 0; v < 3; ++v) {
    addPoints<V>(vpf_, vpMag_, halfW, halfH, coords[3 * v], coords[3 * v + 1], coords[3 * v + 2], h,
                 outside != nullptr ? &beyond : nullptr);
  }
  uint32_t skip = 0;  // lanes outside the frustum: no rectangle, no scan
  if (outside != nullptr) {
    skip = V::bits(beyond.left | beyond.right | beyond.bottom | beyond.top | beyond.nearPlane |
                   beyond.farPlane) &
           lanes;
    *outside = skip;
  }
  finishHull<V>(halfW, halfH, h);
  const HullLanes<V> hl = lanesOf(h);
  const F fw = halfW + halfW, fh = halfH + halfH;  // exact: the sizes, as floats
  constexpr int kCount = V::kCount;
  float fx0[kCount], fx1[kCount], fy0[kCount], fy1[kCount];
  V::store(fx0, clampedFloor<V>(h.minX, fw));
  V::store(fx1, clampedFloor<V>(h.maxX, fw));
  V::store(fy0, clampedFloor<V>(h.minY, fh));
  V::store(fy1, clampedFloor<V>(h.maxY, fh));
  const uint32_t certain = V::bits(h.ok) & lanes;
  uint32_t hidden = 0;
  const double infinity = std::numeric_limits<double>::infinity();
  // Lane by lane over set bits only (a loop over every lane with a test per lane mispredicted
  // often: which lanes are live, outside or uncertain varies from call to call).
  for (uint32_t bits = skip; bits != 0; bits &= bits - 1) {  // outside the frustum: empty
    rects[std::countr_zero(bits)] = {infinity, -infinity, infinity, -infinity};
  }
  for (uint32_t bits = lanes & ~skip & ~certain; bits != 0; bits &= bits - 1) {  // the plane
    rects[std::countr_zero(bits)] = {-infinity, infinity, -infinity, infinity};
  }
  for (uint32_t bits = certain & ~skip; bits != 0; bits &= bits - 1) {
    const uint32_t i = static_cast<uint32_t>(std::countr_zero(bits));
    rects[i] = {hl.x0[i], hl.x1[i], hl.y0[i], hl.y1[i]};
    if (flooredRectHiddenT<Isa>(static_cast<int32_t>(fx0[i]), static_cast<int32_t>(fx1[i]),
                                static_cast<int32_t>(fy0[i]), static_cast<int32_t>(fy1[i]),
                                hl.depth[i])) {
      hidden |= 1u << i;
    }
  }
  return hidden;
}

template <class Isa>
bool OcclusionBuffer::scanHiddenT(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1,
                                  float boxInvW) {
  using V = typename PixelLanes<Isa>::type;
  const typename V::F depth = V::splat(boxInvW);
  static_assert(kOcclusionTileSize == 8, "the pixel scan reads a tile row of eight pixels");
  static_assert(V::kCount <= kTilePadding,
                "a group of tiles reads at most the padding past the end");
  static_assert(std::endian::native == std::endian::little, "dirty byte i is tile i of a group");
  constexpr uint32_t kGroup = V::kCount;
  const uint32_t tx0 = x0 / kOcclusionTileSize, tx1 = x1 / kOcclusionTileSize;
  for (uint32_t ty = y0 / kOcclusionTileSize; ty <= y1 / kOcclusionTileSize; ++ty) {
    // The row's tiles a group at a time: the dirty ones refreshed, then the tile minima compared
    // in one go, so that only the tiles they do not settle (some pixel may be as far as the
    // box) are scanned, and a row of settled tiles costs no branch per tile. Lanes past tx1 read
    // the next row's tiles or the padding, and are masked off.
    for (uint32_t tg = tx0; tg <= tx1; tg += kGroup) {
      const uint32_t first = ty * tilesX_ + tg;
      const uint32_t lanes =
          (tx1 - tg + 1 >= kGroup) ? (1u << kGroup) - 1u : (1u << (tx1 - tg + 1)) - 1u;
      uint64_t dirtyBytes = 0;
      std::memcpy(&dirtyBytes, &tileDirty_[first], kGroup);  // little-endian: byte i is tile i
      // Each byte is 0 or 1: the product gathers byte i's bit at bit 56 + i (no two terms meet).
      uint32_t dirty = static_cast<uint32_t>((dirtyBytes * 0x0102040810204080ull) >> 56) & lanes;
      for (; dirty != 0; dirty &= dirty - 1) {
        refreshTileT<Isa>(first + static_cast<uint32_t>(std::countr_zero(dirty)));
      }
      // Settled: every pixel of the tile strictly nearer than the box (tile minima are never
      // NaN).
      const uint32_t settled = V::bits(V::gt(V::load(&tileMin_[first]), depth));
      for (uint32_t open = lanes & ~settled; open != 0; open &= open - 1) {
        // The tile's pixels under the rectangle, one tile row (eight pixels, two loads) at a
        // time: a lane passes when its pixel is strictly nearer (a comparison is exact, and a
        // NaN pixel would fail it, the safe answer); the row passes when every column of the
        // rectangle does. columns: bit c set for tile column c inside [x0, x1].
        const uint32_t tx = tg + static_cast<uint32_t>(std::countr_zero(open));
        const uint32_t left = tx * kOcclusionTileSize;
        const uint32_t c0 = std::max(x0, left) - left;
        const uint32_t c1 = std::min(x1, left + kOcclusionTileSize - 1) - left;
        const uint32_t columns = (2u << c1) - (1u << c0);
        const uint32_t py0 = std::max(y0, ty * kOcclusionTileSize);
        const uint32_t py1 = std::min(y1, ty * kOcclusionTileSize + kOcclusionTileSize - 1);
        for (uint32_t y = py0; y <= py1; ++y) {
          const float* row = &pixels_[static_cast<size_t>(y) * width_ + left];
          const uint32_t nearer = V::nearer8(row, depth);
          if ((nearer & columns) != columns) return false;
        }
      }
    }
  }
  return true;
}

}  // namespace ofps
