// Sections: sizes and names | a run's plots | a sweep's plots
#include "figures.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

#include "flockscope/core/io.hpp"
#include "flockscope/plot/ticks.hpp"

namespace flockscope::cli {
using namespace experiments;
namespace fs = std::filesystem;

// ---------------------------------------------------------------- sizes and names
plot::Size parse_plot_size(const std::string& text) {
  const auto x = text.find('x');
  plot::Size s;
  try {
    if (x == std::string::npos) throw std::invalid_argument("no x");
    std::size_t used = 0;
    s.width = std::stoi(text.substr(0, x), &used);
    if (used != x) throw std::invalid_argument("width");
    s.height = std::stoi(text.substr(x + 1), &used);
    if (used != text.size() - x - 1) throw std::invalid_argument("height");
  } catch (const std::exception&) {
    throw InputError("--plot-size " + text + ": expected WIDTHxHEIGHT in pixels, e.g. 800x500");
  }
  if (s.width < 200 || s.height < 150 || s.width > 8000 || s.height > 8000)
    throw InputError("--plot-size " + text + ": allowed 200x150 to 8000x8000");
  return s;
}

namespace {

std::string preset_name(const std::string& preset) {
  return preset.empty() ? std::string("custom") : fs::path(preset).stem().string();
}

bool integer_key(const std::string& key) {
  const ParamDef* d = find_param(key);
  return d && d->kind != ParamKind::Real;
}

std::string value_name(const std::string& key, const std::string& label) {
  if (key == "dynamicbias") return label == "true" ? "dynamic bias" : "static bias";
  return key + "=" + label;
}

}  // namespace

std::string key_title(const std::string& key) {
  if (key == kInformedKey) return "informed share (scouts / boids)";
  if (key == kRightShareKey) return "share of the scouts biased right";
  if (const ParamDef* d = find_param(key); d && !d->unit.empty()) return key + " (" + std::string(d->unit) + ")";
  return key;
}

std::vector<std::string> tick_labels(const std::vector<std::string>& labels) {
  std::vector<std::string> out;
  for (int digits = 3; digits <= 6; ++digits) {
    out.clear();
    bool distinct = true;
    for (const auto& l : labels) {
      char* end = nullptr;
      const double v = std::strtod(l.c_str(), &end);
      std::string text = l;
      if (!l.empty() && end == l.c_str() + l.size() && std::isfinite(v)) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        text = buf;
      }
      if (!out.empty() && out.back() == text) distinct = false;
      out.push_back(std::move(text));
    }
    if (distinct) break;
  }
  return out;
}

// ---------------------------------------------------------------- a run's plots
std::vector<fs::path> write_run_plots(const fs::path& dir, const RunSpec& spec, const RunResult& r, plot::Size size) {
  // Plots of the world keep its aspect ratio: a canvas about as wide as the box needs.
  plot::Size world = size;
  world.width = std::clamp(int(std::lround((size.height - 90) * r.params.width / r.params.height)) + 150, 300, size.width);
  const std::string who = preset_name(spec.preset) + ", seed " + std::to_string(r.params.seed);
  std::vector<double> t = r.times, d, cx, cy, pol;
  for (const auto& m : r.metrics) d.push_back(m.diameter), cx.push_back(m.centroid_x), cy.push_back(m.centroid_y), pol.push_back(m.polarisation);
  std::vector<fs::path> stems;
  // One quantity against time from 0 up, as DIR/NAME.svg and .png.
  auto time_plot = [&](const std::string& name, const std::string& title, const std::string& y_label,
                       const std::vector<double>& y, std::optional<double> y_max) {
    plot::LinePlot lp;
    lp.title = title + " (" + who + ")";
    lp.x.label = "time t (steps x dt)";
    lp.y.label = y_label;
    lp.y.min = 0, lp.y.max = y_max;
    lp.legend = false;
    lp.series.push_back(plot::make_series(name, t, y));
    stems.push_back(dir / name);
    plot::write_plot(stems.back(), lp, size);
  };

  time_plot("diameter", "Average flock diameter", "flock diameter D (mean distance to the centroid)", d, std::nullopt);

  plot::LinePlot pp;
  pp.title = "Average flock path (" + who + ")";
  pp.x.label = "centroid x (px)";
  pp.y.label = "centroid y (px, downwards as on screen)";
  pp.equal_aspect = true;
  pp.y.downward = true;  // as the window and the board's VGA screen draw the world
  // The world's box, widened if the centroid ever left it (Cornell boids are never clamped).
  const plot::Range xr = plot::finite_range(cx), yr = plot::finite_range(cy);
  pp.x.min = std::min(0.0, xr.lo), pp.x.max = std::max(r.params.width, xr.hi);
  pp.y.min = std::min(0.0, yr.lo), pp.y.max = std::max(r.params.height, yr.hi);
  pp.series.push_back(plot::make_series("centroid path", cx, cy));
  if (!cx.empty()) {
    plot::Series start = plot::make_series("start", {cx.front()}, {cy.front()});
    start.lines = false, start.markers = true, start.marker_radius = 4.5, start.color = plot::Color{44, 150, 60, 255};
    plot::Series end = plot::make_series("end", {cx.back()}, {cy.back()});
    end.lines = false, end.markers = true, end.marker_radius = 4.5, end.color = plot::Color{200, 40, 40, 255};
    pp.series.push_back(start);
    pp.series.push_back(end);
  }
  stems.push_back(dir / "path");
  plot::write_plot(stems.back(), pp, world);

  time_plot("polarisation", "Polarisation", "polarisation |mean unit heading|", pol, 1);

  // Final positions with a short heading tick each; scouts coloured by group.
  plot::LinePlot sp;
  sp.title = "Final state (" + who + ", t = " + plot::format_value(t.empty() ? 0.0 : t.back(), 4) + ")";
  sp.x.label = "x (px)";
  sp.y.label = "y (px, downwards as on screen)";
  sp.equal_aspect = true;
  sp.y.downward = true;
  const FlockSnapshot& s = r.final_state;
  const std::vector<double> sx(s.x.begin(), s.x.end()), sy(s.y.begin(), s.y.end());
  const plot::Range bx = plot::finite_range(sx), by = plot::finite_range(sy);
  sp.x.min = std::min(0.0, bx.lo), sp.x.max = std::max(r.params.width, bx.hi);
  sp.y.min = std::min(0.0, by.lo), sp.y.max = std::max(r.params.height, by.hi);
  const char* names[3] = {"boids", "scouts biased right", "scouts biased left"};
  const plot::Color colours[3] = {{60, 60, 60, 255}, {200, 40, 40, 255}, {31, 119, 180, 255}};
  const double tick = 0.012 * std::max(sp.x.max.value() - sp.x.min.value(), sp.y.max.value() - sp.y.min.value());
  for (int g = 0; g < 3; ++g) {
    plot::Series dots = plot::make_series(names[g], {}, {}), heads;
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (scout_group(r.params, std::uint32_t(i)) != g) continue;
      dots.x.push_back(s.x[i]), dots.y.push_back(s.y[i]);
      const double v = std::hypot(double(s.vx[i]), double(s.vy[i]));
      if (v > 0 && s.size() <= 5000) {
        heads.x.insert(heads.x.end(), {double(s.x[i]), s.x[i] + tick * s.vx[i] / v, NAN});
        heads.y.insert(heads.y.end(), {double(s.y[i]), s.y[i] + tick * s.vy[i] / v, NAN});
      }
    }
    if (dots.x.empty()) continue;
    dots.lines = false, dots.markers = true, dots.marker_radius = 1.8, dots.color = colours[g];
    heads.line_width = 1, heads.color = colours[g];
    if (g == 0 && s.size() > 0 && r.params.scouts1 + r.params.scouts2 == 0) dots.name.clear();
    sp.series.push_back(std::move(heads));
    sp.series.push_back(std::move(dots));
  }
  stems.push_back(dir / "state");
  plot::write_plot(stems.back(), sp, world);
  return stems;
}

// ---------------------------------------------------------------- a sweep's plots
std::vector<SweepView> sweep_views(SweepKind kind, bool scouts) {
  std::vector<SweepView> v;
  if (kind == SweepKind::Consensus) {
    v.push_back({"p_right", "P(the flock goes right)",
                 "the share of runs whose naive boids' centroid reached the right of the interior first", true});
    v.push_back({"decision_time", "time to decide (decided runs)", "steps x dt until the naive boids' centroid reached a side"});
  }
  v.push_back({"final_diameter", "final flock diameter D", "mean distance of the boids to their centroid after the last step"});
  v.push_back({"mean_diameter", "time-mean flock diameter D", "the flock diameter averaged over every step of the run"});
  v.push_back({"mean_polarisation", "time-mean polarisation",
               "|mean unit heading| averaged over every step: 1 all boids fly the same way, near 0 no common heading"});
  v.push_back({"final_clusters", "clusters at the end", "groups of boids linked through neighbours after the last step"});
  v.push_back({"formed", "share of runs in which the flock formed", "runs in which every boid was once linked into one group", true});
  v.push_back({"formed_time", "time until the flock first forms", "steps x dt until the boids were first one group (runs that formed)"});
  if (scouts) {
    // Seed 000's question, which way the scouts take the flock, as core's share_right.
    v.push_back({"mean_share_right", "time-mean share of boids going right",
                 "the share of boids with vx > 0, averaged over steps 0..N: 0.5 is no side; scout group 1 (biased right) "
                 "pulls it up, group 2 (biased left) down. The margins turn the flock back, so over a long run it "
                 "returns toward 0.5: take steps that end before the flock crosses the box",
                 true});
    v.push_back({"final_share_right", "share of boids going right at the end",
                 "the share of boids with vx > 0 after the last step: one snapshot, which swings as the margins turn "
                 "the flock",
                 true});
  }
  return v;
}

// Mean and 95% interval of one metric in one combination: Student's t over the repeats, or
// for shares of runs (formed, p_right) the Wilson interval. The window's map shows the same.
void sweep_value(const SweepSpec& s, const ComboSummary& c, const std::string& key, double& mean, double& lo, double& hi) {
  if (key == "p_right") {
    mean = c.right.p, lo = c.right.lo, hi = c.right.hi;
    return;
  }
  const auto& names = summary_metrics(s.kind);
  const auto k = std::size_t(std::find(names.begin(), names.end(), key) - names.begin());
  const SampleStats& st = c.metrics.at(k);
  mean = st.mean;
  if (key == "formed") {
    const Proportion p = proportion(std::size_t(std::llround(st.mean * double(st.n))), st.n);
    lo = p.lo, hi = p.hi;
    return;
  }
  const Interval ci = mean_interval95(st);  // NaN with one run: no band
  lo = ci.lo, hi = ci.hi;
}

namespace {

std::string runs_text(const SweepSpec& s) { return std::to_string(s.reps) + (s.reps == 1 ? " run" : " runs"); }

// Series of the line plots: one per combination of the axes after the first, in grid order
// (the order the values were given), not sorted as text.
using SeriesGroups = std::vector<std::pair<std::vector<std::string>, std::vector<const ComboSummary*>>>;
SeriesGroups series_groups(const std::vector<ComboSummary>& combos) {
  SeriesGroups groups;
  for (const auto& c : combos) {
    std::vector<std::string> other(c.labels.begin() + 1, c.labels.end());
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == other; });
    if (it == groups.end()) groups.emplace_back(std::move(other), std::vector<const ComboSummary*>{&c});
    else it->second.push_back(&c);
  }
  return groups;
}

plot::LinePlot line_plot(const SweepSpec& s, const SeriesGroups& groups, const SweepView& view) {
  const std::string runs = runs_text(s);
  // More than three overlapping bands hide each other and the lines: then lines only.
  const bool bands = groups.size() <= 3;
  const std::string spread = !bands ? "mean" : "mean and 95% interval";
  plot::LinePlot lp;
  lp.title = view.label + " (" + preset_name(s.preset) + ", " + runs + " each, " + spread + ")";
  lp.x.label = key_title(s.axes[0].key);
  lp.x.integer = integer_key(s.axes[0].key);
  // Values with no place on a number line (inf, true, a rule set) become named positions.
  const bool categorical = std::any_of(s.axes[0].values.begin(), s.axes[0].values.end(),
                                       [](double v) { return !std::isfinite(v); }) ||
                           (find_param(s.axes[0].key) && find_param(s.axes[0].key)->kind != ParamKind::Real &&
                            find_param(s.axes[0].key)->kind != ParamKind::Int);
  if (categorical) lp.x.categories = tick_labels(s.axes[0].labels);
  lp.y.label = view.label;
  if (view.share) lp.y.min = 0, lp.y.max = 1;
  for (const auto& [other, members] : groups) {
    plot::Series se;
    for (std::size_t a = 1; a < s.axes.size(); ++a) {
      if (!se.name.empty()) se.name += ", ";
      se.name += value_name(s.axes[a].key, other[a - 1]);
    }
    if (se.name.empty()) se.name = spread + " over " + runs;
    se.markers = true;
    for (const ComboSummary* c : members) {
      double m = NAN, lo = NAN, hi = NAN;
      sweep_value(s, *c, view.key, m, lo, hi);
      const auto& labels = s.axes[0].labels;
      const double x = categorical ? double(std::find(labels.begin(), labels.end(), c->labels[0]) - labels.begin())
                                   : c->values[0];
      se.x.push_back(x), se.y.push_back(m);
      if (bands) se.lo.push_back(lo), se.hi.push_back(hi);
    }
    lp.series.push_back(std::move(se));
  }
  return lp;
}

}  // namespace

plot::LinePlot sweep_line_plot(const SweepSpec& s, const std::vector<ComboSummary>& combos, const SweepView& view) {
  return line_plot(s, series_groups(combos), view);
}

plot::Heatmap sweep_heatmap(const SweepSpec& s, const std::vector<ComboSummary>& combos, const SweepView& view) {
  plot::Heatmap hm;
  hm.title = view.label + " (" + preset_name(s.preset) + ", mean of " + runs_text(s) + ")";
  hm.x_label = key_title(s.axes[0].key);
  hm.y_label = key_title(s.axes[1].key);
  hm.value_label = view.label;
  hm.x_categories = tick_labels(s.axes[0].labels);
  hm.y_categories = tick_labels(s.axes[1].labels);
  if (view.share) hm.min = 0, hm.max = 1;
  const std::size_t nx = hm.x_categories.size();
  hm.values.assign(nx * hm.y_categories.size(), NAN);
  for (const auto& c : combos) {
    const std::size_t ix = c.combination / s.axes[1].values.size(), iy = c.combination % s.axes[1].values.size();
    double m = NAN, lo = NAN, hi = NAN;
    sweep_value(s, c, view.key, m, lo, hi);
    hm.values[iy * nx + ix] = m;
  }
  return hm;
}

SweepPlots write_sweep_plots(const fs::path& dir, const SweepSpec& s, const std::vector<ComboSummary>& combos,
                             plot::Size size) {
  SweepPlots out;
  if (s.axes.empty() || combos.empty()) {
    out.note = "no plots: nothing was swept (every run has the same parameters)";
    return out;
  }
  const fs::path pdir = dir / "plots";
  const SeriesGroups groups = series_groups(combos);
  const bool lines_ok = groups.size() <= 10;
  if (!lines_ok) out.note = "no line plots: more than 10 series (combinations of the keys after the first)";

  for (const auto& view : sweep_views(s.kind, has_scouts(s))) {
    if (lines_ok) {
      out.stems.push_back(pdir / view.key);
      plot::write_plot(out.stems.back(), line_plot(s, groups, view), size);
    }
    if (s.axes.size() == 2) {
      out.stems.push_back(pdir / (view.key + "-heatmap"));
      plot::write_plot(out.stems.back(), sweep_heatmap(s, combos, view), size);
    }
  }
  return out;
}

}  // namespace flockscope::cli
