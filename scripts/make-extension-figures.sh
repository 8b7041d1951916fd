#!/usr/bin/env bash
# The figures and numbers of the lab's extensions (docs/rules.md, "The lab's extensions"):
# each extension's preset run from the same seed with the extension on and off, and the
# metric that shows it against time. Runs go to out/extensions/ (not committed); the figures
# (ext-*.png, .svg) and docs/figures/extensions.md (the numbers, with the commit they come
# from) go to docs/figures/. About a minute on 2 shared cores.
#
# --quick runs 300 steps into $FLOCKSCOPE_QUICK_DIR/extensions (default
# out/experiments-quick/extensions) and leaves docs/ alone (scripts/make-figures.sh --quick,
# which the test suite runs, calls it so).
# Usage: scripts/make-extension-figures.sh [--quick] [path/to/flockscope]
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
fs=${1:-build/app/flockscope}
py=${PYTHON:-python3}
if [ $quick = 1 ]; then
  work=${FLOCKSCOPE_QUICK_DIR:-out/experiments-quick}/extensions
  figs=$work/figures
  steps=300
else
  work=out/extensions
  figs=docs/figures
  steps=2000
fi
rm -rf "$work"
mkdir -p "$work" "$figs"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- core app assets 2>/dev/null || commit="$commit (with uncommitted changes)"

run() {  # NAME PRESET [--set k=v ...]
  local name=$1 preset=$2
  shift 2
  "$fs" run --preset "$preset" --steps $steps --out "$work/$name" "$@" > /dev/null
}
plot() {  # OUT Y TITLE YLABEL FILE=LABEL...
  local out=$1 y=$2 title=$3 ylabel=$4
  shift 4
  "$fs" plot --x step --y "$y" --title "$title" --ylabel "$ylabel" "$@" --out "$work/$out" > /dev/null
  cp "$work/$out.png" "$work/$out.svg" "$figs/"
}

run predator-chase cornell-smart-predator
run predator-random cornell-smart-predator --set predator_mode=random
plot ext-predator predator_distance "Smarter predators: distance from each predator to its nearest boid" \
  "mean predator distance (px)" "$work/predator-chase/metrics.csv=chase" "$work/predator-random/metrics.csv=random"

run perching cornell-perching
plot ext-perching perched "Perching: boids resting on the ledge (perch_frames 90)" "boids perched" \
  "$work/perching/metrics.csv=cornell-perching"

run gravity-on cornell-gravity
run gravity-off cornell-gravity --set gravity=0
# The dive/climb ratio per step: speed_down / speed_up (a derived column).
for r in gravity-on gravity-off; do
  $py - "$work/$r/metrics.csv" "$work/$r/dive-climb.csv" << 'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
with open(sys.argv[2], "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(["step", "dive_over_climb"])
    for r in rows:
        if r["speed_down"] and r["speed_up"] and float(r["speed_up"]) > 0:
            w.writerow([r["step"], float(r["speed_down"]) / float(r["speed_up"])])
PY
done
plot ext-gravity dive_over_climb "Gravity: mean speed of boids diving over boids climbing" "speed_down / speed_up" \
  "$work/gravity-on/dive-climb.csv=gravity 0.12" "$work/gravity-off/dive-climb.csv=gravity 0"

run food-on cornell-food
run food-off cornell-food --set food_factor=0
plot ext-food food_distance "Moving food: distance from each boid to its nearest source" "mean food distance (px)" \
  "$work/food-on/metrics.csv=food_factor 0.003" "$work/food-off/metrics.csv=food_factor 0"

# The numbers docs/rules.md quotes: the means over each run's second half.
numbers=$work/extensions.md
{
  echo "# Numbers of the lab's extensions"
  echo
  echo "Written by \`scripts/make-extension-figures.sh\` at commit $commit on $(date -u +%Y-%m-%d), $steps steps"
  echo "a run, means over the second half. Do not edit."
  echo
  $py - "$work" << 'PY'
import csv, sys
work = sys.argv[1]
def mean(run, column):
    rows = list(csv.DictReader(open(f"{work}/{run}/metrics.csv")))
    values = [float(r[column]) for r in rows[len(rows) // 2:] if r[column] != ""]
    return sum(values) / len(values)
def most(run, column):
    return max(float(r[column]) for r in csv.DictReader(open(f"{work}/{run}/metrics.csv")))
print("| extension | measure | on | off | on / off |")
print("| --- | --- | --- | --- | --- |")
for name, on, off, column in [("predator (chase against random)", "predator-chase", "predator-random", "predator_distance"),
                              ("food (food_factor 0.003 against 0)", "food-on", "food-off", "food_distance"),
                              ("gravity (0.12 against 0): diving", "gravity-on", "gravity-off", "speed_down"),
                              ("gravity (0.12 against 0): climbing", "gravity-on", "gravity-off", "speed_up")]:
    a, b = mean(on, column), mean(off, column)
    print(f"| {name} | {column} | {a:.2f} | {b:.2f} | {a / b:.2f} |")
print()
print(f"Perching: at most {most('perching', 'perched'):.0f} boids perched at once, "
      f"{mean('perching', 'perched'):.0f} on average over the second half.")
PY
} > "$numbers"
[ $quick = 1 ] || cp "$numbers" "$figs/extensions.md"
echo "make-extension-figures: done -> $numbers"
