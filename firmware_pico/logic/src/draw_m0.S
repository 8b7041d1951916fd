    .syntax unified
    .cpu cortex-m0plus
    .thumb
#include "frame_m0.inc"

@ flockscope_draw_dots(const DotsJob* job) for the Cortex-M0+ (RP2040): the boids' 2x2 dots
@ over the whole screen (one core's drawing; draw_boids_rows), the same as its C++ version
@ in draw.cpp (the host's). DotsJob (draw.hpp) by its names in asm_offsets.h. A
@ boid's pixel is int32(raw + 64) >> 16 of its Q16.16 state (round_q9's rounding); a dot
@ inside the screen that does not straddle two words is two read-modify-writes of one
@ mask (38 cycles a boid with the loop, the compiler's ~57); the others (the screen's
@ edges, x = 31 mod 32) go through flockscope_dot2_edge (Framebuffer::dot2: clipped).
@ Registers in the loop: r4 x, r5 y, r6 ys - xs (bytes), r7 &xs[k], r8 FB_HEIGHT - 1 (the
@ last row a dot's top may be on is FB_HEIGHT - 2), r9 words, r10 &xs[n]; r0-r3 scratch.
#if FIX_SIZE != 4 || FB_ROW_BYTES != 4 * FB_ROW_WORDS
#error "flockscope_draw_dots: a fix is one word, a row FB_ROW_WORDS words"
#endif
    M0_ROUTINE flockscope_draw_dots
    ENTER_R4_R11
    ldr r4, [r0, #DOTS_JOB_WORDS]
    mov r9, r4                 @ words
    ldr r7, [r0, #DOTS_JOB_XS] @ xs
    ldr r6, [r0, #DOTS_JOB_YS]
    subs r6, r6, r7            @ ys - xs
    ldr r4, [r0, #DOTS_JOB_N]
    lsls r4, r4, #2
    adds r4, r4, r7
    mov r10, r4                @ &xs[n]
    ldr r4, =(FB_HEIGHT - 1)
    mov r8, r4
    cmp r7, r10
    bhs 3f
1:  ldr r4, [r7, #0]
    ldr r5, [r7, r6]
    adds r7, #FIX_SIZE
    adds r4, #64
    asrs r4, r4, #16           @ x
    adds r5, #64
    asrs r5, r5, #16           @ y
    lsrs r3, r4, #5            @ its word in the row (x < 0: huge)
    cmp r3, #FB_ROW_WORDS
    bhs 5f
    movs r2, #31
    ands r2, r4
    cmp r2, #31
    beq 5f                     @ x = 31 mod 32: the dot straddles two words
    cmp r5, r8
    bhs 5f                     @ y outside [0, 479)
    movs r1, #3
    lsls r1, r2                @ the dot's two pixels
    movs r2, #FB_ROW_BYTES
    muls r2, r5, r2
    lsls r3, r3, #2
    adds r3, r3, r2
    add r3, r9                 @ its word in row y
    ldr r2, [r3, #0]
    orrs r2, r1
    str r2, [r3, #0]
    ldr r2, [r3, #FB_ROW_BYTES] @ and in row y + 1
    orrs r2, r1
    str r2, [r3, #FB_ROW_BYTES]
2:  cmp r7, r10
    blo 1b
3:  RETURN_R4_R11
5:  mov r0, r9
    movs r1, r4
    movs r2, r5
    bl flockscope_dot2_edge
    b 2b
    .ltorg
    .size flockscope_draw_dots, . - flockscope_draw_dots
