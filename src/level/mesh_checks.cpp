#include "level/mesh_checks.h"

#include <cmath>
#include <glm/geometric.hpp>

#include "level/level_frame.h"
#include "level/load_text.h"
#include "octree_fps/geometry/triangle_tests.h"

namespace ofps::loader {
namespace {

// Drops triangles touching non-finite or huge vertices (in the file frame; `scale` converts to
// metres), then compacts the mesh. Returns the number of triangles dropped and the first bad
// vertex for the message.
struct BadVertexReport {
  size_t trianglesDropped = 0;
  size_t badVertices = 0;
  uint32_t firstBad = 0;
  glm::dvec3 firstBadValue{0.0};
};

BadVertexReport dropBadVertices(LevelMesh* mesh, double scale) {
  BadVertexReport r;
  const double limit = kMaxCoordinateMetres / scale;
  std::vector<uint8_t> bad(mesh->positions.size(), 0);
  for (size_t v = 0; v < mesh->positions.size(); ++v) {
    const glm::vec3& p = mesh->positions[v];
    for (int k = 0; k < 3; ++k) {
      if (!std::isfinite(p[k]) || std::abs(static_cast<double>(p[k])) > limit) bad[v] = 1;
    }
    if (bad[v] != 0 && r.badVertices++ == 0) {
      r.firstBad = static_cast<uint32_t>(v);
      r.firstBadValue = glm::dvec3(p);
    }
  }
  if (r.badVertices == 0) return r;
  std::vector<uint32_t> kept;
  kept.reserve(mesh->indices.size());
  for (size_t t = 0; t + 2 < mesh->indices.size(); t += 3) {
    const uint32_t* tri = &mesh->indices[t];
    if (bad[tri[0]] || bad[tri[1]] || bad[tri[2]]) {
      ++r.trianglesDropped;
      continue;
    }
    kept.insert(kept.end(), tri, tri + 3);
  }
  // Compact: bad vertices must not reach bounds or the GPU.
  std::vector<uint32_t> remap(mesh->positions.size(), UINT32_MAX);
  LevelMesh out;
  for (uint32_t& idx : kept) {
    if (remap[idx] == UINT32_MAX) {
      remap[idx] = static_cast<uint32_t>(out.positions.size());
      out.positions.push_back(mesh->positions[idx]);
      out.normals.push_back(mesh->normals[idx]);
      out.uvs.push_back(mesh->uvs[idx]);
    }
    idx = remap[idx];
  }
  mesh->positions = std::move(out.positions);
  mesh->normals = std::move(out.normals);
  mesh->uvs = std::move(out.uvs);
  mesh->indices = std::move(kept);
  return r;
}

// Zero-area triangles by the octree's own test (geometry/triangle_tests.h: the sine of the
// largest angle below 1e-7, decided in double), so the loader's warning and the octree's
// statistics give the same number. Run on the final (Y-up metre) coordinates; the test is
// scale-invariant.
size_t countDegenerate(const LevelMesh& mesh) {
  size_t n = 0;
  for (size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const Triangle tri{mesh.positions[mesh.indices[t]], mesh.positions[mesh.indices[t + 1]],
                       mesh.positions[mesh.indices[t + 2]]};
    if (isDegenerateTriangle(tri)) ++n;
  }
  return n;
}

void fixNormals(LevelMesh* mesh) {
  // Generated or transformed normals: make them unit length; a zero one (degenerate face) gets
  // the face normal of its first triangle, else +Y, so shaders never see NaN.
  for (glm::vec3& n : mesh->normals) {
    const float len = glm::length(n);
    n = (std::isfinite(len) && len > 1e-20f) ? n / len : glm::vec3(0.0f);
  }
  for (size_t t = 0; t + 2 < mesh->indices.size(); t += 3) {
    const uint32_t* tri = &mesh->indices[t];
    glm::vec3 fn = glm::cross(mesh->positions[tri[1]] - mesh->positions[tri[0]],
                              mesh->positions[tri[2]] - mesh->positions[tri[0]]);
    const float len = glm::length(fn);
    fn = (std::isfinite(len) && len > 0.0f) ? fn / len : glm::vec3(0.0f, 1.0f, 0.0f);
    for (int k = 0; k < 3; ++k) {
      if (mesh->normals[tri[k]] == glm::vec3(0.0f)) mesh->normals[tri[k]] = fn;
    }
  }
  for (glm::vec3& n : mesh->normals) {
    if (n == glm::vec3(0.0f)) n = glm::vec3(0.0f, 1.0f, 0.0f);
  }
}

}  // namespace

std::string checkAndConvertMeshes(std::vector<MeshBuild>& meshes, const LevelImportFrame& frame,
                                  const std::string& path, std::vector<std::string>* warnings,
                                  uint32_t* outDegenerate) {
  const double scale = frame.scale;
  uint64_t droppedTris = 0, badVerts = 0;
  std::string firstBadWhere;
  for (MeshBuild& b : meshes) {
    const BadVertexReport r = dropBadVertices(&b.mesh, scale);
    if (r.badVertices > 0) {
      droppedTris += r.trianglesDropped;
      badVerts += r.badVertices;
      if (firstBadWhere.empty()) {
        firstBadWhere = "first in mesh '" + b.meshName + "' vertex " + std::to_string(r.firstBad) +
                        " = " + fmtVec(r.firstBadValue);
      }
    }
  }
  if (badVerts > 0) {
    warnings->push_back(path + ": dropped " + countWord(droppedTris, "triangle", "triangles") +
                        " using " + countWord(badVerts, "vertex", "vertices") +
                        " with NaN, infinite or huge (> 1e7 m) coordinates (" + firstBadWhere +
                        ")");
  }
  size_t total = 0;
  for (const MeshBuild& b : meshes) total += b.mesh.indices.size() / 3;
  if (total == 0) {
    return path + ": no usable triangles: all " + countWord(droppedTris, "triangle", "triangles") +
           " had NaN, infinite or huge coordinates (" + firstBadWhere + ")";
  }

  const float fscale = frame.scale;
  for (MeshBuild& b : meshes) {
    for (glm::vec3& p : b.mesh.positions) p = toYUp(p, frame.upAxis) * fscale;
    for (glm::vec3& n : b.mesh.normals) n = toYUp(n, frame.upAxis);
    fixNormals(&b.mesh);
  }
  size_t degenerate = 0;
  for (const MeshBuild& b : meshes) degenerate += countDegenerate(b.mesh);
  if (degenerate == total) {
    return path + ": all " + countWord(total, "triangle is", "triangles are") +
           " degenerate (zero area): nothing to collide with or draw";
  }
  if (degenerate > 0) {
    warnings->push_back(path + ": " + countWord(degenerate, "triangle has", "triangles have") +
                        " zero area; kept as segments/points for collision (they never"
                        " block) and counted in the octree's statistics");
  }
  *outDegenerate = static_cast<uint32_t>(degenerate);
  return {};
}

}  // namespace ofps::loader
