#include "flockscope/core/run.hpp"

#include <omp.h>

#include "flockscope/core/io.hpp"

#ifndef FLOCKSCOPE_VERSION
#define FLOCKSCOPE_VERSION "0.0.0"
#endif

namespace flockscope {
namespace fs = std::filesystem;

const char* version_string() { return FLOCKSCOPE_VERSION; }

RunResult run_flock(const RunSpec& spec) {
  Flock flock = spec.initial ? Flock(spec.params, *spec.initial) : Flock(spec.params);
  flock.set_threads(spec.threads > 0 ? spec.threads : omp_get_num_procs());
  RunResult r;
  r.params = flock.params();
  r.metrics.reserve(spec.steps + 1);
  r.times.reserve(spec.steps + 1);
  r.metrics.push_back(compute_metrics(flock));
  r.times.push_back(flock.time());
  for (std::uint64_t s = 0; s < spec.steps; ++s) {
    flock.step();
    r.metrics.push_back(compute_metrics(flock));
    r.times.push_back(flock.time());
    if (spec.on_step) spec.on_step(s + 1);
  }
  r.final_state = flock.snapshot();
  r.final_hash = flock.state_hash();
  return r;
}

void write_run(const fs::path& dir, const RunSpec& spec, const RunResult& r) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw OutputError(dir.string() + ": cannot create output folder (" + (ec ? ec.message() : "a file of that name is in the way") + ")");

  std::string csv;
  for (const auto& c : metrics_columns()) csv += (csv.empty() ? "" : ",") + c;
  csv += "\n";
  for (std::size_t i = 0; i < r.metrics.size(); ++i) csv += metrics_row(i, r.times[i], r.metrics[i]) + "\n";
  write_text_file(dir / "metrics.csv", csv);
  write_state_csv(dir / "final_state.csv", r.final_state, r.params);

  nlohmann::json j;
  j["flockscope_version"] = version_string();
  j["preset"] = spec.preset;
  j["seed"] = r.params.seed;
  j["steps"] = spec.steps;
  j["initial_state"] = spec.initial ? "from --init file" : "spawned from seed";
  j["final_state_hash"] = r.final_hash;
  j["params"] = params_to_json(r.params);
  write_text_file(dir / "run.json", j.dump(2) + "\n");
}

}  // namespace flockscope
