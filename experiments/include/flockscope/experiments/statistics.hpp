// Descriptive statistics of a sample and a proportion's confidence interval: what summary.csv
// reports for each combination of a sweep.
#pragma once

#include <cmath>
#include <cstddef>
#include <span>

namespace flockscope::experiments {

// Named apart from protocol::Stats (the board's frame rate and timings on the wire).
struct SampleStats {
  std::size_t n = 0;  // finite values counted; NaN entries are skipped
  double mean = NAN, sd = NAN, min = NAN, max = NAN, median = NAN;
};
// sd is the sample standard deviation (n - 1); NaN with fewer than two values. The same
// result whatever the order of the values.
SampleStats describe(std::span<const double> values);

struct Proportion {
  std::size_t k = 0, n = 0;
  double p = NAN, lo = NAN, hi = NAN;  // Wilson score interval
};
// The two-sided 95 % confidence interval of the sample's mean, Student's t over n - 1 degrees
// of freedom (a handful of repeats; the normal 1.96 beyond 30); NaN with fewer than two values.
struct Interval {
  double lo = NAN, hi = NAN;
};
Interval mean_interval95(const SampleStats& s);

// k successes in n trials; z = 1.96 gives the 95 % interval.
Proportion proportion(std::size_t k, std::size_t n, double z = 1.959963984540054);

}  // namespace flockscope::experiments
