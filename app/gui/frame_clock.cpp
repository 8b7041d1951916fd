#include "frame_clock.hpp"

namespace flockscope::gui {

FrameClock::Clock::time_point FrameClock::tick() {
  const auto now = Clock::now();
  const double dt = std::chrono::duration<double>(now - last_frame_).count();
  last_frame_ = now;
  if (dt > 0) fps_ = fps_ == 0 ? 1 / dt : fps_ * 0.9 + 0.1 / dt;
  ++frames_;
  return now;
}

}  // namespace flockscope::gui
