#include "flockscope/experiments/statistics.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace flockscope::experiments {

SampleStats describe(std::span<const double> values) {
  std::vector<double> v;
  for (double x : values)
    if (std::isfinite(x)) v.push_back(x);
  SampleStats s;
  s.n = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front(), s.max = v.back();
  // Summed in sorted order: the same mean whatever order the runs finished in.
  s.mean = std::accumulate(v.begin(), v.end(), 0.0) / double(v.size());
  const std::size_t h = v.size() / 2;
  s.median = v.size() % 2 ? v[h] : 0.5 * (v[h - 1] + v[h]);
  if (v.size() > 1) {
    double ss = 0;
    for (double x : v) ss += (x - s.mean) * (x - s.mean);
    s.sd = std::sqrt(ss / double(v.size() - 1));
  }
  return s;
}

Proportion proportion(std::size_t k, std::size_t n, double z) {
  Proportion p;
  p.k = k, p.n = n;
  if (n == 0) return p;
  const double nn = double(n), ph = double(k) / nn, z2 = z * z;
  const double centre = (ph + z2 / (2 * nn)) / (1 + z2 / nn);
  const double half = z / (1 + z2 / nn) * std::sqrt(ph * (1 - ph) / nn + z2 / (4 * nn * nn));
  p.p = ph;
  p.lo = std::max(0.0, centre - half);
  p.hi = std::min(1.0, centre + half);
  return p;
}

Interval mean_interval95(const SampleStats& s) {
  static const double t[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                             2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                             2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (s.n < 2) return {};
  const std::size_t df = s.n - 1;
  const double half = (df <= 30 ? t[df - 1] : 1.96) * s.sd / std::sqrt(double(s.n));
  return {s.mean - half, s.mean + half};
}

}  // namespace flockscope::experiments
