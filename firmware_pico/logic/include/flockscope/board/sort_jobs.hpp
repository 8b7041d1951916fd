// The counting sort's per-boid passes as plain-data jobs (BoardFlock::sort_cells,
// sort_move, sort_finish in board_sort.cpp): the RP2040 build runs them in Thumb-1
// (sort_m0.S), which reads these layouts by the names in asm_offsets.h (checked by
// asm_offsets.cpp); the host runs their C++ versions (board_sort.cpp).
#pragma once

#include <cstdint>

#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/fixed.hpp"

namespace flockscope::board {

// sort_cells()'s per-slot pass: the slots' x from the first on, its end, y and cell from
// the same slot; the grid (limits: grid_line_limit of cols and rows).
struct SortCellsJob {
  const fix *x, *x_end, *y;  // each its raw Q16.16 word
  std::uint16_t* cell;
  std::int32_t pad;
  std::uint32_t inv, cols, rows;
  std::uint32_t limit_x, limit_y;
};
extern "C" void flockscope_sort_cells(const SortCellsJob* job);

// sort_move()'s two passes. start is cell_start + begin: the cells' counters from the first
// moved cell on; slot_end the end of the last moved cell (its counter before the move);
// span 2^32 - 1 when the cells are all of them (the assembly then skips the test).
struct SortMoveJob {
  const std::uint16_t* cell;
  std::uint32_t n;
  std::uint16_t* start;
  std::uint32_t begin, span, slot_end;
  const std::uint16_t* id;
  std::uint16_t* sid;
  NearBoid* near;
  const fix *x, *y, *vx, *vy;  // each its raw Q16.16 word
};
extern "C" void flockscope_sort_move(const SortMoveJob* job);

// sort_finish()'s per-slot pass: the arrays from the first slot on.
struct SortFinishJob {
  NearBoid *near, *near_end;
  fix *x, *y, *vx, *vy;  // each its raw Q16.16 word
};
extern "C" void flockscope_sort_finish(const SortFinishJob* job);

}  // namespace flockscope::board
