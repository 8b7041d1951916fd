// The counting sort's per-boid passes as plain-data jobs (BoardFlock::sort_cells,
// sort_move, sort_finish in board_sort.cpp): the RP2040 build runs them in Thumb-1
// (sort_m0.S), which reads these layouts at fixed offsets; the host runs their C++
// versions (board_sort.cpp).
#pragma once

#include <cstdint>

#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/fixed.hpp"

namespace flockscope::board {

// sort_cells()'s per-slot pass: the slots' x from the first on, its end, y and cell from
// the same slot; the grid (limits: grid_line_limit of cols and rows).
struct SortCellsJob {
  const fix *x, *x_end, *y;              // 0, 4, 8 (each its raw Q16.16 word)
  std::uint16_t* cell;                   // 12
  std::int32_t pad;                      // 16
  std::uint32_t inv, cols, rows;         // 20, 24, 28
  std::uint32_t limit_x, limit_y;        // 32, 36
};
static_assert(sizeof(void*) != 4 || sizeof(SortCellsJob) == 40, "sort_m0.S reads SortCellsJob at fixed offsets");
extern "C" void flockscope_sort_cells(const SortCellsJob* job);

// sort_move()'s two passes. start is cell_start + begin: the cells' counters from the first
// moved cell on; slot_end the end of the last moved cell (its counter before the move);
// span 2^32 - 1 when the cells are all of them (the assembly then skips the test).
struct SortMoveJob {
  const std::uint16_t* cell;             // 0
  std::uint32_t n;                       // 4
  std::uint16_t* start;                  // 8
  std::uint32_t begin, span, slot_end;   // 12, 16, 20
  const std::uint16_t* id;               // 24
  std::uint16_t* sid;                    // 28
  NearBoid* near;                        // 32
  const fix *x, *y, *vx, *vy;            // 36, 40, 44, 48 (each its raw Q16.16 word)
};
static_assert(sizeof(void*) != 4 || sizeof(SortMoveJob) == 52, "sort_m0.S reads SortMoveJob at fixed offsets");
extern "C" void flockscope_sort_move(const SortMoveJob* job);

// sort_finish()'s per-slot pass: the arrays from the first slot on.
struct SortFinishJob {
  NearBoid *near, *near_end;  // 0, 4
  fix *x, *y, *vx, *vy;       // 8, 12, 16, 20 (each its raw Q16.16 word)
};
static_assert(sizeof(void*) != 4 || sizeof(SortFinishJob) == 24, "sort_m0.S reads SortFinishJob at fixed offsets");
static_assert(sizeof(fix) == sizeof(std::int32_t), "sort_m0.S stores a fix as its raw word");
extern "C" void flockscope_sort_finish(const SortFinishJob* job);

}  // namespace flockscope::board
