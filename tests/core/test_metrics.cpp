// Each metric on a case small enough to compute by hand.
#include <gtest/gtest.h>

#include <cmath>

#include "flockscope/core/metrics.hpp"
#include "flockscope/core/rng.hpp"

using namespace flockscope;

namespace {
struct Pts {
  std::vector<float> x, y, vx, vy;
  PointsView view() const { return {x.data(), y.data(), vx.data(), vy.data(), x.size()}; }
};
}  // namespace

TEST(Metrics, SquareOfFour) {
  // Corners of a 2x2 square; velocities (2,0), (2,0), (-1,0), (0,3).
  const Pts p{{0, 2, 0, 2}, {0, 0, 2, 2}, {2, 2, -1, 0}, {0, 0, 0, 3}};
  const Metrics m = compute_metrics(p.view(), 2.5);
  EXPECT_DOUBLE_EQ(m.centroid_x, 1);
  EXPECT_DOUBLE_EQ(m.centroid_y, 1);
  EXPECT_NEAR(m.diameter, std::sqrt(2.0), 1e-12);  // every corner is sqrt(2) from the centre
  EXPECT_NEAR(m.mean_speed, (2 + 2 + 1 + 3) / 4.0, 1e-12);
  // unit headings (1,0), (1,0), (-1,0), (0,1): mean (0.25, 0.25)
  EXPECT_NEAR(m.polarisation, std::sqrt(0.125), 1e-12);
  EXPECT_NEAR(m.mean_nn_distance, 2, 1e-12);
  EXPECT_EQ(m.clusters, 1);                         // side 2 < 2.5 links all
  EXPECT_EQ(compute_metrics(p.view(), 2.0).clusters, 4);  // strict: 2 is not < 2
  EXPECT_DOUBLE_EQ(m.share_right, 0.5);
  EXPECT_DOUBLE_EQ(m.share_left, 0.25);
}

TEST(Metrics, TwoGroupsAndInfiniteVision) {
  const Pts p{{0, 1, 100, 101, 102}, {0, 0, 0, 0, 0}, {1, 1, 1, 1, 1}, {0, 0, 0, 0, 0}};
  EXPECT_EQ(compute_metrics(p.view(), 10).clusters, 2);
  EXPECT_EQ(compute_metrics(p.view(), INFINITY).clusters, 1);
  EXPECT_NEAR(compute_metrics(p.view(), 10).mean_nn_distance, 1, 1e-12);
  EXPECT_NEAR(compute_metrics(p.view(), 10).polarisation, 1, 1e-12);
}

TEST(Metrics, DegenerateFlocksGiveNumbersNotNaN) {
  const Pts none{};
  const Metrics m0 = compute_metrics(none.view(), 40);
  EXPECT_EQ(m0.clusters, 0);
  EXPECT_EQ(m0.diameter, 0);
  const Pts one{{5}, {5}, {0}, {0}};
  const Metrics m1 = compute_metrics(one.view(), 40);
  EXPECT_EQ(m1.diameter, 0);
  EXPECT_EQ(m1.polarisation, 0);  // a boid at rest has no heading
  EXPECT_EQ(m1.mean_nn_distance, 0);
  EXPECT_EQ(m1.clusters, 1);
}

namespace {
double brute_mean_nn(const Pts& p) {
  double total = 0;
  for (std::size_t i = 0; i < p.x.size(); ++i) {
    double best2 = INFINITY;
    for (std::size_t j = 0; j < p.x.size(); ++j) {
      const double dx = double(p.x[i]) - p.x[j], dy = double(p.y[i]) - p.y[j];
      if (i != j) best2 = std::min(best2, dx * dx + dy * dy);
    }
    total += std::sqrt(best2);
  }
  return total / double(p.x.size());
}

int brute_clusters(const Pts& p, double r) {
  std::vector<int> label(p.x.size(), -1);
  int groups = 0;
  for (std::size_t s = 0; s < p.x.size(); ++s) {
    if (label[s] >= 0) continue;
    std::vector<std::size_t> todo{s};
    label[s] = groups;
    while (!todo.empty()) {
      const std::size_t i = todo.back();
      todo.pop_back();
      for (std::size_t j = 0; j < p.x.size(); ++j) {
        const double dx = double(p.x[i]) - p.x[j], dy = double(p.y[i]) - p.y[j];
        if (label[j] < 0 && dx * dx + dy * dy < r * r) label[j] = groups, todo.push_back(j);
      }
    }
    ++groups;
  }
  return groups;
}

Pts at_rest(std::size_t n, float x, float y) {
  Pts p;
  p.x.assign(n, x), p.y.assign(n, y), p.vx.assign(n, 1), p.vy.assign(n, 0);
  return p;
}
}  // namespace

TEST(Metrics, NearestNeighbourAndClustersMatchBruteForce) {
  Pcg32 rng(11);
  Pts p;
  for (int i = 0; i < 800; ++i) {
    // Clumps and loners, spread over a wide box.
    const bool clump = i % 3 != 0;
    p.x.push_back(float(clump ? 100 + rng.uniform(0, 30) : rng.uniform(-500, 2000)));
    p.y.push_back(float(clump ? 200 + rng.uniform(0, 30) : rng.uniform(-300, 900)));
    p.vx.push_back(1), p.vy.push_back(0);
  }
  EXPECT_NEAR(compute_metrics(p.view(), 40).mean_nn_distance, brute_mean_nn(p), 1e-9);

  // Clusters by brute-force flood fill.
  const double r = 60;
  const int groups = brute_clusters(p, r);
  EXPECT_EQ(compute_metrics(p.view(), r).clusters, groups);
  EXPECT_GT(groups, 10);
}

// A million boids on one spot (what `run --init` reads from a file of identical rows): every
// nearest neighbour is at 0 and all are one cluster. A grid put them all in one cell and
// tested every pair (100,000 took 22 s); this must cost about a sort.
TEST(Metrics, CoincidentBoidsAreLinearNotQuadratic) {
  const Pts p = at_rest(1000000, 320, 240);
  const Metrics m = compute_metrics(p.view(), 40);
  EXPECT_EQ(m.mean_nn_distance, 0);
  EXPECT_EQ(m.clusters, 1);
  EXPECT_EQ(m.diameter, 0);
  // Two spots 10 apart, 200,000 boids each: linked below a radius above 10, not at 10.
  Pts two = at_rest(400000, 0, 0);
  for (std::size_t i = 200000; i < two.x.size(); ++i) two.x[i] = 10;
  EXPECT_EQ(compute_metrics(two.view(), 10).clusters, 2);
  EXPECT_EQ(compute_metrics(two.view(), 10.5).clusters, 1);
  EXPECT_EQ(compute_metrics(two.view(), 0).clusters, 400000);  // no radius: every boid alone
  EXPECT_EQ(compute_metrics(two.view(), 10).mean_nn_distance, 0);
  EXPECT_DOUBLE_EQ(compute_metrics(two.view(), 10).diameter, 5);
}

// A million boids on a unit lattice (1000 x 1000) with the visual range 40: each boid has
// about 5,000 others within reach, which a per-boid pair test over 3x3 cells never finished.
TEST(Metrics, CrowdedLatticeIsExact) {
  Pts p;
  for (int i = 0; i < 1000; ++i)
    for (int j = 0; j < 1000; ++j) p.x.push_back(float(j)), p.y.push_back(float(i)), p.vx.push_back(0), p.vy.push_back(1);
  const Metrics m = compute_metrics(p.view(), 40);
  EXPECT_EQ(m.mean_nn_distance, 1);
  EXPECT_EQ(m.clusters, 1);
  EXPECT_EQ(compute_metrics(p.view(), 1.0).clusters, 1000000);  // strict: 1 is not < 1
  EXPECT_EQ(compute_metrics(p.view(), 1.0001).clusters, 1);
  // 300 columns 0.5 apart vertically, with gaps of 1 and 1.5 between them in turn: radius
  // 1.2 links the columns in pairs (150 clusters) and every nearest neighbour is 0.5 away.
  Pts cols;
  for (int i = 0; i < 300; ++i)
    for (int j = 0; j < 300; ++j) {
      cols.x.push_back(float(j / 2 * 2.5 + j % 2)), cols.y.push_back(float(i) * 0.5f);
      cols.vx.push_back(1), cols.vy.push_back(0);
    }
  EXPECT_EQ(compute_metrics(cols.view(), 1.2).clusters, 150);
  EXPECT_EQ(compute_metrics(cols.view(), 1.2).mean_nn_distance, 0.5);
}

// Crowded clumps with duplicates (the k-d tree's case), and a boid 10^12 away (the widened
// cells' case): the same numbers as all pairs, bit for bit.
TEST(Metrics, CrowdedAndFarFlungMatchBruteForce) {
  Pcg32 rng(5);
  Pts p;
  for (int i = 0; i < 1500; ++i) {
    const int kind = i % 4;
    const float x = kind == 0 ? 50.0f : float(kind == 1 ? 60 + rng.uniform(0, 0.5) : rng.uniform(-100, 300));
    const float y = kind == 0 ? 50.0f : float(kind == 1 ? 60 + rng.uniform(0, 0.5) : rng.uniform(-100, 300));
    p.x.push_back(x), p.y.push_back(y), p.vx.push_back(1), p.vy.push_back(0);
  }
  EXPECT_EQ(compute_metrics(p.view(), 7).mean_nn_distance, brute_mean_nn(p));
  EXPECT_EQ(compute_metrics(p.view(), 7).clusters, brute_clusters(p, 7));
  p.x.push_back(1e12f), p.y.push_back(3), p.vx.push_back(1), p.vy.push_back(0);
  EXPECT_EQ(compute_metrics(p.view(), 7).mean_nn_distance, brute_mean_nn(p));
  EXPECT_EQ(compute_metrics(p.view(), 7).clusters, brute_clusters(p, 7));
  EXPECT_EQ(compute_metrics(p.view(), 30).clusters, brute_clusters(p, 30));
}

TEST(Metrics, CsvRowHasOneValuePerColumn) {
  Metrics m;
  m.diameter = 1.5;
  const std::string row = metrics_row(3, 0.15, m);
  EXPECT_EQ(std::count(row.begin(), row.end(), ','), long(metrics_columns().size() - 1));
  EXPECT_EQ(row.rfind("3,0.15,1.5,", 0), 0u) << row;
}

// The window's every-step metrics: equal to compute_metrics() to rounding, on a flock of
// several blocks (the last one ending in a partial group of eight boids) with boids at rest,
// and bit for bit the same on any thread count.
TEST(Metrics, StepMetricsMatchAndDoNotDependOnThreads) {
  Pcg32 rng(5);
  Pts p;
  for (int i = 0; i < 70003; ++i) {
    p.x.push_back(float(rng.uniform(0, 3000))), p.y.push_back(float(rng.uniform(0, 2000)));
    const bool rest = i % 97 == 0;
    p.vx.push_back(rest ? 0.0f : float(rng.uniform(-3, 3))), p.vy.push_back(rest ? 0.0f : float(rng.uniform(-3, 3)));
  }
  const Metrics m = compute_metrics(p.view(), 10, {.nearest_neighbour = false, .clusters = false});
  const Metrics s1 = compute_step_metrics(p.view(), 1);
  for (const auto& [a, b] : {std::pair{s1.diameter, m.diameter}, {s1.centroid_x, m.centroid_x}, {s1.centroid_y, m.centroid_y},
                             {s1.polarisation, m.polarisation}, {s1.mean_speed, m.mean_speed}})
    EXPECT_NEAR(a, b, 1e-12 * std::max(1.0, std::abs(b)));
  EXPECT_EQ(s1.share_right, m.share_right);
  EXPECT_EQ(s1.share_left, m.share_left);
  for (int t : {2, 3}) {
    const Metrics st = compute_step_metrics(p.view(), t);
    EXPECT_EQ(st.diameter, s1.diameter) << t << " threads";
    EXPECT_EQ(st.polarisation, s1.polarisation) << t << " threads";
    EXPECT_EQ(st.mean_speed, s1.mean_speed) << t << " threads";
    EXPECT_EQ(st.centroid_x, s1.centroid_x) << t << " threads";
  }
  EXPECT_EQ(compute_step_metrics({nullptr, nullptr, nullptr, nullptr, 0}, 2).diameter, 0);
}

// Three boids (fewer than one group of eight), one at rest: centroid (1, 1), distances
// sqrt 2, sqrt 5, sqrt 5; speeds 2, 0, 1; the two moving boids head (1, 0) and (0, -1).
TEST(Metrics, StepMetricsHandComputedWithABoidAtRest) {
  Pts p;
  p.x = {0, 3, 0}, p.y = {0, 0, 3};
  p.vx = {2, 0, 0}, p.vy = {0, 0, -1};
  for (int t : {1, 2}) {
    const Metrics m = compute_step_metrics(p.view(), t);
    EXPECT_DOUBLE_EQ(m.centroid_x, 1.0);
    EXPECT_DOUBLE_EQ(m.centroid_y, 1.0);
    EXPECT_DOUBLE_EQ(m.diameter, (std::sqrt(2.0) + 2 * std::sqrt(5.0)) / 3);
    EXPECT_DOUBLE_EQ(m.mean_speed, 1.0);
    EXPECT_DOUBLE_EQ(m.polarisation, std::sqrt(2.0) / 2);
    EXPECT_DOUBLE_EQ(m.share_right, 1.0 / 3);
    EXPECT_EQ(m.share_left, 0.0);
  }
}
