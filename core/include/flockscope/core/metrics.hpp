// Flock metrics: what the app plots and the command line writes. Computed from positions and
// velocities in any order; sums run in a fixed order in double precision, so a metric is as
// deterministic as the state it is computed from.
#pragma once

#include <cstddef>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/params.hpp"

namespace flockscope {

struct Metrics {
  double diameter = 0;          // seed 002: mean distance of the boids to the centroid
  double centroid_x = 0, centroid_y = 0;
  double polarisation = 0;      // |mean unit heading| in [0, 1] (boids at rest excluded)
  double mean_speed = 0;
  double mean_nn_distance = 0;  // mean distance to the nearest other boid (0 with < 2 boids)
  int clusters = 0;             // connected groups, linked when closer than the cluster radius
  double share_right = 0;       // share of boids with vx > 0
  double share_left = 0;        // share of boids with vx < 0
  // The lab's extensions. A perched boid rests with velocity exactly (0, 0); +y is down.
  std::size_t perched = 0;      // boids at rest
  double speed_down = 0;        // mean speed of the boids with vy > 0 (0 when there are none)
  double speed_up = 0;          // mean speed of the boids with vy < 0 (0 when there are none)
  // NaN (an empty CSV cell) when there is nothing to measure: no food source, no predator,
  // no boid.
  double food_distance = std::numeric_limits<double>::quiet_NaN();      // mean over boids: to the nearest source
  double predator_distance = std::numeric_limits<double>::quiet_NaN();  // mean over predators: to the nearest boid
};

struct PointsView {
  const float* x;
  const float* y;
  const float* vx;
  const float* vy;
  std::size_t n;
  // What the boids are measured against (food_distance, predator_distance); empty: none.
  std::span<const FoodSource> food = {};
  std::span<const Predator> predators = {};
};

// The flock's boids (storage order), food sources and predators.
PointsView view_of(const Flock& f);

// The distance under which two boids belong to the same cluster: the visual range of the
// rule set (infinite report vision: every boid sees every other, so one cluster).
double cluster_radius(const Params& p);

struct MetricsOptions {
  bool nearest_neighbour = true;  // near-linear (a grid, a k-d tree when boids crowd), but the costliest metric
  bool clusters = true;
};

Metrics compute_metrics(const PointsView& pts, double cluster_radius, const MetricsOptions& opt = {});
Metrics compute_metrics(const Flock& f, const MetricsOptions& opt = {});
// Only the neighbour metrics that `opt` asks for (nearest-neighbour distance, clusters),
// into `m`: for callers that already have the others (the window's every-step metrics).
void add_neighbour_metrics(Metrics& m, const PointsView& pts, double cluster_radius, const MetricsOptions& opt);

// The metrics a window plots every step (all but nearest-neighbour distance and clusters,
// which stay 0) on `threads` threads. Fixed blocks summed in order: the same result on any thread count, equal to
// compute_metrics() to rounding (about 1e-12 relative), not bit for bit.
Metrics compute_step_metrics(const PointsView& pts, int threads);

// One column of the metrics table (metrics.csv, the Python module's DataFrames): its name,
// whether it holds whole numbers (step, clusters, perched), and its value in the row of a
// step. nan_is_empty: NaN means nothing to measure, written as an empty cell.
struct MetricsColumn {
  std::string_view name;
  bool whole;
  double (*value)(std::uint64_t step, double time, const Metrics& m);
  bool nan_is_empty = false;
};
std::span<const MetricsColumn> metrics_table();

// Column names of the metrics table, in the order metrics_row() writes them.
const std::vector<std::string>& metrics_columns();
// One CSV row: step, time, then every metric (a NaN one as an empty cell).
std::string metrics_row(std::uint64_t step, double time, const Metrics& m);

}  // namespace flockscope
