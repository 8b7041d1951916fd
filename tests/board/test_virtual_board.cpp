// The virtual board end to end: `flockscope board --link PATH` in a child process, the
// test as the app on the pseudo-terminal. Hello, state frames, a parameter change
// acknowledged and visibly taking effect, garbage and half frames survived, the port
// closed and reopened, and the link's throughput with 2,000 boids (full state, 30 fps).
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <string>
#include <sys/wait.h>
#include <termios.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "flockscope/protocol/protocol.hpp"
#include "vb_client.hpp"
#include "vboard_process.hpp"

namespace proto = flockscope::protocol;
using proto::Message;
using proto::MsgType;
using Clock = std::chrono::steady_clock;

using vbtest::VirtualBoard;

TEST(VirtualBoard, EndToEndOverAPty) {
  VirtualBoard vb({"--boids", "500", "--seed", "3"});
  ASSERT_TRUE(std::filesystem::exists(vb.link)) << "no link at " << vb.link;
  vbtest::Client c(vb.link);
  ASSERT_TRUE(c.ok());
  // On connect it says hello (unasked).
  ASSERT_TRUE(c.wait_for(MsgType::kHello, 2000));
  c.send(proto::make_hello(proto::Role::kApp, 0, 1, 0, 100000, 0x1FF, "vb-test"));
  ASSERT_TRUE(c.wait_for(MsgType::kParamSet, 2000));
  const Message& hello = c.last(MsgType::kHello);
  EXPECT_EQ(hello.hello.role, proto::Role::kVirtualBoard);

  // State frames: complete 500-boid frames.
  c.clear();
  ASSERT_TRUE(c.wait_for(MsgType::kStats, 2000));
  ASSERT_TRUE(c.wait_complete_frames(5, 3000));
  EXPECT_EQ(c.last(MsgType::kStats).stats.boid_count, 500u);

  // A parameter change, acknowledged, visibly taking effect: maxspeed 6 -> 2 and the
  // mean speed in the metrics follows.
  const auto seq = c.send(proto::make_param_change(17, proto::ParamValue::of_real(2.0)));
  const Message* ack = c.wait_ack(seq, 1000);
  ASSERT_NE(ack, nullptr);
  EXPECT_EQ(ack->ack.status, proto::Status::kOk);
  EXPECT_EQ(ack->ack.value.as_real(), 2.0);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  c.clear();
  ASSERT_TRUE(c.wait_for(MsgType::kMetrics, 1000));
  EXPECT_LE(c.last(MsgType::kMetrics).metrics.mean_speed, 2.01f);

  // Garbage and half frames: the board keeps going and answers the next request.
  std::vector<std::uint8_t> junk(3000);
  for (std::size_t i = 0; i < junk.size(); ++i) junk[i] = std::uint8_t(i * 131 + 7);
  c.write_raw(junk);
  std::uint8_t wire[proto::kMaxWireSize];
  Message half = proto::make_param_change(7, proto::ParamValue::of_real(30.0));
  half.seq = 999;
  const std::size_t n = proto::encode(half, wire);
  c.write_raw(std::vector<std::uint8_t>(wire, wire + n / 2));
  const auto seq2 = c.send(proto::make_param_change(7, proto::ParamValue::of_real(35.0)));
  ack = c.wait_ack(seq2, 1000);
  ASSERT_NE(ack, nullptr);
  EXPECT_EQ(ack->ack.status, proto::Status::kOk);
  c.clear();
  ASSERT_TRUE(c.wait_complete_frames(3, 2000));
  EXPECT_TRUE(vb.alive());

  // Close and reopen the port: the board says hello again and streams after ours.
  c.close_port();
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  vbtest::Client c2(vb.link);
  ASSERT_TRUE(c2.wait_for(MsgType::kHello, 2000));
  c2.send(proto::make_hello(proto::Role::kApp, 0, 1, 0, 100000, 0x1FF, "vb-test-2"));
  ASSERT_TRUE(c2.wait_complete_frames(3, 3000));
  EXPECT_TRUE(vb.alive());
}

TEST(VirtualBoard, FullStateFor2000BoidsAt30Fps) {
  VirtualBoard vb({"--boids", "2000"});
  vbtest::Client c(vb.link);
  ASSERT_TRUE(c.wait_for(MsgType::kHello, 2000));
  c.send(proto::make_hello(proto::Role::kApp, 0, 1, 0, 100000, 0x1FF, "vb-rate"));
  ASSERT_TRUE(c.wait_for(MsgType::kStats, 2000));
  c.clear();
  const auto t0 = Clock::now();
  c.pump_for(3000);
  const double secs = std::chrono::duration<double>(Clock::now() - t0).count();
  const double rate = double(c.complete_frames()) / secs;
  std::printf("virtual board, 2000 boids: %.1f complete state frames/s, %.0f bytes/s, tx_dropped %u\n", rate,
              double(c.bytes()) / secs, c.last(MsgType::kStats).stats.tx_dropped);
  RecordProperty("state_fps", std::to_string(rate));
  EXPECT_GE(rate, 28.0);
  EXPECT_EQ(c.last(MsgType::kStats).stats.boid_count, 2000u);
  EXPECT_EQ(c.last(MsgType::kStats).stats.tx_dropped, 0u);
}
