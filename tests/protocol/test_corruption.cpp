// A damaged wire costs exactly the damaged frames: the decoder never crashes,
// resynchronises at the next intact frame, and its counters say what happened.
// Run under ASan/UBSan (FLOCKSCOPE_SANITIZE=ON) these also prove there are no out
// of bounds accesses.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>

#include "test_support.hpp"

namespace {

using namespace flockscope::protocol;
using ptest::Decoded;

// A stream of every type except hello (a hello resynchronises the sequence check,
// which would blur the gap counts below), with consecutive sequence numbers.
struct Stream {
  std::vector<Message> msgs;
  std::vector<std::uint8_t> bytes;
  std::vector<ptest::Span> spans;
};

Stream make_stream(std::uint32_t seed, std::size_t n) {
  std::mt19937 rng(seed);
  Stream s;
  while (s.msgs.size() < n) {
    Message m = ptest::random_message(rng);
    if (m.type == MsgType::kHello) continue;
    s.msgs.push_back(m);
  }
  s.bytes = ptest::encode_stream(s.msgs, static_cast<std::uint16_t>(seed));
  s.spans = ptest::frame_spans(s.bytes);
  return s;
}

// Messages that must arrive: those whose frame (both delimiters included) is untouched.
std::vector<std::size_t> intact(const Stream& s, const std::set<std::size_t>& damaged) {
  std::vector<std::size_t> v;
  for (std::size_t i = 0; i < s.msgs.size(); ++i)
    if (!damaged.count(i)) v.push_back(i);
  return v;
}

// delivered must be a subsequence of the original messages that includes every
// intact one (damage may happen to spare a frame; it may not invent one).
void expect_recovered(const Stream& s, const std::vector<std::size_t>& must, const Decoded& d) {
  std::size_t j = 0;  // index into s.msgs
  std::size_t k = 0;  // index into must
  for (const Message& got : d.msgs) {
    while (j < s.msgs.size() && !(s.msgs[j] == got)) {
      ASSERT_FALSE(k < must.size() && must[k] == j) << "intact message " << j << " was lost";
      ++j;
    }
    ASSERT_LT(j, s.msgs.size()) << "decoder delivered a message that was never sent";
    if (k < must.size() && must[k] == j) ++k;
    ++j;
  }
  ASSERT_EQ(k, must.size()) << "intact message " << (k < must.size() ? must[k] : 0) << " was lost";
  EXPECT_EQ(d.stats.frames_ok, d.msgs.size());
}

// Sequence gaps a receiver must see when the given frames are lost: one per run
// of lost frames that is followed by a delivered frame.
std::pair<std::uint32_t, std::uint32_t> expected_gaps(std::size_t n, const std::set<std::size_t>& lost) {
  std::uint32_t gaps = 0, skipped = 0, run = 0;
  bool seen_any = false;
  for (std::size_t i = 0; i < n; ++i) {
    if (lost.count(i)) {
      ++run;
      continue;
    }
    if (run && seen_any) {
      ++gaps;
      skipped += run;
    }
    run = 0;
    seen_any = true;
  }
  return {gaps, skipped};
}

std::size_t frame_of(const Stream& s, std::size_t pos) {
  for (std::size_t i = 0; i < s.spans.size(); ++i)
    if (pos >= s.spans[i].begin && pos < s.spans[i].end) return i;
  return SIZE_MAX;
}

TEST(ProtocolCorruption, BitFlipsLoseExactlyTheFlippedFrames) {
  for (std::uint32_t trial = 0; trial < 200; ++trial) {
    Stream s = make_stream(trial, 120);
    ASSERT_EQ(s.spans.size(), s.msgs.size());
    std::mt19937 rng(1000 + trial);
    std::vector<std::uint8_t> b = s.bytes;
    std::set<std::size_t> damaged;
    const int flips = 1 + static_cast<int>(rng() % 8);
    for (int f = 0; f < flips; ++f) {
      const std::size_t pos = rng() % b.size();
      b[pos] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
      damaged.insert(frame_of(s, pos));
    }
    for (std::size_t chunk : {std::size_t{0}, std::size_t{1}, SIZE_MAX}) {
      const Decoded d = ptest::decode_all(b, chunk, trial);
      const auto must = intact(s, damaged);
      // With bit flips the rule is exact: a touched frame never survives (but for
      // a 2^-32 CRC collision) and every untouched one does.
      ASSERT_EQ(d.msgs.size(), must.size()) << "trial " << trial;
      for (std::size_t i = 0; i < must.size(); ++i) ASSERT_TRUE(d.msgs[i] == s.msgs[must[i]]);
      EXPECT_GE(d.stats.errors(), 1u);
      EXPECT_EQ(d.stats.unknown_type + d.stats.version_mismatch, 0u);
      const auto [gaps, skipped] = expected_gaps(s.msgs.size(), damaged);
      EXPECT_EQ(d.stats.seq_gaps, gaps) << "trial " << trial;
      EXPECT_EQ(d.stats.seq_lost, skipped) << "trial " << trial;
      EXPECT_EQ(d.stats.bytes, b.size());
    }
  }
}

TEST(ProtocolCorruption, DroppedBytes) {
  for (std::uint32_t trial = 0; trial < 200; ++trial) {
    Stream s = make_stream(50 + trial, 100);
    std::mt19937 rng(2000 + trial);
    std::set<std::size_t> drop;
    const int n = 1 + static_cast<int>(rng() % 10);
    for (int i = 0; i < n; ++i) drop.insert(rng() % s.bytes.size());
    std::vector<std::uint8_t> b;
    std::set<std::size_t> damaged;
    for (std::size_t i = 0; i < s.bytes.size(); ++i) {
      if (drop.count(i))
        damaged.insert(frame_of(s, i));
      else
        b.push_back(s.bytes[i]);
    }
    const Decoded d = ptest::decode_all(b, SIZE_MAX, trial);
    expect_recovered(s, intact(s, damaged), d);
    EXPECT_EQ(d.stats.frames(), d.stats.frames_ok + d.stats.errors());
  }
}

TEST(ProtocolCorruption, InsertedGarbage) {
  for (std::uint32_t trial = 0; trial < 200; ++trial) {
    Stream s = make_stream(70 + trial, 100);
    std::mt19937 rng(3000 + trial);
    std::vector<std::uint8_t> b = s.bytes;
    std::set<std::size_t> damaged;
    const int n = 1 + static_cast<int>(rng() % 5);
    std::vector<std::size_t> at;
    for (int i = 0; i < n; ++i) at.push_back(rng() % (b.size() + 1));
    std::sort(at.rbegin(), at.rend());  // insert back to front so positions stay valid
    for (std::size_t pos : at) {
      std::vector<std::uint8_t> junk(1 + rng() % 2000);
      const bool zeros = rng() & 1;
      for (auto& x : junk) x = static_cast<std::uint8_t>(zeros ? rng() % 256 : 1 + rng() % 255);
      b.insert(b.begin() + static_cast<std::ptrdiff_t>(pos), junk.begin(), junk.end());
      for (std::size_t i = 0; i < s.spans.size(); ++i)
        if (pos > s.spans[i].begin && pos < s.spans[i].end) damaged.insert(i);
    }
    const Decoded d = ptest::decode_all(b, SIZE_MAX, trial);
    expect_recovered(s, intact(s, damaged), d);
    EXPECT_GE(d.stats.errors(), 1u);
  }
}

TEST(ProtocolCorruption, TruncatedFramesAndGarbageWithoutZeros) {
  Stream s = make_stream(7, 60);
  for (std::size_t victim = 0; victim < s.msgs.size(); victim += 7) {
    const ptest::Span sp = s.spans[victim];
    for (std::size_t keep : {std::size_t{1}, std::size_t{2}, std::size_t{5}, (sp.end - sp.begin) / 2,
                             sp.end - sp.begin - 2}) {
      // The frame stops after `keep` bytes (its trailing delimiter is lost too).
      std::vector<std::uint8_t> b(s.bytes.begin(), s.bytes.begin() + static_cast<std::ptrdiff_t>(sp.begin + keep));
      b.insert(b.end(), s.bytes.begin() + static_cast<std::ptrdiff_t>(sp.end), s.bytes.end());
      const Decoded d = ptest::decode_all(b, 3);
      ASSERT_EQ(d.msgs.size(), s.msgs.size() - 1) << victim << " " << keep;
      const std::uint32_t broken = keep > 1 ? 1u : 0u;  // "00" alone is just a delimiter
      EXPECT_EQ(d.stats.bad_crc + d.stats.bad_framing, broken) << victim << " " << keep;
      const bool last = victim + 1 == s.msgs.size();
      EXPECT_EQ(d.stats.seq_gaps, last || victim == 0 ? 0u : 1u);
    }
  }
}

// The board resets in the middle of a frame and starts over with a hello and
// sequence number 0.
TEST(ProtocolCorruption, FrameCutByAReset) {
  Stream before = make_stream(11, 20);
  const ptest::Span cut = before.spans[15];
  std::vector<std::uint8_t> b(before.bytes.begin(),
                              before.bytes.begin() + static_cast<std::ptrdiff_t>(cut.begin + (cut.end - cut.begin) / 2));
  std::vector<Message> after = {make_hello(Role::kBoard, 0, 1, 0, 2000, 0x1FF, "pico-vga"),
                                make_log(LogLevel::kInfo, "boot"), make_command(CommandId::kPause)};
  const std::vector<std::uint8_t> restart = ptest::encode_stream(after, 0);
  b.insert(b.end(), restart.begin(), restart.end());

  const Decoded d = ptest::decode_all(b, 1);
  ASSERT_EQ(d.msgs.size(), 15u + after.size());
  for (std::size_t i = 0; i < 15; ++i) EXPECT_TRUE(d.msgs[i] == before.msgs[i]);
  for (std::size_t i = 0; i < after.size(); ++i) EXPECT_TRUE(d.msgs[15 + i] == after[i]);
  EXPECT_EQ(d.stats.errors(), 1u);
  EXPECT_EQ(d.stats.seq_gaps, 0u);  // the hello announced the restart

  // Same without the hello: the backwards jump is one gap, but no "lost" frames.
  std::vector<Message> bare = {make_log(LogLevel::kInfo, "boot"), make_command(CommandId::kPause)};
  std::vector<std::uint8_t> b2(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(cut.begin + (cut.end - cut.begin) / 2));
  const std::vector<std::uint8_t> restart2 = ptest::encode_stream(bare, 0);
  b2.insert(b2.end(), restart2.begin(), restart2.end());
  const Decoded d2 = ptest::decode_all(b2);
  EXPECT_EQ(d2.msgs.size(), 15u + bare.size());
  EXPECT_EQ(d2.stats.seq_gaps, 1u);
  EXPECT_EQ(d2.stats.seq_lost, 0u);
}

TEST(ProtocolCorruption, OversizeIsSkippedWithoutBuffering) {
  Stream s = make_stream(13, 10);
  // A well-formed frame that is too long, then 1 MiB without any 0x00, then the rest.
  std::vector<std::uint8_t> big_raw(kMaxFrameSize + 1, 0x5A);
  std::vector<std::uint8_t> big(cobs::max_encoded_size(big_raw.size()) + 2, 0);
  big.resize(cobs::encode(big.data() + 1, big_raw.data(), big_raw.size()) + 2);
  big.back() = 0;
  std::vector<std::uint8_t> flood(1 << 20);
  std::mt19937 rng(1);
  for (auto& x : flood) x = static_cast<std::uint8_t>(1 + rng() % 255);

  std::vector<std::uint8_t> b(s.bytes.begin(), s.bytes.begin() + static_cast<std::ptrdiff_t>(s.spans[5].begin));
  b.insert(b.end(), big.begin(), big.end());
  b.push_back(0);
  b.insert(b.end(), flood.begin(), flood.end());
  b.push_back(0);
  b.insert(b.end(), s.bytes.begin() + static_cast<std::ptrdiff_t>(s.spans[5].begin), s.bytes.end());

  for (std::size_t chunk : {std::size_t{0}, std::size_t{1}, std::size_t{4096}}) {
    const Decoded d = ptest::decode_all(b, chunk);
    ASSERT_EQ(d.msgs.size(), s.msgs.size());
    EXPECT_EQ(d.stats.oversize, 2u);
    EXPECT_EQ(d.stats.errors(), 2u);
    EXPECT_EQ(d.stats.seq_gaps, 0u);
  }

  // The largest allowed frame passes the size check (and is then judged on content).
  std::vector<std::uint8_t> max_raw(kMaxFrameSize, 0x11);
  std::vector<std::uint8_t> w(cobs::max_encoded_size(max_raw.size()) + 2, 0);
  w.resize(cobs::encode(w.data() + 1, max_raw.data(), max_raw.size()) + 2);
  w.back() = 0;
  const Decoded d = ptest::decode_all(w);
  EXPECT_EQ(d.stats.oversize, 0u);
  EXPECT_EQ(d.stats.bad_crc, 1u);
}

TEST(ProtocolCorruption, SmallReceiveBuffer) {
  Stream s = make_stream(17, 200);
  const std::size_t cap = 64;
  const Decoded d = ptest::decode_all(s.bytes, 16, 1, cap);
  std::size_t small = 0;
  std::vector<std::uint8_t> frame(kMaxFrameSize);
  for (const Message& m : s.msgs)
    if (write_frame(m, frame.data(), frame.size()) <= cap) ++small;
  EXPECT_EQ(d.msgs.size(), small);
  EXPECT_EQ(d.stats.oversize, s.msgs.size() - small);
  EXPECT_GT(d.stats.oversize, 0u);
}

// One of each failure at known places; every counter must say exactly that.
TEST(ProtocolCorruption, EachCounterCountsItsOwnFailure) {
  Stream s = make_stream(21, 12);
  std::vector<std::uint8_t> b;
  auto frame = [&](std::size_t i) {
    return std::vector<std::uint8_t>(s.bytes.begin() + static_cast<std::ptrdiff_t>(s.spans[i].begin),
                                     s.bytes.begin() + static_cast<std::ptrdiff_t>(s.spans[i].end));
  };
  for (std::size_t i = 0; i < s.msgs.size(); ++i) {
    std::vector<std::uint8_t> f = frame(i);
    if (i == 2) {  // bit flip in a data byte (not a COBS code byte) -> bad_crc
      const std::size_t code = f[1];
      ASSERT_GT(code, 1u);
      f[2] = static_cast<std::uint8_t>(f[2] ^ ((f[2] == 0x01) ? 0x02 : 0x01));
    } else if (i == 4) {  // truncated: last block cut short -> bad_framing
      std::size_t pos = 1;
      std::size_t last = 1;
      while (f[pos] != 0) {
        last = pos;
        pos += f[pos];
      }
      ASSERT_LT(f[last], 0xFF);
      ++f[last];  // the last block now promises one byte more than arrives
    } else if (i == 6) {  // replaced by an oversize frame
      f.assign(3000, 0x22);
      f.front() = 0;
      f.back() = 0;
    } else if (i == 8) {  // garbage frame of its own between 7 and 9: a runt
      b.insert(b.end(), {0x00, 0x03, 0x41, 0x42, 0x00});
    }
    b.insert(b.end(), f.begin(), f.end());
  }
  const Decoded d = ptest::decode_all(b, 1);
  EXPECT_EQ(d.msgs.size(), s.msgs.size() - 3);
  EXPECT_EQ(d.stats.frames_ok, s.msgs.size() - 3);
  EXPECT_EQ(d.stats.bad_crc, 1u);
  EXPECT_EQ(d.stats.bad_framing, 2u);  // the truncated frame and the runt
  EXPECT_EQ(d.stats.oversize, 1u);
  EXPECT_EQ(d.stats.malformed, 0u);
  EXPECT_EQ(d.stats.seq_gaps, 3u);
  EXPECT_EQ(d.stats.seq_lost, 3u);
  EXPECT_EQ(d.stats.frames(), s.msgs.size() + 1);
}

TEST(ProtocolCorruption, ResetForgetsThePartialFrame) {
  Stream s = make_stream(23, 3);
  std::vector<std::uint8_t> buf(kMaxFrameSize);
  Decoder dec(buf);
  Message m{};
  std::span<const std::uint8_t> half(s.bytes.data(), s.spans[1].begin + 5);
  while (dec.next(half, m)) {
  }
  EXPECT_TRUE(dec.mid_frame());
  dec.reset();
  EXPECT_FALSE(dec.mid_frame());
  std::span<const std::uint8_t> rest(s.bytes.data() + s.spans[2].begin + 1,  // no leading 0x00
                                     s.spans[2].end - s.spans[2].begin - 1);
  ASSERT_TRUE(dec.next(rest, m));
  EXPECT_TRUE(m == s.msgs[2]);
  EXPECT_EQ(dec.stats().errors(), 0u);
}

}  // namespace
