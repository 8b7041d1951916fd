#!/usr/bin/env bash
# Builds the firmware: fetches the Pico SDK if needed (fetch_sdk.sh, cached under
# ~/.cache/flockscope), configures this folder's SDK project with PICO_NO_PICOTOOL, and
# builds into build-pico/ (at the repository root):
#   flockscope_pico.elf / .uf2      the board (two cores, VGA)
#   flockscope_pico_emu.elf / .uf2  one core, no VGA (the emulator's image)
#   flockscope_pico_emu2.elf / .uf2 two cores, no VGA (the two-core emulator measurement)
#   flockscope_pico_emu_vga.elf     the board with the emulator's switches (its VGA signal
#                                   decoded in the emulator: emulator/vga.mjs)
#   flockscope_pico_200.elf / .uf2, flockscope_pico_emu_vga_200.elf
#                                   the same two at a 200 MHz system clock
#   lab_minimal.elf / .uf2          the lab-style example (examples/lab_minimal/: one core,
#                                   fix15, only the link library protocol/pico)
#   lab_minimal_emu.elf             the same for the emulator
#   bootrom.bin                     the emulator's boot ROM stand-in (emulator/bootrom.S)
#
# --pico2: the Pico 2 instead (RP2350, Arm cores: PICO_PLATFORM=rp2350-arm-s,
# PICO_BOARD=pico2), into build-pico2/:
#   flockscope_pico.elf / .uf2      the board (two cores, VGA, 150 MHz), the C++ versions of
#                                   the RP2040's Thumb-1 routines
#   lab_minimal.elf / .uf2          the lab-style example
#   flock_m33.elf                   the board's flock step for QEMU's Cortex-M33 (qemu_m33/)
# Its .uf2 files are of the RP2350 Arm Secure family (uf2.py --family rp2350-arm-s).
#
#   firmware_pico/build.sh [--pico2] [-j N]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
out="$root/build-pico"
platform=(-DPICO_BOARD=pico -DPICO_PLATFORM=rp2040)
pico2=0
jobs=2
while [ $# -gt 0 ]; do
  case "$1" in
    --pico2) pico2=1; out="$root/build-pico2"; platform=(-DPICO_BOARD=pico2 -DPICO_PLATFORM=rp2350-arm-s); shift ;;
    -j) jobs="${2:-2}"; shift; [ $# -gt 0 ] && shift ;;
    *) echo "build.sh: unknown argument '$1' (firmware_pico/build.sh [--pico2] [-j N])" >&2; exit 2 ;;
  esac
done

for tool in arm-none-eabi-gcc arm-none-eabi-g++ cmake python3; do
  command -v "$tool" > /dev/null || { echo "build.sh: $tool missing: scripts/install-deps.sh firmware" >&2; exit 1; }
done

sdk="${PICO_SDK_PATH:-}"
if [ -z "$sdk" ] || [ ! -f "$sdk/pico_sdk_init.cmake" ]; then
  sdk="$("$here/fetch_sdk.sh" | tail -n1)"
fi
echo "build.sh: Pico SDK at $sdk"

mkdir -p "$out"
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
cmake -S "$here" -B "$out" "${generator[@]}" \
  -DPICO_SDK_PATH="$sdk" "${platform[@]}" \
  -DPICO_NO_PICOTOOL=1 -DCMAKE_BUILD_TYPE=Release > "$out/configure.log" 2>&1 \
  || { cat "$out/configure.log" >&2; exit 1; }
cmake --build "$out" -j"$jobs"

if [ "$pico2" -eq 1 ]; then
  ls -l "$out"/flockscope_pico.elf "$out"/flockscope_pico.uf2 "$out"/lab_minimal.elf "$out"/lab_minimal.uf2 \
    "$out"/flock_m33.elf
  exit 0
fi

# The boot ROM stand-in: plain assembly at address 0, as a raw 16 KiB image (the SDK's
# register headers for its addresses).
arm-none-eabi-gcc -mcpu=cortex-m0plus -mthumb -nostdlib -nostartfiles -Wl,-Ttext=0x0 -Wl,-e,0 \
  -isystem "$sdk/src/rp2040/hardware_regs/include" \
  -o "$out/bootrom.elf" "$here/emulator/bootrom.S"
arm-none-eabi-objcopy -O binary --pad-to 0x4000 "$out/bootrom.elf" "$out/bootrom.bin"

ls -l "$out"/flockscope_pico.elf "$out"/flockscope_pico.uf2 "$out"/flockscope_pico_emu.elf \
  "$out"/flockscope_pico_emu2.elf "$out"/flockscope_pico_200.uf2 "$out"/flockscope_pico_emu_vga_200.elf \
  "$out"/lab_minimal.uf2 "$out"/lab_minimal_emu.elf "$out"/bootrom.bin
