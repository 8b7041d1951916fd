// Board frames put back together from the real wire: the board's own encoder writes the
// chunks, the decoder reads them, the assembler joins them. Lost chunks leave the older
// positions in place and mark the frame partial; skipped frame numbers are counted.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "link/frame_assembler.hpp"
#include "flockscope/protocol/protocol.hpp"

using namespace flockscope;
namespace proto = flockscope::protocol;

namespace {

struct Board {
  std::vector<float> x, y, vx, vy;
  std::vector<std::uint8_t> g;
  proto::Encoder enc;
  explicit Board(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
      x.push_back(float(i) * 0.5f), y.push_back(100.0f + float(i % 7)), vx.push_back(1.25f), vy.push_back(-0.5f);
      g.push_back(std::uint8_t(i % 3));
    }
  }
  // The messages of one frame: state chunks, then predators, metrics, stats.
  std::vector<proto::Message> frame(std::uint32_t f) {
    std::vector<std::uint8_t> wire(proto::flock_state_wire_bound(x.size(), true));
    proto::StateEncoding e;
    e.frame = f;
    const std::size_t n = proto::encode_flock_state({x, y, vx, vy, g}, e, enc, wire);
    std::vector<proto::Message> out;
    proto::StaticDecoder<> dec;
    std::span<const std::uint8_t> in(wire.data(), n);
    proto::Message m;
    while (dec.next(in, m)) out.push_back(m);
    proto::Message pr{};
    pr.type = proto::MsgType::kPredators, pr.version = proto::kProtocolVersion;
    pr.predators = {f, 1, 4, 8, {{160, 320, 256, 0}}};
    out.push_back(pr);
    proto::Message me{};
    me.type = proto::MsgType::kMetrics, me.version = proto::kProtocolVersion;
    me.metrics = {f, 12.5f, 100, 200, 0.75f, 1.5f, 128};
    out.push_back(me);
    proto::Message st{};
    st.type = proto::MsgType::kStats, st.version = proto::kProtocolVersion;
    st.stats = {f, 30, 1000, 32333, std::uint32_t(x.size()), 5000, 0, 0};
    out.push_back(st);
    return out;
  }
};

}  // namespace

TEST(FrameAssembler, AFrameOf300BoidsComesBackWhole) {
  Board b(300);
  link::FrameAssembler a;
  std::vector<link::MirroredFrame> got;
  for (const auto& m : b.frame(7)) a.add(m, [&](const link::MirroredFrame& f) { got.push_back(f); });
  ASSERT_EQ(got.size(), 1u);
  const auto& f = got[0];
  EXPECT_EQ(f.frame, 7u);
  EXPECT_TRUE(f.state_complete);
  ASSERT_EQ(f.size(), 300u);
  EXPECT_EQ(f.x[299], 149.5f);  // 1/16 px quantisation is exact for these values
  EXPECT_EQ(f.y[6], 106.0f);
  EXPECT_EQ(f.vx[10], 1.25f);
  EXPECT_EQ(f.vy[10], -0.5f);
  ASSERT_EQ(f.groups.size(), 300u);
  EXPECT_EQ(f.groups[5], 2);
  ASSERT_EQ(f.predators.size(), 1u);
  EXPECT_EQ(f.predators[0].x, 10.0f);  // 160 / 16
  EXPECT_EQ(f.predators[0].vx, 1.0f);  // 256 / 256
  EXPECT_TRUE(f.has_metrics && f.has_stats);
  EXPECT_EQ(f.metrics.diameter, 12.5f);
  EXPECT_EQ(a.counters().complete, 1u);
}

TEST(FrameAssembler, LostChunkKeepsOlderPositionsAndMarksThePartialFrame) {
  Board b(300);  // chunks of 120: [0,120) [120,240) [240,300)
  link::FrameAssembler a;
  std::vector<link::MirroredFrame> got;
  auto emit = [&](const link::MirroredFrame& f) { got.push_back(f); };
  for (const auto& m : b.frame(1)) a.add(m, emit);
  for (auto& v : b.x) v += 3.0f;  // everyone moves 3 px
  auto msgs = b.frame(2);
  msgs.erase(msgs.begin() + 1);  // the second chunk is lost
  for (const auto& m : msgs) a.add(m, emit);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_FALSE(got[1].state_complete);
  EXPECT_EQ(got[1].x[0], 3.0f);           // from frame 2
  EXPECT_EQ(got[1].x[130], 65.0f);        // still frame 1's position
  EXPECT_EQ(got[1].x[250], 128.0f);       // frame 2 again
  EXPECT_EQ(a.counters().partial, 1u);
  EXPECT_EQ(a.counters().missed, 0u);
}

TEST(FrameAssembler, MissingStatsAndSkippedFramesAreCounted) {
  Board b(50);
  link::FrameAssembler a;
  std::vector<std::uint32_t> got;
  auto emit = [&](const link::MirroredFrame& f) { got.push_back(f.frame); };
  auto f1 = b.frame(1);
  f1.pop_back();  // frame 1's stats lost: frame 2's first chunk closes it
  for (const auto& m : f1) a.add(m, emit);
  EXPECT_TRUE(got.empty());
  for (const auto& m : b.frame(2)) a.add(m, emit);
  for (const auto& m : b.frame(5)) a.add(m, emit);  // 3 and 4 never came
  EXPECT_EQ(got, (std::vector<std::uint32_t>{1, 2, 5}));
  EXPECT_EQ(a.counters().missed, 2u);
  for (const auto& m : b.frame(1)) a.add(m, emit);  // the board was reset: numbering restarts
  EXPECT_EQ(a.counters().discontinuities, 1u);
  EXPECT_EQ(a.counters().frames, 4u);
}

TEST(FrameAssembler, ChunkClaimingMoreThanItsTotalIsDropped) {
  Board b(10);
  auto msgs = b.frame(3);
  msgs[0].flock_state.offset = 5;  // 5 + 10 > total 10
  link::FrameAssembler a;
  int frames = 0;
  for (const auto& m : msgs) a.add(m, [&](const link::MirroredFrame& f) {
    ++frames;
    EXPECT_FALSE(f.state_complete);
  });
  EXPECT_EQ(frames, 1);
  EXPECT_EQ(a.counters().bad_chunks, 1u);
}

namespace {

// One flock_state chunk: boids offset..offset+count of a flock of `total`, boid k at
// (10 k, 20) px.
proto::Message chunk(std::uint32_t frame, std::uint32_t total, std::uint32_t offset, std::uint16_t count) {
  proto::Message m{};
  m.type = proto::MsgType::kFlockState, m.version = proto::kProtocolVersion;
  auto& s = m.flock_state;
  s.frame = frame, s.total = total, s.offset = offset, s.count = count, s.pos_shift = 4, s.vel_shift = 4, s.flags = 0;
  for (std::uint16_t i = 0; i < count; ++i)
    s.boids[i] = {std::int16_t((offset + i) * 10 * 16), std::int16_t(20 * 16), std::int16_t(16), std::int16_t(0)};
  return m;
}

proto::Message stats(std::uint32_t frame, std::uint32_t boids) {
  proto::Message m{};
  m.type = proto::MsgType::kStats, m.version = proto::kProtocolVersion;
  m.stats = {frame, 30, 1000, 32333, boids, 5000, 0, 0};
  return m;
}

}  // namespace

TEST(FrameAssembler, AChunkClaimingMoreThanTheCapacityDropsItsFrame) {
  link::FrameAssembler a;
  a.set_capacity(100);
  EXPECT_EQ(a.capacity(), 100u);
  std::vector<link::MirroredFrame> got;
  const auto keep = [&](const link::MirroredFrame& f) { got.push_back(f); };
  a.add(chunk(1, 50, 0, 50), keep);
  a.add(stats(1, 50), keep);
  // Frame 2 claims a flock of a million: a protocol error; nothing of it is handed on.
  a.add(chunk(2, 1000000, 0, 50), keep);
  a.add(chunk(2, 50, 0, 50), keep);  // a later chunk of the same frame does not save it
  a.add(stats(2, 50), keep);
  a.add(chunk(3, 101, 0, 50), keep);  // one above the capacity
  a.add(stats(3, 101), keep);
  a.add(chunk(4, 100, 0, 100), keep);  // exactly the capacity
  a.add(stats(4, 100), keep);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].frame, 1u);
  EXPECT_EQ(got[1].frame, 4u);
  EXPECT_EQ(got[1].size(), 100u);
  EXPECT_TRUE(got[1].state_complete);
  EXPECT_EQ(a.counters().over_capacity, 2u);
  EXPECT_EQ(a.counters().bad_chunks, 2u);
  // A board announcing more than the app mirrors is held to the app's limit.
  a.set_capacity(4000000000u);
  EXPECT_EQ(a.capacity(), link::kMaxBoardBoids);
}

TEST(FrameAssembler, BoidsNeverReceivedAreLeftOutOfAPartialFrame) {
  link::FrameAssembler a;
  a.set_capacity(20000);
  std::vector<link::MirroredFrame> got;
  const auto keep = [&](const link::MirroredFrame& f) { got.push_back(f); };
  // The board says 20,000 boids but sends the state of boids 100..109 only.
  a.add(chunk(1, 20000, 100, 10), keep);
  a.add(stats(1, 20000), keep);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_FALSE(got[0].state_complete);
  ASSERT_EQ(got[0].size(), 10u);  // not 20,000 with 19,990 at the origin
  EXPECT_FLOAT_EQ(got[0].x[0], 1000.0f);
  EXPECT_FLOAT_EQ(got[0].x[9], 1090.0f);
  // Next frame: boids 0..4 arrive; boids 100..109 keep their older positions.
  a.add(chunk(2, 20000, 0, 5), keep);
  a.add(stats(2, 20000), keep);
  ASSERT_EQ(got.size(), 2u);
  ASSERT_EQ(got[1].size(), 15u);
  EXPECT_FLOAT_EQ(got[1].x[0], 0.0f);
  EXPECT_FLOAT_EQ(got[1].x[4], 40.0f);
  EXPECT_FLOAT_EQ(got[1].x[5], 1000.0f);
  // Measuring it costs what 15 boids cost: the nearest neighbour is 10 px away, not 0.
  EXPECT_NEAR(link::metrics_of(got[1], 40).mean_nn_distance, 10.0, 1e-9);
  // Every boid's state at last: the whole flock.
  a.add(chunk(3, 240, 0, 120), keep);
  a.add(chunk(3, 240, 120, 120), keep);
  a.add(stats(3, 240), keep);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_TRUE(got[2].state_complete);
  EXPECT_EQ(got[2].size(), 240u);
}

// A whole frame's metrics come from all of its boids; the board's own metrics message stands
// in only for a partial frame or a board sending no state, and says so.
TEST(FrameAssembler, MetricsComeFromTheWholeStateAndFromTheBoardOnlyWithoutIt) {
  Board b(300);
  link::FrameAssembler a;
  std::vector<link::MirroredFrame> got;
  auto emit = [&](const link::MirroredFrame& f) { got.push_back(f); };
  for (const auto& m : b.frame(1)) a.add(m, emit);
  auto partial = b.frame(2);
  partial.erase(partial.begin() + 1);  // a chunk lost
  for (const auto& m : partial) a.add(m, emit);
  auto no_state = b.frame(3);
  no_state.erase(no_state.begin(), no_state.begin() + 3);  // the state stream off: no chunks
  for (const auto& m : no_state) a.add(m, emit);
  ASSERT_EQ(got.size(), 3u);

  // Whole: x = i/2 (i < 300), y = 100 + i%7, every boid at (1.25, -0.5).
  EXPECT_TRUE(link::metrics_from_state(got[0]));
  const Metrics whole = link::metrics_of(got[0], 50);
  EXPECT_DOUBLE_EQ(whole.centroid_x, 74.75);  // mean of 0, 0.5, ..., 149.5
  EXPECT_NEAR(whole.centroid_y, 102.99, 1e-9);  // 100 + (42 x 21 + 0+1+...+5) / 300
  EXPECT_NEAR(whole.polarisation, 1.0, 1e-12);
  EXPECT_NEAR(whole.mean_speed, std::hypot(1.25, -0.5), 1e-12);
  EXPECT_NE(whole.diameter, 12.5);  // not the board's 12.5
  EXPECT_EQ(link::metrics_boids(got[0]), 300u);  // all of the frame's boids

  for (std::size_t i : {1u, 2u}) {
    EXPECT_FALSE(link::metrics_from_state(got[i])) << "frame " << got[i].frame;
    const Metrics m = link::metrics_of(got[i], 50);
    EXPECT_EQ(m.diameter, 12.5);
    EXPECT_EQ(m.centroid_x, 100);
    EXPECT_EQ(m.centroid_y, 200);
    EXPECT_EQ(m.polarisation, 0.75);
    EXPECT_EQ(m.mean_speed, 1.5);
    EXPECT_EQ(link::metrics_boids(got[i]), 128u) << "the count the board's message names";
  }
}

// A partial frame from a board that sends no metrics of its own (a student's firmware through
// the drop-in link) is measured over the boids that arrived in it, never over the older
// positions the mirror shows for the others, and says so (source partial, metrics_boids).
TEST(FrameAssembler, APartialFrameWithoutBoardMetricsIsMeasuredOverTheBoidsThatArrived) {
  link::FrameAssembler a;
  std::vector<link::MirroredFrame> got;
  const auto keep = [&](const link::MirroredFrame& f) { got.push_back(f); };
  // Frame 1, whole: 240 boids, boid k at (10 k, 20).
  a.add(chunk(1, 240, 0, 120), keep);
  a.add(chunk(1, 240, 120, 120), keep);
  a.add(stats(1, 240), keep);
  // Frame 2: only boids 0..119 arrive, each moved to (10 k, 60); boids 120..239 stay at
  // their frame-1 positions in the display copy.
  proto::Message first = chunk(2, 240, 0, 120);
  for (auto& b : first.flock_state.boids) b.y = std::int16_t(60 * 16);
  a.add(first, keep);
  a.add(stats(2, 240), keep);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(link::metrics_source(got[0]), link::MetricsSource::kState);
  const link::MirroredFrame& f = got[1];
  EXPECT_FALSE(f.state_complete);
  ASSERT_EQ(f.size(), 240u);  // the display copy: every boid, 120 of them older
  EXPECT_FLOAT_EQ(f.y[0], 60.0f);
  EXPECT_FLOAT_EQ(f.y[200], 20.0f);
  EXPECT_EQ(link::metrics_source(f), link::MetricsSource::kPartial);
  EXPECT_STREQ(link::to_string(link::metrics_source(f)), "partial");
  EXPECT_FALSE(link::metrics_from_state(f));  // shaded in the window's plots
  EXPECT_EQ(link::metrics_boids(f), 120u);
  const Metrics m = link::metrics_of(f, 40);
  // By hand over the 120 that arrived: x = 0, 10, ..., 1190 (mean 595), y = 60 for all; all
  // at (1, 0) px/frame (vx 16 at vel_shift 4).
  EXPECT_DOUBLE_EQ(m.centroid_x, 595.0);
  EXPECT_DOUBLE_EQ(m.centroid_y, 60.0);
  EXPECT_NEAR(m.mean_speed, 1.0, 1e-12);
  EXPECT_NEAR(m.mean_nn_distance, 10.0, 1e-9);
  // ... and equal to a recomputation over exactly those boids.
  std::vector<float> x, y, vx, vy;
  for (int k = 0; k < 120; ++k) x.push_back(10.0f * float(k)), y.push_back(60), vx.push_back(1), vy.push_back(0);
  const Metrics r = compute_metrics({x.data(), y.data(), vx.data(), vy.data(), x.size(), {}, {}}, 40);
  EXPECT_DOUBLE_EQ(m.diameter, r.diameter);
  EXPECT_DOUBLE_EQ(m.polarisation, r.polarisation);
  EXPECT_EQ(m.clusters, r.clusters);
}

// The lab's extensions: a board's surroundings message gives the frame its food sources (and
// so food_distance) and each predator's aim; a board that sends none leaves them empty.
TEST(FrameAssembler, SurroundingsGiveTheFrameItsFoodAndAims) {
  Board b(300);
  auto msgs = b.frame(7);
  proto::Message s{};
  s.type = proto::MsgType::kSurroundings, s.version = proto::kProtocolVersion;
  s.surroundings = {7, 2, 1, 4, {{1600, 1600}, {3200, 800}}, {{proto::kAimActive, 2400, 1600}}};
  msgs.insert(msgs.end() - 2, s);  // after predators, before metrics and stats
  link::FrameAssembler a;
  std::vector<link::MirroredFrame> got;
  for (const auto& m : msgs) a.add(m, [&](const link::MirroredFrame& f) { got.push_back(f); });
  ASSERT_EQ(got.size(), 1u);
  const auto& f = got[0];
  ASSERT_EQ(f.food.size(), 2u);
  EXPECT_EQ(f.food[0].x, 100.0f);
  EXPECT_EQ(f.food[1].y, 50.0f);
  ASSERT_EQ(f.aims.size(), 1u);
  EXPECT_TRUE(f.aims[0].active);
  EXPECT_EQ(f.aims[0].x, 150.0f);
  const Metrics m = link::metrics_of(f, 40);
  EXPECT_TRUE(std::isfinite(m.food_distance));
  Board plain(300);
  link::FrameAssembler a2;
  std::vector<link::MirroredFrame> got2;
  for (const auto& m2 : plain.frame(7)) a2.add(m2, [&](const link::MirroredFrame& g) { got2.push_back(g); });
  ASSERT_EQ(got2.size(), 1u);
  EXPECT_TRUE(got2[0].food.empty());
  EXPECT_TRUE(std::isnan(link::metrics_of(got2[0], 40).food_distance));
}
