// The app's serial link end to end against the virtual board (`flockscope board`, the
// firmware's own logic) over a pseudo-terminal: the real asio serial_port path, the real
// handshake, requests and frames. Also: a board killed and restarted mid-frame, a line
// that garbles and truncates frames, and a board of another protocol version.
#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <random>
#include <termios.h>
#include <thread>

#include "../board/vboard_process.hpp"
#include "link_probe.hpp"
#include "test_pty.hpp"

using namespace flockscope;
using linktest::Clock;
using linktest::Probe;
using linktest::TestPty;
using vbtest::VirtualBoard;
namespace proto = flockscope::protocol;

namespace {

std::string temp_link(const std::string& tag) {
  return (std::filesystem::temp_directory_path() / ("flockscope-" + tag + "-" + std::to_string(getpid()))).string();
}

link::LinkOptions options(const std::string& port) {
  link::LinkOptions o;
  o.port = port;
  return o;
}

double max_speed(const link::MirroredFrame& f) {
  double m = 0;
  for (std::size_t i = 0; i < f.size(); ++i) m = std::max(m, std::hypot(double(f.vx[i]), double(f.vy[i])));
  return m;
}

int open_raw(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK);
  termios t{};
  if (fd >= 0 && tcgetattr(fd, &t) == 0) {
    cfmakeraw(&t);
    tcsetattr(fd, TCSANOW, &t);
  }
  return fd;
}

}  // namespace

TEST(LinkVirtualBoard, HandshakeReadsBackTheBoardsParameters) {
  VirtualBoard vb({"--boids", "2000", "--set", "visualRange=35"}, temp_link("vb-hs"));
  ASSERT_TRUE(std::filesystem::exists(vb.link));
  Probe p(options(vb.link));
  ASSERT_TRUE(p.connected_with_params(5000)) << link::to_string(p.state()) << ": " << p.link.status().detail;
  // The board's truth, not the app's defaults (40, 2000 is the board's --boids).
  EXPECT_EQ(p.param(7).value(), 35.0);
  EXPECT_EQ(p.param(3).value(), 2000.0);
  EXPECT_EQ(p.param(1).value(), 640.0);
  const auto st = p.link.status();
  ASSERT_TRUE(st.board.has_value());
  EXPECT_EQ(st.board->role, proto::Role::kVirtualBoard);
  EXPECT_EQ(std::string(st.board->name, st.board->name_len), "virtual-board");
  // The line settings the app put on the port (a pty keeps them for every opener): raw 8N1
  // at 115200, no flow control; never 1200 baud, which reboots a Pico into its bootloader.
  const int fd = ::open(vb.link.c_str(), O_RDWR | O_NOCTTY | O_NONBLOCK);
  ASSERT_GE(fd, 0);
  termios t{};
  ASSERT_EQ(tcgetattr(fd, &t), 0);
  ::close(fd);
  EXPECT_EQ(cfgetospeed(&t), speed_t(B115200));
  EXPECT_EQ(t.c_cflag & CSIZE, tcflag_t(CS8));
  EXPECT_EQ(t.c_cflag & (PARENB | CSTOPB | CRTSCTS), 0u);
  EXPECT_EQ(t.c_lflag & (ICANON | ECHO | ISIG), 0u);
  EXPECT_EQ(t.c_iflag & (IXON | ICRNL), 0u);
  EXPECT_EQ(t.c_oflag & OPOST, 0u);
  ASSERT_TRUE(p.pump_until(3000, [&] { return p.frames.size() >= 3; }));
  EXPECT_EQ(p.frames.back().size(), 2000u);
  EXPECT_TRUE(p.frames.back().state_complete);
  EXPECT_TRUE(p.frames.back().has_metrics && p.frames.back().has_stats);
}

TEST(LinkVirtualBoard, ChangeIsAcknowledgedAndVisibleWithinTwoBoardFrames) {
  VirtualBoard vb({"--boids", "2000"}, temp_link("vb-change"));
  Probe p(options(vb.link));
  ASSERT_TRUE(p.connected_with_params(5000));
  ASSERT_TRUE(p.pump_until(3000, [&] { return p.frames.size() >= 2; }));
  ASSERT_GT(max_speed(p.frames.back()), 2.5) << "the flock must start faster than the new limit";
  const std::uint32_t f0 = p.frames.back().frame;
  const auto req = p.link.change_param(17, proto::ParamValue::of_real(2.0));  // maxspeed
  const auto d = p.wait_done(req, 3000);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->outcome, link::Outcome::kAccepted);
  EXPECT_EQ(d->status, proto::Status::kOk);
  EXPECT_EQ(d->value.as_real(), 2.0);
  EXPECT_GT(d->rtt_ms, 0.0);
  EXPECT_LT(d->rtt_ms, 100.0) << "the board answers within its 100 ms";
  // The first frame whose every boid obeys the new limit (1/256 px/frame quantisation).
  std::optional<std::uint32_t> seen;
  ASSERT_TRUE(p.pump_until(3000, [&] {
    for (const auto& f : p.frames)
      if (f.frame > f0 && f.state_complete && max_speed(f) <= 2.0 + 0.01) return bool(seen = f.frame);
    return false;
  }));
  EXPECT_LE(*seen - f0, 2u) << "last frame before the request " << f0 << ", first frame showing it " << *seen;
  std::printf("maxspeed 2 acknowledged in %.1f ms, visible %u board frame(s) after the last frame seen\n", d->rtt_ms, *seen - f0);
  EXPECT_EQ(p.link.status().counters.last_rtt_ms, d->rtt_ms);
}

TEST(LinkVirtualBoard, OutOfRangeValueIsRejectedWithTheBoardsValue) {
  VirtualBoard vb({"--boids", "300"}, temp_link("vb-reject"));
  Probe p(options(vb.link));
  ASSERT_TRUE(p.connected_with_params(5000));
  // Core's table allows visualRange up to 10000; this board's limit is tighter.
  const auto req = p.link.change_param(7, proto::ParamValue::of_real(500.0));
  const auto d = p.wait_done(req, 3000);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->outcome, link::Outcome::kRejected);
  EXPECT_EQ(d->status, proto::Status::kOutOfRange);
  EXPECT_EQ(d->value.as_real(), 40.0);  // unchanged
  // Wrong type: the board refuses it too.
  const auto bad = p.wait_done(p.link.change_param(7, proto::ParamValue::of_int(50)), 3000);
  ASSERT_TRUE(bad.has_value());
  EXPECT_EQ(bad->status, proto::Status::kWrongType);
  EXPECT_EQ(p.link.status().counters.rejected, 2u);
}

TEST(LinkVirtualBoard, CommandsResetPauseBoidCountPredators) {
  VirtualBoard vb({"--boids", "400"}, temp_link("vb-cmd"));
  Probe p(options(vb.link));
  ASSERT_TRUE(p.connected_with_params(5000));
  auto ok = [&](proto::CommandId id, std::uint32_t arg) {
    const auto d = p.wait_done(p.link.command(id, arg), 3000);
    return d && d->outcome == link::Outcome::kAccepted;
  };
  ASSERT_TRUE(ok(proto::CommandId::kSetBoidCount, 250));
  EXPECT_TRUE(p.pump_until(2000, [&] { return !p.frames.empty() && p.frames.back().size() == 250; }));
  ASSERT_TRUE(ok(proto::CommandId::kPredators, 0));
  EXPECT_TRUE(p.pump_until(2000, [&] {
    return !p.frames.empty() && p.frames.back().has_stats && !(p.frames.back().stats.flags & proto::kStatsFlagPredators);
  }));
  ASSERT_TRUE(ok(proto::CommandId::kPause, 0));
  EXPECT_TRUE(p.pump_until(2000, [&] {
    return !p.frames.empty() && p.frames.back().has_stats && (p.frames.back().stats.flags & proto::kStatsFlagPaused);
  }));
  ASSERT_TRUE(ok(proto::CommandId::kResume, 0));
  ASSERT_TRUE(ok(proto::CommandId::kReset, 77));
  EXPECT_TRUE(p.pump_until(2000, [&] {
    return !p.frames.empty() && p.frames.back().has_stats && p.frames.back().stats.elapsed_ms < 500 &&
           !(p.frames.back().stats.flags & proto::kStatsFlagPaused);
  })) << "reset restarts the board's clock: elapsed " << p.frames.back().stats.elapsed_ms << " ms, flags "
       << unsigned(p.frames.back().stats.flags) << ", frame " << p.frames.back().frame;
  const auto unknown = p.wait_done(p.link.command(proto::CommandId(99), 0), 3000);
  ASSERT_TRUE(unknown.has_value());
  EXPECT_EQ(unknown->status, proto::Status::kUnknownId);
}

TEST(LinkVirtualBoard, BoardKilledMidFrameAndRestartedIsReconnectedWithinASecond) {
  const std::string path = temp_link("vb-restart");
  auto vb = std::make_unique<VirtualBoard>(std::vector<std::string>{"--boids", "2000"}, path);
  Probe p(options(path));
  ASSERT_TRUE(p.connected_with_params(5000));
  ASSERT_TRUE(p.pump_until(2000, [&] { return p.frames.size() >= 5; }));
  vb->stop(SIGKILL);  // gone in the middle of whatever it was writing; the link dangles
  ASSERT_TRUE(p.pump_until(3000, [&] { return p.state() == link::LinkState::kReconnecting; }))
      << link::to_string(p.state());
  p.pump(300);  // a while unplugged: the app keeps trying, nothing blocks
  EXPECT_EQ(p.state(), link::LinkState::kReconnecting);
  const std::size_t frames_before = p.frames.size();
  p.params.reset();
  std::filesystem::remove(path);
  vb = std::make_unique<VirtualBoard>(std::vector<std::string>{"--boids", "1000"}, path);
  const auto back = Clock::now();  // the link exists again from here
  ASSERT_TRUE(p.connected_with_params(1000)) << "not reconnected within 1 s: " << p.link.status().detail;
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - back).count();
  ASSERT_TRUE(p.pump_until(2000, [&] { return p.frames.size() > frames_before && p.frames.back().size() == 1000; }));
  const auto c = p.link.status().counters;
  EXPECT_EQ(c.sessions, 2u);
  EXPECT_EQ(c.reconnects, 1u);
  EXPECT_GE(c.port_errors, 1u);
  std::printf("reconnected %.0f ms after the board came back\n", ms);
}

TEST(LinkVirtualBoard, GarbageAndTruncatedFramesOnTheLineAreSurvived) {
  VirtualBoard vb({"--boids", "600"}, temp_link("vb-noisy"));
  TestPty line("noisy-line");
  ASSERT_GE(line.master, 0);
  const int board = open_raw(vb.link);
  ASSERT_GE(board, 0);
  std::atomic<bool> stop{false}, noisy{true};
  std::atomic<std::uint64_t> injected{0}, cut{0};
  // The relay: app <-> board unchanged, except that the board's bytes are garbled.
  std::thread relay([&] {
    std::mt19937 rng(12345);
    std::uint8_t buf[4096];
    while (!stop) {
      pollfd pf[2] = {{board, POLLIN, 0}, {line.master, POLLIN, 0}};
      ::poll(pf, 2, 10);
      ssize_t n = ::read(line.master, buf, sizeof buf);
      if (n > 0) (void)::write(board, buf, std::size_t(n));
      n = ::read(board, buf, sizeof buf);
      if (n <= 0) continue;
      std::vector<std::uint8_t> out(buf, buf + n);
      if (noisy) {
        const auto roll = rng() % 10;
        if (roll < 2) {  // noise, zeros included, somewhere in the stream
          std::vector<std::uint8_t> junk(1 + rng() % 80);
          for (auto& b : junk) b = std::uint8_t(rng() % 4 == 0 ? 0 : rng());
          out.insert(out.begin() + std::ptrdiff_t(rng() % out.size()), junk.begin(), junk.end());
          ++injected;
        } else if (roll < 4 && out.size() > 2) {  // half a frame: a stretch of bytes never arrives
          const std::size_t at = rng() % (out.size() - 1);
          const std::size_t len = std::min<std::size_t>(1 + rng() % 600, out.size() - at);
          out.erase(out.begin() + std::ptrdiff_t(at), out.begin() + std::ptrdiff_t(at + len));
          ++cut;
        }
      }
      line.write_all(out.data(), out.size());
    }
  });
  Probe p(options(line.link));
  p.keep_frames = 50;
  const bool connected = p.connected_with_params(8000);
  p.pump_until(4000, [] { return false; });
  const auto noisy_counts = p.link.status().counters;
  noisy = false;
  // Clean again: every frame whole from the next intact one on.
  p.pump(300);
  const auto from = p.frames.empty() ? 0u : p.frames.back().frame;
  p.pump_until(1500, [] { return false; });
  stop = true;
  relay.join();
  ::close(board);
  ASSERT_TRUE(connected) << link::to_string(p.state()) << ": " << p.link.status().detail << "; frames ok "
                         << noisy_counts.rx.frames_ok << ", bad crc " << noisy_counts.rx.bad_crc;
  EXPECT_GT(injected.load() + cut.load(), 20u);
  EXPECT_GT(noisy_counts.rx.bad_crc + noisy_counts.rx.bad_framing, 0u);
  EXPECT_GT(noisy_counts.frames.complete, 5u) << "intact frames still get through";
  EXPECT_GT(noisy_counts.frames.partial, 0u);
  std::size_t clean = 0, clean_complete = 0;
  for (const auto& f : p.frames)
    if (f.frame > from + 1) ++clean, clean_complete += f.state_complete;
  EXPECT_GT(clean, 20u);
  EXPECT_EQ(clean_complete, clean) << "after the noise stops, every frame is whole again";
  EXPECT_EQ(p.state(), link::LinkState::kConnected);
}

TEST(LinkVirtualBoard, BoardOfAnotherProtocolVersionIsNamed) {
  for (const int version : {3, 1}) {
    std::string tag = "v";  // (not "v" + to_string(...): GCC 12's -Wrestrict false positive)
    tag += std::to_string(version);
    TestPty line(tag);
    ASSERT_GE(line.master, 0);
    std::atomic<bool> stop{false};
    // A board from another release: answers every hello with its own, and streams garbage
    // of its version that this app must not read.
    std::thread board([&] {
      proto::Encoder enc;
      std::uint8_t buf[2048], wire[proto::kMaxWireSize];
      while (!stop) {
        pollfd pf{line.master, POLLIN, 0};
        ::poll(&pf, 1, 10);
        if (::read(line.master, buf, sizeof buf) <= 0) continue;
        proto::Message h = proto::make_hello(proto::Role::kBoard, 9, 0, 0, 4000, 0x1FF, "pico-future");
        h.version = std::uint8_t(version);
        h.hello.protocol_version = std::uint8_t(version);
        line.write_all(wire, enc.encode(h, wire));
        proto::Message s{};
        s.type = proto::MsgType::kStats, s.version = std::uint8_t(version);
        s.stats = {1, 30, 1, 1, 5, 5, 0, 0};
        line.write_all(wire, enc.encode(s, wire));
      }
    });
    Probe p(options(line.link));
    const bool named = p.pump_until(3000, [&] { return p.state() == link::LinkState::kVersionMismatch; });
    p.pump_until(1500, [] { return false; });  // it keeps saying hello, nothing else happens
    stop = true;
    board.join();
    ASSERT_TRUE(named) << link::to_string(p.state());
    const std::string detail = p.link.status().detail;
    std::string said = "protocol ";
    said += std::to_string(version);
    EXPECT_NE(detail.find(said), std::string::npos) << detail;
    EXPECT_NE(detail.find(version > proto::kProtocolVersion ? "update the app" : "update the board's firmware"), std::string::npos) << detail;
    EXPECT_TRUE(p.frames.empty());
    EXPECT_EQ(p.state(), link::LinkState::kVersionMismatch);
    EXPECT_EQ(p.link.status().counters.sessions, 0u);
  }
}

TEST(LinkVirtualBoard, RequestsWithoutABoardEndAsNotConnected) {
  Probe p(options(temp_link("nobody-here")));
  p.pump_until(1000, [&] { return p.link.status().detail.find("no device") != std::string::npos; });
  EXPECT_EQ(p.state(), link::LinkState::kWaiting);
  EXPECT_NE(p.link.status().detail.find("no device"), std::string::npos);
  const auto d = p.wait_done(p.link.change_param(7, proto::ParamValue::of_real(30.0)), 1000);
  ASSERT_TRUE(d.has_value());
  EXPECT_EQ(d->outcome, link::Outcome::kNotConnected);
}
