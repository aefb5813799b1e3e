// The statistics kata simulate, kata arena and kata compare report, in one place: a seat's
// share of a game's win, a running summary of numbers (mean, standard deviation, extremes),
// the Wilson score interval of a win rate, and the paired differences of kata compare (the
// same game played two ways) with Student's t intervals. Only arithmetic: no games, no
// printing.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>

namespace kata {

// A seat's share of a game's win: 1/k when it is one of k winners (a shared win is split),
// 0 when it is not a winner or no one won.
inline double win_share(uint32_t winners, int seat) {
  if (!((winners >> seat) & 1u)) return 0;
  return 1.0 / std::popcount(winners);
}

// Count, mean, population standard deviation, minimum and maximum of the numbers added
// (all 0 when none were).
struct Summary {
  int64_t count = 0;
  double sum = 0, squares = 0, min = 0, max = 0;

  void add(double v) {
    min = count ? std::min(min, v) : v;
    max = count ? std::max(max, v) : v;
    sum += v;
    squares += v * v;
    ++count;
  }
  double mean() const { return count ? sum / static_cast<double>(count) : 0; }
  double stdev() const {
    if (!count) return 0;
    double m = mean();
    return std::sqrt(std::max(0.0, squares / static_cast<double>(count) - m * m));
  }
};

// How many times each integer value occurred: value -> count. Adding two is exact, so
// figures worked out from the sum of parts are those of the whole, bit for bit.
using Counts = std::map<int64_t, int64_t>;

inline void add_counts(Counts& into, const Counts& from) {
  for (auto& [value, n] : from) into[value] += n;
}

inline int64_t total(const Counts& c) {
  int64_t n = 0;
  for (auto& [value, k] : c) n += k;
  return n;
}

// Mean and population standard deviation of the values counted (0 when none), from exact
// integer sums (128 bits), so they do not depend on the order the values came in.
inline double mean(const Counts& c) {
  __int128 sum = 0, n = 0;
  for (auto& [value, k] : c) sum += static_cast<__int128>(value) * k, n += k;
  return n ? static_cast<double>(static_cast<long double>(sum) / static_cast<long double>(n)) : 0;
}

inline double stdev(const Counts& c) {
  __int128 sum = 0, squares = 0, n = 0;
  for (auto& [value, k] : c) {
    sum += static_cast<__int128>(value) * k;
    squares += static_cast<__int128>(value) * value * k;
    n += k;
  }
  if (!n) return 0;
  // n² variance = n Σx² - (Σx)², exact; one division and one root at the end.
  long double spread = static_cast<long double>(n * squares - sum * sum);
  return static_cast<double>(std::sqrt(std::max(0.0L, spread)) / static_cast<long double>(n));
}

// The q-quantile (0 <= q <= 1) by the nearest rank: the smallest value with at least
// ceil(q n) of the n values at or below it (q = 0: the minimum). 0 when none.
inline int64_t quantile(const Counts& c, double q) {
  int64_t n = total(c);
  if (!n) return 0;
  int64_t rank = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(q * static_cast<double>(n))));
  int64_t seen = 0;
  for (auto& [value, k] : c)
    if ((seen += k) >= rank) return value;
  return c.rbegin()->first;
}

struct Interval {
  double low = 0, high = 1;
};

// The normal quantile for a two-sided 95% interval.
inline constexpr double z95 = 1.959963984540054;

// The Wilson score interval of a proportion: `successes` out of `trials` (successes may be
// fractional: a shared win counts 1/k). Unlike the normal ("Wald") interval it stays inside
// [0, 1] and is not empty at 0 or at all successes: 0/n gives [0, z²/(n+z²)]. No trials
// gives [0, 1]: nothing is known.
inline Interval wilson_interval(double successes, double trials, double z = z95) {
  if (trials <= 0) return {};
  double p = std::clamp(successes / trials, 0.0, 1.0), z2 = z * z;
  double centre = (p + z2 / (2 * trials)) / (1 + z2 / trials);
  double half =
      z / (1 + z2 / trials) * std::sqrt(p * (1 - p) / trials + z2 / (4 * trials * trials));
  // At 0 or at every success one end is exactly 0 or 1 (rounding would leave 0.9999...).
  return {p == 0 ? 0.0 : std::max(0.0, centre - half), p == 1 ? 1.0 : std::min(1.0, centre + half)};
}

// I_x(a, b), the regularized incomplete beta function, for a, b > 0 and 0 <= x <= 1: the
// continued fraction of Numerical Recipes (6.4) by Lentz's method, on the side of x where
// it converges fast. Accurate to about 1e-14 relative.
inline double incomplete_beta(double a, double b, double x) {
  if (!(x > 0)) return 0;
  if (!(x < 1)) return 1;
  if (x > (a + 1) / (a + b + 2)) return 1 - incomplete_beta(b, a, 1 - x);
  double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  constexpr double eps = 1e-16, tiny = 1e-300;
  double c = 1, d = 1 - (a + b) * x / (a + 1);
  if (std::fabs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m < 100000; ++m) {
    // The even step, then the odd one.
    for (double numerator : {m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                             -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))}) {
      d = 1 + numerator * d;
      if (std::fabs(d) < tiny) d = tiny;
      c = 1 + numerator / c;
      if (std::fabs(c) < tiny) c = tiny;
      d = 1 / d;
      h *= d * c;
    }
    if (std::fabs(d * c - 1) < eps) break;
  }
  return std::exp(log_front) * h / a;
}

// P(|T| >= t) for Student's t with `df` degrees of freedom (df > 0): two-sided p-value.
inline double student_t_two_sided(double t, double df) {
  if (std::isnan(t) || !(df > 0)) return std::numeric_limits<double>::quiet_NaN();
  if (std::isinf(t)) return 0;
  return incomplete_beta(df / 2, 0.5, df / (df + t * t));
}

// The t such that P(|T| >= t) = `alpha` (0 < alpha < 1): the half-width factor of a
// two-sided 1 - alpha interval; 12.706 for 95% and 1 df, z95 in the limit. Bisection on
// the p-value, which falls as t grows: 200 halvings of [0, 1e7] leave no doubt in a double.
inline double student_t_quantile(double alpha, double df) {
  double low = 0, high = 1e7;
  for (int i = 0; i < 200; ++i) {
    double mid = (low + high) / 2;
    (student_t_two_sided(mid, df) > alpha ? low : high) = mid;
  }
  return (low + high) / 2;
}

// The difference of a statistic between two ways of playing (B minus A), its 95%
// interval and the two-sided p-value of "no difference". `tested` is false when there is
// no interval (fewer than two pairs, or the statistic is missing on one side); a
// difference is significant when its interval leaves out 0 (p < 0.05).
struct Difference {
  double estimate = 0, low = 0, high = 0, p = 1;
  bool tested = false;
  bool significant() const { return tested && (low > 0 || high < 0); }
};

// The interval of `estimate` whose standard error is `se`, with `df` degrees of freedom.
inline Difference t_difference(double estimate, double se, double df) {
  Difference d;
  d.estimate = estimate;
  if (!(df >= 1) || std::isnan(se)) return d;
  double t = student_t_quantile(0.05, df);
  d.low = estimate - t * se;
  d.high = estimate + t * se;
  d.p = se > 0 ? student_t_two_sided(estimate / se, df) : estimate == 0 ? 1.0 : 0.0;
  d.tested = true;
  return d;
}

// Pairs (a_i, b_i): one figure of game i played as A and as B, on the same seed. The
// difference is the mean of b_i - a_i, its interval Student's t with n - 1 degrees of
// freedom on the differences' standard error (the paired t interval; for a win, 0 or 1,
// it is the paired difference of two proportions). Sums are made in game order, so the
// result does not depend on the number of threads.
struct Paired {
  int64_t n = 0;
  long double sum_a = 0, sum_b = 0, sum_d = 0, squares_d = 0;

  void add(double a, double b) {
    long double d = static_cast<long double>(b) - a;
    ++n, sum_a += a, sum_b += b, sum_d += d, squares_d += d * d;
  }
  double mean_a() const { return n ? static_cast<double>(sum_a / n) : 0; }
  double mean_b() const { return n ? static_cast<double>(sum_b / n) : 0; }
  Difference difference() const {
    if (n < 2) return Difference{n ? static_cast<double>(sum_d / n) : 0};
    long double spread = std::max(0.0L, squares_d - sum_d * sum_d / n) / (n - 1);
    return t_difference(static_cast<double>(sum_d / n), static_cast<double>(std::sqrt(spread / n)),
                        static_cast<double>(n - 1));
  }
};

// A share made of counts over games: chosen_i of legal_i decisions in game i, on each side.
// The share is a ratio of sums (Σ chosen / Σ legal); its interval linearizes each game's
// part of it (the delta method: z_i = (chosen_i - share · legal_i) / mean legal), so games,
// not decisions, are the independent units, and pairs the two sides' z_i game by game. The
// sums of products of the four counts are kept, since the shares are known only at the end.
struct PairedShare {
  int64_t n = 0;
  long double sums[4] = {}, products[4][4] = {};  // over (chosen A, legal A, chosen B, legal B)

  void add(int64_t chosen_a, int64_t legal_a, int64_t chosen_b, int64_t legal_b) {
    long double x[4] = {static_cast<long double>(chosen_a), static_cast<long double>(legal_a),
                        static_cast<long double>(chosen_b), static_cast<long double>(legal_b)};
    ++n;
    for (int i = 0; i < 4; ++i) {
      sums[i] += x[i];
      for (int j = 0; j < 4; ++j) products[i][j] += x[i] * x[j];
    }
  }
  // The counts summed over the pairs: whole numbers, exact in a long double far beyond
  // what a run of 10^8 games reaches.
  int64_t chosen_a() const { return static_cast<int64_t>(sums[0]); }
  int64_t times_legal_a() const { return static_cast<int64_t>(sums[1]); }
  int64_t chosen_b() const { return static_cast<int64_t>(sums[2]); }
  int64_t times_legal_b() const { return static_cast<int64_t>(sums[3]); }
  bool legal_a() const { return sums[1] > 0; }
  bool legal_b() const { return sums[3] > 0; }
  double share_a() const { return legal_a() ? static_cast<double>(sums[0] / sums[1]) : 0; }
  double share_b() const { return legal_b() ? static_cast<double>(sums[2] / sums[3]) : 0; }
  Difference difference() const {
    Difference none{share_b() - share_a()};
    if (n < 2 || !legal_a() || !legal_b()) return none;
    long double ra = sums[0] / sums[1], rb = sums[2] / sums[3];
    long double la = sums[1] / n, lb = sums[3] / n;
    long double w[4] = {-1 / la, ra / la, 1 / lb, -rb / lb};
    long double squares = 0;  // Σ d_i², d_i = w · x_i (whose mean is 0)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 4; ++j) squares += w[i] * products[i][j] * w[j];
    long double se = std::sqrt(std::max(0.0L, squares) / (n - 1) / n);
    return t_difference(static_cast<double>(rb - ra), static_cast<double>(se),
                        static_cast<double>(n - 1));
  }
};

}  // namespace kata
