// The statistics of summary.csv against hand-computed values: a sample's description and
// the Wilson interval of a proportion.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "flockscope/experiments/statistics.hpp"

using namespace flockscope::experiments;

TEST(SweepStats, DescribeOnHandComputedData) {
  const std::vector<double> v = {4, 1, 3, 2};
  const SampleStats s = describe(v);
  EXPECT_EQ(s.n, 4u);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.sd, 1.2909944487358056);  // sqrt(5/3)
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.max, 4);
  const std::vector<double> w = {2, 4, 4, NAN, 4, 5, 5, 7, 9};
  const SampleStats t = describe(w);
  EXPECT_EQ(t.n, 8u);  // NaN skipped
  EXPECT_DOUBLE_EQ(t.mean, 5);
  EXPECT_DOUBLE_EQ(t.sd, 2.138089935299395);
  EXPECT_DOUBLE_EQ(t.median, 4.5);
  const SampleStats one = describe(std::vector<double>{3});
  EXPECT_EQ(one.mean, 3);
  EXPECT_TRUE(std::isnan(one.sd));
  EXPECT_EQ(describe(std::vector<double>{}).n, 0u);
}

TEST(SweepStats, WilsonInterval) {
  const Proportion p = proportion(8, 10);
  EXPECT_DOUBLE_EQ(p.p, 0.8);
  EXPECT_NEAR(p.lo, 0.490162471536642, 1e-12);
  EXPECT_NEAR(p.hi, 0.943317848545625, 1e-12);
  const Proportion z = proportion(0, 5);
  EXPECT_EQ(z.lo, 0);
  EXPECT_NEAR(z.hi, 0.434482464783175, 1e-12);
  EXPECT_TRUE(std::isnan(proportion(0, 0).p));
}

// The map's interval of a mean: 1, 2, 3 have mean 2 and sd 1; t(0.975, 2 df) = 4.303, so the
// half width is 4.303 / sqrt(3) = 2.48434.
TEST(SweepStats, MeanIntervalUsesStudentsT) {
  const std::vector<double> v{1, 2, 3};
  const Interval ci = mean_interval95(describe(v));
  EXPECT_NEAR(ci.lo, 2 - 2.48434, 1e-5);
  EXPECT_NEAR(ci.hi, 2 + 2.48434, 1e-5);
  const std::vector<double> one{5};
  EXPECT_TRUE(std::isnan(mean_interval95(describe(one)).lo));
}
