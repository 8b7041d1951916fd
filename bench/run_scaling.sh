#!/usr/bin/env bash
# The engine's scaling, all rows in ONE run: cornell-pico-predator rules at
# 1 boid per 400 px^2 (`flockscope bench` scales the world), 500 warm-up steps unless noted:
#   grid       N = 1k, 10k, 100k, 1M on 1 and 2 threads, and 300k on 1 thread
#   grid       clustered: 2000 warm-up steps, 1M on 2 threads and 300k on 1 thread
#   all-pairs  the straightforward O(N^2) step at 10k and 100k (100k: 2 timed steps)
#   LABEL      each earlier engine given, at 10k, 100k, 300k and 1M
# Writes bench/results/scaling.csv and bench/results/scaling_run.txt (machine, load average).
#
# Usage: bench/run_scaling.sh [BUILD_DIR] [LABEL=BINARY | BINARY]...
#   BUILD_DIR  where this tree is built (default: build)
#   BINARY     flockscope built from an earlier commit, e.g.
#              grid-08c5ab0=/tmp/fs-prev/build/app/flockscope (a bare path is labelled
#              grid-prev; also $FLOCKSCOPE_PREV_BIN); see docs/performance.md, "How to
#              measure", for how to build one.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-build}/app/flockscope"
shift || true
prev=("$@")
[[ ${#prev[@]} -gt 0 || -z "${FLOCKSCOPE_PREV_BIN:-}" ]] || prev=("$FLOCKSCOPE_PREV_BIN")
out=bench/results/scaling.csv
meta=bench/results/scaling_run.txt
mkdir -p bench/results
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "cpu: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//'), $(nproc) cores"
  echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$meta"
echo "boids,threads,engine,warmup,steps,steps_per_s,ns_per_boid_step,best_batch_ms_per_step,cpu_ms_per_step,grid_ns_per_boid_step,boids_ns_per_boid_step,engine_bytes_per_boid,peak_rss_bytes_per_boid" > "$out"
# row ENGINE_LABEL BINARY bench-args...
row() {
  local label=$1 exe=$2
  shift 2
  "$exe" bench --preset cornell-pico-predator "$@" | python3 -c '
import json, sys
label = sys.argv[1]
j = json.loads(sys.stdin.read())
engine = label if j["engine"] == "grid" else j["engine"]
get = lambda k: j.get(k, float("nan"))
print("%d,%d,%s,%d,%d,%.2f,%.1f,%.3f,%.3f,%.1f,%.1f,%.1f,%.1f" % (j["boids"], j["threads"], engine, j["warmup"], j["steps"],
      j["steps_per_s"], j["ns_per_boid_step"], get("best_batch_ms_per_step"), get("cpu_ms_per_step"), get("grid_ns_per_boid_step"), get("boids_ns_per_boid_step"),
      j["engine_bytes_per_boid"], j["peak_rss_bytes_per_boid"]))' "$label" | tee -a "$out"
}
steps_for() { local n=$1; echo $(( n >= 1000000 ? 60 : (n >= 300000 ? 100 : (n >= 100000 ? 200 : 1000)) )); }

for n in 1000 10000 100000 1000000; do
  for t in 1 2; do row grid "$bin" --boids "$n" --threads "$t" --warmup 500 --steps "$(steps_for "$n")"; done
done
row grid "$bin" --boids 300000 --threads 1 --warmup 500 --steps 100
# Clustered: the flock has had 2000 steps to gather.
row grid "$bin" --boids 1000000 --threads 2 --warmup 2000 --steps 60
row grid "$bin" --boids 300000 --threads 1 --warmup 2000 --steps 100
# The straightforward step, timed on the same warmed-up flock.
for t in 1 2; do row grid "$bin" --boids 10000 --threads "$t" --warmup 500 --steps 10 --all-pairs; done
for t in 1 2; do row grid "$bin" --boids 100000 --threads "$t" --warmup 500 --steps 2 --all-pairs; done
for spec in "${prev[@]}"; do
  label=grid-prev exe=$spec
  if [[ $spec == *=* ]]; then label=${spec%%=*} exe=${spec#*=}; fi
  for n in 10000 100000 1000000; do
    for t in 1 2; do row "$label" "$exe" --boids "$n" --threads "$t" --warmup 500 --steps "$(steps_for "$n")"; done
  done
  row "$label" "$exe" --boids 300000 --threads 1 --warmup 500 --steps 100
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$meta"
cat "$meta"
