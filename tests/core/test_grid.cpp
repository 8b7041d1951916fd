// The grid finds exactly the neighbours all-pairs finds, boundary distances included, and
// the engine's grid step equals its all-pairs step up to float summation order.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>

#include "flockscope/core/grid.hpp"
#include "flockscope/core/rng.hpp"
#include "test_support.hpp"

using namespace flockscope;

namespace {

// Random points plus a lattice whose spacing puts many pairs at exactly r, r/5, ... apart.
void make_points(std::vector<float>& x, std::vector<float>& y, float r, std::uint64_t seed) {
  Pcg32 rng(seed);
  for (int i = 0; i < 1500; ++i) x.push_back(float(rng.uniform(-50, 700))), y.push_back(float(rng.uniform(-20, 500)));
  for (int i = 0; i < 12; ++i)
    for (int j = 0; j < 12; ++j) x.push_back(200 + float(i) * r / 5), y.push_back(100 + float(j) * r / 5);
  // Pairs at exactly r along an axis and at a 3-4-5 diagonal.
  x.push_back(10), y.push_back(10), x.push_back(10 + r), y.push_back(10);
  x.push_back(400), y.push_back(300), x.push_back(400 + r * 0.6f), y.push_back(300 + r * 0.8f);
}

std::set<std::pair<std::uint32_t, std::uint32_t>> brute_pairs(const std::vector<float>& x, const std::vector<float>& y,
                                                              float r, bool inclusive) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> out;
  const float r2 = r * r;
  for (std::uint32_t i = 0; i < x.size(); ++i)
    for (std::uint32_t j = 0; j < x.size(); ++j) {
      if (i == j) continue;
      const float dx = x[i] - x[j], dy = y[i] - y[j], d2 = dx * dx + dy * dy;
      if (inclusive ? d2 <= r2 : d2 < r2) out.insert({i, j});
    }
  return out;
}

std::set<std::pair<std::uint32_t, std::uint32_t>> grid_pairs(const std::vector<float>& x, const std::vector<float>& y,
                                                             float r, bool inclusive, int columns) {
  UniformGrid g;
  g.build(x.data(), y.data(), x.size(), r, columns);
  std::set<std::pair<std::uint32_t, std::uint32_t>> out;
  const float r2 = r * r;
  for (std::uint32_t i = 0; i < x.size(); ++i)
    g.for_each_neighbour_range(g.cell_x(x[i]), g.cell_y(y[i]), [&](std::uint32_t b, std::uint32_t e) {
      for (std::uint32_t k = b; k < e; ++k) {
        const std::uint32_t j = g.order()[k];
        if (j == i) continue;
        const float dx = x[i] - x[j], dy = y[i] - y[j], d2 = dx * dx + dy * dy;
        if (inclusive ? d2 <= r2 : d2 < r2) out.insert({i, j});
      }
    });
  return out;
}

}  // namespace

// Square cells, and cells half as wide as tall (a block two columns either side), with
// pairs exactly r apart along x, along y and on a diagonal.
TEST(Grid, SameNeighboursAsAllPairsIncludingBoundaries) {
  for (int columns : {1, 2})
    for (float r : {40.0f, 8.0f, 70.0f, 1.0f}) {
      std::vector<float> x, y;
      make_points(x, y, r, 7);
      for (bool inclusive : {false, true}) {
        const auto want = brute_pairs(x, y, r, inclusive);
        EXPECT_EQ(grid_pairs(x, y, r, inclusive, columns), want)
            << "r=" << r << " inclusive=" << inclusive << " columns=" << columns;
        EXPECT_FALSE(want.empty());
      }
    }
}

// Narrow columns where the cell budget allows them at the asked size; where it does not (a
// sparse set of points), square cells, grown as before.
TEST(Grid, NarrowColumnsOnlyWithinTheCellBudget) {
  std::vector<float> x, y;
  make_points(x, y, 40, 7);
  UniformGrid square, narrow;
  square.build(x.data(), y.data(), x.size(), 40, 1);
  narrow.build(x.data(), y.data(), x.size(), 40, 2);
  EXPECT_EQ(square.columns(), 1);
  EXPECT_EQ(narrow.columns(), 2);
  EXPECT_EQ(narrow.cell(), square.cell());
  EXPECT_EQ(narrow.ny(), square.ny());
  EXPECT_GE(narrow.nx(), 2 * square.nx() - 1);
  EXPECT_LE(narrow.nx(), 2 * square.nx());
  UniformGrid sparse;
  sparse.build(x.data(), y.data(), x.size(), 1, 2);  // 1 px cells: far beyond 4 cells a point
  EXPECT_EQ(sparse.columns(), 1);
  EXPECT_GT(sparse.cell(), 1.0f);
}

TEST(Grid, OrderIsAPermutationAndCellsAreContiguous) {
  for (int columns : {1, 2}) {
    std::vector<float> x, y;
    make_points(x, y, 40, 3);
    UniformGrid g;
    g.build(x.data(), y.data(), x.size(), 40, columns);
    std::vector<std::uint32_t> sorted = g.order();
    std::sort(sorted.begin(), sorted.end());
    for (std::uint32_t i = 0; i < sorted.size(); ++i) ASSERT_EQ(sorted[i], i);
    for (int cy = 0; cy < g.ny(); ++cy)
      for (int cx = 0; cx < g.nx(); ++cx) {
        const std::size_t c = std::size_t(cy) * std::size_t(g.nx()) + std::size_t(cx);
        for (auto k = g.cell_start(c); k < g.cell_start(c + 1); ++k) {
          const auto i = g.order()[k];
          ASSERT_EQ(g.cell_x(x[i]), cx) << "columns " << columns;
          ASSERT_EQ(g.cell_y(y[i]), cy) << "columns " << columns;
        }
      }
  }
}

TEST(Grid, ZeroRadiusAndEmptyInputAreSafe) {
  UniformGrid g;
  g.build(nullptr, nullptr, 0, 40);
  EXPECT_EQ(g.order().size(), 0u);
  std::vector<float> x(1000, 5.0f), y(1000, 5.0f);  // all at one point
  g.build(x.data(), y.data(), x.size(), 0);
  EXPECT_EQ(g.order().size(), 1000u);
}

// The engine's grid step and its all-pairs step see the same neighbours; only the order of
// float additions differs, so states agree to rounding.
TEST(Grid, EngineStepEqualsAllPairsStep) {
  for (int rules : {0, 1, 2}) {
    for (double vis : {0.0, 10.0}) {
      if (rules != 1 && vis != 0.0) continue;
      Params p;
      p.rules = rules;
      p.boids = 1500;
      p.predators = 2;
      p.scouts1 = 20, p.scouts2 = 10;
      p.D_vis = vis;
      Flock grid(p), pairs(p);
      for (int s = 0; s < 5; ++s) grid.step(), pairs.step_all_pairs();
      const auto a = grid.snapshot(), b = pairs.snapshot();
      for (std::size_t i = 0; i < a.size(); ++i) {
        ASSERT_NEAR(a.x[i], b.x[i], 2e-3) << "rules " << rules << " boid " << i;
        ASSERT_NEAR(a.vx[i], b.vx[i], 2e-3) << "rules " << rules << " boid " << i;
        ASSERT_NEAR(a.vy[i], b.vy[i], 2e-3) << "rules " << rules << " boid " << i;
      }
    }
  }
}
