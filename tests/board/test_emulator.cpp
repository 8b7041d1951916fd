// The real firmware in the emulator: build-pico/flockscope_pico_emu.elf (one core, no VGA)
// run by firmware_pico/emulate.sh in rp2040js, its USB CDC bridged to a pseudo-terminal.
// It boots, says hello, streams state, acknowledges a parameter change; so does the
// two-core image (flockscope_pico_emu2.elf) on two emulated cores, which also makes the
// one-core image's flock bit for bit. The board's own image with the emulator's switches
// (flockscope_pico_emu_vga.elf: two cores, VGA) puts a VGA signal on its pins that a
// monitor would take: 640x480 timing to the cycle and the framebuffer's picture. A test run
// by hand measures the cycles per frame at 2,000 boids (the board logs them once a second).
//
// Without the ELF (firmware_pico/build.sh not run) or node, the tests skip, except under
// CI=true, where they fail: CI builds the firmware first.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include <stb/stb_image.h>

#include "emulator_process.hpp"
#include "flockscope/board/board_flock.hpp"
#include "flockscope/board/draw.hpp"
#include "flockscope/board/host_storage.hpp"
#include "vb_client.hpp"

namespace proto = flockscope::protocol;
using proto::Message;
using proto::MsgType;

using emutest::Emulator;
using emutest::elf_path;
using emutest::two_core_elf_path;
using emutest::vga_elf_path;
using emutest::have_node;

namespace {
void boots_says_hello_streams_and_acknowledges(const std::string& elf, const std::string& name = "pico-emu") {
  REQUIRE_OR_SKIP(std::filesystem::exists(elf), "no " + elf + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(have_node(), "node/npm missing");
  Emulator emu(elf);
  ASSERT_TRUE(std::filesystem::exists(emu.link)) << "the emulator made no pty link";
  vbtest::Client c(emu.link);
  ASSERT_TRUE(c.ok());
  // The firmware says hello when the (emulated) host configures the port.
  c.send(proto::make_hello(proto::Role::kApp, 0, 1, 0, 100000, 0x1FF, "emu-test"));
  ASSERT_TRUE(c.wait_for(MsgType::kParamSet, 60000)) << "no hello/param_set from the firmware";
  const Message& hello = c.last(MsgType::kHello);
  EXPECT_EQ(hello.hello.role, proto::Role::kBoard);
  EXPECT_EQ(std::string(hello.hello.name, hello.hello.name_len), name);
  ASSERT_TRUE(c.wait_complete_frames(2, 60000)) << "no complete flock_state frames";
  ASSERT_TRUE(c.wait_for(MsgType::kStats, 20000));
  EXPECT_GT(c.last(MsgType::kStats).stats.boid_count, 0u);

  const auto seq = c.send(proto::make_param_change(7, proto::ParamValue::of_real(30.0)));
  const Message* ack = c.wait_ack(seq, 30000);
  ASSERT_NE(ack, nullptr) << "no ack for the parameter change";
  EXPECT_EQ(ack->ack.status, proto::Status::kOk);
  EXPECT_EQ(ack->ack.value.as_real(), 30.0);
  const auto bad = c.send(proto::make_param_change(7, proto::ParamValue::of_real(1000.0)));
  ack = c.wait_ack(bad, 30000);
  ASSERT_NE(ack, nullptr);
  EXPECT_EQ(ack->ack.status, proto::Status::kOutOfRange);
  EXPECT_EQ(ack->ack.value.as_real(), 30.0);
}
}  // namespace

TEST(Emulator, FirmwareBootsSaysHelloStreamsAndAcknowledges) { boots_says_hello_streams_and_acknowledges(elf_path()); }

// The same with the two-core image on two emulated cores (firmware_pico/emulator/dual_core.mjs):
// core 1 launches, and the cores share each frame's update while the link runs.
TEST(Emulator, TwoCoreFirmwareBootsSaysHelloStreamsAndAcknowledges) {
  boots_says_hello_streams_and_acknowledges(two_core_elf_path());
}

// The 200 MHz board (two cores, VGA, FLOCKSCOPE_SYS_CLOCK_KHZ=200000): the clock change
// leaves USB (its own 48 MHz PLL) and the link as they were.
TEST(Emulator, FirmwareBootsAt200MHzSaysHelloStreamsAndAcknowledges) {
  boots_says_hello_streams_and_acknowledges(
      std::string(FLOCKSCOPE_SOURCE_DIR) + "/build-pico/flockscope_pico_emu_vga_200.elf", "pico-vga");
}

// Cycles per frame (compute + drawing, one core, 125 MHz) at a fixed boid count
// (FLOCKSCOPE_MEASURE_BOIDS, default 2000), from the board's per-frame stats. Prints it;
// the bound (4.17 million cycles = one 30 fps frame) is checked by FLOCKSCOPE_CHECK_CYCLES=1.
TEST(Emulator, CyclesPerFrameAt2000Boids) {
  REQUIRE_OR_SKIP(std::filesystem::exists(elf_path()), "no " + elf_path() + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(have_node(), "node/npm missing");
  const char* nenv = std::getenv("FLOCKSCOPE_MEASURE_BOIDS");
  const std::uint32_t boids = nenv ? std::uint32_t(std::atoi(nenv)) : 2000;
  Emulator emu(elf_path());
  vbtest::Client c(emu.link);
  c.send(proto::make_hello(proto::Role::kApp, 0, 1, 0, 100000, 0x1FF, "emu-measure"));
  ASSERT_TRUE(c.wait_for(MsgType::kParamSet, 60000));
  // The state stream would only slow the emulation down: stats and log only.
  auto seq = c.send(proto::make_command(proto::CommandId::kStreams, proto::stream::kStats | proto::stream::kLog));
  ASSERT_NE(c.wait_ack(seq, 30000), nullptr);
  seq = c.send(proto::make_command(proto::CommandId::kSetBoidCount, boids));
  const Message* ack = c.wait_ack(seq, 30000);
  ASSERT_NE(ack, nullptr);
  ASSERT_EQ(ack->ack.value.as_int(), boids);
  // The board's stats carry each frame's work time (compute + drawing, measured with the
  // 1 MHz timer, which the emulator drives from its 125 MHz cycle clock): skip the first
  // frames at the new count, then average ten.
  std::vector<std::uint32_t> us;
  std::uint32_t last_frame = 0;
  c.pump_until(240000, [&] {
    const Message& m = c.last(MsgType::kStats);
    if (m.type != MsgType::kStats || m.stats.boid_count != boids || m.stats.frame == last_frame) return false;
    last_frame = m.stats.frame;
    us.push_back(m.stats.compute_us);
    return us.size() >= 14;
  });
  ASSERT_GE(us.size(), 14u) << "no stats at " << boids << " boids";
  std::uint64_t sum = 0;
  for (std::size_t i = 4; i < us.size(); ++i) sum += us[i];
  const auto cycles = std::uint32_t(sum * 125 / (us.size() - 4));
  std::printf("emulator, one core at 125 MHz: %u boids, %u cycles per frame (compute + drawing; %.2f ms), budget 4166666\n",
              boids, cycles, double(cycles) / 125000.0);
  RecordProperty("cycles_per_frame", std::to_string(cycles));
  if (std::getenv("FLOCKSCOPE_CHECK_CYCLES")) {
    EXPECT_LE(cycles, 4166666u);
  }
}

// How many boids the lab's rule ("spawn until the frame budget is used") reaches on one
// core: the board adds 50 boids a frame while a frame's work stays under 80 % of 33.3 ms.
// Prints the count once it has been stable for a simulated second. Run by hand.
TEST(Emulator, AutoSpawnOnOneCore) {
  REQUIRE_OR_SKIP(std::filesystem::exists(elf_path()), "no " + elf_path() + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(have_node(), "node/npm missing");
  Emulator emu(elf_path());
  vbtest::Client c(emu.link);
  c.send(proto::make_hello(proto::Role::kApp, 0, 1, 0, 100000, 0x1FF, "emu-spawn"));
  ASSERT_TRUE(c.wait_for(MsgType::kParamSet, 60000));
  auto seq = c.send(proto::make_command(proto::CommandId::kStreams, proto::stream::kStats));
  ASSERT_NE(c.wait_ack(seq, 30000), nullptr);
  std::uint32_t last_count = 0, same = 0, last_frame = 0, work_us = 0;
  c.pump_until(300000, [&] {
    const Message& m = c.last(MsgType::kStats);
    if (m.type != MsgType::kStats || m.stats.frame == last_frame) return false;
    last_frame = m.stats.frame;
    same = m.stats.boid_count == last_count ? same + 1 : 0;
    last_count = m.stats.boid_count;
    work_us = m.stats.compute_us;
    return same >= 30;
  });
  ASSERT_GE(same, 30u) << "the count did not settle";
  std::printf("emulator, one core: spawning settled at %u boids, %u us of work per frame (%u cycles)\n", last_count,
              work_us, work_us * 125);
  RecordProperty("auto_spawn_boids", std::to_string(last_count));
}

namespace {
// One run of a script of firmware_pico/ (the emulator runners in the firmware's
// measurement mode, no USB host): its output and exit status.
struct Measurement {
  std::string out;
  int status = -1;
  std::string field(const std::string& key) const {  // the word after `key`
    const auto at = out.find(key);
    if (at == std::string::npos) return "";
    std::size_t b = at + key.size();
    while (b < out.size() && out[b] == ' ') ++b;
    std::size_t e = b;
    while (e < out.size() && out[e] != ' ' && out[e] != '\n') ++e;
    return out.substr(b, e - b);
  }
};

Measurement run_script(const std::string& script_and_args) {
  const std::string cmd = "bash " + std::string(FLOCKSCOPE_SOURCE_DIR) + "/firmware_pico/" + script_and_args + " 2>&1";
  Measurement m;
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return m;
  char buf[512];
  while (std::fgets(buf, sizeof buf, p)) m.out += buf;
  m.status = pclose(p);
  return m;
}

Measurement measure(int cores, const std::string& args) {
  return run_script("measure_cycles.sh --cores " + std::to_string(cores) + " " + args);
}
}  // namespace

// The two-core firmware (build-pico/flockscope_pico_emu2.elf: both cores share the update,
// as on the VGA board) on two emulated cores (firmware_pico/emulator/dual_core.mjs): core 1
// launches through the SDK's handshake, the cores split the update through the mailbox
// FIFOs, and the flock they make is bit for bit the one-core image's; the update phase
// takes clearly less time than on one core. The screen it drew (its framebuffer, written as
// a PNG by the runner) shows the status line and every boid.
TEST(Emulator, TwoCoresShareTheUpdateAndMakeTheOneCoreFlock) {
  const std::string two = two_core_elf_path();
  REQUIRE_OR_SKIP(std::filesystem::exists(elf_path()), "no " + elf_path() + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(std::filesystem::exists(two), "no " + two + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(have_node(), "node/npm missing");
  const std::string args = "--warmup 4 --frames 3 800";
  const std::string screen =
      (std::filesystem::temp_directory_path() / ("flockscope-screen-" + std::to_string(getpid()) + ".png")).string();
  const std::string screen1 =
      (std::filesystem::temp_directory_path() / ("flockscope-screen-" + std::to_string(getpid()) + "-1.png")).string();
  const Measurement one = measure(1, "--screen " + screen1 + " " + args), dual = measure(2, "--screen " + screen + " " + args);
  std::printf("%s%s", one.out.c_str(), dual.out.c_str());
  ASSERT_EQ(one.status, 0) << one.out;
  ASSERT_EQ(dual.status, 0) << dual.out;
  EXPECT_EQ(one.field("cores"), "1");
  EXPECT_EQ(dual.field("cores"), "2");
  EXPECT_EQ(dual.field("boids"), "800");
  const std::string hash = one.field("state hash");
  ASSERT_EQ(hash.size(), 16u) << one.out;
  EXPECT_EQ(dual.field("state hash"), hash) << "two cores made a different flock";
  // And both are the host's flock: BoardFlock compiled for this machine (the C++ scan,
  // rules and sort, not the board's Thumb-1 ones) from the same seed and defaults, after
  // as many steps as the board's frame number.
  namespace fb = flockscope::board;
  fb::HostFlockStorage storage(800);
  fb::ParamStore store{fb::BoardLimits{}};
  fb::BoardFlock host(storage.buffers);
  host.reset(store, 1, 800);
  const int frame = std::atoi(one.field("(frame").c_str());  // "state hash H (frame F)"
  ASSERT_GT(frame, 0) << one.out;
  for (int i = 0; i < frame; ++i) host.step();
  char host_hash[17];
  std::snprintf(host_hash, sizeof host_hash, "%016llx", static_cast<unsigned long long>(host.state_hash()));
  EXPECT_EQ(hash, host_hash) << "the board's flock differs from the host's after " << frame << " frames";
  // Core 0's stack (over 4 KB deep while the link sends) must not reach into core 1's: in
  // the SDK's default place, right under core 0's, it overwrote a waiting core 1's frames.
  EXPECT_EQ(dual.field("stack overlap"), "no") << dual.out;
  const double update1 = std::atof(one.field("update").c_str()), update2 = std::atof(dual.field("update").c_str());
  const double scan1 = std::atof(one.field("scan").c_str());
  // One core's update phase is its scan plus the rest; two cores should take a bit over half.
  EXPECT_GT(update2, 0.0);
  EXPECT_LT(update2, 0.7 * (update1 + scan1)) << "the second core took no share of the update";

  // The screens the board drew (one core: its whole-screen dot loop in Thumb-1; two: the
  // row bands), below the 16-row status line, are exactly the host's drawing of its flock
  // (draw_flock: dots and the predator's cross) after as many frames.
  for (const std::string& path : {screen1, screen}) {
    int w = 0, h = 0, n = 0;
    unsigned char* px = stbi_load(path.c_str(), &w, &h, &n, 1);
    ASSERT_NE(px, nullptr) << "no screen PNG at " << path;
    EXPECT_EQ(w, 640);
    EXPECT_EQ(h, 480);
    const Measurement& m = path == screen ? dual : one;
    const int drawn = std::atoi(m.field("the framebuffer after frame").c_str());
    ASSERT_GE(drawn, frame) << m.out;
    fb::HostFlockStorage shown_storage(800);
    fb::BoardFlock shown(shown_storage.buffers);
    shown.reset(store, 1, 800);
    for (int i = 0; i < drawn; ++i) shown.step();
    std::vector<std::uint32_t> words(fb::kFbWords, 0);
    fb::Framebuffer want(words.data());
    fb::draw_flock(want, shown);
    std::size_t lit_field = 0, lit_status = 0, differ = 0;  // below and in the 16-row status line
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const bool lit = px[y * w + x] != 0;
        (y < 16 ? lit_status : lit_field) += lit;
        if (y >= 16) differ += lit != want.get(x, y);
      }
    stbi_image_free(px);
    std::filesystem::remove(path);
    // 800 boids as 2x2 dots (a few overlap) and one predator's 7x7 cross: no trails left
    // behind, no boid missing, every pixel where the host puts it.
    EXPECT_GT(lit_field, 3u * 800u) << path;
    EXPECT_LE(lit_field, 4u * 800u + 25u) << path;
    EXPECT_EQ(differ, 0u) << path << ": pixels that differ from the host's drawing";
    EXPECT_GT(lit_status, 100u) << "no status line";
  }
}

// The rules' fast path in Thumb-1 (rules_m0.S: flockscope_rules, flockscope_update_run)
// against the general rules on the board itself: every boid the fast path takes, on the
// first and the last warm-up frames (BoardFlock::check_rules), and the cases of
// place_rules_cases (the branches a flock rarely takes: a predators' sum of exactly 0, a
// square root's low byte at its cap, speeds exactly at the limits), with parameters that
// take its other branches: fractional speed limits (the limit's products then have low bits),
// three predators within 100 px, other weights and turn; then scouts with dynamic bias
// (they leave the assembly run for the general rules) and alignment off, on one core and
// on two, whose flocks must be the same.
TEST(Emulator, RulesFastPathMatchesTheGeneralRulesOnTheBoard) {
  REQUIRE_OR_SKIP(std::filesystem::exists(elf_path()), "no " + elf_path() + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(std::filesystem::exists(two_core_elf_path()), "no " + two_core_elf_path());
  REQUIRE_OR_SKIP(have_node(), "node/npm missing");
  const std::string rules_check = "rules check (fast path vs general rules, first and last warm-up frames):";
  auto expect_all_equal = [&](const Measurement& m, const std::string& checked) {
    ASSERT_EQ(m.status, 0) << m.out;
    EXPECT_EQ(m.field(rules_check), "0") << m.out;
    EXPECT_NE(m.out.find(" 0 of " + checked + " boids differ"), std::string::npos) << m.out;
    EXPECT_EQ(m.field("scan check (assembly vs C++, rare cases, first and last warm-up frames):"), "0") << m.out;
    // The rare branches (place_rules_cases, before the spawn): the same, every case boid
    // that is not a scout on the fast path.
    const std::string cases = "rules cases (the fast path's rare branches, before the spawn): 0 of ";
    EXPECT_GE(std::atoi(m.field(cases).c_str()), 20) << m.out;
  };
  const Measurement speeds = measure(
      1, "--warmup 40 --frames 2 --set minspeed=4.5 --set maxspeed=5.25 --set predators=3 --set predatorRange=100 "
         "--set centeringfactor=0.002 --set matchingfactor=0.1 --set turnfactor=0.4 1500");
  std::printf("%s", speeds.out.c_str());
  expect_all_equal(speeds, "3000");
  EXPECT_NE(speeds.out.find("(7 applied, 0 refused)"), std::string::npos) << speeds.out;

  const std::string scouts =
      "--warmup 30 --frames 2 --set scouts1=300 --set scouts2=200 --set dynamicbias=1 --set alignment=0 "
      "--set avoidfactor=0.2 --set predators=2 --set minspeed=2.5 --set maxspeed=6.75 1500";
  const Measurement one = measure(1, scouts), dual = measure(2, scouts);
  std::printf("%s%s", one.out.c_str(), dual.out.c_str());
  expect_all_equal(one, "2000");  // the 1,000 boids that are not scouts, twice
  expect_all_equal(dual, "2000");
  ASSERT_EQ(one.field("state hash").size(), 16u) << one.out;
  EXPECT_EQ(dual.field("state hash"), one.field("state hash")) << "two cores made a different flock";

  // A setting the board refuses fails the run (and says so).
  const Measurement refused = measure(1, "--warmup 1 --frames 1 --set maxspeed=500 100");
  EXPECT_NE(refused.status, 0) << refused.out;
  EXPECT_NE(refused.out.find("(0 applied, 1 refused)"), std::string::npos) << refused.out;
}

// The board's image (two cores, VGA) with only the emulator's switches: its PIO programs and
// DMA, clocked cycle by cycle in the emulator (firmware_pico/vga_signal.sh), put out the
// 640x480 60 Hz timing a monitor locks to (800 pixels of P cycles a line, 96 of them
// hsync; 525 lines, 2 of them vsync, 480 drawn from line 35 on, each starting within a
// pixel or two of the end of the back porch) and, in a frame during which the firmware did
// not draw, exactly the framebuffer's picture: the status line and 300 boids. P, the system
// clock's cycles a 25 MHz pixel: 5 at 125 MHz, 8 in the 200 MHz image.
namespace {
void expect_vga_640x480(const std::string& elf, const std::string& flags, int clock_mhz) {
  REQUIRE_OR_SKIP(std::filesystem::exists(elf), "no " + elf + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(have_node(), "node/npm missing");
  const int p = clock_mhz / 25;
  const std::string png =
      (std::filesystem::temp_directory_path() / ("flockscope-vga-" + std::to_string(getpid()) + ".png")).string();
  const Measurement m = run_script("vga_signal.sh " + flags + "--boids 300 --frames 3 --png " + png);
  std::printf("%s", m.out.c_str());
  ASSERT_EQ(m.status, 0) << m.out;
  // vga.mjs prints `key value...` lines.
  std::map<std::string, std::string> v;
  std::istringstream lines(m.out);
  for (std::string line; std::getline(lines, line);)
    if (const auto sp = line.find(' '); sp != std::string::npos) v[line.substr(0, sp)] = line.substr(sp + 1);
  EXPECT_EQ(v["clock_hz"], std::to_string(clock_mhz) + "000000");
  EXPECT_GE(std::atoi(v["frames"].c_str()), 3);
  const std::string line_cycles = std::to_string(800 * p), hsync_cycles = std::to_string(96 * p);
  EXPECT_EQ(v["line_cycles"], line_cycles + " " + line_cycles);
  EXPECT_EQ(v["hsync_cycles"], hsync_cycles + " " + hsync_cycles);
  EXPECT_EQ(v["lines"], "525 525");
  EXPECT_EQ(v["vsync_lines"], "2 2");
  EXPECT_EQ(v["active_lines"], "480 480");
  EXPECT_EQ(v["first_active_line"], "35 35");
  // 144 pixels (144 P cycles) of sync and back porch, then the first pixel: the same on
  // every line, and within two pixels of the ideal start.
  int first = 0, last = 0;
  ASSERT_EQ(std::sscanf(v["active_offset"].c_str(), "%d %d", &first, &last), 2) << m.out;
  EXPECT_EQ(first, last);
  EXPECT_GE(first, 142 * p);
  EXPECT_LE(first, 146 * p);
  EXPECT_EQ(v["pixel_cycles"], std::to_string(p));
  EXPECT_EQ(v["pins"], "pio0");
  EXPECT_GE(std::atoi(v["clean_frames"].c_str()), 1);
  EXPECT_EQ(v["differ"], "0") << "the picture is not the framebuffer";
  // 300 boids as 2x2 dots, the predator's cross and the status line.
  const int lit = std::atoi(v["lit"].c_str());
  EXPECT_GT(lit, 3 * 300);
  EXPECT_LT(lit, 4 * 300 + 1000);

  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 1);
  ASSERT_NE(px, nullptr) << "no PNG at " << png;
  EXPECT_EQ(w, 640);
  EXPECT_EQ(h, 480);
  int lit_png = 0;
  for (int i = 0; i < w * h; ++i) lit_png += px[i] != 0;
  stbi_image_free(px);
  std::filesystem::remove(png);
  EXPECT_EQ(lit_png, lit);
}
}  // namespace

TEST(Emulator, VgaSignalIsTheFramebufferAt640x480) { expect_vga_640x480(vga_elf_path(), "", 125); }

// The 200 MHz build (FLOCKSCOPE_SYS_CLOCK_KHZ=200000): the same signal from 8 cycles a pixel.
TEST(Emulator, VgaSignalAt200MHzIsTheFramebufferAt640x480) {
  expect_vga_640x480(std::string(FLOCKSCOPE_SOURCE_DIR) + "/build-pico/flockscope_pico_emu_vga_200.elf", "--200 ", 200);
}

// The lab's extensions on the board (cornell-final-project's values over the board's
// defaults: a chase predator, the ledge, gravity, two food sources; the general rules for
// every boid), on one emulated core and on two: the flock is bit for bit the host's
// BoardFlock with the same parameters after as many frames (its Thumb-1 scan and sort, the
// general rules compiled for the M0+, the hunting predator's 64-bit squares, the food's
// soft-float draws), and 1,500 boids fit the 30 fps budget on two cores.
TEST(Emulator, LabExtensionsAreTheHostsFlock) {
  REQUIRE_OR_SKIP(std::filesystem::exists(elf_path()), "no " + elf_path() + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(std::filesystem::exists(two_core_elf_path()), "no " + two_core_elf_path());
  REQUIRE_OR_SKIP(have_node(), "node/npm missing");
  namespace fb = flockscope::board;
  const std::vector<std::pair<const char*, double>> settings = {
      {"bottommargin", 40},   {"predator_mode", 2}, {"predator_steer", 0.03}, {"perch_frames", 90},
      {"perch_x0", 120},      {"perch_x1", 520},    {"perch_range", 12},      {"gravity", 0.05},
      {"food", 2},            {"food_factor", 0.003}, {"food_speed", 1.5}};
  std::string args = "--warmup 12 --frames 3";
  for (const auto& [name, v] : settings) {
    std::ostringstream s;
    s << " --set " << name << "=" << v;
    args += s.str();
  }
  const Measurement one = measure(1, args + " 1500"), dual = measure(2, args + " 1500");
  std::printf("%s%s", one.out.c_str(), dual.out.c_str());
  ASSERT_EQ(one.status, 0) << one.out;
  ASSERT_EQ(dual.status, 0) << dual.out;
  EXPECT_NE(one.out.find("(11 applied, 0 refused)"), std::string::npos) << one.out;
  EXPECT_NE(one.out.find("rules check: the fast path is off"), std::string::npos) << one.out;
  const std::string hash = one.field("state hash");
  ASSERT_EQ(hash.size(), 16u) << one.out;
  EXPECT_EQ(dual.field("state hash"), hash) << "two cores made a different flock";
  fb::HostFlockStorage storage(1500);
  fb::ParamStore store{fb::BoardLimits{}};
  for (const auto& [name, v] : settings) store.force(fb::find_param(name)->id, v);
  fb::BoardFlock host(storage.buffers);
  host.reset(store, 1, 1500);
  ASSERT_TRUE(host.perching());
  ASSERT_EQ(host.food_count(), 2u);
  const int frame = std::atoi(one.field("(frame").c_str());
  ASSERT_GT(frame, 0) << one.out;
  std::uint32_t perched = 0;
  for (int i = 0; i < frame; ++i) host.step(), perched = std::max(perched, host.perched());
  char host_hash[17];
  std::snprintf(host_hash, sizeof host_hash, "%016llx", static_cast<unsigned long long>(host.state_hash()));
  EXPECT_EQ(hash, host_hash) << "the board's flock differs from the host's after " << frame << " frames";
  EXPECT_GT(perched, 0u) << "no boid perched in the host's run";
  const double compute2 = std::atof(dual.field("compute").c_str());
  RecordProperty("final_project_1500_two_cores_mcycles", std::to_string(compute2));
  EXPECT_GT(compute2, 0.0);
  EXPECT_LT(compute2, 4.167) << "1,500 boids with every extension miss 30 fps on two cores";
}

// The VGA signal with perching and food on: the decoded picture is still exactly the
// framebuffer, and it shows the ledge (two full rows under perch_y from perch_x0 to perch_x1)
// and the two food sources (5x5 discs).
TEST(Emulator, VgaSignalShowsTheLedgeAndTheFood) {
  REQUIRE_OR_SKIP(std::filesystem::exists(vga_elf_path()), "no " + vga_elf_path() + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(have_node(), "node/npm missing");
  const std::string png =
      (std::filesystem::temp_directory_path() / ("flockscope-vga-ext-" + std::to_string(getpid()) + ".png")).string();
  const Measurement m = run_script(
      "vga_signal.sh --boids 300 --frames 2 --set perch_frames=90 --set perch_x0=120 --set perch_x1=520 "
      "--set food=2 --png " + png);
  std::printf("%s", m.out.c_str());
  ASSERT_EQ(m.status, 0) << m.out;
  EXPECT_EQ(m.field("differ"), "0") << "the picture is not the framebuffer";
  int w = 0, h = 0, n = 0;
  unsigned char* px = stbi_load(png.c_str(), &w, &h, &n, 1);
  ASSERT_NE(px, nullptr) << "no PNG at " << png;
  ASSERT_EQ(w, 640);
  ASSERT_EQ(h, 480);
  auto lit = [&](int x, int y) { return x >= 0 && x < w && y >= 0 && y < h && px[y * w + x] != 0; };
  int ledge = 0;
  for (int x = 120; x <= 520; ++x) ledge += lit(x, 422) && lit(x, 423);
  EXPECT_EQ(ledge, 401) << "the ledge (perch_y 420: rows 422, 423; x 120..520)";
  // Food sources: every pixel of a 5x5 disc lit and the four corners beyond it dark.
  int discs = 0;
  for (int y = 2; y < h - 2; ++y)
    for (int x = 2; x < w - 2; ++x) {
      bool all = true;
      for (int dy = -2; dy <= 2 && all; ++dy)
        for (int dx = -2; dx <= 2 && all; ++dx)
          if (!((dx == -2 || dx == 2) && (dy == -2 || dy == 2))) all = lit(x + dx, y + dy);
      discs += all && y < 420;  // (not the ledge's rows)
    }
  stbi_image_free(px);
  std::filesystem::remove(png);
  EXPECT_GE(discs, 2) << "the food sources' discs";
}
