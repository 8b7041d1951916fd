// Running a sweep (threads, progress, stopping, resuming, a remote's share of the queue) and
// merging the shards' folders: the files of sweep.hpp's "running a sweep".
//
// Sections: reading runs files | running a sweep | merging shards
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "flockscope/core/io.hpp"
#include "flockscope/experiments/sweep.hpp"
#include "text.hpp"

namespace flockscope::experiments {
namespace fs = std::filesystem;
using nlohmann::json;
using namespace detail;

// ---------------------------------------------------------------- reading runs files
namespace {

std::string slurp(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The first top-level key in which two specs differ (the version is not compared: a newer
// build may finish an older sweep).
std::string spec_difference(json a, json b) {
  a.erase("flockscope_version");
  b.erase("flockscope_version");
  for (const auto& [k, v] : a.items())
    if (!b.contains(k) || b[k] != v) return k;
  for (const auto& [k, v] : b.items())
    if (!a.contains(k)) return k;
  return {};
}

// Whether a stored row is one this sweep could have written for its run: the run's own id,
// combination, rep, seed and swept values, then a number (or NA, inf) in every result cell.
bool row_parses(const SweepSpec& s, std::uint64_t id, std::string_view line) {
  const auto cells = split(line, ',');
  const std::string own = runs_row(s, run_point(s, id), RunSummary{});
  const auto expected = split(own, ',');
  const std::size_t fixed = 4 + s.axes.size();
  if (cells.size() != expected.size()) return false;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    double v = 0;
    if (c < fixed ? cells[c] != expected[c] : cells[c] != "NA" && cells[c] != "-inf" && !parse_double(cells[c], v))
      return false;
  }
  return true;
}

}  // namespace

std::map<std::uint64_t, std::string> resumable_rows(std::string_view text, std::string_view origin, const SweepSpec& s,
                                                    std::vector<std::string>& warnings) {
  std::map<std::uint64_t, std::string> rows;
  const std::string where(origin), header = runs_header(s);
  if (text.empty()) return rows;
  const std::size_t first_nl = text.find('\n');
  if (first_nl == std::string_view::npos) return rows;
  if (text.substr(0, first_nl) != header) throw InputError(where + ": its columns are not this sweep's (" + header + ")");
  const std::uint64_t total = run_count(s);
  std::size_t b = first_nl + 1, line_no = 1;
  while (b < text.size()) {
    const std::size_t e = text.find('\n', b);
    if (e == std::string_view::npos) break;  // truncated last line
    const std::string line(text.substr(b, e - b));
    b = e + 1;
    ++line_no;
    std::uint64_t id = 0;
    const bool ok = parse_u64(std::string_view(line).substr(0, line.find(',')), id) && id < total;
    if (ok && !s.shard.owns(id)) continue;  // another shard's run
    if (!ok || !row_parses(s, id, line)) {
      warnings.push_back(where + ":" + std::to_string(line_no) + ": row does not parse as this sweep's (" +
                         (line.size() > 60 ? line.substr(0, 60) + "..." : line) + "); dropped, its run is made again");
      continue;
    }
    rows.emplace(id, line);
  }
  return rows;
}

namespace {

std::map<std::uint64_t, std::string> read_rows(const fs::path& file, const SweepSpec& s, std::vector<std::string>& warnings) {
  return resumable_rows(slurp(file), file.string(), s, warnings);
}

std::uint64_t shard_total(const SweepSpec& s) {
  const std::uint64_t total = run_count(s);
  return s.shard.index < total ? (total - s.shard.index + s.shard.count - 1) / s.shard.count : 0;
}

std::string joined(const std::string& header, const std::map<std::uint64_t, std::string>& rows) {
  std::string out = header;
  out += '\n';
  for (const auto& [id, row] : rows) {
    out += row;
    out += '\n';
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------- running a sweep
SweepOutcome run_sweep(const SweepSpec& s, const fs::path& dir, const SweepOptions& o) {
  validate(s);
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw OutputError(dir.string() + ": cannot create output folder (" + (ec ? ec.message() : "a file of that name is in the way") + ")");

  const json spec = spec_to_json(s);
  const fs::path spec_file = dir / "sweep.json", runs_file = dir / "runs.csv", partial_file = dir / "runs.partial.csv";
  if (fs::exists(spec_file)) {
    json old;
    try {
      old = json::parse(slurp(spec_file));
    } catch (const json::exception&) {
      throw InputError(spec_file.string() + ": not valid JSON; remove the folder or use another --out");
    }
    if (const auto diff = spec_difference(spec, old); !diff.empty())
      throw InputError(dir.string() + " holds a different sweep (its '" + diff +
                       "' differs); use another --out or remove the folder");
  } else {
    if (fs::exists(runs_file) || fs::exists(partial_file))
      throw InputError(dir.string() + " holds runs but no sweep.json; use another --out or remove the folder");
    write_text_file(spec_file, spec.dump(2) + "\n");
  }

  const std::string header = runs_header(s);
  std::map<std::uint64_t, std::string> done;
  std::vector<std::string> warnings;
  if (fs::exists(runs_file)) done = read_rows(runs_file, s, warnings);
  if (fs::exists(partial_file)) done.merge(read_rows(partial_file, s, warnings));
  for (const auto& w : warnings)
    if (o.warn) o.warn(w);
  // Rewritten with only the complete rows, so new rows never follow a half-written one.
  write_text_file(partial_file, joined(header, done));

  SweepOutcome out;
  out.total = shard_total(s);
  out.skipped = done.size();
  std::vector<std::uint64_t> pending;
  for (std::uint64_t id = s.shard.index, total = run_count(s); id < total; id += s.shard.count)
    if (!done.count(id)) pending.push_back(id);
  if (o.max_new_runs > 0 && pending.size() > o.max_new_runs) pending.resize(std::size_t(o.max_new_runs));

  const auto t0 = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
  std::FILE* partial = std::fopen(partial_file.c_str(), "ab");
  if (!partial) throw OutputError(partial_file.string() + ": cannot write (" + std::strerror(errno) + ")");

  std::mutex mu;
  std::condition_variable cv;
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::atomic<bool> closed{false};  // SweepQueue::close(): no more rows
  std::uint64_t finished = 0, boid_steps = 0;
  std::size_t running = 0;
  std::exception_ptr error;
  std::map<std::uint64_t, std::string> fresh;
  auto stopped = [&] { return failed.load() || closed.load() || (o.stop && o.stop->load()); };
  auto take = [&]() -> std::optional<std::uint64_t> {
    if (stopped()) return std::nullopt;
    const std::size_t k = next.fetch_add(1);
    if (k >= pending.size()) return std::nullopt;
    return pending[k];
  };
  // One row per write, flushed: an interruption loses at most the rows in flight.
  auto keep = [&](std::uint64_t id, const std::string& row, std::uint64_t steps) {
    std::lock_guard lock(mu);
    if (closed) return;
    if (std::fputs((row + "\n").c_str(), partial) < 0 || std::fflush(partial) != 0)
      throw OutputError(partial_file.string() + ": write failed (" + std::strerror(errno) + ")");
    fresh.emplace(id, row);
    ++finished;
    boid_steps += steps;
    cv.notify_all();
  };

  auto worker = [&] {
    try {
      while (const auto id = take()) {
        const RunPoint pt = run_point(s, *id);
        const RunSummary r = summarise_run(pt.params, s.steps, s.kind, s.summary, o.drop_runs_in_flight ? o.stop : nullptr);
        if (r.cancelled) break;
        keep(pt.id, runs_row(s, pt, r), r.boid_steps);
      }
    } catch (...) {
      std::lock_guard lock(mu);
      if (!error) error = std::current_exception();
      failed = true;
    }
    std::lock_guard lock(mu);
    --running;
    cv.notify_all();
  };

  using TakeFn = decltype(take);
  using KeepFn = decltype(keep);
  using StoppedFn = decltype(stopped);
  struct Queue final : SweepQueue {
    TakeFn& take_;
    KeepFn& keep_;
    StoppedFn& stopped_;
    std::mutex& mu_;
    const std::uint64_t& finished_;
    std::atomic<bool>& closed_;
    const std::atomic<std::size_t>& next_;
    const std::vector<std::uint64_t>& pending_;
    std::uint64_t skipped_, total_;
    Queue(TakeFn& t, KeepFn& k, StoppedFn& st, std::mutex& m, const std::uint64_t& f,
          std::atomic<bool>& c, const std::atomic<std::size_t>& n, const std::vector<std::uint64_t>& p, std::uint64_t skipped, std::uint64_t total)
        : take_(t), keep_(k), stopped_(st), mu_(m), finished_(f), closed_(c), next_(n), pending_(p), skipped_(skipped), total_(total) {}
    std::optional<std::uint64_t> take() override { return take_(); }
    void add(std::uint64_t id, const std::string& row, std::uint64_t steps) override { keep_(id, row, steps); }
    bool stopping() const override { return stopped_(); }
    bool drained() const override { return next_.load() >= pending_.size(); }
    std::uint64_t kept() const override {
      std::lock_guard lock(mu_);
      return skipped_ + finished_;
    }
    std::uint64_t total() const override { return total_; }
    std::uint64_t close() override {
      std::lock_guard lock(mu_);
      closed_ = true;
      return skipped_ + finished_;
    }
  } queue(take, keep, stopped, mu, finished, closed, next, pending, out.skipped, out.total);

  const unsigned hw = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t jobs = std::min<std::size_t>(o.jobs > 0 ? std::size_t(o.jobs) : hw, std::max<std::size_t>(1, pending.size()));
  std::vector<std::thread> threads;
  const std::size_t n_threads = pending.empty() ? 0 : jobs;
  running = n_threads;  // before any worker starts: they count it down as they finish
  for (std::size_t t = 0; t < n_threads; ++t) threads.emplace_back(worker);
  auto report = [&](std::uint64_t fin) {
    if (o.progress) o.progress({out.skipped + fin, out.total, out.skipped, elapsed()});
  };
  // The remote's runs are out while poll() says so; it is polled from here, between waits
  // short enough to keep the other processes fed.
  bool remote_busy = o.remote != nullptr;
  auto poll_remote = [&] {
    if (!remote_busy) return;
    try {
      remote_busy = o.remote->poll(queue);
    } catch (...) {
      std::lock_guard lock(mu);
      if (!error) error = std::current_exception();
      failed = true;
      remote_busy = false;
    }
  };
  {
    const double wait = o.remote ? 0.002 : std::max(0.01, o.progress_interval);
    double last_report = 0;
    std::unique_lock lock(mu);
    while (running > 0 || remote_busy) {
      cv.wait_for(lock, std::chrono::duration<double>(wait));
      const std::uint64_t fin = finished;
      lock.unlock();
      poll_remote();
      if (const double t = elapsed(); t - last_report >= o.progress_interval) {
        last_report = t;
        report(fin);
      }
      lock.lock();
    }
  }
  for (auto& t : threads) t.join();
  std::fclose(partial);
  if (error) std::rethrow_exception(error);

  out.ran = finished;
  out.boid_steps = boid_steps;
  out.seconds = elapsed();
  report(finished);
  done.merge(fresh);
  if (done.size() == out.total) {
    const std::string text = joined(header, done);
    write_text_file(runs_file, text);
    fs::remove(partial_file, ec);
    out.combos = summarise_combinations(s, parse_csv_table(text));
    write_text_file(dir / "summary.csv", summary_csv(s, out.combos));
    out.complete = true;
  }
  return out;
}

// ---------------------------------------------------------------- merging shards
SweepSpec merge_shards(const std::vector<fs::path>& shard_dirs, const fs::path& dir, std::vector<ComboSummary>* combos) {
  if (shard_dirs.empty()) throw InputError("no shard folders given");
  SweepSpec merged;
  json first;
  std::vector<bool> seen;
  std::map<std::uint64_t, std::string> rows;
  std::string header;
  for (const auto& d : shard_dirs) {
    const fs::path spec_file = d / "sweep.json";
    if (!fs::exists(spec_file)) throw InputError(d.string() + ": no sweep.json (not a sweep folder)");
    json j;
    try {
      j = json::parse(slurp(spec_file));
    } catch (const json::exception&) {
      throw InputError(spec_file.string() + ": not valid JSON");
    }
    const SweepSpec s = spec_from_json(j, spec_file.string());
    if (seen.empty()) {
      merged = s;
      first = j;
      header = runs_header(s);
      seen.assign(std::size_t(s.shard.count), false);
    } else {
      json a = first, b = j;
      a.erase("shard"), b.erase("shard");
      if (const auto diff = spec_difference(a, b); !diff.empty())
        throw InputError(d.string() + ": a different sweep from " + shard_dirs.front().string() + " (its '" + diff + "' differs)");
      if (s.shard.count != seen.size()) throw InputError(d.string() + ": shard count differs from the other folders");
    }
    if (seen[std::size_t(s.shard.index)]) throw InputError(d.string() + ": shard " + std::to_string(s.shard.index) + " given twice");
    seen[std::size_t(s.shard.index)] = true;
    if (!fs::exists(d / "runs.csv"))
      throw InputError(d.string() + ": shard not finished (no runs.csv); run its command again to resume it");
    std::vector<std::string> bad;
    auto part = read_rows(d / "runs.csv", s, bad);
    if (part.size() != shard_total(s))
      throw InputError(d.string() + ": runs.csv is incomplete" + (bad.empty() ? "" : " (" + bad.front() + ")"));
    rows.merge(part);
  }
  for (std::size_t i = 0; i < seen.size(); ++i)
    if (!seen[i]) throw InputError("shard " + std::to_string(i) + "/" + std::to_string(seen.size()) + " is missing");
  merged.shard = Shard{};
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec || !fs::is_directory(dir))
    throw OutputError(dir.string() + ": cannot create output folder (" + (ec ? ec.message() : "a file of that name is in the way") + ")");
  const std::string text = joined(header, rows);
  write_text_file(dir / "sweep.json", spec_to_json(merged).dump(2) + "\n");
  write_text_file(dir / "runs.csv", text);
  auto summary = summarise_combinations(merged, parse_csv_table(text));
  write_text_file(dir / "summary.csv", summary_csv(merged, summary));
  if (combos) *combos = std::move(summary);
  return merged;
}

}  // namespace flockscope::experiments
