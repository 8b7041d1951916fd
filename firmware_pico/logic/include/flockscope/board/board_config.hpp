// Every build switch of the board, with its default: set with -D (firmware_pico/CMakeLists.txt
// makes the firmware images from them; the host build of the logic takes the defaults).
//
//   FLOCKSCOPE_SINGLE_CORE   everything on core 0 (the one-core emulator image; rp2040js itself
//                            has one core, emulator/dual_core.mjs adds the second)
//   FLOCKSCOPE_NO_VGA        no PIO/DMA scan-out (the emulator has no real PIO timing); the
//                            frame is still drawn into the RAM framebuffer, so the measured
//                            cycles include drawing
//   FLOCKSCOPE_INITIAL_BOIDS the boids the board starts with (unset: the lab's default)
//   FLOCKSCOPE_SCAN_ASM      the neighbour scan in Thumb-1 assembly (scan_m0.S; RP2040 builds)
#pragma once

// Capacity (the RAM budget in firmware_pico/README.md).
#ifndef FLOCKSCOPE_MAX_BOIDS
#define FLOCKSCOPE_MAX_BOIDS 4000
#endif

// The system clock: the SDK's 125 MHz, or 200 MHz (the core voltage raised to 1.15 V first,
// as the RP2040's datasheet asks from SDK 2.1 on; USB keeps its own 48 MHz PLL, VGA
// re-derives its dividers from the clock).
#ifndef FLOCKSCOPE_SYS_CLOCK_KHZ
#define FLOCKSCOPE_SYS_CLOCK_KHZ 125000
#endif
#if FLOCKSCOPE_SYS_CLOCK_KHZ != 125000 && FLOCKSCOPE_SYS_CLOCK_KHZ != 200000
#error "FLOCKSCOPE_SYS_CLOCK_KHZ: 125000 or 200000 (the VGA pixel clock is 25 MHz, a whole number of cycles)"
#endif

// The neighbour grid's stencil radius in cells (BoardFlock::set_reach). Measured in the
// emulator (firmware_pico/README.md), reach 2 is the fastest at the lab's densities:
// reach 3's finer cells leave room for only one cell of margin, so clumped flocks off
// screen crowd the clamped cells.
#ifndef FLOCKSCOPE_GRID_REACH
#define FLOCKSCOPE_GRID_REACH 2
#endif

// Grid cells (a 2-byte cell start each): 3,584 hold the lab's 640 x 480 screen in cells of
// half the 40 px range (20 px) with 16 cells (320 px) of margin: clumped flocks fly up to
// 300 px off screen, and a boid whose stencil reaches the clamped outermost cells takes the
// slower edge scan (with 8 cells of margin, 1,850 cells, that was 8 % of the lab's clumped
// flock and a tenth of its frame).
#ifndef FLOCKSCOPE_MAX_CELLS
#define FLOCKSCOPE_MAX_CELLS 3584
#endif

// VGA pins, each through a resistor to the VGA connector (firmware_pico/vga.hpp).
#ifndef FLOCKSCOPE_VGA_HSYNC_PIN
#define FLOCKSCOPE_VGA_HSYNC_PIN 16
#endif
#ifndef FLOCKSCOPE_VGA_VSYNC_PIN
#define FLOCKSCOPE_VGA_VSYNC_PIN 17
#endif
#ifndef FLOCKSCOPE_VGA_VIDEO_PIN
#define FLOCKSCOPE_VGA_VIDEO_PIN 18
#endif
