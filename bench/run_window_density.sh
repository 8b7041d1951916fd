#!/usr/bin/env bash
# The window's frame against the engine's step, in ONE sitting: each binary given draws
# FRAMES frames headless (SDL_VIDEODRIVER=offscreen, software renderer, 1440x900) of the
# cornell-pico-predator flock at 1 boid per 400 px^2 (2,000, 100,000 and 1,000,000 boids),
# and `flockscope bench` times the same flock's step at 1M on 2 threads over the same steps
# (warm-up 30, then 60: the state the window draws is as young). Binaries and sizes are
# interleaved, so a busy machine slows every one alike. Prints CSV rows, then for each binary
# the density budget: the 1M frame against the 2,000-boid frame plus 1.5 x the 1M step.
#   label,rep,boids,simulate_ms,density_ms,geometry_ms,render_ms,ui_ms,frame_ms
#
# Usage: bench/run_window_density.sh [REPS] [FRAMES] [LABEL=BINARY]...
#   REPS    repetitions (default 2)
#   FRAMES  frames a run (default 60; the first two are not counted)
#   BINARY  a flockscope build, e.g. before=/tmp/fs-prev/build/app/flockscope
#           (default: now=build/app/flockscope)
set -euo pipefail
cd "$(dirname "$0")/.."
reps="${1:-2}"
frames="${2:-60}"
shift 2 || shift $# || true
bins=("$@")
[[ ${#bins[@]} -gt 0 ]] || bins=("now=build/app/flockscope")
out=$(mktemp)
trap 'rm -f "$out"' EXIT
echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(git rev-parse --short HEAD), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "label,rep,boids,simulate_ms,density_ms,geometry_ms,render_ms,ui_ms,frame_ms" | tee "$out"
for ((r = 1; r <= reps; ++r)); do
  for n in 2000 100000 1000000; do
    side=$(python3 -c "import math; print(round(math.sqrt(400 * $n)))")
    for entry in "${bins[@]}"; do
      label="${entry%%=*}" bin="${entry#*=}"
      # The window's own timing line (a binary without a density pass prints none: 0).
      SDL_VIDEODRIVER=offscreen "$bin" --frames "$frames" --set boids="$n" \
        --set width="$side" --set height="$side" |
        python3 -c '
import re, sys
line = sys.stdin.read()
def ms(name):
    m = re.search(name + r" ([0-9.]+)", line)
    return float(m.group(1)) if m else 0.0
print("%s,%s,%s,%.2f,%.2f,%.2f,%.2f,%.2f,%.2f" % (sys.argv[1], sys.argv[2], sys.argv[3], ms("simulate \\+ metrics"),
      ms("density"), ms("geometry"), ms("render"), ms("ui"), ms("total")))' "$label" "$r" "$n" | tee -a "$out"
    done
  done
  for entry in "${bins[@]}"; do
    label="${entry%%=*}" bin="${entry#*=}"
    "$bin" bench --boids 1000000 --threads 2 --warmup 30 --steps 60 |
      python3 -c 'import json,sys; j=json.loads(sys.stdin.read()); print("%s,%s,bench-1000000,%.2f,,,,," % (sys.argv[1], sys.argv[2], j["ms_per_step"]))' "$label" "$r" |
      tee -a "$out"
  done
done
echo "# budget (medians over the repetitions): frame at 1M <= frame at 2,000 + 1.5 x the engine's step at 1M"
python3 - "$out" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for label in dict.fromkeys(r["label"] for r in rows):
    def med(boids, col):
        v = [float(r[col]) for r in rows if r["label"] == label and r["boids"] == boids and r[col]]
        return statistics.median(v) if v else float("nan")
    small, big, mid, step = med("2000", "frame_ms"), med("1000000", "frame_ms"), med("100000", "frame_ms"), med("bench-1000000", "simulate_ms")
    budget = small + 1.5 * step
    print("# %s: 1M frame %.1f ms, budget %.1f (2,000-boid frame %.1f + 1.5 x step %.1f): %s; 100k frame %.1f ms"
          % (label, big, budget, small, step, "within" if big <= budget else "OVER", mid))
EOF
