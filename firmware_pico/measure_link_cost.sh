#!/usr/bin/env bash
# What the drop-in link (protocol/pico) costs a board: the lab example with N boids standing
# still (LAB_MEASURE=N: no step, so the frame's work is the link's alone) in the emulator,
# mirrored by `flockscope mirror`; the board logs the library's own work a frame (busy_us:
# fsl_send_state, and the polls and background services that moved bytes) once a second.
# Prints the mean of those lines, in microseconds and in cycles at 125 MHz, and the bytes a
# frame on the wire.
#
#   firmware_pico/measure_link_cost.sh [--boids N] [--seconds S] [--flockscope BIN]
#
# Builds into build-pico-measure/ (the SDK from fetch_sdk.sh); needs node (emulate.sh).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(dirname "$here")"
boids=1000
seconds=20
flockscope="$root/build/app/flockscope"
while [ $# -gt 0 ]; do
  case "$1" in
    --boids) boids="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --flockscope) flockscope="$2"; shift 2 ;;
    *) echo "measure_link_cost.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
[ -x "$flockscope" ] || { echo "measure_link_cost.sh: no $flockscope: build the app first" >&2; exit 1; }
sdk="${PICO_SDK_PATH:-}"
if [ -z "$sdk" ] || [ ! -f "$sdk/pico_sdk_init.cmake" ]; then sdk="$("$here/fetch_sdk.sh" | tail -n1)"; fi
out="$root/build-pico-measure"
generator=()
command -v ninja > /dev/null && generator=(-G Ninja)
cmake -S "$here" -B "$out" "${generator[@]}" -DPICO_SDK_PATH="$sdk" -DPICO_BOARD=pico -DPICO_PLATFORM=rp2040 \
  -DPICO_NO_PICOTOOL=1 -DCMAKE_BUILD_TYPE=Release -DFLOCKSCOPE_FW_DEFINES="LAB_MEASURE=$boids" > "$out.log" 2>&1 \
  || { cat "$out.log" >&2; exit 1; }
cmake --build "$out" --target lab_minimal_emu > "$out.log" 2>&1 || { cat "$out.log" >&2; exit 1; }
[ -f "$root/build-pico/bootrom.bin" ] || { echo "measure_link_cost.sh: run firmware_pico/build.sh first (boot ROM)" >&2; exit 1; }

tmp="$(mktemp -d)"
trap 'kill "$emu" 2> /dev/null || true; rm -rf "$tmp"' EXIT
"$here/emulate.sh" --link "$tmp/port" "$out/lab_minimal_emu.elf" > "$tmp/emu.log" 2>&1 &
emu=$!
for _ in $(seq 600); do [ -e "$tmp/port" ] && break; sleep 0.1; done
"$flockscope" mirror --port "$tmp/port" --connect-timeout 120 --seconds "$seconds" --out "$tmp/out" > "$tmp/mirror.log" 2>&1
python3 - "$tmp/mirror.log" "$tmp/out/link.json" "$boids" <<'PY'
import json, re, sys
lines = [l for l in open(sys.argv[1]) if l.startswith("board: frames")]
link = [int(re.search(r"link_us (\d+)", l).group(1)) for l in lines]
j = json.load(open(sys.argv[2]))
link = link[2:] if len(link) > 4 else link  # the first lines include the handshake
if not link:
    sys.exit("measure_link_cost.sh: the board logged no costs")
us = sum(link) / len(link)
frames = j["frames"]["received"]
print(f"boids {sys.argv[3]}: link {us:.0f} us a frame = {us * 125 / 1e6:.3f} M cycles at 125 MHz "
      f"(mean of {len(link)} one-second lines); {j['link']['bytes_rx'] / max(frames, 1):.0f} bytes a frame; "
      f"{j['frames']['complete']} of {frames} frames complete")
PY
