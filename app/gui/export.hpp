// Export of the plotted series: a CSV of the exported rows (exact values, %.17g) and each plot
// as SVG and PNG through flockscope::plot, in the conventions of `flockscope run --plots`
// (titles naming the preset, seed and boid count, "time t (steps x dt)", start and end
// markers on the path), with the window's colours and the world's y axis pointing down.
#pragma once

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "flockscope/core/params.hpp"
#include "flockscope/plot/plot.hpp"

namespace flockscope::gui {

struct PlotData;

struct ExportResult {
  std::vector<std::filesystem::path> files;
  std::string note;
};

// The lines a user can hide on the plots; a hidden one is left out of the CSV and the figures.
struct ShownSeries {
  bool diameter = true, centroid_x = true, centroid_y = true, polarisation = true, speed = true;
  bool speed_down = true, speed_up = true, perched = true, food_distance = true, predator_distance = true;
};

// The plots by file name: STEM-<name>.svg/.png. The last two only for a run that perches, has
// food or predators (ExportOptions::extensions).
inline constexpr const char* kExportPlots[] = {"diameter", "centroid", "centroid-path", "polarisation", "mean-speed",
                                               "perched", "distance"};

// What one time plot of the window draws, for its figure: its series (plot_metrics() keys,
// the lines shown), whether they are the plot's defaults (the figure then draws as
// `flockscope run --plots` does), and the screen's value range when the user zoomed it
// (else the figure fits its data).
struct FigureChoice {
  std::string plot;  // one of kExportPlots
  std::vector<std::string> series;
  bool default_series = true;
  std::optional<std::pair<double, double>> y;
};

struct ExportOptions {
  plot::Size size{900, 500};
  // The rows exported: plotted points [first, last) (the visible range, the run since the
  // last reset); last beyond the data means to the end.
  std::size_t first = 0, last = std::size_t(-1);
  ShownSeries shown;
  std::string only;  // one of kExportPlots, or empty: all of them
  bool extensions = false;  // the perched and distance plots too (extension_plots())
  // "report-baseline, seed 7, N = 2000": named in every title (empty: not named).
  std::string who;
  // Written as STEM-preset.json (loadable by --preset FILE) when given; its world's size
  // also frames the centroid path.
  std::optional<Params> params;
  std::string description;  // the preset's description
  // The window's plots (PlotsPanel::export_choices): each figure's series and value range,
  // written to STEM-plots.json beside the figures. Empty: the default series, fitted.
  std::vector<FigureChoice> figures;
  bool linked_time = true;
};

// Writes FOLDER/STEM.csv, FOLDER/STEM-<plot>.svg/.png (all plots or the one asked for),
// FOLDER/STEM-preset.json and, with ExportOptions::figures, FOLDER/STEM-plots.json (each
// figure's file, series, time and value range). Long series are reduced to a min/max band of two points a pixel
// column before they reach the figure (the CSV keeps every point). Throws (naming the file)
// when the folder is not writable.
ExportResult export_plot_files(const std::filesystem::path& folder, const std::string& stem, const PlotData& d,
                               const ExportOptions& o);
inline ExportResult export_plot_files(const std::filesystem::path& folder, const std::string& stem, const PlotData& d,
                                      plot::Size size = {900, 500}) {
  ExportOptions o;
  o.size = size;
  return export_plot_files(folder, stem, d, o);
}

// The CSV text alone, one row per plotted point:
// time,step,diameter,centroid_x,centroid_y,polarisation,mean_speed,mean_nn_distance,clusters,
// perched,speed_down,speed_up,food_distance,predator_distance,source,run, then the metrics
// table's other columns in its order (share_right,share_left, any a rule adds), so every
// metric a plot can draw has its values here
// (mean_nn_distance and clusters empty where they were not computed for that step; source is
// `state` when the metrics came from every boid, `board` when a board's own metrics stood in;
// run counts from 1 and goes up at every reset, where step restarts while time goes on;
// food_distance and predator_distance empty without food or predators).
// A hidden series' column is left out (the columns after run are always there); rows
// outside [first, last) too.
std::string series_csv(const PlotData& d, const ShownSeries& shown = {}, std::size_t first = 0,
                       std::size_t last = std::size_t(-1));

// The rows [first, last) of the points with plot time in [t0, t1]; of the points since the
// last reset.
std::pair<std::size_t, std::size_t> rows_in(const PlotData& d, double t0, double t1);
std::pair<std::size_t, std::size_t> rows_since_reset(const PlotData& d);

}  // namespace flockscope::gui
