// The board's link logic over a fake transport: handshake, parameter validation, commands,
// frame pacing, the protocol test vectors, garbage.
#include <gtest/gtest.h>

#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "flockscope/board/board.hpp"
#include "flockscope/board/draw.hpp"
#include "flockscope/board/host_storage.hpp"
#include "flockscope/core/rng.hpp"

namespace fb = flockscope::board;
namespace proto = flockscope::protocol;
using proto::Message;
using proto::MsgType;
using proto::ParamValue;
using proto::Status;

namespace {

struct FakeIo : fb::Transport {
  std::vector<std::uint8_t> to_board, from_board;
  std::size_t budget = SIZE_MAX;  // bytes the "link" takes per frame
  bool conn = true;
  std::size_t read(std::uint8_t* buf, std::size_t cap) override {
    const std::size_t n = std::min(cap, to_board.size());
    if (n == 0) return 0;
    std::memcpy(buf, to_board.data(), n);
    to_board.erase(to_board.begin(), to_board.begin() + std::ptrdiff_t(n));
    return n;
  }
  std::size_t write(const std::uint8_t* buf, std::size_t n) override {
    n = std::min(n, budget);
    if (budget != SIZE_MAX) budget -= n;
    from_board.insert(from_board.end(), buf, buf + n);
    return n;
  }
  bool connected() override { return conn; }
};

struct App {
  proto::Encoder enc;
  proto::StaticDecoder<> dec;
  std::vector<Message> got;
  void send(FakeIo& io, Message m) {
    std::uint8_t wire[proto::kMaxWireSize];
    const std::size_t n = enc.encode(m, wire);
    io.to_board.insert(io.to_board.end(), wire, wire + n);
  }
  void collect(FakeIo& io) {
    auto m = std::make_unique<Message>();
    std::span<const std::uint8_t> in(io.from_board);
    while (dec.next(in, *m)) got.push_back(*m);
    io.from_board.clear();
  }
  std::vector<Message> of(MsgType t) const {
    std::vector<Message> r;
    for (const auto& m : got)
      if (m.type == t) r.push_back(m);
    return r;
  }
};

struct Rig {
  fb::HostFlockStorage storage{4000};
  std::unique_ptr<fb::Board> board;
  FakeIo io;
  App app;
  std::uint64_t t = 1000000;
  explicit Rig(std::uint32_t boids = 300) {
    fb::BoardConfig cfg;
    cfg.role = proto::Role::kVirtualBoard;
    cfg.name = "test";
    cfg.boids = boids;
    board = std::make_unique<fb::Board>(cfg, storage.buffers);
  }
  std::size_t budget_per_frame = SIZE_MAX;
  void frame() {
    io.budget = budget_per_frame;
    board->frame_start(io, t);
    if (board->running()) board->flock().step();
    board->frame_end(t + 5000, 5000);
    board->pump(io);
    t += 33333;
    app.collect(io);
  }
  void hello() {
    app.send(io, proto::make_hello(proto::Role::kApp, 0, 1, 0, 100000, 0x1FF, "test-app"));
    frame();
  }
  Message request(Message m) {
    app.got.clear();
    app.send(io, m);
    const std::uint16_t seq = std::uint16_t(app.enc.next_seq() - 1);
    frame();
    for (const auto& a : app.of(MsgType::kAck))
      if (a.ack.ref_seq == seq) return a;
    ADD_FAILURE() << "no ack for seq " << seq;
    return Message{};
  }
};

}  // namespace

TEST(BoardLink, SaysHelloOnConnectAndStreamsAfterTheAppsHello) {
  Rig r;
  r.frame();
  ASSERT_EQ(r.app.of(MsgType::kHello).size(), 1u);
  const auto h = r.app.of(MsgType::kHello)[0].hello;
  EXPECT_EQ(h.role, proto::Role::kVirtualBoard);
  EXPECT_EQ(h.max_boids, 4000u);
  EXPECT_TRUE(r.app.of(MsgType::kFlockState).empty()) << "no streams before the app's hello";
  r.app.got.clear();
  r.hello();
  EXPECT_EQ(r.app.of(MsgType::kHello).size(), 1u);
  ASSERT_EQ(r.app.of(MsgType::kParamSet).size(), 1u);
  EXPECT_EQ(r.app.of(MsgType::kParamSet)[0].param_set.count, fb::kParamCount);
  r.app.got.clear();
  r.frame();
  const auto chunks = r.app.of(MsgType::kFlockState);
  ASSERT_EQ(chunks.size(), 3u);  // 300 boids: 120 + 120 + 60
  EXPECT_EQ(chunks[2].flock_state.offset + chunks[2].flock_state.count, 300u);
  EXPECT_EQ(r.app.of(MsgType::kMetrics).size(), 1u);
  EXPECT_EQ(r.app.of(MsgType::kStats).size(), 1u);
  EXPECT_EQ(r.app.of(MsgType::kPredators).size(), 1u);
  EXPECT_EQ(r.app.of(MsgType::kStats)[0].stats.boid_count, 300u);
  // Order: chunks, then predators, metrics, stats.
  EXPECT_EQ(r.app.got.back().type, MsgType::kStats);
}

TEST(BoardLink, ParameterValidation) {
  Rig r;
  r.hello();
  Message a = r.request(proto::make_param_change(fb::pid::visualRange, ParamValue::of_real(30)));
  EXPECT_EQ(a.ack.status, Status::kOk);
  EXPECT_EQ(a.ack.subject, fb::pid::visualRange);
  EXPECT_EQ(a.ack.value.as_real(), 30.0);
  EXPECT_EQ(r.board->params().active(fb::pid::visualRange), 30.0);

  a = r.request(proto::make_param_change(fb::pid::visualRange, ParamValue::of_real(500)));
  EXPECT_EQ(a.ack.status, Status::kOutOfRange) << "board limit 127 px";
  EXPECT_EQ(a.ack.value.as_real(), 30.0) << "the unchanged value";

  a = r.request(proto::make_param_change(fb::pid::visualRange, ParamValue::of_int(30)));
  EXPECT_EQ(a.ack.status, Status::kWrongType);
  EXPECT_EQ(a.ack.value.type, proto::ParamType::kReal);

  a = r.request(proto::make_param_change(999, ParamValue::of_int(1)));
  EXPECT_EQ(a.ack.status, Status::kUnknownId);

  a = r.request(proto::make_param_change(fb::pid::width, ParamValue::of_real(320)));
  EXPECT_EQ(a.ack.status, Status::kReadOnly);
  a = r.request(proto::make_param_change(fb::pid::width, ParamValue::of_real(640)));
  EXPECT_TRUE(proto::is_accepted(a.ack.status)) << "setting the value it has is fine";

  // The literal readings the board does not implement: refused, the defaults accepted.
  for (const std::uint16_t id : {fb::pid::update, fb::pid::bias_target, fb::pid::report_divisor}) {
    a = r.request(proto::make_param_change(id, ParamValue::of_choice(1)));
    EXPECT_EQ(a.ack.status, Status::kReadOnly) << id;
    EXPECT_EQ(a.ack.value.bits, 0u) << id;
    a = r.request(proto::make_param_change(id, ParamValue::of_choice(0)));
    EXPECT_TRUE(proto::is_accepted(a.ack.status)) << id;
  }

  // The lab's extensions: acknowledged with the value in force (food's count at the next
  // reset), within the board's limits (food_range at most 181 px: its square in Q16.16).
  a = r.request(proto::make_param_change(fb::pid::predator_mode, ParamValue::of_choice(2)));
  EXPECT_EQ(a.ack.status, Status::kOk);
  EXPECT_EQ(a.ack.value.bits, 2u);
  a = r.request(proto::make_param_change(fb::pid::perch_frames, ParamValue::of_int(90)));
  EXPECT_EQ(a.ack.status, Status::kOk);
  EXPECT_EQ(a.ack.value.bits, 90u);
  a = r.request(proto::make_param_change(fb::pid::food, ParamValue::of_int(2)));
  EXPECT_EQ(a.ack.status, Status::kOkAtReset);
  a = r.request(proto::make_param_change(fb::pid::food_range, ParamValue::of_real(200)));
  EXPECT_EQ(a.ack.status, Status::kOutOfRange);
  EXPECT_EQ(a.ack.value.as_real(), 150.0);
  a = r.request(proto::make_param_change(fb::pid::perch_frames, ParamValue::of_int(0)));
  EXPECT_TRUE(proto::is_accepted(a.ack.status));

  a = r.request(proto::make_param_change(fb::pid::seed, ParamValue::of_int(77)));
  EXPECT_EQ(a.ack.status, Status::kOkAtReset);
  EXPECT_EQ(r.board->params().pending(fb::pid::seed), 77.0);

  a = r.request(proto::make_param_change(fb::pid::maxspeed, ParamValue::of_real(std::nan(""))));
  EXPECT_EQ(a.ack.status, Status::kOutOfRange);

  // param_set: all or nothing.
  Message ps{};
  ps.type = MsgType::kParamSet;
  ps.version = proto::kProtocolVersion;
  ps.param_set = {};
  ps.param_set.total = 2;
  ps.param_set.count = 2;
  ps.param_set.params[0] = {fb::pid::avoidfactor, ParamValue::of_real(0.07)};
  ps.param_set.params[1] = {fb::pid::matchingfactor, ParamValue::of_real(-1)};
  a = r.request(ps);
  EXPECT_EQ(a.ack.status, Status::kOutOfRange);
  EXPECT_EQ(a.ack.subject, fb::pid::matchingfactor);
  EXPECT_EQ(r.board->params().active(fb::pid::avoidfactor), 0.05) << "nothing of the chunk applied";
  ps.param_set.params[1] = {fb::pid::matchingfactor, ParamValue::of_real(0.06)};
  a = r.request(ps);
  EXPECT_EQ(a.ack.status, Status::kOk);
  EXPECT_EQ(a.ack.value.as_int(), 2);
  EXPECT_EQ(r.board->params().active(fb::pid::avoidfactor), 0.07);
}

// The stats say which path the frame's rules took: the fast one for the lab's parameters,
// the general one when the fast path's conditions do not hold (dt other than 1 here).
TEST(BoardLink, StatsSayWhichRulesPathTheFrameTook) {
  Rig r;
  r.hello();
  r.frame();
  ASSERT_FALSE(r.app.of(MsgType::kStats).empty());
  EXPECT_FALSE(r.app.of(MsgType::kStats).back().stats.flags & proto::kStatsFlagGeneralRules);
  const Message a = r.request(proto::make_param_change(fb::pid::dt, ParamValue::of_real(0.5)));
  ASSERT_EQ(a.ack.status, Status::kOk);
  r.frame();
  EXPECT_TRUE(r.app.of(MsgType::kStats).back().stats.flags & proto::kStatsFlagGeneralRules);
}

TEST(BoardLink, Commands) {
  Rig r;
  r.hello();
  Message a = r.request(proto::make_command(proto::CommandId::kPause));
  EXPECT_EQ(a.ack.status, Status::kOk);
  const std::uint32_t f = r.board->flock().frame();
  r.frame();
  EXPECT_EQ(r.board->flock().frame(), f) << "paused";
  EXPECT_TRUE(r.app.of(MsgType::kStats).back().stats.flags & proto::kStatsFlagPaused);
  a = r.request(proto::make_command(proto::CommandId::kResume));
  EXPECT_FALSE(a.ack.value.as_bool());
  r.frame();
  EXPECT_GT(r.board->flock().frame(), f);

  a = r.request(proto::make_command(proto::CommandId::kSetBoidCount, 1000));
  EXPECT_EQ(a.ack.status, Status::kOk);
  EXPECT_EQ(r.board->flock().size(), 1000u);
  a = r.request(proto::make_command(proto::CommandId::kSetBoidCount, 100000));
  EXPECT_EQ(a.ack.status, Status::kOutOfRange);
  EXPECT_EQ(a.ack.value.as_int(), 1000);

  a = r.request(proto::make_command(proto::CommandId::kPredators, 0));
  EXPECT_EQ(a.ack.status, Status::kOk);
  EXPECT_EQ(r.board->flock().predator_count(), 0u);
  r.frame();
  EXPECT_EQ(r.app.of(MsgType::kPredators).back().predators.count, 0);

  a = r.request(proto::make_command(proto::CommandId::kReset, 42));
  EXPECT_EQ(a.ack.value.as_int(), 42);
  EXPECT_LE(r.board->flock().frame(), 1u);

  a = r.request(proto::make_command(proto::CommandId::kStreams, proto::stream::kStats));
  EXPECT_EQ(a.ack.value.as_int(), proto::stream::kStats);
  r.app.got.clear();
  r.frame();
  EXPECT_TRUE(r.app.of(MsgType::kFlockState).empty());
  EXPECT_EQ(r.app.of(MsgType::kStats).size(), 1u);

  a = r.request(proto::make_command(proto::CommandId::kRequestParams));
  EXPECT_EQ(a.ack.value.as_int(), std::int64_t(fb::kParamCount));
  EXPECT_EQ(r.app.of(MsgType::kParamSet).size(), 1u);

  a = r.request(proto::make_command(static_cast<proto::CommandId>(99)));
  EXPECT_EQ(a.ack.status, Status::kUnknownId);
  EXPECT_EQ(a.ack.subject, 99);
}

TEST(BoardLink, SlowLinkDecimatesStateButKeepsMetricsEveryFrame) {
  Rig r(2000);
  r.hello();
  r.budget_per_frame = 6000;  // about a third of a 2000-boid frame per frame
  std::vector<std::uint32_t> offsets;
  int metrics = 0, frames = 12;
  for (int i = 0; i < frames; ++i) {
    r.app.got.clear();
    r.frame();
    metrics += int(r.app.of(MsgType::kMetrics).size());
    for (const auto& c : r.app.of(MsgType::kFlockState)) offsets.push_back(c.flock_state.offset);
  }
  EXPECT_GE(metrics, frames - 2);  // the last frame's tail is still on its way
  EXPECT_GT(r.board->counters().tx_dropped, 0u);
  // Every chunk offset still gets sent.
  for (std::uint32_t off = 0; off < 2000; off += 120)
    EXPECT_NE(std::find(offsets.begin(), offsets.end(), off), offsets.end()) << off;
}

TEST(BoardLink, SurvivesGarbageAndHalfFrames) {
  Rig r;
  r.hello();
  std::vector<std::uint8_t> junk;
  for (int i = 0; i < 5000; ++i) junk.push_back(std::uint8_t(i * 37 + 11));
  r.io.to_board.insert(r.io.to_board.end(), junk.begin(), junk.end());
  r.frame();
  // Half a frame, then a whole request.
  std::uint8_t wire[proto::kMaxWireSize];
  Message m = proto::make_param_change(fb::pid::turnfactor, ParamValue::of_real(0.3));
  const std::size_t n = r.app.enc.encode(m, wire);
  r.io.to_board.insert(r.io.to_board.end(), wire, wire + n / 2);
  r.frame();
  const Message a = r.request(proto::make_param_change(fb::pid::turnfactor, ParamValue::of_real(0.4)));
  EXPECT_EQ(a.ack.status, Status::kOk);
  EXPECT_GT(r.board->rx_stats().errors(), 0u);
  r.frame();
  EXPECT_FALSE(r.app.of(MsgType::kFlockState).empty());
}

TEST(BoardLink, ProtocolTestVectors) {
  // Every request vector gets an ack naming it; every vector leaves the board running.
  Rig r;
  r.hello();
  const std::filesystem::path dir = FLOCKSCOPE_TEST_VECTOR_DIR;
  int requests = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".hex") continue;
    std::ifstream in(e.path());
    std::string line, hex;
    while (std::getline(in, line))
      if (!line.empty() && line[0] != '#') hex += line + " ";
    std::istringstream hs(hex);
    std::vector<std::uint8_t> bytes;
    unsigned v;
    while (hs >> std::hex >> v) bytes.push_back(std::uint8_t(v));
    proto::StaticDecoder<> d;
    auto msg = std::make_unique<Message>();
    std::span<const std::uint8_t> sp(bytes);
    const bool delivered = d.next(sp, *msg);
    r.app.got.clear();
    r.io.to_board.insert(r.io.to_board.end(), bytes.begin(), bytes.end());
    r.frame();
    if (delivered && msg->version == proto::kProtocolVersion &&
        (msg->type == MsgType::kParamChange || msg->type == MsgType::kCommand || msg->type == MsgType::kParamSet ||
         !proto::is_known(msg->type))) {
      ++requests;
      bool acked = false;
      for (const auto& a : r.app.of(MsgType::kAck))
        acked |= a.ack.ref_seq == msg->seq && a.ack.ref_type == msg->type;
      EXPECT_TRUE(acked) << e.path().filename();
    }
  }
  EXPECT_GE(requests, 5);
  // The worked example: visualRange 40.0 accepted and echoed (PROTOCOL.md section 14).
  EXPECT_EQ(r.board->params().active(fb::pid::visualRange), 40.0);
  r.frame();
  EXPECT_FALSE(r.app.of(MsgType::kStats).empty());
}

TEST(BoardLink, DisconnectStopsStreamsReconnectSaysHello) {
  Rig r;
  r.hello();
  r.io.conn = false;
  r.app.got.clear();
  r.frame();
  EXPECT_TRUE(r.app.got.empty());
  EXPECT_FALSE(r.board->session());
  r.io.conn = true;
  r.frame();
  EXPECT_EQ(r.app.of(MsgType::kHello).size(), 1u);
  EXPECT_TRUE(r.app.of(MsgType::kFlockState).empty());
}

TEST(BoardPacing, DeadlinesFpsAndSpare) {
  fb::FramePacer p(33333);
  std::uint64_t t = 5000000;
  std::uint64_t d = p.begin(t);
  EXPECT_EQ(d, t + 33333);
  for (int i = 0; i < 60; ++i) {
    p.end_work(t + 10000);
    EXPECT_EQ(p.spare_us(), 23333);
    t = d;  // on time
    d = p.begin(t);
  }
  EXPECT_EQ(d, t + 33333);
  EXPECT_NEAR(p.fps(), 30.0, 0.05);
  // A late frame restarts the schedule instead of rushing the next ones.
  p.end_work(t + 50000);
  EXPECT_LT(p.spare_us(), 0);
  t += 50000;
  d = p.begin(t);
  EXPECT_EQ(d, t + 33333);
}

TEST(BoardPacing, AutoSpawnFillsTheBudgetThenStops) {
  fb::AutoSpawn s;
  s.start();
  std::uint32_t n = 50;
  // A frame costs 10 us per boid: the budget (80 % of 33,333 us) is reached near 2,666.
  for (int i = 0; i < 200; ++i) n = s.next_count(n * 10, 33333, n, 4000);
  EXPECT_FALSE(s.spawning());
  EXPECT_GE(n, 2600u);
  EXPECT_LE(n, 2720u);
  // Capacity bounds it.
  fb::AutoSpawn s2;
  s2.start();
  std::uint32_t m = 50;
  for (int i = 0; i < 200; ++i) m = s2.next_count(100, 33333, m, 1000);
  EXPECT_EQ(m, 1000u);
  // Persistently late frames shed boids.
  for (int i = 0; i < 15; ++i) m = s2.next_count(40000, 33333, m, 1000);
  EXPECT_LT(m, 1000u);
}

// The two cores' drawing (firmware_pico/main.cpp): each clears its own band of rows and
// draws the dots that touch it. Each band's clear and dots stay inside its rows (the other
// band's rows keep their bits, whatever the order), and together, for any split, the
// bands make exactly the frame of one core clearing the screen and drawing every dot:
// over a framebuffer of random bits, with dots on the split's rows, the screen's edges,
// the words' edges (x = 31) and off the screen.
TEST(BoardDraw, RowBandsTogetherDrawTheOneCoreFrame) {
  fb::HostFlockStorage storage(3000);
  fb::ParamStore store{fb::BoardLimits{}};
  fb::BoardFlock flock(storage.buffers);
  flock.reset(store, 9, 2000);
  for (int i = 0; i < 30; ++i) flock.step();
  // Extra boids in the last slots, at the awkward places.
  const std::int32_t spots[][2] = {{31, 239}, {31, 240}, {638, 478}, {639, 479}, {-1, 100}, {100, -1},
                                   {0, 0},    {300, 480}, {95, 119},  {96, 120},  {2000, -900}};
  const std::uint32_t n0 = flock.size(), extra = sizeof spots / sizeof spots[0];
  flock.set_size(n0 + extra);
  for (std::uint32_t i = 0; i < extra; ++i)
    flock.set_boid(n0 + i, fb::fix(spots[i][0]), fb::fix::from_raw(spots[i][1] * 65536 + 40000), fb::fix(1),
                   fb::fix(0));
  flockscope::Pcg32 rng(3);
  std::vector<std::uint32_t> start(fb::kFbWords);
  for (auto& w : start) w = rng.next();
  std::vector<std::uint32_t> one = start;
  fb::Framebuffer f1(one.data());
  f1.clear();
  for (std::uint32_t k = 0; k < flock.size(); ++k)
    f1.dot2(fb::round_q9(flock.x(k).raw) >> 9, fb::round_q9(flock.y(k).raw) >> 9);
  std::uint32_t lit = 0;
  for (const std::uint32_t w : one) lit += std::uint32_t(__builtin_popcount(w));
  EXPECT_GT(lit, 3u * 2000u);  // every dot 2x2 (some overlap)
  // The words of the rows [y0, y1) that differ between two framebuffers.
  auto rows_differ = [](const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b, int y0, int y1) {
    std::uint32_t d = 0;
    for (std::size_t i = std::size_t(y0) * fb::kFbWordsPerRow; i < std::size_t(y1) * fb::kFbWordsPerRow; ++i)
      d += a[i] != b[i];
    return d;
  };
  for (const int split : {0, 1, 16, 119, 120, 121, 239, 240, 241, 400, 479, 480}) {
    for (const bool top_first : {true, false}) {
      std::vector<std::uint32_t> two = start;
      fb::Framebuffer f2(two.data());
      auto band = [&](int y0, int y1) {
        const std::vector<std::uint32_t> before = two;
        f2.clear(y0, y1 - y0);
        fb::draw_boids_rows(f2, flock, y0, y1);
        EXPECT_EQ(rows_differ(before, two, 0, y0) + rows_differ(before, two, y1, fb::kFbHeight), 0u)
            << "band " << y0 << ".." << y1 << " wrote outside its rows";
      };
      if (top_first) band(0, split), band(split, fb::kFbHeight);
      else band(split, fb::kFbHeight), band(0, split);
      EXPECT_EQ(rows_differ(one, two, 0, fb::kFbHeight), 0u) << "split " << split;
    }
  }
}

TEST(BoardDraw, StatusLineAndFlock) {
  char line[64];
  fb::format_status(line, sizeof line, 2000, 30.04f, 125);
  EXPECT_STREQ(line, "N 2000  FPS 30.0  T 125");
  std::vector<std::uint32_t> words(fb::kFbWords, 0);
  fb::Framebuffer f(words.data());
  fb::draw_status(f, 2000, 30.0f, 125);
  int lit = 0;
  for (int y = 0; y < 20; ++y)
    for (int x = 0; x < 640; ++x) lit += f.get(x, y);
  EXPECT_GT(lit, 100);
  fb::HostFlockStorage storage(10);
  fb::ParamStore store{fb::BoardLimits{}};
  fb::BoardFlock flock(storage.buffers);
  flock.reset(store, 1, 0);
  flock.set_size(1);
  flock.set_boid(0, fb::fix(100), fb::fix(200), fb::fix(1), fb::fix(0));
  f.clear();
  fb::draw_flock(f, flock);
  EXPECT_TRUE(f.get(100, 200));
  EXPECT_TRUE(f.get(101, 201));
  EXPECT_FALSE(f.get(105, 200));
}

// The status line's text, drawn a glyph row at a time into the framebuffer's words: the
// digit 1 at scale 1 as its font rows say (2, 6, 2, 2, 7: the leftmost dot in bit 2); at
// any x, across the words' edges, the same pixels as at x = 0 moved by x; at scale k each
// pixel of scale 1 as a k x k block; cut by the screen's edges, the visible part of it.
TEST(BoardDraw, TextIsTheFontAtAnyPlaceAndScale) {
  std::vector<std::uint32_t> words(fb::kFbWords, 0);
  fb::Framebuffer f(words.data());
  EXPECT_EQ(f.text(0, 0, "1", 1), 4);
  const char* one[5] = {".#.", "##.", ".#.", ".#.", "###"};
  for (int r = 0; r < 5; ++r)
    for (int c = 0; c < 4; ++c) EXPECT_EQ(f.get(c, r), c < 3 && one[r][c] == '#') << c << "," << r;
  const char* s = "N 2000  FPS 30.0  T 125";
  for (int scale = 1; scale <= 3; ++scale) {
    f.clear();
    const int w = f.text(0, 0, s, scale);
    EXPECT_EQ(w, 4 * scale * int(std::strlen(s)));
    std::vector<std::uint8_t> ref(std::size_t(w) * 5 * scale);
    int lit = 0;
    for (int y = 0; y < 5 * scale; ++y)
      for (int x = 0; x < w; ++x) lit += ref[std::size_t(y * w + x)] = f.get(x, y);
    EXPECT_GT(lit, 50 * scale * scale);
    if (scale > 1) {
      std::vector<std::uint32_t> words1(fb::kFbWords, 0);
      fb::Framebuffer f1(words1.data());
      f1.text(0, 0, s, 1);
      for (int y = 0; y < 5 * scale; ++y)
        for (int x = 0; x < w; ++x) ASSERT_EQ(ref[std::size_t(y * w + x)], f1.get(x / scale, y / scale)) << x << "," << y;
    }
    for (const int x0 : {1, 5, 27, 28, 29, 30, 31, 32, 63, 300, 545, 560, 620, -3, -40}) {
      for (const int y0 : {0, 7, 470, -2}) {
        f.clear();
        f.text(x0, y0, s, scale);
        for (int y = 0; y < fb::kFbHeight; y += (y < 20 || y > 460) ? 1 : 100)
          for (int x = 0; x < fb::kFbWidth; ++x) {
            const int rx = x - x0, ry = y - y0;
            const bool want = rx >= 0 && rx < w && ry >= 0 && ry < 5 * scale && ref[std::size_t(ry * w + rx)];
            ASSERT_EQ(f.get(x, y), want) << "scale " << scale << " at " << x0 << "," << y0 << ": pixel " << x << "," << y;
          }
      }
    }
  }
}

// Predator crosses (7x7, cut by the screen's edges), and the firmware's clear of a band of
// rows (one band per core): two bands together clear every pixel draw_predators() set, also
// for a cross cut by the split row, and the first band nothing of the second's rows.
TEST(BoardDraw, PredatorCrossesClearInBands) {
  std::vector<std::uint32_t> words(fb::kFbWords, 0);
  fb::Framebuffer f(words.data());
  fb::HostFlockStorage storage(10);
  fb::ParamStore store{fb::BoardLimits{}};
  store.force(fb::pid::predators, 4);
  fb::BoardFlock flock(storage.buffers);
  flock.reset(store, 1, 0);
  const int at[4][2] = {{100, 240}, {0, 0}, {639, 479}, {320, 238}};  // the last crosses row 240
  for (int i = 0; i < 4; ++i)
    flock.set_predator(std::uint32_t(i), {fb::fix(at[i][0]), fb::fix(at[i][1]), fb::fix(1), fb::fix(0)});
  fb::draw_predators(f, flock);
  int lit = 0;
  for (int y = 0; y < fb::kFbHeight; ++y)
    for (int x = 0; x < fb::kFbWidth; ++x) lit += f.get(x, y);
  EXPECT_EQ(lit, 25 + 10 + 10 + 25);  // 7x7 crosses of 25 pixels, two cut to 10 by the corners
  f.clear(0, 240);  // the top band's rows: the crosses there go, the rows below stay
  EXPECT_FALSE(f.get(320, 238));
  EXPECT_FALSE(f.get(0, 0));
  EXPECT_TRUE(f.get(320, 240));
  EXPECT_TRUE(f.get(100, 240));
  f.clear(240, fb::kFbHeight - 240);
  lit = 0;
  for (int y = 0; y < fb::kFbHeight; ++y)
    for (int x = 0; x < fb::kFbWidth; ++x) lit += f.get(x, y);
  EXPECT_EQ(lit, 0);
}

TEST(BoardLink, MetricsCoverAllBoidsWhenTheStateStreamIsOff) {
  Rig r(2000);
  r.hello();
  r.app.got.clear();
  r.frame();
  // State on: the app has every boid; the board's message is a sample (every 16th of 2,000).
  ASSERT_EQ(r.app.of(MsgType::kMetrics).size(), 1u);
  EXPECT_EQ(r.app.of(MsgType::kMetrics)[0].metrics.boids, 125u);
  r.request(proto::make_command(proto::CommandId::kStreams, proto::stream::kMetrics | proto::stream::kStats));
  r.app.got.clear();
  r.frame();
  EXPECT_TRUE(r.app.of(MsgType::kFlockState).empty());
  ASSERT_EQ(r.app.of(MsgType::kMetrics).size(), 1u);
  const auto m = r.app.of(MsgType::kMetrics)[0].metrics;
  EXPECT_EQ(m.boids, 2000u);  // state off: the message is the app's only source, exact
  const auto all = r.board->flock().metrics(0);
  EXPECT_EQ(m.diameter, all.diameter);
  EXPECT_EQ(m.polarisation, all.polarisation);
  // Paused: no state goes out, so the metrics are exact as well.
  r.request(proto::make_command(proto::CommandId::kStreams, proto::stream::kAll));
  r.request(proto::make_command(proto::CommandId::kPause));
  r.app.got.clear();
  r.frame();
  ASSERT_EQ(r.app.of(MsgType::kMetrics).size(), 1u);
  EXPECT_EQ(r.app.of(MsgType::kMetrics)[0].metrics.boids, 2000u);
}

TEST(BoardLink, StateChunksAreTheEncodersBytes) {
  // The board writes its state chunks itself (straight from Q16.16 into the ring); every
  // frame it sends must be byte for byte what protocol::encode makes of the same message,
  // with and without scout groups.
  for (const double scouts : {0.0, 40.0}) {
    Rig r(300);
    if (scouts > 0) {
      r.board->set_param(fb::pid::scouts1, ParamValue::of_int(std::int64_t(scouts)));
      r.board->reset(3);
    }
    r.hello();
    r.io.budget = SIZE_MAX;
    r.board->frame_start(r.io, r.t);
    r.board->flock().step();
    r.board->frame_end(r.t + 5000, 5000);
    r.board->pump(r.io);
    const std::vector<std::uint8_t> wire = r.io.from_board;
    int chunks = 0;
    std::size_t i = 0;
    while (i < wire.size()) {
      ASSERT_EQ(wire[i], 0);
      std::size_t j = i + 1;
      while (j < wire.size() && wire[j] != 0) ++j;
      ASSERT_LT(j, wire.size());
      proto::StaticDecoder<> dec;
      Message m{};
      std::span<const std::uint8_t> one(wire.data() + i, j + 1 - i);
      ASSERT_TRUE(dec.next(one, m));
      std::uint8_t again[proto::kMaxWireSize];
      const std::size_t n = proto::encode(m, again);
      ASSERT_EQ(std::vector<std::uint8_t>(again, again + n), std::vector<std::uint8_t>(wire.begin() + std::ptrdiff_t(i), wire.begin() + std::ptrdiff_t(j + 1)));
      if (m.type == MsgType::kFlockState) {
        ++chunks;
        EXPECT_EQ(m.flock_state.flags != 0, scouts > 0);
      }
      i = j + 1;
    }
    EXPECT_EQ(chunks, 3);
  }
}
