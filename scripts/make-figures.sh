#!/usr/bin/env bash
# Regenerates every figure of docs/experiments.md: the report's three experiments, the
# rule-by-rule views, two sweeps and the consensus study. Runs go to out/experiments/
# (not committed); the figures are copied to docs/figures/. About 10 minutes on 2 cores.
# Usage: scripts/make-figures.sh [path/to/flockscope]   (default: build/app/flockscope)
set -euo pipefail
cd "$(dirname "$0")/.."
fs=${1:-build/app/flockscope}
work=out/experiments
figs=docs/figures
mkdir -p "$work" "$figs"

# 1. The report's experiments (seed 002): 4,000 steps of dt 0.05 = t 0..200.
for p in report-baseline report-vis10 report-vis25; do
  "$fs" run --preset "$p" --steps 4000 --plots --out "$work/$p"
  for f in diameter path; do
    cp "$work/$p/$f.svg" "$figs/$p-$f.svg"
    cp "$work/$p/$f.png" "$figs/$p-$f.png"
  done
done

# 2. Rule by rule (seed 003's "only rule 1/2/3" views), 200 frames as in the blog.
for v in all only-cohesion only-separation only-alignment; do
  preset=blog-numpy
  [ "$v" = all ] || preset="blog-$v"
  "$fs" run --preset "$preset" --steps 200 --plots --plot-size 560x500 --out "$work/views/$v"
  cp "$work/views/$v/state.png" "$figs/views-$v-state.png"
done
for y in diameter polarisation; do
  "$fs" plot --x time --y "$y" --title "Blog rules, one rule at a time: $y" --ylabel "$y" \
    "$work/views/all/metrics.csv=all rules" "$work/views/only-cohesion/metrics.csv=cohesion only" \
    "$work/views/only-separation/metrics.csv=separation only" "$work/views/only-alignment/metrics.csv=alignment only" \
    --out "$figs/views-$y"
  rm -f "$figs/views-$y.svg"
done

# 3. Sweeps: vision range (20 seeded runs per value), then vision x alignment strength.
"$fs" sweep --preset report-baseline --grid D_vis=5:50:5 --reps 20 --steps 4000 --out "$work/sweep-dvis"
for m in mean_diameter formed_time; do cp "$work/sweep-dvis/plots/$m.png" "$figs/sweep-dvis-$m.png"; done
"$fs" sweep --preset report-baseline --grid D_vis=10:40:10 --grid S_align=0.02:0.08:0.02 --reps 10 --steps 4000 \
  --out "$work/sweep-dvis-salign"
cp "$work/sweep-dvis-salign/plots/mean_diameter-heatmap.png" "$figs/sweep-dvis-salign-heatmap.png"

# 4. The consensus study (seed 000 after Couzin et al. 2005), preset consensus-study.
"$fs" consensus --informed 0,0.05,0.1,0.2,0.3 --boids 50,100,200 --bias static,dynamic --trials 60 --steps 3000 \
  --out "$work/consensus-informed"
cp "$work/consensus-informed/plots/p_right.png" "$figs/consensus-informed-p_right.png"
cp "$work/consensus-informed/plots/decision_time.png" "$figs/consensus-informed-decision_time.png"
"$fs" consensus --informed 0.2 --right-share 0.5:1:0.1 --bias static,dynamic --trials 100 --steps 3000 \
  --out "$work/consensus-conflict"
cp "$work/consensus-conflict/plots/p_right.png" "$figs/consensus-conflict-p_right.png"
"$fs" consensus --scouts1 0,5,10,15,20 --scouts2 0,5,10,15,20 --trials 40 --steps 3000 --out "$work/consensus-groups"
cp "$work/consensus-groups/plots/p_right-heatmap.png" "$figs/consensus-groups-p_right-heatmap.png"

# 5. Throughput: 1,000 runs of the report's baseline, 100 boids, 4,000 steps each.
rm -rf "$work/throughput"
"$fs" sweep --preset report-baseline --reps 1000 --steps 4000 --no-plots --out "$work/throughput"
