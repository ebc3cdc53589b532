# octree_fps_exact_float(target): the floating-point rules the core's exact geometry is proved
# under, applied to one of this project's own targets (PRIVATE: nothing reaches a consumer).
#
# The octree's SIMD and scalar kernels and the brute-force oracle must round alike, so a
# multiply-add is never fused into an FMA behind the code's back (GCC contracts by default as
# soon as the target has FMA, e.g. -march=native). The tests and benchmarks compile the inline
# primitives (geometry/triangle_tests_inl.h) themselves and compare them bit for bit with the
# library, so they get the same rule. -ffast-math is refused by the core's sources
# (src/octree_fps/exactness_checks.cpp); it cannot be undone by a later flag here.
function(octree_fps_exact_float target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
    target_compile_options(${target} PRIVATE -ffp-contract=off)
  elseif(MSVC)
    # MSVC contracts only under /fp:fast or /fp:contract; /fp:precise (its default) does not.
    target_compile_options(${target} PRIVATE /fp:precise)
  endif()
endfunction()
