// `flockscope run`: a headless run writing metrics.csv, final_state.csv and run.json.
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli_common.hpp"
#include "figures.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/core/run.hpp"

namespace flockscope::cli {

struct RunArgs {
  std::string preset = "cornell-pico-predator";
  std::vector<std::string> sets;
  std::int64_t seed = -1;
  std::uint64_t steps = 1000;
  std::string init;
  std::string out;
  int threads = 0;
  bool plots = false;
  std::string plot_size = "800x500";
};

void add_run_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<RunArgs>();
  CLI::App* run = app.add_subcommand("run", "Run a flock headless and write DIR/metrics.csv, final_state.csv, run.json");
  run->add_option("--preset", args->preset, "Preset name (see assets/presets) or a preset .json file")->capture_default_str();
  run->add_option("--set", args->sets, "Override a parameter: key=value (repeatable)");
  run->add_option("--seed", args->seed, "Random seed (overrides the preset's)")->check(CLI::Range(0.0, 4294967295.0));
  run->add_option("--steps", args->steps, "Number of steps")->capture_default_str()->check(CLI::Range(0, 100000000));
  run->add_option("--init", args->init, "Start from this state file (CSV with x,y,vx,vy; sets the boid count)");
  run->add_option("--out", args->out, "Output folder")->required();
  run->add_option("--threads", args->threads, "Threads (0: all cores)")->check(CLI::Range(0, 256));
  run->add_flag("--plots", args->plots, "Also write diameter, path (centroid y against x), polarisation and state plots as SVG and PNG into DIR");
  run->add_option("--plot-size", args->plot_size, "Plot size in pixels, WIDTHxHEIGHT")->capture_default_str();
  run->callback([args, &exit_code] {
    try {
      RunSpec spec;
      spec.preset = args->preset;
      spec.params = resolve_params(args->preset, args->sets);
      if (args->seed >= 0) spec.params.seed = args->seed;
      if (!args->init.empty()) spec.initial = read_state_csv(args->init);
      const auto boids = spec.initial ? std::int64_t(spec.initial->size()) : spec.params.boids;
      if (auto err = check_scouts(spec.params, boids)) throw InputError(*err);
      spec.steps = args->steps;
      spec.threads = args->threads;
      // On a terminal, a progress line at most twice a second: a million boids step a few
      // times a second, and a long run should not look hung. Not in pipes or logs.
      ProgressLine progress("flockscope run", spec.steps);
      if (progress.enabled()) spec.on_step = [&progress](std::uint64_t done) { progress.update(done); };
      const plot::Size plot_size = parse_plot_size(args->plot_size);  // checked before the run
      const RunResult r = run_flock(spec);
      progress.finish();
      write_run(args->out, spec, r);
      if (args->plots) write_run_plots(args->out, spec, r, plot_size);
      const Metrics& last = r.metrics.back();
      std::printf("flockscope run: %llu steps of %zu boids -> %s (final diameter %.3f, polarisation %.3f)\n",
                  static_cast<unsigned long long>(spec.steps), r.final_state.size(), args->out.c_str(), last.diameter,
                  last.polarisation);
      exit_code = 0;
    } catch (const std::exception& e) {
      exit_code = report_error("run", e);
    }
  });
}

}  // namespace flockscope::cli
