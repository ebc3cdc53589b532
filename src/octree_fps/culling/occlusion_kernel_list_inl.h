#pragma once
// Internal to the core (src/octree_fps/culling; not an installed interface): the explicit
// instantiations of the occlusion kernels for one instruction set (occlusion_isa_inl.h), written
// once for occlusion_kernels.cpp and occlusion_kernels_avx2.cpp. Every member template that code
// outside those two files calls is listed here (boxHiddenT: baseline only, occlusion_kernels.cpp;
// the AVX2 kernels have their own eight-lane box test).
#define OFPS_OCCLUSION_INSTANTIATE(Isa)                                                           \
  template uint32_t OcclusionBuffer::rasterizeClipTriangleT<Isa>(                                 \
      const ClipPoint&, const ClipPoint&, const ClipPoint&);                                      \
  template uint32_t OcclusionBuffer::rasterizeClipTrianglePairT<Isa>(                             \
      const ClipPoint&, const ClipPoint&, const ClipPoint&, const ClipPoint&);                    \
  template uint32_t OcclusionBuffer::trianglesHidden4T<Isa>(const float(&)[9][4], uint32_t,       \
                                                            ScreenRect*, uint32_t*);              \
  template bool OcclusionBuffer::scanHiddenT<Isa>(uint32_t, uint32_t, uint32_t, uint32_t, float); \
  template void OcclusionCuller::cullT<Isa>(const Octree&, const DrawRanges&, const glm::mat4&,   \
                                            DrawRunList*, OcclusionCullStats*,                    \
                                            const OcclusionCullParams&);
