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
#   firmware_pico/build.sh [-j N]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
out="$root/build-pico"
jobs=2
[ "${1:-}" = "-j" ] && jobs="${2:-2}"

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
  -DPICO_SDK_PATH="$sdk" -DPICO_BOARD=pico -DPICO_PLATFORM=rp2040 \
  -DPICO_NO_PICOTOOL=1 -DCMAKE_BUILD_TYPE=Release > "$out/configure.log" 2>&1 \
  || { cat "$out/configure.log" >&2; exit 1; }
cmake --build "$out" -j"$jobs"

# The boot ROM stand-in: plain assembly at address 0, as a raw 16 KiB image (the SDK's
# register headers for its addresses).
arm-none-eabi-gcc -mcpu=cortex-m0plus -mthumb -nostdlib -nostartfiles -Wl,-Ttext=0x0 -Wl,-e,0 \
  -isystem "$sdk/src/rp2040/hardware_regs/include" \
  -o "$out/bootrom.elf" "$here/emulator/bootrom.S"
arm-none-eabi-objcopy -O binary --pad-to 0x4000 "$out/bootrom.elf" "$out/bootrom.bin"

ls -l "$out"/flockscope_pico.elf "$out"/flockscope_pico.uf2 "$out"/flockscope_pico_emu.elf \
  "$out"/flockscope_pico_emu2.elf "$out"/flockscope_pico_200.uf2 "$out"/flockscope_pico_emu_vga_200.elf \
  "$out"/lab_minimal.uf2 "$out"/lab_minimal_emu.elf "$out"/bootrom.bin
