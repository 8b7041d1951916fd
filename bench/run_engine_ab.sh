#!/usr/bin/env bash
# Two flockscope binaries (A: an earlier engine, B: this one), interleaved in ONE sitting:
# `flockscope bench --preset cornell-pico-predator` (1 boid per 400 px^2) for each case, A then
# B, ROUNDS times, so a busy spell on this shared machine slows both alike. Environment
# variables are passed through (FLOCKSCOPE_KERNEL=portable|avx2|avx512 times that kernel).
# Prints one CSV row per run, then per case: best and median steps/s of each and B / A.
#
# Usage: bench/run_engine_ab.sh ROUNDS A_BINARY B_BINARY CASE...
#   CASE  BOIDS:THREADS:WARMUP, e.g. 1000000:2:500
set -euo pipefail
rounds="$1" a="$2" b="$3"
shift 3
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), A=$a B=$b"
echo "case,binary,round,steps_per_s,grid_ns_per_boid_step,boids_ns_per_boid_step,cpu_ms_per_step,engine_bytes_per_boid"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for c in "$@"; do
  IFS=: read -r boids threads warmup <<< "$c"
  for r in $(seq "$rounds"); do
    for bin in A B; do
      exe="$a"
      [[ $bin == B ]] && exe="$b"
      "$exe" bench --preset cornell-pico-predator --boids "$boids" --threads "$threads" --warmup "$warmup" |
        python3 -c 'import json, sys
d = json.load(sys.stdin)
print("%s,%s,%s,%.2f,%.2f,%.2f,%.2f,%.2f" % (sys.argv[1], sys.argv[2], sys.argv[3], d["steps_per_s"],
      d["grid_ns_per_boid_step"], d["boids_ns_per_boid_step"], d["cpu_ms_per_step"], d["engine_bytes_per_boid"]))' \
          "$c" "$bin" "$r" | tee -a "$rows"
    done
  done
done
python3 - "$rows" <<'PY'
import csv, statistics, sys
runs = {}
for case, binary, _, sps, *_ in csv.reader(open(sys.argv[1])):
    runs.setdefault(case, {}).setdefault(binary, []).append(float(sps))
print("case,A_best,A_median,B_best,B_median,ratio_best,ratio_median")
for case, r in runs.items():
    ab, am, bb, bm = max(r["A"]), statistics.median(r["A"]), max(r["B"]), statistics.median(r["B"])
    print("%s,%.2f,%.2f,%.2f,%.2f,%.3f,%.3f" % (case, ab, am, bb, bm, bb / ab, bm / am))
PY
