#include "octree_fps/geometry/det_math.h"

#include <cmath>
#include <limits>

// Only IEEE-exact operations appear below (+ - * / sqrt, floor, frexp, ldexp, copysign, the
// comparisons): no call into the C library's transcendental functions. The Horner chains are
// written out so that the evaluation order is the source order.

namespace ofps::det {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

// pi/2 in three parts (the first two with 33 significant bits, so k * part is exact for
// |k| < 2^20): the Cody-Waite constants of fdlibm's __ieee754_rem_pio2.
constexpr double kPio2Hi = 1.57079632673412561417e+00;
constexpr double kPio2Mid = 6.07710050630396597660e-11;
constexpr double kPio2Lo = 2.02226624879595063154e-21;
constexpr double kTwoOverPi = 6.36619772367581382433e-01;
constexpr double kPi = 3.14159265358979311600e+00;    // nearest double to pi
constexpr double kPiLo = 1.22464679914735317723e-16;  // pi - kPi
constexpr double kPio2 = 1.57079632679489655800e+00;  // nearest double to pi/2
constexpr double kPio2Tail = 6.12323399573676588613e-17;
constexpr double kPio4 = 7.85398163397448278999e-01;
constexpr double kPio4Tail = 3.06161699786838294307e-17;
// ln 2 in two parts (the first with 32 significant bits): fdlibm's ln2_hi / ln2_lo.
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;
constexpr double kInvLn2 = 1.44269504088896338700e+00;
constexpr double kTanPio8 = 4.14213562373095145475e-01;  // sqrt(2) - 1
constexpr double kSqrtHalf = 7.07106781186547572737e-01;

// The reduced argument r = x - k pi/2 with |r| <= pi/4 (slightly more from rounding k), and k.
struct Reduced {
  double r;
  long long k;
};

Reduced reducePio2(double x) {
  const double k = std::floor(x * kTwoOverPi + 0.5);
  double r = x - k * kPio2Hi;
  r = r - k * kPio2Mid;
  r = r - k * kPio2Lo;
  // For |x| beyond 2^62 k no longer fits; the result is then deterministic but meaningless, as
  // the header says for large arguments.
  const double kc = std::fabs(k) < 4.0e18 ? k : 0.0;
  return {r, static_cast<long long>(kc)};
}

// sin r on |r| <= pi/4 + eps: Taylor series to r^17 (next term below 1e-19 r).
double sinKernel(double r) {
  const double r2 = r * r;
  double p = -1.0 / 355687428096000.0;  // -1/17!
  p = p * r2 + 1.0 / 1307674368000.0;   // 1/15!
  p = p * r2 - 1.0 / 6227020800.0;      // 1/13!
  p = p * r2 + 1.0 / 39916800.0;        // 1/11!
  p = p * r2 - 1.0 / 362880.0;          // 1/9!
  p = p * r2 + 1.0 / 5040.0;            // 1/7!
  p = p * r2 - 1.0 / 120.0;             // 1/5!
  p = p * r2 + 1.0 / 6.0;               // 1/3!
  return r - r * r2 * p;
}

// cos r on |r| <= pi/4 + eps: Taylor series to r^18 (next term below 1e-19).
double cosKernel(double r) {
  const double r2 = r * r;
  double p = -1.0 / 6402373705728000.0;  // -1/18!
  p = p * r2 + 1.0 / 20922789888000.0;   // 1/16!
  p = p * r2 - 1.0 / 87178291200.0;      // 1/14!
  p = p * r2 + 1.0 / 479001600.0;        // 1/12!
  p = p * r2 - 1.0 / 3628800.0;          // 1/10!
  p = p * r2 + 1.0 / 40320.0;            // 1/8!
  p = p * r2 - 1.0 / 720.0;              // 1/6!
  p = p * r2 + 1.0 / 24.0;               // 1/4!
  p = p * r2 - 0.5;
  return 1.0 + r2 * p;
}

// atan t on |t| <= tan(pi/8): t - t^3/3 + ... to t^41 (next term below 1e-18 t).
double atanKernel(double t) {
  const double t2 = t * t;
  double p = 1.0 / 41.0;  // the t^41 term has sign (-1)^20
  for (int n = 39; n >= 3; n -= 2) {
    const double c = ((n - 1) / 2) % 2 == 0 ? 1.0 / n : -1.0 / n;
    p = p * t2 + c;
  }
  return t + t * t2 * p;
}

}  // namespace

double sin(double x) {
  if (!std::isfinite(x)) return x - x;  // NaN for NaN and +-inf
  if (x == 0.0) return x;               // +-0 keeps its sign (the kernel's r - r*r2*p would not)
  const Reduced red = reducePio2(x);
  switch (red.k & 3) {
    case 0:
      return sinKernel(red.r);
    case 1:
      return cosKernel(red.r);
    case 2:
      return -sinKernel(red.r);
    default:
      return -cosKernel(red.r);
  }
}

double cos(double x) {
  if (!std::isfinite(x)) return x - x;
  const Reduced red = reducePio2(x);
  switch (red.k & 3) {
    case 0:
      return cosKernel(red.r);
    case 1:
      return -sinKernel(red.r);
    case 2:
      return -cosKernel(red.r);
    default:
      return sinKernel(red.r);
  }
}

float sin(float x) {
  return static_cast<float>(sin(static_cast<double>(x)));
}

float cos(float x) {
  return static_cast<float>(cos(static_cast<double>(x)));
}

double atan(double x) {
  if (std::isnan(x)) return x;
  const double a = std::fabs(x);
  double result;
  if (a > 1.0) {
    // atan a = pi/2 - atan(1/a)
    const double inv = 1.0 / a;  // 0 for a = inf
    const double t = inv > kTanPio8 ? (inv - 1.0) / (inv + 1.0) : inv;
    const double inner = inv > kTanPio8 ? kPio4 + (atanKernel(t) + kPio4Tail) : atanKernel(t);
    result = kPio2 - (inner - kPio2Tail);
  } else if (a > kTanPio8) {
    // atan a = pi/4 + atan((a - 1) / (a + 1))
    result = kPio4 + (atanKernel((a - 1.0) / (a + 1.0)) + kPio4Tail);
  } else {
    result = atanKernel(a);
  }
  return std::copysign(result, x);
}

double atan2(double y, double x) {
  if (std::isnan(x) || std::isnan(y)) return x + y;
  if (y == 0.0) {
    // +-0 for x > 0 or x = +0; +-pi for x < 0 or x = -0 (the sign of y).
    if (x > 0.0 || (x == 0.0 && !std::signbit(x))) return y;
    return std::copysign(kPi, y);
  }
  if (std::isinf(x)) {
    if (std::isinf(y)) return std::copysign(x > 0.0 ? kPio4 : 3.0 * kPio4, y);
    return std::copysign(x > 0.0 ? 0.0 : kPi, y);
  }
  if (x == 0.0 || std::isinf(y)) return std::copysign(kPio2, y);
  const double ax = std::fabs(x), ay = std::fabs(y);
  // The angle of (ax, ay) in the first quadrant, from the smaller ratio (never above 1).
  double a = ay > ax ? kPio2 - (atan(ax / ay) - kPio2Tail) : atan(ay / ax);
  if (x < 0.0) a = (kPi - a) + kPiLo;
  return std::copysign(a, y);
}

float acos(float x) {
  const double d = x;
  if (!(std::fabs(d) <= 1.0)) return std::numeric_limits<float>::quiet_NaN();
  // acos d = atan2(sqrt(1 - d^2), d); (1 - d)(1 + d) is exact enough near +-1, where 1 - d^2
  // would cancel.
  return static_cast<float>(atan2(std::sqrt((1.0 - d) * (1.0 + d)), d));
}

double exp(double x) {
  if (std::isnan(x)) return x;
  if (x > 709.782712893383973096) return kInf;
  if (x < -745.133219101941108420) return 0.0;
  const double k = std::floor(x * kInvLn2 + 0.5);
  const double r = (x - k * kLn2Hi) - k * kLn2Lo;  // |r| <= ln2/2 + eps
  // Taylor series to r^14 (next term below 1e-19).
  double p = 1.0 / 87178291200.0;  // 1/14!
  p = p * r + 1.0 / 6227020800.0;  // 1/13!
  p = p * r + 1.0 / 479001600.0;   // 1/12!
  p = p * r + 1.0 / 39916800.0;    // 1/11!
  p = p * r + 1.0 / 3628800.0;     // 1/10!
  p = p * r + 1.0 / 362880.0;      // 1/9!
  p = p * r + 1.0 / 40320.0;       // 1/8!
  p = p * r + 1.0 / 5040.0;        // 1/7!
  p = p * r + 1.0 / 720.0;         // 1/6!
  p = p * r + 1.0 / 120.0;         // 1/5!
  p = p * r + 1.0 / 24.0;          // 1/4!
  p = p * r + 1.0 / 6.0;           // 1/3!
  p = p * r + 0.5;
  p = p * r + 1.0;
  p = p * r + 1.0;
  // Scaling by 2^k is exact (one rounding at most, into the subnormal range).
  return std::ldexp(p, static_cast<int>(k));
}

float exp(float x) {
  return static_cast<float>(exp(static_cast<double>(x)));
}

double log(double x) {
  if (std::isnan(x)) return x;
  if (x < 0.0) return kNaN;
  if (x == 0.0) return -kInf;
  if (std::isinf(x)) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m 2^e, m in [0.5, 1)
  if (m < kSqrtHalf) {
    m *= 2.0;
    e -= 1;
  }
  // log m = 2 atanh s with s = (m - 1) / (m + 1), |s| <= 0.1716: series to s^25.
  const double s = (m - 1.0) / (m + 1.0);
  const double s2 = s * s;
  double p = 1.0 / 25.0;
  for (int n = 23; n >= 3; n -= 2) p = p * s2 + 1.0 / n;
  const double logM = 2.0 * s + 2.0 * s * s2 * p;
  const double de = e;
  return de * kLn2Hi + (logM + de * kLn2Lo);
}

}  // namespace ofps::det
