// What more than one of BoardFlock's sources needs and nothing outside them: the grid's
// column of a coordinate (the sort, the update's cell walk) and a boid's Q23.9 snapshot (the
// sort's last pass, check_scan). Internal linkage, as when they lived in one file.
#pragma once

#include <cstdint>

#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/fixed.hpp"

namespace flockscope::board {
namespace {

// The column (or row) of a Q16.16 coordinate: monotone and clamped to [0, count), with
// cells at least cell_px_ wide (the reciprocal inv is rounded down): two boids closer than
// the interaction range are at most reach_ cells apart, so the stencil finds every
// neighbour, off screen too. A multiply, not a division. The grid's fields come as
// arguments so that begin_step's loop keeps them in registers.
inline std::uint32_t grid_line(std::int32_t raw, std::int32_t pad, std::uint32_t inv, std::uint32_t count) {
  const std::int32_t p = (raw >> 16) + pad;
  if (p <= 0) return 0;
  const std::uint32_t c = (std::uint32_t(p) * inv) >> 16;
  return c < count ? c : count - 1;
}

// The Q23.9 snapshot of a boid's Q16.16 state, as sort_finish makes it (w keeps vy).
inline NearBoid snapshot_of(fix x, fix y, fix vx, fix vy) {
  const std::int32_t vy9 = round_q9(vy.raw);
  return {round_q9(x.raw), round_q9(y.raw), pack_v9(round_q9(vx.raw), vy9), vy9};
}

}  // namespace
}  // namespace flockscope::board
