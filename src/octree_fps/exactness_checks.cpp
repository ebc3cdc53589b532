// Refuses to build the core under compiler flags that break its exactness. Compiled into
// octree_core with the same flags as every other core source, so one check covers the target.
//
// Why: every octree query must give the answer of its brute-force reference bit for bit, and
// the quantized node boxes are proved (at build time, against the very float expressions the
// traversal evaluates) to contain their triangles. -ffast-math (or /fp:fast) lets the compiler
// reassociate sums, contract multiply-adds and assume there are no infinities or NaNs (the
// build's input validation tests for them; ray slabs divide by zero direction components), so
// those proofs no longer hold. Contraction alone (-ffp-contract=fast with FMA hardware) has no
// predefined macro to test; the build sets -ffp-contract=off on every project target instead
// (cmake/ExactFloat.cmake).

#if defined(__FAST_MATH__)
#error \
    "octree_fps core: do not compile with -ffast-math; the exact queries need IEEE arithmetic (remove it from CMAKE_CXX_FLAGS for this project)"
#endif
#if defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__
#error \
    "octree_fps core: do not compile with -ffinite-math-only; input validation and ray slabs rely on IEEE infinities and NaNs"
#endif
#if defined(_M_FP_FAST)
#error "octree_fps core: do not compile with /fp:fast; the exact queries need /fp:precise"
#endif
