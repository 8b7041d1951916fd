@ flockscope_rules(const ScanJob* job, RulesJob* r, uint32_t k) for the Cortex-M0+
@ (RP2040): the rules' fast path for slot k, the same arithmetic as rules_fast_cpp in
@ board_rules_fast.cpp (the host's version, which the pinned flocks check against
@ update_boid; BoardFlock::check_rules() compares this one with update_boid on the board).
@ Returns kRulesDone (slot k written), kRulesLimit (RulesJob out_vx, out_vy, out_v2 set,
@ nothing written) or kRulesOff (nothing written).
@
@ The velocity's terms add up (wrapping) in any order: cohesion and alignment from the four
@ means, taken on the core's SIO divider (each quotient read at least 8 cycles after its
@ divisor is written, the next term's work filling the wait), separation, the margins,
@ the predators, then the guard at +-100 px/frame, the squared speed, the speed limit
@ and the move. Products and squares as fix's operators give them (MUL_WEIGHT, SQUARE,
@ DIV_SCALE below).
@
@ ScanJob, RulesJob, StencilTrim, UpdateRun, NearBoid and BoardPredator (board_flock.hpp)
@ by their names in asm_offsets.h; the SIO's divider by the SDK's (sio_m0.inc).
    .syntax unified
    .cpu cortex-m0plus
    .thumb
#include "scan_m0.inc"
#if FIX_SIZE != 4 || BOID_ID_SIZE != 2 || CELL_START_SIZE != 2 || GRID_LINE_SIZE != 2
#error "rules_m0.S: a fix is a word (4 k); ids, cell starts and grid lines are halfwords"
#endif
@ \a = floor(\a w / 2^16) for a weight \w in [0, 1) (fix's product by such a weight):
@ (a >> 16) w + ((a & 0xFFFF) w >> 16); \t is scratch.
    .macro MUL_WEIGHT a, w, t
    uxth \t, \a
    asrs \a, \a, #16
    muls \t, \w, \t
    muls \a, \w, \a
    lsrs \t, \t, #16
    adds \a, \a, \t
    .endm

@ \d = floor(\a^2 / 2^16) for \a below 128 px (fix's square): (a >> 16)(a + (a & 0xFFFF)) +
@ ((a & 0xFFFF)^2 >> 16); \h and \l are scratch (\d may be \a).
    .macro SQUARE d, a, h, l
    asrs \h, \a, #16
    uxth \l, \a
    adds \d, \a, \l
    muls \d, \h, \d
    muls \l, \l, \l
    lsrs \l, \l, #16
    adds \d, \d, \l
    .endm

@ The means' pipeline on the SIO divider (r6): the quotient in flight into r7, and the next
@ division, r5 / r3 (seen), started.
    .macro NEXT_MEAN
    ldr r7, [r6, #SIO_DIV_QUOTIENT_OFFSET]
    str r5, [r6, #SIO_DIV_SDIVIDEND_OFFSET]
    str r3, [r6, #SIO_DIV_SDIVISOR_OFFSET]
    .endm

@ A margin: \v \op r3 (the turn) unless \pos against RulesJob's edge at \off says \skip.
    .macro MARGIN pos, off, skip, op, v
    ldr r0, [r1, #\off]
    cmp \pos, r0
    \skip 90f
    \op \v, \v, r3
90:
    .endm

@ Away from the predators: \v + r3 if their summed offset r2 is positive, - r3 if negative.
    .macro AWAY v
    cmp r2, #0
    ble 91f
    adds \v, \v, r3
91: cmp r2, #0
    bge 92f
    subs \v, \v, r3
92:
    .endm

@ The stencil's trim for one outer row (BoardFlock::trim_runs): \d2 its squared offset,
@ r4 and lr the left and right columns', r7 visual2, r1 the StencilTrim (the row's four
@ cell pointers at \cells), r0 the job (the row's run pair at \run). The run starts at
@ the row's first cell or, when the left corner is out of reach, its second; ends after
@ its last cell or, when the right corner is, before it; and is empty when the row is.
    .macro TRIM_ROW d2, cells, run
    cmp \d2, r7
    bhs 93f
    adds r6, r4, \d2
    cmp r6, r7
    ldr r6, [r1, #\cells]
    blo 94f
    ldr r6, [r1, #(\cells + 4)]
94: str r6, [r0, #(\run + SCAN_RUN_BEGIN)]
    mov r6, lr
    adds r6, r6, \d2
    cmp r6, r7
    ldr r6, [r1, #(\cells + 12)]
    blo 95f
    ldr r6, [r1, #(\cells + 8)]
95: str r6, [r0, #(\run + SCAN_RUN_END)]
    b 96f
93: ldr r6, [r1, #\cells]
    str r6, [r0, #(\run + SCAN_RUN_BEGIN)]
    str r6, [r0, #(\run + SCAN_RUN_END)]
96:
    .endm

@ The entries of \n runs from r3 (a ScanRun's begin, end and entry; r3 steps past them)
@ from the table at r1, by each run's length modulo 8.
#if SCAN_RUN_BEGIN != 0 || SCAN_RUN_END != 4 || SCAN_RUN_ENTRY != 8 || SCAN_RUN_SIZE != 12
#error "RUNS_ENTRIES and CELL_ROW move a ScanRun's begin, end and entry with LDM and STM"
#endif
#if NEAR_BOID_SHIFT != 4
#error "RUNS_ENTRIES counts a run's candidates from its bytes, 16 a candidate"
#endif
    .macro RUNS_ENTRIES n
    .rept \n
    ldm r3!, {r6, r7}          @ begin, end
    subs r7, r7, r6            @ 16 bytes a candidate
    lsls r7, r7, #25
    lsrs r7, r7, #27           @ (length mod 8) x 4
    ldr r7, [r1, r7]
    stm r3!, {r7}
    .endr
    .endm

@ A stencil row's run of a cell's job (BoardFlock::make_cell_runs): from the row's cell
@ starts at r6 (five cells: the first's and the sixth's start), near in r9, the entries'
@ table at r1, into the run at r3 (begin, end, entry; r3 steps past it); r6 then steps to
@ the next row by r8 bytes. 19 cycles.
    .macro CELL_ROW
    ldrh r2, [r6, #0]
    ldrh r4, [r6, #(UPDATE_RUN_WIDTH * CELL_START_SIZE)]
    subs r7, r4, r2
    lsls r7, r7, #29
    lsrs r7, r7, #27           @ (its boids mod 8) x 4
    ldr r7, [r1, r7]
    lsls r2, r2, #NEAR_BOID_SHIFT
    add r2, r9
    lsls r4, r4, #NEAR_BOID_SHIFT
    add r4, r9                 @ near + 16 x slot
    stm r3!, {r2, r4, r7}
    add r6, r8
    .endm

@ A trim edge: the grid line at r2 + \at bytes (int16 pixel) x 512 into the trim at r1 + \off.
    .macro TRIM_EDGE at, off
    movs r4, #\at
    ldrsh r3, [r2, r4]
    lsls r3, r3, #9
    str r3, [r1, #\off]
    .endm

@ An outer row's slots for the trim at r1 + \off (StencilTrim::top or bottom): its begin, its
@ second cell's, its last cell's and its end, from the row's cell starts at r6.
    .macro TRIM_SLOTS off
    ldrh r2, [r6, #0]
    ldrh r3, [r6, #CELL_START_SIZE]
    ldrh r4, [r6, #((UPDATE_RUN_WIDTH - 1) * CELL_START_SIZE)]
    ldrh r7, [r6, #(UPDATE_RUN_WIDTH * CELL_START_SIZE)]
    lsls r2, r2, #NEAR_BOID_SHIFT
    add r2, r9
    lsls r3, r3, #NEAR_BOID_SHIFT
    add r3, r9
    lsls r4, r4, #NEAR_BOID_SHIFT
    add r4, r9
    lsls r7, r7, #NEAR_BOID_SHIFT
    add r7, r9
    str r2, [r1, #\off]
    str r3, [r1, #(\off + 4)]
    str r4, [r1, #(\off + 8)]
    str r7, [r1, #(\off + 12)]
    .endm

@ 8 cycles (4 taken branches): from a divisor's write to its quotient (hw_divider_pause).
    .macro WAIT8
    b 81f
81: b 82f
82: b 83f
83: b 84f
84:
    .endm

@ \a = (\a / speed) * target with fix's operators (fixed.hpp), speed in r3 (0.5 to 128 px), target
@ in r5 (below 128 px), r0 the SIO: q = floor(|a| 2^16 / speed) in two unsigned divisions
@ (|a| 2^8 fits 32 bits: |a| <= 100 px; the remainder 2^8 fits too), negated for a negative
@ a; then q * target by its three products, (q * th) + (qh * tl) + ((ql * tl) >> 16).
@ Uses r2, r4 and [sp + 4].
    .macro DIV_SCALE a
    movs r4, \a
    bpl 1f
    rsbs r4, r4, #0
1:  lsls r4, r4, #8
    str r4, [r0, #SIO_DIV_UDIVIDEND_OFFSET]
    str r3, [r0, #SIO_DIV_UDIVISOR_OFFSET]
    WAIT8
    ldr r4, [r0, #SIO_DIV_REMAINDER_OFFSET] @ remainder
    ldr r2, [r0, #SIO_DIV_QUOTIENT_OFFSET] @ quotient
    lsls r4, r4, #8
    str r4, [r0, #SIO_DIV_UDIVIDEND_OFFSET]
    str r3, [r0, #SIO_DIV_UDIVISOR_OFFSET]
    lsls r2, r2, #8
    WAIT8
    ldr r4, [r0, #SIO_DIV_QUOTIENT_OFFSET]
    adds r2, r2, r4            @ q
    cmp \a, #0
    bge 2f
    rsbs r2, r2, #0
2:  asrs r4, r5, #16
    muls r4, r2, r4
    str r4, [sp, #4]           @ q th
    uxth \a, r5                @ tl
    uxth r4, r2
    muls r4, \a, r4
    lsrs r4, r4, #16           @ (ql tl) >> 16
    asrs r2, r2, #16
    muls r2, \a, r2            @ qh tl
    adds r2, r2, r4
    ldr r4, [sp, #4]
    adds \a, r2, r4
    .endm

    .section .time_critical.flockscope_rules, "ax", %progbits
    .align 2
    .global flockscope_rules
    .type flockscope_rules, %function
    @ kRulesOff's exit, placed before the entry: within reach of the checks' short branches.
.Loff:
    movs r0, #RULES_OFF
    pop {r4-r7, pc}
    .thumb_func
flockscope_rules:
    push {r4-r7, lr}
    @ The sums whose means or products need them in [-2^23, 2^23) (v ^ (v >> 31) below
    @ 2^23): the velocity sums and the separation offsets.
    ldr r4, [r0, #SCAN_JOB_SUM_VX]
    asrs r5, r4, #31
    eors r4, r5
    ldr r5, [r0, #SCAN_JOB_SUM_VY]
    asrs r7, r5, #31
    eors r5, r7
    orrs r4, r5
    ldr r5, [r0, #SCAN_JOB_SEP_X]
    asrs r7, r5, #31
    eors r5, r7
    orrs r4, r5
    ldr r5, [r0, #SCAN_JOB_SEP_Y]
    asrs r7, r5, #31
    eors r5, r7
    orrs r4, r5
    lsrs r4, r4, #23
    bne .Loff
    lsls r2, r2, #2            @ slot k's word in the state arrays
    movs r4, #0
    mov r12, r4                @ r12: the change of vx
    mov lr, r4                 @ lr: the change of vy (the return address is on the stack)
    ldr r3, [r0, #SCAN_JOB_SEEN]
    cmp r3, #0
    ble .Lseparation

    @ ---- cohesion and alignment: the means of (x - x9), (y - y9), vx, vy over seen
    LOAD_SIO r6                @ the divider: SDIVIDEND, SDIVISOR, QUOTIENT
    ldr r4, [r0, #SCAN_JOB_X]
    muls r4, r3, r4
    ldr r5, [r0, #SCAN_JOB_SUM_X]
    subs r5, r5, r4            @ rel_x = sum_x - seen x9
    asrs r4, r5, #31
    eors r4, r5
    lsrs r4, r4, #23
    bne .Loff
    lsls r5, r5, #7
    str r5, [r6, #SIO_DIV_SDIVIDEND_OFFSET]
    str r3, [r6, #SIO_DIV_SDIVISOR_OFFSET] @ mean x: 11 cycles to its read
    ldr r4, [r0, #SCAN_JOB_Y]
    muls r4, r3, r4
    ldr r5, [r0, #SCAN_JOB_SUM_Y]
    subs r5, r5, r4            @ rel_y
    asrs r4, r5, #31
    eors r4, r5
    lsrs r4, r4, #23
    bne .Loff
    lsls r5, r5, #7
    NEXT_MEAN                  @ r7: mean x; mean y started, 12 cycles to its read
    ldr r4, [r1, #RULES_JOB_CENTERING]
    MUL_WEIGHT r7, r4, r5
    add r12, r7                @ + mean x * centering
    ldr r5, [r0, #SCAN_JOB_SUM_VX]
    lsls r5, r5, #7            @ sum_vx * 128
    NEXT_MEAN                  @ r7: mean y; mean vx started, 10 cycles to its read
    MUL_WEIGHT r7, r4, r5
    add lr, r7                 @ + mean y * centering
    ldr r5, [r0, #SCAN_JOB_SUM_VY]
    lsls r5, r5, #7            @ sum_vy * 128
    NEXT_MEAN                  @ r7: mean vx; mean vy started, 14 cycles to its read
    ldr r4, [r1, #RULES_JOB_VXS]
    ldr r4, [r4, r2]           @ vx
    subs r7, r7, r4
    ldr r4, [r1, #RULES_JOB_MATCHING]
    MUL_WEIGHT r7, r4, r5
    add r12, r7                @ + (mean vx - vx) * matching
    ldr r7, [r6, #SIO_DIV_QUOTIENT_OFFSET] @ mean vy
    ldr r5, [r1, #RULES_JOB_VYS]
    ldr r5, [r5, r2]           @ vy
    subs r7, r7, r5
    MUL_WEIGHT r7, r4, r5
    add lr, r7                 @ + (mean vy - vy) * matching

    @ ---- separation: the protected offsets (Q23.9 -> Q16.16) * avoid
.Lseparation:
    ldr r4, [r1, #RULES_JOB_AVOID]
    ldr r5, [r0, #SCAN_JOB_SEP_X]
    lsls r5, r5, #7
    MUL_WEIGHT r5, r4, r7
    add r12, r5
    ldr r5, [r0, #SCAN_JOB_SEP_Y]
    lsls r5, r5, #7
    MUL_WEIGHT r5, r4, r7
    add lr, r5

    @ ---- the margins: r4 x, r5 y, r7 the change of vx, r6 of vy
    ldr r4, [r1, #RULES_JOB_XS]
    ldr r4, [r4, r2]
    ldr r5, [r1, #RULES_JOB_YS]
    ldr r5, [r5, r2]
    mov r7, r12
    mov r6, lr
    ldr r3, [r1, #RULES_JOB_TURN]
    MARGIN r5, RULES_JOB_TOP, bge, adds, r6 @ y < top: vy + turn
    MARGIN r4, RULES_JOB_RIGHT, ble, subs, r7 @ x > right: vx - turn
    MARGIN r4, RULES_JOB_LEFT, bge, adds, r7 @ x < left: vx + turn
    MARGIN r5, RULES_JOB_BOTTOM, ble, subs, r6 @ y > bottom: vy - turn

    @ ---- the predators. First whether any is within the box of its range (|dx|, |dy| <
    @ range; an offset of INT32_MIN counts as within, for the loop below to refuse): most
    @ boids have none, and skip the sums' frame (27 cycles for one predator instead of 55). The
    @ changes of vx, vy wait in r12, lr; r7 the range, r3 the predators' end.
    ldr r3, [r1, #RULES_JOB_NPRED]
    cmp r3, #0
    beq .Lspeed
    mov r12, r7
    mov lr, r6
    ldr r0, [r1, #RULES_JOB_PREDATORS] @ the first predator (BoardPredator)
    lsls r3, r3, #BOARD_PREDATOR_SHIFT
    adds r3, r0, r3
    ldr r7, [r1, #RULES_JOB_PREDATOR_RANGE]
.Lpredator_box:
    ldr r6, [r0, #BOARD_PREDATOR_X]
    subs r6, r4, r6            @ dx
    bpl 1f
    rsbs r6, r6, #0
1:  cmp r6, r7
    bge 2f
    ldr r6, [r0, #BOARD_PREDATOR_Y]
    subs r6, r5, r6            @ dy
    bpl 1f
    rsbs r6, r6, #0
1:  cmp r6, r7
    blt .Lpredators_near
2:  adds r0, #BOARD_PREDATOR_SIZE
    cmp r0, r3
    blo .Lpredator_box
    mov r7, r12
    mov r6, lr
    b .Lspeed
    @ One is: [sp] sum of dx, [sp+4] of dy, [sp+8] how many, [sp+12] k * 4, [sp+16] the
    @ end of the predators, over all of them again.
.Lpredators_near:
    sub sp, #20
    ldr r0, [r1, #RULES_JOB_PREDATORS]
    str r3, [sp, #16]
    str r2, [sp, #12]
    movs r2, #0
    str r2, [sp, #0]
    str r2, [sp, #4]
    str r2, [sp, #8]
.Lpredator:
    ldr r6, [r0, #BOARD_PREDATOR_X]
    subs r6, r4, r6            @ dx = x - predator x
    ldr r7, [r0, #BOARD_PREDATOR_Y]
    subs r7, r5, r7            @ dy
    ldr r2, [r1, #RULES_JOB_PREDATOR_RANGE]
    movs r3, r6
    bpl 1f
    rsbs r3, r3, #0            @ |dx| (INT32_MIN stays negative: off the fast path)
    bmi .Loff_predators
1:  cmp r3, r2
    bge .Lnext_predator
    movs r3, r7
    bpl 1f
    rsbs r3, r3, #0
    bmi .Loff_predators
1:  cmp r3, r2
    bge .Lnext_predator
    SQUARE r6, r6, r2, r3           @ dx^2 and dy^2 (both below 128 px)
    SQUARE r7, r7, r2, r3
    adds r6, r6, r7            @ d2
    ldr r2, [r1, #RULES_JOB_PREDATOR_RANGE2]
    cmp r6, r2
    bge .Lnext_predator
    ldr r6, [r0, #BOARD_PREDATOR_X] @ within the range: dx, dy into the sums
    subs r6, r4, r6
    ldr r2, [sp, #0]
    adds r2, r2, r6
    str r2, [sp, #0]
    ldr r7, [r0, #BOARD_PREDATOR_Y]
    subs r7, r5, r7
    ldr r2, [sp, #4]
    adds r2, r2, r7
    str r2, [sp, #4]
    ldr r2, [sp, #8]
    adds r2, r2, #1
    str r2, [sp, #8]
.Lnext_predator:
    adds r0, r0, #BOARD_PREDATOR_SIZE
    ldr r3, [sp, #16]
    cmp r0, r3
    blo .Lpredator
    mov r7, r12
    mov r6, lr
    ldr r2, [sp, #8]
    cmp r2, #0
    beq 2f
    ldr r3, [r1, #RULES_JOB_PREDATOR_TURN] @ away from their summed offsets
    ldr r2, [sp, #4]
    AWAY r6
    ldr r2, [sp, #0]
    AWAY r7
2:  ldr r2, [sp, #12]
    add sp, #20

    @ ---- the velocity, its guard, its square; r12 x, lr y
.Lspeed:
    ldr r0, [r1, #RULES_JOB_VXS]
    ldr r0, [r0, r2]
    adds r7, r7, r0            @ vx
    ldr r0, [r1, #RULES_JOB_VYS]
    ldr r0, [r0, r2]
    adds r6, r6, r0            @ vy
    movs r0, #0x64
    lsls r0, r0, #16           @ 100 px/frame
    cmp r7, r0
    ble 1f
    movs r7, r0
1:  cmp r6, r0
    ble 1f
    movs r6, r0
1:  rsbs r0, r0, #0
    cmp r7, r0
    bge 1f
    movs r7, r0
1:  cmp r6, r0
    bge 1f
    movs r6, r0
1:  mov r12, r4
    mov lr, r5
    SQUARE r4, r7, r0, r3            @ vx^2
    SQUARE r5, r6, r0, r3            @ vy^2
    adds r4, r4, r5            @ v2
    ldr r0, [r1, #RULES_JOB_MIN2]
    cmp r4, r0
    blt .Llimit                @ v2 < min2
    ldr r0, [r1, #RULES_JOB_MAX2]
    cmp r4, r0
    bgt .Llimit                @ v2 > max2
.Lstore:
    ldr r0, [r1, #RULES_JOB_VXS]
    str r7, [r0, r2]
    ldr r0, [r1, #RULES_JOB_VYS]
    str r6, [r0, r2]
    mov r3, r12
    adds r3, r3, r7
    ldr r0, [r1, #RULES_JOB_XS]
    str r3, [r0, r2]           @ x + vx (dt 1)
    mov r3, lr
    adds r3, r3, r6
    ldr r0, [r1, #RULES_JOB_YS]
    str r3, [r0, r2]           @ y + vy
    movs r0, #RULES_DONE
    pop {r4-r7, pc}
.Loff_predators:
    add sp, #20
    b .Loff
.Llimit_caller:                @ speeds below 0.5 or from 128 px/frame: the caller's limit
    str r7, [r1, #RULES_JOB_OUT_VX]
    str r6, [r1, #RULES_JOB_OUT_VY]
    str r4, [r1, #RULES_JOB_OUT_V2]
    movs r0, #RULES_LIMIT
    pop {r4-r7, pc}

    @ ---- the speed limit (rules::limit_speed_sq), for v2 in [2^14, 2^30): 0.5 to 128 px
    @ a frame. The speed is fix's square root (fixed.hpp: isqrt_newton's seed and Newton
    @ step for the root of v2, then its 8 low bits t from one division); then each
    @ component / speed * target as fix's operators give it (DIV_SCALE).
.Llimit:
    lsrs r0, r4, #14
    beq .Llimit_caller
    lsrs r0, r4, #30
    bne .Llimit_caller
    movs r3, #8                @ s: the first even shift with (v2 >> s) < 256
1:  movs r0, r4
    lsrs r0, r0, r3
    cmp r0, #255
    bls 2f
    adds r3, r3, #2
    b 1b
2:  ldr r5, [r1, #RULES_JOB_SQRT_SEEDS]
    subs r0, r0, #SQRT_SEEDS_FIRST
    ldrb r0, [r5, r0]
    lsrs r3, r3, #1
    subs r3, r3, #4
    lsls r0, r0, r3            @ g = seed << (s / 2 - 4)
    LOAD_SIO r5                @ the divider: UDIVIDEND, UDIVISOR, QUOTIENT
    str r4, [r5, #SIO_DIV_UDIVIDEND_OFFSET]
    str r0, [r5, #SIO_DIV_UDIVISOR_OFFSET]
    WAIT8
    ldr r3, [r5, #SIO_DIV_QUOTIENT_OFFSET] @ v2 / g
    adds r3, r3, r0
    lsrs r3, r3, #1            @ r = (g + v2 / g) / 2
1:  movs r0, r3
    muls r0, r3, r0
    cmp r0, r4
    bls 2f
    subs r3, r3, #1            @ while r^2 > v2: r - 1
    b 1b
2:  subs r4, r4, r0
    lsls r4, r4, #16           @ rem = (v2 - r^2) 2^16
    lsls r0, r3, #9
    str r4, [r5, #SIO_DIV_UDIVIDEND_OFFSET]
    str r0, [r5, #SIO_DIV_UDIVISOR_OFFSET]
    WAIT8
    ldr r5, [r5, #SIO_DIV_QUOTIENT_OFFSET] @ t = rem / (512 r), at most 255
    cmp r5, #255
    bls 1f
    movs r5, #255
1:  lsls r0, r3, #9
    adds r0, r0, r5
    muls r0, r5, r0            @ 512 r t + t^2
    cmp r0, r4
    bls 2f
    subs r5, r5, #1            @ while it exceeds rem: t - 1
    b 1b
2:  lsls r3, r3, #8
    adds r3, r3, r5            @ the speed: 256 r + t
    ldr r0, [r1, #RULES_JOB_MINSPEED]
    movs r5, r3                @ the target: the speed within [minspeed, maxspeed]
    cmp r3, r0
    bge 1f
    movs r5, r0
1:  ldr r0, [r1, #RULES_JOB_MAXSPEED]
    cmp r5, r0
    ble 1f
    movs r5, r0
1:  cmp r5, r3
    beq .Lstore                @ the same speed: the velocity stays
    sub sp, #8                 @ [sp] k * 4, [sp + 4] DIV_SCALE's
    str r2, [sp, #0]
    LOAD_SIO r0
    DIV_SCALE r7
    DIV_SCALE r6
    ldr r2, [sp, #0]
    add sp, #8
    b .Lstore

    .size flockscope_rules, . - flockscope_rules

@ flockscope_update_run(UpdateRun* run, uint32_t k, uint32_t end): a cell's slots [k, end)
@ through the fast scan and flockscope_rules, as the C++ version in board_update.cpp (the
@ host's): returns the first slot it did not finish (run->code: kRunScout, or the rules'
@ code), or end. Per slot: the scout test, the job's position from the snapshot, the
@ stencil trimmed (BoardFlock::trim_runs, when run->trim is set), the scan (timed through
@ run->clock when set), the rules.
@ The scan runs inline: this routine sets the scan loop's registers and stack slots (see
@ scan_m0.S: r1, r2 the boid, r3 the interpolators, r8 visual2, r9 protected2, r10 seen,
@ r11 1, r12 sep x; [sp+4] the next run, [sp+16] sep y) and enters the job's first run;
@ the run after the last has this routine's .Lrun_scanned (.Lrun_timed with the clock) as
@ its entry (set once per call), so the scan's loops come back here without a call, and
@ the ranges and the constant stay in their registers from slot to slot (flockscope_rules
@ keeps r4-r11). The job's runs come with their entries (make_runs), or, with top not
@ null, the routine first makes the cell's job itself (5 x 5 cells: reach 2) as
@ BoardFlock::make_cell_runs does: the five runs with their entries and the trim's edges
@ and slots, about 160 cycles a cell (make_cell_runs takes about twice that).
@ Stack: [sp] run, [sp+8] k, [sp+12] end, [sp+20] the clock before the scan.
#if UPDATE_RUN_WIDTH != 5
#error "flockscope_update_run makes the five runs of a 5 x 5 stencil (CELL_ROW five times)"
#endif
    M0_ROUTINE flockscope_update_run
    SCAN_FRAME_ENTER
    str r0, [sp, #0]
    str r1, [sp, #8]
    str r2, [sp, #12]
    cmp r1, r2
    blo 2f
    b .Lrun_end
2:  movs r5, r0
    ldr r0, [r5, #UPDATE_RUN_JOB] @ the job: its runs and their entries (make_runs), or
    ldr r6, [r5, #UPDATE_RUN_TOP] @ top not null: the cell's job made here first
    cmp r6, #0
    bne 12f
    b 4f
12: mov r10, r6                @ (r8-r11 are free until the scan's setup below)
    ldr r4, [r5, #UPDATE_RUN_ROW_BYTES]
    mov r8, r4                 @ the bytes from one stencil row's cell starts to the next
    ldr r4, [r5, #UPDATE_RUN_NEAR]
    mov r9, r4                 @ near
    movs r4, #UPDATE_RUN_WIDTH
    str r4, [r0, #SCAN_JOB_RUNS]
    ldr r1, =flockscope_scan_entries
    movs r3, #SCAN_JOB_RUN
    adds r3, r0, r3
    CELL_ROW                   @ the top row: run[0]
    adds r3, #SCAN_RUN_SIZE
    movs r4, #SCAN_JOB_MIDDLE_WHOLE
    ldr r4, [r0, r4]           @ middle_whole: the middle rows' entries without the test
    cmp r4, #0                 @ on dy alone
    beq 10f
    adds r1, #(SCAN_ENTRIES_WHOLE * 4)
10: CELL_ROW                   @ the middle rows: run[2], run[3], run[4]
    CELL_ROW
    CELL_ROW
    ldr r1, =flockscope_scan_entries
    movs r3, #(SCAN_JOB_RUN + SCAN_RUN_SIZE)
    adds r3, r0, r3
    CELL_ROW                   @ the bottom row: run[1]
    ldr r1, [r5, #UPDATE_RUN_TRIM] @ the trim: its edges (Q23.9) and the outer rows' slots
    cmp r1, #0
    beq 11f
    ldr r2, [r5, #UPDATE_RUN_LINES_X] @ lines_x: the stencil's second column's line, ...
    TRIM_EDGE 0, STENCIL_TRIM_LEFT9
    TRIM_EDGE ((UPDATE_RUN_WIDTH - 2) * GRID_LINE_SIZE), STENCIL_TRIM_RIGHT9 @ 5th column
    ldr r2, [r5, #UPDATE_RUN_LINES_Y] @ lines_y
    TRIM_EDGE 0, STENCIL_TRIM_TOP9
    TRIM_EDGE ((UPDATE_RUN_WIDTH - 2) * GRID_LINE_SIZE), STENCIL_TRIM_BOTTOM9
    mov r6, r10
    TRIM_SLOTS STENCIL_TRIM_TOP
    mov r4, r8
    lsls r4, r4, #2
    adds r6, r6, r4
    TRIM_SLOTS STENCIL_TRIM_BOTTOM
11: movs r4, #0
    str r4, [r5, #UPDATE_RUN_TOP] @ made: a later call for the same cell keeps it
4:  ldr r4, [r0, #SCAN_JOB_RUNS]
    movs r6, #SCAN_RUN_SIZE
    muls r4, r6, r4
    adds r4, r4, r0
    adds r4, #SCAN_JOB_RUN     @ &run[runs]
5:  ldr r6, =.Lrun_scanned + 1 @ the scan's end: back here (timed with the profile clock)
    ldr r1, [r5, #UPDATE_RUN_CLOCK]
    cmp r1, #0
    beq 13f
    ldr r6, =.Lrun_timed + 1
13: str r6, [r4, #SCAN_RUN_ENTRY]
    INTERPS_R3
    SCAN_LANES
    ldr r6, [r0, #SCAN_JOB_VISUAL2]
    mov r8, r6                 @ visual2
    ldr r6, [r0, #SCAN_JOB_PROTECTED2]
    mov r9, r6                 @ protected2
    movs r6, #1
    mov r11, r6
.Lslot:
    ldr r5, [sp, #0]
    ldr r6, [sp, #8]           @ k
    ldr r1, [r5, #UPDATE_RUN_SCOUT_END] @ no scouts, no test
    cmp r1, #0
    beq 7f
    ldr r0, [r5, #UPDATE_RUN_ID] @ id[k]
    lsls r2, r6, #1
    ldrh r0, [r0, r2]
    cmp r0, r1
    bhs 7f
    b .Lrun_scout
7:  ldr r0, [r5, #UPDATE_RUN_NEAR] @ near[k]: the job's position
    lsls r1, r6, #NEAR_BOID_SHIFT
    adds r1, r0, r1
    ldr r2, [r1, #NEAR_BOID_X]
    ldr r3, [r1, #NEAR_BOID_Y]
    ldr r0, [r5, #UPDATE_RUN_JOB]
    str r2, [r0, #SCAN_JOB_X]
    str r3, [r0, #SCAN_JOB_Y]
    ldr r1, [r5, #UPDATE_RUN_TRIM]
    cmp r1, #0
    beq .Lrun_scan
    ldr r4, [r1, #STENCIL_TRIM_LEFT9]
    subs r4, r2, r4
    muls r4, r4, r4            @ l2: to the left column's inner edge, squared
    ldr r6, [r1, #STENCIL_TRIM_RIGHT9]
    subs r6, r6, r2
    muls r6, r6, r6
    mov lr, r6                 @ r2: the right column's
    ldr r2, [r1, #STENCIL_TRIM_TOP9]
    subs r2, r3, r2
    muls r2, r2, r2            @ t2: the top row's
    ldr r7, [r1, #STENCIL_TRIM_BOTTOM9]
    subs r3, r7, r3
    muls r3, r3, r3            @ b2: the bottom row's
    ldr r7, [r0, #SCAN_JOB_VISUAL2]
    TRIM_ROW r2, STENCIL_TRIM_TOP, SCAN_JOB_RUN @ the top row: run[0]
    TRIM_ROW r3, STENCIL_TRIM_BOTTOM, (SCAN_JOB_RUN + SCAN_RUN_SIZE) @ bottom row: run[1]
    ldr r1, =flockscope_scan_entries
    movs r3, #SCAN_JOB_RUN
    adds r3, r0, r3            @ the two trimmed outer rows' entries
    RUNS_ENTRIES 2
.Lrun_scan:
    ldr r1, [r5, #UPDATE_RUN_CLOCK]
    cmp r1, #0
    beq 6f
    blx r1
    str r0, [sp, #20]          @ the clock before the scan
6:  ldr r0, [r5, #UPDATE_RUN_JOB] @ the scan: the boid, the sums zeroed, the first run
    ldr r1, [r0, #SCAN_JOB_X]
    ldr r2, [r0, #SCAN_JOB_Y]
    SCAN_ZERO
    movs r5, #SCAN_JOB_RUN
    adds r5, r0, r5            @ &run[0]
    NEXT_RUN
.Lrun_scanned:                 @ the scan's end: its sums into the job
    ldr r5, [sp, #0]
    ldr r0, [r5, #UPDATE_RUN_JOB]
    SCAN_SUMS
.Lrun_rules:
    ldr r0, [r5, #UPDATE_RUN_JOB]
    ldr r1, [r5, #UPDATE_RUN_RULES]
    ldr r2, [sp, #8]
    bl flockscope_rules
    cmp r0, #RULES_DONE
    bne .Lrun_stop
    ldr r0, [sp, #8]
    adds r0, r0, #1
    str r0, [sp, #8]
    ldr r1, [sp, #12]
    cmp r0, r1
    bhs .Lrun_end
    b .Lslot
.Lrun_end:
    ldr r0, [sp, #12]
    b .Lrun_return
.Lrun_timed:                   @ the same with the profile clock: the scan's cycles counted
    ldr r5, [sp, #0]
    ldr r0, [r5, #UPDATE_RUN_JOB]
    SCAN_SUMS
    ldr r1, [r5, #UPDATE_RUN_CLOCK]
    blx r1
    ldr r4, [sp, #20]
    subs r0, r0, r4
    lsls r0, r0, #8            @ modulo 2^24
    lsrs r0, r0, #8
    ldr r1, [r5, #UPDATE_RUN_SCAN_CYCLES]
    adds r1, r1, r0
    str r1, [r5, #UPDATE_RUN_SCAN_CYCLES]
    b .Lrun_rules
.Lrun_scout:
    movs r0, #RUN_SCOUT
.Lrun_stop:
    ldr r5, [sp, #0]
    str r0, [r5, #UPDATE_RUN_CODE]
    ldr r0, [sp, #8]
.Lrun_return:
    SCAN_FRAME_RETURN
    .ltorg
    .size flockscope_update_run, . - flockscope_update_run
