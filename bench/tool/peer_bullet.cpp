// Bullet peer for `octree_bench --compare` (compiled only when CMake finds Bullet).
//
// - Build: btBvhTriangleMeshShape (quantized AABB compression on, Bullet's recommended setting
//   for static level meshes) over a btTriangleIndexVertexArray that shares the level's vertex and
//   index arrays. Bullet's quantized BVH stores triangle indices in 21 bits, so levels are split
//   into parts of 2^20 triangles (one part below 1 M triangles). Always single-threaded.
// - Memory: btAlignedAllocSetCustom routes every Bullet allocation through a counter
//   (bullet_alloc.h, shared with peer_bullet_contact.cpp); bytes = live after the build (shape,
//   BVH, mesh interface), peakBuildBytes = highest live total. The shared mesh arrays are
//   meshBytes.
// - Rays: btBvhTriangleMeshShape::performRaycast with a btTriangleRaycastCallback (two-sided, no
//   flags) that keeps the nearest hit; t = hitFraction * tmax.
// - Overlaps: btBvhTriangleMeshShape::processAllTriangles with the shape's AABB, then our exact
//   triangle test (geometry/triangle_tests.h) on each triangle reported. Chosen over
//   btCollisionWorld::contactTest with btSphereShape/btCapsuleShape/btBoxShape because (1) it
//   answers the same question exactly ("n triangles overlap"), so answers can be checked line by
//   line, where contactTest reports GJK/EPA contact points that cannot be counted as
//   triangles exactly; and (2) it is the faster of the two (no
//   broadphase, dispatcher, collision objects or manifolds), so the ratio against Bullet is, if
//   anything, in Bullet's favour. The contactTest path is measured as well, as the separate
//   engine "bullet_contact" (peer_bullet_contact.cpp).
#include <BulletCollision/NarrowPhaseCollision/btRaycastCallback.h>
#include <btBulletCollisionCommon.h>

#include <chrono>
#include <glm/common.hpp>

#include "bench_types.h"
#include "bullet_alloc.h"
#include "bullet_mesh.h"
#include "octree_fps/geometry/triangle_tests.h"

namespace ofps::bench {
namespace {

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

btVector3 bt(const glm::vec3& v) {
  return btVector3(v.x, v.y, v.z);
}
glm::vec3 gl(const btVector3& v) {
  return glm::vec3(v.x(), v.y(), v.z());
}

struct NearestRayCallback final : btTriangleRaycastCallback {
  NearestRayCallback(const btVector3& from, const btVector3& to)
      : btTriangleRaycastCallback(from, to, 0) {}
  btScalar reportHit(const btVector3& /*normal*/, btScalar hitFraction, int partId,
                     int triangleIndex) override {
    const uint32_t tri = bulletTriangleId(partId, triangleIndex);
    if (!hit || hitFraction < fraction || (hitFraction == fraction && tri < triangle)) {
      hit = true;
      fraction = hitFraction;
      triangle = tri;
    }
    return fraction;  // Bullet then skips triangles farther than this
  }
  bool hit = false;
  btScalar fraction = 1;
  uint32_t triangle = kNoTriangle;
};

struct OverlapCallback final : btTriangleCallback {
  void processTriangle(btVector3* v, int /*partId*/, int /*triangleIndex*/) override {
    const Triangle tri{gl(v[0]), gl(v[1]), gl(v[2])};
    bool hit = false;
    switch (kind) {
      case Kind::Sphere:
        hit = sphereOverlapsTriangle(query.p, query.r, tri);
        break;
      case Kind::Capsule:
        hit = capsuleOverlapsTriangle(query.p, query.q, query.r, tri);
        break;
      case Kind::Box:
        hit = boxOverlapsTriangle(Aabb{query.p, query.q}, tri);
        break;
      case Kind::Ray:
      case Kind::RayAny:
        break;
    }
    count += hit ? 1u : 0u;
  }
  Kind kind = Kind::Sphere;
  Query query;
  uint32_t count = 0;
};

class BulletEngine final : public Engine {
 public:
  ~BulletEngine() override {
    delete shape_;
    delete meshInterface_;
  }
  std::string name() const override { return "bullet"; }

  bool build(const Mesh& mesh, uint32_t /*threads*/, BuildInfo& outInfo,
             std::string& outError) override {
    if (!bulletMeshFits(mesh.triangleCount(), outError)) return false;
    const int64_t live0 = bulletLiveBytes();
    resetBulletPeak();
    const double t0 = nowMs();
    meshInterface_ = makeBulletMesh(mesh);
    shape_ = new btBvhTriangleMeshShape(meshInterface_, /*useQuantizedAabbCompression=*/true,
                                        /*buildBvh=*/true);
    const double t1 = nowMs();
    outInfo.buildMs = t1 - t0;
    outInfo.bytes = static_cast<size_t>(bulletLiveBytes() - live0);
    outInfo.peakBuildBytes = static_cast<size_t>(bulletPeakBytes() - live0);
    outInfo.meshBytes = mesh.bytes();
    outInfo.threads = 1;
    outInfo.notes = "Bullet " + std::to_string(btGetVersion()) +
                    ", btBvhTriangleMeshShape (quantized) over btTriangleIndexVertexArray; rays "
                    "performRaycast (nearest); overlaps processAllTriangles(shape AABB) + our "
                    "exact triangle tests; single-threaded build";
    return true;
  }

  void answer(Kind kind, std::span<const Query> qs, std::span<Answer> out) const override {
    // Bullet has no any-hit ray of its own: ray_any runs the nearest-hit cast and keeps the flag.
    if (kind == Kind::Ray || kind == Kind::RayAny) {
      for (size_t i = 0; i < qs.size(); ++i) {
        const Query& q = qs[i];
        const btVector3 from = bt(q.p);
        const btVector3 to = bt(q.p + q.q * q.r);
        NearestRayCallback cb(from, to);
        shape_->performRaycast(&cb, from, to);
        out[i] =
            cb.hit ? Answer{true, static_cast<float>(cb.fraction) * q.r, cb.triangle, 0} : Answer{};
        if (kind == Kind::RayAny) out[i] = {cb.hit, 0.0f, kNoTriangle, 0};
      }
      return;
    }
    OverlapCallback cb;
    cb.kind = kind;
    for (size_t i = 0; i < qs.size(); ++i) {
      const Query& q = qs[i];
      glm::vec3 lo, hi;
      switch (kind) {
        case Kind::Sphere:
          lo = q.p - q.r, hi = q.p + q.r;
          break;
        case Kind::Capsule:
          lo = glm::min(q.p, q.q) - q.r, hi = glm::max(q.p, q.q) + q.r;
          break;
        default:
          lo = q.p, hi = q.q;
          break;
      }
      cb.query = q;
      cb.count = 0;
      shape_->processAllTriangles(&cb, bt(lo), bt(hi));
      out[i] = {cb.count > 0, 0.0f, kNoTriangle, cb.count};
    }
  }

 private:
  btTriangleIndexVertexArray* meshInterface_ = nullptr;
  btBvhTriangleMeshShape* shape_ = nullptr;
};

}  // namespace

std::unique_ptr<Engine> makeBulletEngine() {
  installBulletAllocCounter();
  return std::make_unique<BulletEngine>();
}

}  // namespace ofps::bench
