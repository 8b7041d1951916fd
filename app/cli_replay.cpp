// `flockscope replay`: a recording (.flkrec) as tables, so a recorded run, a board's included,
// can be analysed without the app or the board: DIR/metrics.csv with the columns of `run`,
// recomputed from each recorded frame's boids, predators and food sources, and with --states
// every boid of every frame.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli_common.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/core/recording.hpp"

namespace flockscope::cli {
namespace fs = std::filesystem;

void add_replay_command(CLI::App& app, int& exit_code) {
  struct ReplayArgs {
    std::string file, out;
    bool states = false;
  };
  auto a = std::make_shared<ReplayArgs>();
  CLI::App* c = app.add_subcommand(
      "replay", "Write a recording's frames as DIR/metrics.csv (recomputed from its boids) and, with --states, DIR/states.csv");
  c->add_option("file", a->file, "Recording (.flkrec)")->required();
  c->add_option("--out", a->out, "Output folder")->required();
  c->add_flag("--states", a->states, "Also write DIR/states.csv: frame,id,x,y,vx,vy,group for every boid of every frame");
  c->callback([a, &exit_code] {
    try {
      const Recording rec = Recording::load(a->file);
      std::error_code ec;
      fs::create_directories(a->out, ec);
      if (ec || !fs::is_directory(a->out))
        throw OutputError(a->out + ": cannot create output folder (" +
                          (ec ? ec.message() : "a file of that name is in the way") + ")");
      OutputFile metrics(fs::path(a->out) / "metrics.csv");
      std::string line;
      for (const auto& col : metrics_columns()) line += (line.empty() ? "" : ",") + col;
      metrics.write(line + "\n");
      std::optional<OutputFile> states;
      if (a->states) states.emplace(fs::path(a->out) / "states.csv"), states->write("frame,id,x,y,vx,vy,group\n");
      std::size_t boids = 0;
      for (std::size_t i = 0; i < rec.frames(); ++i) {
        const RecordedFrame fr = rec.frame(i);
        const Params& p = rec.params_at(i);
        const FlockSnapshot& b = fr.boids;
        const PointsView view{b.x.data(), b.y.data(), b.vx.data(), b.vy.data(), b.size(), fr.food, fr.predators};
        metrics.write(metrics_row(fr.step, fr.time, compute_metrics(view, cluster_radius(p))) + "\n");
        boids = std::max(boids, b.size());
        if (!states) continue;
        std::string rows;
        char buf[160];
        for (std::size_t k = 0; k < b.size(); ++k) {
          std::snprintf(buf, sizeof buf, "%llu,%zu,%.9g,%.9g,%.9g,%.9g,%d\n", static_cast<unsigned long long>(fr.step), k,
                        double(b.x[k]), double(b.y[k]), double(b.vx[k]), double(b.vy[k]),
                        scout_group(p, std::uint32_t(k)));
          rows += buf;
        }
        states->write(rows);
      }
      metrics.commit();
      if (states) states->commit();
      if (!rec.damage().empty()) {
        // One line: where the damage is, and that what came before it is kept.
        std::fprintf(stderr, "flockscope replay: %s: %s; the %zu frames before it are written to %s\n", a->file.c_str(),
                     rec.damage().c_str(), rec.frames(), a->out.c_str());
        exit_code = 1;
        return;
      }
      std::printf("flockscope replay: %zu frames of up to %zu boids -> %s\n", rec.frames(), boids, a->out.c_str());
      exit_code = 0;
    } catch (const std::exception& e) {
      exit_code = report_error("replay", e);
    }
  });
}

}  // namespace flockscope::cli
