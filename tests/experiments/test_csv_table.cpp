// CSV cells and tables as the experiments write and read them.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "flockscope/experiments/csv_table.hpp"

using namespace flockscope::experiments;

TEST(SweepStats, NumberCellsReadBackExactly) {
  for (double v : {0.1, 1.0 / 3.0, 12345.678, -2.5, 1e-300}) EXPECT_EQ(std::stod(number_cell(v)), v);
  EXPECT_EQ(number_cell(NAN), "NA");
  EXPECT_EQ(number_cell(-0.0), "0");
  EXPECT_EQ(number_cell(INFINITY), "inf");
}
