// Axis arithmetic shared by every plot back end (SVG, PNG, the app's live plots): data
// ranges, "nice" tick steps (1, 2, 5 times a power of ten) and tick labels that show just
// the digits the step needs.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace flockscope::plot {

struct Range {
  double lo = 0, hi = 1;
  double span() const { return hi - lo; }
  bool operator==(const Range&) const = default;
};

// Smallest and largest finite value (NaN and infinities skipped); {0, 1} when there is none.
Range finite_range(std::span<const double> values);
// Widens a range by `fraction` of its span on both sides; an empty range (lo == hi) is
// opened around its value so that an axis can still be drawn.
Range padded(Range r, double fraction);

// The nice step (1, 2 or 5 times a power of ten) that puts about `target` ticks on `span`.
double nice_step(double span, int target);

struct Ticks {
  double step = 0;
  std::vector<double> values;       // multiples of step inside [lo, hi]
  std::vector<std::string> labels;  // as format_tick writes them
};
Ticks nice_ticks(Range r, int target);
// The multiples of a given step inside [lo, hi] (at most 1001 of them).
Ticks ticks_at(Range r, double step);
// Only integer values (counts, categories): the step is at least 1.
Ticks integer_ticks(Range r, int target);

// "0.25", "1200", "-3", "1e-06": as many decimals as the step needs, no "-0".
std::string format_tick(double value, double step);
// A value with about `digits` significant digits ("12.3", "0.0451"), for cell annotations.
std::string format_value(double value, int digits = 3);

}  // namespace flockscope::plot
