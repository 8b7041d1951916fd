#include "flockscope/board/pacing.hpp"

namespace flockscope::board {

std::uint64_t FramePacer::begin(std::uint64_t now) {
  if (frames_ == 0) {
    window_start_ = now;
    deadline_ = now;
  }
  // On time: the next deadline follows the last one (no drift); late: restart from now.
  deadline_ = (now <= deadline_ + period_ / 4 && frames_ > 0) ? deadline_ + period_ : now + period_;
  if (deadline_ <= now) deadline_ = now + period_;
  start_ = now;
  ++frames_;
  ++window_frames_;
  if (now - window_start_ >= 1000000) {
    fps_ = float(double(window_frames_ - 1) * 1e6 / double(now - window_start_));
    window_start_ = now;
    window_frames_ = 1;
  }
  return deadline_;
}

void FramePacer::end_work(std::uint64_t now) {
  work_us_ = std::uint32_t(now - start_);
  spare_us_ = std::int32_t(period_) - std::int32_t(work_us_);
}

std::uint32_t AutoSpawn::next_count(std::uint32_t work_us, std::uint32_t period_us, std::uint32_t count,
                                    std::uint32_t capacity) {
  if (!active_) return count;
  if (spawning_) {
    if (float(work_us) < cfg_.grow_below * float(period_us) && count < capacity) {
      const std::uint32_t n = count + cfg_.step;
      return n < capacity ? n : capacity;
    }
    spawning_ = false;
    return count;
  }
  late_ = work_us > period_us ? late_ + 1 : 0;
  if (late_ >= cfg_.late_frames && count > 0) {
    late_ = 0;
    return count - (count + 15) / 16;
  }
  return count;
}

}  // namespace flockscope::board
