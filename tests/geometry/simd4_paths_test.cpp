// The four-lane helpers (src/octree_fps/geometry/simd4.h) give the same bits on every path the
// build can take: SSE2, SSE2 written through SIMDe (ARM64's NEON, WebAssembly's SIMD128, SIMDe's
// portable C), and the plain arrays. This file is compiled once per path into its own executable
// (tests/geometry/CMakeLists.txt: simd4_path_sse2, simd4_path_simde, simd4_path_scalar), so a
// path's definitions never meet another's in one program. Each checks the operations against
// their rule written out here in scalar C++, on inputs chosen where the paths could disagree:
// NaN in either operand (min/max return the second operand, as SSE's minps/maxps do; the ray
// slab test relies on it), signed zeros, infinities, denormals and the comparisons' NaN answers.
// On x86-64 the SSE2 executable proves that the rule written here is the hardware's.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "octree_fps/geometry/bit_cast.h"
#include "octree_fps/geometry/simd4.h"

namespace {

using ofps::simd::F4;

const float kNaN = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();
const float kDenorm = std::numeric_limits<float>::denorm_min();

// Values where paths can disagree, each paired with each (in both orders).
const std::vector<float>& specials() {
  static const std::vector<float> v = {0.0f, -0.0f, 1.0f,    -1.0f,    kNaN,    -kNaN,
                                       kInf, -kInf, kDenorm, -kDenorm, 3.0e38f, 1.0e-30f};
  return v;
}

uint32_t bitsOf(float x) {
  return ofps::bitCast<uint32_t>(x);
}

// The lanes of a as four floats.
std::vector<float> lanes(F4 a) {
  float out[4];
  ofps::simd::store(out, a);
  return {out[0], out[1], out[2], out[3]};
}

// Runs op on every pair of specials, four pairs per call, and compares each lane's bits with
// rule(x, y). A NaN result must be a NaN (its payload is not part of any rule the core uses).
template <class Op, class Rule>
void checkBinary(const char* name, Op op, Rule rule) {
  std::vector<float> xs, ys;
  for (float x : specials())
    for (float y : specials()) {
      xs.push_back(x);
      ys.push_back(y);
    }
  while (xs.size() % 4 != 0) {
    xs.push_back(1.0f);
    ys.push_back(2.0f);
  }
  for (size_t i = 0; i < xs.size(); i += 4) {
    const std::vector<float> got = lanes(op(ofps::simd::load(&xs[i]), ofps::simd::load(&ys[i])));
    for (size_t k = 0; k < 4; ++k) {
      const float want = rule(xs[i + k], ys[i + k]);
      if (std::isnan(want)) {
        EXPECT_TRUE(std::isnan(got[k])) << name << "(" << xs[i + k] << ", " << ys[i + k] << ")";
      } else {
        EXPECT_EQ(bitsOf(got[k]), bitsOf(want)) << name << "(" << xs[i + k] << ", " << ys[i + k]
                                                << ") = " << got[k] << ", want " << want;
      }
    }
  }
}

// Runs a comparison that answers a 4-bit mask, lane i in bit i.
template <class Op, class Rule>
void checkMask(const char* name, Op op, Rule rule) {
  for (float x : specials())
    for (float y : specials()) {
      const float xs[4] = {x, y, x, 1.0f}, ys[4] = {y, x, x, x};
      const uint32_t got = op(ofps::simd::load(xs), ofps::simd::load(ys));
      uint32_t want = 0;
      for (int k = 0; k < 4; ++k) want |= (rule(xs[k], ys[k]) ? 1u : 0u) << k;
      EXPECT_EQ(got, want) << name << " on (" << x << ", " << y << ")";
    }
}

TEST(Simd4Path, NamesThePathItWasBuiltFor) {
#if defined(OFPS_SIMD4_SSE2)
  const bool intrinsics = true;
#else
  const bool intrinsics = false;
#endif
#if defined(OFPS_SIMD_SCALAR)
  EXPECT_FALSE(intrinsics) << "OFPS_SIMD_SCALAR must select the plain arrays";
#else
  EXPECT_TRUE(intrinsics) << "SSE2 or SIMDe must select the intrinsics form";
#endif
}

TEST(Simd4Path, MinMaxReturnTheSecondOperandWhenEitherIsNaN) {
  checkBinary(
      "min", [](F4 a, F4 b) { return ofps::simd::min(a, b); },
      [](float x, float y) { return x < y ? x : y; });
  checkBinary(
      "max", [](F4 a, F4 b) { return ofps::simd::max(a, b); },
      [](float x, float y) { return x > y ? x : y; });
  // The exact answers the ray slab test needs, bit for bit (NaN payloads included: the
  // second operand itself is returned, not a new NaN).
  const F4 r = ofps::simd::min(ofps::simd::splat(kNaN), ofps::simd::splat(2.0f));
  EXPECT_EQ(lanes(r)[0], 2.0f);
  const F4 q = ofps::simd::max(ofps::simd::splat(1.0f), ofps::simd::splat(kNaN));
  EXPECT_EQ(bitsOf(lanes(q)[0]), bitsOf(kNaN));
  // Signed zeros: min(+0, -0) is the second operand, -0; min(-0, +0) is +0.
  EXPECT_EQ(bitsOf(lanes(ofps::simd::min(ofps::simd::splat(0.0f), ofps::simd::splat(-0.0f)))[0]),
            bitsOf(-0.0f));
  EXPECT_EQ(bitsOf(lanes(ofps::simd::min(ofps::simd::splat(-0.0f), ofps::simd::splat(0.0f)))[0]),
            bitsOf(0.0f));
}

TEST(Simd4Path, ArithmeticRoundsAsOneIeeeOperation) {
  checkBinary(
      "+", [](F4 a, F4 b) { return a + b; }, [](float x, float y) { return x + y; });
  checkBinary(
      "-", [](F4 a, F4 b) { return a - b; }, [](float x, float y) { return x - y; });
  checkBinary(
      "*", [](F4 a, F4 b) { return a * b; }, [](float x, float y) { return x * y; });
  checkBinary(
      "/", [](F4 a, F4 b) { return a / b; }, [](float x, float y) { return x / y; });
}

TEST(Simd4Path, ComparisonsAnswerFalseOnNaNExceptNotGreater) {
  using ofps::simd::bits;
  checkMask(
      "lessEqual", [](F4 a, F4 b) { return ofps::simd::lessEqual(a, b); },
      [](float x, float y) { return x <= y; });
  checkMask(
      "less", [](F4 a, F4 b) { return ofps::simd::less(a, b); },
      [](float x, float y) { return x < y; });
  checkMask(
      "equal", [](F4 a, F4 b) { return ofps::simd::equal(a, b); },
      [](float x, float y) { return x == y; });
  checkMask(
      "le", [](F4 a, F4 b) { return bits(ofps::simd::le(a, b)); },
      [](float x, float y) { return x <= y; });
  checkMask(
      "ge", [](F4 a, F4 b) { return bits(ofps::simd::ge(a, b)); },
      [](float x, float y) { return x >= y; });
  checkMask(
      "gt", [](F4 a, F4 b) { return bits(ofps::simd::gt(a, b)); },
      [](float x, float y) { return x > y; });
  checkMask(
      "notGreater", [](F4 a, F4 b) { return bits(ofps::simd::notGreater(a, b)); },
      [](float x, float y) { return !(x > y); });
}

TEST(Simd4Path, SignOperationsTouchOnlyTheSignBit) {
  for (float x : specials()) {
    const uint32_t b = bitsOf(x);
    EXPECT_EQ(bitsOf(lanes(ofps::simd::abs(ofps::simd::splat(x)))[0]), b & 0x7FFFFFFFu) << x;
    EXPECT_EQ(
        bitsOf(lanes(ofps::simd::flipSign(ofps::simd::splat(x), ofps::simd::splat(-1.0f)))[0]),
        b ^ 0x80000000u)
        << x;
    EXPECT_EQ(bitsOf(lanes(ofps::simd::flipSign(ofps::simd::splat(x), ofps::simd::splat(1.0f)))[0]),
              b)
        << x;
  }
}

TEST(Simd4Path, SelectAndMasksPickWholeLanes) {
  const float a[4] = {1.0f, kNaN, -0.0f, 4.0f}, b[4] = {5.0f, 6.0f, 7.0f, kNaN};
  const F4 fa = ofps::simd::load(a), fb = ofps::simd::load(b);
  const ofps::simd::M4 m = ofps::simd::le(fa, fb);  // lanes 0 and 2 true; NaN lanes false
  EXPECT_EQ(ofps::simd::bits(m), 0b0101u);
  const std::vector<float> s = lanes(ofps::simd::select(m, fa, fb));
  EXPECT_EQ(s[0], 1.0f);
  EXPECT_EQ(s[1], 6.0f);
  EXPECT_EQ(bitsOf(s[2]), bitsOf(-0.0f));
  EXPECT_TRUE(std::isnan(s[3]));
  const uint32_t w[4] = {0x80000000u, 1u, 0xFFFFFFFFu, 0x7FFFFFFFu};
  EXPECT_EQ(ofps::simd::bits(ofps::simd::topBitLanes(w)), 0b0101u);
  EXPECT_EQ(ofps::simd::bits(ofps::simd::andNot(m, ofps::simd::gt(fb, fa))), 0b0000u);
  EXPECT_EQ(ofps::simd::bits(m | ofps::simd::gt(fa, fb)), 0b0101u);
}

TEST(Simd4Path, ConversionsAreExact) {
  const uint16_t u[4] = {0, 1, 32768, 65535};
  const std::vector<float> got = lanes(ofps::simd::loadU16(u));
  for (int k = 0; k < 4; ++k) EXPECT_EQ(got[k], static_cast<float>(u[k]));
  const int32_t big = (1 << 24) + 1;  // not representable: rounds to nearest even
  const std::vector<float> f = lanes(ofps::simd::fromInts(-7, big, -big, 0x7FFFFFFF));
  EXPECT_EQ(f[0], -7.0f);
  EXPECT_EQ(f[1], static_cast<float>(big));
  EXPECT_EQ(f[2], static_cast<float>(-big));
  EXPECT_EQ(f[3], static_cast<float>(0x7FFFFFFF));
  float r0[4] = {1, 2, 3, 4}, r1[4] = {5, 6, 7, 8}, r2[4] = {9, 10, 11, 12},
        r3[4] = {13, 14, 15, 16};
  F4 a, b, c, d;
  ofps::simd::loadTransposed(r0, r1, r2, r3, a, b, c, d);
  EXPECT_EQ(lanes(a), (std::vector<float>{1, 5, 9, 13}));
  EXPECT_EQ(lanes(d), (std::vector<float>{4, 8, 12, 16}));
}

}  // namespace
