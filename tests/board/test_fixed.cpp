// The board's fixed-point type against double arithmetic.
#include <gtest/gtest.h>

#include <cmath>

#include "flockscope/board/fixed.hpp"
#include "flockscope/protocol/flock_state.hpp"

using flockscope::board::fix;
using flockscope::board::fix8;

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

TEST(BoardFixed, Fix8ProductExactBelow128px) {
  // The neighbour test's type: a product of offsets below 128 px is exact in 32 bits.
  const fix8 a = fix8::from_raw(32767), b = fix8::from_raw(-32767);
  EXPECT_EQ((a * a + b * b).raw, std::int32_t((std::int64_t(32767) * 32767 * 2) >> 8));
  EXPECT_EQ((fix8(40) * fix8(40)).raw, fix8(1600).raw);
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
