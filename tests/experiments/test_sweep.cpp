// Sweeps: grid parsing and expansion, seeds, per-run summaries against run_flock, the
// per-combination summaries of a hand-made table, and the files: reproducible, resumable, shardable.
//
// Sections: grid axes | expansion and seeds | run summaries | per-combination summaries |
// files
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <numeric>
#include <set>
#include <sstream>

#include "../support/scratch.hpp"
#include "../support/shell.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/core/metrics.hpp"
#include "flockscope/core/run.hpp"
#include "flockscope/experiments/sweep.hpp"

namespace fs = std::filesystem;
using namespace flockscope;
using namespace flockscope::experiments;

namespace {

fs::path scratch_root() { return testsupport::scratch_root("sweep"); }
const auto* const g_remove_scratch = ::testing::AddGlobalTestEnvironment(new testsupport::RemoveAtExit(scratch_root()));

using testsupport::slurp;

fs::path fresh_dir(const std::string& name) {
  const fs::path d = scratch_root() / name;
  fs::remove_all(d);
  return d;
}

// A small, quick sweep: 30 boids of the report's rules, 2 x 2 combinations, 3 reps.
SweepSpec small_spec() {
  SweepSpec s;
  s.base = load_preset(resolve_preset("report-baseline"));
  s.base.boids = 30;
  s.preset = "report-baseline";
  s.axes.push_back(parse_grid_axis("D_vis=10,inf"));
  s.axes.push_back(parse_grid_axis("S_align=0.04:0.06:0.02"));
  s.reps = 3;
  s.steps = 40;
  s.seed = 7;
  return s;
}

}  // namespace

// ---------------------------------------------------------------- grid axes
// A mistyped grid key gets the same suggestion as --set.
TEST(SweepGrid, AMistypedKeySuggestsTheParameter) {
  try {
    parse_grid_axis("visualrange=10:20:10");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("unknown parameter 'visualrange' (did you mean visualRange?)"),
              std::string::npos)
        << e.what();
  }
}

TEST(SweepGrid, RangeIsInclusiveAndRoundedToTheDecimalsWritten) {
  const GridAxis a = parse_grid_axis("S_align=0:1:0.1");
  ASSERT_EQ(a.values.size(), 11u);
  EXPECT_EQ(a.values[3], 0.3);  // not 0.30000000000000004
  EXPECT_EQ(a.labels[3], "0.3");
  EXPECT_EQ(a.labels.back(), "1");
  const GridAxis b = parse_grid_axis("boids=10:40:10");
  EXPECT_EQ(b.labels, (std::vector<std::string>{"10", "20", "30", "40"}));
  const GridAxis c = parse_grid_axis("D_sep=1e-3:3e-3:1e-3");
  EXPECT_EQ(c.values, (std::vector<double>{0.001, 0.002, 0.003}));
  // A last value the step does not reach is not included.
  EXPECT_EQ(parse_grid_axis("visualRange=10:25:10").labels, (std::vector<std::string>{"10", "20"}));
}

TEST(SweepGrid, ListsTakeEveryKindOfValue) {
  const GridAxis a = parse_grid_axis("D_vis=10, 25,inf");
  EXPECT_EQ(a.key, "D_vis");
  EXPECT_EQ(a.labels, (std::vector<std::string>{"10", "25", "inf"}));
  EXPECT_TRUE(std::isinf(a.values[2]));
  const GridAxis b = parse_grid_axis("dynamicbias=false,on");
  EXPECT_EQ(b.labels, (std::vector<std::string>{"false", "true"}));
  EXPECT_EQ(b.values, (std::vector<double>{0, 1}));
  EXPECT_EQ(parse_grid_axis("rules=cornell,report").values, (std::vector<double>{0, 1}));
  EXPECT_EQ(parse_grid_axis("informed=0,0.25").labels, (std::vector<std::string>{"0", "0.25"}));
}

TEST(SweepGrid, BadAxesAreOneLineErrors) {
  struct Case {
    const char *spec, *expect;
  } cases[] = {
      {"nosuch=1,2", "unknown parameter 'nosuch'"},
      {"D_vis", "expected key=a:b:step"},
      {"D_vis=1:2", "first:last:step"},
      {"D_vis=1:2:0", "step must be positive"},
      {"D_vis=3:1:1", "smaller than the first"},
      {"visualRange=-5,5", "out of range"},
      {"boids=1.5", "whole number"},
      {"dynamicbias=0:1:1", "takes a list"},
      {"D_vis=5,5", "listed twice"},
      {"seed=1,2", "--reps"},
      {"informed=0.5,2", "out of range"},
      {"D_vis=1,,2", "empty value"},
  };
  for (const auto& c : cases) {
    try {
      parse_grid_axis(c.spec);
      ADD_FAILURE() << c.spec << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(c.expect), std::string::npos) << c.spec << ": " << e.what();
    }
  }
}

TEST(SweepGrid, ShardsParse) {
  EXPECT_EQ(parse_shard("2/5"), (Shard{2, 5}));
  for (const char* bad : {"5/5", "1/0", "1", "a/2", "-1/3"}) EXPECT_THROW(parse_shard(bad), InputError) << bad;
}

// ---------------------------------------------------------------- expansion and seeds
TEST(SweepPlan, RunIdsCountThroughTheAxesLikeNestedLoops) {
  const SweepSpec s = small_spec();
  EXPECT_EQ(combination_count(s), 4u);
  EXPECT_EQ(run_count(s), 12u);
  // id = combination * reps + rep; the last axis turns fastest.
  const RunPoint p = run_point(s, 7);
  EXPECT_EQ(p.combination, 2u);
  EXPECT_EQ(p.rep, 1u);
  EXPECT_EQ(p.value_index, (std::vector<std::size_t>{1, 0}));
  EXPECT_TRUE(p.params.vision_infinite());
  EXPECT_EQ(p.params.S_align, 0.04);
  EXPECT_EQ(p.params.seed, p.seed);
  EXPECT_EQ(p.params.boids, 30);
  EXPECT_EQ(combination_key(s, p.value_index), "D_vis=inf;S_align=0.04");
}

TEST(SweepPlan, SeedsAreDistinctStableAndIndependentOfFlagOrder) {
  SweepSpec s = small_spec();
  std::set<std::uint32_t> seeds;
  for (std::uint64_t id = 0; id < run_count(s); ++id) seeds.insert(run_point(s, id).seed);
  EXPECT_EQ(seeds.size(), run_count(s));
  // The same combination and repetition keep their seed when the grid flags are swapped or
  // the grid grows.
  SweepSpec t = s;
  std::swap(t.axes[0], t.axes[1]);
  t.axes[0] = parse_grid_axis("S_align=0.02:0.06:0.02");
  const RunPoint a = run_point(s, 0 * 3 + 2);  // D_vis=10, S_align=0.04, rep 2
  const RunPoint b = run_point(t, (1 * 2 + 0) * 3 + 2);
  EXPECT_EQ(b.params.S_align, 0.04);
  EXPECT_EQ(b.params.D_vis, 10);
  EXPECT_EQ(a.seed, b.seed);
  // A new base seed moves every run.
  SweepSpec u = s;
  u.seed = 8;
  EXPECT_NE(run_point(u, 0).seed, run_point(s, 0).seed);
  // Paired: repetition r has one seed in every combination.
  s.seed_mode = SeedMode::PerRep;
  EXPECT_EQ(run_point(s, 1).seed, run_point(s, 3 * 3 + 1).seed);
  EXPECT_NE(run_point(s, 1).seed, run_point(s, 2).seed);
}

TEST(SweepPlan, SharesSetTheScoutGroups) {
  SweepSpec s;
  s.base.boids = 50;
  s.axes.push_back(parse_grid_axis("informed=0.2"));
  s.axes.push_back(parse_grid_axis("right_share=1,0.6"));
  s.axes.push_back(parse_grid_axis("boids=50,200"));
  const RunPoint a = run_point(s, 2);  // informed 0.2, right_share 0.6, 50 boids
  EXPECT_EQ(a.params.scouts1, 6);
  EXPECT_EQ(a.params.scouts2, 4);
  const RunPoint b = run_point(s, 1);  // right_share 1, 200 boids
  EXPECT_EQ(b.params.scouts1, 40);
  EXPECT_EQ(b.params.scouts2, 0);
}

TEST(SweepPlan, ValidateRejectsRepeatsAndHugeGrids) {
  SweepSpec s = small_spec();
  s.axes.push_back(parse_grid_axis("D_vis=5"));
  EXPECT_THROW(validate(s), InputError);
  SweepSpec t = small_spec();
  t.reps = 200000000;
  EXPECT_THROW(validate(t), InputError);
}

// ---------------------------------------------------------------- run summaries
TEST(SweepSummary, AgreesWithTheRecordedRun) {
  Params p = load_preset(resolve_preset("report-vis25"));
  p.boids = 40;
  p.seed = 11;
  SummaryOptions o;
  o.form_radius = 1000;  // links under D_vis = 25, as the metrics' clusters do
  const RunSummary s = summarise_run(p, 60, SweepKind::Flock, o);
  RunSpec spec;
  spec.params = p;
  spec.steps = 60;
  spec.threads = 1;
  const RunResult r = run_flock(spec);
  double sum_d = 0, sum_p = 0;
  for (const auto& m : r.metrics) sum_d += m.diameter, sum_p += m.polarisation;
  EXPECT_EQ(s.final_diameter, r.metrics.back().diameter);
  EXPECT_EQ(s.final_polarisation, r.metrics.back().polarisation);
  EXPECT_NEAR(s.mean_diameter, sum_d / 61.0, 1e-9 * sum_d);
  EXPECT_NEAR(s.mean_polarisation, sum_p / 61.0, 1e-9);
  EXPECT_EQ(s.final_clusters, r.metrics.back().clusters);
  EXPECT_EQ(s.boid_steps, 40u * 60u);
}

TEST(SweepSummary, FormedIsTheFirstCheckWithOneCluster) {
  Params p = load_preset(resolve_preset("report-baseline"));
  p.boids = 30;
  p.seed = 3;
  SummaryOptions o;
  o.check_every = 4;
  o.form_radius = 10;
  const RunSummary s = summarise_run(p, 1500, SweepKind::Flock, o);
  ASSERT_TRUE(s.formed);
  EXPECT_EQ(s.formed_step % 4, 0u);
  EXPECT_DOUBLE_EQ(s.formed_time, double(s.formed_step) * p.dt);
  // Replay: one cluster under 10 px at formed_step, more at every earlier check.
  Flock f(p);
  MetricsOptions mo;
  mo.nearest_neighbour = false;
  for (std::uint64_t step = 0; step <= s.formed_step; ++step) {
    if (step % 4 == 0) {
      const int clusters = compute_metrics(view_of(f), 10.0, mo).clusters;
      if (step < s.formed_step) EXPECT_GT(clusters, 1) << step;
      else EXPECT_EQ(clusters, 1);
    }
    f.step();
  }
  // The link is the vision, at most form_radius.
  EXPECT_EQ(formation_radius(p, o), 10);
  p.D_vis = 25;
  EXPECT_EQ(formation_radius(p, o), 10);
  p.D_vis = 5;
  EXPECT_EQ(formation_radius(p, o), 5);
  p.rules = int(RuleSet::Cornell);
  p.visualRange = 40;
  o.form_radius = 100;
  EXPECT_EQ(formation_radius(p, o), 40);
}

TEST(SweepSummary, ShareGoingRightIsCoresShareRightAtTheEndAndOverTheRun) {
  // Every boid a scout with full bias and no other rules: from step 1 on vx is +1 (group 1)
  // or -1 (group 2) before the speed limit of 1 rescales it, so every boid goes right (or
  // left). Step 0 is the spawned flock, whose share the metrics count.
  Params p;
  p.boids = 20;
  p.scouts1 = 20;
  p.biasval = 1;
  p.dynamicbias = false;
  p.cohesion = p.separation = p.alignment = false;
  p.turnfactor = 0;
  p.predators = 0;
  p.minspeed = p.maxspeed = 1;
  p.seed = 5;
  const double spawned = compute_metrics(Flock(p)).share_right;
  ASSERT_GT(spawned, 0.1);
  ASSERT_LT(spawned, 0.9);
  const RunSummary right = summarise_run(p, 9, SweepKind::Flock, SummaryOptions{});
  EXPECT_EQ(right.final_share_right, 1);
  EXPECT_DOUBLE_EQ(right.mean_share_right, (spawned + 9) / 10);
  p.scouts1 = 0, p.scouts2 = 20;
  const RunSummary left = summarise_run(p, 9, SweepKind::Flock, SummaryOptions{});
  EXPECT_EQ(left.final_share_right, 0);
  EXPECT_DOUBLE_EQ(left.mean_share_right, spawned / 10);
  // The last two columns of runs.csv, in any kind of sweep.
  SweepSpec s;
  s.base = p;
  s.axes.push_back(parse_grid_axis("biasval=1"));
  for (SweepKind kind : {SweepKind::Flock, SweepKind::Consensus}) {
    s.kind = kind;
    const Table t = parse_csv_table(runs_header(s) + "\n" + runs_row(s, run_point(s, 0), right));
    ASSERT_GE(t.columns.size(), 2u);
    EXPECT_EQ(t.columns[t.columns.size() - 2], "final_share_right");
    EXPECT_EQ(t.columns.back(), "mean_share_right");
    EXPECT_EQ(t.number(0, t.column("final_share_right")), 1);
    EXPECT_DOUBLE_EQ(t.number(0, t.column("mean_share_right")), right.mean_share_right);
  }
  // A measure of sweeps whose flocks have scouts: the base's, or an axis that sets them.
  EXPECT_TRUE(has_scouts(s));
  s.base.scouts2 = 0;
  EXPECT_FALSE(has_scouts(s));
  s.axes.push_back(parse_grid_axis("scouts1=0,5"));
  EXPECT_TRUE(has_scouts(s));
}

TEST(SweepSummary, ScoutsThatAllGoRightDecideRight) {
  // Every boid a scout with full bias and no flocking rules: vx is set to +1 every frame and
  // the speed limit of 1 turns the rest of the velocity into x, so the centroid (no naive
  // boids: all of them count) soon crosses centre + a quarter of the interior (320 + 110).
  Params p;
  p.boids = 20;
  p.scouts1 = 20;
  p.biasval = 1;
  p.dynamicbias = false;
  p.cohesion = p.separation = p.alignment = false;
  p.turnfactor = 0;
  p.minspeed = p.maxspeed = 1;
  p.seed = 5;
  const RunSummary right = summarise_run(p, 400, SweepKind::Consensus, SummaryOptions{});
  EXPECT_EQ(right.decision, 1);
  EXPECT_GT(right.decision_step, 30u);
  EXPECT_LT(right.decision_step, 400u);
  p.scouts1 = 0;
  p.scouts2 = 20;
  const RunSummary left = summarise_run(p, 400, SweepKind::Consensus, SummaryOptions{});
  EXPECT_EQ(left.decision, -1);
  p.scouts2 = 0;
  p.biasval = 0;
  p.minspeed = p.maxspeed = 0;  // nobody moves: no decision
  EXPECT_EQ(summarise_run(p, 50, SweepKind::Consensus, SummaryOptions{}).decision, 0);
}

// ---------------------------------------------------------------- per-combination summaries
TEST(SweepStats, CombinationsOfAHandMadeTable) {
  SweepSpec s;
  s.kind = SweepKind::Consensus;
  s.axes.push_back(parse_grid_axis("boids=10,20"));
  s.reps = 3;
  Table t;
  t.columns = runs_columns(s);
  auto row = [&](int run, double diameter, int decision, const char* dtime) {
    std::vector<std::string> r(t.columns.size(), "0");
    r[std::size_t(t.column("run"))] = std::to_string(run);
    r[std::size_t(t.column("combination"))] = std::to_string(run / 3);
    r[std::size_t(t.column("final_diameter"))] = number_cell(diameter);
    r[std::size_t(t.column("decision"))] = std::to_string(decision);
    r[std::size_t(t.column("decision_time"))] = dtime;
    r[std::size_t(t.column("scouts1"))] = "2";
    t.rows.push_back(r);
  };
  row(0, 1, 1, "10"), row(1, 2, 1, "20"), row(2, 6, -1, "60");
  row(3, 5, 0, "NA"), row(4, 5, 1, "30"), row(5, 5, 0, "NA");
  const auto combos = summarise_combinations(s, t);
  ASSERT_EQ(combos.size(), 2u);
  const auto& names = summary_metrics(s.kind);
  const auto k_d = std::size_t(std::find(names.begin(), names.end(), "final_diameter") - names.begin());
  const auto k_t = std::size_t(std::find(names.begin(), names.end(), "decision_time") - names.begin());
  EXPECT_DOUBLE_EQ(combos[0].metrics[k_d].mean, 3);
  EXPECT_DOUBLE_EQ(combos[0].metrics[k_d].sd, std::sqrt(7.0));
  EXPECT_EQ(combos[0].right.k, 2u);
  EXPECT_EQ(combos[0].left.k, 1u);
  EXPECT_EQ(combos[0].labels, (std::vector<std::string>{"10"}));
  EXPECT_EQ(combos[1].metrics[k_t].n, 1u);
  EXPECT_DOUBLE_EQ(combos[1].metrics[k_t].mean, 30);
  EXPECT_EQ(combos[1].metrics[k_d].sd, 0);
  EXPECT_EQ(combos[1].scouts1, 2);
  const std::string csv = summary_csv(s, combos);
  EXPECT_EQ(csv.substr(0, csv.find('\n')).rfind("combination,boids,runs,scouts_right,scouts_left,p_right,", 0), 0u) << csv;
}


// ---------------------------------------------------------------- files
TEST(SweepFiles, SameSpecSameBytesOnAnyJobCount) {
  const SweepSpec s = small_spec();
  const fs::path a = fresh_dir("jobs_a"), b = fresh_dir("jobs_b");
  SweepOptions one, two;
  one.jobs = 1, two.jobs = 3;
  const SweepOutcome ra = run_sweep(s, a, one);
  const SweepOutcome rb = run_sweep(s, b, two);
  EXPECT_TRUE(ra.complete && rb.complete);
  EXPECT_EQ(ra.ran, 12u);
  const std::string text = slurp(a / "runs.csv");
  EXPECT_EQ(text, slurp(b / "runs.csv"));
  EXPECT_EQ(slurp(a / "summary.csv"), slurp(b / "summary.csv"));
  EXPECT_FALSE(fs::exists(a / "runs.partial.csv"));
  EXPECT_TRUE(fs::exists(a / "sweep.json"));
  const Table t = parse_csv_table(text);
  ASSERT_EQ(t.rows.size(), 12u);
  EXPECT_EQ(t.columns[4], "D_vis");
  for (std::size_t r = 0; r < t.rows.size(); ++r) EXPECT_EQ(t.rows[r][0], std::to_string(r));
  // The recorded seed reproduces the run on its own.
  const RunPoint p = run_point(s, 5);
  EXPECT_EQ(t.rows[5][3], std::to_string(p.seed));
  EXPECT_EQ(t.rows[5], parse_csv_table(runs_header(s) + "\n" + runs_row(s, p, summarise_run(p.params, s.steps, s.kind, s.summary))).rows[0]);
  // Running it again redoes nothing.
  const SweepOutcome again = run_sweep(s, a, one);
  EXPECT_EQ(again.ran, 0u);
  EXPECT_EQ(again.skipped, 12u);
  EXPECT_EQ(slurp(a / "runs.csv"), text);
}

namespace {
// The sweep into `dir`, stopped after `runs` new runs on `jobs` threads.
SweepOutcome interrupted_sweep(const SweepSpec& s, const fs::path& dir, std::uint64_t runs, int jobs) {
  SweepOptions stop_early;
  stop_early.max_new_runs = runs;
  stop_early.jobs = jobs;
  return run_sweep(s, dir, stop_early);
}
}  // namespace

TEST(SweepFiles, ResumesAnInterruptedSweepWithoutRedoingRuns) {
  const SweepSpec s = small_spec();
  const fs::path whole = fresh_dir("resume_whole"), cut = fresh_dir("resume_cut");
  run_sweep(s, whole);
  const SweepOutcome first = interrupted_sweep(s, cut, 5, 2);
  EXPECT_FALSE(first.complete);
  EXPECT_EQ(first.ran, 5u);
  EXPECT_FALSE(fs::exists(cut / "runs.csv"));
  // A write cut off mid-row (a kill at the wrong moment) is dropped and redone.
  std::ofstream(cut / "runs.partial.csv", std::ios::app) << "9,3,0,12";
  const SweepOutcome second = run_sweep(s, cut);
  EXPECT_TRUE(second.complete);
  EXPECT_EQ(second.skipped, 5u);
  EXPECT_EQ(second.ran, 7u);
  EXPECT_EQ(slurp(cut / "runs.csv"), slurp(whole / "runs.csv"));
  EXPECT_FALSE(fs::exists(cut / "runs.partial.csv"));
  // A stop request (Ctrl-C) ends cleanly too.
  const fs::path stopped = fresh_dir("resume_stop");
  std::atomic<bool> stop{true};
  SweepOptions o;
  o.stop = &stop;
  EXPECT_FALSE(run_sweep(s, stopped, o).complete);
}

// Complete rows with every column but garbage in them (a disk error, an edit gone wrong):
// each is dropped with a warning naming its line and its run made again, so the sweep still
// finishes with the bytes of an uninterrupted one.
TEST(SweepFiles, AGarbledRowIsDroppedWithAWarningAndRedone) {
  const SweepSpec s = small_spec();
  const fs::path whole = fresh_dir("garbled_whole"), cut = fresh_dir("garbled_cut");
  run_sweep(s, whole);
  interrupted_sweep(s, cut, 4, 1);
  const std::size_t columns = runs_columns(s).size();
  std::string garbled_combo = "2,x", garbled_cell = "3,1,1," + std::to_string(run_point(s, 3).seed);
  for (std::size_t c = 2; c < columns; ++c) garbled_combo += ",x";
  for (std::size_t c = 4; c < columns; ++c) garbled_cell += c == columns - 2 ? ",1.5oops" : ",1";
  {
    std::ofstream out(cut / "runs.partial.csv", std::ios::app);
    out << garbled_combo << "\n" << garbled_cell << "\n"
        << "7" << std::string(columns - 1, ',') << "\n";  // every cell empty but the id
  }
  std::vector<std::string> warnings;
  SweepOptions o;
  o.warn = [&](const std::string& w) { warnings.push_back(w); };
  const SweepOutcome r = run_sweep(s, cut, o);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.skipped, 4u);
  EXPECT_EQ(r.ran, 8u);
  EXPECT_EQ(slurp(cut / "runs.csv"), slurp(whole / "runs.csv"));
  ASSERT_EQ(warnings.size(), 3u);
  EXPECT_NE(warnings[0].find("runs.partial.csv:6: row does not parse"), std::string::npos) << warnings[0];
  EXPECT_NE(warnings[0].find("its run is made again"), std::string::npos) << warnings[0];
}

// Another process's share of the queue, here made in the polling thread itself: what the
// MPI ranks do through experiments/src/mpi.cpp, without the transport.
struct InlineRemote final : SweepRemote {
  const SweepSpec& s;
  std::uint64_t took = 0;
  std::uint64_t close_after = 0;  // close the queue once this many rows are kept (0: never)
  std::uint64_t closed_at = 0;
  explicit InlineRemote(const SweepSpec& spec) : s(spec) {}
  bool poll(SweepQueue& q) override {
    if (close_after > 0 && q.kept() >= close_after) {
      closed_at = q.close();
      return false;
    }
    const auto id = q.take();
    if (!id) return false;
    ++took;
    const RunPoint pt = run_point(s, *id);
    const RunSummary r = summarise_run(pt.params, s.steps, s.kind, s.summary);
    q.add(*id, runs_row(s, pt, r), r.boid_steps);
    return true;
  }
};

TEST(SweepFiles, ARemoteSharesTheQueueAndTheRowsAreTheSame) {
  SweepSpec s = small_spec();
  s.steps = 400;
  const fs::path alone = fresh_dir("remote_alone"), shared = fresh_dir("remote_shared");
  SweepOptions one;
  one.jobs = 1;
  run_sweep(s, alone, one);
  InlineRemote remote(s);
  SweepOptions o = one;
  o.remote = &remote;
  const SweepOutcome r = run_sweep(s, shared, o);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.ran, 12u);
  EXPECT_GT(remote.took, 0u);
  EXPECT_LT(remote.took, 12u);
  EXPECT_EQ(slurp(shared / "runs.csv"), slurp(alone / "runs.csv"));
  EXPECT_EQ(slurp(shared / "summary.csv"), slurp(alone / "summary.csv"));

  // Closed (a job about to be killed): no row after it, the partial file holds exactly what
  // close() counted, and the same sweep again finishes it.
  const fs::path cut = fresh_dir("remote_closed");
  InlineRemote closing(s);
  closing.close_after = 4;
  o.remote = &closing;
  EXPECT_FALSE(run_sweep(s, cut, o).complete);
  EXPECT_GE(closing.closed_at, 4u);
  EXPECT_EQ(parse_csv_table(slurp(cut / "runs.partial.csv")).rows.size(), closing.closed_at);
  EXPECT_TRUE(run_sweep(s, cut, one).complete);
  EXPECT_EQ(slurp(cut / "runs.csv"), slurp(alone / "runs.csv"));
}

TEST(SweepFiles, AFolderWithAnotherSweepIsRefused) {
  SweepSpec s = small_spec();
  const fs::path d = fresh_dir("other");
  SweepOptions o;
  o.max_new_runs = 1;
  run_sweep(s, d, o);
  s.steps = 41;
  try {
    run_sweep(s, d);
    ADD_FAILURE() << "a different sweep was resumed";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'steps' differs"), std::string::npos) << e.what();
  }
}

TEST(SweepFiles, ShardsMergeIntoTheUnshardedFile) {
  const SweepSpec s = small_spec();
  const fs::path whole = fresh_dir("shard_whole");
  run_sweep(s, whole);
  std::vector<fs::path> dirs;
  std::vector<std::string> bodies;
  for (std::uint64_t i = 0; i < 5; ++i) {
    SweepSpec t = s;
    t.shard = {i, 5};
    dirs.push_back(fresh_dir("shard_" + std::to_string(i)));
    const SweepOutcome r = run_sweep(t, dirs.back());
    EXPECT_TRUE(r.complete);
    EXPECT_EQ(r.total, i < 2 ? 3u : 2u);  // 12 runs over 5 shards
    std::istringstream in(slurp(dirs.back() / "runs.csv"));
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, runs_header(s));
    while (std::getline(in, line)) {
      EXPECT_EQ(std::stoull(line) % 5, i);
      bodies.push_back(line);
    }
  }
  // The documented merge: header once, then the bodies sorted by run id (sort -t, -k1,1n).
  std::sort(bodies.begin(), bodies.end(), [](const std::string& a, const std::string& b) { return std::stoull(a) < std::stoull(b); });
  std::string merged = runs_header(s) + "\n";
  for (const auto& b : bodies) merged += b + "\n";
  EXPECT_EQ(merged, slurp(whole / "runs.csv"));
  // And `flockscope sweep-merge`'s engine, from the folders in any order.
  std::reverse(dirs.begin(), dirs.end());
  const fs::path out = fresh_dir("shard_merged");
  std::vector<ComboSummary> combos;
  const SweepSpec m = merge_shards(dirs, out, &combos);
  EXPECT_EQ(m.shard, Shard{});
  EXPECT_EQ(slurp(out / "runs.csv"), slurp(whole / "runs.csv"));
  EXPECT_EQ(slurp(out / "summary.csv"), slurp(whole / "summary.csv"));
  EXPECT_EQ(combos.size(), 4u);
  dirs.pop_back();
  EXPECT_THROW(merge_shards(dirs, fresh_dir("shard_missing")), InputError);
}

TEST(SweepFiles, SpecRoundTripsThroughJson) {
  SweepSpec s = small_spec();
  s.kind = SweepKind::Consensus;
  s.seed_mode = SeedMode::PerRep;
  s.shard = {1, 4};
  s.summary.check_every = 3;
  const SweepSpec t = spec_from_json(spec_to_json(s), "test");
  EXPECT_EQ(spec_to_json(t), spec_to_json(s));
  EXPECT_EQ(t.axes[0].labels, s.axes[0].labels);
}

TEST(Sweep, NaiveHeadingAveragesTheNaiveBoidsXHeadingOverTheWindow) {
  // Every rule off, no wall turns or speed limits: velocities never change, so the naive boids'
  // mean x-heading is the same at every step and can be read off the spawned state.
  Params p;
  p.width = p.height = 100000;
  p.leftmargin = p.rightmargin = p.topmargin = p.bottommargin = 0;
  p.minspeed = 0, p.maxspeed = 1000, p.predators = 0, p.boids = 20, p.turnfactor = 0;
  p.cohesion = p.alignment = p.separation = false;
  p.scouts1 = 5, p.biasval = 0;  // scouts with no pull: they must not count
  const FlockSnapshot s0 = Flock(p).snapshot();
  double want = 0;
  for (std::size_t i = 5; i < 20; ++i) want += s0.vx[i] / std::hypot(double(s0.vx[i]), double(s0.vy[i]));
  want /= 15;
  SummaryOptions o;
  o.heading_from = 3, o.heading_to = 5;
  const RunSummary r = summarise_run(p, 10, SweepKind::Consensus, o);
  EXPECT_NEAR(r.naive_heading, want, 1e-6);
  // A window past the run's end has no samples: NaN, written "NA".
  o.heading_from = 50, o.heading_to = 60;
  EXPECT_TRUE(std::isnan(summarise_run(p, 10, SweepKind::Consensus, o).naive_heading));
}
