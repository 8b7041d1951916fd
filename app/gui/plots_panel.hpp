// The plots panel: diameter, centroid, polarisation and mean speed over time, and the
// centroid's path, each zoomable with legend toggles (plot_widget), drawn from PlotData.
#pragma once

#include <array>

#include "flockscope/core/params.hpp"
#include "panel_support.hpp"
#include "plot_data.hpp"

namespace flockscope::gui {

class PlotsPanel {
 public:
  // Fills the current ImGui window's content region; `p`: the parameters in force (units);
  // `playhead`: the plot time of a replay's current frame (NaN: none).
  void draw(const PlotData& plots, const Params& p, double playhead, WidgetRects& rects);

 private:
  std::array<PlotView, 6> views_{};
  bool show_cx_ = true, show_cy_ = true, show_d_ = true, show_pol_ = true, show_speed_ = true;
};

}  // namespace flockscope::gui
