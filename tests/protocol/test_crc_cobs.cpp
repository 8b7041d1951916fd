// The building blocks: CRC-32/ISO-HDLC against its published check value, COBS
// against the examples of Cheshire & Baker / Wikipedia, little-endian helpers.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "flockscope/protocol/protocol.hpp"

namespace {

using namespace flockscope::protocol;

std::vector<std::uint8_t> bytes(std::initializer_list<int> l) {
  std::vector<std::uint8_t> v;
  for (int x : l) v.push_back(static_cast<std::uint8_t>(x));
  return v;
}

TEST(ProtocolCrc32, PublishedCheckValue) {
  const char* s = "123456789";
  EXPECT_EQ(crc32(reinterpret_cast<const std::uint8_t*>(s), 9), 0xCBF43926u);
  EXPECT_EQ(kCrc32Check, 0xCBF43926u);
}

TEST(ProtocolCrc32, KnownValues) {
  EXPECT_EQ(crc32(nullptr, 0), 0x00000000u);
  const std::uint8_t a = 'a';
  EXPECT_EQ(crc32(&a, 1), 0xE8B7BE43u);
  const char* fox = "The quick brown fox jumps over the lazy dog";
  EXPECT_EQ(crc32(reinterpret_cast<const std::uint8_t*>(fox), std::strlen(fox)), 0x414FA339u);
}

TEST(ProtocolCrc32, IncrementalEqualsOneShotAtEverySplit) {
  std::mt19937 rng(7);
  std::vector<std::uint8_t> d(300);
  for (auto& b : d) b = static_cast<std::uint8_t>(rng());
  const std::uint32_t whole = crc32(d.data(), d.size());
  for (std::size_t split = 0; split <= d.size(); ++split) {
    std::uint32_t c = crc32_update(crc32_init(), d.data(), split);
    c = crc32_update(c, d.data() + split, d.size() - split);
    ASSERT_EQ(crc32_final(c), whole) << split;
  }
  // Bitwise reference for every length up to 40 (covers the slicing-by-8 tails).
  for (std::size_t n = 0; n <= 40; ++n) {
    std::uint32_t c = 0xFFFFFFFFu;
    for (std::size_t i = 0; i < n; ++i) {
      c ^= d[i];
      for (int k = 0; k < 8; ++k) c = (c & 1u) ? (c >> 1) ^ 0xEDB88320u : c >> 1;
    }
    ASSERT_EQ(crc32(d.data(), n), c ^ 0xFFFFFFFFu) << n;
  }
}

struct CobsCase {
  std::vector<std::uint8_t> in, out;
};

TEST(ProtocolCobs, ReferenceExamples) {
  std::vector<std::uint8_t> n254;
  for (int i = 1; i <= 254; ++i) n254.push_back(static_cast<std::uint8_t>(i));
  std::vector<std::uint8_t> n254_enc = {0xFF};
  n254_enc.insert(n254_enc.end(), n254.begin(), n254.end());
  n254_enc.push_back(0x01);  // the paper's form: the virtual zero gets its own block

  std::vector<std::uint8_t> n255 = n254;  // 01..FE then FF
  n255.push_back(0xFF);
  std::vector<std::uint8_t> n255_enc = {0xFF};
  n255_enc.insert(n255_enc.end(), n254.begin(), n254.end());
  n255_enc.push_back(0x02);
  n255_enc.push_back(0xFF);

  const CobsCase cases[] = {
      {bytes({}), bytes({0x01})},
      {bytes({0x00}), bytes({0x01, 0x01})},
      {bytes({0x00, 0x00}), bytes({0x01, 0x01, 0x01})},
      {bytes({0x00, 0x11, 0x00}), bytes({0x01, 0x02, 0x11, 0x01})},
      {bytes({0x11, 0x22, 0x00, 0x33}), bytes({0x03, 0x11, 0x22, 0x02, 0x33})},
      {bytes({0x11, 0x22, 0x33, 0x44}), bytes({0x05, 0x11, 0x22, 0x33, 0x44})},
      {bytes({0x11, 0x00, 0x00, 0x00}), bytes({0x02, 0x11, 0x01, 0x01, 0x01})},
      {n254, n254_enc},
      {n255, n255_enc},
  };
  for (const auto& c : cases) {
    std::vector<std::uint8_t> enc(cobs::max_encoded_size(c.in.size()));
    const std::size_t n = cobs::encode(enc.data(), c.in.data(), c.in.size());
    enc.resize(n);
    EXPECT_EQ(enc, c.out);
    std::vector<std::uint8_t> dec(c.in.size() + 4);
    EXPECT_EQ(cobs::decode(dec.data(), dec.size(), c.out.data(), c.out.size()), c.in.size());
    dec.resize(c.in.size());
    EXPECT_EQ(dec, c.in);
  }
}

TEST(ProtocolCobs, ShortFormWithoutFinalBlockIsAccepted) {
  std::vector<std::uint8_t> enc = {0xFF};
  for (int i = 1; i <= 254; ++i) enc.push_back(static_cast<std::uint8_t>(i));
  std::vector<std::uint8_t> dec(300);
  EXPECT_EQ(cobs::decode(dec.data(), dec.size(), enc.data(), enc.size()), 254u);
}

TEST(ProtocolCobs, DecodeRejectsBrokenInput) {
  std::uint8_t out[16];
  const auto zero = bytes({0x03, 0x11, 0x00});
  EXPECT_EQ(cobs::decode(out, sizeof out, zero.data(), zero.size()), cobs::kError);
  const auto shortblock = bytes({0x05, 0x11, 0x22});
  EXPECT_EQ(cobs::decode(out, sizeof out, shortblock.data(), shortblock.size()), cobs::kError);
  const auto big = bytes({0x05, 1, 2, 3, 4});
  EXPECT_EQ(cobs::decode(out, 3, big.data(), big.size()), cobs::kError);
}

TEST(ProtocolCobs, RandomRoundTripAndInPlaceEncoding) {
  std::mt19937 rng(11);
  for (int iter = 0; iter < 2000; ++iter) {
    const std::size_t n = rng() % 1100;
    std::vector<std::uint8_t> d(n);
    const auto zero_every = 1 + rng() % 300;  // from zero-heavy to zero-free
    for (auto& b : d) b = (rng() % zero_every == 0) ? 0 : static_cast<std::uint8_t>(1 + rng() % 255);
    std::vector<std::uint8_t> enc(cobs::max_encoded_size(n));
    const std::size_t e = cobs::encode(enc.data(), d.data(), n);
    ASSERT_LE(e, enc.size());
    for (std::size_t i = 0; i < e; ++i) ASSERT_NE(enc[i], 0) << i;
    // In place, with the source at the smallest allowed distance behind.
    const std::size_t gap = n / 254 + 1;
    std::vector<std::uint8_t> buf(gap + n);
    if (n) std::memcpy(buf.data() + gap, d.data(), n);
    ASSERT_EQ(cobs::encode(buf.data(), buf.data() + gap, n), e);
    ASSERT_TRUE(std::equal(enc.begin(), enc.begin() + static_cast<std::ptrdiff_t>(e), buf.begin()));
    std::vector<std::uint8_t> dec(n);
    ASSERT_EQ(cobs::decode(dec.data(), dec.size(), enc.data(), e), n);
    ASSERT_EQ(dec, d);
  }
}

TEST(ProtocolLittleEndian, ExplicitOffsets) {
  std::uint8_t b[16] = {};
  le::put_u16(b, 1, 0x1234);
  le::put_u32(b, 3, 0xA1B2C3D4u);
  le::put_u64(b, 7, 0x0102030405060708ull);
  const std::uint8_t want[16] = {0, 0x34, 0x12, 0xD4, 0xC3, 0xB2, 0xA1, 8, 7, 6, 5, 4, 3, 2, 1, 0};
  EXPECT_EQ(0, std::memcmp(b, want, 16));
  EXPECT_EQ(le::get_u16(b, 1), 0x1234);
  EXPECT_EQ(le::get_u32(b, 3), 0xA1B2C3D4u);
  EXPECT_EQ(le::get_u64(b, 7), 0x0102030405060708ull);
  le::put_f32(b, 0, 40.0f);
  EXPECT_EQ(le::get_u32(b, 0), 0x42200000u);
  le::put_i16(b, 0, -2);
  EXPECT_EQ(b[0], 0xFE);
  EXPECT_EQ(b[1], 0xFF);
  EXPECT_EQ(le::get_i16(b, 0), -2);
}

}  // namespace
