// Frame pacing and the "spawn until the frame budget is used" rule of the lab (seed 001:
// "arrange the thread to produce a constant frame rate", "at reset, the program spawns as
// many boids as it can while maintaining 30 fps"). Pure logic over a microsecond clock
// the platform supplies, so the host tests drive it with a fake clock.
#pragma once

#include <cstdint>

namespace flockscope::board {

class FramePacer {
 public:
  explicit FramePacer(std::uint32_t period_us = 33333) : period_(period_us) {}

  // Call when a frame's work starts; returns the deadline (start of the next frame). A
  // frame that ran late does not make the next ones hurry: the schedule restarts from now.
  std::uint64_t begin(std::uint64_t now_us);
  // Call when the frame's work (compute + draw + queueing output) is done.
  void end_work(std::uint64_t now_us);

  std::uint64_t deadline() const { return deadline_; }
  std::uint32_t period_us() const { return period_; }
  std::uint32_t work_us() const { return work_us_; }       // last frame's work
  std::int32_t spare_us() const { return spare_us_; }      // period - work (negative: late)
  float fps() const { return fps_; }                       // frames started per second, last second
  std::uint64_t frames() const { return frames_; }

 private:
  std::uint32_t period_;
  std::uint64_t deadline_ = 0, start_ = 0;
  std::uint64_t window_start_ = 0;
  std::uint32_t window_frames_ = 0;
  std::uint32_t work_us_ = 0;
  std::int32_t spare_us_ = 0;
  float fps_ = 0;
  std::uint64_t frames_ = 0;
};

// Grows the flock while frames leave time to spare: each frame whose work took less than
// `grow_below` of the period adds `step` boids (up to the capacity); the first frame over
// it ends the spawning. Afterwards, if the flock tightens and `late_frames` frames in a
// row miss the period, it sheds 1/16 of the boids (the frame rate is the lab's first rule).
class AutoSpawn {
 public:
  struct Config {
    float grow_below = 0.80f;
    std::uint32_t step = 50;
    std::uint32_t late_frames = 15;
  };
  AutoSpawn() = default;
  explicit AutoSpawn(const Config& c) : cfg_(c) {}

  void start() { spawning_ = true, active_ = true, late_ = 0; }
  void stop() { spawning_ = false, active_ = false; }
  bool active() const { return active_; }
  bool spawning() const { return spawning_; }
  // The boid count for the next frame, given this frame's work time and count.
  std::uint32_t next_count(std::uint32_t work_us, std::uint32_t period_us, std::uint32_t count,
                           std::uint32_t capacity);

 private:
  Config cfg_{};
  bool active_ = false, spawning_ = false;
  std::uint32_t late_ = 0;
};

}  // namespace flockscope::board
