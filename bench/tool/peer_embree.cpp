// Embree 3 peer for `octree_bench --compare` (compiled only when CMake finds embree 3).
//
// - Build: one RTC_GEOMETRY_TYPE_TRIANGLE over shared vertex/index buffers (a padded copy of the
//   level: Embree reads vertices with 16-byte loads), default scene flags, RTC_BUILD_QUALITY_MEDIUM
//   (Embree's default), device "threads=N" with N from --threads (default 1).
// - Memory: the device's memory monitor callback (rtcSetDeviceMemoryMonitorFunction) counts every
//   byte Embree allocates for the scene; bytes = live after the commit, peakBuildBytes = the
//   highest live total during it. The shared mesh buffers are reported as meshBytes.
// - Rays: rtcIntersect1, tnear 0, tfar tmax, unit direction; t = tfar, triangle = primID.
// - Any-hit rays (ray_any): rtcOccluded1 on the same rays; hit = tfar set to -inf.
// - Overlaps: rtcPointQuery with a callback running our exact triangle tests
//   (geometry/triangle_tests.h). Sphere: its centre and radius. Capsule and box: their bounding
//   sphere (segment midpoint, half-length + r; box centre, half diagonal). The callback is called
//   for each triangle in the leaves the BVH traversal reaches and counts those that overlap,
//   so the answers are the same "n overlapping triangles" as ours.
#include <embree3/rtcore.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <glm/geometric.hpp>

#include "bench_types.h"
#include "octree_fps/geometry/triangle_tests.h"

namespace ofps::bench {
namespace {

double nowMs() {
  using namespace std::chrono;
  return duration<double, std::milli>(steady_clock::now().time_since_epoch()).count();
}

struct MemoryCounter {
  std::atomic<int64_t> live{0};
  std::atomic<int64_t> peak{0};
};

bool memoryMonitor(void* user, ssize_t bytes, bool /*post*/) {
  auto* m = static_cast<MemoryCounter*>(user);
  const int64_t now = m->live.fetch_add(bytes) + bytes;
  int64_t p = m->peak.load();
  while (now > p && !m->peak.compare_exchange_weak(p, now)) {
  }
  return true;  // never refuse an allocation
}

void errorFunction(void* /*user*/, RTCError code, const char* str) {
  std::fprintf(stderr, "embree error %d: %s\n", static_cast<int>(code), str ? str : "");
}

struct OverlapContext {
  const float* vertices;    // padded xyz
  const uint32_t* indices;  // 3 per triangle
  Kind kind;
  Query query;
  uint32_t count;
};

Triangle gather(const OverlapContext& c, uint32_t prim) {
  const uint32_t* idx = c.indices + 3 * static_cast<size_t>(prim);
  auto v = [&](uint32_t k) {
    const float* p = c.vertices + 3 * static_cast<size_t>(idx[k]);
    return glm::vec3(p[0], p[1], p[2]);
  };
  return {v(0), v(1), v(2)};
}

bool overlapCallback(RTCPointQueryFunctionArguments* args) {
  auto* c = static_cast<OverlapContext*>(args->userPtr);
  const Triangle tri = gather(*c, args->primID);
  bool hit = false;
  switch (c->kind) {
    case Kind::Sphere:
      hit = sphereOverlapsTriangle(c->query.p, c->query.r, tri);
      break;
    case Kind::Capsule:
      hit = capsuleOverlapsTriangle(c->query.p, c->query.q, c->query.r, tri);
      break;
    case Kind::Box:
      hit = boxOverlapsTriangle(Aabb{c->query.p, c->query.q}, tri);
      break;
    case Kind::Ray:
    case Kind::RayAny:
      break;
  }
  c->count += hit ? 1u : 0u;
  return false;  // the query radius was not changed
}

class EmbreeEngine final : public Engine {
 public:
  ~EmbreeEngine() override {
    if (scene_) rtcReleaseScene(scene_);
    if (device_) rtcReleaseDevice(device_);
  }
  std::string name() const override { return "embree"; }

  bool build(const Mesh& mesh, uint32_t threads, BuildInfo& outInfo,
             std::string& outError) override {
    const std::string config = "threads=" + std::to_string(threads) + ",set_affinity=0";
    device_ = rtcNewDevice(config.c_str());
    if (!device_) {
      outError = "rtcNewDevice failed (error " + std::to_string(rtcGetDeviceError(nullptr)) + ")";
      return false;
    }
    rtcSetDeviceErrorFunction(device_, errorFunction, nullptr);
    rtcSetDeviceMemoryMonitorFunction(device_, memoryMonitor, &memory_);

    vertices_.assign(3 * mesh.positions.size() + 1, 0.0f);  // +1 float: 16-byte loads
    for (size_t i = 0; i < mesh.positions.size(); ++i) {
      vertices_[3 * i + 0] = mesh.positions[i].x;
      vertices_[3 * i + 1] = mesh.positions[i].y;
      vertices_[3 * i + 2] = mesh.positions[i].z;
    }
    indices_ = mesh.indices.data();
    memory_.live = 0;
    memory_.peak = 0;

    const double t0 = nowMs();
    scene_ = rtcNewScene(device_);
    rtcSetSceneBuildQuality(scene_, RTC_BUILD_QUALITY_MEDIUM);
    RTCGeometry geom = rtcNewGeometry(device_, RTC_GEOMETRY_TYPE_TRIANGLE);
    rtcSetSharedGeometryBuffer(geom, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, vertices_.data(),
                               0, 3 * sizeof(float), mesh.positions.size());
    rtcSetSharedGeometryBuffer(geom, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                               mesh.indices.data(), 0, 3 * sizeof(uint32_t), mesh.triangleCount());
    rtcCommitGeometry(geom);
    rtcAttachGeometry(scene_, geom);
    rtcReleaseGeometry(geom);
    rtcCommitScene(scene_);
    const double t1 = nowMs();
    const RTCError err = rtcGetDeviceError(device_);
    if (err != RTC_ERROR_NONE) {
      outError = "embree build failed (error " + std::to_string(static_cast<int>(err)) + ")";
      return false;
    }
    outInfo.buildMs = t1 - t0;
    outInfo.bytes = static_cast<size_t>(memory_.live.load());
    outInfo.peakBuildBytes = static_cast<size_t>(memory_.peak.load());
    outInfo.meshBytes = vertices_.size() * sizeof(float) + mesh.indices.size() * sizeof(uint32_t);
    outInfo.threads = threads;
    outInfo.notes = std::string("Embree ") + RTC_VERSION_STRING +
                    ", RTC_BUILD_QUALITY_MEDIUM, default scene flags, device '" + config +
                    "'; rays rtcIntersect1; any-hit rays rtcOccluded1; overlaps rtcPointQuery "
                    "(bounding sphere) + our exact "
                    "triangle tests";
    return true;
  }

  void answer(Kind kind, std::span<const Query> qs, std::span<Answer> out) const override {
    if (kind == Kind::Ray) {
      RTCIntersectContext ctx;
      rtcInitIntersectContext(&ctx);
      for (size_t i = 0; i < qs.size(); ++i) {
        const Query& q = qs[i];
        RTCRayHit rh;
        rh.ray.org_x = q.p.x;
        rh.ray.org_y = q.p.y;
        rh.ray.org_z = q.p.z;
        rh.ray.tnear = 0.0f;
        rh.ray.dir_x = q.q.x;
        rh.ray.dir_y = q.q.y;
        rh.ray.dir_z = q.q.z;
        rh.ray.time = 0.0f;
        rh.ray.tfar = q.r;
        rh.ray.mask = 0xFFFFFFFFu;
        rh.ray.id = 0;
        rh.ray.flags = 0;
        rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
        rh.hit.primID = RTC_INVALID_GEOMETRY_ID;
        rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
        rtcIntersect1(scene_, &ctx, &rh);
        out[i] = rh.hit.geomID != RTC_INVALID_GEOMETRY_ID
                     ? Answer{true, rh.ray.tfar, rh.hit.primID, 0}
                     : Answer{};
      }
      return;
    }
    if (kind == Kind::RayAny) {
      RTCIntersectContext ctx;
      rtcInitIntersectContext(&ctx);
      for (size_t i = 0; i < qs.size(); ++i) {
        const Query& q = qs[i];
        RTCRay ray;
        ray.org_x = q.p.x;
        ray.org_y = q.p.y;
        ray.org_z = q.p.z;
        ray.tnear = 0.0f;
        ray.dir_x = q.q.x;
        ray.dir_y = q.q.y;
        ray.dir_z = q.q.z;
        ray.time = 0.0f;
        ray.tfar = q.r;
        ray.mask = 0xFFFFFFFFu;
        ray.id = 0;
        ray.flags = 0;
        rtcOccluded1(scene_, &ctx, &ray);
        // rtcOccluded1 sets tfar to -inf when it finds a hit.
        out[i] = {ray.tfar < 0.0f, 0.0f, kNoTriangle, 0};
      }
      return;
    }
    OverlapContext c{vertices_.data(), indices_, kind, {}, 0};
    for (size_t i = 0; i < qs.size(); ++i) {
      const Query& q = qs[i];
      RTCPointQuery pq;
      glm::vec3 centre;
      float radius;
      switch (kind) {
        case Kind::Sphere:
          centre = q.p, radius = q.r;
          break;
        case Kind::Capsule:
          centre = 0.5f * (q.p + q.q), radius = 0.5f * glm::length(q.q - q.p) + q.r;
          break;
        default:
          centre = 0.5f * (q.p + q.q), radius = 0.5f * glm::length(q.q - q.p);
          break;
      }
      // Rounding of the bounding sphere must not lose a touching triangle: grow it by a few ulps.
      radius = radius * (1.0f + 4.0f * 1.1920929e-7f) + 1e-30f;
      pq.x = centre.x;
      pq.y = centre.y;
      pq.z = centre.z;
      pq.time = 0.0f;
      pq.radius = radius;
      RTCPointQueryContext pctx;
      rtcInitPointQueryContext(&pctx);
      c.query = q;
      c.count = 0;
      rtcPointQuery(scene_, &pq, &pctx, overlapCallback, &c);
      out[i] = {c.count > 0, 0.0f, kNoTriangle, c.count};
    }
  }

 private:
  RTCDevice device_ = nullptr;
  RTCScene scene_ = nullptr;
  MemoryCounter memory_;
  std::vector<float> vertices_;
  const uint32_t* indices_ = nullptr;
};

}  // namespace

std::unique_ptr<Engine> makeEmbreeEngine() {
  return std::make_unique<EmbreeEngine>();
}

}  // namespace ofps::bench
