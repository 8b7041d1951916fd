// ExploreSession: a parameter sweep run on background threads for the window's Explore map,
// with pause, cancel and resume. No SDL or ImGui here, so tests drive it without a window.
//
// It runs the very runs `flockscope sweep` runs: run_point gives each run's parameters and
// seed, summarise_run measures it, runs_row writes its row, and runs_csv() joins the rows
// under runs_header in run-id order, which is sweep's runs.csv byte for byte once every run
// is done. Each run is deterministic, so cancelling and resuming (or pausing) changes which
// thread makes a run and when, never its row.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "flockscope/experiments/sweep.hpp"

namespace flockscope::gui {

// The map is a sweep: its plan, rows and statistics are the experiments library's.
using namespace flockscope::experiments;

class ExploreSession {
 public:
  // jobs: worker threads (0: all cores but one, at least one, so the window keeps a core).
  // Throws InputError when the spec is unusable (validate()).
  explicit ExploreSession(SweepSpec spec, int jobs = 0);
  ~ExploreSession();
  ExploreSession(const ExploreSession&) = delete;
  ExploreSession& operator=(const ExploreSession&) = delete;

  // Starts the workers on the runs not done yet (after cancel(): resumes). No-op while
  // running or when complete.
  void start();
  // No new run starts while paused; the runs in progress finish (in_flight() counts them:
  // once set_paused(true) has returned, no run starts that it does not count).
  void set_paused(bool paused);
  // Workers stop after their current run; the finished rows stay, start() resumes. Does not
  // wait for them (the window must not block on a run in flight).
  void cancel();
  // Blocks until the workers have stopped (complete, or cancelled).
  void wait();

  bool running() const { return active_.load() > 0; }
  bool paused() const { return paused_.load(); }
  // Runs being made now (taken by a worker, not finished).
  int in_flight() const { return in_flight_.load(); }
  bool complete() const { return done() == total(); }
  std::uint64_t done() const;
  std::uint64_t total() const { return run_count(spec_); }
  // Bumps with every finished run (the map redraws from combos() when it changed).
  std::uint64_t revision() const { return done(); }
  const SweepSpec& spec() const { return spec_; }
  // Why the workers stopped on their own (empty: they did not).
  std::string error() const;
  int jobs() const { return jobs_; }
  // The time left, from the pace of the runs finished since the workers last started or
  // resumed: NaN until one has finished, or while paused or stopped.
  double seconds_left() const;

  // runs_header and the finished rows in run-id order: `flockscope sweep`'s runs.csv once
  // complete() (every run done).
  std::string runs_csv() const;
  // Per-combination statistics of the finished runs (combinations without one are absent).
  std::vector<ComboSummary> combos() const;
  // The run behind a map cell: its parameters (seed included), as `flockscope sweep` made it.
  RunPoint point(std::uint64_t combination, std::uint64_t rep = 0) const;

 private:
  void worker();

  SweepSpec spec_;
  int jobs_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::map<std::uint64_t, std::string> rows_;  // by run id
  std::vector<std::uint64_t> pending_;         // ids still to make, taken from next_
  std::size_t next_ = 0;
  std::vector<std::thread> threads_;
  std::atomic<int> active_{0}, in_flight_{0};
  std::atomic<bool> paused_{false}, stop_{false};
  std::string error_;
  std::chrono::steady_clock::time_point pace_t0_;  // the pace is measured from here ...
  std::uint64_t pace_done0_ = 0;                   // ... and this many runs done then
};

// The sweep `flockscope sweep --preset P [--set ...] --grid G... --reps R --steps N` runs:
// base parameters from the preset and overrides, the base seed from them, sweep's defaults
// for everything else. Throws InputError naming a bad --grid.
SweepSpec explore_spec(const std::string& preset, const Params& base, const std::vector<std::string>& grid,
                       std::uint64_t reps, std::uint64_t steps);

}  // namespace flockscope::gui
