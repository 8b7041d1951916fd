// What `flockscope sweep` and `flockscope consensus` share: running a sweep with a progress
// bar and Ctrl-C handling, then the summary plots and the throughput line.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "flockscope/experiments/sweep.hpp"
#include "flockscope/plot/plot.hpp"

namespace flockscope::cli {

struct SweepRunArgs {
  std::string out;
  int jobs = 0;
  bool plots = true;
  plot::Size plot_size;
  const char* command = "sweep";  // for messages
  // Called once the sweep is complete (e.g. to print a table).
  std::function<void(const std::vector<experiments::ComboSummary>&)> on_complete;
};

// Returns the process exit code: 0 done, 130 interrupted (resumable), 2 bad input.
int run_sweep_command(const experiments::SweepSpec& spec, const SweepRunArgs& args);

}  // namespace flockscope::cli
