// Each metric on a case small enough to compute by hand.
#include <gtest/gtest.h>

#include <algorithm>
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

// ---------------------------------------------------------------- the lab's extensions
namespace {
// Five boids on a line; velocities (0, 0) at rest, (3, 4) speed 5 and (0, 2) speed 2 moving
// down (+y is down), (-6, -8) speed 10 moving up, (1, 0) speed 1 neither.
Pts five_directions() {
  return {{0, 10, 20, 30, 40}, {0, 0, 0, 0, 0}, {0, 3, 0, -6, 1}, {0, 4, 2, -8, 0}};
}

// Boids (0, 0), (10, 0), (20, 6); food at A (3, 4) and B (20, 0); predators at (0, -2) and
// (23, 10).
//   boid (0, 0):  A 5,             B 20        -> 5
//   boid (10, 0): A sqrt(49 + 16), B 10        -> sqrt 65 (8.06)
//   boid (20, 6): A sqrt(289 + 4), B 6         -> 6
//   food_distance = (5 + sqrt 65 + 6) / 3
//   predator (0, -2):  nearest (0, 0) at 2
//   predator (23, 10): (20, 6) at sqrt(9 + 16) = 5, (10, 0) at sqrt(169 + 100)  -> 5
//   predator_distance = (2 + 5) / 2 = 3.5
const std::vector<FoodSource> kFood = {{3, 4, 1, 0}, {20, 0, 0, -1}};
const std::vector<Predator> kPredators = {{0, -2, 1, 1}, {23, 10, -1, 0}};
Pts three_near_food() { return {{0, 10, 20}, {0, 0, 6}, {1, 1, 1}, {0, 0, 0}}; }
}  // namespace

TEST(Metrics, PerchedAndSpeedsDownAndUpByHand) {
  const Pts p = five_directions();
  const Metrics m = compute_metrics(p.view(), 5);
  EXPECT_EQ(m.perched, 1u);
  EXPECT_DOUBLE_EQ(m.speed_down, (5 + 2) / 2.0);
  EXPECT_DOUBLE_EQ(m.speed_up, 10.0);
  EXPECT_DOUBLE_EQ(m.mean_speed, (0 + 5 + 2 + 10 + 1) / 5.0);
  for (int t : {1, 2}) {
    const Metrics s = compute_step_metrics(p.view(), t);
    EXPECT_EQ(s.perched, 1u) << t << " threads";
    EXPECT_DOUBLE_EQ(s.speed_down, 3.5) << t << " threads";
    EXPECT_DOUBLE_EQ(s.speed_up, 10.0) << t << " threads";
  }
  // A boid at rest whose zero is negative rests all the same; with nobody moving down or up
  // both speeds are 0 (the mean of no boid), as polarisation is 0 with no boid moving.
  const Pts flat{{0, 1, 2}, {0, 0, 0}, {-0.0f, 2, -2}, {0.0f, 0, -0.0f}};
  for (const Metrics& m2 : {compute_metrics(flat.view(), 5), compute_step_metrics(flat.view(), 2)}) {
    EXPECT_EQ(m2.perched, 1u);
    EXPECT_EQ(m2.speed_down, 0.0);
    EXPECT_EQ(m2.speed_up, 0.0);
  }
}

TEST(Metrics, FoodAndPredatorDistancesByHand) {
  const Pts p = three_near_food();
  PointsView v = p.view();
  v.food = kFood;
  v.predators = kPredators;
  const double food = (5 + std::sqrt(65.0) + 6) / 3;
  const Metrics m = compute_metrics(v, 5);
  EXPECT_NEAR(m.food_distance, food, 1e-12);
  EXPECT_NEAR(m.predator_distance, 3.5, 1e-12);
  for (int t : {1, 2, 3}) {
    const Metrics s = compute_step_metrics(v, t);
    EXPECT_NEAR(s.food_distance, food, 1e-12) << t << " threads";
    EXPECT_NEAR(s.predator_distance, 3.5, 1e-12) << t << " threads";
  }
}

// Nothing to measure: NaN in the struct, an empty cell in the CSV row (never "nan").
TEST(Metrics, NoFoodOrNoPredatorIsAnEmptyCell) {
  const Pts p = three_near_food();
  for (const Metrics& m : {compute_metrics(p.view(), 5), compute_step_metrics(p.view(), 2)}) {
    EXPECT_TRUE(std::isnan(m.food_distance));
    EXPECT_TRUE(std::isnan(m.predator_distance));
    const std::string row = metrics_row(7, 0.35, m);
    EXPECT_EQ(std::count(row.begin(), row.end(), ','), long(metrics_columns().size() - 1)) << row;
    EXPECT_EQ(row.find("nan"), std::string::npos) << row;
    EXPECT_TRUE(row.ends_with(",,")) << row;
  }
  // Food and predators but no boid: nothing to measure either.
  const Pts none{};
  PointsView v = none.view();
  v.food = kFood;
  v.predators = kPredators;
  for (const Metrics& m : {compute_metrics(v, 5), compute_step_metrics(v, 2)}) {
    EXPECT_TRUE(std::isnan(m.food_distance));
    EXPECT_TRUE(std::isnan(m.predator_distance));
    EXPECT_EQ(m.perched, 0u);
  }
  // Only predators: the food cell stays empty, the predator's is written.
  v = p.view();
  v.predators = kPredators;
  const std::string row = metrics_row(7, 0.35, compute_metrics(v, 5));
  EXPECT_TRUE(row.ends_with(",,3.5")) << row;
}

TEST(Metrics, ColumnsEndWithTheExtensions) {
  const auto& c = metrics_columns();
  ASSERT_EQ(c.size(), 16u);
  EXPECT_EQ(c[10], "share_left");  // every earlier column where it was
  EXPECT_EQ(std::vector<std::string>(c.end() - 5, c.end()),
            (std::vector<std::string>{"perched", "speed_down", "speed_up", "food_distance", "predator_distance"}));
  Metrics m;
  m.perched = 12, m.speed_down = 1.5, m.speed_up = 0.25, m.food_distance = 40.5, m.predator_distance = 3;
  const std::string row = metrics_row(1, 0.05, m);
  EXPECT_TRUE(row.ends_with(",12,1.5,0.25,40.5,3")) << row;
}

// The flock's own view carries its food sources and predators.
TEST(Metrics, AFlocksMetricsMeasureItsFoodAndPredators) {
  Params p;
  p.boids = 200;
  p.food = 3;
  p.predators = 2;
  const Flock f(p);
  const Metrics m = compute_metrics(f);
  PointsView v = view_of(f);
  ASSERT_EQ(v.food.size(), 3u);
  ASSERT_EQ(v.predators.size(), 2u);
  EXPECT_GT(m.food_distance, 0);
  EXPECT_GT(m.predator_distance, 0);
  v.food = {}, v.predators = {};
  EXPECT_TRUE(std::isnan(compute_metrics(v, 40).food_distance));
  p.food = 0, p.predators = 0;
  const Metrics none = compute_metrics(Flock(p));
  EXPECT_TRUE(std::isnan(none.food_distance));
  EXPECT_TRUE(std::isnan(none.predator_distance));
}

// The every-step versions on a flock of several blocks (the last a partial group of eight)
// with 16 food sources and 16 predators, some boids at rest: equal to compute_metrics() to
// rounding (perched exactly), and bit for bit the same on any thread count.
TEST(Metrics, StepMetricsOfTheExtensionsMatchAndDoNotDependOnThreads) {
  Pcg32 rng(11);
  Pts p;
  for (int i = 0; i < 70003; ++i) {
    p.x.push_back(float(rng.uniform(0, 3000))), p.y.push_back(float(rng.uniform(0, 2000)));
    const bool rest = i % 89 == 0;
    p.vx.push_back(rest ? 0.0f : float(rng.uniform(-3, 3))), p.vy.push_back(rest ? 0.0f : float(rng.uniform(-3, 3)));
  }
  std::vector<FoodSource> food;
  std::vector<Predator> predators;
  for (int q = 0; q < 16; ++q) {
    food.push_back({float(rng.uniform(0, 3000)), float(rng.uniform(0, 2000)), 1, 0});
    predators.push_back({float(rng.uniform(-500, 3500)), float(rng.uniform(-500, 2500)), 0, 1});
  }
  PointsView v = p.view();
  v.food = food;
  v.predators = predators;
  const Metrics m = compute_metrics(v, 10, {.nearest_neighbour = false, .clusters = false});
  const Metrics s1 = compute_step_metrics(v, 1);
  EXPECT_EQ(s1.perched, m.perched);
  EXPECT_EQ(m.perched, std::size_t((70003 + 88) / 89));
  for (const auto& [a, b] : {std::pair{s1.speed_down, m.speed_down}, {s1.speed_up, m.speed_up},
                             {s1.food_distance, m.food_distance}, {s1.predator_distance, m.predator_distance}})
    EXPECT_NEAR(a, b, 1e-12 * std::max(1.0, std::abs(b)));
  for (int t : {2, 3}) {
    const Metrics st = compute_step_metrics(v, t);
    EXPECT_EQ(st.perched, s1.perched) << t << " threads";
    EXPECT_EQ(st.speed_down, s1.speed_down) << t << " threads";
    EXPECT_EQ(st.speed_up, s1.speed_up) << t << " threads";
    EXPECT_EQ(st.food_distance, s1.food_distance) << t << " threads";
    EXPECT_EQ(st.predator_distance, s1.predator_distance) << t << " threads";
  }
}

// The time is steps x dt, not a running sum of dt: 700 steps of 0.05 are 35 (the sum gives
// 35.000000000000149), 3 of 0.1 are 0.3; after a change of dt it goes on from where it was.
TEST(FlockTime, IsStepsTimesDt) {
  Params p;
  p.boids = 10;
  p.dt = 0.05;
  Flock f(p);
  for (int i = 0; i < 700; ++i) f.step();
  EXPECT_EQ(f.time(), 35.0);
  p.dt = 0.1;
  Flock g(p);
  for (int i = 0; i < 3; ++i) g.step();
  EXPECT_EQ(g.time(), 0.3);
  p.dt = 0.25;
  g.set_params(p);
  for (int i = 0; i < 4; ++i) g.step();
  EXPECT_EQ(g.time(), 1.3);
  p.dt = 0.3;
  Flock h(p);
  for (int i = 0; i < 10; ++i) h.step();
  EXPECT_EQ(h.time(), 10 * 0.3);
}
