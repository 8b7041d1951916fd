// flockscope_link (protocol/pico) in its host build: the lab example's flock behind the C
// library on a pseudo-terminal (tiny_board.c, compiled as C), mirrored and steered by the
// real `flockscope mirror`; and a hostile host writing garbage, half frames, out-of-range
// values and a flood straight into the board's port.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <pty.h>
#include <termios.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "flock.h"
#include "flockscope/protocol/protocol.hpp"
#include "tiny_board.h"
#include "../support/shell.hpp"
#include "../support/torn_frames.hpp"
#include "flockscope/core/recording.hpp"

namespace fs = std::filesystem;
namespace proto = flockscope::protocol;

namespace {

struct Pty {
  int board = -1, host = -1;
  std::string path;
  Pty() {
    char name[256];
    if (openpty(&board, &host, name, nullptr, nullptr) != 0) return;
    termios t{};
    tcgetattr(host, &t);
    cfmakeraw(&t);
    tcsetattr(host, TCSANOW, &t);
    path = name;
  }
  ~Pty() {
    if (board >= 0) close(board);
    if (host >= 0) close(host);
  }
};

// Runs flockscope with these arguments, returns its exit status; stdout+stderr in `output`.
int run(const std::string& args, std::string& output) {
  const testsupport::Result r = testsupport::sh(std::string(FLOCKSCOPE_BIN) + " " + args);
  output = r.output;
  return r.code;
}

std::size_t lines(const fs::path& f) { return testsupport::lines(f).size(); }

// The tiny board running in a thread on the pty: at 30 fps, or with a step of step_us
// (tiny_board_run_slow) over a link of bytes_per_s.
struct RunningBoard {
  Pty pty;
  volatile int stop = 0;
  std::thread t;
  explicit RunningBoard(int n, std::uint32_t step_us = 0, std::uint32_t bytes_per_s = 0) {
    if (!tiny_board_init(pty.board, n)) return;
    tiny_board_limit_link(bytes_per_s);
    if (step_us)
      t = std::thread([this, step_us] { tiny_board_run_slow(&stop, step_us); });
    else
      t = std::thread([this] { tiny_board_run(&stop); });
  }
  ~RunningBoard() {
    stop = 1;
    if (t.joinable()) t.join();
  }
};

// `flockscope mirror --port <the board> ARGS --out <a new folder>` against the running board,
// which is stopped afterwards (its C variables can then be read): the exit status, the
// output, the folder (removed with the result) and its link.json (null if none).
struct MirrorRun {
  int rc = -1;
  std::string output;
  fs::path out;
  nlohmann::json link;
  MirrorRun() = default;
  MirrorRun(const MirrorRun&) = delete;
  MirrorRun& operator=(const MirrorRun&) = delete;
  ~MirrorRun() { fs::remove_all(out); }
};

void mirror_then_stop(RunningBoard& b, const std::string& tag, const std::string& args, MirrorRun& r) {
  r.out = fs::temp_directory_path() / ("flockscope-pico-link-" + tag + "-" + std::to_string(getpid()));
  fs::remove_all(r.out);
  r.rc = run("mirror --port " + b.pty.path + " " + args + " --out " + r.out.string(), r.output);
  b.stop = 1;
  b.t.join();
  if (fs::exists(r.out / "link.json")) r.link = nlohmann::json::parse(std::ifstream(r.out / "link.json"));
}

}  // namespace

TEST(PicoLink, MirrorSetsVisualRangeOnTheCBoardAndRecordsEveryFrame) {
  RunningBoard b(150);
  ASSERT_TRUE(b.t.joinable()) << "tiny_board_init refused the configuration";
  MirrorRun r;
  mirror_then_stop(b, "set", "--seconds 3 --set visualRange=30 --set maxspeed=4", r);
  ASSERT_EQ(r.rc, 0) << r.output;
  const auto& j = r.link;
  const fs::path& out = r.out;
  EXPECT_EQ(j["board"]["name"], "tiny-c-board");
  EXPECT_EQ(j["board"]["max_boids"], MAX_BOIDS);
  EXPECT_EQ(j["on_board"], nlohmann::json({"visualRange", "protectedRange", "turnfactor", "maxspeed", "minspeed"}));
  // The board's parameters as it has them: none of the table's others at this app's defaults.
  EXPECT_EQ(j["params"].size(), 5u) << j["params"].dump();
  EXPECT_FALSE(j["params"].contains("centeringfactor"));
  EXPECT_EQ(j["params"]["visualRange"], 30);
  ASSERT_EQ(j["changes"].size(), 2u);
  EXPECT_EQ(j["changes"][0]["name"], "visualRange");
  EXPECT_EQ(j["changes"][0]["in_force"], "30");
  EXPECT_EQ(j["changes"][1]["in_force"], "4");
  EXPECT_EQ(visualRange, 30 << 15);  // the C variable itself
  EXPECT_EQ(maxspeed, 4 << 15);
  const auto& f = j["frames"];
  EXPECT_GE(f["received"].get<int>(), 30);
  EXPECT_EQ(f["boids"], 150);
  EXPECT_EQ(j["link"]["bad_crc"], 0);
  EXPECT_EQ(lines(out / "metrics.csv"), f["received"].get<std::size_t>() + 1);  // a row per board frame
}

TEST(PicoLink, ChangesTheBoardRefusesComeBackWithItsReason) {
  RunningBoard b(50);
  ASSERT_TRUE(b.t.joinable());
  const fs::path out = fs::temp_directory_path() / ("flockscope-pico-link-r-" + std::to_string(getpid()));
  std::string output;
  // The example's check callback: fix15 squares need visualRange below 181 px.
  EXPECT_EQ(run("mirror --port " + b.pty.path + " --seconds 1 --set visualRange=190 --out " + out.string(), output), 1);
  // With the reason the firmware's check gave (fsl_reason).
  EXPECT_NE(output.find("the board rejected visualRange=190: out of range (it keeps 40): at most 180 px on this "
                        "board (its squared distances are fix15)"),
            std::string::npos)
      << output;
  EXPECT_EQ(run("mirror --port " + b.pty.path + " --seconds 1 --set protectedRange=50 --out " + out.string(), output), 1);
  EXPECT_NE(output.find("the board rejected protectedRange=50: invalid (it keeps 8): at most visualRange (40.0 px)"),
            std::string::npos)
      << output;
  // Not on this board: refused by the app before anything is sent.
  EXPECT_EQ(run("mirror --port " + b.pty.path + " --seconds 1 --set centeringfactor=0.001 --out " + out.string(), output), 1);
  EXPECT_NE(output.find("--set centeringfactor=0.001: centeringfactor is not on this board (it has: visualRange, "
                        "protectedRange, turnfactor, maxspeed, minspeed)"),
            std::string::npos)
      << output;
  b.stop = 1;
  b.t.join();
  EXPECT_EQ(fsl_get_counters().requests, 2u);  // the two rejected above; nothing for centeringfactor
  fs::remove_all(out);
}

namespace {
std::vector<std::uint8_t> wire(proto::Message m, std::uint16_t seq) {
  m.seq = seq;
  std::vector<std::uint8_t> out(proto::kMaxWireSize);
  out.resize(proto::encode(m, out));
  return out;
}
void put(int fd, const std::vector<std::uint8_t>& bytes) {
  for (std::size_t off = 0; off < bytes.size();) {
    const ssize_t w = write(fd, bytes.data() + off, bytes.size() - off);
    if (w <= 0) break;
    off += std::size_t(w);
  }
}
}  // namespace

TEST(PicoLink, HostileHostNeverStopsTheFrameAndGetsReasons) {
  Pty pty;
  ASSERT_TRUE(tiny_board_init(pty.board, 100));
  fcntl(pty.host, F_SETFL, fcntl(pty.host, F_GETFL) | O_NONBLOCK);
  std::vector<std::uint8_t> garbage(3000);
  for (std::size_t i = 0; i < garbage.size(); ++i) garbage[i] = std::uint8_t(i * 37 + 11);
  put(pty.host, garbage);
  auto hello = wire(proto::make_hello(proto::Role::kApp, 0, 1, 0, 100000, 0x1FF, "hostile"), 0);
  put(pty.host, {hello.begin(), hello.begin() + 9});  // half a frame, then a real one
  put(pty.host, hello);
  put(pty.host, wire(proto::make_param_change(7, proto::ParamValue::of_real(5000.0)), 1));  // table ok, check no
  put(pty.host, wire(proto::make_param_change(7, proto::ParamValue::of_int(30)), 2));       // wrong type
  put(pty.host, wire(proto::make_param_change(9, proto::ParamValue::of_real(0.001)), 3));   // not on this board
  put(pty.host, wire(proto::make_param_change(7, proto::ParamValue::of_real(
                         std::numeric_limits<double>::quiet_NaN())), 4));
  put(pty.host, wire(proto::make_command(proto::CommandId::kSetBoidCount, 5000), 5));
  put(pty.host, wire(proto::make_param_change(7, proto::ParamValue::of_real(25.0)), 6));
  // A preset: all or nothing (maxspeed 2000 is outside the table), then one that fits.
  proto::Message preset{};
  preset.type = proto::MsgType::kParamSet;
  preset.version = proto::kProtocolVersion;
  preset.param_set.total = preset.param_set.count = 2;
  preset.param_set.params[0] = {8, proto::ParamValue::of_real(5.0)};
  preset.param_set.params[1] = {17, proto::ParamValue::of_real(2000.0)};
  put(pty.host, wire(preset, 7));
  preset.param_set.params[1] = {17, proto::ParamValue::of_real(5.5)};
  put(pty.host, wire(preset, 8));
  for (int i = 0; i < 40; ++i) tiny_board_frame();
  EXPECT_EQ(visualRange, 25 << 15);
  EXPECT_EQ(protectedRange, 5 << 15);
  EXPECT_EQ(maxspeed, 11 << 14);
  // The board's answers, in order.
  proto::StaticDecoder<> dec;
  proto::Message m{};
  std::vector<proto::Ack> acks;
  int hellos = 0, states = 0, params = 0;
  std::uint8_t buf[4096];
  for (ssize_t n; (n = read(pty.host, buf, sizeof buf)) > 0;) {
    std::span<const std::uint8_t> in(buf, std::size_t(n));
    while (dec.next(in, m)) {
      if (m.type == proto::MsgType::kAck) acks.push_back(m.ack);
      hellos += m.type == proto::MsgType::kHello;
      states += m.type == proto::MsgType::kFlockState;
      if (m.type == proto::MsgType::kParamSet) {
        ++params;
        EXPECT_EQ(m.param_set.total, 5);  // exactly the exposed ones, ascending id
        EXPECT_EQ(m.param_set.params[0].id, 7);
        EXPECT_EQ(m.param_set.params[4].id, 18);
      }
    }
  }
  EXPECT_EQ(dec.stats().bad_crc, 0u);
  EXPECT_EQ(hellos, 2);  // on connect, and the answer to the app's hello
  EXPECT_EQ(params, 1);
  EXPECT_GT(states, 0);
  ASSERT_EQ(acks.size(), 8u);
  EXPECT_EQ(acks[0].status, proto::Status::kOutOfRange);
  EXPECT_EQ(acks[0].value.as_real(), 40.0);  // the unchanged value
  EXPECT_EQ(acks[1].status, proto::Status::kWrongType);
  EXPECT_EQ(acks[2].status, proto::Status::kUnknownId);
  EXPECT_EQ(acks[3].status, proto::Status::kOutOfRange);  // NaN
  EXPECT_EQ(acks[4].status, proto::Status::kOutOfRange);  // above capacity
  EXPECT_EQ(acks[5].status, proto::Status::kOk);
  EXPECT_EQ(acks[5].value.as_real(), 25.0);
  EXPECT_EQ(acks[6].status, proto::Status::kOutOfRange);
  EXPECT_EQ(acks[6].subject, 17);
  EXPECT_EQ(acks[7].status, proto::Status::kOk);
  EXPECT_EQ(acks[7].value.as_int(), 2);
  const fsl_counters c = fsl_get_counters();
  EXPECT_GT(c.rx_errors, 0u);  // the garbage and the half frame
  EXPECT_EQ(c.rejected, 6u);
  EXPECT_EQ(c.accepted, 2u);

  // A flood with a request at its end: every poll takes a bounded share, frames go on, and
  // the request is answered once the board has worked through the flood.
  std::vector<std::uint8_t> flood(64 * 1024, 0x55);
  const auto request = wire(proto::make_param_change(7, proto::ParamValue::of_real(33.0)), 9);
  flood.insert(flood.end(), request.begin(), request.end());
  std::size_t sent = 0;
  int frames = 0;
  for (; frames < 400 && visualRange != (33 << 15); ++frames) {
    const ssize_t w = sent < flood.size() ? write(pty.host, flood.data() + sent, flood.size() - sent) : 0;
    if (w > 0) sent += std::size_t(w);
    tiny_board_frame();
    while (read(pty.host, buf, sizeof buf) > 0) {
    }
  }
  EXPECT_EQ(sent, flood.size());
  // fsl_poll reads at most 1 KiB a call: the flood takes about 64 frames, not one long stall.
  EXPECT_GE(frames, 60);
  EXPECT_EQ(visualRange, 33 << 15);
}

// A step three frame times long (100 ms) with the header's loop unchanged, over a link of
// 1 MB/s that cannot take a 1,000-boid frame (8 KB) at once: the background service sends
// the frame's copy while the next step runs, so the frames arrive whole and none mixes two
// steps (tiny_board_run_slow updates the flock at the start of each step, while the
// previous frame's chunks are still going out). On a loaded machine the mirror itself may
// not read for a whole step, cutting a frame: the emulator's test holds the 95 % on the
// board's own clock; here most frames must be whole, and none torn.
TEST(PicoLink, AStepLongerThanTheFrameStreamsWholeUntornFrames) {
  RunningBoard b(1000, 100000, 1000000);
  ASSERT_TRUE(b.t.joinable());
  MirrorRun r;
  const fs::path rec = fs::temp_directory_path() / ("flockscope-pico-link-slow-" + std::to_string(getpid()) + ".flkrec");
  mirror_then_stop(b, "slow", "--seconds 4 --set visualRange=30 --record " + rec.string(), r);
  ASSERT_EQ(r.rc, 0) << r.output;
  const auto& j = r.link;
  EXPECT_EQ(j["changes"][0]["in_force"], "30");
  const auto& f = j["frames"];
  ASSERT_GE(f["received"].get<int>(), 20);
  EXPECT_GE(f["complete"].get<double>(), 0.6 * f["received"].get<double>()) << f.dump();
  EXPECT_EQ(f["boids"], 1000);
  const auto torn =
      testsupport::count_torn_boids(flockscope::Recording::load(rec), testsupport::whole_steps(r.out / "metrics.csv"));
  fs::remove(rec);
  EXPECT_GE(torn.pairs, 8u);
  EXPECT_EQ(torn.torn, 0u) << torn.torn << " of " << torn.boids << " boid steps; worst " << torn.worst << " px";
}

// A step of 1.2 s: the board answers only between steps, so an ack can take that long. The
// app reads the board's frame time from its stats and waits for it: the change is reported
// acknowledged, not "did not acknowledge" while the board applied it.
TEST(PicoLink, ASlowBoardsAcknowledgementIsWaitedFor) {
  RunningBoard b(100, 1200000);
  ASSERT_TRUE(b.t.joinable());
  MirrorRun r;
  mirror_then_stop(b, "ack", "--seconds 3 --set visualRange=30 --set maxspeed=5", r);
  ASSERT_EQ(r.rc, 0) << r.output;
  const auto& j = r.link;
  ASSERT_EQ(j["changes"].size(), 2u);
  EXPECT_EQ(j["changes"][0]["in_force"], "30");
  EXPECT_EQ(j["changes"][1]["in_force"], "5");
  EXPECT_EQ(visualRange, 30 << 15);
  EXPECT_EQ(j["link"]["unanswered"], 0);
  EXPECT_GE(j["link"]["board_frame_ms"].get<double>(), 1000.0);
}

namespace {
// Writes one request into the board's port beside the mirror (which holds the same port).
void inject(const Pty& pty, const proto::Message& m, std::uint16_t seq) { put(pty.host, wire(m, seq)); }
}  // namespace

// While the board is paused it sends the same frame again and again: one row per step in
// metrics.csv, the repeats counted in link.json.
TEST(PicoLink, APausedBoardGivesOneRowPerStep) {
  RunningBoard b(50);
  ASSERT_TRUE(b.t.joinable());
  std::thread pauser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    inject(b.pty, proto::make_command(proto::CommandId::kPause), 40000);
  });
  MirrorRun r;
  mirror_then_stop(b, "pause", "--seconds 4", r);
  pauser.join();
  ASSERT_EQ(r.rc, 0) << r.output;
  const auto& j = r.link;
  const fs::path& out = r.out;
  const auto& f = j["frames"];
  EXPECT_GE(f["repeated"].get<int>(), 30) << f.dump();  // 2.5 s paused at 30 fps
  EXPECT_EQ(lines(out / "metrics.csv"), f["received"].get<std::size_t>() + 1);
  EXPECT_EQ(f["last"].get<std::size_t>() - f["first"].get<std::size_t>() + 1, f["received"].get<std::size_t>());
  // Each step once: the steps in the file are all different.
  const auto rows = testsupport::lines(out / "metrics.csv");
  std::set<std::string> steps;
  for (std::size_t i = 1; i < rows.size(); ++i) steps.insert(rows[i].substr(0, rows[i].find(',')));
  EXPECT_EQ(steps.size(), rows.size() - 1);
}

// A reset in the middle of a mirror starts the board's frame numbers again: counted as a
// restart, not as four billion missed frames.
TEST(PicoLink, AResetMidMirrorIsARestartNotMissedFrames) {
  RunningBoard b(50);
  ASSERT_TRUE(b.t.joinable());
  std::thread resetter([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2500));
    inject(b.pty, proto::make_command(proto::CommandId::kReset, 7), 40001);
  });
  MirrorRun r;
  mirror_then_stop(b, "reset", "--seconds 4", r);
  resetter.join();
  ASSERT_EQ(r.rc, 0) << r.output;
  const auto& j = r.link;
  const auto& f = j["frames"];
  EXPECT_EQ(f["restarts"], 1) << f.dump();
  EXPECT_LE(f["missed"].get<int>(), 3) << f.dump();
}
