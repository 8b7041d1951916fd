#!/usr/bin/env bash
# The main job in one command: installs what flockscope needs (Debian packages), builds it,
# and opens the window on a local flock with the Pico lab's preset (cornell-pico-predator).
# Extra arguments go to the window (e.g. --set boids=20000). Without a display it says so and
# falls back to a headless run whose results go to out/cornell-pico-predator/.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLOCKSCOPE_TESTS=OFF -DFLOCKSCOPE_BENCH=OFF > /dev/null
cmake --build build --target flockscope -j"$(nproc)"
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
  exec ./build/app/flockscope --preset cornell-pico-predator "$@"
fi
echo "run.sh: no display (neither DISPLAY nor WAYLAND_DISPLAY is set), so no window; running headless instead."
echo "run.sh: to draw the window without a display: SDL_VIDEODRIVER=offscreen ./build/app/flockscope --frames 120 --screenshot out/window.png"
./build/app/flockscope run --preset cornell-pico-predator --steps 1000 --out out/cornell-pico-predator
echo "metrics: out/cornell-pico-predator/metrics.csv  final state: out/cornell-pico-predator/final_state.csv"
