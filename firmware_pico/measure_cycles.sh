#!/usr/bin/env bash
# Cycles per frame of the one-core emulator image, by phase, at N boids (several N: one
# line each), in rp2040js: cycle-counted, so the numbers do not depend on the host's load.
#
#   firmware_pico/measure_cycles.sh [--warmup W] [--frames F] [--profile] N [N...]
#   (--profile: where the measured frames' cycles went, by function; one core: exact, every
#   instruction's cycles added to its address; FLOCKSCOPE_PROFILE_PCS=1: also by address)
#   firmware_pico/measure_cycles.sh --spawn      # the lab's "spawn until the budget is used"
#   firmware_pico/measure_cycles.sh --cores 2 --spawn --set food=3   # ... with other parameters
#   firmware_pico/measure_cycles.sh --cores 2 N  # the two-core image on two emulated cores
#   firmware_pico/measure_cycles.sh --screen out/board.png N   # + the board's screen as a PNG
#   firmware_pico/measure_cycles.sh --streams 12 N   # the app asks for metrics + stats only
#   firmware_pico/measure_cycles.sh --set minspeed=4.5 --set predators=3 N   # other parameters
#
# N boids spawn at boot (seed 1, inside the 100 px margins, cornell-pico-predator values:
# 640 x 480, visualRange 40, protectedRange 8, one predator); W frames run first (default
# 5), the means are over the next F (default 10). Phases: grid (the counting sort and
# the snapshot), scan (the neighbour scans), update (the rest of the boid update: stencil
# runs, means, steering, speed limit, stores; and the predators),
# draw (erase + draw into the framebuffer + status line); compute = grid + scan + update
# + draw, what the 30 fps budget (4,166,667 cycles at 125 MHz) and the spawning rule
# count. link: the protocol work for a connected app with every stream on (state of all
# boids, predators, metrics, stats; encoding and framing into a sink, without the USB
# driver's copies), done in the frame's spare time. --streams MASK: only those streams
# (PROTOCOL.md bits: 1 state, 2 predators, 4 metrics, 8 stats, 16 log); without the state
# the metrics message covers every boid. The first and the last warm-up frames also check
# the assembly snapshot and scan against their C++ versions and the rules' fast path
# against the general rules, on every boid, and before the spawn the fast path and the
# snapshot meet the flock of their rare branches (place_rules_cases: speeds beyond the
# snapshot's 16 bits among them); a non-zero count fails the script.
#
# With --cores 2 (before the other arguments) it runs build-pico/flockscope_pico_emu2.elf, the
# same firmware with both cores sharing the update, on two emulated cores
# (emulator/dual_core.mjs); its update phase is timed as a whole (no scan split).
#
# Needs build-pico/flockscope_pico_emu.elf and bootrom.bin (firmware_pico/build.sh) and
# node (npm ci installs the pinned rp2040js on first use).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
emu="$here/emulator"
image=flockscope_pico_emu
if [ "${1:-}" = "--cores" ]; then
  case "${2:-}" in
    1) ;;
    2) image=flockscope_pico_emu2 ;;
    *) echo "measure_cycles.sh: --cores takes 1 or 2" >&2; exit 2 ;;
  esac
  shift 2
fi
elf="${FLOCKSCOPE_EMU_ELF:-$root/build-pico/$image.elf}"
[ -f "$elf" ] || { echo "measure_cycles.sh: no $elf: run firmware_pico/build.sh" >&2; exit 1; }
if [ ! -d "$emu/node_modules/rp2040js" ]; then
  (cd "$emu" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
opts=()
counts=()
spawn=0
while [ $# -gt 0 ]; do
  case "$1" in
    --warmup|--frames|--screen|--streams|--set) opts+=("$1" "$2"); shift 2 ;;
    --profile) opts+=("$1"); shift ;;
    --spawn) spawn=1; shift ;;
    -h|--help) sed -n '2,35p' "$0"; exit 0 ;;
    *) counts+=("$1"); shift ;;
  esac
done
# The lab's rule (with any --set parameters: a preset's spawn-to-budget count).
[ "$spawn" -eq 0 ] || exec node "$emu/measure.mjs" --spawn "${opts[@]}" "$elf"
[ ${#counts[@]} -gt 0 ] || counts=(2000)
for n in "${counts[@]}"; do
  node "$emu/measure.mjs" "${opts[@]}" "$elf" "$n"
done
