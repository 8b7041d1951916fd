#include "plot_data.hpp"

#include <algorithm>
#include <limits>

namespace flockscope::gui {

bool extension_plots(const Params& p) {
  return (p.perch_frames > 0 && p.rule_set() == RuleSet::Cornell) || p.food > 0 ||
         (p.predators > 0 && p.hunt() != PredatorMode::Random);
}

void PlotData::clear() {
  for (Series* s : {&diameter, &cx, &cy, &polarisation, &speed, &speed_down, &speed_up, &perched, &food_distance,
                    &predator_distance})
    s->clear();
  steps.clear();
  nn.clear();
  clusters.clear();
  sources.clear();
  board_spans.clear();
  resets.clear();
  param_changes.clear();
  time_offset = 0;
}

double PlotData::push(const Metrics& m, double time, std::uint64_t step, bool neighbours, link::MetricsSource source) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  double t = time_offset + time;
  if (!diameter.t().empty() && t < diameter.t().back()) {
    time_offset = diameter.t().back() - time;
    resets.push_back(diameter.t().back());
    t = diameter.t().back();
  }
  diameter.push(t, m.diameter);
  cx.push(t, m.centroid_x);
  cy.push(t, m.centroid_y);
  polarisation.push(t, m.polarisation);
  speed.push(t, m.mean_speed);
  speed_down.push(t, m.speed_down);
  speed_up.push(t, m.speed_up);
  perched.push(t, double(m.perched));
  food_distance.push(t, m.food_distance);
  predator_distance.push(t, m.predator_distance);
  steps.push_back(double(step));
  nn.push_back(neighbours ? m.mean_nn_distance : kNaN);
  clusters.push_back(neighbours ? double(m.clusters) : kNaN);
  mark_source(t, source);
  return t;
}

void PlotData::mark_reset(double dt) {
  if (diameter.t().empty()) return;
  time_offset = diameter.t().back() + std::max(dt, 1e-9);
  resets.push_back(time_offset);
}

void PlotData::mark_param_change() {
  if (!diameter.t().empty()) param_changes.push_back(diameter.t().back());
}

void PlotData::mark_source(double t, link::MetricsSource source) {
  const bool after_board = !sources.empty() && sources.back() != link::MetricsSource::kState;
  sources.push_back(source);
  if (source == link::MetricsSource::kState) return;
  if (after_board && !board_spans.empty())
    board_spans.back().t1 = t;
  else
    board_spans.push_back({t, t});
}

}  // namespace flockscope::gui
