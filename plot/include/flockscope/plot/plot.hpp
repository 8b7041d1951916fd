// flockscope::plot: line plots (with spread bands and markers) and heatmaps, written as SVG
// and PNG. Knows nothing of flocks or of any UI.
//
// Three layers, so a window can reuse the first two:
//   model   LinePlot / Heatmap: data, axes, labels (this header)
//   layout  layout(plot, w, h) -> Scene: every mark in pixels (scene.hpp), ticks from ticks.hpp
//   output  to_svg(scene) (svg.hpp), rasterise(scene) + encode_png (raster.hpp)
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "flockscope/plot/ticks.hpp"

namespace flockscope::plot {

struct Color {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  bool operator==(const Color&) const = default;
};
Color with_alpha(Color c, double alpha);
// Ten well-separated colours for series, cycling.
Color palette(std::size_t i);
// A perceptually ordered dark-blue -> green -> yellow scale for heatmaps, t in [0, 1].
Color colormap(double t);

struct Series {
  std::string name;                 // legend entry (none if empty)
  std::vector<double> x, y;         // NaN in y breaks the line
  std::vector<double> lo, hi;       // optional spread band, same length as x
  double band_alpha = 0.22;         // lighter when many bands overlap
  std::optional<Color> color;       // else palette(index)
  double line_width = 1.75;
  bool lines = true;
  bool markers = false;
  double marker_radius = 3;
};

// A named series of points joined by a line.
Series make_series(std::string name, std::vector<double> x, std::vector<double> y);

struct Axis {
  std::string label;
  std::optional<double> min, max;   // fixed limits; else the data's, padded
  bool integer = false;             // integer ticks only
  // Named positions: tick k sits at x = k and reads categories[k] (values that have no
  // place on a number line: "inf", "true", "report").
  std::vector<std::string> categories;
  // Values grow downwards (a y axis in screen coordinates, as the window draws the world).
  bool downward = false;
};

struct LinePlot {
  std::string title;
  Axis x, y;
  std::vector<Series> series;
  bool equal_aspect = false;        // one x unit as long as one y unit (paths in a world)
  bool legend = true;
};

struct Heatmap {
  std::string title, x_label, y_label, value_label;
  std::vector<std::string> x_categories, y_categories;
  std::vector<double> values;       // values[iy * nx + ix]; NaN = no data
  std::optional<double> min, max;   // colour scale limits; else the data's
  bool annotate = true;             // print values in cells that are large enough
};
// The value range a heatmap's colours span: min and max where set, else the smallest and
// largest finite cell value (one value alone is opened by 10% of itself on each side, or
// by 1 around 0). Whoever draws a heatmap (the SVG/PNG layout, the window) colours with it.
Range colour_range(const Heatmap& h);

struct Size {
  int width = 800, height = 500;
};

// Writes stem.svg and stem.png (stem is a path without extension). Creates the folder.
// Throws std::runtime_error when a file cannot be written.
void write_plot(const std::filesystem::path& stem, const LinePlot& p, Size size = {});
void write_plot(const std::filesystem::path& stem, const Heatmap& h, Size size = {});

}  // namespace flockscope::plot
