#!/usr/bin/env bash
# Regenerates every figure and every number of docs/experiments.md: the report's three
# experiments and their literal readings, the rule-by-rule views, two sweeps, the consensus
# study and the throughput. Runs go to out/experiments/ (not committed); the figures and
# docs/figures/numbers.md (the numbers the doc quotes, with the commit they come from) go to
# docs/figures/. About 15 minutes on 2 shared cores.
#
# --quick runs every step at a small size (minutes -> tens of seconds) into out/experiments-
# quick (or $FLOCKSCOPE_QUICK_DIR) and leaves docs/ alone; the test suite runs it so the
# pipeline cannot rot. Both modes check the literal D_vis = 10 reading's claim (one flock in
# at least 8 of 10 seeds, more boids at the walls x = 0, y = 0 than at x = W, y = H) and fail
# if it does not hold.
# Usage: scripts/make-figures.sh [--quick] [path/to/flockscope]   (default: build/app/flockscope)
set -euo pipefail
cd "$(dirname "$0")/.."
quick=0
if [ "${1:-}" = "--quick" ]; then quick=1; shift; fi
fs=${1:-build/app/flockscope}
py=${PYTHON:-python3}
if [ $quick = 1 ]; then
  work=${FLOCKSCOPE_QUICK_DIR:-out/experiments-quick}
  figs=$work/figures
  report_steps=400 view_steps=40 reps_dvis=2 reps_grid=1 dvis_values=10:30:10 salign_values=0.02:0.06:0.04
  trials=3 cons_steps=300 cons_boids=10,30 cons_informed=0,0.2 throughput_reps=5
else
  work=out/experiments
  figs=docs/figures
  report_steps=4000 view_steps=200 reps_dvis=20 reps_grid=10 dvis_values=5:50:5 salign_values=0.02:0.08:0.02
  trials=60 cons_steps=2000 cons_boids=10,30,50,100,200 cons_informed=0,0.05,0.1,0.2,0.4 throughput_reps=1000
fi
rm -rf "$work"
mkdir -p "$work" "$figs"
numbers=$work/numbers.md
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- core app assets 2>/dev/null || commit="$commit (with uncommitted changes)"
{
  echo "# Numbers quoted in docs/experiments.md"
  echo
  echo "Written by \`scripts/make-figures.sh\` at commit $commit on $(date -u +%Y-%m-%d). Do not edit."
} > "$numbers"
section() { printf '\n## %s\n\n' "$1" >> "$numbers"; }
copy_fig() { [ $quick = 1 ] || cp "$1" "$figs/$2"; }

# 1. The report's experiments (seed 002): 4,000 steps of dt 0.05 = t 0..200, our reading and
#    the literal one (sums over N - 1, boids updated in place).
report_presets="report-baseline report-vis10 report-vis25 report-vis10-literal report-vis25-literal"
for p in $report_presets; do
  "$fs" run --preset "$p" --steps $report_steps --plots --out "$work/$p" > /dev/null
  for f in diameter path; do
    copy_fig "$work/$p/$f.svg" "$p-$f.svg"
    copy_fig "$work/$p/$f.png" "$p-$f.png"
  done
done
section "1. The report, seed 1, t = 0..$((report_steps / 20))"
$py scripts/experiment_numbers.py runs $(for p in $report_presets; do printf '%s=%s ' "$p" "$work/$p"; done) >> "$numbers"
# Ten seeds of each D_vis experiment, both readings (seeds 1..10, 4,000 steps in both modes:
# the literal reading's claim is checked on the full span).
section "1. The report's vision experiments over seeds 1..10, t = 0..200"
$py scripts/experiment_numbers.py seeds-header >> "$numbers"
for p in report-vis10 report-vis10-literal report-vis25 report-vis25-literal; do
  for s in 1 2 3 4 5 6 7 8 9 10; do
    "$fs" run --preset "$p" --seed $s --steps 4000 --out "$work/seeds/$p-$s" > /dev/null
  done
  $py scripts/experiment_numbers.py seeds "$p" "$work/seeds/$p"-{1,2,3,4,5,6,7,8,9,10} >> "$numbers"
done
echo >> "$numbers"
$py scripts/experiment_numbers.py check-literal "$work/seeds/report-vis10-literal"-{1,2,3,4,5,6,7,8,9,10} | tee -a "$numbers"

# 2. Rule by rule (seed 003's "only rule 1/2/3" views), 200 frames as in the blog.
for v in all only-cohesion only-separation only-alignment; do
  preset=blog-numpy
  [ "$v" = all ] || preset="blog-$v"
  "$fs" run --preset "$preset" --steps $view_steps --plots --plot-size 560x500 --out "$work/views/$v" > /dev/null
  copy_fig "$work/views/$v/state.png" "views-$v-state.png"
done
for y in diameter polarisation; do
  "$fs" plot --x time --y "$y" --title "Blog rules, one rule at a time: $y" --ylabel "$y" \
    "$work/views/all/metrics.csv=all rules" "$work/views/only-cohesion/metrics.csv=cohesion only" \
    "$work/views/only-separation/metrics.csv=separation only" "$work/views/only-alignment/metrics.csv=alignment only" \
    --out "$work/views-$y" > /dev/null
  copy_fig "$work/views-$y.png" "views-$y.png"
done
section "2. Rule by rule, $view_steps frames"
$py scripts/experiment_numbers.py views $(for v in all only-cohesion only-separation only-alignment; do printf '%s=%s ' "$v" "$work/views/$v"; done) >> "$numbers"

# 3. Sweeps: vision range (20 seeded runs per value), then vision x alignment strength.
"$fs" sweep --preset report-baseline --grid D_vis=$dvis_values --reps $reps_dvis --steps $report_steps --out "$work/sweep-dvis" > /dev/null
for m in mean_diameter formed_time; do copy_fig "$work/sweep-dvis/plots/$m.png" "sweep-dvis-$m.png"; done
"$fs" sweep --preset report-baseline --grid D_vis=$dvis_values --reps $reps_dvis --steps $report_steps \
  --set report_divisor=all --set update=in_place --out "$work/sweep-dvis-literal" > /dev/null
for m in mean_diameter formed_time; do copy_fig "$work/sweep-dvis-literal/plots/$m.png" "sweep-dvis-literal-$m.png"; done
"$fs" sweep --preset report-baseline --grid D_vis=$dvis_values --grid S_align=$salign_values --reps $reps_grid \
  --steps $report_steps --out "$work/sweep-dvis-salign" > /dev/null
copy_fig "$work/sweep-dvis-salign/plots/mean_diameter-heatmap.png" "sweep-dvis-salign-heatmap.png"
section "3. Sweep of D_vis, our reading ($reps_dvis runs per value)"
$py scripts/experiment_numbers.py sweep "$work/sweep-dvis" D_vis >> "$numbers"
section "3. Sweep of D_vis, the literal reading ($reps_dvis runs per value)"
$py scripts/experiment_numbers.py sweep "$work/sweep-dvis-literal" D_vis >> "$numbers"

# 4. The consensus study (seed 000 after Couzin et al. 2005), preset consensus-study: informed
#    share x group size x bias mode x bias target on paired seeds, Couzin's accuracy.
"$fs" consensus --informed $cons_informed --boids $cons_boids --bias static,dynamic --grid bias_target=unit,maxspeed \
  --paired --trials $trials --steps $cons_steps --out "$work/consensus-informed" > "$work/consensus-informed.txt"
section "4. Consensus: accuracy against the informed share ($trials paired trials per point, $cons_steps steps)"
$py scripts/consensus_accuracy.py "$work/consensus-informed" >> "$numbers"
for bias in static dynamic; do
  for target in unit maxspeed; do
    args=()
    for n in ${cons_boids//,/ }; do args+=("$work/consensus-informed/accuracy-N$n-$bias-$target.csv=N = $n"); done
    pull=$([ $target = unit ] && echo "+-1 px/frame" || echo "+-maxspeed")
    "$fs" plot --x informed --y accuracy --title "Accuracy against the informed share, $bias bias toward $pull" \
      --ylabel "accuracy (naive boids heading to the scouts' side)" \
      "${args[@]}" --out "$work/consensus-accuracy-$bias-$target" > /dev/null
    copy_fig "$work/consensus-accuracy-$bias-$target.png" "consensus-accuracy-$bias-$target.png"
  done
done
"$fs" consensus --informed 0.2 --right-share 0.5:1:0.1 --bias static,dynamic --paired --trials $trials --steps $cons_steps \
  --out "$work/consensus-conflict" > "$work/consensus-conflict.txt"
copy_fig "$work/consensus-conflict/plots/p_right.png" "consensus-conflict-p_right.png"
section "4. Consensus: conflicting scouts (20 % informed, $trials paired trials per point)"
{ echo '```'; grep -E '^ +right_share' "$work/consensus-conflict.txt"; echo '```'; } >> "$numbers"

# 5. Throughput: runs of the report's baseline, 100 boids, 4,000 steps each.
"$fs" sweep --preset report-baseline --reps $throughput_reps --steps $report_steps --no-plots --jobs 2 \
  --out "$work/throughput" > "$work/throughput.txt" 2>&1
section "5. Throughput ($throughput_reps runs of report-baseline, $report_steps steps, 2 jobs)"
{ echo '```'; grep -E 'runs/s' "$work/throughput.txt" | tail -n 1; echo '```'; } >> "$numbers"
section "5. The baseline over the same $throughput_reps seeded runs (formation under a 10 px link)"
$py scripts/experiment_numbers.py formation "$work/throughput" >> "$numbers"

# 6. The lab's extensions: their own script, figures and numbers (docs/rules.md).
FLOCKSCOPE_QUICK_DIR=$work scripts/make-extension-figures.sh $([ $quick = 1 ] && echo --quick) "$fs"

[ $quick = 1 ] || cp "$numbers" "$figs/numbers.md"
echo "make-figures: done -> $numbers"
