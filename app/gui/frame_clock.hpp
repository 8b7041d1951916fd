// FrameClock: the window's time: seconds since it opened, the frame rate (smoothed over
// about ten frames), the frames counted, and how the last frame's time was spent.
#pragma once

#include <chrono>
#include <cstdint>

namespace flockscope::gui {

// Per-frame timings in milliseconds.
struct FrameTimes {
  // simulate: the steps with each step's metrics, plot point and recording; update_rest:
  // the rest of the update (notes, parameters, the largest-flock rule); density: the density
  // pass (counting and tone mapping; 0 below the boids it needs).
  double simulate = 0, update_rest = 0, density = 0, geometry = 0, render = 0, ui = 0, frame = 0;
  int steps = 0;
};

class FrameClock {
 public:
  using Clock = std::chrono::steady_clock;

  // Time 0: the window opened.
  void start() { start_ = last_frame_ = Clock::now(); }
  // A frame begins: counts it and updates the frame rate. Returns the frame's start.
  Clock::time_point tick();

  double seconds() const { return std::chrono::duration<double>(Clock::now() - start_).count(); }
  double fps() const { return fps_; }
  std::uint64_t frames() const { return frames_; }
  FrameTimes& times() { return times_; }
  const FrameTimes& times() const { return times_; }

 private:
  FrameTimes times_;
  Clock::time_point start_ = Clock::now(), last_frame_ = start_;
  double fps_ = 0;
  std::uint64_t frames_ = 0;
};

// Milliseconds since t0.
inline double ms_since(FrameClock::Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(FrameClock::Clock::now() - t0).count();
}

}  // namespace flockscope::gui
