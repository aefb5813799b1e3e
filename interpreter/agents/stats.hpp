// The statistics kata simulate and kata arena report, in one place: a seat's share of a
// game's win, a running summary of numbers (mean, standard deviation, extremes), and the
// Wilson score interval of a win rate. Only arithmetic: no games, no printing.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
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

}  // namespace kata
