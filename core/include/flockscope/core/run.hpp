// A headless run: a flock stepped N times with its metrics recorded every step, written as
// DIR/metrics.csv, DIR/final_state.csv and DIR/run.json (the resolved parameters, seed and
// version, so any result can be reproduced). Shared by `flockscope run` and the sweeps.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <vector>

#include "flockscope/core/flock.hpp"
#include "flockscope/core/metrics.hpp"

namespace flockscope {

struct RunSpec {
  Params params;
  std::uint64_t steps = 1000;
  std::optional<FlockSnapshot> initial;  // else spawned from params.seed
  std::string preset;                    // what the user named, for run.json
  int threads = 0;                       // 0: all cores
  // Called after each step with the steps done so far (the command line's progress line).
  std::function<void(std::uint64_t)> on_step;
};

struct RunResult {
  std::vector<Metrics> metrics;  // one per step, including step 0
  std::vector<double> times;
  FlockSnapshot final_state;
  Params params;                 // as resolved (boids taken from the initial state if given)
  std::uint64_t final_hash = 0;
};

RunResult run_flock(const RunSpec& spec);
// Writes the three files; creates DIR. Throws InputError when DIR cannot be written.
void write_run(const std::filesystem::path& dir, const RunSpec& spec, const RunResult& r);

const char* version_string();

}  // namespace flockscope
