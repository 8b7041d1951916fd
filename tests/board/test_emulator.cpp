// The real firmware in the emulator: build-pico/flockscope_pico_emu.elf (one core, no VGA)
// run by firmware_pico/emulate.sh in rp2040js, its USB CDC bridged to a pseudo-terminal.
// It boots, says hello, streams state, acknowledges a parameter change; a second test
// measures the cycles per frame at 2,000 boids (the board logs them once a second).
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
#include <string>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "emulator_process.hpp"
#include "vb_client.hpp"

namespace proto = flockscope::protocol;
using proto::Message;
using proto::MsgType;

using emutest::Emulator;
using emutest::elf_path;
using emutest::have_node;

TEST(Emulator, FirmwareBootsSaysHelloStreamsAndAcknowledges) {
  REQUIRE_OR_SKIP(std::filesystem::exists(elf_path()), "no " + elf_path() + ": run firmware_pico/build.sh");
  REQUIRE_OR_SKIP(have_node(), "node/npm missing");
  Emulator emu(elf_path());
  ASSERT_TRUE(std::filesystem::exists(emu.link)) << "the emulator made no pty link";
  vbtest::Client c(emu.link);
  ASSERT_TRUE(c.ok());
  // The firmware says hello when the (emulated) host configures the port.
  c.send(proto::make_hello(proto::Role::kApp, 0, 1, 0, 100000, 0x1FF, "emu-test"));
  ASSERT_TRUE(c.wait_for(MsgType::kParamSet, 60000)) << "no hello/param_set from the firmware";
  const Message& hello = c.last(MsgType::kHello);
  EXPECT_EQ(hello.hello.role, proto::Role::kBoard);
  EXPECT_EQ(std::string(hello.hello.name, hello.hello.name_len), "pico-emu");
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
