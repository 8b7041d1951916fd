// The firmware's measurement mode (measure.hpp).
#include "measure.hpp"

#include "hardware/structs/systick.h"

extern "C" {
__attribute__((used)) volatile const MeasureConfig flockscope_measure_config = {0xFFFFFFFFu, 0, 0, 0};
__attribute__((used)) volatile MeasureResult flockscope_measure_result;
}

namespace flockscope::firmware {
namespace {
// SysTick as an up-counting cycle counter modulo 2^24 (BoardFlock's profile clock).
std::uint32_t systick_cycles() { return 0u - systick_hw->cvr; }
}  // namespace

Measurement::Measurement()
    : cfg_{flockscope_measure_config.boids, flockscope_measure_config.warmup, flockscope_measure_config.frames,
           flockscope_measure_config.streams},
      on_(cfg_.boids != 0xFFFFFFFFu) {}

void Measurement::start(board::Board& b, std::uint32_t boids, const std::uint32_t* framebuffer, std::uint32_t cores) {
  systick_hw->rvr = 0xFFFFFF;
  systick_hw->cvr = 0;
  systick_hw->csr = 0x5;  // enabled, processor clock, no interrupt
  if (cores == 1) b.flock().set_profile_clock(systick_cycles);
  flockscope_measure_result.cores = cores;
  flockscope_measure_result.framebuffer = std::uint32_t(reinterpret_cast<std::uintptr_t>(framebuffer));
  flockscope_measure_result.boids = boids;
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
