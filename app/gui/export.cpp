#include "export.hpp"

#include <cmath>
#include <cstdio>
#include <limits>

#include "flockscope/core/io.hpp"
#include "plot_data.hpp"

namespace flockscope::gui {

std::string series_csv(const PlotData& d) {
  std::string out = "time,step,diameter,centroid_x,centroid_y,polarisation,mean_speed,mean_nn_distance,clusters,source\n";
  const std::size_t n = d.diameter.size();
  out.reserve(n * 140);
  char line[320];
  // A metric not computed for a row is an empty cell (never the last computed value).
  auto cell = [](const std::vector<double>& v, std::size_t i, const char* fmt, char* buf, std::size_t len) {
    if (i >= v.size() || std::isnan(v[i])) return (void)(buf[0] = 0);
    std::snprintf(buf, len, fmt, v[i]);
  };
  for (std::size_t i = 0; i < n; ++i) {
    char nn[32], cl[32];
    cell(d.nn, i, "%.17g", nn, sizeof nn);
    cell(d.clusters, i, "%.0f", cl, sizeof cl);
    const bool state = i >= d.from_state.size() || d.from_state[i];
    std::snprintf(line, sizeof line, "%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%s,%s,%s\n", d.diameter.t()[i],
                  i < d.steps.size() ? d.steps[i] : 0.0, d.diameter.y()[i], d.cx.y()[i], d.cy.y()[i],
                  d.polarisation.y()[i], d.speed.y()[i], nn, cl, state ? "state" : "board");
    out += line;
  }
  return out;
}

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// A series as the figure gets it: every point while they are few, else the min/max band
// per pixel column (the same decimation the live plot draws).
plot::Series figure_series(const std::string& name, const Series& s, int columns, plot::Color c) {
  plot::Series out;
  out.name = name;
  out.color = c;
  if (s.size() == 0) return out;
  if (s.size() <= std::size_t(4 * columns)) {
    out.x = s.t(), out.y = s.y();
    return out;
  }
  std::vector<Series::Column> cols;
  s.decimate(s.t().front(), s.t().back(), columns, cols);
  for (const auto& col : cols) {
    out.x.push_back(col.t);
    out.y.push_back((col.lo + col.hi) / 2);
    out.lo.push_back(col.lo);
    out.hi.push_back(col.hi);
  }
  return out;
}

// Resets as vertical lines across the data's range (NaN breaks the polyline between them).
void add_resets(plot::LinePlot& p, const std::vector<double>& resets) {
  if (resets.empty()) return;
  double lo = INFINITY, hi = -INFINITY;
  for (const auto& s : p.series)
    for (std::size_t i = 0; i < s.y.size(); ++i) {
      lo = std::min(lo, s.lo.empty() ? s.y[i] : s.lo[i]);
      hi = std::max(hi, s.hi.empty() ? s.y[i] : s.hi[i]);
    }
  if (!(hi >= lo)) return;
  plot::Series r;
  r.name = "reset";
  r.color = plot::Color{220, 60, 60, 160};
  r.line_width = 1;
  for (double m : resets) {
    r.x.insert(r.x.end(), {m, m, m});
    r.y.insert(r.y.end(), {lo, hi, kNaN});
  }
  p.series.push_back(std::move(r));
}
}  // namespace

ExportResult export_plot_files(const std::filesystem::path& folder, const std::string& stem, const PlotData& d,
                               plot::Size size) {
  ExportResult r;
  const auto csv = folder / (stem + ".csv");
  write_text_file(csv, series_csv(d));
  r.files.push_back(csv);

  const int columns = std::max(16, size.width - 120);
  auto time_plot = [&](const char* name, const char* title, const char* y_label,
                       std::vector<std::pair<const char*, const Series*>> lines) {
    plot::LinePlot p;
    p.title = title;
    p.x.label = "time";
    p.y.label = y_label;
    for (std::size_t i = 0; i < lines.size(); ++i) p.series.push_back(figure_series(lines[i].first, *lines[i].second, columns, plot::palette(i)));
    add_resets(p, d.resets);
    const auto file = folder / (stem + "-" + name);
    plot::write_plot(file, p, size);
    r.files.push_back(file.string() + ".svg");
    r.files.push_back(file.string() + ".png");
  };
  time_plot("diameter", "Flock diameter", "diameter (px)", {{"diameter", &d.diameter}});
  time_plot("centroid", "Centroid", "position (px)", {{"centroid x", &d.cx}, {"centroid y", &d.cy}});
  time_plot("polarisation", "Polarisation", "polarisation", {{"polarisation", &d.polarisation}});
  time_plot("mean-speed", "Mean speed", "speed (px/frame)", {{"mean speed", &d.speed}});

  // The centroid's path: at most a few thousand evenly strided points.
  plot::LinePlot path;
  path.title = "Centroid path";
  path.x.label = "centroid x (px)";
  path.y.label = "centroid y (px)";
  path.equal_aspect = true;
  plot::Series ps;
  ps.name = "centroid";
  const std::size_t n = d.cx.size(), stride = std::max<std::size_t>(1, n / 4000);
  for (std::size_t i = 0; i < n; i += stride) ps.x.push_back(d.cx.y()[i]), ps.y.push_back(d.cy.y()[i]);
  if (n > 0 && (n - 1) % stride != 0) ps.x.push_back(d.cx.y()[n - 1]), ps.y.push_back(d.cy.y()[n - 1]);
  path.series.push_back(std::move(ps));
  const auto file = folder / (stem + "-centroid-path");
  plot::write_plot(file, path, size);
  r.files.push_back(file.string() + ".svg");
  r.files.push_back(file.string() + ".png");
  return r;
}

}  // namespace flockscope::gui
