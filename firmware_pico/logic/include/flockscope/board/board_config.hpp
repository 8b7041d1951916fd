// Every compile-time switch of the board firmware, each with its default and what it is
// for. Set them with -D: firmware_pico/CMakeLists.txt makes the firmware images from them
// (and FLOCKSCOPE_FW_DEFINES at configure time adds any of them to every image, e.g.
// -DFLOCKSCOPE_FW_DEFINES="FLOCKSCOPE_INITIAL_BOIDS=2000"); the host build of the logic
// takes the defaults. The files that read a switch include this header and define no
// default of their own. On/off switches are 0 or 1, read with #if.
//
// Two switches belong to usb_descriptors.c, which the drop-in link library
// (protocol/pico) also compiles in a student's project without this header, so they are
// read there alone: FLOCKSCOPE_NO_UNIQUE_ID (defined: no flash unique id for the USB
// serial number; the emulator images, which have none) and FLOCKSCOPE_USB_PRODUCT (the USB
// product string; the link library names its own board).
//
// Sections: images | assembly | capacity | clock | grid | VGA pins
#pragma once

// ---- images

// 1: everything on core 0 (the one-core emulator image; rp2040js itself has one core,
// emulator/dual_core.mjs adds the second). 0: the update, the sort and the drawing shared
// by both cores.
#ifndef FLOCKSCOPE_SINGLE_CORE
#define FLOCKSCOPE_SINGLE_CORE 0
#endif

// 1: no PIO/DMA scan-out (the emulator images: rp2040js has no real PIO timing). The frame
// is still drawn into the RAM framebuffer, so the measured cycles include drawing.
#ifndef FLOCKSCOPE_NO_VGA
#define FLOCKSCOPE_NO_VGA 0
#endif

// The boids the board starts with; 0 spawns until the frame budget is used (the lab's
// way, BoardConfig::boids). Profiling images set a fixed count.
#ifndef FLOCKSCOPE_INITIAL_BOIDS
#define FLOCKSCOPE_INITIAL_BOIDS 0
#endif

// ---- assembly

// 1: the Thumb-1 routines (logic/src/*_m0.S, in RAM) instead of their C++ versions: the
// neighbour scan (scan_m0.S), the rules' fast path and the update run (rules_m0.S), the
// sort's per-boid passes and the zeroing of words (sort_m0.S), the boids' dots
// (draw_m0.S). The RP2040 images set all four (and assemble the .S files); the host build,
// which cannot run them, takes the C++.
#ifndef FLOCKSCOPE_SCAN_ASM
#define FLOCKSCOPE_SCAN_ASM 0
#endif
#ifndef FLOCKSCOPE_RULES_ASM
#define FLOCKSCOPE_RULES_ASM 0
#endif
#ifndef FLOCKSCOPE_SORT_ASM
#define FLOCKSCOPE_SORT_ASM 0
#endif
#ifndef FLOCKSCOPE_DRAW_ASM
#define FLOCKSCOPE_DRAW_ASM 0
#endif

// ---- capacity

// Boids the static arrays hold (the RAM budget in firmware_pico/README.md).
#ifndef FLOCKSCOPE_MAX_BOIDS
#define FLOCKSCOPE_MAX_BOIDS 4000
#endif

// ---- clock

// The system clock: the SDK's 125 MHz, or 200 MHz (the core voltage raised to 1.15 V first,
// as the RP2040's datasheet asks from SDK 2.1 on; USB keeps its own 48 MHz PLL, VGA
// re-derives its dividers from the clock). The RP2350 keeps the SDK's 150 MHz.
#ifndef FLOCKSCOPE_SYS_CLOCK_KHZ
#if PICO_RP2350
#define FLOCKSCOPE_SYS_CLOCK_KHZ 150000
#else
#define FLOCKSCOPE_SYS_CLOCK_KHZ 125000
#endif
#endif
#if FLOCKSCOPE_SYS_CLOCK_KHZ != 125000 && FLOCKSCOPE_SYS_CLOCK_KHZ != 150000 && FLOCKSCOPE_SYS_CLOCK_KHZ != 200000
#error "FLOCKSCOPE_SYS_CLOCK_KHZ: 125000, 150000 or 200000 (the VGA pixel clock is 25 MHz, a whole number of cycles)"
#endif

// ---- grid

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
// slower edge scan (8 cells of margin, 1,850 cells, would leave 8 % of the lab's clumped
// flock to it, a tenth of its frame).
#ifndef FLOCKSCOPE_MAX_CELLS
#define FLOCKSCOPE_MAX_CELLS 3584
#endif

// ---- VGA pins

// Each through a resistor to the VGA connector (firmware_pico/vga.hpp).
#ifndef FLOCKSCOPE_VGA_HSYNC_PIN
#define FLOCKSCOPE_VGA_HSYNC_PIN 16
#endif
#ifndef FLOCKSCOPE_VGA_VSYNC_PIN
#define FLOCKSCOPE_VGA_VSYNC_PIN 17
#endif
#ifndef FLOCKSCOPE_VGA_VIDEO_PIN
#define FLOCKSCOPE_VGA_VIDEO_PIN 18
#endif
