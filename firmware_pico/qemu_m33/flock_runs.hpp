// The board flock's pinned runs: 2,000 boids from a seed for parameter sets that cover the
// update's paths (predators, scouts with dynamic and static bias, dt != 1, speed limits,
// margins that let boids leave the grid for the clamped edge cells, ranges beyond the fast
// scan, reach 3), each from a start state of integer draws only. One definition for the
// host's pinned hashes (tests/board/test_board_flock_pinned.cpp) and for the same runs on
// a Cortex-M33 under QEMU (flock_m33.cpp, compared with the host by tests/board/test_pico2.cpp).
// Header-only, no allocation: it builds for the host and the bare Cortex-M33 alike.
#pragma once

#include <cstddef>
#include <cstdint>

#include "flockscope/board/board_flock.hpp"
#include "flockscope/core/rng.hpp"

namespace flockscope::board::pinned {

struct Setting {
  std::uint16_t id;
  double value;
};

struct Run {
  const char* name;
  const Setting* settings;
  std::size_t count;
  std::uint64_t seed;
  std::uint32_t reach;
  int steps;
};

inline constexpr std::uint32_t kBoids = 2000;
inline constexpr std::uint32_t kCapacity = 2 * kBoids;  // the two-core board's capacity

// The board's defaults: cornell-pico-predator (one predator, 40 / 8 px, speeds 3..6).
inline constexpr Setting kCornellPicoPredator[] = {{pid::predators, 1}};
// Scouts (300 + 200 of 2,000) with dynamic bias, three predators with a wide range.
inline constexpr Setting kScoutsWithDynamicBias[] = {
    {pid::scouts1, 300},     {pid::scouts2, 200},       {pid::dynamicbias, 1},
    {pid::biasval, 0.005},   {pid::maxbias, 0.02},      {pid::bias_increment, 0.0002},
    {pid::predators, 3},     {pid::predatorRange, 150}, {pid::predatorturnfactor, 0.3}};
// Static bias, other ranges and coefficients, dt 0.5, a slow speed band, no predators.
inline constexpr Setting kOtherRangesHalfStepNoPredators[] = {
    {pid::visualRange, 25},        {pid::protectedRange, 5},  {pid::dt, 0.5},
    {pid::predators, 0},           {pid::minspeed, 1.5},      {pid::maxspeed, 3.5},
    {pid::centeringfactor, 0.002}, {pid::matchingfactor, 0.1}, {pid::avoidfactor, 0.08},
    {pid::turnfactor, 0.35},       {pid::scouts1, 100},        {pid::biasval, 0.01}};
// No margins and no turning: the flock drifts off screen into the clamped edge cells (the
// edge scan); minspeed above maxspeed (maxspeed wins); dt 1.25.
inline constexpr Setting kDriftingIntoTheEdgeCells[] = {
    {pid::leftmargin, 0}, {pid::rightmargin, 0}, {pid::topmargin, 0},
    {pid::bottommargin, 0}, {pid::turnfactor, 0}, {pid::minspeed, 5},
    {pid::maxspeed, 4}, {pid::dt, 1.25}, {pid::predators, 2}};
// Ranges beyond the fast scan (visualRange 80: the general scan for every boid), a
// protected range wider than the visual one, separation off, 16 predators.
inline constexpr Setting kGeneralScanRanges[] = {
    {pid::visualRange, 80}, {pid::protectedRange, 90}, {pid::separation, 0},
    {pid::predators, 16},   {pid::minspeed, 0},        {pid::maxspeed, 7}};
// A stencil of reach 3 (finer cells) and alignment off.
inline constexpr Setting kReachThreeNoAlignment[] = {
    {pid::alignment, 0}, {pid::visualRange, 30}, {pid::protectedRange, 6}};

// The lab's extensions (seed 001), cornell-final-project's values: two chase predators, the
// ledge, gravity, three food sources (the general rules for every boid).
inline constexpr Setting kLabExtensionsChase[] = {
    {pid::predators, 2},       {pid::predator_mode, 2}, {pid::predator_vision, 150}, {pid::predator_steer, 0.03},
    {pid::perch_frames, 90},   {pid::perch_y, 420},     {pid::perch_x0, 120},        {pid::perch_x1, 520},
    {pid::perch_range, 12},    {pid::bottommargin, 40}, {pid::gravity, 0.05},        {pid::food, 3},
    {pid::food_range, 150},    {pid::food_factor, 0.003}, {pid::food_speed, 1.5}};
// Centroid predators and food alone (no perching, no gravity).
inline constexpr Setting kCentroidPredatorsAndFood[] = {
    {pid::predators, 3}, {pid::predator_mode, 1}, {pid::predator_vision, 200}, {pid::predator_steer, 0.05},
    {pid::food, 2},      {pid::food_range, 181},  {pid::food_factor, 0.01},    {pid::food_speed, 2.5}};

template <std::size_t N>
constexpr Run make_run(const char* name, const Setting (&s)[N], std::uint64_t seed, std::uint32_t reach = 2,
                  int steps = 300) {
  return {name, s, N, seed, reach, steps};
}

inline constexpr Run kRuns[] = {
    make_run("CornellPicoPredator", kCornellPicoPredator, 1),
    make_run("ScoutsWithDynamicBias", kScoutsWithDynamicBias, 7),
    make_run("OtherRangesHalfStepNoPredators", kOtherRangesHalfStepNoPredators, 3),
    make_run("DriftingIntoTheEdgeCells", kDriftingIntoTheEdgeCells, 5),
    make_run("GeneralScanRanges", kGeneralScanRanges, 9, 2, 120),
    make_run("ReachThreeNoAlignment", kReachThreeNoAlignment, 13, 3),
    make_run("LabExtensionsChase", kLabExtensionsChase, 17, 2, 150),
    make_run("CentroidPredatorsAndFood", kCentroidPredatorsAndFood, 19, 2, 150),
};

// The run's start in `flock` (buffers of kCapacity): its settings over the board's
// defaults, its stencil reach, `boids` boids and the predators from integer draws only
// (reset()'s spawn goes through double and the C library's trigonometry, which may differ
// by a bit between platforms): positions inside the 100 px margins, velocity components in
// [-6, 6) px/frame.
inline void start(BoardFlock& flock, const Run& r, std::uint32_t boids = kBoids) {
  ParamStore store{BoardLimits{}};
  for (std::size_t i = 0; i < r.count; ++i) store.force(r.settings[i].id, r.settings[i].value);
  flock.set_reach(r.reach);
  flock.reset(store, r.seed, 0);
  Pcg32 rng(r.seed);
  auto draw = [&rng](std::int32_t lo_px, std::int32_t span_px) {
    return fix::from_raw(std::int32_t(std::uint32_t(lo_px) * 65536u + rng.next() % (std::uint32_t(span_px) << 16)));
  };
  flock.set_size(boids);
  for (std::uint32_t i = 0; i < boids; ++i) {
    // The draws in sequence (a function's arguments are evaluated in no fixed order: the
    // host's GCC took the velocity's last, vy, first; an Arm build, vx): the order the
    // hashes were recorded with.
    const fix x = draw(100, 440), y = draw(100, 280), vy = draw(-6, 12), vx = draw(-6, 12);
    flock.set_boid(i, x, y, vx, vy);
  }
  for (std::uint32_t q = 0; q < flock.predator_count(); ++q) {
    const fix x = draw(100, 440), y = draw(100, 280);
    flock.set_predator(q, {x, y, draw(-6, 12), draw(-6, 12)});  // (a braced list: in order)
  }
}

// Plays run `r` in `flock`: its start, then its steps, with report(step, state_hash()) every
// kReportEvery steps and after the last.
inline constexpr int kReportEvery = 30;
template <class Report>
void play(BoardFlock& flock, const Run& r, Report&& report) {
  start(flock, r);
  for (int s = 1; s <= r.steps; ++s) {
    flock.step();
    if (s % kReportEvery == 0 || s == r.steps) report(s, flock.state_hash());
  }
}

// A report as the Cortex-M33 prints it: "<run> <step> <hash in 16 hex digits>\n" (at most
// kReportChars characters with the terminating zero; no printf on the bare M33).
inline constexpr std::size_t kReportChars = 64;
inline void format_report(char (&out)[kReportChars], const char* name, int step, std::uint64_t hash) {
  char* p = out;
  char* const end = out + kReportChars - 1 - 1 - 10 - 1 - 16 - 1;  // room for the rest
  while (*name && p < end) *p++ = *name++;
  *p++ = ' ';
  char digits[10];
  int n = 0;
  auto u = std::uint32_t(step);
  do {
    digits[n++] = char('0' + u % 10);
    u /= 10;
  } while (u != 0);
  while (n > 0) *p++ = digits[--n];
  *p++ = ' ';
  for (int shift = 60; shift >= 0; shift -= 4) *p++ = "0123456789abcdef"[(hash >> shift) & 15];
  *p++ = '\n';
  *p = 0;
}

}  // namespace flockscope::board::pinned
