// The experiment commands end to end through the real binary: run --plots, sweep (same
// bytes on any job count, resume, shards + sweep-merge and the documented shell merge),
// consensus and plot, and their one-line errors.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include "../support/scratch.hpp"
#include "../support/shell.hpp"

namespace fs = std::filesystem;

namespace {

fs::path scratch_root() { return testsupport::scratch_root("experiments"); }
const auto* const g_remove_scratch = ::testing::AddGlobalTestEnvironment(new testsupport::RemoveAtExit(scratch_root()));

using testsupport::Result;
using testsupport::sh;
using testsupport::slurp;
using testsupport::lines;

Result cli(const std::string& args) { return sh(std::string(FLOCKSCOPE_BIN) + " " + args); }

fs::path fresh_dir(const std::string& name) {
  const fs::path d = scratch_root() / name;
  fs::remove_all(d);
  fs::create_directories(d.parent_path());
  return d;
}

std::size_t line_count(const fs::path& f) {
  const std::string s = slurp(f);
  return std::size_t(std::count(s.begin(), s.end(), '\n'));
}

// Width and height from a PNG's IHDR chunk (big-endian at bytes 16..23).
std::pair<int, int> png_size(const fs::path& f) {
  const std::string s = slurp(f);
  if (s.size() < 24 || s.compare(1, 3, "PNG") != 0) return {0, 0};
  auto be = [&](std::size_t o) {
    return (int(static_cast<unsigned char>(s[o])) << 24) | (int(static_cast<unsigned char>(s[o + 1])) << 16) |
           (int(static_cast<unsigned char>(s[o + 2])) << 8) | int(static_cast<unsigned char>(s[o + 3]));
  };
  return {be(16), be(20)};
}

const std::string kSmall = "sweep --preset report-baseline --set boids=24 --grid D_vis=10,inf --grid S_align=0.04,0.06 --reps 2 --steps 30";

}  // namespace

TEST(CliExperiments, RunPlotsWritesSvgAndPngBesideTheCsv) {
  const fs::path out = fresh_dir("run_plots");
  const Result r = cli("run --preset report-baseline --set boids=40 --steps 60 --plots --plot-size 640x400 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  for (const char* stem : {"diameter", "path", "polarisation", "state"}) {
    EXPECT_TRUE(fs::exists(out / (std::string(stem) + ".svg"))) << stem;
    EXPECT_EQ(png_size(out / (std::string(stem) + ".png")).second, 400) << stem;
  }
  EXPECT_EQ(png_size(out / "diameter.png"), (std::pair<int, int>{640, 400}));
  EXPECT_NE(slurp(out / "diameter.svg").find("data-series=\"diameter\""), std::string::npos);
  EXPECT_TRUE(fs::exists(out / "metrics.csv"));  // the existing files are unchanged
  EXPECT_NE(cli("run --plots --plot-size big --out " + out.string()).code, 0);
}

TEST(CliExperiments, SweepIsTheSameOnAnyJobCountAndPlotsItsSummary) {
  const fs::path a = fresh_dir("sweep_a"), b = fresh_dir("sweep_b");
  const Result ra = cli(kSmall + " --jobs 2 --out " + a.string());
  ASSERT_EQ(ra.code, 0) << ra.output;
  EXPECT_NE(ra.output.find("runs/s"), std::string::npos);
  EXPECT_NE(ra.output.find("boid-steps/s"), std::string::npos);
  const Result rb = cli(kSmall + " --jobs 1 --no-plots --out " + b.string());
  ASSERT_EQ(rb.code, 0) << rb.output;
  EXPECT_EQ(slurp(a / "runs.csv"), slurp(b / "runs.csv"));
  EXPECT_EQ(line_count(a / "runs.csv"), 1u + 8u);
  EXPECT_EQ(line_count(a / "summary.csv"), 1u + 4u);
  // Two keys: a line plot with spread and a heatmap per metric.
  EXPECT_EQ(png_size(a / "plots" / "final_diameter.png"), (std::pair<int, int>{800, 500}));
  EXPECT_TRUE(fs::exists(a / "plots" / "final_diameter-heatmap.svg"));
  EXPECT_FALSE(fs::exists(b / "plots"));
}

TEST(CliExperiments, SweepResumesWhereItStopped) {
  const fs::path d = fresh_dir("resume");
  ASSERT_EQ(cli(kSmall + " --no-plots --out " + d.string()).code, 0);
  const std::string whole = slurp(d / "runs.csv");
  // As if killed after five runs, the last row half written.
  std::string partial = whole.substr(0, whole.find('\n') + 1);
  std::istringstream rows(whole.substr(partial.size()));
  std::string row;
  for (int i = 0; i < 5 && std::getline(rows, row); ++i) partial += row + "\n";
  std::getline(rows, row);
  partial += row.substr(0, row.size() / 2);
  fs::remove(d / "runs.csv");
  fs::remove(d / "summary.csv");
  std::ofstream(d / "runs.partial.csv") << partial;
  const Result r = cli(kSmall + " --no-plots --out " + d.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("3 runs now, 5 found done"), std::string::npos) << r.output;
  EXPECT_EQ(slurp(d / "runs.csv"), whole);
  // Another sweep into the same folder is refused.
  std::string other_sweep = kSmall;
  other_sweep.replace(other_sweep.find("--steps 30"), 10, "--steps 31");
  const Result other = cli(other_sweep + " --out " + d.string());
  EXPECT_EQ(other.code, 2);
  EXPECT_NE(other.output.find("holds a different sweep"), std::string::npos) << other.output;
}

TEST(CliExperiments, ShardsMergeByCommandAndByConcatenation) {
  const fs::path whole = fresh_dir("shard_whole");
  ASSERT_EQ(cli(kSmall + " --no-plots --out " + whole.string()).code, 0);
  std::string dirs;
  for (int i = 0; i < 3; ++i) {
    const fs::path d = fresh_dir("shard" + std::to_string(i));
    const Result r = cli(kSmall + " --shard " + std::to_string(i) + "/3 --out " + d.string());
    ASSERT_EQ(r.code, 0) << r.output;
    dirs += " " + d.string();
  }
  const fs::path merged = fresh_dir("shard_merged");
  const Result m = cli("sweep-merge --out " + merged.string() + dirs);
  ASSERT_EQ(m.code, 0) << m.output;
  EXPECT_EQ(slurp(merged / "runs.csv"), slurp(whole / "runs.csv"));
  EXPECT_TRUE(fs::exists(merged / "plots" / "mean_diameter.png"));
  // The merge documented for job arrays: one header, the bodies sorted by run id.
  const fs::path cat = fresh_dir("shard_cat.csv");
  const fs::path s0 = scratch_root() / "shard0";
  const Result c = sh("{ head -n 1 " + (s0 / "runs.csv").string() + "; for d in" + dirs +
                      "; do tail -n +2 \"$d/runs.csv\"; done | sort -t, -k1,1n; } > " + cat.string());
  ASSERT_EQ(c.code, 0) << c.output;
  EXPECT_EQ(slurp(cat), slurp(whole / "runs.csv"));
}

TEST(CliExperiments, ConsensusEndToEnd) {
  const fs::path d = fresh_dir("consensus");
  const Result r = cli("consensus --boids 30 --informed 0,0.5 --bias static,dynamic --trials 3 --steps 150 --out " + d.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("P(right)"), std::string::npos) << r.output;
  const std::string runs = slurp(d / "runs.csv");
  EXPECT_EQ(runs.substr(0, runs.find('\n')),
            "run,combination,rep,seed,informed,boids,dynamicbias,scouts1,scouts2,final_diameter,mean_diameter,"
            "final_polarisation,mean_polarisation,final_clusters,formed,formed_time,decision,decision_time,naive_heading,"
            "final_share_right,mean_share_right");
  EXPECT_EQ(line_count(d / "runs.csv"), 1u + 12u);
  EXPECT_NE(slurp(d / "summary.csv").find("p_right"), std::string::npos);
  EXPECT_EQ(png_size(d / "plots" / "p_right.png"), (std::pair<int, int>{800, 500}));
  const Result bad = cli("consensus --informed 0.1 --scouts1 3 --out " + d.string());
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.output.find("not both"), std::string::npos);
  for (const char* w : {"200", "5:", "9:3", "a:b"}) {
    const Result bw = cli(std::string("consensus --heading-window ") + w + " --out " + d.string());
    EXPECT_EQ(bw.code, 2) << w;
    EXPECT_NE(bw.output.find("--heading-window"), std::string::npos) << bw.output;
  }
}

TEST(CliExperiments, PlotOverlaysColumnsFromCsvFiles) {
  const fs::path a = fresh_dir("plot_a"), b = fresh_dir("plot_b"), out = fresh_dir("plot_out");
  ASSERT_EQ(cli("run --preset blog-numpy --set boids=40 --steps 20 --out " + a.string()).code, 0);
  ASSERT_EQ(cli("run --preset blog-numpy --set boids=40 --set alignment=false --steps 20 --out " + b.string()).code, 0);
  const Result r = cli("plot --x time --y polarisation " + (a / "metrics.csv").string() + " " + (b / "metrics.csv").string() +
                       "=no-alignment --title Views --out " + (out / "pol").string());
  ASSERT_EQ(r.code, 0) << r.output;
  const std::string svg = slurp(out / "pol.svg");
  EXPECT_NE(svg.find("data-series=\"plot_a\""), std::string::npos);
  EXPECT_NE(svg.find("data-series=\"no-alignment\""), std::string::npos);
  EXPECT_EQ(png_size(out / "pol.png"), (std::pair<int, int>{800, 500}));
  // A stem given with the picture's extension names the picture, not pol2.png.png.
  ASSERT_EQ(cli("plot " + (a / "metrics.csv").string() + " --out " + (out / "pol2.png").string()).code, 0);
  EXPECT_EQ(png_size(out / "pol2.png"), (std::pair<int, int>{800, 500}));
  EXPECT_TRUE(fs::exists(out / "pol2.svg"));
  EXPECT_FALSE(fs::exists(out / "pol2.png.png"));
  EXPECT_EQ(cli("plot --y nosuch " + (a / "metrics.csv").string() + " --out " + (out / "x").string()).code, 2);
}

TEST(CliExperiments, BadSweepInputIsAOneLineError) {
  const std::string out = " --out " + fresh_dir("bad").string();
  struct Case {
    std::string args, expect;
  } cases[] = {
      {"sweep --grid nosuch=1,2" + out, "unknown parameter 'nosuch'"},
      {"sweep --grid D_vis=1:2:0" + out, "step must be positive"},
      {"sweep --shard 3/2" + out, "--shard"},
      {"sweep --grid D_vis=5 --grid D_vis=6" + out, "given twice"},
      {"sweep --reps 0" + out, "--reps"},
      {"sweep-merge --out /tmp/x /nonexistent", "no sweep.json"},
  };
  for (const auto& c : cases) {
    const Result r = cli(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.expect), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_LE(std::count(r.output.begin(), r.output.end(), '\n'), 2) << c.args << "\n" << r.output;
  }
}
