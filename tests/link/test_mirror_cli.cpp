// `flockscope mirror` as a script runs it, against the virtual board over a pseudo-terminal:
// 2,000 boids at 30 fps mirrored for 60 s with no frame lost; --set changes acknowledged;
// metrics.csv with the columns of `flockscope run` and `source` (after share_left), every row equal to the
// metrics recomputed from the recorded states; the error exits.
#include <gtest/gtest.h>

#include <chrono>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "../board/vboard_process.hpp"
#include "flockscope/core/metrics.hpp"
#include "flockscope/core/recording.hpp"
#include "../support/shell.hpp"

namespace fs = std::filesystem;
using namespace flockscope;
using vbtest::VirtualBoard;

namespace {

fs::path out_dir(const std::string& tag) {
  const fs::path d = fs::temp_directory_path() / ("flockscope-mirror-" + tag + "-" + std::to_string(getpid()));
  fs::remove_all(d);
  return d;
}

// Runs flockscope with these arguments, returns its exit status; stdout+stderr in `output`.
int run(const std::string& args, std::string& output) {
  const testsupport::Result r = testsupport::sh(std::string(FLOCKSCOPE_BIN) + " " + args);
  output = r.output;
  return r.code;
}

std::string first_line(const fs::path& f) {
  std::ifstream in(f);
  std::string s;
  std::getline(in, s);
  return s;
}

std::size_t lines(const fs::path& f) { return testsupport::lines(f).size(); }

}  // namespace

TEST(MirrorCli, TwoThousandBoidsAt30FpsForSixtySecondsWithNoFrameLost) {
  const char* s = std::getenv("FLOCKSCOPE_MIRROR_SECONDS");  // shorter by hand; CI runs the full 60
  const int seconds = s ? std::atoi(s) : 60;
  VirtualBoard vb({"--boids", "2000"}, (fs::temp_directory_path() / ("flockscope-mirror-vb-" + std::to_string(getpid()))).string());
  ASSERT_TRUE(fs::exists(vb.link));
  const fs::path out = out_dir("60s");
  std::string output;
  const int rc = run("mirror --port " + vb.link + " --seconds " + std::to_string(seconds) +
                         " --set maxspeed=5 --set visualRange=45 --quiet --out " + out.string() + " --record " +
                         (out / "board.flkrec").string(),
                     output);
  ASSERT_EQ(rc, 0) << output;
  const auto j = nlohmann::json::parse(std::ifstream(out / "link.json"));
  const auto& f = j["frames"];
  const double expected = 30.0 * seconds;
  std::printf("mirror: %s\n", f.dump().c_str());
  std::printf("link: %s\n", j["link"].dump().c_str());
  EXPECT_GE(f["received"].get<double>(), expected * 0.97);
  EXPECT_EQ(f["missed"], 0) << "board frames never seen";
  EXPECT_EQ(f["partial"], 0) << "frames with boids missing";
  EXPECT_EQ(f["complete"], f["received"]);
  EXPECT_EQ(f["boids"], 2000);
  EXPECT_EQ(j["link"]["bad_crc"], 0);
  EXPECT_EQ(j["link"]["seq_gaps"], 0);
  EXPECT_EQ(j["link"]["frames_dropped_by_app"], 0);
  EXPECT_GT(j["link"]["bytes_per_s"].get<double>(), 400000.0);  // 2000 boids x 30 fps of state
  ASSERT_EQ(j["changes"].size(), 2u);
  EXPECT_EQ(j["changes"][0]["name"], "maxspeed");
  EXPECT_EQ(j["changes"][0]["in_force"], "5");
  EXPECT_EQ(j["changes"][1]["in_force"], "45");
  EXPECT_EQ(j["params"]["visualRange"], 45.0);
  // The columns of `flockscope run` and the metrics' source, one row per board frame.
  EXPECT_EQ(first_line(out / "metrics.csv"),
            "step,time,diameter,centroid_x,centroid_y,polarisation,mean_speed,mean_nn_distance,clusters,share_right,"
            "share_left,source,metrics_boids,perched,speed_down,speed_up,food_distance,predator_distance");
  EXPECT_EQ(lines(out / "metrics.csv"), f["received"].get<std::size_t>() + 1);
  EXPECT_GT(fs::file_size(out / "board.flkrec"), 1000000u);

  // Every row is exact: the metrics recomputed from the recorded states (quantised to 16 bits
  // over the flock's bounding box) agree within that quantisation, and no step is missing.
  const Recording rec = Recording::load(out / "board.flkrec");
  std::ifstream csv(out / "metrics.csv");
  std::string line;
  std::getline(csv, line);
  std::size_t row = 0;
  double worst_d = 0, worst_c = 0, worst_p = 0, worst_s = 0, worst_nn = 0, worst_pd = 0;
  long long last_step = -1;
  while (std::getline(csv, line)) {
    std::vector<std::string> c;
    std::stringstream ss(line);
    for (std::string cell; std::getline(ss, cell, ',');) c.push_back(cell);
    ASSERT_EQ(c.size(), 18u) << line;
    const long long step = std::atoll(c[0].c_str());
    if (last_step >= 0) {
      ASSERT_EQ(step, last_step + 1) << "row " << row;
    }
    last_step = step;
    EXPECT_EQ(c[11], "state") << "row " << row;
    EXPECT_EQ(c[12], "2000") << "row " << row;
    EXPECT_EQ(c[16], "") << "row " << row;  // no food sources (food 0)
    ASSERT_LT(row, rec.frames());
    const RecordedFrame fr = rec.frame(row);
    ASSERT_EQ(fr.step, std::uint64_t(step));
    // The recording holds the very metrics of the row (the frame's and its extras').
    // (The run's row with the mirror's cells after share_left.)
    std::string expect = metrics_row(fr.step, fr.time, rec.metrics(row));
    std::size_t at = 0;
    for (int field = 0; field < 11; ++field) at = expect.find(',', at) + 1;
    expect.insert(at, "state,2000,");
    EXPECT_EQ(expect, line) << "row " << row;
    const Metrics m = compute_metrics({fr.boids.x.data(), fr.boids.y.data(), fr.boids.vx.data(), fr.boids.vy.data(),
                                       fr.boids.size(), {}, fr.predators},
                                      cluster_radius(rec.params_at(row)));
    auto num = [&](int i) { return std::strtod(c[std::size_t(i)].c_str(), nullptr); };
    worst_d = std::max(worst_d, std::abs(num(2) - m.diameter));
    worst_c = std::max({worst_c, std::abs(num(3) - m.centroid_x), std::abs(num(4) - m.centroid_y)});
    worst_p = std::max(worst_p, std::abs(num(5) - m.polarisation));
    worst_s = std::max(worst_s, std::abs(num(6) - m.mean_speed));
    worst_nn = std::max(worst_nn, std::abs(num(7) - m.mean_nn_distance));
    worst_pd = std::max(worst_pd, std::abs(num(17) - m.predator_distance));
    ++row;
  }
  EXPECT_EQ(row, rec.frames());
  std::printf("mirror vs recording, worst differences: diameter %.3g px, centroid %.3g px, polarisation %.3g, "
              "mean speed %.3g px/frame, nearest neighbour %.3g px, predator to boid %.3g px over %zu rows\n",
              worst_d, worst_c, worst_p, worst_s, worst_nn, worst_pd, row);
  EXPECT_LT(worst_d, 0.05);
  EXPECT_LT(worst_c, 0.05);
  EXPECT_LT(worst_p, 1e-3);
  EXPECT_LT(worst_s, 1e-3);
  EXPECT_LT(worst_nn, 0.05);
  EXPECT_LT(worst_pd, 0.05);
  fs::remove_all(out);
}

TEST(MirrorCli, RejectedChangeExitsOneWithTheBoardsReason) {
  VirtualBoard vb({"--boids", "200"}, (fs::temp_directory_path() / ("flockscope-mirror-vbr-" + std::to_string(getpid()))).string());
  const fs::path out = out_dir("reject");
  std::string output;
  EXPECT_EQ(run("mirror --port " + vb.link + " --seconds 1 --set visualRange=500 --out " + out.string(), output), 1);
  EXPECT_NE(output.find("the board rejected visualRange=500: out of range (it keeps 40)"), std::string::npos) << output;
  EXPECT_FALSE(fs::exists(out / "metrics.csv"));
  // Refused by this app's own table before anything is sent.
  EXPECT_EQ(run("mirror --port " + vb.link + " --seconds 1 --set visualRange=-3 --out " + out.string(), output), 2);
  EXPECT_NE(output.find("--set visualRange=-3"), std::string::npos) << output;
  EXPECT_EQ(run("mirror --port " + vb.link + " --seconds 1 --set nosuchthing=1 --out " + out.string(), output), 2);
}

TEST(MirrorCli, NoBoardOnThePortExitsOneAfterTheTimeout) {
  const fs::path out = out_dir("none");
  std::string output;
  EXPECT_EQ(run("mirror --port /nonexistent/ttyACM9 --connect-timeout 0.5 --out " + out.string(), output), 1);
  EXPECT_NE(output.find("no board answered on /nonexistent/ttyACM9"), std::string::npos) << output;
  EXPECT_NE(output.find("no device"), std::string::npos) << output;
}

// A bad --set is said at once, from this app's table, whether or not a board answers: not
// "no board answered" after the connect timeout.
TEST(MirrorCli, ABadSetIsReportedBeforeAnyBoardIsAsked) {
  const fs::path out = out_dir("badset");
  std::string output;
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_EQ(run("mirror --port /nonexistent/ttyACM9 --connect-timeout 30 --set visualRange=abc --out " + out.string(),
                output),
            2);
  EXPECT_NE(output.find("--set visualRange=abc: visualRange='abc' is not a number"), std::string::npos) << output;
  EXPECT_EQ(run("mirror --port /nonexistent/ttyACM9 --connect-timeout 30 --set visualRange=1e9 --out " + out.string(),
                output),
            2);
  EXPECT_NE(output.find("--set visualRange=1e9: visualRange=1e+09 is out of range"), std::string::npos) << output;
  EXPECT_EQ(run("mirror --port /nonexistent/ttyACM9 --connect-timeout 30 --set visualRang=3 --out " + out.string(),
                output),
            2);
  EXPECT_NE(output.find("did you mean visualRange?"), std::string::npos) << output;
  EXPECT_EQ(output.find("no board answered"), std::string::npos) << output;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(20));  // not the 30 s timeout
}
