#pragma once
// Internal to the core (src/octree_fps/culling; not an installed interface): the instruction sets
// the occlusion kernels are compiled for, and which one runs.
//
// The per-frame work of OcclusionBuffer and OcclusionCuller (rasterization, the box and triangle
// hidden tests, the traversal) is written once, as member templates on one of the tags below
// (occlusion_buffer_inl.h, occlusion_cull_inl.h), and compiled twice: for the baseline x86-64
// target (occlusion_kernels.cpp) and for AVX2 (occlusion_kernels_avx2.cpp, GCC on x86-64 only,
// as the octree's eight-lane ray kernels). The source is the same and the core is built with
// -ffp-contract=off, and the AVX2 target does not enable FMA: every float and double operation
// is the same IEEE operation in both, so the two give the same bits. The second compilation alone
// (three-operand VEX encoding) saved 8.6 % of the instructions per frame on ons-reborn's frame
// walk; the AVX2 kernels' eight-lane forms (Lanes8 in occlusion_kernels_avx2.cpp) add to that
// (bench/micro/OCCLUSION_RESULTS.md, round 7). The public member functions choose
// between them at run time by octreeSimd() (octree.h): the culler once per cull(), the buffer
// once per begin(); octreeUseSimd(OctreeSimd::kBaseline) forces the baseline, as for rays.

#if defined(__GNUC__) && defined(__x86_64__) && !defined(OFPS_SIMD_SCALAR)
#define OFPS_OCCLUSION_AVX2 1
#endif

namespace ofps::detail {

struct OcclusionIsaBaseline {};
struct OcclusionIsaAvx2 {};

}  // namespace ofps::detail
