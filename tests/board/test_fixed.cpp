// The board's fixed-point type against double arithmetic.
#include <gtest/gtest.h>

#include <cmath>

#include "flockscope/board/fixed.hpp"
#include "flockscope/protocol/flock_state.hpp"

using flockscope::board::fix;

TEST(BoardFixed, ConstructionAndArithmetic) {
  EXPECT_EQ(fix(1).raw, 65536);
  EXPECT_EQ(fix(-2).raw, -131072);
  EXPECT_EQ(fix(0.5).raw, 32768);
  EXPECT_EQ(fix(-0.25).raw, -16384);
  EXPECT_NEAR((fix(3.25) + fix(1.5)).to_double(), 4.75, 1e-9);
  EXPECT_NEAR((fix(3.25) - fix(5.5)).to_double(), -2.25, 1e-9);
  EXPECT_NEAR((fix(3.25) * fix(-1.5)).to_double(), -4.875, 1e-9);
  EXPECT_NEAR((fix(7) / fix(2)).to_double(), 3.5, 1e-9);
  EXPECT_NEAR((fix(1) / fix(3)).to_double(), 1.0 / 3, 2e-5);
  EXPECT_NEAR(div_count(fix(10), 4).to_double(), 2.5, 1e-9);
  EXPECT_EQ(abs_of(fix(-3)).raw, fix(3).raw);
  EXPECT_EQ(round_of(fix(2.5)).raw, fix(3).raw);
  EXPECT_EQ(round_of(fix(-2.5)).raw, fix(-3).raw);
  EXPECT_EQ(round_of(fix(2.49)).raw, fix(2).raw);
  EXPECT_TRUE(fix(1) < fix(2));
  EXPECT_TRUE(fix(-1) < fix(0));
}

TEST(BoardFixed, SaturatesInsteadOfWrapping) {
  EXPECT_EQ((fix(30000) * fix(30000)).raw, INT32_MAX);
  EXPECT_EQ((fix(-30000) * fix(30000)).raw, INT32_MIN);
  EXPECT_EQ((fix(1) / fix(0)).raw, INT32_MAX);
  EXPECT_EQ((fix(0) / fix(0)).raw, 0);
  EXPECT_EQ(fix(1e9).raw, INT32_MAX);
  EXPECT_EQ(fix(std::nan("")).raw, 0);
}

TEST(BoardFixed, SqrtWithinOneStep) {
  for (double v : {0.0, 1e-4, 0.01, 0.5, 1.0, 2.0, 9.0, 36.0, 100.0, 1234.5678, 32000.0}) {
    const fix r = sqrt(fix(v));
    EXPECT_NEAR(r.to_double(), std::sqrt(fix(v).to_double()), 1.0 / 65536) << v;
  }
  EXPECT_EQ(sqrt(fix(-4)).raw, 0);
}

TEST(BoardFixed, QuantiseMatchesTheProtocol) {
  for (double v : {0.0, 1.0 / 32, 1.0 / 16, 3.03125, -3.03125, 100.47, -100.53, 639.99, -0.015625, 2047.97, 5000.0, -5000.0}) {
    const fix f(v);
    for (int shift : {4, 8}) {
      EXPECT_EQ(flockscope::board::quantise_fix(f, shift),
                flockscope::protocol::quantise(f.to_float(), std::uint8_t(shift)))
          << v << " shift " << shift;
    }
  }
}

TEST(BoardFixed, ProductEqualsThe64BitOneEverywhere) {
  // operator* takes two 32-bit products when b is in [0, 1), three when both factors are
  // below 128 in magnitude, and the saturating 64-bit product otherwise: bit for bit the
  // same as the latter. So does square(a) for a * a.
  auto reference = [](std::int32_t a, std::int32_t b) {
    return fix::saturate((std::int64_t(a) * b) >> 16);
  };
  std::uint64_t state = 88172645463325252ull;
  auto next = [&state] {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return std::uint32_t(state);
  };
  const std::int32_t edges[] = {0, 1, -1, 65535, -65536, 65536, (1 << 23) - 1, -(1 << 23), 1 << 23, -(1 << 23) - 1,
                                INT32_MAX, INT32_MIN, 33, -12345678, 65534, -32768 * 65536, 32767 * 65536 + 65535};
  for (std::int32_t a : edges) {
    EXPECT_EQ(square(fix::from_raw(a)).raw, reference(a, a)) << a;
    for (std::int32_t b : edges) EXPECT_EQ((fix::from_raw(a) * fix::from_raw(b)).raw, reference(a, b)) << a << " " << b;
  }
  for (int i = 0; i < 200000; ++i) {
    const int shift_a = int(next() % 32), shift_b = int(next() % 32);
    const auto a = std::int32_t(next()) >> shift_a, b = std::int32_t(next()) >> shift_b;
    ASSERT_EQ((fix::from_raw(a) * fix::from_raw(b)).raw, reference(a, b)) << a << " " << b;
    ASSERT_EQ(square(fix::from_raw(a)).raw, reference(a, a)) << a;
    // A weight in [0, 1) times anything (the two-product path).
    const auto w = std::int32_t(next() & 0xFFFFu);
    ASSERT_EQ((fix::from_raw(a) * fix::from_raw(w)).raw, reference(a, w)) << a << " " << w;
  }
}

TEST(BoardFixed, QuotientEqualsThe64BitOneEverywhere) {
  // operator/ divides by a positive divisor below 2^24 (256) in three 32-bit divisions and
  // otherwise in 64 bits, saturated: bit for bit the latter (truncated toward zero).
  auto reference = [](std::int32_t a, std::int32_t b) {
    if (b == 0) return a > 0 ? INT32_MAX : a < 0 ? INT32_MIN : 0;
    return fix::saturate((std::int64_t(a) * 65536) / b);
  };
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  auto next = [&state] {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    return std::uint32_t(state);
  };
  const std::int32_t edges[] = {0,          1,         -1,        2,         65535,         65536,     -65536,
                                (1 << 24) - 1, 1 << 24, -(1 << 24), (1 << 15) - 1, 1 << 15, INT32_MAX, INT32_MIN,
                                INT32_MIN + 1, 393216,  -393217,   123456789, -987654321};
  for (std::int32_t a : edges)
    for (std::int32_t b : edges) EXPECT_EQ((fix::from_raw(a) / fix::from_raw(b)).raw, reference(a, b)) << a << " " << b;
  for (int i = 0; i < 400000; ++i) {
    const int shift_a = int(next() % 32), shift_b = int(next() % 32);
    const auto a = std::int32_t(next()) >> shift_a, b = std::int32_t(next()) >> shift_b;
    ASSERT_EQ((fix::from_raw(a) / fix::from_raw(b)).raw, reference(a, b)) << a << " " << b;
    // Around the saturation bound: |a| / b near 2^15.
    const auto d = std::int32_t(next() & 0xFFFFFFu) | 1;
    const std::int64_t edge = std::int64_t(d) * 32768 + std::int32_t(next() % 64) - 32;
    if (edge <= INT32_MAX) {
      ASSERT_EQ((fix::from_raw(std::int32_t(edge)) / fix::from_raw(d)).raw, reference(std::int32_t(edge), d));
      ASSERT_EQ((fix::from_raw(std::int32_t(-edge)) / fix::from_raw(d)).raw, reference(std::int32_t(-edge), d));
    }
  }
}

TEST(BoardFixed, Q9RoundingAndExactSquares) {
  using flockscope::board::near9;
  using flockscope::board::round_q9;
  EXPECT_EQ(round_q9(fix(1.5).raw), 768);
  EXPECT_EQ(round_q9(fix(-1.5).raw), -768);
  EXPECT_EQ(round_q9(64), 1);   // half a step rounds up
  EXPECT_EQ(round_q9(63), 0);
  const near9 d = near9::from_raw(40 * 512);
  EXPECT_EQ((d * d + d * d).raw, 2LL * 40 * 40 * 512 * 512);
  EXPECT_EQ(abs_of(near9::from_raw(-5)).raw, 5);
}

TEST(BoardFixed, SqrtFastPathEqualsTheDigitLoop) {
  // Below raw 2^30 sqrt takes 32-bit steps; it must give the 64-bit digit loop's result:
  // floor(sqrt(raw * 2^16)).
  auto reference = [](std::int32_t raw) {
    const auto v = std::uint64_t(std::uint32_t(raw)) << 16;
    auto r = std::uint64_t(std::sqrt(double(v)));
    while (r * r > v) --r;
    while ((r + 1) * (r + 1) <= v) ++r;
    return std::int32_t(r);
  };
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 300000; ++i) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    const auto raw = std::int32_t(std::uint32_t(state) >> (1 + (state >> 40) % 31));
    if (raw <= 0) continue;
    ASSERT_EQ(sqrt(fix::from_raw(raw)).raw, reference(raw)) << raw;
  }
  for (std::int32_t raw : {1, 2, 3, 4, 65535, 65536, 65537, (1 << 30) - 1, 1 << 30, INT32_MAX})
    EXPECT_EQ(sqrt(fix::from_raw(raw)).raw, reference(raw)) << raw;
  // Every value up to 2^20 (speeds below 4 px, across the switch from the bit search of the
  // low 8 bits to the division at r0 = 128), and both sides of every square above.
  for (std::int32_t raw = 1; raw <= (1 << 20); ++raw) ASSERT_EQ(sqrt(fix::from_raw(raw)).raw, reference(raw)) << raw;
  for (std::int32_t r = 1024; r < 32768; ++r)
    for (std::int32_t raw : {r * r - 1, r * r, r * r + 2 * r}) ASSERT_EQ(sqrt(fix::from_raw(raw)).raw, reference(raw)) << raw;
}

TEST(BoardFixed, NewtonIntegerSqrtIsTheFloorOfTheRoot) {
  // isqrt_newton (the seed table and one Newton step, for x in [2^14, 2^30)): floor(sqrt(x))
  // and the remainder x - r^2, at both ends of every seed's interval (where the seed is
  // furthest from the root), on both sides of every square, and at random.
  auto check = [](std::uint32_t x) {
    std::uint32_t rem = x;
    const std::uint32_t r = flockscope::board::isqrt_newton(rem);
    ASSERT_LE(std::uint64_t(r) * r, x) << x;
    ASSERT_GT(std::uint64_t(r + 1) * (r + 1), x) << x;
    ASSERT_EQ(rem, x - r * r) << x;
  };
  for (std::uint32_t s = 8; s <= 22; s += 2)
    for (std::uint32_t y = 64; y < 256; ++y)
      for (std::uint32_t x : {y << s, ((y + 1) << s) - 1})
        if (x >= (1u << 14) && x < (1u << 30)) check(x);
  for (std::uint32_t r = 128; r < 32768; ++r)
    for (std::uint32_t x : {r * r - 1, r * r, r * r + 2 * r}) if (x >= (1u << 14)) check(x);
  std::uint64_t state = 0x2545F4914F6CDD1Dull;
  for (int i = 0; i < 1000000; ++i) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;
    const std::uint32_t x = (1u << 14) + std::uint32_t(state % ((1u << 30) - (1u << 14)));
    check(x);
  }
}
