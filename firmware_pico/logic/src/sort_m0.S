@ The board's counting sort (BoardFlock::begin_step, board_sort.cpp) in Thumb-1 for the
@ Cortex-M0+ (RP2040): its per-boid passes, in RAM (.time_critical), each the same as its
@ C++ version (the host's) and called through a plain-data job: flockscope_sort_cells (each
@ slot's cell, 22 cycles a slot; the compiler's 38), flockscope_sort_move (the boids into
@ their cells' slots, 39 cycles a boid on one core; the compiler's about 70) and
@ flockscope_sort_finish (the state back and the snapshot, 45 cycles a slot). The serial
@ count between them stays C++. The grid phase at 1,500 boids on one core: 0.217 M cycles a
@ frame (0.272 with the first two passes compiled).
@
@ flockscope_sort_finish(const SortFinishJob* job) for the Cortex-M0+ (RP2040): the last
@ pass of the board's counting sort, the same as its C++ version in board_sort.cpp (the
@ host's): for each slot, the state scattered into `near` (Q16.16) back to the state
@ arrays x, y, vx, vy, and `near` rounded in place to the Q23.9 snapshot the neighbour
@ scans read (round_q9: (raw + 64) >> 7, arithmetic; the velocity packed into one word,
@ pack_v9). The C++ compiler kept the six pointers in the stack and high registers;
@ here a slot is one LDM, one STM and four stores through one address stepped by the
@ arrays' distances: 45 cycles with the velocity's test and packing.
@
@ SortFinishJob (sort_jobs.hpp; the arrays from the first slot on) and NearBoid by their
@ names in asm_offsets.h.
@ Registers in the loop: r0 near, r1 scratch, r2 x, r3 scratch, r4-r7 a slot, r8 y - x,
@ r9 vx - y, r10 vy - vx (bytes), r12 near_end.
    .syntax unified
    .cpu cortex-m0plus
    .thumb
#include "frame_m0.inc"
@ A slot of `near` is one LDM and one STM of four words: x, y, v, w (vx, vy while sorting).
#if NEAR_BOID_X != 0 || NEAR_BOID_Y != 4 || NEAR_BOID_V != 8 || NEAR_BOID_W != 12 || \
    NEAR_BOID_SIZE != 16
#error "the sort reads and writes a NearBoid as four consecutive words x, y, v, w"
#endif
#if FIX_SIZE != 4
#error "the sort moves a fix as one word"
#endif
    M0_ROUTINE flockscope_sort_finish
    ENTER_R4_R11
    ldr r1, [r0, #SORT_FINISH_JOB_NEAR_END]
    mov r12, r1                @ near_end
    ldr r2, [r0, #SORT_FINISH_JOB_X]
    ldr r4, [r0, #SORT_FINISH_JOB_Y]
    ldr r5, [r0, #SORT_FINISH_JOB_VX]
    ldr r6, [r0, #SORT_FINISH_JOB_VY]
    subs r6, r6, r5
    mov r10, r6
    subs r5, r5, r4
    mov r9, r5
    subs r4, r4, r2
    mov r8, r4
    ldr r0, [r0, #SORT_FINISH_JOB_NEAR]
    cmp r0, r12
    bhs 2f
1:  ldm r0!, {r4-r7}           @ x, y, vx, vy (Q16.16)
    str r4, [r2]
    mov r3, r2
    add r3, r8
    str r5, [r3]
    add r3, r9
    str r6, [r3]
    add r3, r10
    str r7, [r3]
    adds r4, #64               @ round_q9
    asrs r4, r4, #7
    adds r5, #64
    asrs r5, r5, #7
    adds r6, #64
    asrs r6, r6, #7
    adds r7, #64
    asrs r7, r7, #7
    asrs r3, r6, #15           @ vx and vy fit 16 bits: bits 15-31 all equal
    adds r3, #1
    asrs r1, r7, #15
    adds r1, #1
    orrs r1, r3
    lsrs r1, r1, #1
    bne 3f
    uxth r3, r6                @ v: vx in the low half, vy in the high (pack_v9)
    lsls r6, r7, #16
    orrs r6, r3
4:  subs r0, #NEAR_BOID_SIZE
    stm r0!, {r4-r7}           @ x, y, v, w (vy)
    adds r2, #FIX_SIZE
    cmp r0, r12
    blo 1b
2:  RETURN_R4_R11
3:  ldr r3, =32767             @ v from vx and vy saturated (saturate16): rare, out of
    cmp r6, r3                 @ the loop; w keeps vy
    ble 5f
    movs r6, r3
5:  mvns r1, r3                @ -32768
    cmp r6, r1
    bge 6f
    movs r6, r1
6:  movs r1, r7
    cmp r1, r3
    ble 7f
    movs r1, r3
7:  mvns r3, r3
    cmp r1, r3
    bge 8f
    movs r1, r3
8:  uxth r6, r6
    lsls r1, r1, #16
    orrs r6, r1
    b 4b
    .ltorg
    .size flockscope_sort_finish, . - flockscope_sort_finish

@ flockscope_sort_cells(const SortCellsJob* job): the first pass of the sort, each slot's
@ cell, the same as its C++ version in board_sort.cpp (the host's): cell = row * cols +
@ column, each line from p = (raw >> 16) + pad by one unsigned test against its limit
@ (grid_line_limit: p >= 0 and p inv below count 2^16, unwrapped) and (p inv) >> 16; the
@ rest, off the grid's ends, out of the loop (LINE_RARE: grid_line's clamps). Two slots a
@ turn: x and y by one LDM each, 6 cycles a line, the rows times cols and two halfword
@ stores: 44 cycles a pair, 22 a slot (the compiler's: 38).
@
@ SortCellsJob (sort_jobs.hpp; the arrays from the first slot on) by its names in
@ asm_offsets.h.
@ Registers in the loop: r0 x, r1 y, r2 cell, r3 inv (cols for the multiplies), r4-r7 two
@ slots' x and y, then their lines; r8 pad, r9 limit_x, r10 limit_y, r11 cols, r12
@ x_end - 4, lr inv; rows in the stack (the rare path's).

@ \r = the line of the Q16.16 coordinate in \r: p = (r >> 16) + pad; below \limit,
@ (p inv) >> 16; else LINE_RARE, out of the loop.
    .macro LINE r, limit, count
    asrs \r, \r, #16
    add \r, r8
    cmp \r, \limit
    bhs .Lline_rare\@
    muls \r, r3, \r
    lsrs \r, \r, #16
.Lline_back\@:
    .subsection 1
.Lline_rare\@:
    LINE_RARE \r, \count
    b .Lline_back\@
    .subsection 0
    .endm

@ grid_line's clamps for p (in \r) off the fast test: p <= 0 gives line 0; else (p inv) >> 16
@ (wrapping, as the C++) clamped to count - 1 (\count x: cols in r11; y: rows in the stack,
@ read through r3, which gets inv back from lr).
    .macro LINE_RARE r, count
    cmp \r, #0
    ble .Lrare_zero\@
    muls \r, r3, \r
    lsrs \r, \r, #16
    .ifc \count, x
    cmp \r, r11
    blo .Lrare_end\@
    mov \r, r11
    subs \r, #1
    .else
    ldr r3, [sp]
    cmp \r, r3
    blo .Lrare_inv\@
    subs \r, r3, #1
.Lrare_inv\@:
    mov r3, lr
    .endif
    b .Lrare_end\@
.Lrare_zero\@:
    movs \r, #0
.Lrare_end\@:
    .endm

#if CELL_START_SIZE != 2
#error "flockscope_sort_cells stores a cell index as a halfword"
#endif
    M0_ROUTINE flockscope_sort_cells
    ENTER_R4_R11
    ldr r4, [r0, #SORT_CELLS_JOB_ROWS]
    push {r4}                  @ rows
    ldr r4, [r0, #SORT_CELLS_JOB_PAD]
    mov r8, r4                 @ pad
    ldr r4, [r0, #SORT_CELLS_JOB_LIMIT_X]
    mov r9, r4                 @ limit_x
    ldr r4, [r0, #SORT_CELLS_JOB_LIMIT_Y]
    mov r10, r4                @ limit_y
    ldr r4, [r0, #SORT_CELLS_JOB_COLS]
    mov r11, r4                @ cols
    ldr r3, [r0, #SORT_CELLS_JOB_INV]
    mov lr, r3                 @ inv
    ldr r4, [r0, #SORT_CELLS_JOB_X_END]
    subs r4, #FIX_SIZE
    mov r12, r4                @ x_end - 4: two slots left while x is below
    ldr r1, [r0, #SORT_CELLS_JOB_Y]
    ldr r2, [r0, #SORT_CELLS_JOB_CELL]
    ldr r0, [r0, #SORT_CELLS_JOB_X]
    cmp r0, r12
    bhs 3f
1:  ldm r0!, {r4, r5}          @ two slots' x
    ldm r1!, {r6, r7}          @ and y
    LINE r4, r9, x
    LINE r5, r9, x
    LINE r6, r10, y
    LINE r7, r10, y
    mov r3, r11
    muls r6, r3, r6            @ row * cols + column
    muls r7, r3, r7
    adds r6, r6, r4
    adds r7, r7, r5
    strh r6, [r2]
    strh r7, [r2, #CELL_START_SIZE]
    adds r2, #(2 * CELL_START_SIZE)
    mov r3, lr
    cmp r0, r12
    blo 1b
3:  bne 4f                     @ x = x_end - 4: the last slot alone
    ldr r4, [r0]
    ldr r6, [r1]
    LINE r4, r9, x
    LINE r6, r10, y
    mov r3, r11
    muls r6, r3, r6
    adds r6, r6, r4
    strh r6, [r2]
4:  add sp, #4
    RETURN_R4_R11
    .subsection 1
.Lsort_cells_end:              @ after the rare paths
    .subsection 0
    .size flockscope_sort_cells, .Lsort_cells_end - flockscope_sort_cells

@ flockscope_sort_move(const SortMoveJob* job): the counting sort's move, the same as its
@ C++ version in board_sort.cpp (the host's), in two passes, so that each has the
@ registers it needs. First, for i from n - 1 down, the boids whose cell c is in [begin,
@ begin + span): k = --start[c] (a halfword store: the other core may be writing its own
@ counters) and sid[k] = 2 i, the boid's offset in cell and id, for now: 17 cycles a
@ moved boid, 9 one of the other core's cells; with span 2^32 - 1 (every cell, one core)
@ without the test, 14. Then the slots [start[begin], slot_end), which only these boids
@ fill, each gathered from its boid: sid[k] = id[i], and near[k] = x, y, vx, vy (Q16.16)
@ by one STM, loaded from the state arrays at 4 i stepped by their distances: 23 cycles a
@ slot, two a turn, 25 with the loop. One core: 39 cycles a boid (the compiler's one pass:
@ about 70).
@
@ SortMoveJob (sort_jobs.hpp; start is cell_start + begin) by its names in asm_offsets.h.
@ Registers, first pass: r0 cell, r1 2 i, r2 start, r3 sid, r4 c - begin (then 2 (c -
@ begin)), r5 k, r8 -begin, r9 span, r12 the job. Second pass: r0 sid + 2 k, r1 near + 16 k,
@ r2 id, r3 x, r4-r7 the slot (r7 first 2 i, then its offset in the state arrays), r9
@ y - x, r10 vx - y, r11 vy - vx (bytes), r12 sid + 2 slot_end.

@ Slot k (sid at r0 + \off): its boid's id into sid, its state into near (r1, stepped).
    .macro GATHER_SLOT off
    ldrh r7, [r0, #\off]       @ 2 i
    ldrh r4, [r2, r7]
    strh r4, [r0, #\off]       @ sid[k] = id[i]
    lsls r7, r7, #1            @ 4 i
    ldr r4, [r3, r7]
    add r7, r9
    ldr r5, [r3, r7]
    add r7, r10
    ldr r6, [r3, r7]
    add r7, r11
    ldr r7, [r3, r7]
    stm r1!, {r4-r7}           @ near[k] = x, y, vx, vy
    .endm

#if CELL_START_SIZE != 2 || BOID_ID_SIZE != 2
#error "flockscope_sort_move: cells, their starts and ids are halfwords (2 i their offset)"
#endif
@ Boid i's slot claimed: c in r4 (its cell), start at r2, sid at r3, 2 i in r1:
@ k = --start[c] (a halfword store: the other core may be claiming other cells' slots),
@ sid[k] = 2 i.
    .macro CLAIM_SLOT
    lsls r4, r4, #1
    ldrh r5, [r2, r4]
    subs r5, #1
    strh r5, [r2, r4]
    lsls r5, r5, #1
    strh r1, [r3, r5]
    .endm

    M0_ROUTINE flockscope_sort_move
    ENTER_R4_R11
    mov r12, r0
    ldr r4, [r0, #SORT_MOVE_JOB_BEGIN]
    rsbs r4, r4, #0
    mov r8, r4                 @ -begin
    ldr r4, [r0, #SORT_MOVE_JOB_SPAN]
    mov r9, r4                 @ span
    ldr r1, [r0, #SORT_MOVE_JOB_N]
    lsls r1, r1, #1            @ 2 n
    ldr r2, [r0, #SORT_MOVE_JOB_START]
    ldr r3, [r0, #SORT_MOVE_JOB_SID]
    ldr r0, [r0, #SORT_MOVE_JOB_CELL]
    adds r4, #1
    beq 6f                     @ span 2^32 - 1: every cell, no test
    b 2f
1:  ldrh r4, [r0, r1]          @ c = cell[i]
    add r4, r8
    cmp r4, r9
    bhs 2f                     @ not in [begin, begin + span)
    CLAIM_SLOT
2:  subs r1, #2
    bcs 1b
5:  ldrh r4, [r2]              @ start[begin]: the first slot
    mov r0, r12
    ldr r3, [r0, #SORT_MOVE_JOB_X]
    ldr r6, [r0, #SORT_MOVE_JOB_Y]
    subs r5, r6, r3
    mov r9, r5                 @ y - x
    ldr r5, [r0, #SORT_MOVE_JOB_VX]
    subs r6, r5, r6
    mov r10, r6                @ vx - y
    ldr r6, [r0, #SORT_MOVE_JOB_VY]
    subs r6, r6, r5
    mov r11, r6                @ vy - vx
    ldr r1, [r0, #SORT_MOVE_JOB_NEAR]
    lsls r5, r4, #NEAR_BOID_SHIFT
    adds r1, r1, r5            @ near + 16 k
    ldr r6, [r0, #SORT_MOVE_JOB_SLOT_END]
    ldr r2, [r0, #SORT_MOVE_JOB_ID]
    ldr r0, [r0, #SORT_MOVE_JOB_SID]
    lsls r6, r6, #1
    adds r6, r6, r0
    mov r12, r6                @ sid + 2 slot_end
    lsls r4, r4, #1
    adds r0, r0, r4            @ sid + 2 k
    cmp r0, r6
    bhs 4f
    subs r4, r6, r0
    lsrs r4, r4, #2            @ carry: an odd number of slots, one first
    bcc 3f
    GATHER_SLOT 0
    adds r0, #BOID_ID_SIZE
    cmp r0, r12
    bhs 4f
3:  GATHER_SLOT 0
    GATHER_SLOT BOID_ID_SIZE
    adds r0, #(2 * BOID_ID_SIZE)
    cmp r0, r12
    blo 3b
4:  RETURN_R4_R11
6:  b 8f                       @ the first pass for every cell
7:  ldrh r4, [r0, r1]          @ c = cell[i]
    CLAIM_SLOT
8:  subs r1, #2
    bcs 7b
    b 5b
    .size flockscope_sort_move, . - flockscope_sort_move

@ flockscope_zero_words(uint32_t* p, uint32_t n): n words from p on set to 0, the same as
@ its C++ version in board_sort.cpp (the host's): the sort's cell counters each frame
@ (sort_count, 3,585 of them) and the framebuffer's rows (Framebuffer::clear: each core's
@ band every frame). Four STMs of six zero registers a turn, 31 cycles for 24 words; the
@ last words one STM each. (The compiler's loop became a memset call: the boot ROM's,
@ 8 cycles a word in the emulator's stand-in.)
    M0_ROUTINE flockscope_zero_words
    push {r4-r7}
    movs r2, #0
    movs r3, #0
    movs r4, #0
    movs r5, #0
    movs r6, #0
    movs r7, #0
    subs r1, #24
    bcc 2f
1:  stm r0!, {r2-r7}
    stm r0!, {r2-r7}
    stm r0!, {r2-r7}
    stm r0!, {r2-r7}
    subs r1, #24
    bcs 1b
2:  adds r1, #24
    beq 4f
3:  stm r0!, {r2}
    subs r1, #1
    bne 3b
4:  pop {r4-r7}
    bx lr
    .size flockscope_zero_words, . - flockscope_zero_words
