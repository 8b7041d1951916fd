// `flockscope sweep` (a parameter grid, repeated, in parallel, resumable, shardable) and
// `flockscope sweep-merge` (the shards' folders into one).
//
// Sections: progress bar and Ctrl-C | running a sweep | the sweep command | the merge command
#include "cli_sweep.hpp"


#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <thread>

#include "cli_common.hpp"
#include "explore_setup.hpp"
#include "figures.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/experiments/mpi.hpp"

namespace flockscope::cli {
using namespace experiments;
namespace fs = std::filesystem;

// ---------------------------------------------------------------- progress bar and Ctrl-C
namespace {

std::atomic<bool> g_stop{false};
static_assert(std::atomic<bool>::is_always_lock_free, "set from a signal handler");
extern "C" void on_interrupt(int) { g_stop.store(true); }

std::string clock_text(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "--:--";
  const auto s = static_cast<long long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600) std::snprintf(buf, sizeof buf, "%lld:%02lld:%02lld", s / 3600, s / 60 % 60, s % 60);
  else std::snprintf(buf, sizeof buf, "%lld:%02lld", s / 60, s % 60);
  return buf;
}

// One line, redrawn in place: [#####.....] done/total  rate runs/s  time left.
void draw_bar(const SweepProgress& p) {
  const double frac = p.total ? double(p.done) / double(p.total) : 1.0;
  const int width = 28, filled = int(frac * width + 1e-9);
  const double fresh = double(p.done - p.skipped);
  const double rate = p.seconds > 0 ? fresh / p.seconds : 0.0;
  const double left = rate > 0 ? double(p.total - p.done) / rate : NAN;
  std::string bar(std::size_t(filled), '#');
  bar.append(std::size_t(width - filled), '.');
  std::fprintf(stderr, "\r[%s] %llu/%llu  %.1f runs/s  %s left  ", bar.c_str(), static_cast<unsigned long long>(p.done),
               static_cast<unsigned long long>(p.total), rate, clock_text(left).c_str());
  std::fflush(stderr);
}

}  // namespace

// ---------------------------------------------------------------- running a sweep
int run_sweep_command(const SweepSpec& spec, const SweepRunArgs& args) {
  const int ranks = mpi::ranks();
  const bool tty = mpi::progress_terminal();
  SweepOptions o;
  o.jobs = args.jobs;
  o.stop = &g_stop;
  o.warn = [&args](const std::string& w) { std::fprintf(stderr, "flockscope %s: warning: %s\n", args.command, w.c_str()); };
  if (tty) o.progress = draw_bar;
  g_stop = false;
  const auto remote =
      mpi::sweep_remote(spec, args.jobs, g_stop, (fs::path(args.out) / "runs.partial.csv").string(), args.command);
  o.remote = remote.get();
  auto old_int = std::signal(SIGINT, on_interrupt);
  auto old_term = std::signal(SIGTERM, on_interrupt);
  SweepOutcome r;
  try {
    r = run_sweep(spec, args.out, o);
  } catch (...) {
    std::signal(SIGINT, old_int);
    std::signal(SIGTERM, old_term);
    if (tty) std::fprintf(stderr, "\n");
    throw;
  }
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  if (tty) std::fprintf(stderr, "\n");

  const unsigned jobs = args.jobs > 0 ? unsigned(args.jobs) : std::max(1u, std::thread::hardware_concurrency());
  const double rate = r.seconds > 0 ? double(r.ran) / r.seconds : 0.0;
  const double bsteps = r.seconds > 0 ? double(r.boid_steps) / r.seconds : 0.0;
  const std::string where = ranks > 1 ? std::to_string(ranks) + " ranks x " + std::to_string(jobs) + " jobs"
                                      : std::to_string(jobs) + " jobs";
  std::printf("flockscope %s: %llu runs now, %llu found done, %llu/%llu finished in %.2f s on %s: %.1f runs/s, %.3g boid-steps/s\n",
              args.command, static_cast<unsigned long long>(r.ran), static_cast<unsigned long long>(r.skipped),
              static_cast<unsigned long long>(r.skipped + r.ran), static_cast<unsigned long long>(r.total), r.seconds,
              where.c_str(), rate, bsteps);
  if (!r.complete) {
    std::printf("flockscope %s: interrupted; run the same command again to resume (finished runs are kept in %s)\n",
                args.command, (fs::path(args.out) / "runs.partial.csv").c_str());
    return 130;
  }
  std::printf("flockscope %s: %s, %s\n", args.command, (fs::path(args.out) / "runs.csv").c_str(),
              (fs::path(args.out) / "summary.csv").c_str());
  if (args.on_complete) args.on_complete(r.combos);
  if (args.plots && spec.shard.count == 1) {
    const SweepPlots p = write_sweep_plots(args.out, spec, r.combos, args.plot_size);
    if (!p.stems.empty())
      std::printf("flockscope %s: %zu plots (SVG + PNG) in %s\n", args.command, p.stems.size(),
                  (fs::path(args.out) / "plots").c_str());
    if (!p.note.empty()) std::printf("flockscope %s: %s\n", args.command, p.note.c_str());
  } else if (args.plots) {
    std::printf("flockscope %s: one shard of %llu: plots come from `flockscope sweep-merge`\n", args.command,
                static_cast<unsigned long long>(spec.shard.count));
  }
  return 0;
}

// ---------------------------------------------------------------- the sweep command
namespace {

struct SweepArgs {
  std::string preset = "report-baseline";
  std::vector<std::string> sets, grid;
  std::uint64_t reps = 1, steps = 1000, check_every = 5;
  std::int64_t seed = -1;
  bool paired = false, no_plots = false;
  double form_radius = 10;
  std::string shard = "0/1", plot_size = "800x500", setup;
  SweepRunArgs run;
};

}  // namespace

void add_sweep_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<SweepArgs>();
  CLI::App* c = app.add_subcommand("sweep",
                                   "Run every combination of a parameter grid R times in parallel; write DIR/runs.csv, "
                                   "summary.csv and plots. Resumes an interrupted sweep.");
  CLI::Option* preset = c->add_option("--preset", a->preset, "Preset name or .json file the grid varies")->capture_default_str();
  c->add_option("--setup", a->setup,
                "An Explore setup (the window's Save setup): its parameters, axes, repeats, steps and seed; "
                "--set, --reps, --steps and --seed given here override its own");
  c->add_option("--set", a->sets, "Override a parameter for every run: key=value (repeatable)");
  CLI::Option* grid = c->add_option("--grid", a->grid, "A swept key: key=first:last:step or key=v1,v2,... (repeatable; the first is the plots' x axis)");
  CLI::Option* reps = c->add_option("--reps", a->reps, "Runs per combination, each with its own recorded seed")->capture_default_str()->check(CLI::Range(1, 1000000));
  CLI::Option* steps = c->add_option("--steps", a->steps, "Steps per run")->capture_default_str()->check(CLI::Range(0, 100000000));
  CLI::Option* seed = c->add_option("--seed", a->seed, "Base seed the run seeds derive from (default: the preset's seed)")->check(CLI::Range(0.0, 4294967295.0));
  c->add_flag("--paired", a->paired, "Repetition r gets the same seed in every combination (paired comparisons)");
  c->add_option("--jobs", a->run.jobs, "Runs in parallel (0: all cores)")->check(CLI::Range(0, 1024));
  c->add_option("--shard", a->shard, "Run only shard i of n (run ids with id % n == i), for job arrays")->capture_default_str();
  c->add_option("--check-every", a->check_every, "Test whether the flock has formed every K steps")->capture_default_str()->check(CLI::Range(1, 1000000));
  c->add_option("--form-radius", a->form_radius, "Largest link radius of the 'formed' test: one cluster under min(vision, R) (px)")->capture_default_str();
  c->add_option("--out", a->run.out, "Output folder (resumed if it holds the same sweep)")->required();
  c->add_flag("--no-plots", a->no_plots, "Skip the summary plots");
  c->add_option("--plot-size", a->plot_size, "Plot size in pixels, WIDTHxHEIGHT")->capture_default_str();
  c->callback([a, &exit_code, preset, grid, reps, steps, seed] {
    try {
      SweepSpec s;
      if (!a->setup.empty()) {
        // The setup names the preset and the grid; a second one on the command line would
        // leave unclear which the runs follow.
        if (preset->count() > 0 || grid->count() > 0)
          throw InputError("--setup " + a->setup + " gives the parameters and the axes: leave out --preset and --grid");
        const ExploreSetup setup = load_setup(a->setup);
        s = setup_spec(setup);
        for (const auto& kv : a->sets)
          if (auto err = apply_assignment(s.base, kv)) throw InputError("--set " + kv + ": " + *err);
        if (auto err = check_scouts(s.base, s.base.boids)) throw InputError(*err);
        if (reps->count() > 0) s.reps = a->reps;
        if (steps->count() > 0) s.steps = a->steps;
        // The base seed is the parameters' (as the window's map takes it), unless --seed says.
        s.seed = seed->count() > 0 ? std::uint64_t(a->seed) : std::uint64_t(s.base.seed);
      } else {
        s.preset = a->preset;
        s.base = resolve_params(a->preset, a->sets);
        for (const auto& g : a->grid) s.axes.push_back(parse_grid_axis(g));
        s.reps = a->reps;
        s.steps = a->steps;
        s.seed = a->seed >= 0 ? std::uint64_t(a->seed) : std::uint64_t(s.base.seed);
      }
      s.seed_mode = a->paired ? SeedMode::PerRep : SeedMode::PerRun;
      s.summary.check_every = a->check_every;
      s.summary.form_radius = a->form_radius;
      s.shard = parse_shard(a->shard);
      validate(s);
      a->run.plots = !a->no_plots;
      a->run.plot_size = parse_plot_size(a->plot_size);
      a->run.command = "sweep";
      exit_code = run_sweep_command(s, a->run);
    } catch (const std::exception& e) {
      exit_code = report_error("sweep", e);
    }
  });
}

// ---------------------------------------------------------------- the merge command
void add_sweep_merge_command(CLI::App& app, int& exit_code) {
  struct MergeArgs {
    std::vector<std::string> shards;
    std::string out, plot_size = "800x500";
    bool no_plots = false;
  };
  auto a = std::make_shared<MergeArgs>();
  CLI::App* c = app.add_subcommand("sweep-merge",
                                   "Merge the folders of a sharded sweep (--shard 0/n .. n-1/n) into one: runs.csv "
                                   "equal to the unsharded sweep's, summary.csv, plots");
  c->add_option("shards", a->shards, "The shards' output folders")->required();
  c->add_option("--out", a->out, "Output folder")->required();
  c->add_flag("--no-plots", a->no_plots, "Skip the summary plots");
  c->add_option("--plot-size", a->plot_size, "Plot size in pixels, WIDTHxHEIGHT")->capture_default_str();
  c->callback([a, &exit_code] {
    try {
      const plot::Size size = parse_plot_size(a->plot_size);
      std::vector<fs::path> dirs(a->shards.begin(), a->shards.end());
      std::vector<ComboSummary> combos;
      const SweepSpec s = merge_shards(dirs, a->out, &combos);
      std::printf("flockscope sweep-merge: %zu shards, %llu runs -> %s\n", dirs.size(),
                  static_cast<unsigned long long>(run_count(s)), (fs::path(a->out) / "runs.csv").c_str());
      if (!a->no_plots) {
        const SweepPlots p = write_sweep_plots(a->out, s, combos, size);
        if (!p.note.empty()) std::printf("flockscope sweep-merge: %s\n", p.note.c_str());
      }
      exit_code = 0;
    } catch (const std::exception& e) {
      exit_code = report_error("sweep-merge", e);
    }
  });
}

}  // namespace flockscope::cli
