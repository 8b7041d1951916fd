// The lab example (firmware_pico/examples/lab_minimal: the lab's own flock with only
// flockscope_link) in the rp2040js emulator: mirrored and steered by `flockscope mirror`, and
// fed by a hostile host while its frame time is watched. Times here are the emulated board's
// own clock (its stats), which the host machine's load does not change.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <termios.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "../board/emulator_process.hpp"
#include "flockscope/core/recording.hpp"
#include "flockscope/protocol/protocol.hpp"
#include "../support/shell.hpp"
#include "../support/torn_frames.hpp"

namespace fs = std::filesystem;
namespace proto = flockscope::protocol;

namespace {

std::string lab_elf() { return std::string(FLOCKSCOPE_SOURCE_DIR) + "/build-pico/lab_minimal_emu.elf"; }

// Runs flockscope with these arguments, returns its exit status; stdout+stderr in `output`.
int run(const std::string& args, std::string& output) {
  const testsupport::Result r = testsupport::sh(std::string(FLOCKSCOPE_BIN) + " " + args);
  output = r.output;
  return r.code;
}

std::size_t lines(const fs::path& f) { return testsupport::lines(f).size(); }

}  // namespace

TEST(LabMinimalEmulator, MirrorSteersItAndEveryBoidObeys) {
  REQUIRE_OR_SKIP(fs::exists(lab_elf()), "no " + lab_elf() + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(emutest::have_node(), "node/npm missing");
  emutest::Emulator emu(lab_elf());
  ASSERT_TRUE(fs::exists(emu.link)) << "the emulator made no pty link";
  const fs::path out = fs::temp_directory_path() / ("flockscope-lab-emu-" + std::to_string(getpid()));
  fs::remove_all(out);
  std::string output;
  const int rc = run("mirror --port " + emu.link + " --connect-timeout 120 --seconds 10 --set visualRange=30" +
                         " --set maxspeed=4 --out " + out.string() + " --record " + (out / "lab.flkrec").string(),
                     output);
  ASSERT_EQ(rc, 0) << output;
  std::printf("%s", output.c_str());
  const auto j = nlohmann::json::parse(std::ifstream(out / "link.json"));
  EXPECT_EQ(j["board"]["name"], "lab-minimal");
  ASSERT_EQ(j["changes"].size(), 2u);
  EXPECT_EQ(j["changes"][0]["name"], "visualRange");
  EXPECT_EQ(j["changes"][0]["in_force"], "30");
  EXPECT_EQ(j["changes"][1]["in_force"], "4");
  const auto& f = j["frames"];
  ASSERT_GE(f["received"].get<int>(), 10);
  EXPECT_EQ(f["missed"], 0);
  EXPECT_EQ(f["partial"], 0);
  EXPECT_EQ(f["boids"], 200);
  // A row per board frame: every frame number from the first to the last, once.
  EXPECT_EQ(f["last"].get<std::size_t>() - f["first"].get<std::size_t>() + 1, f["received"].get<std::size_t>());
  EXPECT_EQ(lines(out / "metrics.csv"), f["received"].get<std::size_t>() + 1);
  // Every boid of the frames after the acknowledgement flies at most the new maxspeed (the
  // first recorded frame may have been stepped before the change and still be on its way).
  const auto rec = flockscope::Recording::load(out / "lab.flkrec");
  ASSERT_GE(rec.frames(), 10u);
  std::size_t checked = 0;
  // Velocities travel in 1/256 px/frame (rounded), and the board's speed limit stores its
  // scaled components as fix15, truncated toward zero: up to 1/32768 each below the limit.
  const double tolerance = std::sqrt(2.0) / 512 + std::sqrt(2.0) / 32768;
  for (std::size_t i = 1; i < rec.frames(); ++i) {
    const auto fr = rec.frame(i);
    ASSERT_EQ(fr.boids.size(), 200u);
    for (std::size_t k = 0; k < fr.boids.size(); ++k, ++checked) {
      const double s = std::hypot(double(fr.boids.vx[k]), double(fr.boids.vy[k]));
      ASSERT_LE(s, 4.0 + tolerance) << "frame " << fr.step << " boid " << k;
      ASSERT_GE(s, 3.0 - tolerance) << "frame " << fr.step << " boid " << k;  // minspeed
    }
  }
  std::printf("%zu boid-frames checked against maxspeed 4\n", checked);
  fs::remove_all(out);
}

namespace {

struct Port {
  int fd = -1;
  proto::StaticDecoder<> dec;
  proto::Message m{};
  std::uint16_t seq = 0;
  explicit Port(const std::string& path) {
    fd = open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (fd < 0) return;
    termios t{};
    tcgetattr(fd, &t);
    cfmakeraw(&t);
    tcsetattr(fd, TCSANOW, &t);
  }
  ~Port() {
    if (fd >= 0) close(fd);
  }
  void put(const std::vector<std::uint8_t>& b) {
    for (std::size_t off = 0; off < b.size();) {
      const ssize_t w = write(fd, b.data() + off, b.size() - off);
      if (w > 0) off += std::size_t(w);
      else std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  std::vector<std::uint8_t> frame(proto::Message msg) {
    msg.seq = seq++;
    std::vector<std::uint8_t> out(proto::kMaxWireSize);
    out.resize(proto::encode(msg, out));
    return out;
  }
  template <class F>
  void drain(F&& on) {
    std::uint8_t buf[4096];
    for (ssize_t n; (n = read(fd, buf, sizeof buf)) > 0;) {
      std::span<const std::uint8_t> in(buf, std::size_t(n));
      while (dec.next(in, m)) on(static_cast<const proto::Message&>(m));
    }
  }
};

}  // namespace

TEST(LabMinimalEmulator, HostileHostNeverStallsTheFrameLoop) {
  REQUIRE_OR_SKIP(fs::exists(lab_elf()), "no " + lab_elf() + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(emutest::have_node(), "node/npm missing");
  emutest::Emulator emu(lab_elf());
  ASSERT_TRUE(fs::exists(emu.link));
  Port port(emu.link);
  ASSERT_GE(port.fd, 0);
  std::vector<proto::Stats> calm, hostile;
  std::vector<proto::Ack> acks;
  std::vector<std::string> logs;
  bool flooding = false;
  auto on = [&](const proto::Message& m) {
    if (m.type == proto::MsgType::kStats) (flooding ? hostile : calm).push_back(m.stats);
    if (m.type == proto::MsgType::kAck) acks.push_back(m.ack);
    if (m.type == proto::MsgType::kLog) logs.emplace_back(m.log.text, m.log.length);
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(200);
  auto hello = port.frame(proto::make_hello(proto::Role::kApp, 0, 1, 0, 100000, 0x1FF, "hostile"));
  hello.insert(hello.begin(), 0);
  while (calm.size() < 20 && std::chrono::steady_clock::now() < deadline) {
    if (calm.empty()) port.put(hello);
    for (int i = 0; i < 20; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      port.drain(on);
    }
  }
  ASSERT_GE(calm.size(), 20u) << "no stats from the board";
  // Hostile: garbage, half frames, out-of-range, NaN and wrong-type changes, unknown
  // commands, and a flood of them, for 60 board frames.
  flooding = true;
  std::vector<std::uint8_t> garbage(700);
  for (std::size_t i = 0; i < garbage.size(); ++i) garbage[i] = std::uint8_t(i * 131 + 7);
  std::size_t rounds = 0;
  while (hostile.size() < 60 && std::chrono::steady_clock::now() < deadline) {
    std::vector<std::uint8_t> b = garbage;
    const auto half = port.frame(proto::make_param_change(7, proto::ParamValue::of_real(20.0)));
    b.insert(b.end(), half.begin(), half.begin() + long(half.size() / 2));
    for (const auto& v : {proto::ParamValue::of_real(1e9), proto::ParamValue::of_real(std::nan("")),
                          proto::ParamValue::of_int(30), proto::ParamValue::of_real(-5)}) {
      const auto w = port.frame(proto::make_param_change(7, v));
      b.insert(b.end(), w.begin(), w.end());
    }
    const auto cmd = port.frame(proto::make_command(proto::CommandId::kSetBoidCount, 1000000));
    b.insert(b.end(), cmd.begin(), cmd.end());
    port.put(b);
    ++rounds;
    for (int i = 0; i < 4; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
      port.drain(on);
    }
  }
  ASSERT_GE(hostile.size(), 60u) << rounds << " rounds, " << acks.size() << " acks, last frame "
                                 << (hostile.empty() ? 0 : hostile.back().frame) << ", tx_dropped "
                                 << (hostile.empty() ? 0 : hostile.back().tx_dropped);
  // Still steerable afterwards.
  flooding = false;
  const std::size_t acks_before = acks.size();
  port.put(port.frame(proto::make_param_change(7, proto::ParamValue::of_real(30.0))));
  bool ok = false;
  while (!ok && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    port.drain(on);
    for (std::size_t i = acks_before; i < acks.size(); ++i)
      ok = ok || (acks[i].status == proto::Status::kOk && acks[i].value.as_real() == 30.0);
  }
  EXPECT_TRUE(ok) << "the change after the flood was not acknowledged";

  // Frame time: the board's measured frame rate (from its own frame starts) stays at 30 fps,
  // so no frame was late; and the damage was refused with reasons, none applied.
  auto min_fps = [](const std::vector<proto::Stats>& s) {
    float m = 1e9f;
    for (std::size_t i = 1; i < s.size(); ++i) m = std::min(m, s[i].fps);
    return m;
  };
  std::printf("calm: %zu frames, min fps %.2f; hostile: %zu frames, %zu rounds of bad input (%zu bytes each), min fps %.2f, %zu acks\n",
              calm.size(), min_fps(calm), hostile.size(), rounds, garbage.size() + 300, min_fps(hostile), acks.size());
  for (const auto& l : logs) std::printf("board: %s\n", l.c_str());
  EXPECT_GT(min_fps(calm), 29.5f);
  EXPECT_GT(min_fps(hostile), 29.5f);
  std::size_t rejected = 0;
  for (const auto& a : acks) {
    if (a.status != proto::Status::kOk) {
      ++rejected;
      if (a.subject == 7) {
        EXPECT_EQ(a.value.as_real(), 40.0);  // unchanged
      }
    }
  }
  EXPECT_GT(rejected, 10u);
}

// The lab example with a step of 3 and 7 frame times (lab_minimal_step3_emu, _step7_emu: 400
// boids, the update then a busy wait to 100 and 233 ms, the header's loop unchanged): the
// library's timer interrupt sends each frame's copy while the next step runs, so the
// frames arrive whole and none mixes two steps, and the app waits for the answers that come
// only between steps, so each change is reported acknowledged, as the board applied it.
TEST(LabMinimalEmulator, StepsOf3And7FrameTimesStreamWholeFramesAndAcknowledgeTruthfully) {
  for (const auto& [image, seconds] : {std::pair{"lab_minimal_step3_emu", 15}, std::pair{"lab_minimal_step7_emu", 20}}) {
    SCOPED_TRACE(image);
    const std::string elf = std::string(FLOCKSCOPE_SOURCE_DIR) + "/build-pico/" + image + ".elf";
    REQUIRE_OR_SKIP(fs::exists(elf), "no " + elf + ": run firmware_pico/build.sh");
    REQUIRE_OR_SKIP(emutest::have_node(), "node/npm missing");
    emutest::Emulator emu(elf);
    ASSERT_TRUE(fs::exists(emu.link));
    const fs::path out = fs::temp_directory_path() / ("flockscope-lab-slow-" + std::to_string(getpid()));
    fs::remove_all(out);
    std::string output;
    const int rc = run("mirror --port " + emu.link + " --connect-timeout 120 --seconds " + std::to_string(seconds) +
                           " --set visualRange=30 --set maxspeed=4 --out " + out.string() + " --record " +
                           (out / "slow.flkrec").string(),
                       output);
    ASSERT_EQ(rc, 0) << output;
    const auto j = nlohmann::json::parse(std::ifstream(out / "link.json"));
    ASSERT_EQ(j["changes"].size(), 2u);
    EXPECT_EQ(j["changes"][0]["in_force"], "30");
    EXPECT_EQ(j["changes"][1]["in_force"], "4");
    EXPECT_EQ(j["link"]["unanswered"], 0);
    const auto& f = j["frames"];
    std::printf("%s: %s, changes acknowledged in %.0f and %.0f ms\n", image, f.dump().c_str(),
                j["changes"][0]["rtt_ms"].get<double>(), j["changes"][1]["rtt_ms"].get<double>());
    ASSERT_GE(f["received"].get<int>(), 15);
    EXPECT_GE(f["complete"].get<double>(), 0.95 * f["received"].get<double>()) << f.dump();
    EXPECT_EQ(f["boids"], 400);
    const auto torn = testsupport::count_torn_boids(flockscope::Recording::load(out / "slow.flkrec"),
                                                    testsupport::whole_steps(out / "metrics.csv"));
    std::printf("%s: %zu consecutive frame pairs, %zu boid steps, worst %.4f px\n", image, torn.pairs, torn.boids,
                torn.worst);
    EXPECT_GE(torn.pairs, 10u);
    EXPECT_EQ(torn.torn, 0u) << torn.torn << " of " << torn.boids << " boid steps; worst " << torn.worst << " px";
    fs::remove_all(out);
  }
}
