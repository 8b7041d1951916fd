#include "largest_flock.hpp"

#include <algorithm>
#include <cstdint>

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
    out.finished = "largest flock at " + std::to_string(int(target_fps)) + " fps: " + std::to_string(best_) + " boids";
  }
  return out;
}

}  // namespace flockscope::gui
