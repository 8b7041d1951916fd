#!/bin/sh
# docs/explore-map.png: the window's Explore map drawn headless (offscreen, software
# renderer) over a 10 x 10 grid of cornell-pico-predator at 200 boids, 2 repeats of 1,000
# steps each. Prints the frames the window drew per second while the map ran.
# Usage: scripts/explore-map.sh [build/app/flockscope]
set -eu
bin=${1:-build/app/flockscope}
out=$(mktemp -d)
SDL_VIDEODRIVER=offscreen "$bin" --preset cornell-pico-predator --set boids=200 \
  --explore-grid visualRange=10:100:10 --explore-grid centeringfactor=0.0001:0.001:0.0001 \
  --reps 2 --steps 1000 --explore-out "$out" --screenshot "$out/window.png"
cp "$out/map.png" docs/explore-map.png
echo "docs/explore-map.png (commit $(git rev-parse --short HEAD)); runs.csv in $out"
