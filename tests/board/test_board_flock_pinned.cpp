// The board flock's exact results, pinned: a hash of the full state (every slot's id,
// Q16.16 position and velocity, the scouts' biases, the predators) after 300 steps of
// 2,000 boids, for parameter sets that cover the update's paths (predators, scouts with
// dynamic and static bias, dt != 1, speed limits, margins that let boids leave the grid
// for the clamped edge cells, ranges beyond the fast scan, reach 3).
//
// The hashes were recorded from the code before the update phase was optimised (32-bit
// paths for products by weights, squares, quotients and the square root's low bits in
// fixed.hpp; the hardware divider inline; the cell walk and one job per cell in
// BoardFlock::update): that work promised bit-identical results, and any change to a
// result bit fails here. A deliberate change of the board's arithmetic (or of core's
// rules.hpp, whose templates the board runs) must re-record them and say why.
// Re-recorded once since, for the hash's form only: state_hash() became independent of the
// slots' order (so the sort may order a cell's boids as it likes); recorded on unchanged
// arithmetic, before the sort changed.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/host_storage.hpp"
#include "flockscope/core/rng.hpp"

namespace fb = flockscope::board;
namespace pid = flockscope::board::pid;

namespace {

struct Setting {
  std::uint16_t id;
  double value;
};

// 2,000 boids from `seed`, `steps` steps with a stencil of `reach` cells; the hash of the
// final state.
template <std::size_t N>
std::uint64_t run_hash(const Setting (&settings)[N], std::uint64_t seed, std::uint32_t reach = 2, int steps = 300) {
  constexpr std::uint32_t n = 2000;
  fb::HostFlockStorage storage(2 * n);  // the two-core board's capacity
  fb::ParamStore store{fb::BoardLimits{}};
  for (const Setting& s : settings) store.force(s.id, s.value);
  fb::BoardFlock flock(storage.buffers);
  flock.set_reach(reach);
  // The start state from integer draws only (reset()'s spawn goes through double and the
  // C library's trigonometry, which may differ by a bit between platforms): positions
  // inside the 100 px margins, velocity components in [-6, 6) px/frame.
  flock.reset(store, seed, 0);
  flockscope::Pcg32 rng(seed);
  auto draw = [&rng](std::int32_t lo_px, std::int32_t span_px) {
    return fb::fix::from_raw(std::int32_t(std::uint32_t(lo_px) * 65536u + rng.next() % (std::uint32_t(span_px) << 16)));
  };
  flock.set_size(n);
  for (std::uint32_t i = 0; i < n; ++i) {
    const fb::fix x = draw(100, 440), y = draw(100, 280);
    flock.set_boid(i, x, y, draw(-6, 12), draw(-6, 12));
  }
  for (std::uint32_t q = 0; q < flock.predator_count(); ++q) {
    const fb::fix x = draw(100, 440), y = draw(100, 280);
    flock.set_predator(q, {x, y, draw(-6, 12), draw(-6, 12)});
  }
  for (int i = 0; i < steps; ++i) flock.step();
  const std::uint64_t h = flock.state_hash();
  std::printf("hash %016llx\n", static_cast<unsigned long long>(h));
  return h;
}

}  // namespace

// The board's defaults: cornell-pico-predator (one predator, 40 / 8 px, speeds 3..6).
TEST(BoardFlockPinned, CornellPicoPredator) {
  const Setting s[] = {{pid::predators, 1}};
  EXPECT_EQ(run_hash(s, 1), 0x580b0b227d28d9ddull);
}

// Scouts (300 + 200 of 2,000) with dynamic bias, three predators with a wide range.
TEST(BoardFlockPinned, ScoutsWithDynamicBias) {
  const Setting s[] = {{pid::scouts1, 300},     {pid::scouts2, 200},      {pid::dynamicbias, 1},
                       {pid::biasval, 0.005},   {pid::maxbias, 0.02},     {pid::bias_increment, 0.0002},
                       {pid::predators, 3},     {pid::predatorRange, 150}, {pid::predatorturnfactor, 0.3}};
  EXPECT_EQ(run_hash(s, 7), 0xc86a9c986d1b462bull);
}

// Static bias, other ranges and coefficients, dt 0.5, a slow speed band, no predators.
TEST(BoardFlockPinned, OtherRangesHalfStepNoPredators) {
  const Setting s[] = {{pid::visualRange, 25},   {pid::protectedRange, 5},    {pid::dt, 0.5},
                       {pid::predators, 0},      {pid::minspeed, 1.5},        {pid::maxspeed, 3.5},
                       {pid::centeringfactor, 0.002}, {pid::matchingfactor, 0.1}, {pid::avoidfactor, 0.08},
                       {pid::turnfactor, 0.35},  {pid::scouts1, 100},         {pid::biasval, 0.01}};
  EXPECT_EQ(run_hash(s, 3), 0x14ec48507c58babfull);
}

// No margins and no turning: the flock drifts off screen into the clamped edge cells (the
// edge scan); minspeed above maxspeed (maxspeed wins); dt 1.25.
TEST(BoardFlockPinned, DriftingIntoTheEdgeCells) {
  const Setting s[] = {{pid::leftmargin, 0}, {pid::rightmargin, 0}, {pid::topmargin, 0},
                       {pid::bottommargin, 0}, {pid::turnfactor, 0}, {pid::minspeed, 5},
                       {pid::maxspeed, 4}, {pid::dt, 1.25}, {pid::predators, 2}};
  EXPECT_EQ(run_hash(s, 5), 0x5a650b9c9ff6fd5dull);
}

// Ranges beyond the fast scan (visualRange 80: the general scan for every boid), a
// protected range wider than the visual one, separation off, 16 predators.
TEST(BoardFlockPinned, GeneralScanRanges) {
  const Setting s[] = {{pid::visualRange, 80}, {pid::protectedRange, 90}, {pid::separation, 0},
                       {pid::predators, 16},   {pid::minspeed, 0},        {pid::maxspeed, 7}};
  EXPECT_EQ(run_hash(s, 9, 2, 120), 0x4281324a883e50b1ull);
}

// A stencil of reach 3 (finer cells) and alignment off.
TEST(BoardFlockPinned, ReachThreeNoAlignment) {
  const Setting s[] = {{pid::alignment, 0}, {pid::visualRange, 30}, {pid::protectedRange, 6}};
  EXPECT_EQ(run_hash(s, 13, 3), 0xcc9f13c4a476462cull);
}
