// Sections: rows and the CSV | figure series | the figures
#include "export.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <limits>
#include <string_view>

#include <nlohmann/json.hpp>

#include "flockscope/core/io.hpp"
#include "flockscope/plot/ticks.hpp"
#include "plot_data.hpp"
#include "series_colours.hpp"

namespace flockscope::gui {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

plot::Color colour_of(SeriesColour c) { return plot::Color{c.r, c.g, c.b, 255}; }

// The run (1, 2, ...) of each row: one more after every reset marker at or before its time.
class RunCounter {
 public:
  explicit RunCounter(const std::vector<double>& resets) : resets_(resets) {}
  int at(double t) {
    while (next_ < resets_.size() && resets_[next_] <= t) ++next_;
    return int(next_) + 1;
  }

 private:
  const std::vector<double>& resets_;
  std::size_t next_ = 0;
};
}  // namespace

// ---------------------------------------------------------------- rows and the CSV
std::pair<std::size_t, std::size_t> rows_in(const PlotData& d, double t0, double t1) {
  const auto& t = d.diameter.t();
  return {std::size_t(std::lower_bound(t.begin(), t.end(), t0) - t.begin()),
          std::size_t(std::upper_bound(t.begin(), t.end(), t1) - t.begin())};
}

std::pair<std::size_t, std::size_t> rows_since_reset(const PlotData& d) {
  const auto& t = d.diameter.t();
  if (d.resets.empty()) return {0, t.size()};
  return {std::size_t(std::lower_bound(t.begin(), t.end(), d.resets.back()) - t.begin()), t.size()};
}

namespace {
// The columns the CSV has always had (scripts read them by these names, in this order); the
// metrics table's other columns follow `run`, in the table's order.
constexpr std::string_view kCsvColumns[] = {"time",       "step",       "diameter",     "centroid_x",    "centroid_y",
                                            "polarisation", "mean_speed", "mean_nn_distance", "clusters", "perched",
                                            "speed_down", "speed_up",   "food_distance", "predator_distance", "source",
                                            "run"};

// The metrics table's columns the window plots but the columns above lack (share_right,
// share_left, a rule's own), with the series of each: appended so a figure of any plotted
// metric has its data in the CSV.
struct ExtraColumn {
  const MetricsColumn* column;
  const Series* series;  // nullptr: no points yet
};
std::vector<ExtraColumn> extra_columns(const PlotData& d) {
  std::vector<ExtraColumn> v;
  for (const MetricsColumn& col : metrics_table()) {
    if (std::find(std::begin(kCsvColumns), std::end(kCsvColumns), col.name) != std::end(kCsvColumns)) continue;
    if (!find_plot_metric(col.name)) continue;
    v.push_back({&col, d.series(col.name)});
  }
  return v;
}
} // namespace

std::string series_csv(const PlotData &d, const ShownSeries &shown,
                       std::size_t first, std::size_t last) {
  const std::vector<ExtraColumn> extra = extra_columns(d);
  std::string out = "time,step";
  for (auto [on, name] : {std::pair{shown.diameter, "diameter"}, {shown.centroid_x, "centroid_x"},
                          {shown.centroid_y, "centroid_y"}, {shown.polarisation, "polarisation"}, {shown.speed, "mean_speed"}})
    if (on) out += std::string(",") + name;
  out += ",mean_nn_distance,clusters";
  for (auto [on, name] : {std::pair{shown.perched, "perched"}, {shown.speed_down, "speed_down"}, {shown.speed_up, "speed_up"},
                          {shown.food_distance, "food_distance"}, {shown.predator_distance, "predator_distance"}})
    if (on) out += std::string(",") + name;
  out += ",source,run";
  for (const ExtraColumn& e : extra) out += ',', out += e.column->name;
  out += '\n';
  const std::size_t n = std::min(last, d.diameter.size());
  if (first >= n) return out;
  out.reserve((n - first) * 150);
  RunCounter runs(d.resets);
  char cell[48];
  auto add = [&](const char* fmt, double v) {
    std::snprintf(cell, sizeof cell, fmt, v);
    out += cell;
  };
  // A metric not computed for a row is an empty cell (never the last computed value).
  auto optional = [&](const std::vector<double>& v, std::size_t i, const char* fmt) {
    out += ',';
    if (i < v.size() && !std::isnan(v[i])) add(fmt, v[i]);
  };
  for (std::size_t i = first; i < n; ++i) {
    const double t = d.diameter.t()[i];
    // The shortest text that reads back as t: steps x dt prints as written (0.3, 35).
    const auto [end, ec] = std::to_chars(cell, cell + sizeof cell, t);
    out.append(cell, ec == std::errc() ? end : cell);
    add(",%.17g", i < d.steps.size() ? d.steps[i] : 0.0);
    if (shown.diameter) add(",%.17g", d.diameter.y()[i]);
    if (shown.centroid_x) add(",%.17g", d.cx.y()[i]);
    if (shown.centroid_y) add(",%.17g", d.cy.y()[i]);
    if (shown.polarisation) add(",%.17g", d.polarisation.y()[i]);
    if (shown.speed) add(",%.17g", d.speed.y()[i]);
    optional(d.nn, i, "%.17g");
    optional(d.clusters, i, "%.0f");
    if (shown.perched) optional(d.perched.y(), i, "%.0f");
    if (shown.speed_down) optional(d.speed_down.y(), i, "%.17g");
    if (shown.speed_up) optional(d.speed_up.y(), i, "%.17g");
    if (shown.food_distance) optional(d.food_distance.y(), i, "%.17g");
    if (shown.predator_distance) optional(d.predator_distance.y(), i, "%.17g");
    out += ',';
    out += link::to_string(i < d.sources.size() ? d.sources[i] : link::MetricsSource::kState);
    out += ',';
    out += std::to_string(runs.at(t));
    for (const ExtraColumn& e : extra) {
      out += ',';
      if (!e.series || i >= e.series->size()) continue;
      const double v = e.series->y()[i];
      if (std::isnan(v)) continue;  // nothing to measure: an empty cell, as metrics.csv writes it
      add(e.column->whole ? "%.0f" : "%.17g", v);
    }
    out += '\n';
  }
  return out;
}

// ---------------------------------------------------------------- figure series
namespace {

// Rows [first, last) of one series as the figure gets it: every point while they are few,
// else the min/max band per pixel column; a NaN point at every reset, so no line joins one
// run to the next. Not Series::decimate (the screen's): that one reads its min/max pyramid,
// whose blocks may straddle two pixel columns, and knows no resets; a file figure takes
// every point of its rows exactly, and its bytes stay as they are.
plot::Series figure_series(const std::string& name, const Series& s, const std::vector<double>& resets,
                           std::size_t first, std::size_t last, int columns, SeriesColour colour) {
  plot::Series out;
  out.name = name;
  out.color = colour_of(colour);
  last = std::min(last, s.size());
  if (first >= last) return out;
  const auto& t = s.t();
  const auto& y = s.y();
  const bool banded = last - first > std::size_t(4 * columns);
  const double t0 = t[first], scale = t[last - 1] > t0 ? columns / (t[last - 1] - t0) : 0;
  std::size_t next_reset = std::size_t(std::upper_bound(resets.begin(), resets.end(), t0) - resets.begin());
  double column = -1;
  for (std::size_t i = first; i < last; ++i) {
    if (next_reset < resets.size() && t[i] >= resets[next_reset]) {
      while (next_reset < resets.size() && resets[next_reset] <= t[i]) ++next_reset;
      if (!out.x.empty()) {
        out.x.push_back(resets[next_reset - 1]), out.y.push_back(kNaN);
        if (banded) out.lo.push_back(kNaN), out.hi.push_back(kNaN);
        column = -1;
      }
    }
    if (!banded) {
      out.x.push_back(t[i]), out.y.push_back(y[i]);
      continue;
    }
    const double c = std::floor((t[i] - t0) * scale);
    if (c == column) {
      out.lo.back() = std::fmin(out.lo.back(), y[i]);  // past a NaN (nothing measured)
      out.hi.back() = std::fmax(out.hi.back(), y[i]);
      out.y.back() = (out.lo.back() + out.hi.back()) / 2;
    } else {
      // A column is drawn at its first point's t, which keeps the line on the data.
      column = c;
      out.x.push_back(t[i]), out.y.push_back(y[i]), out.lo.push_back(y[i]), out.hi.push_back(y[i]);
    }
  }
  return out;
}

// Vertical lines at `times` inside the plotted time range, across the data's value range.
void add_markers(plot::LinePlot& p, const std::vector<double>& times, double t0, double t1, const char* name,
                 SeriesColour colour, double width) {
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& s : p.series)
    for (std::size_t i = 0; i < s.y.size(); ++i) {
      const double a = s.lo.empty() ? s.y[i] : s.lo[i], b = s.hi.empty() ? s.y[i] : s.hi[i];
      if (std::isfinite(a)) lo = std::min(lo, a);
      if (std::isfinite(b)) hi = std::max(hi, b);
    }
  if (!(hi >= lo)) return;
  plot::Series r;
  r.name = name;
  r.color = plot::Color{colour.r, colour.g, colour.b, 170};
  r.line_width = width;
  for (double m : times) {
    if (m < t0 || m > t1) continue;
    r.x.insert(r.x.end(), {m, m, m});
    r.y.insert(r.y.end(), {lo, hi, kNaN});
  }
  if (!r.x.empty()) p.series.push_back(std::move(r));
}

std::string titled(const char* what, const std::string& who) { return who.empty() ? what : std::string(what) + " (" + who + ")"; }

}  // namespace

// ---------------------------------------------------------------- the figures
ExportResult export_plot_files(const std::filesystem::path& folder, const std::string& stem, const PlotData& d,
                               const ExportOptions& o) {
  ExportResult r;
  const std::size_t n = d.diameter.size(), first = std::min(o.first, n), last = std::min(o.last, n);
  const auto csv = folder / (stem + ".csv");
  write_text_file(csv, series_csv(d, o.shown, first, last));
  r.files.push_back(csv);
  if (o.params) {
    const auto json = folder / (stem + "-preset.json");
    save_preset(*o.params, json, o.description);
    r.files.push_back(json);
  }
  const double t0 = first < last ? d.diameter.t()[first] : 0, t1 = first < last ? d.diameter.t()[last - 1] : 0;
  auto wanted = [&](const char* name) { return o.only.empty() || o.only == name; };
  auto write = [&](const char* name, const plot::LinePlot& p, plot::Size size) {
    const auto file = folder / (stem + "-" + name);
    plot::write_plot(file, p, size);
    r.files.push_back(file.string() + ".svg");
    r.files.push_back(file.string() + ".png");
  };

  const int columns = std::max(16, o.size.width - 120);
  struct Line {
    const char* name;
    const Series* series;
    bool shown;
    SeriesColour colour;
  };
  // What the window's plot of this name draws (nullptr: the defaults, as `run --plots`).
  auto choice_of = [&](const char* name) -> const FigureChoice* {
    for (const FigureChoice& f : o.figures)
      if (f.plot == name) return &f;
    return nullptr;
  };
  nlohmann::json side = nlohmann::json::array();
  auto time_plot = [&](const char* name, const char* title, const char* y_label, std::vector<Line> lines,
                       std::optional<double> y_min = {}, std::optional<double> y_max = {}) {
    if (!wanted(name)) return;
    const FigureChoice* choice = choice_of(name);
    std::string chosen_title = title, chosen_label = y_label;
    if (choice && !choice->default_series) {
      // The user's series, named and coloured as on screen.
      lines.clear();
      for (const std::string& k : choice->series)
        if (const PlotMetric* m = find_plot_metric(k); m && d.series(k))
          lines.push_back({m->label.c_str(), d.series(k), true, m->colour});
      if (choice->series.size() == 1 && !lines.empty()) {
        const PlotMetric* m = find_plot_metric(choice->series[0]);
        chosen_title = m->label, chosen_title[0] = char(std::toupper(static_cast<unsigned char>(chosen_title[0])));
        chosen_label = m->label + (m->unit.empty() ? "" : " (" + m->unit + ")");
      } else {
        chosen_title = "Metrics", chosen_label = "value";
      }
    }
    if (choice) {  // the window's plot: its value range when zoomed, else fitted to the data
      y_min = choice->y ? std::optional(choice->y->first) : std::nullopt;
      y_max = choice->y ? std::optional(choice->y->second) : std::nullopt;
    }
    plot::LinePlot p;
    p.title = titled(chosen_title.c_str(), o.who);
    p.x.label = "time t (steps x dt)";
    p.y.label = chosen_label;
    p.y.min = y_min, p.y.max = y_max;
    nlohmann::json series = nlohmann::json::array();
    for (const Line& l : lines)
      if (l.shown) {
        p.series.push_back(figure_series(l.name, *l.series, d.resets, first, last, columns, l.colour));
        series.push_back(l.name);
      }
    add_markers(p, d.param_changes, t0, t1, "parameter change", kParamChangeColour, 1);
    add_markers(p, d.resets, t0, t1, "reset", kResetColour, 1.25);
    p.legend = p.series.size() > 1 || lines.size() > 1;  // a lone line needs none (as in `run --plots`)
    write(name, p, o.size);
    nlohmann::json f = {{"figure", stem + "-" + name + ".svg"}, {"png", stem + "-" + name + ".png"}, {"title", p.title}};
    if (choice) f["series"] = choice->series;
    f["legend"] = series;
    if (y_min && y_max)
      f["y"] = {*y_min, *y_max};
    else
      f["y"] = y_min ? nlohmann::json{{"min", *y_min}} : nlohmann::json("fitted to the data");
    side.push_back(std::move(f));
  };
  time_plot("diameter", "Average flock diameter", "flock diameter D (px, mean distance to the centroid)",
            {{"diameter", &d.diameter, o.shown.diameter, kDiameterColour}}, 0.0);
  time_plot("centroid", "Centroid", "centroid position (px)",
            {{"centroid x", &d.cx, o.shown.centroid_x, kCentroidXColour},
             {"centroid y", &d.cy, o.shown.centroid_y, kCentroidYColour}});
  time_plot("polarisation", "Polarisation", "polarisation |mean unit heading|",
            {{"polarisation", &d.polarisation, o.shown.polarisation, kPolarisationColour}}, 0.0, 1.0);
  time_plot("mean-speed", "Mean speed", "mean speed (px per unit of t)",
            {{"mean speed", &d.speed, o.shown.speed, kSpeedColour},
             {"moving down", &d.speed_down, o.shown.speed_down, kSpeedDownColour},
             {"moving up", &d.speed_up, o.shown.speed_up, kSpeedUpColour}},
            0.0);
  if (o.extensions || o.only == "perched")
    time_plot("perched", "Perched boids", "boids at rest on the ledge",
              {{"perched", &d.perched, o.shown.perched, kPerchedColour}}, 0.0);
  if (o.extensions || o.only == "distance")
    time_plot("distance", "Distances", "mean distance (px)",
              {{"boid to nearest food", &d.food_distance, o.shown.food_distance, kFoodDistanceColour},
               {"predator to nearest boid", &d.predator_distance, o.shown.predator_distance, kPredatorDistanceColour}},
              0.0);

  if (wanted("centroid-path")) {
    // The centroid's path as the window draws it: y grows downwards, the world's box around
    // it (widened if the centroid left it), start and end marked; at most ~4000 points.
    plot::LinePlot path;
    path.title = titled("Average flock path", o.who);
    path.x.label = "centroid x (px)";
    path.y.label = "centroid y (px, downwards as on screen)";
    path.y.downward = true;
    path.equal_aspect = true;
    plot::Series ps;
    ps.name = "centroid path";
    ps.color = colour_of(kPathColour);
    const std::size_t stride = std::max<std::size_t>(1, (last - std::min(first, last)) / 4000);
    std::size_t next_reset = std::size_t(std::upper_bound(d.resets.begin(), d.resets.end(), t0) - d.resets.begin());
    for (std::size_t i = first; i < last; ++i) {
      const double t = d.cx.t()[i];
      const bool after_reset = next_reset < d.resets.size() && t >= d.resets[next_reset];
      if (after_reset) {
        while (next_reset < d.resets.size() && d.resets[next_reset] <= t) ++next_reset;
        if (!ps.x.empty()) ps.x.push_back(kNaN), ps.y.push_back(kNaN);
      }
      if (after_reset || (i - first) % stride == 0 || i + 1 == last) ps.x.push_back(d.cx.y()[i]), ps.y.push_back(d.cy.y()[i]);
    }
    if (o.params) {
      const plot::Range xr = plot::finite_range(ps.x), yr = plot::finite_range(ps.y);
      path.x.min = std::min(0.0, xr.lo), path.x.max = std::max(o.params->width, xr.hi);
      path.y.min = std::min(0.0, yr.lo), path.y.max = std::max(o.params->height, yr.hi);
    }
    path.series.push_back(std::move(ps));
    if (first < last) {
      plot::Series start = plot::make_series("start", {d.cx.y()[first]}, {d.cy.y()[first]});
      start.lines = false, start.markers = true, start.marker_radius = 4.5, start.color = plot::Color{44, 150, 60, 255};
      plot::Series end = plot::make_series("end", {d.cx.y()[last - 1]}, {d.cy.y()[last - 1]});
      end.lines = false, end.markers = true, end.marker_radius = 4.5, end.color = plot::Color{200, 40, 40, 255};
      path.series.push_back(std::move(start));
      path.series.push_back(std::move(end));
    }
    // A canvas about as wide as the world's box needs, as `flockscope run --plots` draws it.
    plot::Size size = o.size;
    if (o.params && o.params->height > 0)
      size.width = std::clamp(int(std::lround((o.size.height - 90) * o.params->width / o.params->height)) + 150, 300, o.size.width);
    write("centroid-path", path, size);
  }
  if (!o.figures.empty()) {
    nlohmann::json j = {{"csv", stem + ".csv"},
                        {"rows", {first, last}},
                        {"time", {t0, t1}},
                        {"linked_time", o.linked_time},
                        {"figures", side}};
    const auto file = folder / (stem + "-plots.json");
    write_text_file(file, j.dump(2) + "\n");
    r.files.push_back(file);
  }
  if (first >= last) r.note = "no points in the range: the files have no data";
  return r;
}

}  // namespace flockscope::gui
