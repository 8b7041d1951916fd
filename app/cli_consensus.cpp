// `flockscope consensus`: the scout study of seed 000 (after Couzin et al. 2005) as a sweep
// over group size, informed share, the split of the scouts between right and left, and
// static versus dynamic bias, with many seeded trials per point. Each trial records whether
// the flock went right or left and when (SummaryOptions::decide_fraction, docs/experiments.md).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>

#include "cli_common.hpp"
#include "cli_sweep.hpp"
#include "figures.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/experiments/consensus.hpp"
#include "flockscope/plot/ticks.hpp"

namespace flockscope::cli {
using namespace experiments;

namespace {

struct ConsensusArgs {
  std::string preset = "consensus-study";
  std::vector<std::string> sets, grid;
  std::string boids, informed, right_share, scouts1, scouts2, bias;
  std::uint64_t trials = 50, steps = 2000;
  std::int64_t seed = -1;
  bool paired = false, no_plots = false;
  double decide_fraction = 0.25;
  std::string heading_window = "0:1000000000";
  std::string shard = "0/1", plot_size = "800x500";
  SweepRunArgs run;
};

void print_table(const SweepSpec& s, const std::vector<ComboSummary>& combos) {
  const auto& names = summary_metrics(s.kind);
  const auto t = std::size_t(std::find(names.begin(), names.end(), "decision_time") - names.begin());
  for (const auto& c : combos) {
    std::string point;
    for (std::size_t a = 0; a < s.axes.size(); ++a) {
      if (!point.empty()) point += ' ';
      point += s.axes[a].key;
      point += '=';
      point += c.labels[a];
    }
    const SampleStats& dt = c.metrics[t];
    std::printf("  %-48s scouts %3lld/%-3lld  P(right) %.2f [%.2f, %.2f]  P(left) %.2f  undecided %.2f  time to decide %s +- %s\n",
                point.c_str(), static_cast<long long>(c.scouts1), static_cast<long long>(c.scouts2), c.right.p,
                c.right.lo, c.right.hi, c.left.p, double(c.runs - c.right.k - c.left.k) / double(std::max<std::size_t>(1, c.runs)), plot::format_value(dt.mean, 3).c_str(),
                plot::format_value(dt.sd, 2).c_str());
  }
}

}  // namespace

void add_consensus_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<ConsensusArgs>();
  CLI::App* c = app.add_subcommand(
      "consensus",
      "Scout groups biased right and left (seed 000, Couzin et al. 2005): over many seeded trials, the probability "
      "that the flock goes right and the time to decide, against group size, informed share and bias mode");
  c->add_option("--preset", a->preset, "Preset the study starts from")->capture_default_str();
  c->add_option("--set", a->sets, "Override a parameter for every trial: key=value (repeatable)");
  c->add_option("--boids", a->boids, "Group sizes N: list v1,v2,... or range first:last:step");
  c->add_option("--informed", a->informed, "Shares of the boids that are scouts (list or range in [0, 1])");
  c->add_option("--right-share", a->right_share, "Shares of the scouts biased right (the rest left; default all right)");
  c->add_option("--scouts1", a->scouts1, "Scout group 1 sizes (biased right), instead of --informed");
  c->add_option("--scouts2", a->scouts2, "Scout group 2 sizes (biased left), instead of --informed");
  c->add_option("--bias", a->bias, "static, dynamic or static,dynamic (seed 000's ECE 5730 dynamic bias)");
  c->add_option("--grid", a->grid, "Any other swept key, as in `flockscope sweep` (repeatable)");
  c->add_option("--trials", a->trials, "Seeded trials per point")->capture_default_str()->check(CLI::Range(1, 1000000));
  c->add_option("--steps", a->steps, "Steps per trial (undecided if no decision by then)")->capture_default_str()->check(CLI::Range(1, 100000000));
  c->add_option("--seed", a->seed, "Base seed (default: the preset's seed)")->check(CLI::Range(0.0, 4294967295.0));
  c->add_flag("--paired", a->paired, "Trial r starts from the same seed at every point");
  c->add_option("--decide-fraction", a->decide_fraction,
                "The naive boids' centroid must move this share of the interior width from its centre to decide")
      ->capture_default_str();
  c->add_option("--heading-window", a->heading_window,
                "Steps FROM:TO over which runs.csv's naive_heading averages the naive boids' mean x-heading "
                "(Couzin et al. 2005's accuracy); the average stops at the decision")
      ->capture_default_str();
  c->add_option("--jobs", a->run.jobs, "Trials in parallel (0: all cores)")->check(CLI::Range(0, 1024));
  c->add_option("--shard", a->shard, "Run only shard i of n")->capture_default_str();
  c->add_option("--out", a->run.out, "Output folder (resumed if it holds the same study)")->required();
  c->add_flag("--no-plots", a->no_plots, "Skip the plots");
  c->add_option("--plot-size", a->plot_size, "Plot size in pixels, WIDTHxHEIGHT")->capture_default_str();
  c->callback([a, &exit_code] {
    try {
      SweepSpec s;
      s.kind = SweepKind::Consensus;
      s.preset = a->preset;
      s.base = resolve_params(a->preset, a->sets);
      s.axes = consensus_axes({a->boids, a->informed, a->right_share, a->scouts1, a->scouts2, a->bias, a->grid});
      s.reps = a->trials;
      s.steps = a->steps;
      s.seed = a->seed >= 0 ? std::uint64_t(a->seed) : std::uint64_t(s.base.seed);
      s.seed_mode = a->paired ? SeedMode::PerRep : SeedMode::PerRun;
      s.summary.decide_fraction = a->decide_fraction;
      parse_heading_window(a->heading_window, s.summary);
      s.shard = parse_shard(a->shard);
      validate(s);
      a->run.plots = !a->no_plots;
      a->run.plot_size = parse_plot_size(a->plot_size);
      a->run.command = "consensus";
      a->run.on_complete = [s](const std::vector<ComboSummary>& combos) { print_table(s, combos); };
      exit_code = run_sweep_command(s, a->run);
    } catch (const std::exception& e) {
      exit_code = report_error("consensus", e);
    }
  });
}

}  // namespace flockscope::cli
