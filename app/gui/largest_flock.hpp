// The lab's challenge in the window: keep adding boids to a flock simulated here while the
// frame rate stays at or above a target, and report the largest count that held it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

#include "boid_source.hpp"

namespace flockscope::gui {

class LargestFlock {
 public:
  bool enabled = false;
  float target_fps = 30;

  struct Outcome {
    bool running = false;  // the challenge is on: the flock must keep running
    bool grew = false;     // boids were added (the sliders show the new count)
    std::optional<std::string> finished;  // the result, once the frame rate fell for good
    bool short_of_target = false;         // ... before any boid was added (shown as an error)
  };
  // Once a frame, `now` in seconds. Judges the frame rate over most of a second; grows the
  // source by a tenth (at least 100 boids) while it holds, stops after two misses.
  Outcome update(BoidSource& s, double now);
  std::size_t best() const { return best_; }

 private:
  double since_ = 0;
  int frames_ = 0, below_ = 0;
  std::size_t best_ = 0;
};

}  // namespace flockscope::gui
