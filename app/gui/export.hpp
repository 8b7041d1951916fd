// Export of the plotted series: one CSV of every series (exact values, %.17g) and each plot
// as SVG and PNG through flockscope::plot, the writers `flockscope run --plots` uses too.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "flockscope/plot/plot.hpp"

namespace flockscope::gui {

struct PlotData;

struct ExportResult {
  std::vector<std::filesystem::path> files;
  std::string note;
};

// Writes FOLDER/STEM.csv and FOLDER/STEM-<plot>.svg/.png for the diameter, centroid,
// centroid path, polarisation and mean-speed plots. Long series are reduced to a min/max
// band of two points a pixel column before they reach the figure (the CSV keeps every
// point). Throws (naming the file) when the folder is not writable.
ExportResult export_plot_files(const std::filesystem::path& folder, const std::string& stem, const PlotData& d,
                               plot::Size size = {900, 500});

// The CSV text alone, one row per plotted point:
// time,step,diameter,centroid_x,centroid_y,polarisation,mean_speed,mean_nn_distance,clusters,source
// (mean_nn_distance and clusters empty where they were not computed for that step; source is
// `state` when the metrics came from every boid, `board` when a board's own metrics stood in).
std::string series_csv(const PlotData& d);

}  // namespace flockscope::gui
