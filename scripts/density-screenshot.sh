#!/usr/bin/env bash
# Regenerates docs/screenshot-density.png (1280x800) headless: a million boids of the
# cornell-pico-predator flock in the benchmarks' 20,000 x 20,000 world after 600 steps, when
# the flock has gathered into lanes and clusters, drawn as the density image. Fresh settings
# (a scratch XDG_CONFIG_HOME) and a neutral home folder in the panel's paths.
# Usage: scripts/density-screenshot.sh [path/to/flockscope]   (default: build/app/flockscope)
set -euo pipefail
cd "$(dirname "$0")/.."
fs=${1:-build/app/flockscope}
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
HOME=/home/student XDG_CONFIG_HOME="$config" SDL_VIDEODRIVER=offscreen \
  "$fs" --preset cornell-pico-predator --set boids=1000000 --set width=20000 --set height=20000 \
  --frames 600 --size 1280x800 --screenshot docs/screenshot-density.png
