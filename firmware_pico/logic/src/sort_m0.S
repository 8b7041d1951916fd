@ flockscope_sort_finish(const SortFinishJob* job) for the Cortex-M0+ (RP2040): the last
@ pass of the board's counting sort, the same as its C++ version in board_flock.cpp (the
@ host's): for each slot, the state scattered into `near` (Q16.16) back to the state
@ arrays x, y, vx, vy, and `near` rounded in place to the Q23.9 snapshot the neighbour
@ scans read (round_q9: (raw + 64) >> 7, arithmetic). The C++ compiler kept the six
@ pointers in the stack and high registers (48 cycles a slot); here a slot is one LDM, one
@ STM and four stores through one address stepped by the arrays' distances: 35 cycles.
@
@ SortFinishJob offsets (board_flock.cpp): near 0, near_end 4, x 8, y 12, vx 16, vy 20
@ (the arrays from the first slot on).
@ Registers in the loop: r0 near, r2 x, r3 scratch address, r4-r7 a slot, r8 y - x,
@ r9 vx - y, r10 vy - vx (bytes), r12 near_end.
    .syntax unified
    .cpu cortex-m0plus
    .thumb
    .section .time_critical.flockscope_sort_finish, "ax", %progbits
    .align 2
    .global flockscope_sort_finish
    .type flockscope_sort_finish, %function
    .thumb_func
flockscope_sort_finish:
    push {r4-r7, lr}
    mov r4, r8
    mov r5, r9
    mov r6, r10
    push {r4-r6}
    ldr r1, [r0, #4]
    mov r12, r1                @ near_end
    ldr r2, [r0, #8]           @ x
    ldr r4, [r0, #12]          @ y
    ldr r5, [r0, #16]          @ vx
    ldr r6, [r0, #20]          @ vy
    subs r6, r6, r5
    mov r10, r6
    subs r5, r5, r4
    mov r9, r5
    subs r4, r4, r2
    mov r8, r4
    ldr r0, [r0, #0]           @ near
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
    subs r0, #16
    stm r0!, {r4-r7}
    adds r2, #4
    cmp r0, r12
    blo 1b
2:  pop {r4-r6}
    mov r8, r4
    mov r9, r5
    mov r10, r6
    pop {r4-r7, pc}
    .size flockscope_sort_finish, . - flockscope_sort_finish
