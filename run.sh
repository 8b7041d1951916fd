#!/usr/bin/env bash
# The main job in one command: installs what flockscope needs (Debian packages), builds it,
# and runs a flock. Until the window lands, that is a headless run of the Pico lab's flock
# whose results go to out/cornell-pico-predator/. Extra arguments go to `flockscope run`.
set -euo pipefail
cd "$(dirname "$0")"
scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DFLOCKSCOPE_TESTS=OFF -DFLOCKSCOPE_BENCH=OFF > /dev/null
cmake --build build --target flockscope -j"$(nproc)"
./build/app/flockscope run --preset cornell-pico-predator --steps 1000 --out out/cornell-pico-predator "$@"
echo "metrics: out/cornell-pico-predator/metrics.csv  final state: out/cornell-pico-predator/final_state.csv"
