@ flockscope's boot ROM stand-in for the rp2040js emulator (our own, not the Raspberry Pi
@ boot ROM): just what a Pico SDK program needs of the ROM when it boots from flash.
@
@  0x00  vector table: initial stack pointer, reset
@  0x10  'M' 'u' 0x01 version  (the magic the SDK's ROM helpers expect)
@  0x14  u16 pointer to the function table, 0x16 to the data table, 0x18 to the lookup
@        function: rom_table_lookup(table, code) -> address or 0
@  function table: (u16 code, u16 address|1) pairs, code 0 ends it. The SDK looks these up
@        at start-up (pico_mem_ops: MS MC S4 C4; pico_bit_ops: P3 L3 T3 R3; and no-op
@        flash routines IF EX RE RP FC CX, see below). No float or
@        double routines: the emulator image is built with the compiler's float/double.
@  reset: as the real ROM does for a flash boot, copy the 256-byte boot2 from the start of
@        flash to 0x20041f00 and call it with lr = 0, so boot2 vectors into the image at
@        0x10000100.
@
@ Assembled by firmware_pico/build.sh: arm-none-eabi-gcc -nostdlib -Ttext=0 -> bootrom.bin,
@ with the Pico SDK's register headers (hardware/regs/addressmap.h: XIP_BASE, SRAM_END) on
@ the include path.
#include "hardware/regs/addressmap.h"

@ Where the real ROM copies boot2 (the last 256 bytes of SRAM) and runs it from.
#define BOOT2_COPY (SRAM_END - 256)

    .syntax unified
    .cpu cortex-m0plus
    .thumb
    .section .text

    .org 0x00
    .word BOOT2_COPY            @ initial SP: just below the boot2 copy (its stack grows down)
    .word rom_reset + 1
    .word rom_hang + 1          @ NMI
    .word rom_hang + 1          @ HardFault

    .org 0x10
    .byte 'M', 'u', 0x01, 0x03
    .hword func_table
    .hword data_table
    .hword rom_table_lookup + 1

    .align 2
rom_reset:
    ldr r0, =XIP_BASE           @ boot2: 64 words from flash
    ldr r1, =BOOT2_COPY
    movs r2, #64
1:  ldr r3, [r0]
    str r3, [r1]
    adds r0, #4
    adds r1, #4
    subs r2, #1
    bne 1b
    movs r0, #0
    mov lr, r0                  @ lr = 0: "entered from the boot ROM"
    ldr r0, =(BOOT2_COPY + 1)   @ a Thumb address
    bx r0

rom_hang:
    b rom_hang

@ void *rom_table_lookup(const uint16_t *table, uint32_t code)
rom_table_lookup:
1:  ldrh r2, [r0]
    cmp r2, #0
    beq 2f
    cmp r2, r1
    beq 3f
    adds r0, #4
    b 1b
2:  movs r0, #0
    bx lr
3:  ldrh r0, [r0, #2]
    bx lr

@ uint8_t *memset(uint8_t *ptr, uint8_t c, uint32_t n)
@ uint32_t *memset4(uint32_t *ptr, uint8_t c, uint32_t n)   (one routine is correct for both)
@ Bytes up to a word boundary, then whole words, then the last bytes: the real ROM's
@ memset stores words too, so the emulator's cycle counts of a zeroed table (the sort's
@ tallies, the status line) are not four times the board's.
rom_memset:
    mov r12, r0                @ the result: ptr
    mov r3, r0
    lsls r1, r1, #24           @ the byte, four times
    lsrs r1, r1, #24
    lsls r0, r1, #8
    orrs r1, r0
    lsls r0, r1, #16
    orrs r1, r0
1:  cmp r2, #0                 @ bytes until r3 is word aligned
    beq 4f
    lsls r0, r3, #30
    beq 3f
    strb r1, [r3]
    adds r3, #1
    subs r2, #1
    b 1b
3:  cmp r2, #4                 @ whole words
    blo 5f
    str r1, [r3]
    adds r3, #4
    subs r2, #4
    b 3b
5:  cmp r2, #0                 @ the last bytes
    beq 4f
    strb r1, [r3]
    adds r3, #1
    subs r2, #1
    b 5b
4:  mov r0, r12
    bx lr

@ uint8_t *memcpy(uint8_t *dest, const uint8_t *src, uint32_t n)
@ Whole words while both pointers are word aligned (as the real ROM's memcpy copies them),
@ then bytes.
rom_memcpy:
    push {r4}
    mov r3, r0
    mov r4, r0
    orrs r4, r1
    lsls r4, r4, #30
    bne 3f
4:  cmp r2, #4
    blo 3f
    ldr r4, [r1]
    str r4, [r3]
    adds r1, #4
    adds r3, #4
    subs r2, #4
    b 4b
3:  cmp r2, #0
    beq 2f
1:  ldrb r4, [r1]
    strb r4, [r3]
    adds r1, #1
    adds r3, #1
    subs r2, #1
    bne 1b
2:  pop {r4}
    bx lr

@ uint32_t *memcpy44(uint32_t *dest, const uint32_t *src, uint32_t n): word aligned, n bytes
rom_memcpy44:
    push {r4}
    mov r3, r0
    lsrs r2, r2, #2
    beq 2f
1:  ldr r4, [r1]
    str r4, [r3]
    adds r1, #4
    adds r3, #4
    subs r2, #1
    bne 1b
2:  pop {r4}
    bx lr

@ uint32_t popcount32(uint32_t v)
rom_popcount32:
    movs r1, #0
1:  cmp r0, #0
    beq 2f
    lsrs r0, r0, #1
    bcc 1b
    adds r1, #1
    b 1b
2:  mov r0, r1
    bx lr

@ uint32_t clz32(uint32_t v): 32 for 0
rom_clz32:
    movs r1, #32
1:  cmp r0, #0
    beq 2f
    lsrs r0, r0, #1
    subs r1, #1
    b 1b
2:  mov r0, r1
    bx lr

@ uint32_t ctz32(uint32_t v): 32 for 0
rom_ctz32:
    movs r1, #0
    cmp r0, #0
    beq 3f
1:  lsrs r0, r0, #1
    bcs 2f
    adds r1, #1
    b 1b
2:  mov r0, r1
    bx lr
3:  movs r0, #32
    bx lr

@ The flash routines (connect_internal_flash, flash_exit_xip, flash_range_erase,
@ flash_range_program, flash_flush_cache, flash_enter_cmd_xip): no-ops. The emulated flash
@ is plain memory; the flockscope firmware never writes it, but a library that reaches for
@ them (e.g. reading the flash's unique id) must not jump to address 0.
rom_flash_nop:
    bx lr

@ uint32_t reverse32(uint32_t v)
rom_reverse32:
    movs r1, #0
    movs r2, #32
1:  lsrs r0, r0, #1
    adcs r1, r1
    subs r2, #1
    bne 1b
    mov r0, r1
    bx lr

    .ltorg

    .align 2
func_table:
    .hword 'M' | ('S' << 8), rom_memset + 1
    .hword 'M' | ('C' << 8), rom_memcpy + 1
    .hword 'S' | ('4' << 8), rom_memset + 1
    .hword 'C' | ('4' << 8), rom_memcpy44 + 1
    .hword 'P' | ('3' << 8), rom_popcount32 + 1
    .hword 'L' | ('3' << 8), rom_clz32 + 1
    .hword 'T' | ('3' << 8), rom_ctz32 + 1
    .hword 'R' | ('3' << 8), rom_reverse32 + 1
    .hword 'I' | ('F' << 8), rom_flash_nop + 1
    .hword 'E' | ('X' << 8), rom_flash_nop + 1
    .hword 'R' | ('E' << 8), rom_flash_nop + 1
    .hword 'R' | ('P' << 8), rom_flash_nop + 1
    .hword 'F' | ('C' << 8), rom_flash_nop + 1
    .hword 'C' | ('X' << 8), rom_flash_nop + 1
    .hword 0, 0
data_table:
    .hword 0, 0
