@ flockscope_clear_rows(uint32_t* row, uint32_t rows) for the Cortex-M0+ (RP2040): zeroes
@ `rows` framebuffer rows of 20 words (640 one-bit pixels) from `row` on, the same as its
@ C++ version in draw.cpp (the host's). Framebuffer::clear: each frame the two cores clear
@ their bands of rows before they draw the dots (main.cpp, draw_band). Three STMs of six
@ zero registers and one of two a row: 27 cycles a row with the loop, about 13 K cycles
@ for the screen (the compiler's memset call through the boot ROM: 8 cycles a word).
    .syntax unified
    .cpu cortex-m0plus
    .thumb
    .section .time_critical.flockscope_clear_rows, "ax", %progbits
    .align 2
    .global flockscope_clear_rows
    .type flockscope_clear_rows, %function
    .thumb_func
flockscope_clear_rows:
    cmp r1, #0
    beq 2f
    push {r4-r7}
    movs r2, #0
    movs r3, #0
    movs r4, #0
    movs r5, #0
    movs r6, #0
    movs r7, #0
1:  stm r0!, {r2-r7}
    stm r0!, {r2-r7}
    stm r0!, {r2-r7}
    stm r0!, {r2, r3}
    subs r1, #1
    bne 1b
    pop {r4-r7}
2:  bx lr
    .size flockscope_clear_rows, . - flockscope_clear_rows
