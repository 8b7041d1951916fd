#!/usr/bin/env bash
# The window's every-step metrics (compute_step_metrics) against the step they follow, in ONE
# run: `flockscope bench` on 2 threads, cornell-pico-predator rules at 1 boid per 400 px^2,
# N = 10k, 100k and 1M, each binary given measured in turn at each N and each repetition
# (interleaved, so a busy machine slows every binary alike). Prints one CSV row per bench:
#   label,rep,boids,ms_per_step,step_metrics_ms,step_metrics_share
#
# Usage: bench/run_step_metrics.sh [REPS] [LABEL=BINARY]...
#   REPS    repetitions (default 3)
#   BINARY  a flockscope build, e.g. before=/tmp/fs-prev/build/app/flockscope
#           (default: now=build/app/flockscope)
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-3}"
shift || true
bins=("$@")
[[ ${#bins[@]} -gt 0 ]] || bins=("now=build/app/flockscope")
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "label,rep,boids,ms_per_step,step_metrics_ms,step_metrics_share"
for ((r = 1; r <= reps; ++r)); do
  for n in 10000 100000 1000000; do
    # Fewer warm-up and timed steps at 1M: a step there takes tens of milliseconds.
    if ((n >= 1000000)); then warm=100 steps=20; else warm=300 steps=100; fi
    for entry in "${bins[@]}"; do
      label="${entry%%=*}" bin="${entry#*=}"
      "$bin" bench --boids "$n" --threads 2 --warmup "$warm" --steps "$steps" |
        python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print("%s,%s,%d,%.3f,%.3f,%.3f" % (sys.argv[1], sys.argv[2], j["boids"], j["ms_per_step"], j["step_metrics_ms"], j["step_metrics_share"]))' "$label" "$r"
    done
  done
done
