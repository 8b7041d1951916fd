// Every number of asm_offsets.h (the layout the Thumb-1 routines read) checked against the
// C++ it stands for. Only static_asserts: the object is empty.
//
// The structs with pointers have their RP2040 layout only where pointers are 32 bits: in
// the firmware build, and in the quick test board.asm_offsets_m0plus, which compiles this
// file with arm-none-eabi-g++ for the Cortex-M0+ (tests/board/asm_offsets_check.cmake).
// The host build (64-bit pointers) checks the rest.
//
// Sections: snapshot and predators | the scan | the rules' fast path | the update run |
// the sort | drawing
#include "flockscope/board/asm_offsets.h"

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/draw.hpp"
#include "flockscope/board/fixed.hpp"
#include "flockscope/board/sort_jobs.hpp"

namespace flockscope::board {
namespace {

// NAME is offsetof(type, field) / sizeof(type) / value.
#define FLOCKSCOPE_ASM_OFFSET(name, type, field) \
  static_assert(offsetof(type, field) == (name), "asm_offsets.h: " #name " is not offsetof(" #type ", " #field ")")
#define FLOCKSCOPE_ASM_SIZE(name, type) \
  static_assert(sizeof(type) == (name), "asm_offsets.h: " #name " is not sizeof(" #type ")")
#define FLOCKSCOPE_ASM_VALUE(name, value) static_assert((value) == (name), "asm_offsets.h: " #name " is not " #value)

// ---- snapshot and predators
FLOCKSCOPE_ASM_SIZE(FIX_SIZE, fix);

FLOCKSCOPE_ASM_OFFSET(NEAR_BOID_X, NearBoid, x);
FLOCKSCOPE_ASM_OFFSET(NEAR_BOID_Y, NearBoid, y);
FLOCKSCOPE_ASM_OFFSET(NEAR_BOID_V, NearBoid, v);
FLOCKSCOPE_ASM_OFFSET(NEAR_BOID_W, NearBoid, w);
FLOCKSCOPE_ASM_SIZE(NEAR_BOID_SIZE, NearBoid);
FLOCKSCOPE_ASM_VALUE(NEAR_BOID_SIZE, 1u << NEAR_BOID_SHIFT);

FLOCKSCOPE_ASM_OFFSET(BOARD_PREDATOR_X, BoardPredator, x);
FLOCKSCOPE_ASM_OFFSET(BOARD_PREDATOR_Y, BoardPredator, y);
FLOCKSCOPE_ASM_SIZE(BOARD_PREDATOR_SIZE, BoardPredator);
FLOCKSCOPE_ASM_VALUE(BOARD_PREDATOR_SIZE, 1u << BOARD_PREDATOR_SHIFT);

// ---- the scan
FLOCKSCOPE_ASM_SIZE(NEIGHBOUR_SUMS_SIZE, NeighbourSums);

#if UINTPTR_MAX == 0xffffffffu
FLOCKSCOPE_ASM_OFFSET(SCAN_RUN_BEGIN, ScanRun, begin);
FLOCKSCOPE_ASM_OFFSET(SCAN_RUN_END, ScanRun, end);
FLOCKSCOPE_ASM_OFFSET(SCAN_RUN_ENTRY, ScanRun, entry);
FLOCKSCOPE_ASM_SIZE(SCAN_RUN_SIZE, ScanRun);
#endif

FLOCKSCOPE_ASM_OFFSET(SCAN_JOB_X, ScanJob, x);
FLOCKSCOPE_ASM_OFFSET(SCAN_JOB_Y, ScanJob, y);
FLOCKSCOPE_ASM_OFFSET(SCAN_JOB_VISUAL2, ScanJob, visual2);
FLOCKSCOPE_ASM_OFFSET(SCAN_JOB_PROTECTED2, ScanJob, protected2);
FLOCKSCOPE_ASM_VALUE(SCAN_JOB_SUM_X, offsetof(ScanJob, s) + offsetof(NeighbourSums, sum_x));
FLOCKSCOPE_ASM_VALUE(SCAN_JOB_SUM_Y, offsetof(ScanJob, s) + offsetof(NeighbourSums, sum_y));
FLOCKSCOPE_ASM_VALUE(SCAN_JOB_SUM_VX, offsetof(ScanJob, s) + offsetof(NeighbourSums, sum_vx));
FLOCKSCOPE_ASM_VALUE(SCAN_JOB_SUM_VY, offsetof(ScanJob, s) + offsetof(NeighbourSums, sum_vy));
FLOCKSCOPE_ASM_VALUE(SCAN_JOB_SEEN, offsetof(ScanJob, s) + offsetof(NeighbourSums, seen));
FLOCKSCOPE_ASM_VALUE(SCAN_JOB_SEP_X, offsetof(ScanJob, s) + offsetof(NeighbourSums, sep_x));
FLOCKSCOPE_ASM_VALUE(SCAN_JOB_SEP_Y, offsetof(ScanJob, s) + offsetof(NeighbourSums, sep_y));
FLOCKSCOPE_ASM_OFFSET(SCAN_JOB_RUNS, ScanJob, runs);
#if UINTPTR_MAX == 0xffffffffu
FLOCKSCOPE_ASM_OFFSET(SCAN_JOB_RUN, ScanJob, run);
FLOCKSCOPE_ASM_OFFSET(SCAN_JOB_MIDDLE_WHOLE, ScanJob, middle_whole);
FLOCKSCOPE_ASM_SIZE(SCAN_JOB_SIZE, ScanJob);
#endif

FLOCKSCOPE_ASM_VALUE(SCAN_ENTRIES_WHOLE, kScanEntriesWhole);
FLOCKSCOPE_ASM_VALUE(SCAN_ENTRIES_END, kScanEntriesEnd);
FLOCKSCOPE_ASM_VALUE(SCAN_ENTRIES_COUNT, sizeof(flockscope_scan_entries) / sizeof(flockscope_scan_entries[0]));

// ---- the rules' fast path
#if UINTPTR_MAX == 0xffffffffu
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_XS, RulesJob, xs);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_YS, RulesJob, ys);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_VXS, RulesJob, vxs);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_VYS, RulesJob, vys);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_CENTERING, RulesJob, centering);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_MATCHING, RulesJob, matching);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_AVOID, RulesJob, avoid);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_TURN, RulesJob, turn);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_LEFT, RulesJob, left);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_RIGHT, RulesJob, right);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_TOP, RulesJob, top);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_BOTTOM, RulesJob, bottom);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_PREDATOR_RANGE, RulesJob, predator_range);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_PREDATOR_RANGE2, RulesJob, predator_range2);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_PREDATOR_TURN, RulesJob, predator_turn);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_NPRED, RulesJob, npred);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_PREDATORS, RulesJob, predators);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_MIN2, RulesJob, min2);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_MAX2, RulesJob, max2);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_OUT_VX, RulesJob, out_vx);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_OUT_VY, RulesJob, out_vy);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_OUT_V2, RulesJob, out_v2);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_MINSPEED, RulesJob, minspeed);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_MAXSPEED, RulesJob, maxspeed);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_SQRT_SEEDS, RulesJob, sqrt_seeds);
FLOCKSCOPE_ASM_OFFSET(RULES_JOB_SCOUT_END, RulesJob, scout_end);
FLOCKSCOPE_ASM_SIZE(RULES_JOB_SIZE, RulesJob);
#endif

// kSqrtSeeds.v[0] is the seed of 64 (make_sqrt_seeds), the last of 255.
FLOCKSCOPE_ASM_VALUE(SQRT_SEEDS_FIRST, 256u - sizeof(kSqrtSeeds.v));

FLOCKSCOPE_ASM_VALUE(RULES_DONE, kRulesDone);
FLOCKSCOPE_ASM_VALUE(RULES_LIMIT, kRulesLimit);
FLOCKSCOPE_ASM_VALUE(RULES_OFF, kRulesOff);
FLOCKSCOPE_ASM_VALUE(RUN_SCOUT, kRunScout);

// ---- the update run
#if UINTPTR_MAX == 0xffffffffu
FLOCKSCOPE_ASM_OFFSET(STENCIL_TRIM_TOP9, StencilTrim, top9);
FLOCKSCOPE_ASM_OFFSET(STENCIL_TRIM_BOTTOM9, StencilTrim, bottom9);
FLOCKSCOPE_ASM_OFFSET(STENCIL_TRIM_LEFT9, StencilTrim, left9);
FLOCKSCOPE_ASM_OFFSET(STENCIL_TRIM_RIGHT9, StencilTrim, right9);
FLOCKSCOPE_ASM_OFFSET(STENCIL_TRIM_TOP, StencilTrim, top);
FLOCKSCOPE_ASM_OFFSET(STENCIL_TRIM_BOTTOM, StencilTrim, bottom);
FLOCKSCOPE_ASM_SIZE(STENCIL_TRIM_SIZE, StencilTrim);

FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_JOB, UpdateRun, job);
FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_TRIM, UpdateRun, trim);
FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_RULES, UpdateRun, rules);
FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_NEAR, UpdateRun, near);
FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_ID, UpdateRun, id);
FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_SCOUT_END, UpdateRun, scout_end);
FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_CLOCK, UpdateRun, clock);
FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_SCAN_CYCLES, UpdateRun, scan_cycles);
FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_CODE, UpdateRun, code);
FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_TOP, UpdateRun, top);
FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_ROW_BYTES, UpdateRun, row_bytes);
FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_LINES_X, UpdateRun, lines_x);
FLOCKSCOPE_ASM_OFFSET(UPDATE_RUN_LINES_Y, UpdateRun, lines_y);
FLOCKSCOPE_ASM_SIZE(UPDATE_RUN_SIZE, UpdateRun);
#endif
FLOCKSCOPE_ASM_VALUE(UPDATE_RUN_WIDTH, 2 * kUpdateRunReach + 1);

template <class Pointer>
constexpr std::size_t kElementSize = sizeof(std::remove_pointer_t<Pointer>);
FLOCKSCOPE_ASM_VALUE(CELL_START_SIZE, kElementSize<decltype(FlockBuffers::cell_start)>);
FLOCKSCOPE_ASM_VALUE(CELL_START_SIZE, kElementSize<decltype(UpdateRun::top)>);
FLOCKSCOPE_ASM_VALUE(BOID_ID_SIZE, kElementSize<decltype(FlockBuffers::id)>);
FLOCKSCOPE_ASM_VALUE(BOID_ID_SIZE, kElementSize<decltype(FlockBuffers::sid)>);
FLOCKSCOPE_ASM_VALUE(BOID_ID_SIZE, kElementSize<decltype(UpdateRun::id)>);
FLOCKSCOPE_ASM_VALUE(GRID_LINE_SIZE, kElementSize<decltype(UpdateRun::lines_x)>);

// ---- the sort
#if UINTPTR_MAX == 0xffffffffu
FLOCKSCOPE_ASM_OFFSET(SORT_CELLS_JOB_X, SortCellsJob, x);
FLOCKSCOPE_ASM_OFFSET(SORT_CELLS_JOB_X_END, SortCellsJob, x_end);
FLOCKSCOPE_ASM_OFFSET(SORT_CELLS_JOB_Y, SortCellsJob, y);
FLOCKSCOPE_ASM_OFFSET(SORT_CELLS_JOB_CELL, SortCellsJob, cell);
FLOCKSCOPE_ASM_OFFSET(SORT_CELLS_JOB_PAD, SortCellsJob, pad);
FLOCKSCOPE_ASM_OFFSET(SORT_CELLS_JOB_INV, SortCellsJob, inv);
FLOCKSCOPE_ASM_OFFSET(SORT_CELLS_JOB_COLS, SortCellsJob, cols);
FLOCKSCOPE_ASM_OFFSET(SORT_CELLS_JOB_ROWS, SortCellsJob, rows);
FLOCKSCOPE_ASM_OFFSET(SORT_CELLS_JOB_LIMIT_X, SortCellsJob, limit_x);
FLOCKSCOPE_ASM_OFFSET(SORT_CELLS_JOB_LIMIT_Y, SortCellsJob, limit_y);
FLOCKSCOPE_ASM_SIZE(SORT_CELLS_JOB_SIZE, SortCellsJob);

FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_CELL, SortMoveJob, cell);
FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_N, SortMoveJob, n);
FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_START, SortMoveJob, start);
FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_BEGIN, SortMoveJob, begin);
FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_SPAN, SortMoveJob, span);
FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_SLOT_END, SortMoveJob, slot_end);
FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_ID, SortMoveJob, id);
FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_SID, SortMoveJob, sid);
FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_NEAR, SortMoveJob, near);
FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_X, SortMoveJob, x);
FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_Y, SortMoveJob, y);
FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_VX, SortMoveJob, vx);
FLOCKSCOPE_ASM_OFFSET(SORT_MOVE_JOB_VY, SortMoveJob, vy);
FLOCKSCOPE_ASM_SIZE(SORT_MOVE_JOB_SIZE, SortMoveJob);

FLOCKSCOPE_ASM_OFFSET(SORT_FINISH_JOB_NEAR, SortFinishJob, near);
FLOCKSCOPE_ASM_OFFSET(SORT_FINISH_JOB_NEAR_END, SortFinishJob, near_end);
FLOCKSCOPE_ASM_OFFSET(SORT_FINISH_JOB_X, SortFinishJob, x);
FLOCKSCOPE_ASM_OFFSET(SORT_FINISH_JOB_Y, SortFinishJob, y);
FLOCKSCOPE_ASM_OFFSET(SORT_FINISH_JOB_VX, SortFinishJob, vx);
FLOCKSCOPE_ASM_OFFSET(SORT_FINISH_JOB_VY, SortFinishJob, vy);
FLOCKSCOPE_ASM_SIZE(SORT_FINISH_JOB_SIZE, SortFinishJob);
#endif

// ---- drawing
#if UINTPTR_MAX == 0xffffffffu
FLOCKSCOPE_ASM_OFFSET(DOTS_JOB_WORDS, DotsJob, words);
FLOCKSCOPE_ASM_OFFSET(DOTS_JOB_XS, DotsJob, xs);
FLOCKSCOPE_ASM_OFFSET(DOTS_JOB_YS, DotsJob, ys);
FLOCKSCOPE_ASM_OFFSET(DOTS_JOB_N, DotsJob, n);
FLOCKSCOPE_ASM_SIZE(DOTS_JOB_SIZE, DotsJob);
#endif

FLOCKSCOPE_ASM_VALUE(FB_HEIGHT, kFbHeight);
FLOCKSCOPE_ASM_VALUE(FB_ROW_WORDS, kFbWordsPerRow);
FLOCKSCOPE_ASM_VALUE(FB_ROW_BYTES, kFbWordsPerRow * sizeof(std::uint32_t));

#undef FLOCKSCOPE_ASM_OFFSET
#undef FLOCKSCOPE_ASM_SIZE
#undef FLOCKSCOPE_ASM_VALUE

}  // namespace
}  // namespace flockscope::board
