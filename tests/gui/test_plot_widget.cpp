// The live plots' data side: the min/max pyramid must give exactly the brute-force envelope
// per pixel column, fast enough for a million points a series every frame.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "flock_geometry.hpp"
#include "plot_widget.hpp"

using namespace flockscope;
using namespace flockscope::gui;

namespace {
double wiggle(std::size_t i) { return std::sin(double(i) * 0.001) * 100 + double((i * 2654435761u) % 1000) / 100.0; }
}  // namespace

TEST(Decimation, EnvelopeMatchesBruteForcePerColumn) {
  Series s;
  const std::size_t n = 100003;
  for (std::size_t i = 0; i < n; ++i) s.push(double(i) * 0.5, wiggle(i));
  for (auto [t0, t1] : {std::pair{0.0, 50001.0}, std::pair{1234.5, 9876.25}, std::pair{40000.0, 40100.0}}) {
    const int columns = 700;
    std::vector<Series::Column> cols;
    s.decimate(t0, t1, columns, cols);
    ASSERT_FALSE(cols.empty());
    EXPECT_LE(cols.size(), std::size_t(2 * columns + 4));
    // Every point in range lies inside the column it falls in, and each column's extremes
    // are attained by some point: the envelope is exact, not an approximation.
    const double scale = columns / (t1 - t0);
    for (std::size_t i = 0; i < n; ++i) {
      const double t = s.t()[i];
      if (t < t0 || t > t1) continue;
      auto it = std::upper_bound(cols.begin(), cols.end(), t, [](double v, const Series::Column& c) { return v < c.t; });
      ASSERT_NE(it, cols.begin());
      --it;
      if (cols.size() > std::size_t(columns)) {
        // Binned: in its own column, or the one before when its block straddles the edge
        // (blocks hold at most half a column's points, so the shift is under half a pixel).
        const double own = std::floor((t - t0) * scale), drawn = std::floor((it->t - t0) * scale);
        EXPECT_TRUE(drawn == own || drawn == own - 1) << own << " " << drawn;
      }
      EXPECT_LE(it->lo, s.y()[i]);
      EXPECT_GE(it->hi, s.y()[i]);
    }
  }
}

TEST(Decimation, FewPointsComeBackRaw) {
  Series s;
  for (int i = 0; i < 10; ++i) s.push(i, i * i);
  std::vector<Series::Column> cols;
  s.decimate(0, 9, 500, cols);
  ASSERT_EQ(cols.size(), 10u);
  EXPECT_EQ(cols[3].lo, 9);
  EXPECT_EQ(cols[3].hi, 9);
}

TEST(Decimation, AMillionPointsCostColumnsNotPoints) {
  Series s;
  const std::size_t n = 1000000;
  for (std::size_t i = 0; i < n; ++i) s.push(double(i), wiggle(i));
  std::vector<Series::Column> cols;
  const auto t0 = std::chrono::steady_clock::now();
  const int reps = 50;
  for (int r = 0; r < reps; ++r) s.decimate(0, double(n), 1000, cols);
  const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / reps;
  std::printf("decimate 1e6 points to 1000 columns: %.1f us, %zu columns\n", us, cols.size());
  EXPECT_LE(cols.size(), 2100u);
  double lo = 1e300, hi = -1e300;
  for (const auto& c : cols) lo = std::min(lo, c.lo), hi = std::max(hi, c.hi);
  EXPECT_EQ(lo, *std::min_element(s.y().begin(), s.y().end()));
  EXPECT_EQ(hi, *std::max_element(s.y().begin(), s.y().end()));
}

TEST(Geometry, TrianglesPointAlongTheVelocity) {
  const float x[] = {10, 20}, y[] = {5, 5}, vx[] = {0, 0}, vy[] = {2, 0};
  std::vector<float> xy;
  build_boid_triangles({x, y, vx, vy, 2}, {2, 100, 50}, 10, xy);
  ASSERT_EQ(xy.size(), 12u);
  // Boid 0 heads +y: its tip is straight below its screen centre (120, 60).
  EXPECT_FLOAT_EQ(xy[0], 120);
  EXPECT_GT(xy[1], 60);
  // Boid 1 is at rest: no NaN, it points along +x.
  for (float v : xy) EXPECT_TRUE(std::isfinite(v));
  EXPECT_GT(xy[6], 140);
  EXPECT_FLOAT_EQ(xy[7], 60);
}

TEST(Geometry, ColoursFollowScoutGroupsById) {
  const std::uint32_t ids[] = {3, 0, 1, 2};
  std::vector<Rgba> c;
  const BoidPalette pal;
  build_boid_colours(ids, 4, 1, 1, pal, c);
  ASSERT_EQ(c.size(), 12u);
  EXPECT_EQ(c[0].r, pal.plain.r);        // id 3
  EXPECT_EQ(c[3].r, pal.scout_right.r);  // id 0
  EXPECT_EQ(c[6].g, pal.scout_left.g);   // id 1
}

// Prints the geometry cost per boid (docs/performance.md's figures come from here); asserts only
// that it is finite, since timing depends on the machine and the sanitizer build.
TEST(Geometry, TimingPerBoid) {
  for (std::size_t n : {10000ul, 100000ul, 1000000ul}) {
    std::vector<float> x(n), y(n), vx(n), vy(n), xy;
    for (std::size_t i = 0; i < n; ++i)
      x[i] = float(i % 640), y[i] = float(i % 480), vx[i] = std::sin(float(i)), vy[i] = std::cos(float(i));
    const PointsView p{x.data(), y.data(), vx.data(), vy.data(), n};
    build_boid_triangles(p, {1.5f, 10, 10}, 6, xy);
    const int reps = int(4000000 / n) + 2;
    double best = 1e300;
    for (int r = 0; r < reps; ++r) {
      const auto t0 = std::chrono::steady_clock::now();
      build_boid_triangles(p, {1.5f, 10, 10}, 6, xy);
      best = std::min(best, std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("geometry %zu boids: %.2f ns/boid (best of %d)\n", n, best / double(n), reps);
    EXPECT_TRUE(std::isfinite(best));
  }
}
