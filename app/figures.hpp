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

// DIR/plots/<metric>[-lines|-heatmap].svg/png for a finished sweep. Returns the stems
// written and a note when the grid's shape has no plot (no swept key, too many series).
struct SweepPlots {
  std::vector<std::filesystem::path> stems;
  std::string note;
};
SweepPlots write_sweep_plots(const std::filesystem::path& dir, const experiments::SweepSpec& s,
                             const std::vector<experiments::ComboSummary>& combos, plot::Size size);

}  // namespace flockscope::cli
