// Second Bullet peer for `octree_bench --compare`, engine "bullet_contact" (compiled only when
// CMake finds Bullet).
//
// Why two Bullet engines:
// - "bullet" (peer_bullet.cpp) walks Bullet's BVH (btBvhTriangleMeshShape::processAllTriangles)
//   and runs OUR exact triangle tests on what it reports. It answers exactly our question, so its
//   answers are checked line by line, and it skips everything in Bullet that is not the BVH walk:
//   the strictest comparison for the octree.
// - "bullet_contact" (this file) is what a Bullet user really calls to get contacts against a
//   static level mesh: btCollisionWorld::contactTest with a sphere, capsule or box collision
//   object. That runs the broadphase, the dispatcher, btConvexConcaveCollisionAlgorithm and, per
//   triangle, the sphere-triangle special case (spheres) or GJK, with EPA when they penetrate
//   (capsules, boxes). Its throughput is the "what a Bullet user gets" number.
//
// What it does:
// - Build: the same btBvhTriangleMeshShape (quantized AABB compression) over a
//   btTriangleIndexVertexArray sharing the level's arrays, split into parts of 2^20 triangles as
//   in peer_bullet.cpp, in one static btCollisionObject of a btCollisionWorld
//   (btDefaultCollisionConfiguration, btCollisionDispatcher, btDbvtBroadphase). Single-threaded.
//   build_ms covers all of it, world included.
// - Memory (bullet_alloc.h counts every btAlignedAlloc): bytes = the level's share, i.e. what
//   Bullet allocates from the mesh on (mesh interface, shape, BVH, collision object, broadphase
//   proxy and tree). The world's fixed part does not depend on the level: the configuration's
//   manifold and algorithm pools (4096 of each by default, several MB), the dispatcher's and
//   broadphase's own allocations, the query objects, and the sizes of the configuration,
//   dispatcher, broadphase and world objects (made with plain new, so added by hand). It is
//   reported apart as fixed_overhead_bytes and left out of bytes, so that bytes per triangle
//   stays comparable with the other engines; peak_build_bytes is the level's share too.
// - Rays: btCollisionWorld::rayTest with a ClosestRayResultCallback (m_flags 0: two-sided);
//   t = closest hit fraction * tmax; triangle from LocalRayResult::m_localShapeInfo (part and
//   triangle index), kNoTriangle if Bullet gives none.
// - Overlaps: one reusable query btCollisionObject per kind, not in the world, moved and resized
//   for each query, then contactTest; a ContactResultCallback collects the triangle (part,
//   index) of the level's side of every contact point with distance <= 0 (touching counts) and
//   counts the distinct ones: hit = n > 0.
//   - Sphere: btSphereShape(r) at the centre.
//   - Capsule: btCapsuleShape(r, |b - a|) (Bullet's capsule runs along its local Y axis and its
//     "height" is the distance between the two sphere centres) at the segment's midpoint, with a
//     rotation taking Y onto (b - a) / |b - a| (identity when a == b).
//   - Box: btBoxShape(half extents) at the box centre, axis-aligned.
//   - Margins: Bullet's sphere and capsule ARE a point and a segment inflated by their margin, the
//     margin being the radius (btSphereShape::getMargin returns the radius; btCapsuleShape::
//     setMargin ignores its argument), so the shape is exact and there is nothing to set. A
//     btBoxShape keeps its outer half extents and puts its margin inside them
//     (m_implicitShapeDimensions = half extents - margin; btBoxShape::setMargin moves the
//     margin without changing the outer size), which rounds the box's edges and corners by the
//     margin (0.04 by default, clamped by setSafeMargin to 10% of the smallest half extent).
//     setMargin(0) after construction makes it the exact box, with the same outer size. The
//     level mesh's margin (the triangles' margin in the convex-concave algorithm) is 0 already
//     (btConcaveShape's default); it is set to 0 explicitly.
//   - These counts will not match the octree's exact counts line by line: GJK/EPA tolerances,
//     the sphere-triangle detector's special cases, and degenerate (zero-area) triangles. (The
//     "at most 4 points per manifold" limit of btPersistentManifold does not apply here:
//     contactTest's result object hands each point to the callback instead of adding it to a
//     manifold.) The harness therefore reports this engine's overlap agreement with the octree
//     as informational only (Engine::answersExactly): no grazing classification, never an error.
#include <btBulletCollisionCommon.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "bench_types.h"
#include "bullet_alloc.h"
#include "bullet_mesh.h"

namespace ofps::bench {
namespace {

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

btVector3 bt(const glm::vec3& v) {
  return btVector3(v.x, v.y, v.z);
}

// Nearest hit, plus the triangle the closest hit was on.
struct NearestRayCallback final : btCollisionWorld::ClosestRayResultCallback {
  NearestRayCallback(const btVector3& from, const btVector3& to)
      : btCollisionWorld::ClosestRayResultCallback(from, to) {}
  btScalar addSingleResult(btCollisionWorld::LocalRayResult& result,
                           bool normalInWorldSpace) override {
    // Bullet only reports hits at or below m_closestHitFraction, so this one is the nearest yet.
    const btCollisionWorld::LocalShapeInfo* info = result.m_localShapeInfo;
    triangle = info && info->m_triangleIndex >= 0
                   ? bulletTriangleId(info->m_shapePart, info->m_triangleIndex)
                   : kNoTriangle;
    return ClosestRayResultCallback::addSingleResult(result, normalInWorldSpace);
  }
  uint32_t triangle = kNoTriangle;
};

// Triangles of the level that a contact point with distance <= 0 lies on (duplicates kept; the
// caller sorts them out).
struct TriangleContactCallback final : btCollisionWorld::ContactResultCallback {
  TriangleContactCallback(const btCollisionObject* levelObject, std::vector<uint32_t>& out)
      : level(levelObject), triangles(out) {}
  btScalar addSingleResult(btManifoldPoint& point, const btCollisionObjectWrapper* /*wrap0*/,
                           int partId0, int index0, const btCollisionObjectWrapper* wrap1,
                           int partId1, int index1) override {
    if (point.getDistance() > 0) return 0;  // within the contact threshold but apart
    const bool levelIsOne = wrap1->getCollisionObject() == level;
    const int part = levelIsOne ? partId1 : partId0;
    const int index = levelIsOne ? index1 : index0;
    if (part >= 0 && index >= 0) triangles.push_back(bulletTriangleId(part, index));
    return 0;  // ignored by contactTest
  }
  const btCollisionObject* level;
  std::vector<uint32_t>& triangles;
};

// Rotation taking Bullet's capsule axis (local Y) onto the unit vector `axis`: an orthonormal,
// right-handed basis whose Y column is `axis` (columns X = axis x p, Y = axis, Z = p).
btMatrix3x3 basisWithYAlong(const btVector3& axis) {
  btVector3 p, q;
  btPlaneSpace1(axis, p, q);                  // p perpendicular to axis, q = axis x p
  return btMatrix3x3(q.x(), axis.x(), p.x(),  //
                     q.y(), axis.y(), p.y(),  //
                     q.z(), axis.z(), p.z());
}

class BulletContactEngine final : public Engine {
 public:
  ~BulletContactEngine() override {
    if (world_ && level_) world_->removeCollisionObject(level_.get());
    level_.reset();
    query_.reset();
    delete world_;
    delete broadphase_;
    delete dispatcher_;
    delete config_;
    delete shape_;
    delete meshInterface_;
  }
  std::string name() const override { return "bullet_contact"; }
  // Rays are answered exactly (same ray/triangle test as peer "bullet"); overlap counts are
  // Bullet's contact points, not exact triangle counts (file comment).
  bool answersExactly(Kind kind) const override {
    return kind == Kind::Ray || kind == Kind::RayAny;
  }

  bool build(const Mesh& mesh, uint32_t /*threads*/, BuildInfo& outInfo,
             std::string& outError) override {
    if (!bulletMeshFits(mesh.triangleCount(), outError)) return false;
    const int64_t live0 = bulletLiveBytes();
    resetBulletPeak();
    const double t0 = nowMs();
    // The world, as a Bullet user sets it up, and the query objects: neither depends on the level.
    config_ = new btDefaultCollisionConfiguration();
    dispatcher_ = new btCollisionDispatcher(config_);
    broadphase_ = new btDbvtBroadphase();
    world_ = new btCollisionWorld(dispatcher_, broadphase_, config_);
    query_ = std::make_unique<QueryObjects>();
    query_->sphereObject.setCollisionShape(&query_->sphere);
    query_->capsuleObject.setCollisionShape(&query_->capsule);
    query_->boxObject.setCollisionShape(&query_->box);
    const int64_t liveWorld = bulletLiveBytes();
    resetBulletPeak();

    // The level's share.
    meshInterface_ = makeBulletMesh(mesh);
    shape_ = new btBvhTriangleMeshShape(meshInterface_, /*useQuantizedAabbCompression=*/true,
                                        /*buildBvh=*/true);
    shape_->setMargin(0);  // the default already; the triangles' margin in contact tests
    level_ = std::make_unique<btCollisionObject>();  // Bullet's operator new: counted
    level_->setCollisionShape(shape_);
    level_->setCollisionFlags(level_->getCollisionFlags() | btCollisionObject::CF_STATIC_OBJECT);
    world_->addCollisionObject(level_.get(), btBroadphaseProxy::StaticFilter,
                               btBroadphaseProxy::AllFilter ^ btBroadphaseProxy::StaticFilter);
    const double t1 = nowMs();

    outInfo.buildMs = t1 - t0;
    outInfo.bytes = static_cast<size_t>(bulletLiveBytes() - liveWorld);
    outInfo.peakBuildBytes = static_cast<size_t>(bulletPeakBytes() - liveWorld);
    // The configuration, dispatcher, broadphase, world and query objects are made with plain
    // new (their classes have no Bullet allocator), so their own sizes are added by hand.
    outInfo.fixedBytes = static_cast<size_t>(liveWorld - live0) + sizeof(*config_) +
                         sizeof(*dispatcher_) + sizeof(*broadphase_) + sizeof(*world_) +
                         sizeof(QueryObjects);
    outInfo.meshBytes = mesh.bytes();
    outInfo.threads = 1;
    outInfo.notes =
        "Bullet " + std::to_string(btGetVersion()) +
        ", btBvhTriangleMeshShape (quantized) over btTriangleIndexVertexArray in a static "
        "btCollisionObject of a btCollisionWorld (btDefaultCollisionConfiguration, "
        "btCollisionDispatcher, btDbvtBroadphase); rays btCollisionWorld::rayTest "
        "(ClosestRayResultCallback); overlaps btCollisionWorld::contactTest with btSphereShape / "
        "btCapsuleShape / btBoxShape (margin 0) objects, n = distinct triangles with a contact "
        "point at distance <= 0; bytes = the level's share, fixed_overhead_bytes = the world's "
        "level-independent pools and objects (not in bytes); single-threaded build";
    return true;
  }

  void answer(Kind kind, std::span<const Query> qs, std::span<Answer> out) const override {
    // rayTest has no any-hit mode: ray_any runs the nearest-hit test and keeps the flag.
    if (kind == Kind::Ray || kind == Kind::RayAny) {
      for (size_t i = 0; i < qs.size(); ++i) {
        const Query& q = qs[i];
        const btVector3 from = bt(q.p);
        const btVector3 to = bt(q.p + q.q * q.r);
        NearestRayCallback cb(from, to);
        world_->rayTest(from, to, cb);
        const float t = static_cast<float>(cb.m_closestHitFraction) * q.r;
        out[i] = cb.hasHit() ? Answer{true, t, cb.triangle, 0} : Answer{};
        if (kind == Kind::RayAny) out[i] = {cb.hasHit(), 0.0f, kNoTriangle, 0};
      }
      return;
    }
    // The query objects are state of this engine that answer() moves and resizes (the Engine
    // contract: one thread); they sit behind a pointer, hence no const_cast.
    QueryObjects& qo = *query_;
    std::vector<uint32_t> touched;
    touched.reserve(256);
    TriangleContactCallback cb(level_.get(), touched);
    for (size_t i = 0; i < qs.size(); ++i) {
      const Query& q = qs[i];
      btCollisionObject* object = nullptr;
      switch (kind) {
        case Kind::Sphere:
          qo.sphere.setUnscaledRadius(q.r);
          qo.sphereObject.setWorldTransform(btTransform(btMatrix3x3::getIdentity(), bt(q.p)));
          object = &qo.sphereObject;
          break;
        case Kind::Capsule: {
          const btVector3 a = bt(q.p), b = bt(q.q);
          const btVector3 d = b - a;
          const btScalar length = d.length();
          const btMatrix3x3 rotation =
              length > 0 ? basisWithYAlong(d / length) : btMatrix3x3::getIdentity();
          qo.capsule = btCapsuleShape(q.r, length);
          qo.capsuleObject.setWorldTransform(btTransform(rotation, (a + b) * btScalar(0.5)));
          object = &qo.capsuleObject;
          break;
        }
        case Kind::Box: {
          const btVector3 lo = bt(q.p), hi = bt(q.q);
          qo.box = btBoxShape((hi - lo) * btScalar(0.5));
          qo.box.setMargin(0);  // exact box, same outer size (file comment)
          qo.boxObject.setWorldTransform(
              btTransform(btMatrix3x3::getIdentity(), (lo + hi) * btScalar(0.5)));
          object = &qo.boxObject;
          break;
        }
        case Kind::Ray:
        case Kind::RayAny:
          break;
      }
      touched.clear();
      world_->contactTest(object, cb);
      std::sort(touched.begin(), touched.end());
      const auto n =
          static_cast<uint32_t>(std::unique(touched.begin(), touched.end()) - touched.begin());
      out[i] = {n > 0, 0.0f, kNoTriangle, n};
    }
  }

 private:
  struct QueryObjects {
    // Sized again for each query: setUnscaledRadius for the sphere, and for the capsule and the
    // box a freshly constructed shape assigned in place (the objects keep pointing at these).
    btSphereShape sphere{1};
    btCapsuleShape capsule{1, 0};
    btBoxShape box{btVector3(1, 1, 1)};
    btCollisionObject sphereObject;
    btCollisionObject capsuleObject;
    btCollisionObject boxObject;
  };

  btDefaultCollisionConfiguration* config_ = nullptr;
  btCollisionDispatcher* dispatcher_ = nullptr;
  btDbvtBroadphase* broadphase_ = nullptr;
  btCollisionWorld* world_ = nullptr;
  btTriangleIndexVertexArray* meshInterface_ = nullptr;
  btBvhTriangleMeshShape* shape_ = nullptr;
  std::unique_ptr<btCollisionObject> level_;
  std::unique_ptr<QueryObjects> query_;
};

}  // namespace

std::unique_ptr<Engine> makeBulletContactEngine() {
  installBulletAllocCounter();
  return std::make_unique<BulletContactEngine>();
}

}  // namespace ofps::bench
