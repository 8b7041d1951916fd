#!/usr/bin/env bash
# The grid step's kernel against the one-boid-per-lane prototype (bench_lane_kernel) on
# synthetic cells of 4, 13 and 26 boids, in ONE run: Google Benchmark's random interleaving
# runs the repetitions of both kernels in shuffled turns, so a busy machine slows both alike.
# CPU time per boid. Prints one CSV row per cell size:
#   boids_per_cell,engine_best_ns,engine_median_ns,lanes_best_ns,lanes_median_ns,speedup_best,speedup_median
# (speedup = engine / lanes, > 1 when the prototype is faster).
#
# Usage: bench/run_lane_kernel.sh [REPS] [BUILD_DIR]   (defaults: 5, build)
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-5}"
build="${2:-build}"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg)"
"$build/bench/bench_lane_kernel" --benchmark_repetitions="$reps" --benchmark_enable_random_interleaving=true \
  --benchmark_min_time=0.5 --benchmark_report_aggregates_only=false --benchmark_format=json 2>/dev/null |
  python3 -c '
import json, statistics, sys
runs = {}
for b in json.load(sys.stdin)["benchmarks"]:
    if b.get("run_type") != "iteration":
        continue
    kernel, cells = b["run_name"].split("/")
    runs.setdefault((kernel, int(cells)), []).append(b["ns_per_boid"])
print("boids_per_cell,engine_best_ns,engine_median_ns,lanes_best_ns,lanes_median_ns,speedup_best,speedup_median")
for cells in sorted({c for _, c in runs}):
    e, l = runs[("BM_EngineKernel", cells)], runs[("BM_LaneKernel", cells)]
    eb, em, lb, lm = min(e), statistics.median(e), min(l), statistics.median(l)
    print("%d,%.2f,%.2f,%.2f,%.2f,%.3f,%.3f" % (cells, eb, em, lb, lm, eb / lb, em / lm))
'
