#!/usr/bin/env bash
# flockscope.Flock.step from Python against `flockscope bench`, interleaved in ONE sitting:
# the same preset (cornell-pico-predator), boid count, world (1 boid per 400 px^2), threads,
# warm-up and timed steps; CLI then Python, ROUNDS times, so a busy spell on this shared
# machine slows both alike. The Python side times f.step(STEPS) as one call, the way a
# notebook steps a flock. Prints one CSV row per run, then per case the best and median
# steps/s of each and Python / CLI (the module is meant to keep >= 0.95 of the median).
#
# Usage: bench/run_python_step.sh ROUNDS CASE...   (from a build with the module: build/)
#   CASE  BOIDS:THREADS:WARMUP:STEPS, e.g. 100000:2:500:100
# Environment: BUILD (default build), PYTHON (default: the one the module was built for).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="$1"
shift
build="${BUILD:-build}"
py="${PYTHON:-$(sed -n 's/^FLOCKSCOPE_PYTHON_EXECUTABLE:INTERNAL=//p' "$build/CMakeCache.txt")}"
exe="$build/app/flockscope"
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg), $py"
echo "case,side,round,steps_per_s"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for c in "$@"; do
  IFS=: read -r boids threads warmup steps <<< "$c"
  for r in $(seq "$rounds"); do
    "$exe" bench --preset cornell-pico-predator --boids "$boids" --threads "$threads" --warmup "$warmup" --steps "$steps" |
      "$py" -c 'import json, sys; print("%s,cli,%s,%.3f" % (sys.argv[1], sys.argv[2], json.load(sys.stdin)["steps_per_s"]))' \
        "$c" "$r" | tee -a "$rows"
    PYTHONPATH="$build/python" "$py" - "$c" "$r" <<'PY' | tee -a "$rows"
import math, sys, time
import flockscope as fs
boids, threads, warmup, steps = map(int, sys.argv[1].split(":"))
side = math.sqrt(400.0 * boids)  # as `flockscope bench` sizes its world
f = fs.Flock("cornell-pico-predator", boids=boids, width=side, height=side, threads=threads)
f.step(warmup)
t0 = time.perf_counter()
f.step(steps)
print("%s,python,%s,%.3f" % (sys.argv[1], sys.argv[2], steps / (time.perf_counter() - t0)))
PY
  done
done
"$py" - "$rows" <<'PY'
import csv, statistics, sys
runs = {}
for case, side, _, sps in csv.reader(open(sys.argv[1])):
    runs.setdefault(case, {}).setdefault(side, []).append(float(sps))
print("case,cli_best,cli_median,python_best,python_median,ratio_best,ratio_median")
for case, r in runs.items():
    cb, cm, pb, pm = max(r["cli"]), statistics.median(r["cli"]), max(r["python"]), statistics.median(r["python"])
    print("%s,%.2f,%.2f,%.2f,%.2f,%.3f,%.3f" % (case, cb, cm, pb, pm, pb / cb, pm / cm))
PY
