// The command line against hostile input: files that never end, damaged recordings, values
// no plot can hold, outputs that cannot be written, crowded flocks. The real binary, its
// files and its exits; the recordings are written with the real RecordingWriter.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "flockscope/core/io.hpp"
#include "flockscope/core/recording.hpp"
#include "flockscope/protocol/crc32.hpp"
#include "../support/shell.hpp"

namespace fs = std::filesystem;
using namespace flockscope;

namespace {

using testsupport::Result;
using testsupport::sh;
using testsupport::slurp;
using testsupport::lines;

// `timeout` ends a command that would read forever, so a regression fails instead of hanging.
Result run_cli(const std::string& args) { return sh("timeout 60 " + std::string(FLOCKSCOPE_BIN) + " " + args); }

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / "flockscope_test_hostile" / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}


int count_lines(const std::string& s) { return int(std::count(s.begin(), s.end(), '\n')); }

// A recording of `frames` frames of a 40-boid flock; returns each frame's end offset.
std::vector<std::uintmax_t> record(const fs::path& file, int frames) {
  Params p;
  p.boids = 40;
  p.scouts1 = 5;
  p.food = 2;
  Flock f(p);
  std::vector<std::uintmax_t> ends;
  RecordingWriter w(file, p);
  for (int i = 0; i < frames; ++i) {
    w.write_frame(f, compute_metrics(f));
    ends.push_back(w.bytes());
    f.step();
  }
  w.close();
  return ends;
}

}  // namespace

// ---------------------------------------------------------------- replay
TEST(Replay, WritesMetricsRecomputedFromTheStatesAndTheStates) {
  const fs::path d = fresh_dir("replay_ok");
  record(d / "r.flkrec", 6);
  const Result r = run_cli("replay " + (d / "r.flkrec").string() + " --states --out " + (d / "out").string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto m = lines(d / "out" / "metrics.csv");
  ASSERT_EQ(m.size(), 1u + 6u);
  EXPECT_EQ(m[0],
            "step,time,diameter,centroid_x,centroid_y,polarisation,mean_speed,mean_nn_distance,clusters,share_right,share_left,"
            "perched,speed_down,speed_up,food_distance,predator_distance");
  // Each row is the metrics of the recorded (quantised) boids, predators and food sources, not
  // the stored ones.
  const Recording rec = Recording::load(d / "r.flkrec");
  for (std::size_t i = 0; i < 6; ++i) {
    const RecordedFrame fr = rec.frame(i);
    ASSERT_EQ(fr.food.size(), 2u);
    const PointsView v{fr.boids.x.data(), fr.boids.y.data(), fr.boids.vx.data(), fr.boids.vy.data(), fr.boids.size(),
                       fr.food, fr.predators};
    EXPECT_EQ(m[i + 1], metrics_row(fr.step, fr.time, compute_metrics(v, cluster_radius(rec.params_at(i)))));
  }
  const auto s = lines(d / "out" / "states.csv");
  ASSERT_EQ(s.size(), 1u + 6u * 40u);
  EXPECT_EQ(s[0], "frame,id,x,y,vx,vy,group");
  EXPECT_EQ(s[1].rfind("0,0,", 0), 0u);
  EXPECT_EQ(s[1].substr(s[1].rfind(',')), ",1");      // id 0 is a scout of group 1
  EXPECT_EQ(s[40].rfind("0,39,", 0), 0u);
  EXPECT_EQ(s[40].substr(s[40].rfind(',')), ",0");
  EXPECT_EQ(s[41].rfind("1,0,", 0), 0u);
}

TEST(Replay, ATruncatedRecordingNamesTheOffsetAndKeepsTheFramesBefore) {
  const fs::path d = fresh_dir("replay_cut");
  const auto ends = record(d / "r.flkrec", 5);
  fs::resize_file(d / "r.flkrec", ends[3] + 100);  // inside frame 4 (the fifth)
  const Result r = run_cli("replay " + (d / "r.flkrec").string() + " --states --out " + (d / "out").string());
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(count_lines(r.output), 1) << r.output;
  EXPECT_NE(r.output.find("byte " + std::to_string(ends[3]) + ": "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("cut short"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("4 frames before it"), std::string::npos) << r.output;
  EXPECT_EQ(lines(d / "out" / "metrics.csv").size(), 1u + 4u);
  EXPECT_EQ(lines(d / "out" / "states.csv").size(), 1u + 4u * 40u);
}

TEST(Replay, AFlippedBitFailsItsChecksumAndKeepsTheFramesBefore) {
  const fs::path d = fresh_dir("replay_flip");
  const auto ends = record(d / "r.flkrec", 5);
  std::string bytes = slurp(d / "r.flkrec");
  bytes[ends[1] + 200] ^= 0x10;  // a boid's coordinate in frame 2: still a well-formed frame
  std::ofstream(d / "r.flkrec", std::ios::binary | std::ios::trunc) << bytes;
  const Result r = run_cli("replay " + (d / "r.flkrec").string() + " --out " + (d / "out").string());
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(count_lines(r.output), 1) << r.output;
  EXPECT_NE(r.output.find("byte " + std::to_string(ends[1]) + ": "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fails its checksum"), std::string::npos) << r.output;
  EXPECT_EQ(lines(d / "out" / "metrics.csv").size(), 1u + 2u);
  // A damaged header is an error of its own, with nothing to write.
  bytes = slurp(d / "r.flkrec");
  bytes[30] ^= 0x01;
  std::ofstream(d / "h.flkrec", std::ios::binary | std::ios::trunc) << bytes;
  const Result h = run_cli("replay " + (d / "h.flkrec").string() + " --out " + (d / "out2").string());
  EXPECT_EQ(h.code, 2);
  EXPECT_NE(h.output.find("byte 16: the header fails its checksum"), std::string::npos) << h.output;
}

// Version 1 (no checksums) is still read: built here byte by byte from its documentation.
TEST(Replay, ReadsVersionOneRecordings) {
  const fs::path d = fresh_dir("replay_v1");
  record(d / "v2.flkrec", 3);
  const std::string v2 = slurp(d / "v2.flkrec");
  auto u32 = [&](std::size_t at) {
    return std::uint32_t(std::uint8_t(v2[at])) | std::uint32_t(std::uint8_t(v2[at + 1])) << 8 |
           std::uint32_t(std::uint8_t(v2[at + 2])) << 16 | std::uint32_t(std::uint8_t(v2[at + 3])) << 24;
  };
  ASSERT_EQ(u32(8), 2u);
  const std::uint32_t hlen = u32(12);
  std::string v1 = v2.substr(0, 16 + hlen);  // without the header's CRC
  v1[8] = 1;
  for (std::size_t at = 16 + hlen + 4; at < v2.size();) {  // each chunk without its CRC
    const std::uint32_t len = u32(at + 1);
    v1 += v2.substr(at, 5 + len);
    at += 5 + len + 4;
  }
  std::ofstream(d / "v1.flkrec", std::ios::binary) << v1;
  const Result a = run_cli("replay " + (d / "v1.flkrec").string() + " --out " + (d / "a").string());
  const Result b = run_cli("replay " + (d / "v2.flkrec").string() + " --out " + (d / "b").string());
  ASSERT_EQ(a.code, 0) << a.output;
  ASSERT_EQ(b.code, 0) << b.output;
  EXPECT_EQ(lines(d / "a" / "metrics.csv").size(), 4u);
  EXPECT_EQ(slurp(d / "a" / "metrics.csv"), slurp(d / "b" / "metrics.csv"));
}

// ---------------------------------------------------------------- inputs that never end
TEST(HostileInput, DevicesAndPipesAreRefusedNotRead) {
  const fs::path d = fresh_dir("devices");
  const std::string out = " --out " + (d / "o").string();
  mkfifo((d / "fifo.csv").c_str(), 0600);
  struct Case {
    std::string args, expect;
  } cases[] = {
      {"run --preset /dev/zero" + out, "/dev/zero: not a regular file (a character device)"},
      {"run --init /dev/zero" + out, "/dev/zero: not a regular file (a character device)"},
      {"plot /dev/zero --out " + (d / "p").string(), "/dev/zero: not a regular file (a character device)"},
      {"run --init " + (d / "fifo.csv").string() + out, "fifo.csv: not a regular file (a pipe)"},
      {"plot " + d.string() + " --out " + (d / "p").string(), "not a regular file (a folder)"},
      {"replay /dev/zero" + out, "/dev/zero: not a regular file (a character device)"},
  };
  for (const auto& c : cases) {
    const Result r = run_cli(c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.output;
    EXPECT_NE(r.output.find(c.expect), std::string::npos) << c.args << "\n" << r.output;
    EXPECT_EQ(count_lines(r.output), 1) << c.args << "\n" << r.output;
  }
}

TEST(HostileInput, FilesOverTheLimitAreRefusedBeforeReading) {
  const fs::path d = fresh_dir("big");
  // Sparse: the size is there, the disk space is not.
  std::ofstream(d / "big.json").close();
  fs::resize_file(d / "big.json", kMaxPresetBytes + 1);
  std::ofstream(d / "big.csv").close();
  fs::resize_file(d / "big.csv", kMaxTableBytes + 1);
  const Result p = run_cli("run --preset " + (d / "big.json").string() + " --out " + (d / "o").string());
  EXPECT_EQ(p.code, 2);
  EXPECT_NE(p.output.find("big.json: 16777217 bytes, over the limit of 16777216 bytes"), std::string::npos) << p.output;
  const Result c = run_cli("plot " + (d / "big.csv").string() + " --out " + (d / "p").string());
  EXPECT_EQ(c.code, 2);
  EXPECT_NE(c.output.find("big.csv: 1073741825 bytes, over the limit of 1073741824 bytes"), std::string::npos) << c.output;
}

// ---------------------------------------------------------------- smaller
TEST(HostileInput, PlotSkipsPointsNoAxisCanHoldAndSaysHowMany) {
  const fs::path d = fresh_dir("plot_big");
  std::ofstream(d / "m.csv") << "time,diameter\n0,1\n1,1e308\n2,-1e308\n3,2\n4,inf\n5,4\n";
  const Result r = run_cli("plot " + (d / "m.csv").string() + " --out " + (d / "p").string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("m.csv: 3 of 6 points skipped"), std::string::npos) << r.output;
  const std::string svg = slurp(d / "p.svg");
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf"), std::string::npos);
  EXPECT_NE(svg.find("<polyline"), std::string::npos);
}

TEST(HostileInput, OutputFailuresExitThreeWithTheOsReason) {
  const fs::path d = fresh_dir("full");
  // The temp file metrics.csv.tmp is /dev/full: every write fails with ENOSPC.
  fs::create_directories(d / "o");
  fs::create_symlink("/dev/full", d / "o" / "metrics.csv.tmp");
  const Result r = run_cli("run --steps 2 --set boids=10 --out " + (d / "o").string());
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("metrics.csv: write failed (No space left on device)"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(d / "o" / "metrics.csv"));
  std::ofstream(d / "blocker") << "a file, not a folder";
  const Result b = run_cli("run --steps 1 --set boids=10 --out " + (d / "blocker" / "sub").string());
  EXPECT_EQ(b.code, 3) << b.output;
  EXPECT_NE(b.output.find("cannot create output folder (Not a directory)"), std::string::npos) << b.output;
  // Bad arguments stay 2.
  EXPECT_EQ(run_cli("run --set boids=-1 --out " + (d / "x").string()).code, 2);
}

TEST(HostileInput, MessagesNameTheFileAndTheReason) {
  const fs::path d = fresh_dir("messages");
  std::ofstream(d / "p.json") << R"({"params": {"visualRange": 1e999}})";
  const Result r = run_cli("run --preset " + (d / "p.json").string() + " --out " + (d / "o").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("p.json: not valid JSON"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("1e999"), std::string::npos) << r.output;
}

TEST(HostileInput, MoreScoutsThanBoidsIsRefusedWithTheReason) {
  const fs::path d = fresh_dir("scouts");
  const Result r = run_cli("run --set boids=10 --set scouts1=100 --steps 1 --out " + (d / "o").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("scouts1 + scouts2 = 100 + 0 = 100 scouts, more than the 10 boids"), std::string::npos) << r.output;
  EXPECT_EQ(count_lines(r.output), 1) << r.output;
  // With --init the file's boid count is the one that counts.
  std::ofstream(d / "s.csv") << "x,y,vx,vy\n1,1,1,0\n2,2,1,0\n3,3,1,0\n";
  EXPECT_EQ(run_cli("run --set scouts1=3 --init " + (d / "s.csv").string() + " --steps 1 --out " + (d / "a").string()).code, 0);
  EXPECT_EQ(run_cli("run --set scouts1=4 --init " + (d / "s.csv").string() + " --steps 1 --out " + (d / "b").string()).code, 2);
}

// ---------------------------------------------------------------- crowded flocks
// 100,000 boids on one spot through --init (22 s of pair tests before, a fraction of a
// second now; not timed here, but the test's `timeout 60` ends a quadratic regression).
TEST(HostileInput, CoincidentInitRowsGiveExactMetrics) {
  const fs::path d = fresh_dir("coincident");
  {
    std::ofstream f(d / "s.csv");
    f << "x,y,vx,vy\n";
    for (int i = 0; i < 100000; ++i) f << "320,240,1,0\n";
  }
  const Result r = run_cli("run --init " + (d / "s.csv").string() + " --steps 0 --out " + (d / "o").string());
  ASSERT_EQ(r.code, 0) << r.output;
  const auto m = lines(d / "o" / "metrics.csv");
  ASSERT_EQ(m.size(), 2u);
  // mean_nn_distance 0 and one cluster (the diameter is the centroid's rounding, ~1e-14).
  std::vector<std::string> cells;
  std::stringstream row(m[1]);
  for (std::string c; std::getline(row, c, ',');) cells.push_back(c);
  ASSERT_EQ(cells.size(), 16u);
  EXPECT_EQ(cells[7], "0");
  EXPECT_EQ(cells[8], "1");
  EXPECT_EQ(cells[3], "320");
  // All moving right: none perched, none moving down or up; no food (an empty cell).
  EXPECT_EQ(cells[11], "0");
  EXPECT_EQ(cells[12], "0");
  EXPECT_EQ(cells[13], "0");
  EXPECT_EQ(cells[14], "");
}

// The progress line: on a terminal (a pseudo-terminal through script(1)) and never in a pipe.
TEST(HostileInput, LongRunsShowProgressOnATerminalOnly) {
  const fs::path d = fresh_dir("progress");
  const std::string args = "run --set boids=50 --steps 3 --out " + (d / "o").string();
  EXPECT_EQ(run_cli(args).output.find("step 3/3"), std::string::npos);
  const std::string cmd = "script -qec '" + std::string(FLOCKSCOPE_BIN) + " " + args + "' /dev/null";
  FILE* pipe = popen(cmd.c_str(), "r");
  std::string out;
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, pipe)) out.append(buf, n);
  ASSERT_EQ(pclose(pipe), 0) << out;
  EXPECT_NE(out.find("flockscope run: step 3/3 (100 %)"), std::string::npos) << out;
}
