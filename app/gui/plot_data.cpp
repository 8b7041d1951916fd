#include "plot_data.hpp"

#include <algorithm>
#include <limits>

namespace flockscope::gui {

namespace {
// The columns PlotData keeps as named series (the fixed panels, the export's columns).
struct Named {
  std::string_view key;
  Series PlotData::*member;
};
constexpr Named kNamed[] = {{"diameter", &PlotData::diameter},
                            {"centroid_x", &PlotData::cx},
                            {"centroid_y", &PlotData::cy},
                            {"polarisation", &PlotData::polarisation},
                            {"mean_speed", &PlotData::speed},
                            {"mean_nn_distance", &PlotData::nn_series},
                            {"clusters", &PlotData::clusters_series},
                            {"perched", &PlotData::perched},
                            {"speed_down", &PlotData::speed_down},
                            {"speed_up", &PlotData::speed_up},
                            {"food_distance", &PlotData::food_distance},
                            {"predator_distance", &PlotData::predator_distance}};

const Named* named(std::string_view key) {
  for (const Named& n : kNamed)
    if (n.key == key) return &n;
  return nullptr;
}

// The metrics table's columns that go into PlotData::other, in table order.
const std::vector<std::size_t>& other_columns() {
  static const std::vector<std::size_t> cols = [] {
    std::vector<std::size_t> c;
    const auto table = metrics_table();
    for (std::size_t i = 0; i < table.size(); ++i)
      if (table[i].name != "step" && table[i].name != "time" && !named(table[i].name)) c.push_back(i);
    return c;
  }();
  return cols;
}
}  // namespace

const std::vector<PlotMetric>& plot_metrics() {
  static const std::vector<PlotMetric> metrics = [] {
    // The legend's names of the fixed panels' lines; any other column is named after itself.
    struct Known {
      std::string_view key;
      const char* label;
      const char* unit;
      SeriesColour colour;
    };
    constexpr Known known[] = {
        {"diameter", "diameter", "px", kDiameterColour},
        {"centroid_x", "centroid x", "px", kCentroidXColour},
        {"centroid_y", "centroid y", "px", kCentroidYColour},
        {"polarisation", "polarisation", "", kPolarisationColour},
        {"mean_speed", "mean speed", "px/frame", kSpeedColour},
        {"mean_nn_distance", "nearest neighbour", "px", kNearestNeighbourColour},
        {"clusters", "clusters", "", kClustersColour},
        {"share_right", "share right", "", kShareRightColour},
        {"share_left", "share left", "", kShareLeftColour},
        {"perched", "perched", "boids", kPerchedColour},
        {"speed_down", "down", "px/frame", kSpeedDownColour},
        {"speed_up", "up", "px/frame", kSpeedUpColour},
        {"food_distance", "food", "px", kFoodDistanceColour},
        {"predator_distance", "predator", "px", kPredatorDistanceColour},
    };
    constexpr SeriesColour kOthers[] = {{180, 230, 120}, {230, 130, 230}, {120, 230, 220}, {230, 180, 140}};
    std::vector<PlotMetric> v;
    std::size_t unknown = 0;
    for (const MetricsColumn& col : metrics_table()) {
      if (col.name == "step" || col.name == "time") continue;
      PlotMetric m{std::string(col.name), std::string(col.name), "", kOthers[unknown % std::size(kOthers)]};
      bool found = false;
      for (const Known& k : known)
        if (k.key == col.name) m.label = k.label, m.unit = k.unit, m.colour = k.colour, found = true;
      if (!found) {
        ++unknown;
        std::replace(m.label.begin(), m.label.end(), '_', ' ');
      }
      v.push_back(std::move(m));
    }
    return v;
  }();
  return metrics;
}

const PlotMetric* find_plot_metric(std::string_view key) {
  for (const PlotMetric& m : plot_metrics())
    if (m.key == key) return &m;
  return nullptr;
}

const Series* PlotData::series(std::string_view key) const {
  if (const Named* n = named(key)) return &(this->*(n->member));
  const auto& cols = other_columns();
  const auto table = metrics_table();
  for (std::size_t k = 0; k < cols.size(); ++k)
    if (table[cols[k]].name == key) return k < other.size() ? &other[k] : nullptr;
  return nullptr;
}

bool extension_plots(const Params& p) {
  return (p.perch_frames > 0 && p.rule_set() == RuleSet::Cornell) || p.food > 0 ||
         (p.predators > 0 && p.hunt() != PredatorMode::Random);
}

void PlotData::clear() {
  for (Series* s : {&diameter, &cx, &cy, &polarisation, &speed, &speed_down, &speed_up, &perched, &food_distance,
                    &predator_distance, &nn_series, &clusters_series})
    s->clear();
  other.clear();
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
  if (neighbours) nn_series.push(t, m.mean_nn_distance), clusters_series.push(t, double(m.clusters));
  const auto& cols = other_columns();
  other.resize(cols.size());
  const auto table = metrics_table();
  for (std::size_t k = 0; k < cols.size(); ++k) other[k].push(t, table[cols[k]].value(step, time, m));
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
