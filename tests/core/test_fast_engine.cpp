// The mechanisms of the fast engine (docs/performance.md): the parallel counting sort equals
// the serial one, a group's block is walked slot by slot in run order, the grid pass equals
// all-pairs (dense cells, groups of every shape, self exclusion without a protected range, the
// box test), the portable, AVX2 and AVX-512 kernels agree bit for bit, and flocks big enough
// to take every parallel path give the same state on 1, 2 and 3 threads.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/grid.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/core/rng.hpp"

#include "cornell_pass.hpp"  // core/src: BlockSlots

using namespace flockscope;

namespace {

// More points than the parallel threshold (16384), with a dense blob and exact-r lattice.
void many_points(std::vector<float>& x, std::vector<float>& y, std::uint64_t seed) {
  Pcg32 rng(seed);
  for (int i = 0; i < 30000; ++i) x.push_back(float(rng.uniform(-50, 4000))), y.push_back(float(rng.uniform(-20, 3000)));
  for (int i = 0; i < 3000; ++i) x.push_back(float(rng.uniform(500, 530))), y.push_back(float(rng.uniform(700, 720)));
  for (int i = 0; i < 20; ++i)
    for (int j = 0; j < 20; ++j) x.push_back(1000 + float(i) * 8), y.push_back(1000 + float(j) * 8);
}

Params bench_params(const char* preset, std::int64_t boids) {
  Params p = load_preset(resolve_preset(preset));
  p.boids = boids;
  p.width = p.height = std::sqrt(400.0 * double(boids));
  return p;
}

void expect_close(const FlockSnapshot& a, const FlockSnapshot& b, const char* what) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    ASSERT_NEAR(a.x[i], b.x[i], 2e-3) << what << " boid " << i;
    ASSERT_NEAR(a.y[i], b.y[i], 2e-3) << what << " boid " << i;
    ASSERT_NEAR(a.vx[i], b.vx[i], 2e-3) << what << " boid " << i;
    ASSERT_NEAR(a.vy[i], b.vy[i], 2e-3) << what << " boid " << i;
  }
}

// Grid step vs all-pairs step from the same state.
void expect_grid_equals_all_pairs(const Params& p, const FlockSnapshot& start, int steps, int threads,
                                  const char* what) {
  Flock grid(p, start), pairs(p, start);
  grid.set_threads(threads), pairs.set_threads(threads);
  for (int s = 0; s < steps; ++s) grid.step(), pairs.step_all_pairs();
  expect_close(grid.snapshot(), pairs.snapshot(), what);
}

FlockSnapshot blob(std::size_t n, float side, std::uint64_t seed) {
  Pcg32 rng(seed);
  FlockSnapshot s;
  for (std::size_t i = 0; i < n; ++i) {
    s.x.push_back(float(rng.uniform(300, 300 + side)));
    s.y.push_back(float(rng.uniform(200, 200 + side)));
    s.vx.push_back(float(rng.uniform(-4, 4)));
    s.vy.push_back(float(rng.uniform(-4, 4)));
  }
  return s;
}

// Cells of every occupancy the kernels' groups meet, on the engine's grid for the presets'
// range (cells 40 px tall and 20 px wide): in row 2, cells holding 1, 0, 16, 17, 0, 0, 3,
// 2, 5, 4, 33, 0, 1, 40, 15, 1 and 64 boids (a 16-lane group spanning several cells, one
// ending inside a cell, a sparse run merged into one group, cells of 17, 32+ and 64); row 3
// the same shifted by one cell (a block's three runs of different lengths); row 5 single
// boids every other cell; row 7 boids exactly on the cells' edges and corners. With
// `background` random boids below (for the parallel paths).
FlockSnapshot group_shapes(std::size_t background) {
  Pcg32 rng(21);
  FlockSnapshot s;
  auto add = [&](float x, float y) {
    s.x.push_back(x), s.y.push_back(y);
    s.vx.push_back(float(rng.uniform(-3, 3))), s.vy.push_back(float(rng.uniform(-3, 3)));
  };
  add(0, 0);  // pins the grid's corner
  const int counts[] = {1, 0, 16, 17, 0, 0, 3, 2, 5, 4, 33, 0, 1, 40, 15, 1, 64};
  for (int row : {2, 3})
    for (int c = 0; c < int(std::size(counts)); ++c)
      for (int i = 0; i < counts[c]; ++i)
        add(float((c + row - 2) * 20 + rng.uniform(0.25, 19.75)), float(row * 40 + rng.uniform(0.5, 39.5)));
  for (int c = 0; c < 40; c += 2) add(float(c * 20 + 10), float(5 * 40 + 20));
  for (int c = 0; c <= 40; ++c) add(float(c * 20), float(7 * 40)), add(float(c * 20 + 10), float(7 * 40));
  for (std::size_t i = 0; i < background; ++i) add(float(rng.uniform(0, 2000)), float(rng.uniform(400, 2000)));
  return s;
}

// The state after `steps` from `start` (a spawned flock if empty) with the kernel named as
// FLOCKSCOPE_KERNEL takes it ("" = the best the CPU has).
std::uint64_t hash_with_kernel(const Params& p, const FlockSnapshot& start, const char* kernel, int threads,
                               int steps) {
  if (kernel[0] != '\0') ::setenv("FLOCKSCOPE_KERNEL", kernel, 1);
  Flock f = start.size() > 0 ? Flock(p, start) : Flock(p);
  f.set_threads(threads);
  for (int s = 0; s < steps; ++s) f.step();
  ::unsetenv("FLOCKSCOPE_KERNEL");
  return f.state_hash();
}

}  // namespace

// Each thread zeroes and sums the counters of the cells from its range's first point on: the
// input orders below put those splits anywhere: in cell order (the engine's case, the previous
// step's cells), in reversed cell order (a later range starts in an earlier cell) and at random.
TEST(FastEngine, ParallelCountingSortEqualsSerialSort) {
  std::vector<float> px, py;
  many_points(px, py, 11);
  UniformGrid by_cell;
  by_cell.build(px.data(), py.data(), px.size(), 40.0f);
  const std::size_t n = px.size();
  for (const std::string input : {"random", "cell order", "reversed cell order"})
    for (float r : {40.0f, 8.0f})
      for (int columns : {1, 2}) {  // square cells; two columns a cell, as the engine sorts
        SCOPED_TRACE(input + ", r " + std::to_string(r) + ", columns " + std::to_string(columns));
        std::vector<float> x = px, y = py;
        for (std::size_t i = 0; i < n && input != "random"; ++i) {
          const std::size_t from = by_cell.order()[input == "cell order" ? i : n - 1 - i];
          x[i] = px[from], y[i] = py[from];
        }
        UniformGrid serial;
        serial.build(x.data(), y.data(), n, r, columns);
        for (int threads : {1, 2, 3, 4}) {
          UniformGrid g;
          std::vector<std::uint32_t> slot(x.size(), 0xffffffffu);
          g.build_scatter(
              x.data(), y.data(), x.size(), r, threads, [&](std::size_t i, std::uint32_t k) { slot[i] = k; }, 4.0,
              nullptr, columns);  // build()'s cell budget, so the cells are the same
          ASSERT_EQ(g.columns(), serial.columns());
          ASSERT_EQ(g.nx(), serial.nx());
          ASSERT_EQ(g.ny(), serial.ny());
          for (std::size_t c = 0; c <= std::size_t(g.nx()) * std::size_t(g.ny()); ++c)
            ASSERT_EQ(g.cell_start(c), serial.cell_start(c)) << "threads " << threads << " cell " << c;
          for (std::size_t i = 0; i < x.size(); ++i)
            ASSERT_EQ(serial.order()[slot[i]], i) << "threads " << threads << " point " << i;
        }
      }
}

// The kernels' one loop over a block visits exactly the slots of the three nested run loops,
// in their order: for every layout of runs of 0-3 slots with gaps of 0-2 between them (empty
// runs first, between and last; runs that touch), and the grid's edge rows, whose missing
// runs are {0, 0} after non-empty ones; and the slots past the block's end stay inside the
// arrays' padding.
TEST(FastEngine, BlockSlotsWalkTheRunsInOrder) {
  auto check = [](const grid_step::BlockRuns& block) {
    std::vector<std::uint32_t> nested, walked;
    for (int r = 0; r < 3; ++r)
      for (std::uint32_t j = block.run[2 * r]; j < block.run[2 * r + 1]; ++j) nested.push_back(j);
    for (grid_step::BlockSlots slots(block); slots.left() > 0; slots.advance()) walked.push_back(slots.slot());
    EXPECT_EQ(walked, nested) << block.run[0] << " " << block.run[1] << " " << block.run[2] << " " << block.run[3]
                              << " " << block.run[4] << " " << block.run[5];
    // The software-pipelined loop tests the slots up to kSlotPadding candidates past the
    // block's end: they must stay inside the arrays, whose padding starts at the largest run end.
    const grid_step::BlockSlots slots(block);
    const std::uint32_t end = std::max({block.run[1], block.run[3], block.run[5]});
    for (std::uint32_t u = 0; u < grid_step::kSlotPadding; ++u)
      EXPECT_LT(slots.slot_at(slots.left() + u), end + grid_step::kSlotPadding) << u;
  };
  int layouts = 0;
  for (std::uint32_t first = 0; first < 3; ++first)
    for (std::uint32_t n0 = 0; n0 < 4; ++n0)
      for (std::uint32_t g1 = 0; g1 < 3; ++g1)
        for (std::uint32_t n1 = 0; n1 < 4; ++n1)
          for (std::uint32_t g2 = 0; g2 < 3; ++g2)
            for (std::uint32_t n2 = 0; n2 < 4; ++n2) {
              const std::uint32_t b1 = first + n0 + g1, b2 = b1 + n1 + g2;
              check({{first, first + n0, b1, b1 + n1, b2, b2 + n2}});
              check({{first, first + n0, b1, b1 + n1, 0, 0}});  // an edge row: two rows of cells
              ++layouts;
            }
  EXPECT_EQ(layouts, 3 * 4 * 3 * 4 * 3 * 4);
  check({{0, 0, 0, 0, 0, 0}});
  check({{5, 9, 0, 0, 0, 0}});  // a one-row grid
}

TEST(FastEngine, ScatterHandlesEmptyAndSinglePointInput) {
  UniformGrid g;
  int calls = 0;
  g.build_scatter(nullptr, nullptr, 0, 40, 2, [&](std::size_t, std::uint32_t) { ++calls; });
  EXPECT_EQ(calls, 0);
  const float x = 5, y = 7;
  std::uint32_t got = 99;
  g.build_scatter(&x, &y, 1, 40, 2, [&](std::size_t, std::uint32_t k) { got = k; });
  EXPECT_EQ(got, 0u);
}

// Bench density and rules, big enough for the parallel sort and the parallel row pass.
TEST(FastEngine, LargeFlockGridEqualsAllPairsOnTwoThreads) {
  Params p = bench_params("cornell-pico-predator", 20000);
  p.scouts1 = 50, p.scouts2 = 30;  // the update's scalar path for groups holding scouts
  Flock warm(p);
  warm.set_threads(2);
  for (int s = 0; s < 20; ++s) warm.step();
  expect_grid_equals_all_pairs(p, warm.snapshot(), 2, 2, "20k boids");
}

// Thousands of boids in a handful of cells: big candidate buffers and long staging.
TEST(FastEngine, DenseCellsEqualAllPairs) {
  Params p = load_preset(resolve_preset("cornell-pico-predator"));
  const FlockSnapshot start = blob(3000, 70, 5);
  expect_grid_equals_all_pairs(p, start, 3, 1, "dense");
  expect_grid_equals_all_pairs(p, start, 3, 2, "dense, 2 threads");
  // Without a protected range a boid's own entry would count as a visible neighbour: it
  // must be excluded by slot, as all-pairs does.
  p.protectedRange = 0;
  expect_grid_equals_all_pairs(p, blob(500, 60, 6), 3, 1, "protectedRange 0");
  // Coincident boids (distance 0) are neighbours of each other, not of themselves.
  FlockSnapshot twins = blob(200, 50, 7);
  for (std::size_t i = 0; i + 1 < twins.size(); i += 2) twins.x[i + 1] = twins.x[i], twins.y[i + 1] = twins.y[i];
  expect_grid_equals_all_pairs(p, twins, 2, 1, "coincident");
}

TEST(FastEngine, GroupsOfEveryShapeEqualAllPairs) {
  Params p = load_preset(resolve_preset("cornell-pico-predator"));
  const FlockSnapshot start = group_shapes(0);
  expect_grid_equals_all_pairs(p, start, 1, 1, "group shapes, one step");
  expect_grid_equals_all_pairs(p, start, 4, 1, "group shapes");
  p.protectedRange = 0;
  expect_grid_equals_all_pairs(p, start, 4, 1, "group shapes, protectedRange 0");
}

// A visual range whose float square rounds above range * range switches the box test on.
static double box_test_visual_range() {
  for (double v = 40.001; v < 41; v += 0.001) {
    const float range = float(v);
    if (range * range < float(v * v)) return v;
  }
  return 0;
}

TEST(FastEngine, BoxTestPathEqualsAllPairs) {
  Params p = load_preset(resolve_preset("cornell-pico-predator"));
  const double vis = box_test_visual_range();
  ASSERT_GT(vis, 0) << "no visual range found that needs the box test";
  p.visualRange = vis;
  expect_grid_equals_all_pairs(p, blob(2000, 200, 8), 3, 1, "box test");
}

// The vector kernels against the portable one, each where the CPU has it: on a CPU without
// AVX-512 its kernel's tests report themselves skipped (the step would fall back to the best
// kernel the CPU has, which would then be compared in its place).
class VectorKernel : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    if (!grid_kernel_supported(GetParam()))
      GTEST_SKIP() << "this CPU cannot run the " << GetParam() << " kernel ("
                   << (std::string_view(GetParam()) == "avx512" ? "AVX-512 F, VL, BW and DQ" : "AVX2 and FMA")
                   << " needed); its agreement with the portable kernel is not checked here";
  }
};

INSTANTIATE_TEST_SUITE_P(FastEngine, VectorKernel, ::testing::Values("avx2", "avx512"),
                         [](const auto& info) { return std::string(info.param); });

TEST_P(VectorKernel, AgreesWithThePortableKernelBitForBit) {
  const Params p = bench_params("cornell-pico-predator", 20000);
  EXPECT_EQ(hash_with_kernel(p, {}, GetParam(), 2, 30), hash_with_kernel(p, {}, "portable", 2, 30));
}

// Every branch of the rules' update, which the AVX-512 kernel runs on 16 lanes: scouts (their
// groups take the eight-lane form), boids standing still with nobody in sight (the speed
// limit's scalar rule for a zero speed), with and without the predator, and each of the three
// rules switched off.
TEST_P(VectorKernel, AgreesOnEveryBranchOfTheUpdate) {
  FlockSnapshot start = blob(1500, 120, 13);
  for (float x : {130.0f, 200.0f, 470.0f, 520.0f})
    for (float y : {130.0f, 360.0f}) start.x.push_back(x), start.y.push_back(y), start.vx.push_back(0), start.vy.push_back(0);
  Params p = load_preset(resolve_preset("cornell-pico-predator"));
  p.scouts1 = 20, p.scouts2 = 10;
  std::vector<std::pair<std::string, Params>> cases = {{"scouts and the predator", p}};
  Params q = p;
  q.predators = 0;
  cases.emplace_back("no predator", q);
  q.cohesion = false;
  cases.emplace_back("no cohesion", q);
  q = p, q.alignment = false;
  cases.emplace_back("no alignment", q);
  q = p, q.separation = false;
  cases.emplace_back("no separation", q);
  for (const auto& [name, params] : cases)
    EXPECT_EQ(hash_with_kernel(params, start, GetParam(), 1, 3), hash_with_kernel(params, start, "portable", 1, 3))
        << name;
}

// The preset's parameters on each of the pass's paths: plain, the box test (a visual range
// whose float square rounds above range * range), and self exclusion (protectedRange 0).
static std::vector<Params> pass_paths() {
  const Params p = load_preset(resolve_preset("cornell-pico-predator"));
  Params box = p, no_protected = p;
  box.visualRange = box_test_visual_range();
  no_protected.protectedRange = 0;
  return {p, box, no_protected};
}

static std::string path_name(const Params& q) {
  return "visual " + std::to_string(q.visualRange) + ", protected " + std::to_string(q.protectedRange);
}

// Dense cells (a boid's group far from its cell's start, groups spanning cells), the box-test
// path and self exclusion without a protected range.
TEST_P(VectorKernel, AgreesOnDenseCellsAndTheBoxTest) {
  const FlockSnapshot start = blob(3000, 120, 11);
  ASSERT_GT(box_test_visual_range(), 0);
  for (const Params& q : pass_paths())
    EXPECT_EQ(hash_with_kernel(q, start, GetParam(), 1, 4), hash_with_kernel(q, start, "portable", 1, 4))
        << path_name(q);
}

// Groups of every shape on 1 thread, and on 2 and 3 threads (with the portable kernel too).
TEST_P(VectorKernel, AgreesOnEveryGroupShapeOnAnyThreadCount) {
  const FlockSnapshot start = group_shapes(6000);
  ASSERT_GT(box_test_visual_range(), 0);
  for (const Params& q : pass_paths()) {
    const auto one = hash_with_kernel(q, start, "portable", 1, 5);
    const std::string path = path_name(q);
    EXPECT_EQ(hash_with_kernel(q, start, GetParam(), 1, 5), one) << "1 thread, " << path;
    EXPECT_EQ(hash_with_kernel(q, start, GetParam(), 2, 5), one) << "2 threads, " << path;
    EXPECT_EQ(hash_with_kernel(q, start, "portable", 3, 5), one) << "portable, 3 threads, " << path;
  }
}

TEST(FastEngine, LargeFlocksSameStateOnOneTwoAndThreeThreads) {
  for (const char* name : {"cornell-pico-predator", "cornell-consensus"}) {
    const Params p = bench_params(name, 20000);
    const auto one = hash_with_kernel(p, {}, "", 1, 40);
    EXPECT_EQ(hash_with_kernel(p, {}, "", 2, 40), one) << name;
    EXPECT_EQ(hash_with_kernel(p, {}, "", 3, 40), one) << name;
  }
}
