// The plots panel: diameter, centroid, polarisation and mean speed (with the speeds of the
// boids moving down and up) over time, and the centroid's path, each zoomable with legend
// toggles (plot_widget), drawn from PlotData. A run that perches, has food or hunting
// predators (extension_plots) gets a third column: the perched boids, and the mean distances from the
// boids to the nearest food source and from the predators to their nearest boid.
#pragma once

#include <array>
#include <optional>
#include <utility>

#include "flockscope/core/params.hpp"
#include "panel_support.hpp"
#include "export.hpp"
#include "plot_data.hpp"

namespace flockscope::gui {

class PlotsPanel {
 public:
  // Fills the current ImGui window's content region; `p`: the parameters in force (units);
  // `playhead`: the plot time of a replay's current frame (NaN: none); `previous`, when
  // given, is drawn in grey behind (the run before the last preset loaded).
  void draw(const PlotData& plots, const Params& p, double playhead, WidgetRects& rects,
            const PlotData* previous = nullptr);

  // The lines the user has not hidden (their legend entries).
  ShownSeries shown() const {
    return {show_d_, show_cx_, show_cy_, show_pol_, show_speed_, show_down_, show_up_, show_perched_, show_food_, show_predator_};
  }
  // The time range of the time plot last zoomed or panned ("the visible range"); nothing
  // while every plot follows its data.
  std::optional<std::pair<double, double>> zoomed_range() const;
  // Back to autofit, as after a double-click (the plots were cleared).
  void fit_all();
  // A plot's view (0 diameter, 1 centroid, 2 polarisation, 3 speed, 4 path, 5 perched,
  // 6 distance) as drawn last frame.
  const PlotView& view(std::size_t i) const { return views_.at(i); }

 private:
  std::array<PlotView, 7> views_{};
  bool show_cx_ = true, show_cy_ = true, show_d_ = true, show_pol_ = true, show_speed_ = true, show_previous_ = true;
  bool show_down_ = true, show_up_ = true, show_perched_ = true, show_food_ = true, show_predator_ = true;
  // Which time plot moved last, and each one's x range last frame (to tell which moved).
  int zoomed_ = -1;
  std::array<std::pair<double, double>, 7> seen_x_{};
};

}  // namespace flockscope::gui
