// Live plots on ImDrawList (ImPlot is not packaged in Debian): a time series store with a
// min/max pyramid, so that drawing a million points costs a few thousand line segments
// (min and max per pixel column), and one widget with nice ticks, autofit, wheel zoom, drag
// pan, legend toggles, a hover read-out and vertical markers (resets). Tick steps and labels
// come from flockscope::plot, so the live plots and the exported SVG/PNG label alike.
//
// Controls: wheel zooms time around the cursor (shift+wheel: the value axis), drag pans,
// double-click returns to autofit (follow the newest data), click a legend entry to hide it;
// a right-click asks the caller for its menu (PlotView::menu_asked).
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include <imgui.h>

namespace flockscope::gui {

// A growing (t, y) series, t non-decreasing. Appending is amortised O(1), including the
// pyramid of per-block minima and maxima (block sizes 2, 4, 8, ...).
class Series {
 public:
  void push(double t, double y);
  void clear();
  std::size_t size() const { return t_.size(); }
  const std::vector<double>& t() const { return t_; }
  const std::vector<double>& y() const { return y_; }

  // One pixel column (or one raw point when they are sparse): the range of y over it.
  struct Column {
    double t, lo, hi;
  };
  // Points with t in [t0, t1] (plus one either side, so lines reach the edges) reduced to
  // at most ~2 columns a pixel for `columns` pixels. Cost O(columns + log n).
  void decimate(double t0, double t1, int columns, std::vector<Column>& out) const;
  // Index of the last point with t <= x (or 0).
  std::size_t index_at(double x) const;

 private:
  std::vector<double> t_, y_;
  struct MinMax {
    double lo, hi;
  };
  std::vector<std::vector<MinMax>> levels_;  // levels_[k]: blocks of 2^(k+1) points
};

struct PlotLine {
  const char* name;
  const Series* series;
  ImU32 colour;
  bool* visible;
};

// View state of one plot, kept by the caller between frames.
struct PlotView {
  bool autofit_x = true, autofit_y = true;
  double x0 = 0, x1 = 1, y0 = 0, y1 = 1;
  std::size_t last_columns = 0;  // decimated columns drawn last frame (the stats show it)
  // What the user did to this plot last frame: zoomed, panned or fitted its time axis (the
  // caller links the others to it); right-clicked it (the caller opens its menu).
  bool moved_x = false, menu_asked = false;
  // The time under the cursor last frame (NaN: not over this plot); `cursor`, set by the
  // caller, draws a faint line at another plot's hovered time (NaN: none).
  double hover_t = std::numeric_limits<double>::quiet_NaN();
  double cursor = std::numeric_limits<double>::quiet_NaN();
  // Where each legend entry was drawn last frame (tests click them as a user would).
  struct LegendBox {
    std::string name;
    float x0, y0, x1, y1;
  };
  std::vector<LegendBox> legend;
};

// A stretch of time shaded on a time plot.
struct TimeSpan {
  double t0, t1;
};

// A time plot: every visible line against t, red vertical markers at `resets` (no line joins
// the points either side of one), `bands` shaded amber with a legend entry `band_label` (the
// stretches whose values are a board's own metrics rather than computed from its whole
// state), a white line at `playhead` (a replay's current frame; NaN: none), and thin grey
// markers at `changes` (live parameter changes). Times ascending.
void time_plot(const char* id, const char* title, const char* x_label, PlotView& view, std::span<PlotLine> lines,
               std::span<const double> resets, ImVec2 size, std::span<const TimeSpan> bands = {},
               const char* band_label = nullptr, double playhead = std::numeric_limits<double>::quiet_NaN(),
               std::span<const double> changes = {});

// A path plot: y against x of two series sampled together (the centroid's path), at most
// `max_points` points (evenly strided), the newest point marked, y growing downwards like
// the flock view.
void path_plot(const char* id, const char* title, PlotView& view, const Series& xs, const Series& ys, ImU32 colour,
               ImVec2 size, std::size_t max_points = 4000);

}  // namespace flockscope::gui
