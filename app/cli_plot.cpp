// `flockscope plot`: one column against another from any number of CSV files (metrics.csv
// of several runs, runs.csv, summary.csv), overlaid in one SVG + PNG line plot. How the
// rule-by-rule views and other comparisons in docs/experiments.md are drawn.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>

#include "cli_common.hpp"
#include "figures.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/experiments/csv_table.hpp"

namespace flockscope::cli {
using namespace experiments;
namespace fs = std::filesystem;

void add_plot_command(CLI::App& app, int& exit_code) {
  struct PlotArgs {
    std::vector<std::string> inputs;
    std::string x = "time", y = "diameter", out, title, xlabel, ylabel, plot_size = "800x500";
    std::string ymin, ymax;
    bool markers = false;
  };
  auto a = std::make_shared<PlotArgs>();
  CLI::App* c = app.add_subcommand("plot", "Plot a column against another from CSV files, overlaid: writes OUT.svg and OUT.png");
  c->add_option("inputs", a->inputs, "CSV files, each optionally FILE=LABEL (default label: the file's folder name)")->required();
  c->add_option("--x", a->x, "Column for x")->capture_default_str();
  c->add_option("--y", a->y, "Column for y")->capture_default_str();
  c->add_option("--out", a->out, "Output path without extension (a trailing .png or .svg is dropped)")->required();
  c->add_option("--title", a->title, "Plot title");
  c->add_option("--xlabel", a->xlabel, "x axis label (default: the column)");
  c->add_option("--ylabel", a->ylabel, "y axis label (default: the column)");
  c->add_option("--ymin", a->ymin, "Fix the y axis' lower limit");
  c->add_option("--ymax", a->ymax, "Fix the y axis' upper limit");
  c->add_flag("--markers", a->markers, "Draw a marker at every point");
  c->add_option("--plot-size", a->plot_size, "Plot size in pixels, WIDTHxHEIGHT")->capture_default_str();
  c->callback([a, &exit_code] {
    try {
      plot::LinePlot p;
      p.title = a->title;
      p.x.label = a->xlabel.empty() ? a->x : a->xlabel;
      p.y.label = a->ylabel.empty() ? a->y : a->ylabel;
      // Points whose values an axis can hold: finite, and small enough that the span between
      // two of them is finite too (1e308 and -1e308 span infinity, and drew as "-nan").
      auto drawable = [](double v) { return std::isfinite(v) && std::fabs(v) <= 1e307; };
      auto limit = [&drawable](const std::string& text, const char* flag) {
        double v = NAN;
        try {
          v = std::stod(text);
        } catch (const std::exception&) {
          throw InputError(std::string(flag) + " " + text + ": not a number");
        }
        if (!drawable(v)) throw InputError(std::string(flag) + " " + text + ": allowed -1e307 to 1e307");
        return v;
      };
      if (!a->ymin.empty()) p.y.min = limit(a->ymin, "--ymin");
      if (!a->ymax.empty()) p.y.max = limit(a->ymax, "--ymax");
      for (const auto& in : a->inputs) {
        // FILE=LABEL; a file name may not contain '=' then, which CSV paths here never do.
        const auto eq = in.find('=');
        const fs::path file = in.substr(0, eq);
        std::string label = eq == std::string::npos ? file.parent_path().filename().string() : in.substr(eq + 1);
        if (label.empty()) label = file.stem().string();
        const Table t = read_csv_table(file);
        const int cx = t.column(a->x), cy = t.column(a->y);
        if (cx < 0 || cy < 0)
          throw InputError(file.string() + ": no column '" + (cx < 0 ? a->x : a->y) + "'");
        plot::Series s = plot::make_series(label, {}, {});
        std::size_t skipped = 0;
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
          const double x = t.number(r, cx), y = t.number(r, cy);
          if (!drawable(x) || !drawable(y)) {
            ++skipped;
            continue;
          }
          s.x.push_back(x), s.y.push_back(y);
        }
        if (skipped)
          std::fprintf(stderr, "flockscope plot: %s: %zu of %zu points skipped (empty, not a number, infinite, or beyond +-1e307)\n",
                       file.string().c_str(), skipped, t.rows.size());
        s.markers = a->markers;
        p.series.push_back(std::move(s));
      }
      // `--out pol.png` is what people type: it means the stem pol, not pol.png.png.
      if (const fs::path ext = fs::path(a->out).extension(); ext == ".png" || ext == ".svg")
        a->out = fs::path(a->out).replace_extension().string();
      plot::write_plot(a->out, p, parse_plot_size(a->plot_size));
      std::printf("flockscope plot: %zu series -> %s.svg, %s.png\n", p.series.size(), a->out.c_str(), a->out.c_str());
      exit_code = 0;
    } catch (const std::exception& e) {
      exit_code = report_error("plot", e);
    }
  });
}

}  // namespace flockscope::cli
