// The figures the command line writes, built from flockscope::plot: a run's diameter, path,
// polarisation and final state; a sweep's summary plots (lines with spread, heatmaps).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "flockscope/core/run.hpp"
#include "flockscope/experiments/sweep.hpp"
#include "flockscope/plot/plot.hpp"

namespace flockscope::cli {

// "800x500" -> {800, 500}. Throws InputError.
plot::Size parse_plot_size(const std::string& text);

// DIR/diameter, DIR/path (centroid y against x), DIR/polarisation and DIR/state (final
// positions and headings), each .svg and .png. Returns the stems written.
std::vector<std::filesystem::path> write_run_plots(const std::filesystem::path& dir, const RunSpec& spec,
                                                   const RunResult& r, plot::Size size);

// An axis title for a swept key: "visualRange (px)", its unit from the parameter table, or
// what a share means.
std::string key_title(const std::string& key);
// A swept axis's values as tick labels: rounded to 3 significant digits ("0.00881", "32.2"),
// or as many more (up to 6) as keep neighbours apart; a value that is no number ("inf",
// "true", "report") as it is.
std::vector<std::string> tick_labels(const std::vector<std::string>& labels);

// The measures a sweep's summary plots show, in order: key (a summary_metrics name, or
// p_right), a label for axes and titles, what it means (the window's tooltip), and whether
// it is a share (its axis and colour scale span 0..1).
struct SweepView {
  std::string key, label;
  std::string help;
  bool share = false;
};
// `scouts`: the sweep's flocks have scout groups (experiments::has_scouts), which adds the
// share of boids going right.
std::vector<SweepView> sweep_views(experiments::SweepKind kind, bool scouts = false);
// One combination's mean of a measure and its 95% interval: Student's t over the repeats (NaN
// with one run), or for shares of runs (formed, p_right) the Wilson interval.
void sweep_value(const experiments::SweepSpec& s, const experiments::ComboSummary& c, const std::string& key, double& mean, double& lo, double& hi);
// The summary figures of one measure: against the first axis, one line per combination of
// the others (with bands when there are at most three); and for two axes the heatmap.
plot::LinePlot sweep_line_plot(const experiments::SweepSpec& s, const std::vector<experiments::ComboSummary>& combos, const SweepView& view);
plot::Heatmap sweep_heatmap(const experiments::SweepSpec& s, const std::vector<experiments::ComboSummary>& combos, const SweepView& view);

// DIR/plots/<metric>[-lines|-heatmap].svg/png for a finished sweep. Returns the stems
// written and a note when the grid's shape has no plot (no swept key, too many series).
struct SweepPlots {
  std::vector<std::filesystem::path> stems;
  std::string note;
};
SweepPlots write_sweep_plots(const std::filesystem::path& dir, const experiments::SweepSpec& s,
                             const std::vector<experiments::ComboSummary>& combos, plot::Size size);

}  // namespace flockscope::cli
