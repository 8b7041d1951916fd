// The firmware's measurement mode, for the emulator's runners (emulator/measure.mjs,
// measure_cycles.sh, emulator/vga.mjs; emulator/measure_mode.mjs reads the layout): the
// runner patches flockscope_measure_config in the flash image; the firmware then runs that
// many boids with a sink transport playing a connected app (every stream on), times each
// phase of each frame and leaves the means in flockscope_measure_result for the runner to
// read. Every image has it; left as built (boids 0xFFFFFFFF) it is off and the board runs
// normally.
#pragma once
#include <cstdint>

#include "flockscope/board/board.hpp"
#include "flockscope/board/board_config.hpp"
#include "pico/time.h"

extern "C" {
struct MeasureConfig {
  std::uint32_t boids, warmup, frames;  // boids 0xFFFFFFFF: no measurement (the normal image)
  std::uint32_t streams;  // the measuring app's streams (protocol::stream bits); 0: every stream
  // Parameters to set before the flock spawns, "name=value name=value" (zero-terminated;
  // empty: the board's defaults), each validated as an app's param_change.
  char settings[256];
};
struct MeasureResult {
  std::uint32_t done, boids, frames;  // done = 1 once `frames` frames were averaged
  std::uint32_t grid, scan, update, draw, link, compute;  // mean cycles per frame
  std::uint32_t scan_mismatch;  // check_scan() on the rare cases and the first and last warm-up frames: assembly vs C++ (0)
  std::uint32_t live_frame, live_boids, live_compute;  // the last frame (spawning runs)
  std::uint32_t cores;  // cores sharing the update (the image's)
  std::uint32_t hash_lo, hash_hi;  // BoardFlock::state_hash() when done
  std::uint32_t framebuffer;  // where the screen is (640 x 480, 1 bit a pixel), for a picture
  std::uint32_t rules_mismatch;  // check_rules() on the same frames: the rules' fast path vs update_boid (0)
  std::uint32_t rules_checked;   // the boids check_rules() compared (0: the fast path is off)
  std::uint32_t settings_applied, settings_refused;  // MeasureConfig::settings
  // place_rules_cases() before the spawn: boids placed, compared by check_rules(), differing (0)
  std::uint32_t cases, cases_checked, cases_mismatch;
};
// Patched in the flash image by emulator/measure.mjs (volatile: read from flash at run time).
extern volatile const MeasureConfig flockscope_measure_config;
extern volatile MeasureResult flockscope_measure_result;
}

namespace flockscope::firmware {

constexpr std::uint32_t kCyclesPerUs = FLOCKSCOPE_SYS_CLOCK_KHZ / 1000;
inline std::uint32_t cycles_since(std::uint64_t t0_us) {
  return std::uint32_t((time_us_64() - t0_us) * kCyclesPerUs);
}

// The measurement's app: a connected port that takes every byte (the link's CPU work,
// encoding and framing, without the USB driver's copies).
class SinkTransport final : public board::Transport {
 public:
  std::size_t read(std::uint8_t*, std::size_t) override { return 0; }
  std::size_t write(const std::uint8_t*, std::size_t n) override { return n; }
  bool connected() override { return true; }
};

// The frame loop's time stamps (time_us_64), which it takes whether measuring or not.
struct FrameTimes {
  std::uint64_t link;   // before Board::frame_start
  std::uint64_t start;  // after it: the step begins
  std::uint64_t draw;   // the drawing begins
  std::uint64_t end;    // the drawing ends (compute = end - start), Board::frame_end begins
};

class Measurement {
 public:
  // The runner's configuration, read from the flash image.
  Measurement();
  bool on() const { return on_; }
  // The boids to start with: the configured count up to `cap` (0: the lab's spawning).
  std::uint32_t boids(std::uint32_t cap) const { return cfg_.boids < cap ? cfg_.boids : cap; }

  // Before the first frame (the board made with `boids` boids): the settings, the rules'
  // rare branches (place_rules_cases through check_rules; the flock then respawns with the
  // settings' values), SysTick as the scan's cycle counter (one core only: the per-boid
  // scan timing is one core's, so with two cores the update phase is timed as a whole), the
  // result's fixed fields, and the measuring app's hello (and its streams command when not
  // every stream is asked for).
  void start(board::Board& b, std::uint32_t boids, const std::uint32_t* framebuffer, std::uint32_t cores);
  // The transport the board talks to: the sink that plays the app.
  board::Transport& transport() { return sink_; }

  // One step in its phases, timed from `t0`: grid = begin() (the sort; the first and the
  // last warm-up frames also check the assembly scan against its C++ version and the rules'
  // fast path against the general rules), update = update() and end_step.
  template <class Begin, class Update>
  void step(board::BoardFlock& f, std::uint64_t t0, Begin begin, Update update) {
    f.clear_scan_cycles();
    begin();
    if (seen_ == 0 || seen_ + 1 == cfg_.warmup) {
      volatile MeasureResult& r = flockscope_measure_result;
      r.scan_mismatch = r.scan_mismatch + f.check_scan();
      std::uint32_t checked = 0;
      r.rules_mismatch = r.rules_mismatch + f.check_rules(&checked);
      r.rules_checked = r.rules_checked + checked;
    }
    grid_ = cycles_since(t0);
    const std::uint64_t tu = time_us_64();
    update();
    f.end_step();
    update_ = cycles_since(tu);
  }

  // After Board::frame_end: the whole frame's output pumped into the sink (link work: from
  // t.link to t.start, and from t.end on), the frame's phases added to the means, and the
  // result written once `frames` frames after the warm-up are in.
  void end_frame(board::Board& b, const FrameTimes& t);
  // A fixed flock's result is written (the runner stops; the firmware holds its last
  // frame). The lab's spawning (boids 0) runs on.
  bool finished() const { return cfg_.boids != 0 && cfg_.frames != 0 && frames_ == cfg_.frames; }

 private:
  MeasureConfig cfg_;
  bool on_;
  SinkTransport sink_;
  std::uint32_t grid_ = 0, update_ = 0;  // this frame's step phases (0: not running)
  std::uint64_t sum_grid_ = 0, sum_scan_ = 0, sum_update_ = 0, sum_draw_ = 0, sum_link_ = 0;
  std::uint32_t frames_ = 0, seen_ = 0;
};

}  // namespace flockscope::firmware
