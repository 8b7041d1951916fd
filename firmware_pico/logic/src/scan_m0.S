@ flockscope_scan_neighbours(ScanJob* job) for the Cortex-M0+ (RP2040): the inner loop of
@ the board's neighbour scan, the same arithmetic as the C++ version in board_update.cpp
@ (which the host builds and which BoardFlock::check_scan() compares with this one).
@ The visible neighbours' sums of x, y, vx, vy go to the core's two SIO interpolators:
@ x and y to ACCUM0_ADD and ACCUM1_ADD of interpolator 0 (a store adds the word to the
@ accumulator in one cycle, as an ADD to a high register does), which leaves the
@ candidate's x and y in registers for the sums instead of loading y twice, and the ranges
@ in high registers for CMP; vx and vy, one word (NearBoid::v), to interpolator 1's
@ BASE_1AND0, whose POP_LANE0 then adds both halves to its accumulators (SCAN_LANES: a
@ load and a store instead of two of each). Each core has its own
@ interpolators; nothing else on the board uses them (an interrupt handler that did would
@ have to save them).
@
@ Registers in the loop:
@   r0 candidate (NearBoid*, 16 bytes: x, y Q23.9, v)       lr  end of the run
@   r1 x of the boid   r2 y of the boid   r3 the interpolators (INTERPS_R3)
@   r4-r7 scratch      r8 visual2   r9 protected2   r10 seen   r11 1   r12 sep x
@ Stack: [sp] job, [sp+4] the next run, [sp+16] sep y. flockscope_update_run (rules_m0.S)
@ enters these loops too, with the same registers and the same two stack slots in its own
@ frame, and sets its own label as the last run's entry (the scan inline, no call).
@ Eight candidates a turn. Cycles (M0+, RAM) per candidate, the loop's share included: 7.6
@ out of range in y, 14.6 out of the circle, 21.6 visible; in the middle runs (middle_whole)
@ 2 fewer for the last two, 12.6 out of range in y.
@ ScanJob's and NearBoid's fields by their names in asm_offsets.h. Each run (ScanRun: begin,
@ end, entry) names its entry (flockscope_scan_entries, chosen by make_runs and the trim:
@ with or without the test on dy alone, by its length modulo 8), so a run costs a load of
@ three words and a BX; the run after the last has the end's entry.
    .syntax unified
    .cpu cortex-m0plus
    .thumb
#include "scan_m0.inc"
@ The interpolators' registers the loop uses (from r3, INTERPS_R3).
    .equ ACC_X, INTERP(INTERP0_ACCUM0_ADD)
    .equ ACC_Y, INTERP(INTERP0_ACCUM1_ADD)
    .equ V_BASES, INTERP(INTERP1_BASE_1AND0)
    .equ V_POP, INTERP(INTERP1_POP_LANE0)
    M0_ROUTINE flockscope_scan_neighbours
    SCAN_FRAME_ENTER
    str r0, [sp, #0]
    movs r5, #SCAN_JOB_RUN
    adds r5, r0, r5            @ &run[0]
    SCAN_ZERO
    SCAN_LANES
    movs r4, #1
    mov r11, r4
    ldr r1, [r0, #SCAN_JOB_X]
    ldr r2, [r0, #SCAN_JOB_Y]
    ldr r4, [r0, #SCAN_JOB_VISUAL2]
    mov r8, r4
    ldr r4, [r0, #SCAN_JOB_PROTECTED2]
    mov r9, r4
@ One candidate at r0 + \off: falls through (or returns) to \next.
@ dy_test 0: without the test on dy alone (the middle runs, ScanJob::middle_whole: d2
@ cannot wrap there), 2 cycles less for every candidate within range in y.
    .macro CANDIDATE off, next, sep, dy_test
    ldr r4, [r0, #(\off + NEAR_BOID_Y)] @ y of the candidate
    subs r5, r2, r4            @ dy
    muls r5, r5, r5            @ dy^2
    .if \dy_test
    cmp r5, r8
    bhs \next                  @ dy^2 >= visual2: out of range
    .endif
    ldr r6, [r0, #(\off + NEAR_BOID_X)] @ x of the candidate
    subs r7, r1, r6            @ dx
    muls r7, r7, r7
    adds r5, r5, r7            @ d2
    cmp r5, r8
    bhs \next                  @ d2 >= visual2
    cmp r5, r9
    blo \sep                   @ d2 < protected2
    str r6, [r3, #ACC_X]       @ visible: sums of x, y, vx, vy and the count
    str r4, [r3, #ACC_Y]
    ldr r4, [r0, #(\off + NEAR_BOID_V)] @ v: vx and vy in 16 bits each
    str r4, [r3, #V_BASES]
    ldr r4, [r3, #V_POP]
    add r10, r11
    .endm

@ A protected candidate (r6 its x, r4 its y): sep += (dx, dy), then on to \next.
    .macro PROTECTED next
    subs r6, r1, r6
    add r12, r6
    subs r4, r2, r4
    ldr r5, [sp, #16]
    adds r5, r5, r4
    str r5, [sp, #16]
    b \next
    .endm

    NEXT_RUN
.Ldone:
    ldr r0, [sp, #0]
    SCAN_SUMS
    SCAN_FRAME_RETURN

@ A run of n candidates enters its eight-slot loop at slot 8 - (n mod 8) (slot 0 when n is
@ a multiple of 8), r0 moved back by as many slots, so that each turn takes eight: the
@ entries \p_e1 .. \p_e7 below; \p_e0 (n mod 8 = 0) also takes the empty runs.
@ Eight candidates a turn (r0 .. r0 + 7 NEAR_BOID_SIZE): the loop's own cost, five cycles,
@ is shared eight ways. The protected handlers of slots 0-3 before the loop and of slots
@ 4-7 after it, within reach of the slots' conditional branches (+-256 bytes); for the
@ same reason the turn's branch back is a B after a BHS.
    .macro LOOP8 dy_test, p
\p\()_empty:
    NEXT_RUN
\p\()_sep0:
    PROTECTED \p\()_1
\p\()_sep1:
    PROTECTED \p\()_2
\p\()_sep2:
    PROTECTED \p\()_3
\p\()_sep3:
    PROTECTED \p\()_4
\p\()_e0:
    cmp r0, lr
    beq \p\()_empty
\p\()_0:
    CANDIDATE (0 * NEAR_BOID_SIZE), \p\()_1, \p\()_sep0, \dy_test
\p\()_1:
    CANDIDATE (1 * NEAR_BOID_SIZE), \p\()_2, \p\()_sep1, \dy_test
\p\()_2:
    CANDIDATE (2 * NEAR_BOID_SIZE), \p\()_3, \p\()_sep2, \dy_test
\p\()_3:
    CANDIDATE (3 * NEAR_BOID_SIZE), \p\()_4, \p\()_sep3, \dy_test
\p\()_4:
    CANDIDATE (4 * NEAR_BOID_SIZE), \p\()_5, \p\()_sep4, \dy_test
\p\()_5:
    CANDIDATE (5 * NEAR_BOID_SIZE), \p\()_6, \p\()_sep5, \dy_test
\p\()_6:
    CANDIDATE (6 * NEAR_BOID_SIZE), \p\()_7, \p\()_sep6, \dy_test
\p\()_7:
    CANDIDATE (7 * NEAR_BOID_SIZE), \p\()_tail, \p\()_sep7, \dy_test
\p\()_tail:
    adds r0, #(8 * NEAR_BOID_SIZE)
    cmp r0, lr
    bhs 1f
    b \p\()_0
1:  ldr r5, [sp, #4]
    NEXT_RUN
\p\()_sep4:
    PROTECTED \p\()_5
\p\()_sep5:
    PROTECTED \p\()_6
\p\()_sep6:
    PROTECTED \p\()_7
\p\()_sep7:
    PROTECTED \p\()_tail
\p\()_e1:
    subs r0, #(7 * NEAR_BOID_SIZE)
    b \p\()_7
\p\()_e2:
    subs r0, #(6 * NEAR_BOID_SIZE)
    b \p\()_6
\p\()_e3:
    subs r0, #(5 * NEAR_BOID_SIZE)
    b \p\()_5
\p\()_e4:
    subs r0, #(4 * NEAR_BOID_SIZE)
    b \p\()_4
\p\()_e5:
    subs r0, #(3 * NEAR_BOID_SIZE)
    b \p\()_3
\p\()_e6:
    subs r0, #(2 * NEAR_BOID_SIZE)
    b \p\()_2
\p\()_e7:
    subs r0, #(1 * NEAR_BOID_SIZE)
    b \p\()_1
    .endm

    LOOP8 1, .Ldy
    LOOP8 0, .Lw
    .size flockscope_scan_neighbours, . - flockscope_scan_neighbours

@ The entries (Thumb addresses: bit 0 set), read by make_runs and the trims.
#if SCAN_ENTRIES_WHOLE != 8 || SCAN_ENTRIES_END != 16 || SCAN_ENTRIES_COUNT != 17
#error "flockscope_scan_entries: 8 entries with the test on dy alone, 8 without, the end"
#endif
    .section .data.flockscope_scan_entries, "aw", %progbits
    .align 2
    .global flockscope_scan_entries
    .type flockscope_scan_entries, %object
flockscope_scan_entries:
    .word .Ldy_e0 + 1, .Ldy_e1 + 1, .Ldy_e2 + 1, .Ldy_e3 + 1
    .word .Ldy_e4 + 1, .Ldy_e5 + 1, .Ldy_e6 + 1, .Ldy_e7 + 1
    .word .Lw_e0 + 1, .Lw_e1 + 1, .Lw_e2 + 1, .Lw_e3 + 1
    .word .Lw_e4 + 1, .Lw_e5 + 1, .Lw_e6 + 1, .Lw_e7 + 1
    .word .Ldone + 1
    .size flockscope_scan_entries, . - flockscope_scan_entries

