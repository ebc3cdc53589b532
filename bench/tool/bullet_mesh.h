#pragma once
// The level as Bullet sees it, for both Bullet peers of `octree_bench --compare`
// (peer_bullet.cpp, peer_bullet_contact.cpp). Compiled only when CMake finds Bullet.
//
// Bullet's quantized BVH stores a triangle's index in 21 bits and its part in 10, so the level
// is split into parts of 2^20 triangles; a triangle's original index is part << 20 | index.

#include <BulletCollision/CollisionShapes/btTriangleIndexVertexArray.h>

#include <cstdint>
#include <string>

#include "bench_types.h"

namespace ofps::bench {

inline constexpr uint32_t kBulletPartBits = 20;

// False (with a message) when the level has more triangles than 1024 parts can hold.
bool bulletMeshFits(uint32_t triangles, std::string& outError);
// Parts over the mesh's own vertex and index arrays (shared, not copied: the mesh must outlive
// it). The caller owns the result.
btTriangleIndexVertexArray* makeBulletMesh(const Mesh& mesh);
inline uint32_t bulletTriangleId(int partId, int triangleIndex) {
  return (static_cast<uint32_t>(partId) << kBulletPartBits) + static_cast<uint32_t>(triangleIndex);
}

}  // namespace ofps::bench
