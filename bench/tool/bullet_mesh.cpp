// The level as Bullet sees it (bullet_mesh.h).
#include "bullet_mesh.h"

#include <algorithm>

namespace ofps::bench {

bool bulletMeshFits(uint32_t triangles, std::string& outError) {
  if (static_cast<uint64_t>(triangles) <= (uint64_t{1} << (kBulletPartBits + 10))) return true;
  outError = "level too large for Bullet's quantized BVH (1024 parts of 2^20 triangles)";
  return false;
}

btTriangleIndexVertexArray* makeBulletMesh(const Mesh& mesh) {
  constexpr uint32_t kPartSize = 1u << kBulletPartBits;
  const uint32_t triangles = mesh.triangleCount();
  auto* array = new btTriangleIndexVertexArray();
  for (uint32_t first = 0; first < triangles; first += kPartSize) {
    btIndexedMesh part;
    part.m_numTriangles = static_cast<int>(std::min(kPartSize, triangles - first));
    part.m_triangleIndexBase =
        reinterpret_cast<const unsigned char*>(mesh.indices.data() + 3 * size_t{first});
    part.m_triangleIndexStride = 3 * sizeof(uint32_t);
    part.m_numVertices = static_cast<int>(mesh.positions.size());
    part.m_vertexBase = reinterpret_cast<const unsigned char*>(mesh.positions.data());
    part.m_vertexStride = sizeof(glm::vec3);
    part.m_indexType = PHY_INTEGER;
    part.m_vertexType = PHY_FLOAT;
    array->addIndexedMesh(part, PHY_INTEGER);
  }
  return array;
}

}  // namespace ofps::bench
