// Random messages of every type survive encode -> decode unchanged, however the
// stream is chopped up.
#include <gtest/gtest.h>

#include <random>

#include "test_support.hpp"

namespace {

using namespace flockscope::protocol;

TEST(ProtocolRoundTrip, RandomMessagesOfEveryType) {
  std::mt19937 rng(2024);
  std::vector<std::uint8_t> wire(kMaxWireSize);
  std::vector<std::uint8_t> frame(kMaxFrameSize);
  for (int i = 0; i < 20000; ++i) {
    const Message m = ptest::random_message(rng);
    SCOPED_TRACE(to_string(m.type));
    ASSERT_TRUE(is_valid(m));
    const std::size_t n = encode(m, wire);
    ASSERT_GT(n, 0u);
    ASSERT_LE(n, kMaxWireSize);
    ASSERT_EQ(wire[0], 0);
    ASSERT_EQ(wire[n - 1], 0);
    for (std::size_t k = 1; k + 1 < n; ++k) ASSERT_NE(wire[k], 0);

    const ptest::Decoded d = ptest::decode_all(std::span<const std::uint8_t>(wire.data(), n));
    ASSERT_EQ(d.msgs.size(), 1u);
    ASSERT_TRUE(d.msgs[0] == m) << ptest::to_json(d.msgs[0]) << "\n" << ptest::to_json(m);
    // Re-encoding what was decoded gives the same bytes.
    std::vector<std::uint8_t> again(kMaxWireSize);
    ASSERT_EQ(encode(d.msgs[0], again), n);
    ASSERT_TRUE(std::equal(wire.begin(), wire.begin() + static_cast<std::ptrdiff_t>(n), again.begin()));

    // The unstuffed frame parses the same way.
    const std::size_t f = write_frame(m, frame.data(), frame.size());
    ASSERT_GT(f, 0u);
    Message p{};
    ASSERT_EQ(parse_frame(frame.data(), f, p), FrameResult::kOk);
    ASSERT_TRUE(p == m);
  }
}

TEST(ProtocolRoundTrip, EncodeNeedsRoomAndValidMessages) {
  std::mt19937 rng(5);
  for (int i = 0; i < 500; ++i) {
    const Message m = ptest::random_message(rng);
    const std::vector<std::uint8_t> full = ptest::encode_one(m);
    ASSERT_FALSE(full.empty());
    // Encoding needs the worst-case room of its frame size, which may be a few
    // bytes more than the result; anything smaller than the result must fail.
    std::vector<std::uint8_t> small(full.size() - 1, 0xEE);
    EXPECT_EQ(encode(m, small), 0u);
    bool ok = false;
    EXPECT_LE(full.size(), wire_size_bound(payload_size(m, ok)));
  }
  Message m = ptest::random_message(rng, MsgType::kFlockState);
  m.flock_state.count = kMaxBoidsPerChunk + 1;
  EXPECT_FALSE(is_valid(m));
  EXPECT_TRUE(ptest::encode_one(m).empty());
  m = ptest::random_message(rng, MsgType::kFlockState);
  m.flock_state.offset = m.flock_state.total;
  m.flock_state.count = 1;
  EXPECT_TRUE(ptest::encode_one(m).empty());
  m = ptest::random_message(rng, MsgType::kHello);
  m.hello.name_len = kMaxNameLen + 1;
  EXPECT_TRUE(ptest::encode_one(m).empty());
  m = ptest::random_message(rng, MsgType::kLog);
  m.log.length = kMaxLogText + 1;
  EXPECT_TRUE(ptest::encode_one(m).empty());
  m.type = static_cast<MsgType>(0x7F);
  EXPECT_TRUE(ptest::encode_one(m).empty());
}

TEST(ProtocolRoundTrip, EncoderNumbersFramesAndSkipsNothingOnFailure) {
  Encoder enc(65534);
  std::vector<std::uint8_t> out(kMaxWireSize);
  Message m = make_command(CommandId::kPause);
  ASSERT_GT(enc.encode(m, out), 0u);
  EXPECT_EQ(m.seq, 65534);
  std::vector<std::uint8_t> tiny(4);
  EXPECT_EQ(enc.encode(m, tiny), 0u);
  ASSERT_GT(enc.encode(m, out), 0u);
  EXPECT_EQ(m.seq, 65535);
  ASSERT_GT(enc.encode(m, out), 0u);
  EXPECT_EQ(m.seq, 0);  // wraps
}

TEST(ProtocolStream, ChunkingDoesNotChangeTheResult) {
  std::mt19937 rng(99);
  std::vector<Message> msgs;
  for (int i = 0; i < 600; ++i) msgs.push_back(ptest::random_message(rng));
  const std::vector<std::uint8_t> stream = ptest::encode_stream(msgs, 65000);  // wraps the seq

  const ptest::Decoded whole = ptest::decode_all(stream, 0);
  ASSERT_EQ(whole.msgs.size(), msgs.size());
  for (std::size_t i = 0; i < msgs.size(); ++i) ASSERT_TRUE(whole.msgs[i] == msgs[i]) << i;
  EXPECT_EQ(whole.stats.frames_ok, msgs.size());
  EXPECT_EQ(whole.stats.errors(), 0u);
  EXPECT_EQ(whole.stats.seq_gaps, 0u);
  EXPECT_EQ(whole.stats.bytes, stream.size());

  const std::size_t chunkings[] = {1, 2, 3, 63, 64, 1031, SIZE_MAX};
  for (std::size_t c : chunkings) {
    for (std::uint32_t seed : {1u, 2u, 3u}) {
      const ptest::Decoded d = ptest::decode_all(stream, c, seed);
      ASSERT_EQ(d.msgs.size(), msgs.size()) << c;
      for (std::size_t i = 0; i < msgs.size(); ++i) ASSERT_TRUE(d.msgs[i] == msgs[i]) << c << " " << i;
      EXPECT_EQ(d.stats, whole.stats) << c;
      if (c != SIZE_MAX) break;  // fixed chunk sizes do not depend on the seed
    }
  }
}

TEST(ProtocolStream, PushApiAndStaticDecoder) {
  std::mt19937 rng(3);
  std::vector<Message> msgs;
  for (int i = 0; i < 50; ++i) msgs.push_back(ptest::random_message(rng));
  const std::vector<std::uint8_t> stream = ptest::encode_stream(msgs);
  StaticDecoder<> dec;
  static Message scratch;  // 1.5 KiB: static, as the firmware would keep it
  std::size_t i = 0;
  dec.feed(stream, scratch, [&](const Message& m) {
    ASSERT_LT(i, msgs.size());
    EXPECT_TRUE(m == msgs[i]);
    ++i;
  });
  EXPECT_EQ(i, msgs.size());
  EXPECT_FALSE(dec.mid_frame());
}

TEST(ProtocolStream, WithoutLeadingDelimitersToo) {
  // A sender that only terminates frames (no leading 0x00) is still understood.
  std::mt19937 rng(4);
  std::vector<Message> msgs;
  std::vector<std::uint8_t> stream;
  for (int i = 0; i < 100; ++i) {
    Message m = ptest::random_message(rng);
    m.seq = static_cast<std::uint16_t>(i);
    msgs.push_back(m);
    const auto w = ptest::encode_one(m);
    stream.insert(stream.end(), w.begin() + 1, w.end());
  }
  const ptest::Decoded d = ptest::decode_all(stream, 5);
  ASSERT_EQ(d.msgs.size(), msgs.size());
  for (std::size_t i = 0; i < msgs.size(); ++i) EXPECT_TRUE(d.msgs[i] == msgs[i]);
}

}  // namespace
