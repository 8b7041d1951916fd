// The axis arithmetic every back end shares.
#include <gtest/gtest.h>

#include <cmath>

#include "flockscope/plot/ticks.hpp"

using namespace flockscope::plot;

TEST(Ticks, NiceStepsAreOneTwoFiveTimesAPowerOfTen) {
  EXPECT_DOUBLE_EQ(nice_step(10, 5), 2);
  EXPECT_DOUBLE_EQ(nice_step(1, 5), 0.2);
  EXPECT_DOUBLE_EQ(nice_step(200, 4), 50);
  EXPECT_DOUBLE_EQ(nice_step(7, 7), 1);
  EXPECT_DOUBLE_EQ(nice_step(0.03, 3), 0.01);
  EXPECT_DOUBLE_EQ(nice_step(900, 3), 500);
  EXPECT_DOUBLE_EQ(nice_step(0, 5), 1);  // degenerate span: any positive step
}

TEST(Ticks, TicksAreMultiplesOfTheStepInsideTheRange) {
  const Ticks t = nice_ticks({-0.13, 1.07}, 6);
  EXPECT_DOUBLE_EQ(t.step, 0.2);
  EXPECT_EQ(t.labels, (std::vector<std::string>{"0", "0.2", "0.4", "0.6", "0.8", "1.0"}));
  const Ticks n = nice_ticks({-25, 25}, 5);
  EXPECT_EQ(n.labels, (std::vector<std::string>{"-20", "-10", "0", "10", "20"}));
  // Integer ticks never step below one.
  EXPECT_EQ(integer_ticks({-0.5, 2.5}, 10).labels, (std::vector<std::string>{"0", "1", "2"}));
}

TEST(Ticks, LabelsShowTheDigitsTheStepNeeds) {
  EXPECT_EQ(format_tick(0.30000000000000004, 0.1), "0.3");
  EXPECT_EQ(format_tick(-1e-17, 0.1), "0");
  EXPECT_EQ(format_tick(1200, 200), "1200");
  EXPECT_EQ(format_tick(0.05, 0.05), "0.05");
  EXPECT_EQ(format_tick(2e-6, 1e-6), "2e-06");
  EXPECT_EQ(format_tick(3e7, 1e7), "3e+07");
  EXPECT_EQ(format_value(12.345), "12.3");
  EXPECT_EQ(format_value(0.04512), "0.0451");
  EXPECT_EQ(format_value(NAN), "NA");
}

TEST(Ticks, RangesSkipNonFiniteValuesAndOpenEmptyOnes) {
  const std::vector<double> v = {3, NAN, -1, INFINITY, 2};
  EXPECT_EQ(finite_range(v), (Range{-1, 3}));
  EXPECT_EQ(finite_range(std::vector<double>{NAN}), (Range{0, 1}));
  EXPECT_EQ(padded({0, 10}, 0.1), (Range{-1, 11}));
  const Range e = padded({5, 5}, 0.1);
  EXPECT_LT(e.lo, 5);
  EXPECT_GT(e.hi, 5);
  EXPECT_GT(padded({0, 0}, 0.1).span(), 0);
}
