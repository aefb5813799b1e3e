// The test kata simulate uses to say whether seat order matters: Pearson's chi-square test
// of equal shares, with its p-value from the regularized upper incomplete gamma function.
// Only arithmetic: no games, no printing.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

namespace kata {

// Q(a, x) = Γ(a, x) / Γ(a), for a > 0 and x >= 0: the series of P(a, x) below x < a + 1,
// where it converges fast, and Lentz's continued fraction for Q above (Numerical Recipes,
// 6.2). Accurate to about 1e-14 relative; 1 at x = 0.
inline double upper_gamma_q(double a, double x) {
  if (!(a > 0) || !(x >= 0)) return std::numeric_limits<double>::quiet_NaN();
  if (x == 0) return 1;
  if (std::isinf(x)) return 0;
  constexpr double eps = 1e-16, tiny = 1e-300;
  constexpr int most = 100000;
  double log_front = a * std::log(x) - x - std::lgamma(a);  // log of x^a e^-x / Γ(a)
  if (x < a + 1) {
    // P(a, x) = x^a e^-x / Γ(a + 1) Σ x^n / ((a + 1) ... (a + n))
    double term = 1 / a, sum = term;
    for (int n = 1; n < most; ++n) {
      term *= x / (a + n);
      sum += term;
      if (std::fabs(term) < std::fabs(sum) * eps) break;
    }
    return std::max(0.0, 1 - sum * std::exp(log_front));
  }
  // Q(a, x) = x^a e^-x / Γ(a) · 1 / (x + 1 - a - 1·(1 - a) / (x + 3 - a - 2·(2 - a) / ...))
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < most; ++i) {
    double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::fabs(c) < tiny) c = tiny;
    d = 1 / d;
    double delta = d * c;
    h *= delta;
    if (std::fabs(delta - 1) < eps) break;
  }
  return std::min(1.0, std::exp(log_front) * h);
}

// The probability that a chi-square variable with `df` degrees of freedom exceeds `x`.
inline double chi_square_sf(double x, int df) {
  if (df <= 0) return std::numeric_limits<double>::quiet_NaN();
  return x <= 0 ? 1.0 : upper_gamma_q(df / 2.0, x / 2.0);
}

struct ChiSquare {
  double statistic = 0;
  int df = 0;
  double p = 1;
  bool valid = false;  // false with fewer than 2 categories or nothing counted
};

// Pearson's test that `observed` (counts, possibly fractional: a shared win counts 1/k)
// are equal shares of their total.
inline ChiSquare equal_shares(const std::vector<double>& observed) {
  ChiSquare t;
  double sum = 0;
  for (double o : observed) sum += o;
  if (observed.size() < 2 || sum <= 0) return t;
  double expected = sum / static_cast<double>(observed.size());
  for (double o : observed) t.statistic += (o - expected) * (o - expected) / expected;
  t.df = static_cast<int>(observed.size()) - 1;
  t.p = chi_square_sf(t.statistic, t.df);
  t.valid = true;
  return t;
}

}  // namespace kata
