#!/usr/bin/env bash
# What each of the lab's extensions costs the engine: `flockscope bench --preset
# cornell-pico-predator` with one extension switched on at a time (and none), interleaved
# in ONE sitting, ROUNDS times, so a busy spell on this shared machine slows every case
# alike. Prints one CSV row per run, then per boid count and extension: best and median
# steps/s, and the median against the run without extensions.
#
# Usage: bench/run_extension_costs.sh ROUNDS FLOCKSCOPE BOIDS:THREADS:WARMUP...
#   e.g. bench/run_extension_costs.sh 3 build/app/flockscope 100000:2:500 1000000:2:200
set -euo pipefail
rounds="$1" exe="$2"
shift 2
# name and the --set assignments that switch it on (the preset's other parameters stay).
# Each extension twice: as it acts (the flock changes shape, and a denser flock costs the
# neighbour scan more), and with its arithmetic only (a ledge no boid reaches, a gravity too
# small to bend a path, sources too small to reach): what the rules themselves cost.
cases=(
  "none|"
  "predator_centroid|predator_mode=centroid"
  "predator_chase|predator_mode=chase"
  "perching|perch_frames=90"
  "perching_arithmetic|perch_frames=90 perch_y=-100000"
  "gravity|gravity=0.08"
  "gravity_arithmetic|gravity=0.000001"
  "food_3|food=3"
  "food_3_arithmetic|food=3 food_range=0.001"
)
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg), $exe at $(git -C "$(dirname "$0")" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "case,extension,round,steps_per_s,boids_ns_per_boid_step"
rows=$(mktemp)
trap 'rm -f "$rows"' EXIT
for c in "$@"; do
  IFS=: read -r boids threads warmup <<< "$c"
  for r in $(seq "$rounds"); do
    for entry in "${cases[@]}"; do
      name="${entry%%|*}" set="${entry#*|}"
      args=(bench --preset cornell-pico-predator --boids "$boids" --threads "$threads" --warmup "$warmup")
      for kv in $set; do args+=(--set "$kv"); done
      "$exe" "${args[@]}" | python3 -c 'import json, sys
d = json.load(sys.stdin)
print("%s,%s,%s,%.2f,%.2f" % (sys.argv[1], sys.argv[2], sys.argv[3], d["steps_per_s"], d["boids_ns_per_boid_step"]))' \
        "$c" "$name" "$r" | tee -a "$rows"
    done
  done
done
python3 - "$rows" <<'PY'
import csv, statistics, sys
runs = {}
for case, ext, _, sps, _ in csv.reader(open(sys.argv[1])):
    runs.setdefault(case, {}).setdefault(ext, []).append(float(sps))
print("case,extension,best,median,median_vs_none")
for case, r in runs.items():
    base = statistics.median(r["none"])
    for ext, v in r.items():
        print("%s,%s,%.2f,%.2f,%.3f" % (case, ext, max(v), statistics.median(v), statistics.median(v) / base))
PY
