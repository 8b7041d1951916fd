// The grid step's neighbour pass (sums and update of every boid) on synthetic grids whose
// cells all hold the same number of boids (4: the spawned flock at 1 boid per 400 px^2;
// 13: the flock after 500 steps, ~115 candidates a boid; 26: two registers a cell), timed for the engine's kernel
// (cornell_rows: two boids a pass over 16-candidate chunks, lane reduction, staged
// eight-boid update) and for the one-boid-per-lane prototype (lane_kernel_prototype.hpp).
// Reports CPU ns per boid. bench/run_lane_kernel.sh runs the two interleaved and prints the
// ratios.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>

#include "flockscope/core/io.hpp"
#include "lane_kernel_prototype.hpp"

using namespace flockscope;
using namespace flockscope::grid_step;

namespace {

constexpr int kCells = 64;  // a 64 x 64 grid of 40 px cells

// The previous frame, sorted by cell, and the pass's inputs over it.
struct SyntheticGrid {
  Params params;
  rules::CornellCoeffs<float> coeffs;
  UniformGrid grid;
  std::vector<float> sx, sy, svx, svy, x, y, vx, vy, bias;
  std::vector<std::uint32_t> sid, id;
  Predator predator{};

  explicit SyntheticGrid(int per_cell) {
    params = load_preset(resolve_preset("cornell-pico-predator"));
    const float cell = 40.0f * (1.0f + 1e-5f) + 1e-6f;  // what UniformGrid makes of 40 (set_geometry)
    params.width = params.height = double(kCells) * cell;
    coeffs = cornell_coeffs(params);
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> u(0.01f, cell - 0.01f), v(-3.0f, 3.0f);
    std::vector<float> px, py, pvx, pvy;
    for (int cy = 0; cy < kCells; ++cy)
      for (int cx = 0; cx < kCells; ++cx)
        for (int i = 0; i < per_cell; ++i) {
          const bool corner = cx == 0 && cy == 0 && i == 0;  // pins the bounding box to (0, 0)
          px.push_back(corner ? 0.0f : float(cx) * cell + u(rng));
          py.push_back(corner ? 0.0f : float(cy) * cell + u(rng));
          pvx.push_back(v(rng)), pvy.push_back(v(rng));
        }
    const std::size_t n = px.size();
    grid.build(px.data(), py.data(), n, 40.0f);
    if (grid.nx() != kCells || grid.ny() != kCells) std::abort();
    for (std::size_t cl = 0; cl < std::size_t(kCells * kCells); ++cl)
      if (grid.cell_start(cl + 1) - grid.cell_start(cl) != std::uint32_t(per_cell)) std::abort();
    for (auto* a : {&sx, &sy, &svx, &svy, &x, &y, &vx, &vy}) a->assign(n + kRunLanes, 0.0f);
    sid.assign(n + kRunLanes, 0), id.assign(n + kRunLanes, 0);
    for (std::size_t s = 0; s < n; ++s) {
      const std::uint32_t o = grid.order()[s];
      sx[s] = px[o], sy[s] = py[o], svx[s] = pvx[o], svy[s] = pvy[o], sid[s] = o;
    }
    predator = {float(params.width) / 2, float(params.height) / 2, 0, 0};
  }
  std::size_t size() const { return sx.size() - kRunLanes; }
  CornellPass pass() {
    const float range2 = coeffs.range * coeffs.range;
    return CornellPass{.grid = &grid, .sx = sx.data(), .sy = sy.data(), .svx = svx.data(), .svy = svy.data(),
                       .sid = sid.data(), .x = x.data(), .y = y.data(), .vx = vx.data(), .vy = vy.data(),
                       .id = id.data(), .bias = bias.data(), .bias_size = 0, .p = &params, .c = &coeffs,
                       .biasval = float(params.biasval), .predators = &predator, .predator_count = 1,
                       .box_test = !(range2 >= coeffs.visual2 && range2 >= coeffs.protected2),
                       .mask_self = !(coeffs.protected2 > 0.0f), .avx512 = true};
  }
};

void empty_box(float* box) {
  const float inf = std::numeric_limits<float>::infinity();
  box[0] = inf, box[1] = -inf, box[2] = inf, box[3] = -inf;
}

void run_engine_kernel(SyntheticGrid& s, const CornellPass& k, std::vector<float>& sums, float* box) {
  empty_box(box);
  cornell_rows(k, 0, s.grid.ny(), sums, box);
}

void run_lane_kernel(SyntheticGrid& s, const CornellPass& k, float* box) {
  empty_box(box);
  if (k.box_test || k.mask_self) std::abort();  // the prototype's case (lane_kernel_prototype.hpp)
  lanes::lane_rows_avx512(k, 0, s.grid.ny(), box);
}

// Both kernels must give the same flock up to the rounding of their different summation
// orders (a benchmark of a wrong kernel means nothing).
void check_agreement(SyntheticGrid& s) {
  const CornellPass k = s.pass();
  std::vector<float> sums;
  float box[4];
  run_engine_kernel(s, k, sums, box);
  const std::vector<float> ex = s.x, ey = s.y;
  run_lane_kernel(s, k, box);
  for (std::size_t i = 0; i < s.size(); ++i)
    if (!(std::fabs(ex[i] - s.x[i]) < 1e-3f && std::fabs(ey[i] - s.y[i]) < 1e-3f)) {
      std::fprintf(stderr, "lane kernel disagrees at slot %zu: %g,%g vs %g,%g\n", i, double(s.x[i]), double(s.y[i]),
                   double(ex[i]), double(ey[i]));
      std::abort();
    }
}

bool has_avx512() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512vl") &&
         __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq");
}

}  // namespace

static void BM_EngineKernel(benchmark::State& state) {
  if (!has_avx512()) return state.SkipWithError("needs AVX-512");
  SyntheticGrid s(int(state.range(0)));
  check_agreement(s);
  const CornellPass k = s.pass();
  std::vector<float> sums;
  float box[4];
  for (auto _ : state) {
    run_engine_kernel(s, k, sums, box);
    benchmark::DoNotOptimize(box);
  }
  state.counters["ns_per_boid"] = benchmark::Counter(double(state.iterations()) * double(s.size()) * 1e-9,
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_EngineKernel)->Arg(4)->Arg(13)->Arg(26)->Unit(benchmark::kMicrosecond);

static void BM_LaneKernel(benchmark::State& state) {
  if (!has_avx512()) return state.SkipWithError("needs AVX-512");
  SyntheticGrid s(int(state.range(0)));
  const CornellPass k = s.pass();
  float box[4];
  for (auto _ : state) {
    run_lane_kernel(s, k, box);
    benchmark::DoNotOptimize(box);
  }
  state.counters["ns_per_boid"] = benchmark::Counter(double(state.iterations()) * double(s.size()) * 1e-9,
                                                     benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_LaneKernel)->Arg(4)->Arg(13)->Arg(26)->Unit(benchmark::kMicrosecond);
