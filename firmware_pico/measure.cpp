// The firmware's measurement mode (measure.hpp).
#include "measure.hpp"

#include <string_view>

#include "flockscope/board/rules_cases.hpp"
#include "hardware/structs/systick.h"

extern "C" {
__attribute__((used)) volatile const MeasureConfig flockscope_measure_config = {0xFFFFFFFFu, 0, 0, 0, {}};
__attribute__((used)) volatile MeasureResult flockscope_measure_result;
}

namespace flockscope::firmware {
namespace {
// SysTick as an up-counting cycle counter modulo 2^24 (BoardFlock's profile clock).
std::uint32_t systick_cycles() { return 0u - systick_hw->cvr; }

// A decimal number ("-12", "0.0005"); false if [p, end) holds anything else. (Not
// strtod: newlib's costs the firmware 400 bytes of RAM.)
bool parse_decimal(const char* p, const char* end, double& out) {
  bool neg = false, digits = false;
  if (p < end && *p == '-') neg = true, ++p;
  double v = 0, scale = 1;
  bool frac = false;
  for (; p < end; ++p) {
    if (*p == '.' && !frac) {
      frac = true;
    } else if (*p >= '0' && *p <= '9') {
      digits = true;
      if (frac) scale /= 10;
      v = v * (frac ? 1 : 10) + (frac ? (*p - '0') * scale : (*p - '0'));
    } else {
      return false;
    }
  }
  out = neg ? -v : v;
  return digits;
}

// MeasureConfig::settings, each "name=value" through Board::set_param (the checks of an
// app's param_change); applied and refused counted in the result.
void apply_settings(board::Board& b, const char* text) {
  volatile MeasureResult& r = flockscope_measure_result;
  const char* p = text;
  while (*p) {
    while (*p == ' ') ++p;
    const char* const start = p;
    while (*p && *p != ' ') ++p;
    if (p == start) break;
    const char* eq = start;
    while (eq < p && *eq != '=') ++eq;
    const board::ParamInfo* info = eq < p ? board::find_param(std::string_view(start, std::size_t(eq - start))) : nullptr;
    double v = 0;
    if (info && parse_decimal(eq + 1, p, v) &&
        protocol::is_accepted(b.set_param(info->id, board::to_wire(info->kind, v)))) {
      r.settings_applied = r.settings_applied + 1;
    } else {
      r.settings_refused = r.settings_refused + 1;
    }
  }
}
}  // namespace

Measurement::Measurement()
    : cfg_{flockscope_measure_config.boids, flockscope_measure_config.warmup, flockscope_measure_config.frames,
           flockscope_measure_config.streams},
      on_(cfg_.boids != 0xFFFFFFFFu) {}

void Measurement::start(board::Board& b, std::uint32_t boids, const std::uint32_t* framebuffer, std::uint32_t cores) {
  char text[sizeof cfg_.settings];
  for (std::size_t i = 0; i < sizeof text; ++i) text[i] = flockscope_measure_config.settings[i];
  text[sizeof text - 1] = 0;
  if (text[0] != 0) {
    apply_settings(b, text);
    b.reset(b.params().active(board::pid::seed));  // the settings' values in force
  }
  // The rules' rare branches (place_rules_cases) through the fast path and the general
  // rules on this board, then the flock spawns again.
  volatile MeasureResult& r = flockscope_measure_result;
  board::BoardFlock& f = b.flock();
  if (f.rules_fast()) {
    r.cases = board::place_rules_cases(f, b.params());
    f.begin_step();
    std::uint32_t checked = 0;
    r.cases_mismatch = f.check_rules(&checked);
    r.cases_checked = checked;
    r.scan_mismatch = f.check_scan();  // velocities beyond 16 bits: the snapshot saturates them
  }
  b.reset(b.params().active(board::pid::seed));
  systick_hw->rvr = 0xFFFFFF;
  systick_hw->cvr = 0;
  systick_hw->csr = 0x5;  // enabled, processor clock, no interrupt
  // One core times each boid's scan (the scan column) through SysTick: two calls and
  // a subtraction a boid, about 1 % of a frame. The lab's spawning (boids 0) reports no
  // scan column, so it runs without that clock: its frames cost what the firmware's do.
  if (cores == 1 && boids != 0) f.set_profile_clock(systick_cycles);
  r.cores = cores;
  r.framebuffer = std::uint32_t(reinterpret_cast<std::uintptr_t>(framebuffer));
  r.boids = boids;
  b.handle(protocol::make_hello(protocol::Role::kApp, 0, 1, 0, 100000, 0x1FF, "measure"));
  if (cfg_.streams != 0) b.handle(protocol::make_command(protocol::CommandId::kStreams, cfg_.streams));
}

void Measurement::end_frame(board::Board& b, const FrameTimes& t) {
  b.pump(sink_);  // the whole frame's output (the sink takes everything)
  const std::uint32_t link = std::uint32_t((t.start - t.link) * kCyclesPerUs) + cycles_since(t.end);
  const std::uint32_t draw = std::uint32_t((t.end - t.draw) * kCyclesPerUs);
  const board::BoardFlock& f = b.flock();
  volatile MeasureResult& r = flockscope_measure_result;
  r.live_frame = f.frame();
  r.live_boids = f.size();
  r.live_compute = std::uint32_t((t.end - t.start) * kCyclesPerUs);
  if (seen_ >= cfg_.warmup && frames_ < cfg_.frames) {
    sum_grid_ += grid_, sum_scan_ += f.scan_cycles(), sum_update_ += update_, sum_draw_ += draw, sum_link_ += link;
    if (++frames_ == cfg_.frames) {
      r.grid = std::uint32_t(sum_grid_ / frames_);
      r.scan = std::uint32_t(sum_scan_ / frames_);
      r.update = std::uint32_t((sum_update_ - sum_scan_) / frames_);  // update without the scan
      r.draw = std::uint32_t(sum_draw_ / frames_);
      r.link = std::uint32_t(sum_link_ / frames_);
      r.compute = std::uint32_t((sum_grid_ + sum_update_ + sum_draw_) / frames_);
      r.frames = frames_;
      r.boids = f.size();
      const std::uint64_t h = f.state_hash();
      r.hash_lo = std::uint32_t(h);
      r.hash_hi = std::uint32_t(h >> 32);
      r.done = 1;
    }
  }
  ++seen_;
  grid_ = update_ = 0;
}

}  // namespace flockscope::firmware
