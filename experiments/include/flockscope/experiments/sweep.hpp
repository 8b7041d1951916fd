// Parameter sweeps: many small seeded flocks, one summary row each, run in parallel and
// written in a fixed order, so the same command always gives the same runs.csv.
//
// Sections: grid axes | the plan (run ids, seeds, shards) | runs.csv rows | per-combination
// summaries | running a sweep | merging shards. One run's measurement is run_summary.hpp,
// the statistics statistics.hpp, the CSV tables csv_table.hpp.
//
// Run ids: combination-major (id = combination * reps + rep); combinations count through the
// axes like nested loops, the last --grid innermost. A shard i/n owns the ids with
// id % n == i, so the shards' runs.csv bodies, concatenated and sorted by id, are the
// unsharded runs.csv.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "flockscope/core/params.hpp"
#include "flockscope/experiments/csv_table.hpp"
#include "flockscope/experiments/run_summary.hpp"
#include "flockscope/experiments/statistics.hpp"

namespace flockscope::experiments {

// ---------------------------------------------------------------- grid axes
// Keys that are not parameters but set the scout groups from shares, so that a consensus
// study can vary the group size and the informed share independently:
//   informed     share of the boids that are scouts, [0, 1] (scouts1 + scouts2 = round(share * boids))
//   right_share  share of the scouts biased right, [0, 1] (scouts1 = round(right_share * scouts))
inline constexpr std::string_view kInformedKey = "informed";
inline constexpr std::string_view kRightShareKey = "right_share";

struct GridAxis {
  std::string key;
  std::vector<double> values;       // as set_param takes them (true = 1, "report" = 1)
  std::vector<std::string> labels;  // canonical text, written to runs.csv
};

// "key=a:b:step" (inclusive; values rounded to the decimals written) or "key=v1,v2,...".
// Throws InputError naming the key and what is allowed.
GridAxis parse_grid_axis(std::string_view spec);

// ---------------------------------------------------------------- the plan
// PerRun: every run its own seed. PerRep: repetition r uses the same seed in every
// combination (common random numbers: paired comparisons across parameter values).
enum class SeedMode { PerRun, PerRep };

struct Shard {
  std::uint64_t index = 0, count = 1;
  bool owns(std::uint64_t id) const { return id % count == index; }
  bool operator==(const Shard&) const = default;
};
// "i/n" with 0 <= i < n. Throws InputError.
Shard parse_shard(std::string_view text);

struct SweepSpec {
  SweepKind kind = SweepKind::Flock;
  Params base;
  std::string preset;  // what the user named, recorded in sweep.json
  std::vector<GridAxis> axes;
  std::uint64_t reps = 1;
  std::uint64_t steps = 1000;
  std::uint64_t seed = 1;  // base seed the run seeds derive from
  SeedMode seed_mode = SeedMode::PerRun;
  SummaryOptions summary;
  Shard shard;
};

std::uint64_t combination_count(const SweepSpec& s);
std::uint64_t run_count(const SweepSpec& s);  // all shards together
// Throws InputError when the spec is unusable (a key swept twice, the seed swept, too many runs).
void validate(const SweepSpec& s);

struct RunPoint {
  std::uint64_t id = 0, combination = 0, rep = 0;
  std::vector<std::size_t> value_index;  // per axis
  std::uint32_t seed = 0;
  Params params;  // base + swept values + derived scouts + seed
};
RunPoint run_point(const SweepSpec& s, std::uint64_t id);
// The value of each axis (its index) in a combination.
std::vector<std::size_t> value_index_of(const SweepSpec& s, std::uint64_t combination);

// A run's seed depends only on the base seed, the swept values (keys sorted, so the order of
// the --grid flags does not matter) and the repetition: extending a grid keeps the seeds of
// the runs it already had.
std::uint32_t derive_seed(std::uint64_t base, std::string_view combination_key, std::uint64_t rep, SeedMode mode);
// "D_vis=10;S_align=0.06": the swept keys, sorted, with their labels.
std::string combination_key(const SweepSpec& s, const std::vector<std::size_t>& value_index);

// Whether the sweep's flocks may have scout groups (seed 000's boids biased right or left):
// the base has some, or an axis sets their sizes. The share going right is their measure.
bool has_scouts(const SweepSpec& s);

// ---------------------------------------------------------------- runs.csv rows
std::vector<std::string> runs_columns(const SweepSpec& s);
std::string runs_header(const SweepSpec& s);
std::string runs_row(const SweepSpec& s, const RunPoint& pt, const RunSummary& r);
// The rows of a runs file's text that a resumed sweep keeps, by run id: complete rows (ending
// in a newline) that parse as this sweep's row for their run and belong to its shard. A row
// that does not parse is dropped (its run is made again) and named in `warnings`; a header
// that is not this sweep's throws InputError naming `origin`.
std::map<std::uint64_t, std::string> resumable_rows(std::string_view text, std::string_view origin, const SweepSpec& s,
                                                    std::vector<std::string>& warnings);

// ---------------------------------------------------------------- per-combination summaries
// The metrics summary.csv and the plots describe, in order.
const std::vector<std::string>& summary_metrics(SweepKind kind);

struct ComboSummary {
  std::uint64_t combination = 0;
  std::vector<std::string> labels;  // per axis
  std::vector<double> values;       // per axis (numeric, for plotting)
  std::size_t runs = 0;
  std::vector<SampleStats> metrics;       // per summary_metrics(kind)
  Proportion right, left;                 // consensus only
  std::int64_t scouts1 = 0, scouts2 = 0;  // of the combination (consensus)
};

// Groups a runs table (as written, or merged from shards) by combination.
std::vector<ComboSummary> summarise_combinations(const SweepSpec& s, const Table& runs);
std::string summary_csv(const SweepSpec& s, const std::vector<ComboSummary>& combos);

// ---------------------------------------------------------------- running a sweep
struct SweepProgress {
  std::uint64_t done = 0;     // runs of this shard finished, including earlier invocations
  std::uint64_t total = 0;    // runs of this shard
  std::uint64_t skipped = 0;  // found finished when this invocation started
  double seconds = 0;         // since this invocation started
};

// Runs made outside this process (the other ranks of an MPI job), drawn from the same queue
// as run_sweep's own threads, their rows written by run_sweep like its own.
class SweepQueue {
 public:
  virtual ~SweepQueue() = default;
  // The next pending run id, or nothing when every run is handed out or the sweep is stopping.
  virtual std::optional<std::uint64_t> take() = 0;
  // A row finished elsewhere (as runs_row writes it, without the newline).
  virtual void add(std::uint64_t id, const std::string& row, std::uint64_t boid_steps) = 0;
  virtual bool stopping() const = 0;
  // Every pending id handed out (to this process's threads or the remote).
  virtual bool drained() const = 0;
  // Rows in runs.partial.csv now (found done and made since), of `total` runs.
  virtual std::uint64_t kept() const = 0;
  // Stops the sweep and writes no more rows (runs in flight are dropped, as if the process
  // were killed); returns kept(). For a job about to be ended from outside.
  virtual std::uint64_t close() = 0;
  virtual std::uint64_t total() const = 0;
};
class SweepRemote {
 public:
  virtual ~SweepRemote() = default;
  // Called from run_sweep's calling thread every millisecond or two until it returns false:
  // hands out ids from q.take(), gives rows back with q.add(). Returns true while runs it took
  // are still out. May throw (the sweep then stops with that error).
  virtual bool poll(SweepQueue& q) = 0;
};

struct SweepOptions {
  int jobs = 0;  // 0: all cores
  // Called from the calling thread about every progress_interval seconds and once at the end.
  std::function<void(const SweepProgress&)> progress;
  double progress_interval = 0.1;
  // Stop cleanly (finished runs kept) when it becomes true, e.g. set by a SIGINT handler.
  const std::atomic<bool>* stop = nullptr;
  // When `stop` becomes true, also end the runs in flight at their next step (dropped, as if
  // never started) instead of finishing them: a stop within a step, whatever a run costs.
  bool drop_runs_in_flight = false;
  // Stop after this many new runs (0: no limit): an interruption on demand, for tests.
  std::uint64_t max_new_runs = 0;
  // Told of each stored row that a resume drops because it does not parse (its run is made
  // again), before any run starts.
  std::function<void(const std::string&)> warn;
  // Other processes taking runs from this sweep's queue (null: this process alone).
  SweepRemote* remote = nullptr;
};

struct SweepOutcome {
  std::uint64_t total = 0, skipped = 0, ran = 0;
  bool complete = false;  // runs.csv and summary.csv written
  double seconds = 0;
  std::uint64_t boid_steps = 0;  // of the runs made now
  std::vector<ComboSummary> combos;  // when complete
};

// DIR/sweep.json (the spec), DIR/runs.partial.csv (rows as runs finish; what a resume
// reads), then, once every run of the shard is done, DIR/runs.csv (sorted by run id) and
// DIR/summary.csv. Resumes when DIR holds the same sweep; throws InputError when it holds
// another one.
SweepOutcome run_sweep(const SweepSpec& s, const std::filesystem::path& dir, const SweepOptions& o = {});

nlohmann::json spec_to_json(const SweepSpec& s);
SweepSpec spec_from_json(const nlohmann::json& j, std::string_view origin);

// ---------------------------------------------------------------- merging shards
// Reads the finished shards' folders (same sweep, shards 0..n-1 each once), writes
// DIR/runs.csv (equal to what the unsharded sweep writes), sweep.json and summary.csv.
// Returns the merged spec (shard 0/1). Throws InputError.
SweepSpec merge_shards(const std::vector<std::filesystem::path>& shard_dirs, const std::filesystem::path& dir,
                       std::vector<ComboSummary>* combos = nullptr);
}  // namespace flockscope::experiments
