#pragma once
// A conservative software occlusion buffer: occluder triangles are rasterized into a small
// depth buffer, and boxes are tested against it. Greene, Kass and Miller, "Hierarchical
// Z-Buffer Visibility" (SIGGRAPH 1993), reduced to two levels: pixels, and 8x8-pixel tiles that
// keep the farthest depth of their pixels so that a box over covered tiles is rejected without
// reading its pixels. Triangles are scan-converted in 2D homogeneous coordinates (Olano and
// Greer, "Triangle Scan Conversion using 2D Homogeneous Coordinates", Graphics Hardware 1997), so
// a triangle crossing the near plane or the eye plane needs no clipping to be covered correctly:
// the near plane is a fourth edge (the triangle is clipped only to bound its candidate rows).
//
// Frame and units: world space (the octree's; the demo's is Y up, right-handed, metres). The
// camera is a view-projection matrix in GLM's column-major convention with OpenGL clip space
// (-w <= x, y, z <= w), the same matrix Frustum::fromViewProjection takes. It must be a
// PERSPECTIVE projection (glm::perspective or glm::frustum times a rigid view): clip w must be the
// view-space depth (zero at the eye, growing away from it). Orthographic matrices are not
// supported (every box would be reported visible or, worse, compared on a constant depth).
//
// Depth: each pixel stores an INVERSE view depth, 1 / w (w = view-space distance along the
// viewing axis, in the level's units). 1 / w decreases monotonically with distance along every
// ray from the eye, 0 means "nothing here" (infinitely far), and, unlike w, it is an affine
// function of screen position over a triangle, so its extremes over a pixel are at the pixel's
// corners and no division per pixel is needed. "Nearer" below means a LARGER stored value.
//
// Screen: width x height pixels over normalized device coordinates [-1, 1]^2; pixel (i, j)
// covers x in [i, i + 1], y in [j, j + 1] in pixel units (x = (ndc.x + 1) / 2 * width); row 0 is
// at the bottom (ndc.y = -1). Pixels need not be square.
//
// ---- Why a box reported hidden is never visible -------------------------------------------------
// Occluders (rasterizeTriangle). A pixel receives an occluder's depth only when the triangle
// covers the WHOLE closed pixel square, in front of the near plane (inner conservative coverage):
// the three homogeneous edge functions and the near-plane function, all affine in screen
// position, are each at least a positive rounding margin at the pixel's corner where they are
// smallest. An affine function is >= its minimum corner value over the whole square, so every
// point of the pixel sees the triangle, at a positive distance beyond the near plane (when all
// three vertices are beyond the near plane, so is the whole triangle, and the near-plane
// function is not evaluated). The per-row pixel spans of these functions are computed in double
// from a division per triangle and widened inward, once per triangle, by a relative slack
// (1e-12 of the magnitudes involved over the triangle's rows) far above the rounding of those few
// operations. The value written is at most the smallest 1 / w of the triangle over the pixel:
// the plane's value at the pixel's minimizing corner, minus a rounding margin, is evaluated in
// single precision (A i + B j + C, i and j exact small integers, four pixels at a time) with C
// lowered once per triangle by 2^-21 of the largest magnitude of those terms over the triangle's
// candidate rectangle and rounded down to float. That is about twice what the float roundings
// (the coefficients', the two products' and the two sums', each at most 2^-24 relative) can add
// together (the .cpp's floatPlane), plus an absolute 2^-120 for subnormal steps, so every float
// written is a LOWER bound of 1 / w, i.e. an
// upper bound of the triangle's depth, at every point of the pixel. The pixel keeps the largest
// such bound (the nearest occluder); a NaN bound never replaces a pixel. Hence at every point of a
// covered pixel some drawn triangle lies at a depth <= the one stored. A triangle that covers no
// whole pixel (a sliver, a distant or edge-on triangle) writes nothing; skipping an occluder is
// always safe. Boxes (boxHidden). The eight corners are transformed in single precision, four
// at a time, each clip coordinate with a bound on its rounding error (2^-20 of the magnitudes of
// its terms: the .cpp's addPoints4 derives it), so that an interval [lo, hi] around it certainly
// holds the exact value. If any corner is not certainly beyond the near plane (lo_w > 0 and
// lo_z + lo_w > 0; this includes every corner on or behind it, and every corner behind the eye),
// the box is reported visible: no depth comparison is attempted for a box that may straddle the
// near plane. Otherwise every corner has w > 0, so the perspective image of the (convex) box lies
// in the bounding rectangle of its eight projected corners, and the rectangle computed from the
// intervals (each ratio x / w taken at the interval ends that bound it, then moved outward past
// the divisions' and the pixel mapping's rounding) holds the exact one; it is rounded outward to
// whole pixels. The box's nearest point has the largest 1 / w of its corners (w is affine, so its
// minimum over a box is at a corner), bounded above by 1 / lo_w, raised past its rounding. The box
// is hidden only when every pixel of the rectangle (clamped to the screen; a rectangle entirely
// off screen is reported visible and left to the frustum test) stores a value STRICTLY larger
// (tiles whose smallest value, an exact minimum of their pixels, is larger are passed whole).
// Then for any point q of the box that projects onto the screen, the pixel under q is covered by
// an occluder whose depth there is < the box's nearest depth <= depth(q), so q is hidden; points
// that project off the screen are outside the frustum. A box larger than the view is handled by
// the same argument (its rectangle is the whole screen). The margins (relative 1e-10 of each
// function's magnitude, far above double rounding of these few operations on float inputs;
// 2^-21 of the terms for the float depth planes; 2^-20 of the terms for the float corners) make the
// strict comparisons hold in exact arithmetic, not just in floats. Fused multiply-adds could only
// shrink the errors bounded here (the core is built without contraction anyway).
//
// Thread-safety: an OcclusionBuffer is single-threaded (boxHidden updates the tile levels
// lazily); use one per thread. Memory: 4 bytes per pixel + 5 per tile (256 x 128: 131 KB).
// Allocation: only in the constructor and resize(); nothing per frame, per triangle or per box.

#include <cstdint>
#include <glm/mat4x4.hpp>
#include <glm/vec3.hpp>
#include <span>
#include <vector>

#include "octree_fps/geometry/aabb.h"

namespace ofps {

// Tile edge in pixels: the level of the hierarchy above the pixels.
inline constexpr uint32_t kOcclusionTileSize = 8;

class OcclusionBuffer {
 public:
  // Default resolution: 256 x 128 is 32 K pixels (128 KB of floats, fits a core's L2 with the
  // tiles): a node box a few pixels wide at this size is still tested against real pixels, and
  // rasterizing a frame's occluders stays within the pass's budget. width and height: multiples
  // of kOcclusionTileSize, at least one tile each, at most 2^22 (asserted).
  explicit OcclusionBuffer(uint32_t width = 256, uint32_t height = 128);
  void resize(uint32_t width, uint32_t height);

  // Starts a frame: stores the camera (see the header comment for what viewProjection must be)
  // and empties every pixel (1 / w = 0). O(pixels).
  void begin(const glm::mat4& viewProjection);

  // Rasterizes one occluder triangle (world space; either winding: the level is drawn without
  // back-face culling). Returns the number of pixels it covered (whether or not it was the
  // nearest there). Triangles on or behind the near plane, edge-on or degenerate ones cover none.
  // O(rows of its screen bounds + pixels covered).
  uint32_t rasterizeTriangle(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c);

  // Rasterizes the triangles (p, q, r) and (q, s, r), which share the edge q-r, as one occluder:
  // where their union is a convex quad on screen (corners p, q, s, r), a pixel that the shared
  // edge crosses is covered too, with the smaller of the two planes' bounds (every point of the
  // pixel lies in one of the triangles, at or beyond its plane's bound). Otherwise (not convex,
  // or a corner not beyond the near plane) the two triangles are rasterized one by one. Returns
  // the pixels covered.
  uint32_t rasterizeTrianglePair(const glm::vec3& p, const glm::vec3& q, const glm::vec3& s,
                                 const glm::vec3& r);

  // True when the closed box is certainly hidden behind the occluders rasterized since begin()
  // (the argument above); false when it may be visible. It may report visible a box whose
  // nearest depth or rectangle is within the float bound (about 2^-20 of the clip coordinates'
  // terms) of the decision. O(tiles and pixels of its rectangle), stopping at the first pixel
  // that is not nearer.
  bool boxHidden(const Aabb& box);
  // The same test for a triangle (world space): its three vertices take the place of the box's
  // eight corners (a triangle's image lies in their screen rectangle, and its nearest point is a
  // vertex), so the argument above holds unchanged. This form computes in double (the corners'
  // clip coordinates as clipOf, their projection, a relative slack of 1e-6 pixel); the culler
  // uses trianglesHidden4 below.
  bool triangleHidden(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c);

  // The same three operations on points already transformed: clip coordinates as the buffer
  // computes them (double; x, y, z, w of the view-projection rows, bit for bit what the
  // world-space forms above compute), so that a triangle tested and then rasterized in the same
  // frame is transformed once. clipOf() is that transform, for the current begin() camera.
  struct ClipPoint {
    double x, y, z, w;
  };
  // (Inline: the cull transforms every occluder vertex with it. In double, a float times a float
  // is exact, so the only rounding is in the four-term sums, always added in this order.)
  ClipPoint clipOf(const glm::vec3& p) const {
    ClipPoint out;
    double* o = &out.x;
    for (int row = 0; row < 4; ++row) {
      o[row] = vp_[row][0] * static_cast<double>(p.x) + vp_[row][1] * static_cast<double>(p.y) +
               vp_[row][2] * static_cast<double>(p.z) + vp_[row][3];
    }
    return out;
  }
  // Screen bounds of a tested triangle's three vertices, in pixel units (unclamped), as its
  // hidden test projected them; the whole plane (infinite bounds) when a vertex is not beyond the
  // near plane, where no rectangle bounds the image.
  struct ScreenRect {
    double x0, x1, y0, y1;
  };
  // triangleHidden, also storing the vertices' clip coordinates in out (a, b, c) and their screen
  // rectangle in *rect.
  bool triangleHidden(const glm::vec3& a, const glm::vec3& b, const glm::vec3& c,
                      ClipPoint (&out)[3], ScreenRect* rect);
  // triangleHidden on the four triangles of one octree triangle block at once (the layout of
  // OctreeTriangleBlock: c[3 * vertex + axis][lane]), in single precision four lanes wide, for
  // the lanes whose bit is set in `lanes`. Returns the hidden lanes; rects[i] receives lane i's
  // screen rectangle (for mayCoverPixel). The vertices' clip coordinates are computed in float
  // with an error bound from the magnitudes of their terms (see the .cpp), every bound is then
  // taken outward (the rectangle larger, the nearest depth nearer, the near-plane test stricter),
  // so a lane is reported hidden only when the exact triangle is: the argument of the header
  // comment holds as for triangleHidden. It may report visible a triangle that triangleHidden
  // finds hidden, when the decision lies within that bound (about 2^-20 of the terms'
  // magnitudes); never the other way round. O(4 transforms + the rectangles' tiles and pixels).
  uint32_t trianglesHidden4(const float (&c)[9][4], uint32_t lanes, ScreenRect (&rects)[4]);
  // The same on two blocks at once (c0: lanes 0-3, c1: lanes 4-7, the bits of `lanes` likewise):
  // exactly two trianglesHidden4 calls (the same answers and rectangles), done eight lanes wide
  // where the AVX2 kernels run. With `outside` (not null), the lanes whose triangle certainly
  // lies outside the view frustum (its three vertices beyond one clip plane, with the same float
  // error bounds as the hidden test) are also stored in *outside: they are neither tested for
  // occlusion (not set in the result) nor given a rectangle; a triangle outside the frustum is
  // never seen, whatever the occluders.
  uint32_t trianglesHidden8(const float (&c0)[9][4], const float (&c1)[9][4], uint32_t lanes,
                            ScreenRect (&rects)[8], uint32_t* outside = nullptr);
  // False when no whole pixel of the screen fits in the rectangle, so that no occluder inside it
  // can cover a pixel (rasterizeTriangle writes only pixels that a triangle covers wholly, and a
  // triangle lies in its vertices' rectangle): the caller may skip such an occluder before its
  // setup, which changes nothing in the buffer. True when unsure (a NaN or infinite bound). O(1).
  bool mayCoverPixel(const ScreenRect& rect) const;
  // The smallest rectangle holding both (a pair's two triangles).
  static ScreenRect rectUnion(const ScreenRect& a, const ScreenRect& b);
  uint32_t rasterizeClipTriangle(const ClipPoint& a, const ClipPoint& b, const ClipPoint& c);
  uint32_t rasterizeClipTrianglePair(const ClipPoint& p, const ClipPoint& q, const ClipPoint& s,
                                     const ClipPoint& r);

  // Occluder selection: triangles (wholly in front of the near plane) whose screen-space
  // inscribed circle has a radius below this many pixels are not rasterized. Below 0.5 nothing
  // changes (such a triangle cannot hold a whole pixel); larger values trade occlusion for
  // speed. Any value is safe: leaving an occluder out only hides less. Default 0.5.
  void setMinOccluderInradius(double pixels) { minOccluderInradius_ = pixels; }

  // Whether the last rasterize* call made any pixel nearer. An occluder that covers pixels but
  // raises none lay behind what was there and changed nothing (the cull's history remembers it:
  // occlusion_cull.h). False after begin() and after a call that covered no pixel.
  bool lastOccluderRaised() const { return lastRaised_; }

  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  // Stored 1 / w per pixel, row-major from the bottom row (0 = empty). For debug views and tests.
  std::span<const float> inverseDepth() const { return pixels_; }
  float inverseDepthAt(uint32_t x, uint32_t y) const { return pixels_[y * width_ + x]; }

 private:
  // The per-frame kernels behind the public functions of the same names, one instantiation per
  // instruction set (Isa: a tag of occlusion_isa_inl.h); defined in occlusion_buffer_inl.h.
  template <class Isa>
  uint32_t rasterizeClipTriangleT(const ClipPoint& a, const ClipPoint& b, const ClipPoint& c);
  template <class Isa>
  uint32_t rasterizeClipTrianglePairT(const ClipPoint& p, const ClipPoint& q, const ClipPoint& s,
                                      const ClipPoint& r);
  template <class Isa>
  bool boxHiddenT(const Aabb& box);
  template <class Isa>
  uint32_t trianglesHidden4T(const float (&c)[9][4], uint32_t lanes, ScreenRect* rects,
                             uint32_t* outside);
  // trianglesHidden4T's work on the nine coordinates of V::kCount triangles in V's lanes
  // (occlusion_raster_inl.h: four, or eight in the AVX2 kernels); rects: kCount entries.
  template <class Isa, class V>
  uint32_t trianglesHiddenLanes(const typename V::F (&coords)[9], uint32_t lanes, ScreenRect* rects,
                                uint32_t* outside);
  // The AVX2 kernels' own forms, eight lanes wide (occlusion_kernels_avx2.cpp).
  bool boxHiddenAvx2(const Aabb& box);
  uint32_t trianglesHidden8Avx2(const float (&c0)[9][4], const float (&c1)[9][4], uint32_t lanes,
                                ScreenRect (&rects)[8], uint32_t* outside);
  template <class Isa>
  void refreshTileT(uint32_t tile);
  // The box and triangle hidden tests from the clip x, y and w of `count` points (at most eight),
  // all already known to be beyond the near plane (a point on or behind it is never hidden).
  // rect, when not null, receives the points' screen rectangle (pixel units, unclamped).
  bool projectedHullHidden(const double* cx, const double* cy, const double* cw, int count,
                           ScreenRect* rect = nullptr);
  // The pixel scan shared by every hidden test: true when every pixel that the rectangle
  // [minX, maxX] x [minY, maxY] (pixel units, widened here past 1e-6 of rounding) touches on
  // screen stores a value strictly nearer than maxInvW (an upper bound of the hull's 1 / w).
  bool rectHidden(double minX, double maxX, double minY, double maxY, double maxInvW);
  // The scan itself: pixels [x0, x1] x [y0, y1] (on screen, x0 <= x1, y0 <= y1) all strictly
  // nearer than depth (a float upper bound of the hull's 1 / w).
  template <class Isa>
  bool scanHiddenT(uint32_t x0, uint32_t x1, uint32_t y0, uint32_t y1, float depth);

  uint32_t width_ = 0;
  uint32_t height_ = 0;
  uint32_t tilesX_ = 0;
  double minOccluderInradius_ = 0.5;
  double vp_[4][4] = {};  // rows of the view-projection matrix (double, for exactness)
  // For the float hidden tests: each row's four entries as given (float) splatted to four lanes,
  // and, splatted too, the largest |entry| of the first three columns over all rows and the
  // largest |entry| of the last column (the error bound's magnitudes).
  alignas(16) float vpf_[4][4][4] = {};
  alignas(16) float vpMag_[2][4] = {};
  // The hull test's last step in float: bounds as the float hull gives them (see the .cpp),
  // widened, floored, clamped and scanned.
  template <class Isa>
  bool floatRectHiddenT(float minX, float maxX, float minY, float maxY, float depth);
  // Its second half: the floors fx0 .. fy1 of the bounds, clamped to [-1, size], already taken.
  template <class Isa>
  bool flooredRectHiddenT(int32_t fx0, int32_t fx1, int32_t fy0, int32_t fy1, float depth);
  std::vector<float> pixels_;                // 1 / w, 0 = empty
  static constexpr size_t kTilePadding = 8;  // the widest group of tiles a pixel scan reads
  std::vector<float> tileMin_;               // smallest 1 / w in each tile (its farthest pixel)
  std::vector<uint8_t> tileDirty_;           // 1 when a pixel changed since tileMin_ was computed
  bool lastRaised_ = false;                  // see lastOccluderRaised()
  bool avx2_ = false;                        // the AVX2 kernels run (chosen by begin())
};

}  // namespace ofps
