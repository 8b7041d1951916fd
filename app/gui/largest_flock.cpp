#include "largest_flock.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace flockscope::gui {

LargestFlock::Outcome LargestFlock::update(BoidSource& s, double now) {
  Outcome out;
  if (!enabled || !s.simulated_here()) {
    since_ = now;
    frames_ = 0;
    return out;
  }
  out.running = true;
  ++frames_;
  if (now - since_ < 0.75) return out;  // judge the frame rate over most of a second
  const double fps = frames_ / (now - since_);
  since_ = now;
  frames_ = 0;
  const std::size_t n = s.boids().n;
  if (fps >= target_fps) {
    best_ = std::max(best_, n);
    below_ = 0;
    s.add_boids(std::max<std::size_t>(100, n / 10), std::uint64_t(now * 1000));
    out.grew = true;
  } else if (++below_ >= 2) {
    enabled = false;
    char rate[32];
    std::snprintf(rate, sizeof rate, "%.0f", fps);
    if (best_ == 0) {
      // Below the target before a boid was added: there is no largest flock to report.
      out.finished = "the frame rate is below " + std::to_string(int(target_fps)) + " fps already at " + std::to_string(n) +
                     " boids (" + rate + " fps): no boids added; lower the target or the boid count";
      out.short_of_target = true;
    } else {
      out.finished = "largest flock at " + std::to_string(int(target_fps)) + " fps: " + std::to_string(best_) + " boids";
    }
  }
  return out;
}

}  // namespace flockscope::gui
