#pragma once
// glTF 2.0 required extensions, read before Assimp sees the file.
//
// Why decode here and not in Assimp or with another glTF library: Assimp 5.2.5 ignores
// extensionsRequired and copies integer vertex attributes as if they were floats, so a
// gltfpack-optimized level (KHR_mesh_quantization, gltfpack's default) loads as garbage without
// an error. Only the vertex data is wrong; Assimp reads everything else (nodes, names,
// materials, textures, Draco) right. So this step rewrites the file's *data*, not the scene: it
// decodes EXT_meshopt_compression buffer views (with Debian's libmeshoptimizer, the reference
// decoder, which checks its input) and turns every quantized vertex attribute into float32, then
// hands Assimp an equivalent plain GLB held in memory. Assimp then applies gltfpack's node
// transforms (the dequantization scale and offset) as for any other node. Bringing in
// tinygltf instead would mean a second scene importer beside Assimp for one format, with its
// own materials and textures code to keep in step; the JSON is read with nlohmann::json, which
// the project already uses.
//
// Required extensions:
//   decoded here:   KHR_mesh_quantization, EXT_meshopt_compression
//   left to Assimp: KHR_draco_mesh_compression (Debian builds Assimp with Draco),
//                   KHR_texture_transform (baked into decoded UVs here), KHR_materials_* that
//                   Assimp 5.2 reads, KHR_lights_punctual
//   anything else:  refused with an error naming it (and gltfpack's flag that writes it).
//
// Thread-safety: no shared state; safe from any thread on different files.
#include <cstdint>
#include <string>
#include <vector>

namespace ofps {

struct GltfPrepared {
  // False: refuse the file with `error` (it names the file and, for an unsupported extension,
  // the extension).
  bool ok = true;
  std::string error;
  // Non-empty: a rewritten GLB (no quantization, no meshopt compression, one buffer) for Assimp
  // to read instead of the file; relative image URIs still resolve beside the original file.
  // Empty with no error: the file needs no rewriting; Assimp reads it as it is.
  std::vector<unsigned char> glb;
  // The extensions decoded here, e.g. {"KHR_mesh_quantization"}, for messages and tests.
  std::vector<std::string> decoded;
};

// in path: a .gltf or .glb file; in isGlb: binary container; in memoryBudget: bytes the decoded
// data may take at most (buffers, decoded views and float attributes together), above which the
// file is refused. Never throws. A file too damaged to parse is left to Assimp (no error, no
// glb), so its message stays the one users already get.
GltfPrepared prepareGltf(const std::string& path, bool isGlb, uint64_t memoryBudget);

// A URI path with its %XX escapes decoded (glTF buffer and image URIs; invalid escapes kept).
std::string percentDecode(const std::string& s);

}  // namespace ofps
