// The occlusion kernels compiled for AVX2 (occlusion_isa_inl.h): the same source as
// occlusion_kernels.cpp, the same IEEE operations (-ffp-contract=off, and no FMA in the target
// below), so the same bits; only the encoding differs (three-operand VEX forms, 256-bit
// registers where the compiler finds a use for them).
//
// Everything with external linkage that the kernels use (the standard library, GLM, the core's
// public headers and their inline functions, simd4.h) is included BEFORE the target pragma, so
// that none of it is compiled for AVX2 here: an inline function compiled for AVX2 could be the
// copy the linker keeps for baseline callers. Only the kernels' own headers are read inside the
// region: their helpers are in an anonymous namespace (this file's own copies) and their member
// templates are instantiated for OcclusionIsaAvx2 only here.
#include "octree_fps/culling/occlusion_isa_inl.h"

#if defined(OFPS_OCCLUSION_AVX2)

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "octree_fps/culling/frustum.h"
#include "octree_fps/culling/occlusion_buffer.h"
#include "octree_fps/culling/occlusion_cull.h"
#include "octree_fps/geometry/frustum_inl.h"
#include "octree_fps/geometry/simd4.h"
#include "octree_fps/spatial/octree.h"

#pragma GCC push_options
#pragma GCC target("avx2")

#include "octree_fps/culling/occlusion_buffer_inl.h"
#include "octree_fps/culling/occlusion_cull_inl.h"
#include "octree_fps/culling/occlusion_kernel_list_inl.h"

namespace ofps {

OFPS_OCCLUSION_INSTANTIATE(detail::OcclusionIsaAvx2)

}  // namespace ofps

#pragma GCC pop_options

#endif  // OFPS_OCCLUSION_AVX2
