// flockscope on the Raspberry Pi Pico: the fixed-point flock (firmware_pico/logic, shared
// with the virtual board), shared by both cores, drawn on VGA, streamed over USB CDC.
//
// Build switches: flockscope/board/board_config.hpp. The emulator's measurement mode:
// measure.hpp.
//
// Sections: memory | USB transport | the two cores | frame loop
#include <cstdio>
#include <new>

#include "flockscope/board/board.hpp"
#include "flockscope/board/board_config.hpp"
#include "flockscope/board/draw.hpp"
#include "hardware/clocks.h"
#include "hardware/vreg.h"
#include "measure.hpp"
#include "pico/stdlib.h"
#include "tusb.h"
#include "hardware/sync.h"  // the update's spinlock (run_pass compiles for every image)
#if !FLOCKSCOPE_SINGLE_CORE
#include "pico/multicore.h"
#endif
#if !FLOCKSCOPE_NO_VGA
#include "vga.hpp"
#endif

namespace fb = flockscope::board;
namespace fw = flockscope::firmware;
using fb::fix;

// ---------------------------------------------------------------- memory
namespace {
constexpr std::uint32_t kCap = FLOCKSCOPE_MAX_BOIDS;
static_assert(kCap <= 32768, "sort_m0.S keeps a boid's index in sid as 2 i (uint16)");
fix g_x[kCap], g_y[kCap], g_vx[kCap], g_vy[kCap];
fb::NearBoid g_near[kCap];
std::uint16_t g_id[kCap];
std::uint16_t g_cell_start[FLOCKSCOPE_MAX_CELLS + 1];
// The sort's scratch: ids and cells, 4 bytes a boid.
std::uint16_t g_sid[kCap], g_cell[kCap];
fix g_bias[fb::kMaxScouts];
std::int16_t g_perch[kCap];  // perching timers, by boid id
std::uint32_t g_fb[fb::kFbWords];
alignas(fb::Board) unsigned char g_board_mem[sizeof(fb::Board)];
fb::Board* g_board = nullptr;

// ---------------------------------------------------------------- USB transport
class UsbTransport final : public fb::Transport {
 public:
  std::size_t read(std::uint8_t* buf, std::size_t cap) override {
    if (!tud_cdc_available()) return 0;
    return tud_cdc_read(buf, std::uint32_t(cap));
  }
  std::size_t write(const std::uint8_t* buf, std::size_t n) override {
    // Raw CDC writes: bytes go out exactly as given (no stdio, no CR/LF translation).
    const std::uint32_t room = tud_cdc_write_available();
    if (room == 0) {
      tud_cdc_write_flush();
      return 0;
    }
    const std::uint32_t w = tud_cdc_write(buf, n < room ? std::uint32_t(n) : room);
    tud_cdc_write_flush();
    return w;
  }
  bool connected() override { return tud_cdc_connected(); }
};
UsbTransport g_usb;

// ---------------------------------------------------------------- the two cores
// Core 0 runs the frame; core 1 takes its share of every per-boid pass when core 0 posts
// the pass's number in the SIO mailbox, and answers when it is done:
//   the sort's per-boid passes: BoardFlock::sort_cells and sort_finish in halves of the
//   slots, sort_move in two cell ranges of about half the boids each;
//   the update: runs of slots claimed as each core gets free (below), each boid's whole
//   stencil scanned (BoardFlock::update; one core updates every slot in one call);
//   the drawing: a band of screen rows each (a word of the framebuffer is in one row, so
//   the two cores' read-modify-writes never touch the same word);
//   the metrics message: core 1 alone, while core 0 encodes and sends the frame's state
//   (post_metrics; the state does not change until the next step).
// The counting sort's count, the predators, the status line and the link's encoding stay
// on core 0.
// The update's work sharing (two cores): each core claims the next run of slots
// (BoardFlock::update_run) under a hardware spinlock when it has finished its last one, so
// both finish together; a fixed split (even and odd 32-slot blocks) left the core with the
// sparser blocks waiting. Which core updates a boid does not change it: the update reads
// only the snapshot and writes only the boid's own state.
std::uint32_t g_next_slot = 0;
spin_lock_t* g_slot_lock = nullptr;
enum Pass : std::uint32_t { kPassCells = 1, kPassMove, kPassFinish, kPassUpdate, kPassDraw, kPassMetrics };
// The sort_move split (set by core 0 before it posts kPassMove): core 0 moves the boids of
// the cells below it, core 1 the rest.
std::uint32_t g_move_split = 0;

#if !FLOCKSCOPE_SINGLE_CORE
constexpr std::uint32_t kCores = 2;
#else
constexpr std::uint32_t kCores = 1;
#endif

// The drawing's split (set by core 0 before it posts kPassDraw): core 0 draws the rows
// [0, split), core 1 [split, height).
int g_draw_split = fb::kFbHeight;

// One core's band of the drawing: its rows cleared (last frame's dots, crosses and status
// line), then the boids' dots drawn, clipped to the rows [y0, y1).
void draw_band(int y0, int y1) {
  fb::Framebuffer fbuf(g_fb);
  fbuf.clear(y0, y1 - y0);
  fb::draw_boids_rows(fbuf, g_board->flock(), y0, y1);
}

// The frame's metrics message (two cores): core 1 computes it after Board::frame_end while
// core 0 encodes and sends the state (kPassMetrics, posted by post_metrics), and
// Board::write_frame_tail takes it through metrics_from_core1. Its "done" is collected there, or
// before the next pass at the latest (collect_metrics).
fb::FlockMetrics g_metrics{};
std::uint32_t g_metrics_sample = 0;
bool g_metrics_pending = false;

// This core's share of a pass.
void run_pass(std::uint32_t pass, std::uint32_t core) {
  fb::BoardFlock& f = g_board->flock();
  // half: a multiple of 4, so that the cores' uint16 stores (cell, id) never share a word.
  const std::uint32_t n = f.size(), half = (n / 2) & ~3u;
  switch (pass) {
    case kPassCells:
      core == 0 ? f.sort_cells(0, half) : f.sort_cells(half, n);
      break;
    case kPassMove:
      core == 0 ? f.sort_move(0, g_move_split) : f.sort_move(g_move_split, f.cell_count());
      break;
    case kPassFinish:
      core == 0 ? f.sort_finish(0, half) : f.sort_finish(half, n);
      break;
    case kPassUpdate:
      if (kCores == 1) {
        if (core == 0) f.update(0, n);
      } else {
        for (;;) {
          spin_lock_unsafe_blocking(g_slot_lock);
          const std::uint32_t b = g_next_slot;
          const std::uint32_t len = fb::BoardFlock::update_run(b, n);
          g_next_slot = b + len;
          spin_unlock_unsafe(g_slot_lock);
          if (b >= n) break;
          f.update(b, b + len);  // (clips the run at n)
        }
      }
      break;
    case kPassDraw:
      core == 0 ? draw_band(0, g_draw_split) : draw_band(g_draw_split, fb::kFbHeight);
      break;
    case kPassMetrics:  // (core 1 only)
      g_metrics = f.metrics(g_metrics_sample);
      break;
  }
}

#if !FLOCKSCOPE_SINGLE_CORE
// Core 1's stack, in main SRAM: core 0's stack starts at the top of scratch Y (4 KB) and
// goes below it (Board::frame_start's frame alone is about 2.1 KB; `measure_cycles.sh
// --cores 2` prints the depth: 4.3 KB at 2,000 boids, 5.9 KB with the measurement's state
// in main()'s frame), so it would run into the SDK's default core 1 stack (the top half of
// scratch X) and overwrite the frames of a waiting core 1. With core 1's stack here, core 0
// has both scratch banks, 8 KB.
std::uint32_t g_core1_stack[2048 / sizeof(std::uint32_t)];

void core1_main() {
  for (;;) {
    const std::uint32_t pass = multicore_fifo_pop_blocking();
    run_pass(pass, 1);
    multicore_fifo_push_blocking(pass);
  }
}
#endif

#if !FLOCKSCOPE_SINGLE_CORE
void collect_metrics() {
  if (!g_metrics_pending) return;
  (void)multicore_fifo_pop_blocking();
  g_metrics_pending = false;
}

// After Board::frame_end: core 1 computes the metrics message the frame's tail will carry.
void post_metrics() {
  std::uint32_t sample = 0;
  if (!g_board->metrics_to_come(sample)) return;
  g_metrics_sample = sample;
  g_metrics_pending = true;
  multicore_fifo_push_blocking(kPassMetrics);
}

fb::FlockMetrics metrics_from_core1(const fb::BoardFlock& f, std::uint32_t sample) {
  const bool posted = g_metrics_pending;
  collect_metrics();
  return posted && sample == g_metrics_sample ? g_metrics : f.metrics(sample);
}
#endif

// A pass on every core: core 1 is told to start, core 0 does its share, then waits for
// core 1's "done". (One core: core 0 does both shares, one after the other.)
void run_all(std::uint32_t pass) {
#if !FLOCKSCOPE_SINGLE_CORE
  collect_metrics();  // (core 1 is free)
  multicore_fifo_push_blocking(pass);
  run_pass(pass, 0);
  (void)multicore_fifo_pop_blocking();
#else
  run_pass(pass, 0);
  if (pass != kPassDraw) run_pass(pass, 1);  // (core 0's band is the whole screen)
#endif
}

void begin_step_all() {
  fb::BoardFlock& f = g_board->flock();
  run_all(kPassCells);
  f.sort_count();
  g_move_split = kCores == 1 ? f.cell_count() : f.middle_cell();  // one core: one pass over the boids
  run_all(kPassMove);
  run_all(kPassFinish);
}

void update_all() {
  g_next_slot = 0;
  run_all(kPassUpdate);
}

void step_flock() {
  begin_step_all();
  update_all();
  g_board->flock().end_step();
}

// Each band's rows cleared and its dots drawn, then the predators and the status line. A
// row is blank only between its band's clear and its dots (the rows are cleared in one
// pass of ~26 cycles a row, ~12.4 K cycles for the screen, and the dots then drawn in
// grid order, about top to bottom), so the scan-out never shows a whole empty screen:
// erasing last frame's dots one by one cost ~45 cycles a boid and left each dot away for
// longer. The split between the cores' bands is the row of the middle slot's previous
// position (slots are in grid order, so about half the boids are above it).
void draw_frame(std::uint32_t elapsed_s) {
  fb::Framebuffer fbuf(g_fb);
  const fb::BoardFlock& f = g_board->flock();
  int split = fb::kFbHeight / 2;
  if (kCores == 1) {
    split = fb::kFbHeight;
  } else if (f.size() > 0) {
    split = f.previous()[f.size() / 2].y >> 9;
    split = split < 0 ? 0 : split > fb::kFbHeight ? fb::kFbHeight : split;
  }
  g_draw_split = split;
  run_all(kPassDraw);
  fb::draw_predators(fbuf, f);
  fb::draw_extensions(fbuf, f);
  fb::draw_status(fbuf, f.size(), g_board->pacer().fps(), elapsed_s);
}

}  // namespace

// ---------------------------------------------------------------- frame loop
int main() {
#if FLOCKSCOPE_SYS_CLOCK_KHZ * 1000 != SYS_CLK_HZ  // (the SDK's boot clock)
  vreg_set_voltage(VREG_VOLTAGE_1_15);
  busy_wait_us(1000);  // the regulator settles before the clock goes up
  set_sys_clock_khz(FLOCKSCOPE_SYS_CLOCK_KHZ, true);
#endif
  tud_init(0);
  fb::BoardConfig cfg;
  cfg.role = flockscope::protocol::Role::kBoard;
#if FLOCKSCOPE_NO_VGA
  cfg.name = "pico-emu";
#else
  cfg.name = "pico-vga";
#endif
  cfg.limits.max_boids = kCap;
  cfg.seed = 1;
  cfg.boids = FLOCKSCOPE_INITIAL_BOIDS;
  fw::Measurement measure;  // off unless an emulator runner switched it on
  if (measure.on()) cfg.boids = measure.boids(kCap);
  const fb::FlockBuffers bufs{g_x,    g_y,          g_vx,   g_vy, g_near,
                              g_id,   g_sid,        g_cell, g_cell_start,
                              g_bias, kCap,         FLOCKSCOPE_MAX_CELLS, fb::kMaxScouts,
                              g_perch};
  g_board = new (g_board_mem) fb::Board(cfg, bufs);
  if (measure.on()) measure.start(*g_board, cfg.boids, g_fb, kCores);
  fb::Framebuffer(g_fb).clear();
#if !FLOCKSCOPE_NO_VGA
  vga_start(g_fb);
#endif
#if !FLOCKSCOPE_SINGLE_CORE
  g_slot_lock = spin_lock_instance(spin_lock_claim_unused(true));
  multicore_launch_core1_with_stack(core1_main, g_core1_stack, sizeof g_core1_stack);
  g_board->set_metrics_source(metrics_from_core1);
#endif

  std::uint64_t last_log = time_us_64();
  std::uint64_t cycles_sum = 0;
  std::uint32_t cycles_frames = 0;
  fb::Transport& io = measure.on() ? measure.transport() : static_cast<fb::Transport&>(g_usb);
  for (;;) {
#if !FLOCKSCOPE_SINGLE_CORE
    collect_metrics();  // before requests may change the flock core 1 reads
#endif
    tud_task();
    const std::uint64_t tl0 = time_us_64();
    const std::uint64_t deadline = g_board->frame_start(io, time_us_64());
    const std::uint64_t t0 = time_us_64();
    fb::BoardFlock& f = g_board->flock();
    if (measure.on() && g_board->running()) {
      measure.step(f, t0, begin_step_all, update_all);  // step_flock(), timed
    } else if (g_board->running()) {
      step_flock();
    }
    const std::uint64_t td = time_us_64();
    draw_frame(g_board->elapsed_ms() / 1000);
    const std::uint64_t t1 = time_us_64();
    g_board->frame_end(t1, std::uint32_t(t1 - t0));
#if !FLOCKSCOPE_SINGLE_CORE
    post_metrics();
#endif
    if (measure.on()) {
      measure.end_frame(*g_board, {tl0, t0, td, t1});
      // The result is in: the framebuffer stays the measured flock's last frame (the
      // runner's --screen reads it), the step is over.
      if (measure.finished()) for (;;) tight_loop_contents();
    }
    const auto cycles = std::uint32_t((t1 - t0) * (clock_get_hz(clk_sys) / 1000000u));
    cycles_sum += cycles;
    ++cycles_frames;
    if (t1 - last_log >= 1000000) {
      // "frame F boids N cycles C us U" once a second on the log stream: the mean cycle
      // count per frame (compute + drawing) for a person watching the app's log. (The
      // emulator measurement reads the per-frame stats.compute_us instead.)
      char line[96];
      char* const end = line + sizeof line - 1;
      char* p = fb::put_str(line, end, "frame ");
      p = fb::put_uint(p, end, f.frame());
      p = fb::put_str(p, end, " boids ");
      p = fb::put_uint(p, end, f.size());
      p = fb::put_str(p, end, " cycles ");
      p = fb::put_uint(p, end, std::uint32_t(cycles_sum / cycles_frames));
      p = fb::put_str(p, end, " us ");
      p = fb::put_uint(p, end, std::uint32_t(t1 - t0));
      *p = 0;
      g_board->log(flockscope::protocol::LogLevel::kInfo, line);
      last_log = t1;
      cycles_sum = 0;
      cycles_frames = 0;
    }
    do {
      tud_task();
      g_board->pump(io);
    } while (time_us_64() < deadline);
  }
}
