#!/usr/bin/env bash
# Regenerates the docs' pictures of the window (1280x800) headless: SDL's offscreen driver,
# fresh settings (a scratch XDG_CONFIG_HOME) and a neutral home folder in the panel's paths.
#   window   docs/screenshot.png: the cornell-pico-predator preset after 150 frames
#   density  docs/screenshot-density.png: a million boids of it in the benchmarks' 20,000 x
#            20,000 world after 600 steps, gathered into lanes and clusters, drawn as density
#   heading  docs/screenshot-heading.png: the same, the density coloured by mean heading
# Usage: scripts/screenshot.sh [path/to/flockscope] [window|density|heading]
#        (default: build/app/flockscope, window)
set -euo pipefail
cd "$(dirname "$0")/.."
fs=${1:-build/app/flockscope}
case "${2:-window}" in
  window) args=(--frames 150 --screenshot docs/screenshot.png) ;;
  density | heading)
    args=(--set boids=1000000 --set width=20000 --set height=20000 --frames 600)
    if [[ $2 == heading ]]; then args+=(--colour heading --screenshot docs/screenshot-heading.png)
    else args+=(--screenshot docs/screenshot-density.png); fi ;;
  *) echo "usage: $0 [path/to/flockscope] [window|density|heading]" >&2; exit 2 ;;
esac
config=$(mktemp -d)
trap 'rm -rf "$config"' EXIT
HOME=/home/student XDG_CONFIG_HOME="$config" SDL_VIDEODRIVER=offscreen \
  "$fs" --preset cornell-pico-predator --size 1280x800 "${args[@]}"
