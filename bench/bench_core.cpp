// Inner pieces of the engine at constant density (1 boid per 400 px^2), cornell-pico-predator
// rules: grid build, a whole step (grid + neighbour pass + rules), the all-pairs step for the
// ratio, and the metrics. `flockscope bench` measures whole runs; this separates the parts.
#include <benchmark/benchmark.h>

#include <cmath>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/core/metrics.hpp"

using namespace flockscope;

namespace {
Flock warmed_flock(std::int64_t boids, int threads, int warmup) {
  Params p = load_preset(resolve_preset("cornell-pico-predator"));
  p.boids = boids;
  p.width = p.height = std::sqrt(400.0 * double(boids));
  Flock f(p);
  f.set_threads(threads);
  for (int i = 0; i < warmup; ++i) f.step();
  return f;
}
}  // namespace

static void BM_GridBuild(benchmark::State& state) {
  Flock f = warmed_flock(state.range(0), 1, 0);
  UniformGrid g;
  for (auto _ : state) {
    g.build(f.x().data(), f.y().data(), f.size(), 40);
    benchmark::DoNotOptimize(g.order().data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_GridBuild)->Arg(10000)->Arg(100000)->Unit(benchmark::kMicrosecond);

static void BM_Step(benchmark::State& state) {
  Flock f = warmed_flock(state.range(0), int(state.range(1)), 50);
  for (auto _ : state) f.step();
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Step)->Args({10000, 1})->Args({100000, 1})->Args({100000, 2})->Unit(benchmark::kMillisecond);

static void BM_StepAllPairs(benchmark::State& state) {
  Flock f = warmed_flock(state.range(0), 1, 0);
  for (auto _ : state) f.step_all_pairs();
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_StepAllPairs)->Arg(10000)->Unit(benchmark::kMillisecond);

static void BM_Metrics(benchmark::State& state) {
  Flock f = warmed_flock(state.range(0), 1, 50);
  MetricsOptions opt;
  opt.nearest_neighbour = state.range(1) != 0;
  opt.clusters = state.range(1) != 0;
  for (auto _ : state) benchmark::DoNotOptimize(compute_metrics(f, opt));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_Metrics)->Args({100000, 0})->Args({100000, 1})->Unit(benchmark::kMillisecond);
