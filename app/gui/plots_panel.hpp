// The plots panel: time plots whose series the user picks from every metric the engine
// computes per step (plot_metrics(); a right-click on a plot lists them), each zoomable with
// legend toggles (plot_widget), drawn from PlotData, and the centroid's path. By default:
// diameter, centroid x and y, polarisation, mean speed (with the speeds of the boids moving
// down and up); a run that perches, has food or hunting predators (extension_plots) gets a
// third column: the perched boids, and the mean distances from the boids to the nearest
// food source and from the predators to their nearest boid. The time axes are linked (a
// zoom or pan on one moves all, and the time hovered shows on all) until unlinked.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "flockscope/core/params.hpp"
#include "panel_support.hpp"
#include "export.hpp"
#include "plot_data.hpp"

namespace flockscope::gui {

class PlotsPanel {
 public:
  // The time plots, by the name their files export under (kExportPlots) and their view index.
  static constexpr std::array<const char*, 6> kCells = {"diameter", "centroid", "polarisation", "speed", "perched", "distance"};

  PlotsPanel();

  // Fills the current ImGui window's content region; `p`: the parameters in force (units);
  // `playhead`: the plot time of a replay's current frame (NaN: none); `previous`, when
  // given, is drawn in grey behind (the run before the last preset loaded).
  void draw(const PlotData& plots, const Params& p, double playhead, WidgetRects& rects,
            const PlotData* previous = nullptr);

  // The lines the user has not hidden (their legend entries).
  ShownSeries shown() const;
  bool visible(const std::string& key) const;
  // The time range of the time plot last zoomed or panned ("the visible range"); nothing
  // while every plot follows its data.
  std::optional<std::pair<double, double>> zoomed_range() const;
  // Back to autofit, as after a double-click (the plots were cleared, a new run started).
  void fit_all();
  // A plot's view (0 diameter, 1 centroid, 2 polarisation, 3 speed, 4 path, 5 perched,
  // 6 distance) as drawn last frame.
  const PlotView& view(std::size_t i) const { return views_.at(i); }

  // The metrics (plot_metrics() keys) a time plot draws; `cell` one of kCells. Unknown keys
  // are dropped.
  const std::vector<std::string>& series(const std::string& cell) const;
  void set_series(const std::string& cell, const std::vector<std::string>& keys);
  // Whether a zoom or pan of one time axis moves them all.
  bool linked() const { return linked_; }
  void set_linked(bool on) { linked_ = on; }

  // The choices kept with the window's layout (settings.json): each plot's series, the link.
  nlohmann::json layout() const;
  void restore_layout(const nlohmann::json& j);
  // What the export writes of the plots: each figure's series and y range (the screen's
  // when its values were zoomed), and the side file's description of them.
  void export_choices(ExportOptions& o) const;

 private:
  struct Cell {
    std::vector<std::string> keys, defaults;
    const char* title;  // while the default series show
  };
  std::size_t view_index(std::size_t cell) const;
  void menu(std::size_t cell, WidgetRects& rects);

  std::array<Cell, kCells.size()> cells_;
  std::array<PlotView, 7> views_{};
  std::vector<std::pair<std::string, bool>> visible_;  // per metric key: its legend toggle
  bool show_previous_ = true;
  bool linked_ = true;
  double hover_t_;  // the time hovered last frame on any time plot (NaN: none)
  // Which time plot moved last, and each one's x range last frame (to tell which moved).
  int zoomed_ = -1;
  std::array<std::pair<double, double>, 7> seen_x_{};
};

}  // namespace flockscope::gui
