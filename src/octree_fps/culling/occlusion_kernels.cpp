// The occlusion kernels for the baseline target (occlusion_isa_inl.h): the translation unit that
// instantiates them; occlusion_buffer.cpp and occlusion_cull.cpp dispatch here.
#include "octree_fps/culling/occlusion_buffer_inl.h"
#include "octree_fps/culling/occlusion_cull_inl.h"
#include "octree_fps/culling/occlusion_isa_inl.h"
#include "octree_fps/culling/occlusion_kernel_list_inl.h"

namespace ofps {

OFPS_OCCLUSION_INSTANTIATE(detail::OcclusionIsaBaseline)
template bool OcclusionBuffer::boxHiddenT<detail::OcclusionIsaBaseline>(const Aabb&);

}  // namespace ofps
