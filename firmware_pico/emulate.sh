#!/usr/bin/env bash
# Runs a firmware ELF in the rp2040js emulator (pinned in emulator/package.json) and bridges
# its USB CDC to a pseudo-terminal, a symlink at PATH with --link, until killed.
#
#   firmware_pico/emulate.sh [--link PATH] [--report SECONDS] ELF
#
# Needs node/npm (npm ci installs rp2040js on first use), python3, and build-pico/bootrom.bin
# from firmware_pico/build.sh.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
emu="$here/emulator"
if [ ! -d "$emu/node_modules/rp2040js" ]; then
  (cd "$emu" && npm ci --no-audit --no-fund --loglevel=error) >&2
fi
exec node "$emu/run.mjs" "$@"
