#include "explore_session.hpp"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace flockscope::gui {

ExploreSession::ExploreSession(SweepSpec spec, int jobs) : spec_(std::move(spec)) {
  validate(spec_);
  const int hw = int(std::max(1u, std::thread::hardware_concurrency()));
  jobs_ = jobs > 0 ? jobs : std::max(1, hw - 1);
}

ExploreSession::~ExploreSession() {
  cancel();
  wait();
}

std::uint64_t ExploreSession::done() const {
  std::lock_guard lock(mu_);
  return rows_.size();
}

void ExploreSession::start() {
  if (running()) return;
  wait();  // workers of a cancelled start are finishing their last run
  std::lock_guard lock(mu_);
  pending_.clear();
  next_ = 0;
  for (std::uint64_t id = 0, n = run_count(spec_); id < n; ++id)
    if (!rows_.count(id)) pending_.push_back(id);
  if (pending_.empty()) return;
  stop_ = false;
  pace_t0_ = std::chrono::steady_clock::now(), pace_done0_ = rows_.size();
  const std::size_t n = std::min<std::size_t>(std::size_t(jobs_), pending_.size());
  active_ = int(n);
  for (std::size_t t = 0; t < n; ++t) threads_.emplace_back([this] { worker(); });
}

void ExploreSession::set_paused(bool p) {
  {
    // Under the lock: a worker takes a run and counts it in one locked step, so after this
    // no run starts uncounted.
    std::lock_guard lock(mu_);
    if (paused_ && !p) pace_t0_ = std::chrono::steady_clock::now(), pace_done0_ = rows_.size();
    paused_ = p;
  }
  cv_.notify_all();
}

void ExploreSession::cancel() {
  stop_ = true;
  cv_.notify_all();
}

void ExploreSession::wait() {
  for (auto& t : threads_)
    if (t.joinable()) t.join();
  threads_.clear();
}

void ExploreSession::worker() {
  // Below the window's thread: the map fills in from the time the frames leave over.
  setpriority(PRIO_PROCESS, id_t(syscall(SYS_gettid)), 10);
  for (;;) {
    std::uint64_t id = 0;
    {
      std::unique_lock lock(mu_);
      cv_.wait(lock, [&] { return stop_.load() || !paused_.load(); });
      if (stop_ || next_ >= pending_.size()) break;
      id = pending_[next_++];
      ++in_flight_;
    }
    try {
      const RunPoint pt = run_point(spec_, id);
      const RunSummary r = summarise_run(pt.params, spec_.steps, spec_.kind, spec_.summary);
      std::string row = runs_row(spec_, pt, r);
      std::lock_guard lock(mu_);
      rows_.emplace(id, std::move(row));
      --in_flight_;
    } catch (const std::exception& e) {  // e.g. out of memory for a huge flock: the map says so
      std::lock_guard lock(mu_);
      --in_flight_;
      if (error_.empty()) error_ = e.what();
      stop_ = true;
      break;
    }
  }
  --active_;
}

double ExploreSession::seconds_left() const {
  if (!running() || paused()) return NAN;
  std::lock_guard lock(mu_);
  const std::uint64_t done = rows_.size(), fresh = done - std::min(done, pace_done0_);
  if (fresh == 0) return NAN;
  const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - pace_t0_).count();
  return elapsed / double(fresh) * double(run_count(spec_) - done);
}

std::string ExploreSession::error() const {
  std::lock_guard lock(mu_);
  return error_;
}

SweepSpec explore_spec(const std::string& preset, const Params& base, const std::vector<std::string>& grid,
                       std::uint64_t reps, std::uint64_t steps) {
  SweepSpec s;
  s.preset = preset;
  s.base = base;
  for (const auto& g : grid) s.axes.push_back(parse_grid_axis(g));
  s.reps = reps;
  s.steps = steps;
  s.seed = std::uint64_t(base.seed);
  validate(s);
  return s;
}

std::string ExploreSession::runs_csv() const {
  std::string out = runs_header(spec_) + "\n";
  std::lock_guard lock(mu_);
  for (const auto& [id, row] : rows_) out += row + "\n";
  return out;
}

std::vector<ComboSummary> ExploreSession::combos() const { return summarise_combinations(spec_, parse_csv_table(runs_csv())); }

RunPoint ExploreSession::point(std::uint64_t combination, std::uint64_t rep) const {
  return run_point(spec_, combination * spec_.reps + std::min(rep, spec_.reps - 1));
}

}  // namespace flockscope::gui
