#!/usr/bin/env bash
# The board's VGA signal as a monitor would see it: runs the board's image with only the
# emulator's switches (build-pico/flockscope_pico_emu_vga.elf: two cores, VGA) in rp2040js,
# with the PIO clocked cycle by cycle and the DMA feeding it, decodes whole frames from the
# HSYNC, VSYNC and video pins, checks them against the 640x480 timing and the framebuffer,
# and prints what it measured (emulator/vga.mjs explains each line).
#
#   firmware_pico/vga_signal.sh [--200] [--boids N] [--frames F] [--set NAME=VALUE]... [--png out/vga.png]
#
# --200: the 200 MHz image (flockscope_pico_emu_vga_200.elf: 8 cycles a pixel).
#
# Needs build-pico/flockscope_pico_emu_vga.elf and bootrom.bin (firmware_pico/build.sh) and
# node (npm ci installs the pinned rp2040js on first use).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
emu="$here/emulator"
image=flockscope_pico_emu_vga
if [ "${1:-}" = "--200" ]; then
  image=flockscope_pico_emu_vga_200
  shift
fi
elf="${FLOCKSCOPE_EMU_ELF:-$root/build-pico/$image.elf}"
[ -f "$elf" ] || { echo "vga_signal.sh: no $elf: run firmware_pico/build.sh" >&2; exit 1; }
if [ ! -d "$emu/node_modules/rp2040js" ]; then
  (cd "$emu" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
exec node "$emu/vga.mjs" "$@" "$elf"
