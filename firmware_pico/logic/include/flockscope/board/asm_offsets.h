/* The layout the board's Thumb-1 routines (the *_m0.S files in firmware_pico/logic/src)
 * read: every struct field offset, struct size and shared constant they use, by name.
 * Plain preprocessor text, so that both the assembly and C++ include it.
 *
 * asm_offsets.cpp checks every number here against offsetof/sizeof of the C++ structs
 * (32-bit layout: the firmware build, and the quick test board.asm_offsets_m0plus, which
 * cross-compiles it for the Cortex-M0+). A struct changed without its line here fails to
 * compile there (board.asm_offsets_compile_fail shows it), instead of running wrong on the
 * board. Each block names its struct and the header that defines it; that test reads
 * those names, so a new block is tested without further edits.
 *
 * The .S files state the relations between these numbers that their code relies on (two
 * fields next to each other for one LDM, a size that a shift multiplies by) in #if checks
 * next to that code.
 *
 * Blocks: snapshot and predators | the scan | the rules' fast path | the update run |
 * the sort | drawing
 */
#ifndef FLOCKSCOPE_BOARD_ASM_OFFSETS_H
#define FLOCKSCOPE_BOARD_ASM_OFFSETS_H

/* ---- snapshot and predators */

/* fix (fixed.hpp): one Q16.16 word; the state arrays x, y, vx, vy are arrays of it */
#define FIX_SIZE 4

/* NearBoid: flockscope/board/board_flock.hpp */
#define NEAR_BOID_X 0
#define NEAR_BOID_Y 4
#define NEAR_BOID_V 8
#define NEAR_BOID_W 12
#define NEAR_BOID_SIZE 16
#define NEAR_BOID_SHIFT 4 /* log2 of the size: slot k at near + (k << 4) */

/* BoardPredator: flockscope/board/board_flock.hpp */
#define BOARD_PREDATOR_X 0
#define BOARD_PREDATOR_Y 4
#define BOARD_PREDATOR_SIZE 16
#define BOARD_PREDATOR_SHIFT 4

/* ---- the scan */

/* ScanRun: flockscope/board/board_flock.hpp */
#define SCAN_RUN_BEGIN 0
#define SCAN_RUN_END 4
#define SCAN_RUN_ENTRY 8
#define SCAN_RUN_SIZE 12

/* NeighbourSums: flockscope/board/board_flock.hpp (the asm reads them inside ScanJob) */
#define NEIGHBOUR_SUMS_SIZE 28

/* ScanJob: flockscope/board/board_flock.hpp */
#define SCAN_JOB_X 0
#define SCAN_JOB_Y 4
#define SCAN_JOB_VISUAL2 8
#define SCAN_JOB_PROTECTED2 12
#define SCAN_JOB_SUM_X 16 /* s: NeighbourSums, from here to SEP_Y */
#define SCAN_JOB_SUM_Y 20
#define SCAN_JOB_SUM_VX 24
#define SCAN_JOB_SUM_VY 28
#define SCAN_JOB_SEEN 32
#define SCAN_JOB_SEP_X 36
#define SCAN_JOB_SEP_Y 40
#define SCAN_JOB_RUNS 44
#define SCAN_JOB_RUN 48 /* run[0]; run[i] at RUN + i * SCAN_RUN_SIZE */
#define SCAN_JOB_MIDDLE_WHOLE 168
#define SCAN_JOB_SIZE 172

/* flockscope_scan_entries (scan_m0.S, read through scan_entry()): [0, 8) with the test on
 * dy alone, [8, 16) without it, each by a run's length modulo 8; [16] the scan's end. */
#define SCAN_ENTRIES_WHOLE 8
#define SCAN_ENTRIES_END 16
#define SCAN_ENTRIES_COUNT 17

/* ---- the rules' fast path */

/* RulesJob: flockscope/board/board_flock.hpp */
#define RULES_JOB_XS 0
#define RULES_JOB_YS 4
#define RULES_JOB_VXS 8
#define RULES_JOB_VYS 12
#define RULES_JOB_CENTERING 16
#define RULES_JOB_MATCHING 20
#define RULES_JOB_AVOID 24
#define RULES_JOB_TURN 28
#define RULES_JOB_LEFT 32
#define RULES_JOB_RIGHT 36
#define RULES_JOB_TOP 40
#define RULES_JOB_BOTTOM 44
#define RULES_JOB_PREDATOR_RANGE 48
#define RULES_JOB_PREDATOR_RANGE2 52
#define RULES_JOB_PREDATOR_TURN 56
#define RULES_JOB_NPRED 60
#define RULES_JOB_PREDATORS 64
#define RULES_JOB_MIN2 68
#define RULES_JOB_MAX2 72
#define RULES_JOB_OUT_VX 76
#define RULES_JOB_OUT_VY 80
#define RULES_JOB_OUT_V2 84
#define RULES_JOB_MINSPEED 88
#define RULES_JOB_MAXSPEED 92
#define RULES_JOB_SQRT_SEEDS 96
#define RULES_JOB_SCOUT_END 100 /* read by the C++ callers only */
#define RULES_JOB_SIZE 104

/* kSqrtSeeds (fixed.hpp): v[i] is the seed of i + SQRT_SEEDS_FIRST */
#define SQRT_SEEDS_FIRST 64

/* What flockscope_rules returns (kRulesDone, kRulesLimit, kRulesOff) and
 * flockscope_update_run's reason for a scout (kRunScout): board_flock.hpp. */
#define RULES_DONE 0
#define RULES_LIMIT 1
#define RULES_OFF 2
#define RUN_SCOUT 3

/* ---- the update run */

/* StencilTrim: flockscope/board/board_flock.hpp */
#define STENCIL_TRIM_TOP9 0
#define STENCIL_TRIM_BOTTOM9 4
#define STENCIL_TRIM_LEFT9 8
#define STENCIL_TRIM_RIGHT9 12
#define STENCIL_TRIM_TOP 16    /* top[4] */
#define STENCIL_TRIM_BOTTOM 32 /* bottom[4] */
#define STENCIL_TRIM_SIZE 48

/* UpdateRun: flockscope/board/board_flock.hpp */
#define UPDATE_RUN_JOB 0
#define UPDATE_RUN_TRIM 4
#define UPDATE_RUN_RULES 8
#define UPDATE_RUN_NEAR 12
#define UPDATE_RUN_ID 16
#define UPDATE_RUN_SCOUT_END 20
#define UPDATE_RUN_CLOCK 24
#define UPDATE_RUN_SCAN_CYCLES 28
#define UPDATE_RUN_CODE 32
#define UPDATE_RUN_TOP 36
#define UPDATE_RUN_ROW_BYTES 40
#define UPDATE_RUN_LINES_X 44
#define UPDATE_RUN_LINES_Y 48
#define UPDATE_RUN_SIZE 52
/* The stencil flockscope_update_run makes a cell's job for when UpdateRun::top is set:
 * 5 x 5 cells (reach 2). */
#define UPDATE_RUN_WIDTH 5

/* The grid's arrays: a cell start (FlockBuffers::cell_start), a boid id (id, sid), a
 * grid line (BoardFlock::line_px_): uint16, uint16, int16. */
#define CELL_START_SIZE 2
#define BOID_ID_SIZE 2
#define GRID_LINE_SIZE 2

/* ---- the sort */

/* SortCellsJob: flockscope/board/sort_jobs.hpp */
#define SORT_CELLS_JOB_X 0
#define SORT_CELLS_JOB_X_END 4
#define SORT_CELLS_JOB_Y 8
#define SORT_CELLS_JOB_CELL 12
#define SORT_CELLS_JOB_PAD 16
#define SORT_CELLS_JOB_INV 20
#define SORT_CELLS_JOB_COLS 24
#define SORT_CELLS_JOB_ROWS 28
#define SORT_CELLS_JOB_LIMIT_X 32
#define SORT_CELLS_JOB_LIMIT_Y 36
#define SORT_CELLS_JOB_SIZE 40

/* SortMoveJob: flockscope/board/sort_jobs.hpp */
#define SORT_MOVE_JOB_CELL 0
#define SORT_MOVE_JOB_N 4
#define SORT_MOVE_JOB_START 8
#define SORT_MOVE_JOB_BEGIN 12
#define SORT_MOVE_JOB_SPAN 16
#define SORT_MOVE_JOB_SLOT_END 20
#define SORT_MOVE_JOB_ID 24
#define SORT_MOVE_JOB_SID 28
#define SORT_MOVE_JOB_NEAR 32
#define SORT_MOVE_JOB_X 36
#define SORT_MOVE_JOB_Y 40
#define SORT_MOVE_JOB_VX 44
#define SORT_MOVE_JOB_VY 48
#define SORT_MOVE_JOB_SIZE 52

/* SortFinishJob: flockscope/board/sort_jobs.hpp */
#define SORT_FINISH_JOB_NEAR 0
#define SORT_FINISH_JOB_NEAR_END 4
#define SORT_FINISH_JOB_X 8
#define SORT_FINISH_JOB_Y 12
#define SORT_FINISH_JOB_VX 16
#define SORT_FINISH_JOB_VY 20
#define SORT_FINISH_JOB_SIZE 24

/* ---- drawing */

/* DotsJob: flockscope/board/draw.hpp */
#define DOTS_JOB_WORDS 0
#define DOTS_JOB_XS 4
#define DOTS_JOB_YS 8
#define DOTS_JOB_N 12
#define DOTS_JOB_SIZE 16

/* The framebuffer (draw.hpp): 480 rows of 20 words, 1 bit a pixel. */
#define FB_HEIGHT 480
#define FB_ROW_WORDS 20
#define FB_ROW_BYTES 80

#endif
