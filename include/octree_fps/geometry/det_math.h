#pragma once
// Transcendental functions that give the same bits on every platform: the sines, cosines and
// exponentials the simulation (controller, props, scenarios) feeds back into its own state.
//
// Why: sqrt, +, -, *, / are correctly rounded by IEEE 754 and agree everywhere, but the C
// library's sin, cos, acos, exp and log are not specified to the last bit. glibc, the MinGW-w64
// runtime, Apple's libm and Emscripten's musl may differ by an ulp for the same input, and one
// ulp in a yaw becomes a different trace a few hundred steps later. These functions use only
// IEEE double +, -, *, / and sqrt in a fixed order, compiled into the core with
// -ffp-contract=off (the repository's cmake/ExactFloat.cmake), so they round the same way on
// x86-64, ARM64 and WebAssembly. (Jolt's cross-platform deterministic build takes the same route
// for its trigonometry.) The rule the core follows is in CONTRIBUTING.md, "Determinism across
// platforms".
//
// Method: argument reduction (Cody and Waite, "Software Manual for the Elementary Functions",
// 1980: k * pi/2 or k * ln 2 subtracted in two parts), then a truncated Taylor series evaluated
// in double by Horner's rule on the reduced interval, then one rounding to the result type.
// Accuracy (the repository's tests/geometry/det_math_test.cpp): the float overloads are within 1
// ulp of the correctly rounded value for |x| <= 1e5 (radians); the double overloads within 2 ulp of
// glibc's (itself within 1 ulp) on the same range. Larger arguments give deterministic but less
// accurate results (the reduction loses bits, as fdlibm's would without its Payne-Hanek path). NaN
// in gives NaN out; +-inf gives NaN for sin and cos.
//
// Units: radians. Thread-safety: pure functions. Complexity: O(1), about 20-40 flops each.

namespace ofps::det {

double sin(double x);
double cos(double x);
float sin(float x);
float cos(float x);
// Principal values: atan in (-pi/2, pi/2), atan2(y, x) in [-pi, pi] with the C library's
// quadrant and signed-zero rules, acos in [0, pi] (NaN outside [-1, 1]).
double atan(double x);
double atan2(double y, double x);
float acos(float x);
// exp overflows to +inf above ~709.78 and underflows to 0 below ~-745.1; log(0) = -inf,
// log(x < 0) = NaN.
double exp(double x);
double log(double x);
float exp(float x);

}  // namespace ofps::det
