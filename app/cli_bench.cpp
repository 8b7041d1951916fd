// `flockscope bench`: steps/s of the engine at constant density (1 boid per 400 px^2: the
// world side is sqrt(400 N)), printed as one JSON line so scripts can collect it.
#include <omp.h>
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "flockscope/core/flock.hpp"
#include "flockscope/core/metrics.hpp"

namespace flockscope::cli {

struct BenchArgs {
  std::string preset = "cornell-pico-predator";
  std::vector<std::string> sets;
  std::int64_t boids = 100000;
  int steps = 100;
  int warmup = 500;
  int threads = 0;
  bool all_pairs = false;
};

void add_bench_command(CLI::App& app, int& exit_code) {
  auto a = std::make_shared<BenchArgs>();
  CLI::App* bench = app.add_subcommand("bench", "Measure simulation steps per second; prints one JSON line");
  bench->add_option("--preset", a->preset, "Rules and parameters to measure")->capture_default_str();
  bench->add_option("--set", a->sets, "Override a parameter: key=value (repeatable)");
  bench->add_option("--boids", a->boids, "Number of boids")->capture_default_str()->check(CLI::Range(1, 10000000));
  bench->add_option("--steps", a->steps, "Timed steps")->capture_default_str()->check(CLI::Range(1, 1000000));
  bench->add_option("--warmup", a->warmup, "Untimed steps first")->capture_default_str()->check(CLI::Range(0, 1000000));
  bench->add_option("--threads", a->threads, "Threads (0: all cores)")->check(CLI::Range(0, 256));
  bench->add_flag("--all-pairs", a->all_pairs, "Time the straightforward O(N^2) step instead of the grid (warm-up still uses the grid)");
  bench->callback([a, &exit_code] {
    try {
      Params p = resolve_params(a->preset, a->sets);
      p.boids = a->boids;
      p.width = p.height = std::sqrt(400.0 * double(a->boids));
      Flock flock(p);
      const int threads = a->threads > 0 ? a->threads : omp_get_num_procs();
      flock.set_threads(threads);
      // Warm-up always runs the grid engine (same rules, much faster), so both engines are
      // timed on the same, already clustered flock.
      for (int i = 0; i < a->warmup; ++i) flock.step();
      const Flock::PhaseTimes before = flock.phase_times();
      // Timed in (up to) five batches: the mean over all steps is the figure; the fastest
      // batch is reported too, as a hint of how much a busy machine slowed the mean down.
      const int batches = std::min(5, a->steps);
      double best_batch_ms_per_step = 1e300;
      timespec cpu0{}, cpu1{};
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu0);
      const auto t0 = std::chrono::steady_clock::now();
      for (int b = 0, done = 0; b < batches; ++b) {
        const int count = (a->steps - done) / (batches - b);
        const auto tb = std::chrono::steady_clock::now();
        for (int i = 0; i < count; ++i) a->all_pairs ? flock.step_all_pairs() : flock.step();
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - tb).count();
        best_batch_ms_per_step = std::min(best_batch_ms_per_step, ms / count);
        done += count;
      }
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu1);
      // CPU time of all the process's threads: on 1 thread, close to what a quiet machine's
      // wall clock would show (a busy machine stretches the wall time, not this).
      const double cpu_secs = double(cpu1.tv_sec - cpu0.tv_sec) + 1e-9 * double(cpu1.tv_nsec - cpu0.tv_nsec);
      // The metrics a window computes every step (all but nearest-neighbour distance and
      // clusters, on the engine's threads) and, once per drawn frame, with those two; timed
      // on the final state.
      auto time_metrics = [&](auto&& compute) {
        const int reps = std::max(3, std::min(a->steps, 20));
        volatile double sink = 0;
        const auto m0 = std::chrono::steady_clock::now();
        for (int i = 0; i < reps; ++i) sink = sink + compute().diameter;
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - m0).count() / reps;
      };
      const double step_metrics_ms = time_metrics([&] { return compute_step_metrics(view_of(flock), threads); });
      const double full_metrics_ms = time_metrics([&] { return compute_metrics(flock); });
      rusage ru{};
      getrusage(RUSAGE_SELF, &ru);
      const double peak_rss = double(ru.ru_maxrss) * 1024.0;
      nlohmann::json j;
      j["preset"] = a->preset;
      j["engine"] = a->all_pairs ? "all-pairs" : "grid";
      j["boids"] = a->boids;
      j["threads"] = threads;
      j["warmup"] = a->warmup;
      j["steps"] = a->steps;
      j["world_side"] = p.width;
      j["steps_per_s"] = a->steps / secs;
      j["ms_per_step"] = secs * 1e3 / a->steps;
      j["ns_per_boid_step"] = secs * 1e9 / (double(a->steps) * double(a->boids));
      j["best_batch_ms_per_step"] = best_batch_ms_per_step;
      j["cpu_ms_per_step"] = cpu_secs * 1e3 / a->steps;
      j["step_metrics_ms"] = step_metrics_ms;
      j["step_metrics_share"] = step_metrics_ms / (secs * 1e3 / a->steps);
      j["all_metrics_ms"] = full_metrics_ms;
      // Where the time went (grid engine only; all-pairs copies the frame instead of a grid).
      const double per_boid_step = 1e9 / (double(a->steps) * double(a->boids));
      j["grid_ns_per_boid_step"] = (flock.phase_times().grid - before.grid) * per_boid_step;
      j["boids_ns_per_boid_step"] = (flock.phase_times().boids - before.boids) * per_boid_step;
      j["engine_bytes_per_boid"] = double(flock.memory_bytes()) / double(a->boids);
      j["peak_rss_bytes_per_boid"] = peak_rss / double(a->boids);
      std::printf("%s\n", j.dump().c_str());
      exit_code = 0;
    } catch (const std::exception& e) {
      exit_code = report_error("bench", e);
    }
  });
}

}  // namespace flockscope::cli
