#!/usr/bin/env bash
# Regenerates the README's picture of the window (docs/screenshot.png, 1280x800) headless:
# SDL's offscreen driver, the cornell-pico-predator preset after 150 frames, with fresh
# settings (a scratch XDG_CONFIG_HOME) and a neutral home folder in the panel's paths.
# Usage: scripts/screenshot.sh [path/to/flockscope]   (default: build/app/flockscope)
set -euo pipefail
cd "$(dirname "$0")/.."
fs=${1:-build/app/flockscope}
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
HOME=/home/student XDG_CONFIG_HOME="$config" SDL_VIDEODRIVER=offscreen \
  "$fs" --preset cornell-pico-predator --frames 150 --size 1280x800 --screenshot docs/screenshot.png
