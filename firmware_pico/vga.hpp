// VGA 640x480, 1 bit per pixel, scanned out of a RAM framebuffer by PIO0 (three state
// machines, vga.pio) and two chained DMA channels, with no CPU time after vga_start().
//
// Pins (flockscope/board/board_config.hpp), each through a resistor to the VGA connector:
//   FLOCKSCOPE_VGA_HSYNC_PIN 16 -> 47 ohm  -> VGA pin 13 (HSYNC)
//   FLOCKSCOPE_VGA_VSYNC_PIN 17 -> 47 ohm  -> VGA pin 14 (VSYNC)
//   FLOCKSCOPE_VGA_VIDEO_PIN 18 -> 330 ohm -> VGA pin 2 (green; 0.7 V into the monitor's 75 ohm)
//   GND -> VGA pins 5, 6, 7, 8, 10
#pragma once

#include <cstdint>

#include "flockscope/board/board_config.hpp"

// Starts the scan-out of `words` (flockscope::board::kFbWords 32-bit words) for good.
void vga_start(const std::uint32_t* words);
