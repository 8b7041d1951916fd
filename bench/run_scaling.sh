#!/usr/bin/env bash
# Measures the engine's scaling as the issue asks: cornell-pico-predator rules at 1 boid per
# 400 px^2, 500 warm-up steps, N = 1k..1M on 1 and 2 threads, plus the all-pairs step at 10k,
# all in one run. Writes bench/results/scaling.csv (boids,threads,engine,steps_per_s,
# ns_per_boid_step,peak_rss_bytes_per_boid). Usage: bench/run_scaling.sh [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-build}/app/flockscope"
out=bench/results/scaling.csv
echo "boids,threads,engine,steps_per_s,ns_per_boid_step,peak_rss_bytes_per_boid" > "$out"
row() {
  "$bin" bench --preset cornell-pico-predator "$@" | python3 -c '
import json, sys
j = json.loads(sys.stdin.read())
print("%d,%d,%s,%.2f,%.1f,%.1f" % (j["boids"], j["threads"], j["engine"], j["steps_per_s"], j["ns_per_boid_step"], j["peak_rss_bytes_per_boid"]))' | tee -a "$out"
}
for n in 1000 10000 100000 1000000; do
  steps=$(( n >= 1000000 ? 20 : (n >= 100000 ? 60 : 300) ))
  for t in 1 2; do row --boids "$n" --threads "$t" --warmup 500 --steps "$steps"; done
done
row --boids 10000 --threads 1 --warmup 500 --steps 5 --all-pairs
row --boids 10000 --threads 2 --warmup 500 --steps 5 --all-pairs
