// PlotData: the plotted series, one point per step of the source (every simulation step,
// every board frame received), whether or not the window drew it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "flockscope/core/metrics.hpp"
#include "flockscope/core/params.hpp"
#include "link/frame_assembler.hpp"
#include "plot_widget.hpp"
#include "series_colours.hpp"

namespace flockscope::gui {

// Whether the window plots the extensions' perched count and distances for a run with these
// parameters: while the flock perches, has food or predators that hunt (centroid, chase).
bool extension_plots(const Params& p);

// A metric the plots can draw: every per-step column of core's metrics table (step and
// time aside), so a metric added to that table is plottable with no edit here.
struct PlotMetric {
  std::string key;    // the metrics table's column name (share_right), as saved and exported
  std::string label;  // the legend's name (share right)
  std::string unit;   // px, boids, ... (empty: none)
  SeriesColour colour;
};
const std::vector<PlotMetric>& plot_metrics();
const PlotMetric* find_plot_metric(std::string_view key);

struct PlotData {
  Series diameter, cx, cy, polarisation, speed;
  // The lab's extensions: speeds of the boids moving down and up, perched boids, distances
  // to the nearest food source and from each predator to its nearest boid (NaN: none).
  Series speed_down, speed_up, perched, food_distance, predator_distance;
  std::vector<double> steps;    // the source's step number of each point
  // Nearest-neighbour distance and clusters of each point; NaN where they were not computed
  // for that step (they cost more: once per drawn frame).
  std::vector<double> nn, clusters;
  // The same two as series of the points that have them (a line, not isolated dots).
  Series nn_series, clusters_series;
  // The metrics table's other columns (share_right, share_left, ...), by plot_metrics().
  std::vector<Series> other;
  // Per point: where its metrics came from (all of the state, a board's own metrics message,
  // the boids that arrived of a partial frame).
  std::vector<link::MetricsSource> sources;
  // The stretches of plot time whose points are not from all of the state (shaded on the
  // plots).
  std::vector<TimeSpan> board_spans;
  std::vector<double> resets;   // plot times of resets (vertical markers; lines break there)
  std::vector<double> param_changes;  // plot times of live parameter changes (grey markers)
  double time_offset = 0;       // plot time continues across resets
  // The series of a plot_metrics() key (nullptr: no such metric).
  const Series* series(std::string_view key) const;
  // The plot time of the newest point (0 with none): the read-out's t.
  double last_time() const { return diameter.size() ? diameter.t().back() : 0; }
  void clear();
  // One point: the metrics of the source's step `step` at its time `time`, plotted at
  // time_offset + time (`neighbours`: nn and clusters were computed for it; `source`: see
  // mark_source). Returns its plot time. Time going back without a reset here (a
  // replayed reset, a seek) starts a new run, so the axis stays monotonic.
  double push(const Metrics& m, double time, std::uint64_t step, bool neighbours,
              link::MetricsSource source = link::MetricsSource::kState);
  // A reset: plot time goes on one step of `dt` after the last point, marked.
  void mark_reset(double dt);
  // A live parameter change at the last point (nothing before the first point).
  void mark_param_change();
  // Notes where the point just pushed at plot time t got its metrics: points not from all of
  // the state next to each other make one shaded span.
  void mark_source(double t, link::MetricsSource source);
};

}  // namespace flockscope::gui
