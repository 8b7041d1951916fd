#include "flockscope/plot/ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace flockscope::plot {

Range finite_range(std::span<const double> values) {
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values)
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  if (lo > hi) return {0, 1};
  return {lo, hi};
}

Range padded(Range r, double fraction) {
  if (!(r.hi > r.lo)) {
    const double half = r.lo != 0 ? std::abs(r.lo) * 0.1 : 1.0;
    return {r.lo - half, r.lo + half};
  }
  const double pad = r.span() * fraction;
  return {r.lo - pad, r.hi + pad};
}

double nice_step(double span, int target) {
  if (!(span > 0) || !std::isfinite(span)) return 1;
  const double raw = span / double(std::max(1, target));
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / mag;
  // The smallest nice mantissa not below the raw step keeps the count at or under target.
  // A hair of tolerance: 1.2 / 6 must give 0.2, not 0.5 for 0.20000000000000004.
  const double tol = 1 + 1e-9;
  const double nice = f <= tol ? 1 : f <= 2 * tol ? 2 : f <= 5 * tol ? 5 : 10;
  return nice * mag;
}

Ticks ticks_at(Range r, double step) {
  Ticks t;
  t.step = step;
  if (!(r.hi >= r.lo) || !std::isfinite(r.lo) || !std::isfinite(r.hi)) return t;
  const double eps = step * 1e-9;
  const double first = std::ceil((r.lo - eps) / step);
  for (double k = first;; k += 1) {
    double v = k * step;
    if (v > r.hi + eps) break;
    if (std::abs(v) < eps) v = 0;
    t.values.push_back(v);
    t.labels.push_back(format_tick(v, step));
    if (t.values.size() > 1000) break;
  }
  return t;
}

Ticks nice_ticks(Range r, int target) { return ticks_at(r, nice_step(r.span(), target)); }

Ticks integer_ticks(Range r, int target) { return ticks_at(r, std::max(1.0, nice_step(r.span(), target))); }

std::string format_tick(double value, double step) {
  char buf[64];
  if (value == 0 || std::abs(value) < std::abs(step) * 1e-9) return "0";
  const double a = std::abs(value);
  if (a >= 1e7 || a < 1e-5) {
    // Mantissa decimals: the decades between the value and the step.
    const int digits = std::clamp(int(std::floor(std::log10(a) + 1e-9) - std::floor(std::log10(std::abs(step)) + 1e-9)), 0, 6);
    std::snprintf(buf, sizeof buf, "%.*e", digits, value);
    return buf;
  }
  const int decimals = std::clamp(int(std::ceil(-std::log10(step) - 1e-9)), 0, 10);
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string format_value(double value, int digits) {
  if (std::isnan(value)) return "NA";
  if (value == 0) return "0";
  char buf[64];
  const double a = std::abs(value);
  if (a >= 1e6 || a < 1e-3) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, value);
    return buf;
  }
  const int decimals = std::clamp(digits - 1 - int(std::floor(std::log10(a))), 0, 8);
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

}  // namespace flockscope::plot
