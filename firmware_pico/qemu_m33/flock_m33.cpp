// The board's flock step alone on a bare Cortex-M33 (the Pico 2's core), for QEMU's
// mps2-an505 machine with semihosting: the pinned runs (flock_runs.hpp) from the same
// sources the firmware compiles (firmware_pico/logic, the C++ versions of the RP2040's
// Thumb-1 routines, as the RP2350 image runs them), their state hashes printed for
// tests/board/test_pico2.cpp to compare with the host build of the same logic.
//   qemu-system-arm -M mps2-an505 -nographic -semihosting -kernel build-pico2/flock_m33.elf
#include <cstdint>

#include "flock_runs.hpp"
#include "flockscope/board/board_flock.hpp"
#include "semihosting_m33.h"

namespace fb = flockscope::board;
namespace pinned = flockscope::board::pinned;

namespace {
// The buffers as the firmware holds them (firmware_pico/main.cpp), at the runs' capacity.
constexpr std::uint32_t kCap = pinned::kCapacity;
constexpr std::uint32_t kCells = 4096;  // HostFlockStorage's default: the host runs the same grid
fb::fix g_x[kCap], g_y[kCap], g_vx[kCap], g_vy[kCap];
fb::NearBoid g_near[kCap];
std::uint16_t g_id[kCap], g_sid[kCap], g_cell[kCap];
std::uint16_t g_cell_start[kCells + 1];
fb::fix g_bias[fb::kMaxScouts];
std::int16_t g_perch[kCap];
}  // namespace

int main() {
  const fb::FlockBuffers bufs{g_x,   g_y,    g_vx,         g_vy,   g_near, g_id,          g_sid,
                              g_cell, g_cell_start, g_bias, kCap,   kCells, fb::kMaxScouts, g_perch};
  for (const pinned::Run& r : pinned::kRuns) {
    fb::BoardFlock flock(bufs);
    pinned::play(flock, r, [&r](int step, std::uint64_t hash) {
      char line[pinned::kReportChars];
      pinned::format_report(line, r.name, step, hash);
      semihost_write(line);
    });
  }
  semihost_write("flock_m33: done\n");
  return 0;
}
