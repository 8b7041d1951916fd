// encode_flock_state: float arrays -> quantised chunks -> decoder -> the same
// quantised flock.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "test_support.hpp"

namespace {

using namespace flockscope::protocol;

TEST(ProtocolQuantise, RoundsHalfAwayFromZeroAndSaturates) {
  EXPECT_EQ(quantise(0.0f, 4), 0);
  EXPECT_EQ(quantise(1.0f, 4), 16);
  EXPECT_EQ(quantise(1.03125f, 4), 17);    // 16.5 -> 17
  EXPECT_EQ(quantise(-1.03125f, 4), -17);  // -16.5 -> -17
  EXPECT_EQ(quantise(1.0312f, 4), 16);
  EXPECT_EQ(quantise(0.49999997f, 0), 0);  // the classic "+0.5 then truncate" slip
  EXPECT_EQ(quantise(-0.49999997f, 0), 0);
  EXPECT_EQ(quantise(2047.96875f, 4), 32767);
  EXPECT_EQ(quantise(5000.0f, 4), 32767);
  EXPECT_EQ(quantise(-5000.0f, 4), -32768);
  EXPECT_EQ(quantise(std::numeric_limits<float>::infinity(), 8), 32767);
  EXPECT_EQ(quantise(-std::numeric_limits<float>::infinity(), 8), -32768);
  EXPECT_EQ(quantise(std::numeric_limits<float>::quiet_NaN(), 8), 0);
  EXPECT_EQ(quantise(6.0f, 8), 1536);
  EXPECT_FLOAT_EQ(dequantise(1536, 8), 6.0f);
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> u(-2000.f, 2000.f);
  for (int i = 0; i < 100000; ++i) {
    const float v = u(rng);
    const float err = std::fabs(dequantise(quantise(v, 4), 4) - v);
    ASSERT_LE(err, 1.0f / 32.0f + 1e-4f) << v;
  }
}

struct Flock {
  std::vector<float> x, y, vx, vy;
  std::vector<std::uint8_t> g;
  BoidArrays view(bool groups) const { return {x, y, vx, vy, groups ? std::span<const std::uint8_t>(g) : std::span<const std::uint8_t>()}; }
};

Flock random_flock(std::size_t n, std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> px(0.f, 640.f), py(0.f, 480.f), v(-6.f, 6.f);
  Flock f;
  for (std::size_t i = 0; i < n; ++i) {
    f.x.push_back(px(rng));
    f.y.push_back(py(rng));
    f.vx.push_back(v(rng));
    f.vy.push_back(v(rng));
    f.g.push_back(static_cast<std::uint8_t>(rng() % 3));
  }
  return f;
}

TEST(ProtocolFlockState, AllChunksDecodeToTheQuantisedFlock) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{119}, std::size_t{120}, std::size_t{121},
                        std::size_t{2000}, std::size_t{2401}}) {
    for (bool groups : {false, true}) {
      SCOPED_TRACE(::testing::Message() << n << (groups ? " groups" : ""));
      const Flock f = random_flock(n, static_cast<std::uint32_t>(n));
      StateEncoding enc;
      enc.frame = 77;
      Encoder encoder(100);
      std::vector<std::uint8_t> out(flock_state_wire_bound(n, groups));
      const std::size_t w = encode_flock_state(f.view(groups), enc, encoder, out);
      ASSERT_GT(w, 0u);
      ASSERT_LE(w, out.size());
      const std::size_t chunks = n == 0 ? 1 : (n + kMaxBoidsPerChunk - 1) / kMaxBoidsPerChunk;
      EXPECT_EQ(encoder.next_seq(), 100 + chunks);

      const ptest::Decoded d = ptest::decode_all(std::span<const std::uint8_t>(out.data(), w), 61);
      ASSERT_EQ(d.msgs.size(), chunks);
      EXPECT_EQ(d.stats.errors(), 0u);
      std::size_t next = 0;
      for (const Message& m : d.msgs) {
        ASSERT_EQ(m.type, MsgType::kFlockState);
        const FlockState& s = m.flock_state;
        EXPECT_EQ(s.frame, 77u);
        EXPECT_EQ(s.total, n);
        EXPECT_EQ(s.offset, next);
        EXPECT_EQ(s.pos_shift, 4);
        EXPECT_EQ(s.vel_shift, 8);
        EXPECT_EQ(s.flags, groups && n > 0 ? kStateFlagGroups : 0);  // an empty flock has no group array
        for (std::size_t i = 0; i < s.count; ++i) {
          const std::size_t k = next + i;
          ASSERT_EQ(s.boids[i].x, quantise(f.x[k], 4));
          ASSERT_EQ(s.boids[i].y, quantise(f.y[k], 4));
          ASSERT_EQ(s.boids[i].vx, quantise(f.vx[k], 8));
          ASSERT_EQ(s.boids[i].vy, quantise(f.vy[k], 8));
          if (groups) {
            ASSERT_EQ(s.groups[i], f.g[k]);
          }
        }
        next += s.count;
      }
      EXPECT_EQ(next, n);
    }
  }
}

TEST(ProtocolFlockState, SameBytesAsTheMessagePath) {
  // The direct path and "fill a FlockState Message, encode()" agree byte for byte.
  const Flock f = random_flock(300, 5);
  StateEncoding enc;
  enc.frame = 9;
  enc.pos_shift = 3;
  enc.vel_shift = 9;
  enc.boids_per_chunk = 100;
  Encoder e1(7);
  std::vector<std::uint8_t> direct(flock_state_wire_bound(300, true, 100));
  direct.resize(encode_flock_state(f.view(true), enc, e1, direct));

  Encoder e2(7);
  std::vector<std::uint8_t> via;
  for (std::size_t off = 0; off < 300; off += 100) {
    Message m{};
    m.type = MsgType::kFlockState;
    m.version = kProtocolVersion;
    FlockState& s = m.flock_state;
    s = {9, 300, static_cast<std::uint32_t>(off), 100, 3, 9, kStateFlagGroups, {}, {}};
    for (std::size_t i = 0; i < 100; ++i) {
      s.boids[i] = {quantise(f.x[off + i], 3), quantise(f.y[off + i], 3), quantise(f.vx[off + i], 9),
                    quantise(f.vy[off + i], 9)};
      s.groups[i] = f.g[off + i];
    }
    std::vector<std::uint8_t> w(kMaxWireSize);
    w.resize(e2.encode(m, w));
    via.insert(via.end(), w.begin(), w.end());
  }
  EXPECT_EQ(direct, via);
}

TEST(ProtocolFlockState, ChunkAtATime) {
  const Flock f = random_flock(250, 8);
  StateEncoding enc;
  Encoder e1, e2;
  std::vector<std::uint8_t> all(flock_state_wire_bound(250, false));
  all.resize(encode_flock_state(f.view(false), enc, e1, all));
  std::vector<std::uint8_t> pieces;
  for (std::size_t off = 0; off < 250; off += kMaxBoidsPerChunk) {
    std::vector<std::uint8_t> w(kMaxWireSize);
    w.resize(encode_flock_state_chunk(f.view(false), enc, off, e2, w));
    ASSERT_FALSE(w.empty());
    pieces.insert(pieces.end(), w.begin(), w.end());
  }
  EXPECT_EQ(all, pieces);
  std::vector<std::uint8_t> w(kMaxWireSize);
  EXPECT_EQ(encode_flock_state_chunk(f.view(false), enc, 250, e2, w), 0u);
}

TEST(ProtocolFlockState, RefusesBadInputWithoutUsingASequenceNumber) {
  Flock f = random_flock(500, 9);
  Encoder encoder(5);
  std::vector<std::uint8_t> out(flock_state_wire_bound(500, true));
  StateEncoding enc;
  std::vector<std::uint8_t> small(out.size() - 1);
  EXPECT_EQ(encode_flock_state(f.view(true), enc, encoder, small), 0u);
  enc.pos_shift = 16;
  EXPECT_EQ(encode_flock_state(f.view(true), enc, encoder, out), 0u);
  enc = {};
  enc.boids_per_chunk = kMaxBoidsPerChunk + 1;
  EXPECT_EQ(encode_flock_state(f.view(true), enc, encoder, out), 0u);
  enc = {};
  f.vy.pop_back();
  EXPECT_EQ(encode_flock_state(f.view(true), enc, encoder, out), 0u);
  std::vector<std::uint8_t> tiny(10);
  EXPECT_EQ(encode_flock_state_chunk(f.view(false), enc, 0, encoder, tiny), 0u);
  EXPECT_EQ(encoder.next_seq(), 5);
}

TEST(ProtocolFlockState, BandwidthOf2000BoidsAt30Fps) {
  // PROTOCOL.md promises that 2000 boids at 30 fps fit a USB full-speed CDC link.
  const std::size_t per_frame = flock_state_wire_bound(2000, true);
  EXPECT_LT(per_frame * 30, 600u * 1024u);
}

}  // namespace
