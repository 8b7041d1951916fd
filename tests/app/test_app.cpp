// The command line end to end: the real flockscope binary, its files and its error exits.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <algorithm>
#include <cmath>
#include "../support/shell.hpp"

namespace fs = std::filesystem;

namespace {

using testsupport::Result;
using testsupport::sh;
using testsupport::slurp;
using testsupport::lines;

Result run_cli(const std::string& args) { return sh(std::string(FLOCKSCOPE_BIN) + " " + args); }

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / "flockscope_test_cli" / name;
  fs::remove_all(d);
  return d;
}


}  // namespace

TEST(CliRun, WritesMetricsFinalStateAndRunJson) {
  const fs::path out = fresh_dir("basic");
  const Result r = run_cli("run --preset cornell-pic32-lab --steps 30 --seed 5 --set boids=120 --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto metrics = lines(out / "metrics.csv");
  ASSERT_EQ(metrics.size(), 1u + 31u);  // header + steps 0..30
  EXPECT_EQ(metrics[0].rfind("step,time,diameter,centroid_x,centroid_y,polarisation,mean_speed", 0), 0u);
  EXPECT_EQ(metrics[1].rfind("0,0,", 0), 0u);
  EXPECT_EQ(metrics[31].rfind("30,30,", 0), 0u);
  const auto state = lines(out / "final_state.csv");
  ASSERT_EQ(state.size(), 1u + 120u);
  EXPECT_NE(state[0].find("x,y,vx,vy"), std::string::npos);
  const auto run = nlohmann::json::parse(slurp(out / "run.json"));
  EXPECT_EQ(run["seed"], 5);
  EXPECT_EQ(run["steps"], 30);
  EXPECT_EQ(run["params"]["boids"], 120);
  EXPECT_EQ(run["params"]["visualRange"], 20);
  EXPECT_FALSE(run["flockscope_version"].get<std::string>().empty());
}

// Each preset of the lab's extensions runs from the command line and writes the metric that
// shows it.
TEST(CliRun, EveryExtensionPresetRunsAndWritesItsMetric) {
  const std::pair<const char*, const char*> presets[] = {{"cornell-smart-predator", "predator_distance"},
                                                         {"cornell-perching", "perched"},
                                                         {"cornell-gravity", "speed_down"},
                                                         {"cornell-food", "food_distance"},
                                                         {"cornell-final-project", "food_distance"}};
  for (const auto& [preset, column] : presets) {
    const fs::path out = fresh_dir(preset);
    const Result r = run_cli(std::string("run --preset ") + preset + " --steps 20 --set boids=300 --out " + out.string());
    ASSERT_EQ(r.code, 0) << preset << "\n" << r.output;
    const auto metrics = lines(out / "metrics.csv");
    ASSERT_EQ(metrics.size(), 1u + 21u) << preset;
    // The column's index in the header, then its cell in the last row: a number.
    std::vector<std::string> head, last;
    for (auto* row : {&head, &last}) {
      std::stringstream cells(row == &head ? metrics[0] : metrics.back());
      for (std::string cell; std::getline(cells, cell, ',');) row->push_back(cell);
    }
    const auto at = std::find(head.begin(), head.end(), column);
    ASSERT_NE(at, head.end()) << preset << ": " << metrics[0];
    const std::size_t i = std::size_t(at - head.begin());
    ASSERT_LT(i, last.size()) << preset;
    EXPECT_TRUE(std::isfinite(std::stod(last[i]))) << preset << " " << column;
  }
}

TEST(CliRun, SameCommandSameOutput) {
  const fs::path a = fresh_dir("same_a"), b = fresh_dir("same_b");
  ASSERT_EQ(run_cli("run --preset report-vis10 --steps 50 --out " + a.string()).code, 0);
  ASSERT_EQ(run_cli("run --preset report-vis10 --steps 50 --threads 1 --out " + b.string()).code, 0);
  EXPECT_EQ(slurp(a / "metrics.csv"), slurp(b / "metrics.csv"));
  EXPECT_EQ(slurp(a / "final_state.csv"), slurp(b / "final_state.csv"));
}

TEST(CliRun, RunJsonReproducesTheRunAsAPreset) {
  const fs::path a = fresh_dir("repro_a"), b = fresh_dir("repro_b");
  ASSERT_EQ(run_cli("run --preset blog-numpy --set seed=9 --steps 20 --out " + a.string()).code, 0);
  // run.json's "params" object is itself a valid preset.
  nlohmann::json run = nlohmann::json::parse(slurp(a / "run.json"));
  const fs::path preset = a / "again.json";
  std::ofstream(preset) << nlohmann::json{{"params", run["params"]}}.dump();
  ASSERT_EQ(run_cli("run --preset " + preset.string() + " --steps 20 --out " + b.string()).code, 0);
  EXPECT_EQ(slurp(a / "metrics.csv"), slurp(b / "metrics.csv"));
}

TEST(CliRun, InitFileSetsTheBoids) {
  const fs::path a = fresh_dir("init_a"), b = fresh_dir("init_b");
  ASSERT_EQ(run_cli("run --preset cornell-pico-predator --set boids=77 --steps 3 --out " + a.string()).code, 0);
  const Result r = run_cli("run --preset cornell-pico-predator --steps 2 --init " + (a / "final_state.csv").string() +
                              " --out " + b.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(lines(b / "final_state.csv").size(), 1u + 77u);
  EXPECT_EQ(nlohmann::json::parse(slurp(b / "run.json"))["params"]["boids"], 77);
  // Step 0 of the new run is the old run's final state: same centroid.
  const auto old_last = lines(a / "metrics.csv").back(), new_first = lines(b / "metrics.csv")[1];
  auto field = [](const std::string& row, int k) {
    std::stringstream ss(row);
    std::string cell;
    for (int i = 0; i <= k; ++i) std::getline(ss, cell, ',');
    return std::stod(cell);
  };
  EXPECT_NEAR(field(old_last, 3), field(new_first, 3), 1e-3);
}

TEST(CliRun, BadInputExitsNonZeroWithOneLineReason) {
  const std::string out = " --out " + fresh_dir("bad").string();
  struct Case {
    std::string args, expect;
  } cases[] = {
      {"run --preset no-such-preset" + out, "unknown preset 'no-such-preset'"},
      {"run --set nosuch=1" + out, "unknown parameter 'nosuch'"},
      {"run --set visualRange=-5" + out, "visualRange=-5 is out of range"},
      {"run --set boids=abc" + out, "not a number"},
      {"run --set visualRange" + out, "not of the form key=value"},
      {"run --steps -3" + out, "--steps"},
      {"run --bogus-flag" + out, "bogus"},
      {"run --preset report-baseline", "--out"},
      {"run --init /nonexistent/state.csv" + out, "cannot open"},
      {"run --set predator_mode=stalk" + out, "predator_mode"},
      {"run --set food=17" + out, "food=17 is out of range"},
      {"run --set perch_frames=-1" + out, "perch_frames=-1 is out of range"},
      {"run --set gravity=nan" + out, "gravity"},
  };
  for (const auto& c : cases) {
    const Result r = run_cli(c.args);
    EXPECT_NE(r.code, 0) << c.args;
    EXPECT_NE(r.output.find(c.expect), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_LE(std::count(r.output.begin(), r.output.end(), '\n'), 2) << c.args << "\n" << r.output;
  }
}

TEST(CliRun, UnwritableOutputFolderIsAClearError) {
  const fs::path blocker = fresh_dir("blocker");
  fs::create_directories(blocker.parent_path());
  std::ofstream(blocker) << "a file, not a folder";
  const Result r = run_cli("run --steps 1 --set boids=10 --out " + (blocker / "sub").string());
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.output.find("cannot create output folder"), std::string::npos) << r.output;
}

TEST(CliBench, PrintsOneJsonLineWithTheRates) {
  const Result r = run_cli("bench --boids 2000 --steps 3 --warmup 2 --threads 1");
  ASSERT_EQ(r.code, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["boids"], 2000);
  EXPECT_EQ(j["threads"], 1);
  EXPECT_GT(j["steps_per_s"].get<double>(), 0);
  EXPECT_GT(j["ns_per_boid_step"].get<double>(), 0);
  EXPECT_NEAR(j["world_side"].get<double>(), std::sqrt(400.0 * 2000), 1e-6);
  const auto all = nlohmann::json::parse(run_cli("bench --boids 500 --steps 1 --warmup 0 --all-pairs").output);
  EXPECT_EQ(all["engine"], "all-pairs");
}
