#!/usr/bin/env bash
# A long mirror under use (tests/link/soak_link.cpp): the app's link on a board for a given
# time, pushing a parameter change every second, pausing and resuming every 20 s, resetting
# every 45 s and unplugging the board every minute; then frames received against sent
# outside the replug gaps, changes answered against sent, the app's memory at the start and
# the end, and any counter that wrapped. Exit 1 if any of those fails.
#
#   scripts/soak.sh [--board virtual|emulator] [--minutes M] [--json FILE]   # default virtual, 30
#
# Needs the release build (./test.sh quick, or cmake --build build --target soak_link) and,
# for the emulator, firmware_pico/build.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
board=virtual minutes=30 json=()
while [ $# -gt 0 ]; do
  case "$1" in
    --board) board="$2"; shift 2 ;;
    --minutes) minutes="$2"; shift 2 ;;
    --json) json=(--json "$2"); shift 2 ;;
    *) echo "usage: $0 [--board virtual|emulator] [--minutes M] [--json FILE]" >&2; exit 2 ;;
  esac
done
bin="$root/build/tests/link/soak_link"
[ -x "$bin" ] || { echo "soak: no $bin: cmake --build build --target soak_link" >&2; exit 2; }
echo "soak: $board board for $minutes min at $(git -C "$root" rev-parse --short HEAD)"
exec "$bin" --board "$board" --seconds "$(( minutes * 60 ))" "${json[@]}"
