@ flockscope_sort_finish(const SortFinishJob* job) for the Cortex-M0+ (RP2040): the last
@ pass of the board's counting sort, the same as its C++ version in board_flock.cpp (the
@ host's): for each slot, the state scattered into `near` (Q16.16) back to the state
@ arrays x, y, vx, vy, and `near` rounded in place to the Q23.9 snapshot the neighbour
@ scans read (round_q9: (raw + 64) >> 7, arithmetic; the velocity packed into one word,
@ pack_v9). The C++ compiler kept the six pointers in the stack and high registers;
@ here a slot is one LDM, one STM and four stores through one address stepped by the
@ arrays' distances: 45 cycles with the velocity's test and packing.
@
@ SortFinishJob offsets (board_flock.cpp): near 0, near_end 4, x 8, y 12, vx 16, vy 20
@ (the arrays from the first slot on).
@ Registers in the loop: r0 near, r1 scratch, r2 x, r3 scratch, r4-r7 a slot, r8 y - x,
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
4:  subs r0, #16
    stm r0!, {r4-r7}           @ x, y, v, w (vy)
    adds r2, #4
    cmp r0, r12
    blo 1b
2:  pop {r4-r6}
    mov r8, r4
    mov r9, r5
    mov r10, r6
    pop {r4-r7, pc}
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
