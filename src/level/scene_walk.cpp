#include "level/scene_walk.h"

#include <assimp/material.h>
#include <assimp/scene.h>

#include <utility>

#include "level/level_conventions.h"
#include "level/load_text.h"

namespace ofps::loader {
namespace {

std::string nodeLabel(const aiNode* node) {
  return node->mName.length > 0 ? std::string(node->mName.C_Str()) : std::string("(unnamed node)");
}

}  // namespace

void walkNodes(const aiScene& scene, const std::string& path, bool allSolid, WalkResult* out) {
  // How many nodes use each mesh: instanced meshes get "node/mesh" names.
  std::vector<uint32_t> useCount(scene.mNumMeshes, 0);
  {
    std::vector<const aiNode*> stack{scene.mRootNode};
    while (!stack.empty()) {
      const aiNode* n = stack.back();
      stack.pop_back();
      for (unsigned i = 0; i < n->mNumMeshes; ++i) {
        if (n->mMeshes[i] < scene.mNumMeshes) ++useCount[n->mMeshes[i]];
      }
      for (unsigned c = 0; c < n->mNumChildren; ++c) stack.push_back(n->mChildren[c]);
    }
  }

  struct Item {
    const aiNode* node;
    aiMatrix4x4 parent;
    bool noCollide;
    bool collider;
  };
  std::vector<Item> stack{{scene.mRootNode, aiMatrix4x4(), false, false}};
  std::vector<Item> children;
  while (!stack.empty()) {
    const Item item = stack.back();
    stack.pop_back();
    const aiNode* node = item.node;
    const aiMatrix4x4 world = item.parent * node->mTransformation;
    const std::string name = nodeLabel(node);
    const std::string lname = lower(name);
    const bool noCollide = item.noCollide || nameIsNoCollide(lname);
    const bool collider = item.collider || nameIsCollider(lname);

    if (const int prio = spawnNamePriority(name); prio > out->spawnPriority) {
      out->spawnPriority = prio;
      out->spawnMatrix = world;
      out->spawnName = name;
    }

    aiMatrix3x3 normalMatrix(world);
    const float det = normalMatrix.Determinant();
    normalMatrix.Inverse().Transpose();
    const bool mirrored = det < 0.0f;

    for (unsigned mi = 0; mi < node->mNumMeshes; ++mi) {
      const unsigned meshIndex = node->mMeshes[mi];
      if (meshIndex >= scene.mNumMeshes) continue;  // ValidateDataStructure rejects this
      const aiMesh& m = *scene.mMeshes[meshIndex];
      // SortByPType splits meshes by primitive type; count whatever is not a triangle.
      uint64_t points = 0, lines = 0;
      for (unsigned f = 0; f < m.mNumFaces; ++f) {
        const unsigned k = m.mFaces[f].mNumIndices;
        if (k == 1) ++points;
        if (k == 2) ++lines;
      }
      out->pointsDropped += points;
      out->linesDropped += lines;
      if (!(m.mPrimitiveTypes & aiPrimitiveType_TRIANGLE)) continue;

      MeshBuild b;
      b.meshName =
          m.mName.length > 0 ? std::string(m.mName.C_Str()) : "mesh " + std::to_string(meshIndex);
      b.mesh.name = name;
      if (node->mNumMeshes > 1 || useCount[meshIndex] > 1) b.mesh.name += "/" + b.meshName;
      b.mesh.material = m.mMaterialIndex < scene.mNumMaterials ? m.mMaterialIndex : 0;

      std::string materialName;
      if (m.mMaterialIndex < scene.mNumMaterials) {
        aiString s;
        if (scene.mMaterials[m.mMaterialIndex]->Get(AI_MATKEY_NAME, s) == AI_SUCCESS) {
          materialName = lower(s.C_Str());
        }
      }
      const std::string lmesh = lower(b.meshName);
      const bool isCollider = collider || nameIsCollider(lmesh) || nameIsCollider(materialName);
      const bool isNoCollide = noCollide || nameIsNoCollide(lmesh) || nameIsNoCollide(materialName);
      b.mesh.visible = !isCollider;
      b.mesh.layers = (isNoCollide && !isCollider && !allSolid) ? 0u : kLayerSolid;

      const unsigned nv = m.mNumVertices;
      b.mesh.positions.resize(nv);
      b.mesh.normals.resize(nv);
      b.mesh.uvs.assign(nv, glm::vec2(0.0f));
      for (unsigned v = 0; v < nv; ++v) {
        const aiVector3D p = world * m.mVertices[v];
        b.mesh.positions[v] = glm::vec3(p.x, p.y, p.z);
        if (m.mNormals != nullptr) {
          aiVector3D n = normalMatrix * m.mNormals[v];
          b.mesh.normals[v] = glm::vec3(n.x, n.y, n.z);
        }
      }
      if (m.mTextureCoords[0] != nullptr) {
        for (unsigned v = 0; v < nv; ++v) {
          b.mesh.uvs[v] = glm::vec2(m.mTextureCoords[0][v].x, m.mTextureCoords[0][v].y);
        }
      }
      b.mesh.indices.reserve(static_cast<size_t>(m.mNumFaces) * 3);
      for (unsigned f = 0; f < m.mNumFaces; ++f) {
        const aiFace& face = m.mFaces[f];
        if (face.mNumIndices != 3) continue;  // points/lines of a mixed mesh, counted above
        uint32_t tri[3] = {face.mIndices[0], face.mIndices[1], face.mIndices[2]};
        bool inRange = true;
        for (uint32_t idx : tri) inRange = inRange && idx < nv;
        if (!inRange) {
          if (out->badIndexError.empty()) {
            out->badIndexError = path + ": mesh '" + b.meshName + "' face " + std::to_string(f) +
                                 " uses vertex index out of range (mesh has " + std::to_string(nv) +
                                 " vertices)";
          }
          continue;
        }
        if (mirrored) std::swap(tri[1], tri[2]);  // keep front faces front under a mirror
        b.mesh.indices.insert(b.mesh.indices.end(), tri, tri + 3);
      }
      if (!b.mesh.indices.empty()) out->meshes.push_back(std::move(b));
    }

    children.clear();
    for (unsigned c = 0; c < node->mNumChildren; ++c) {
      children.push_back({node->mChildren[c], world, noCollide, collider});
    }
    // Reverse so the stack pops children in file order: mesh order follows the file.
    stack.insert(stack.end(), children.rbegin(), children.rend());
  }
}

}  // namespace ofps::loader
