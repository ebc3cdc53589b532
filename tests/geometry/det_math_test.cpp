// ofps::det (geometry/det_math.h): accuracy against the platform's C library, the special values
// the header promises, and identities that hold whatever libm does.
#include "octree_fps/geometry/det_math.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>

namespace ofps {
namespace {

// Distance in units in the last place between two finite values of the same type (ordered as
// integers, so that +0 and -0 are 0 apart and the gap across zero is counted).
int64_t ulps(double a, double b) {
  int64_t x, y;
  std::memcpy(&x, &a, 8);
  std::memcpy(&y, &b, 8);
  if (x < 0) x = std::numeric_limits<int64_t>::min() - x;
  if (y < 0) y = std::numeric_limits<int64_t>::min() - y;
  return x > y ? x - y : y - x;
}

int64_t ulps(float a, float b) {
  int32_t x, y;
  std::memcpy(&x, &a, 4);
  std::memcpy(&y, &b, 4);
  if (x < 0) x = std::numeric_limits<int32_t>::min() - x;
  if (y < 0) y = std::numeric_limits<int32_t>::min() - y;
  return x > y ? int64_t{x} - y : int64_t{y} - x;
}

// The platform's libm is itself allowed an ulp or so (glibc documents up to 1-2 for these), so
// the bounds against it are the header's bound plus the libm's own.
constexpr int64_t kDoubleUlps = 4;
constexpr int64_t kFloatUlps = 2;

TEST(DetMath, SinCosAgreeWithLibmOnManyArguments) {
#if defined(_WIN32)
  // MinGW-w64's runtime is no reference for sin and cos: seen under Wine, it is off by 29 ulps
  // within [-10, 10] and by 2.6e5 ulps near 1e5 (too few bits of pi in its argument reduction).
  // glibc and musl (Linux, Emscripten) are; scripts/cross.sh then proves that det:: gives the
  // same bits on Windows as on Linux.
  GTEST_SKIP() << "MinGW-w64's sin/cos are not accurate enough to check det:: against";
#endif
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> wide(-1.0e5, 1.0e5), narrow(-10.0, 10.0);
  int64_t worstD = 0, worstF = 0;
  for (int i = 0; i < 200000; ++i) {
    const double x = (i % 2) ? wide(rng) : narrow(rng);
    worstD = std::max({worstD, ulps(det::sin(x), std::sin(x)), ulps(det::cos(x), std::cos(x))});
    const float xf = static_cast<float>(x);
    worstF = std::max({worstF, ulps(det::sin(xf), std::sin(xf)), ulps(det::cos(xf), std::cos(xf))});
  }
  EXPECT_LE(worstD, kDoubleUlps);
  EXPECT_LE(worstF, kFloatUlps);
}

TEST(DetMath, InverseAndExponentialAgreeWithLibm) {
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), ex(-700.0, 700.0);
  int64_t worst = 0, worstF = 0;
  for (int i = 0; i < 200000; ++i) {
    const double t = unit(rng) * std::ldexp(1.0, (i % 41) - 20);
    const double y = unit(rng) * 10.0;
    worst = std::max(
        {worst, ulps(det::atan(t), std::atan(t)), ulps(det::atan2(y, t), std::atan2(y, t))});
    const double e = ex(rng);
    const double l = std::exp(e);
    worst = std::max({worst, ulps(det::exp(e), std::exp(e)), ulps(det::log(l), std::log(l))});
    const float c = static_cast<float>(unit(rng));
    const float ef = static_cast<float>(unit(rng) * 80.0);
    worstF = std::max({worstF, ulps(det::acos(c), std::acos(c)), ulps(det::exp(ef), std::exp(ef))});
  }
  EXPECT_LE(worst, kDoubleUlps);
  EXPECT_LE(worstF, kFloatUlps);
}

TEST(DetMath, ExactValuesAndSpecialCases) {
  EXPECT_EQ(det::sin(0.0), 0.0);
  EXPECT_TRUE(std::signbit(det::sin(-0.0)));
  EXPECT_EQ(det::cos(0.0), 1.0);
  EXPECT_EQ(det::exp(0.0), 1.0);
  EXPECT_EQ(det::log(1.0), 0.0);
  EXPECT_EQ(det::acos(1.0f), 0.0f);
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TRUE(std::isnan(det::sin(inf)));
  EXPECT_TRUE(std::isnan(det::cos(-inf)));
  EXPECT_TRUE(std::isnan(det::sin(nan)));
  EXPECT_TRUE(std::isnan(det::acos(1.5f)));
  EXPECT_TRUE(std::isnan(det::log(-1.0)));
  EXPECT_EQ(det::log(0.0), -inf);
  EXPECT_EQ(det::exp(1000.0), inf);
  EXPECT_EQ(det::exp(-1000.0), 0.0);
  EXPECT_EQ(det::exp(-inf), 0.0);
  // atan2's quadrant and signed-zero rules, as C's.
  EXPECT_EQ(det::atan2(0.0, 1.0), 0.0);
  EXPECT_TRUE(std::signbit(det::atan2(-0.0, 1.0)));
  EXPECT_EQ(det::atan2(0.0, -1.0), std::atan2(0.0, -1.0));
  EXPECT_EQ(det::atan2(-0.0, -0.0), std::atan2(-0.0, -0.0));
  EXPECT_EQ(det::atan2(1.0, 0.0), std::atan2(1.0, 0.0));
  EXPECT_EQ(det::atan2(inf, -inf), std::atan2(inf, -inf));
  EXPECT_EQ(det::atan2(-2.0, -inf), std::atan2(-2.0, -inf));
  EXPECT_EQ(det::atan(inf), std::atan(inf));
}

TEST(DetMath, IdentitiesHold) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> angle(-100.0, 100.0), pos(1e-300, 1e300);
  for (int i = 0; i < 20000; ++i) {
    const double a = angle(rng);
    const double s = det::sin(a), c = det::cos(a);
    EXPECT_NEAR(s * s + c * c, 1.0, 4e-16);
    EXPECT_NEAR(det::atan2(s, c), std::remainder(a, 2.0 * 3.14159265358979323846), 1e-12);
    const double x = pos(rng);
    EXPECT_NEAR(det::exp(det::log(x)) / x, 1.0, 1e-12);
  }
}

}  // namespace
}  // namespace ofps
