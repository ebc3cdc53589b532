// The probe's lines (probe_tool.h): the ray and its hit, the path from the root to the hit
// triangle's leaf (boxes by depth), the other nodes the query entered, the triangles it tested
// (cyan outlines) and the ones it found (yellow, hatched), the probe shape, and its push-out
// (green arrow and the pushed-out shape).
#include <algorithm>
#include <cmath>
#include <glm/geometric.hpp>
#include <glm/vec4.hpp>

#include "app/tool/probe_tool.h"
#include "app/window/demo_state.h"

namespace ofps::app {
namespace {

// Tested and found must never share a colour: found reads at a glance, tested is context.
const glm::vec4 kTested(0.15f, 0.80f, 0.85f, 1.0f);
const glm::vec4 kFound(1.00f, 0.90f, 0.10f, 1.0f);
const glm::vec4 kEntered(0.80f, 0.80f, 0.90f, 1.0f);
// The probe itself, ray or shape.
const glm::vec4 kShape(1.00f, 0.50f, 0.10f, 1.0f);
const glm::vec4 kPushed(0.25f, 1.00f, 0.35f, 1.0f);

// Path boxes from the root down: warm to cool, avoiding the found and tested colours.
glm::vec4 pathColor(uint32_t depth) {
  static constexpr glm::vec4 ramp[] = {{1.00f, 0.20f, 0.20f, 1.0f}, {1.00f, 0.35f, 0.65f, 1.0f},
                                       {0.95f, 0.40f, 0.95f, 1.0f}, {0.70f, 0.45f, 1.00f, 1.0f},
                                       {0.45f, 0.50f, 1.00f, 1.0f}, {0.85f, 0.85f, 0.85f, 1.0f}};
  return ramp[std::min<size_t>(depth, sizeof(ramp) / sizeof(ramp[0]) - 1)];
}

void outline(gl::LineRenderer& lines, const Triangle& t, const glm::vec4& color) {
  lines.line(t.v0, t.v1, color);
  lines.line(t.v1, t.v2, color);
  lines.line(t.v2, t.v0, color);
}

// Outline plus lines across the triangle about every 20 cm, so a found triangle reads as
// filled whatever its size.
void hatched(gl::LineRenderer& lines, const Triangle& t, const glm::vec4& color) {
  outline(lines, t, color);
  const float span = std::max(glm::length(t.v1 - t.v0), glm::length(t.v2 - t.v0));
  const int strokes = std::clamp(static_cast<int>(span / 0.2f), 6, 200);
  for (int i = 1; i < strokes; ++i) {
    const float f = static_cast<float>(i) / static_cast<float>(strokes);
    lines.line(t.v0 + (t.v1 - t.v0) * f, t.v0 + (t.v2 - t.v0) * f, color);
  }
}

// Circle of radius r around center in the plane spanned by unit u and v.
void circle(gl::LineRenderer& lines, const glm::vec3& center, const glm::vec3& u,
            const glm::vec3& v, float r, const glm::vec4& color, float fromTurn = 0.0f,
            float turns = 1.0f) {
  constexpr int kSegments = 32;
  const float twoPi = 6.28318530718f;
  glm::vec3 prev{};
  for (int i = 0; i <= kSegments; ++i) {
    const float a = twoPi * (fromTurn + turns * static_cast<float>(i) / kSegments);
    const glm::vec3 p = center + (u * std::cos(a) + v * std::sin(a)) * r;
    if (i > 0) lines.line(prev, p, color);
    prev = p;
  }
}

void wireSphere(gl::LineRenderer& lines, const glm::vec3& c, float r, const glm::vec4& color) {
  const glm::vec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  circle(lines, c, x, z, r, color);
  circle(lines, c, x, y, r, color);
  circle(lines, c, z, y, r, color);
}

// Capsule along Y: segment a (bottom) .. b (top), radius r.
void wireCapsule(gl::LineRenderer& lines, const glm::vec3& a, const glm::vec3& b, float r,
                 const glm::vec4& color) {
  const glm::vec3 x(1, 0, 0), y(0, 1, 0), z(0, 0, 1);
  circle(lines, a, x, z, r, color);
  circle(lines, b, x, z, r, color);
  circle(lines, b, x, y, r, color, 0.0f, 0.5f);  // top half-circles
  circle(lines, b, z, y, r, color, 0.0f, 0.5f);
  circle(lines, a, x, y, r, color, 0.5f, 0.5f);  // bottom half-circles
  circle(lines, a, z, y, r, color, 0.5f, 0.5f);
  for (const glm::vec3& side : {x, -x, z, -z}) lines.line(a + side * r, b + side * r, color);
}

void arrow(gl::LineRenderer& lines, const glm::vec3& from, const glm::vec3& to,
           const glm::vec4& color) {
  const glm::vec3 d = to - from;
  const float len = glm::length(d);
  lines.line(from, to, color);
  if (len <= 0.0f) return;
  const glm::vec3 dir = d / len;
  const glm::vec3 side = std::abs(dir.y) < 0.9f ? glm::normalize(glm::cross(dir, {0, 1, 0}))
                                                : glm::normalize(glm::cross(dir, {1, 0, 0}));
  const glm::vec3 other = glm::cross(dir, side);
  const float head = std::min(0.25f, len * 0.3f);
  for (const glm::vec3& s : {side, -side, other, -other}) {
    lines.line(to, to - dir * head + s * head * 0.5f, color);
  }
}

void drawShape(gl::LineRenderer& lines, const ProbeState& p, const glm::vec3& c,
               const glm::vec4& color) {
  const glm::vec3 axis(0.0f, std::max(0.0f, p.capsuleHeight * 0.5f - p.radius), 0.0f);
  switch (p.shape) {
    case ProbeShape::kSphere:
      wireSphere(lines, c, p.radius, color);
      break;
    case ProbeShape::kCapsule:
      wireCapsule(lines, c - axis, c + axis, p.radius, color);
      break;
    case ProbeShape::kBox:
      lines.box(Aabb::fromCenterHalfExtents(c, p.boxHalf), color);
      break;
    default:
      break;
  }
}

// The entered nodes' boxes and their own triangles, which the query tested (cyan). A ray's
// boxes are plain (its path is drawn by depth over them); a shape's are coloured by depth.
void enteredNodes(gl::LineRenderer& lines, const Octree& octree, const std::vector<uint32_t>& nodes,
                  bool byDepth) {
  for (const uint32_t node : nodes) {
    if (node >= octree.nodeCount()) continue;  // recorded before a rebuild
    lines.box(octree.nodeBounds(node), byDepth ? pathColor(octree.nodeLevel(node)) : kEntered);
    const TriangleRange own = octree.ownRange(node);
    for (uint32_t slot = own.first; slot < own.first + own.count; ++slot) {
      outline(lines, octree.triangle(slot), kTested);
    }
  }
}

}  // namespace

void buildProbeOverlay(DemoState& s) {
  const ProbeState& p = s.probe;
  if (!p.active || !p.hasRay || !s.level.session) return;
  const Octree& octree = s.level.session->octree;
  gl::LineRenderer& lines = s.gpu.lines;
  if (p.hasShape) {
    enteredNodes(lines, octree, p.shapeNodes, true);
    for (const Triangle& t : p.overlappingTriangles) hatched(lines, t, kFound);
    drawShape(lines, p, p.center, kShape);
    if (p.touching && p.pushOut.depth > 0.0f) {
      const glm::vec3 pushed = p.center + p.pushOut.normal * p.pushOut.depth;
      arrow(lines, p.center, pushed, kPushed);
      drawShape(lines, p, pushed, kPushed);
    }
    return;
  }
  enteredNodes(lines, octree, p.rayNodes, false);
  for (size_t i = 0; i < p.path.size(); ++i) {
    if (p.path[i] >= octree.nodeCount()) continue;
    lines.box(octree.nodeBounds(p.path[i]), pathColor(static_cast<uint32_t>(i)));
  }
  if (!p.hit) {
    lines.line(p.origin, p.origin + p.dir * 100.0f, kShape);
    return;
  }
  if (!p.path.empty() && p.path.back() < octree.nodeCount()) {
    // Lines are one pixel wide: two more boxes just outside make the leaf stand out.
    const Aabb leaf = octree.nodeBounds(p.path.back());
    const glm::vec4 color = pathColor(static_cast<uint32_t>(p.path.size() - 1));
    for (const float grow : {0.01f, 0.02f}) {
      const glm::vec3 pad = leaf.size() * grow;
      lines.box({leaf.min - pad, leaf.max + pad}, color);
    }
  }
  lines.line(p.origin, p.rayHit.point, kShape);
  hatched(lines, p.hitTriangle, kFound);
  arrow(lines, p.rayHit.point, p.rayHit.point + p.rayHit.normal * 0.75f, kPushed);
}

}  // namespace ofps::app
