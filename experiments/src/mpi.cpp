// The MPI job behind `mpirun -n P flockscope sweep` (see mpi.hpp). Built with MPI when
// CMake finds it (FLOCKSCOPE_MPI); without it, a launch under mpirun with more than one rank
// is refused on rank 0 and silent on the others, so that P copies never write one folder.
//
// Only each process's main thread calls MPI (MPI_THREAD_FUNNELED); the simulation threads
// hand rows to it. Nothing blocks in MPI: both sides probe every millisecond or two and
// sleep between, so a waiting rank costs no core.
//
// Sections: the launcher's environment | messages | a worker rank | rank 0's remote | enter
// and leave | without MPI
#include "flockscope/experiments/mpi.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string_view>

#include <unistd.h>

#ifdef FLOCKSCOPE_MPI
#include <mpi.h>

#include <condition_variable>
#include <csignal>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "flockscope/core/io.hpp"
#endif

namespace flockscope::experiments::mpi {

// ---------------------------------------------------------------- the launcher's environment
namespace {

// Open MPI's mpirun sets OMPI_COMM_WORLD_*, PMIx launchers (mpirun, srun --mpi=pmix) PMIX_RANK,
// PMI-2 launchers (srun --mpi=pmi2, MPICH's mpiexec) PMI_RANK.
std::optional<long> env_number(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return std::nullopt;
  char* end = nullptr;
  const long n = std::strtol(v, &end, 10);
  if (*end) return std::nullopt;
  return n;
}
std::optional<long> launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (auto r = env_number(name)) return r;
  return std::nullopt;
}

}  // namespace

bool progress_terminal() {
  if (isatty(STDERR_FILENO)) return true;
  if (!launcher_rank()) return false;
  char target[64] = {};
  const std::string link = "/proc/" + std::to_string(getppid()) + "/fd/2";
  if (readlink(link.c_str(), target, sizeof target - 1) <= 0) return false;
  const std::string_view t(target);
  return t.starts_with("/dev/pts/") || t.starts_with("/dev/tty");
}

#ifdef FLOCKSCOPE_MPI
// ---------------------------------------------------------------- messages
namespace {

using Clock = std::chrono::steady_clock;

enum Tag : int {
  kStart = 1,  // 0 -> k: {"spec": sweep.json's content, "jobs": J}
  kQuit,       // 0 -> k: the sweep is over (or stopped): leave
  kRuns,       // 0 -> k: run ids (uint64 each); none: the queue is empty
  kWant,       // k -> 0: how many more ids it can take (uint64)
  kRow,        // k -> 0: run id, boid-steps (uint64 each), then the runs.csv row
  kBeat,       // k -> 0: still here (every second)
  kBye,        // k -> 0: leaving (told to, or stopped by a signal: the text says which)
  kError,      // k -> 0: a run failed (the text)
  kHello,      // k -> 0: its process id (uint64) and host name, to watch it when it shares rank 0's host
};

constexpr auto kPollSleep = std::chrono::milliseconds(1);
constexpr double kBeatSeconds = 1;
// A rank not heard from for this long is taken for dead (launchers that do not end the
// whole job when one process dies, e.g. srun without --kill-on-bad-exit).
constexpr double kSilentSeconds = 5;
// How often rank 0 looks whether the ranks on its host are still alive. mpirun ends the job
// 1 s after a rank dies (SIGTERM, then SIGKILL a few milliseconds later), so rank 0 must
// notice first to say which rank it was and what is kept.
constexpr double kWatchSeconds = 0.05;

struct Job {
  bool active = false;  // MPI initialised
  int rank = 0, size = 1;
  bool released = false;  // rank 0: the others were told to leave after a clean sweep
  bool broken = false;    // rank 0: a stop or a lost rank: leave() ends the job
} g_job;

struct Message {
  int source = 0, tag = 0;
  std::string bytes;
};

void send(int dest, int tag, std::string_view bytes) {
  // Errors return (MPI_ERRORS_RETURN): a message to a rank that died is simply lost.
  MPI_Send(bytes.data(), int(bytes.size()), MPI_BYTE, dest, tag, MPI_COMM_WORLD);
}

std::optional<Message> receive(int source) {
  int flag = 0;
  MPI_Status st;
  if (MPI_Iprobe(source, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &st) != MPI_SUCCESS || !flag) return std::nullopt;
  int n = 0;
  MPI_Get_count(&st, MPI_BYTE, &n);
  Message m{st.MPI_SOURCE, st.MPI_TAG, std::string(std::size_t(std::max(n, 0)), '\0')};
  MPI_Recv(m.bytes.data(), n, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return m;
}

// uint64 fields in the sender's byte order: every rank runs the same binary.
void put_u64(std::string& out, std::uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }
std::uint64_t get_u64(std::string_view in, std::size_t at) {
  std::uint64_t v = 0;
  if (in.size() >= at + sizeof v) std::memcpy(&v, in.data() + at, sizeof v);
  return v;
}

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::string host_name() {
  char buf[256] = {};
  gethostname(buf, sizeof buf - 1);
  return buf;
}

// A process of this host that has ended (gone, or a zombie its launcher has not reaped yet).
bool process_ended(std::uint64_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return true;
  const std::size_t paren = line.rfind(')');
  return paren == std::string::npos || paren + 2 >= line.size() || line[paren + 2] == 'Z' || line[paren + 2] == 'X';
}

// ---------------------------------------------------------------- a worker rank
std::atomic<bool> g_worker_signal{false};
extern "C" void on_worker_signal(int) { g_worker_signal.store(true); }

// Told to leave: goodbye, then MPI_Finalize when idle; with runs still in flight rank 0 is
// ending the job (MPI_Abort), so wait for that rather than race it, but not for ever.
[[noreturn]] void worker_leave(bool idle) {
  send(0, kBye, "told to leave");
  if (idle) {
    MPI_Finalize();
    std::exit(0);
  }
  std::this_thread::sleep_for(std::chrono::seconds(10));
  std::_Exit(130);
}

// Rank 0 names this rank and ends the job; wait for that rather than race it with an exit
// it would report as a death (but not for ever: rank 0 may be gone too).
[[noreturn]] void worker_signalled() {
  send(0, kBye, "was stopped by a signal");
  std::this_thread::sleep_for(std::chrono::seconds(10));
  std::_Exit(130);
}

// One sweep: take ids, run them on the threads, send the rows back, until told to leave.
[[noreturn]] void work(const std::string& start) {
  SweepSpec spec;
  unsigned threads = 1;
  try {
    const auto j = nlohmann::json::parse(start);
    spec = spec_from_json(j.at("spec"), "rank 0's sweep");
    const int jobs = j.at("jobs").get<int>();
    threads = jobs > 0 ? unsigned(jobs) : std::max(1u, std::thread::hardware_concurrency());
  } catch (const std::exception& e) {
    send(0, kError, std::string("cannot read the sweep: ") + e.what());
    worker_leave(false);
  }

  std::mutex mu;
  std::condition_variable cv;
  std::deque<std::uint64_t> inbox;
  std::vector<std::string> outbox;  // kRow payloads
  std::string error;
  std::size_t busy = 0;
  bool quit = false;
  auto thread_main = [&] {
    std::unique_lock lock(mu);
    for (;;) {
      cv.wait(lock, [&] { return quit || !inbox.empty(); });
      if (quit) return;
      const std::uint64_t id = inbox.front();
      inbox.pop_front();
      ++busy;
      lock.unlock();
      std::string msg, err;
      try {
        const RunPoint pt = run_point(spec, id);
        const RunSummary r = summarise_run(pt.params, spec.steps, spec.kind, spec.summary);
        put_u64(msg, id);
        put_u64(msg, r.boid_steps);
        msg += runs_row(spec, pt, r);
      } catch (const std::exception& e) {
        err = "run " + std::to_string(id) + ": " + e.what();
      }
      lock.lock();
      --busy;
      if (err.empty()) outbox.push_back(std::move(msg));
      else if (error.empty()) error = std::move(err);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(thread_main);

  {
    std::string hello;
    put_u64(hello, std::uint64_t(getpid()));
    hello += host_name();
    send(0, kHello, hello);
  }
  bool asked = false, exhausted = false, failed = false;
  auto last_beat = Clock::now();
  for (;;) {
    if (g_worker_signal) worker_signalled();
    std::vector<std::string> rows;
    std::string err;
    std::size_t held = 0;
    {
      std::lock_guard lock(mu);
      rows.swap(outbox);
      err.swap(error);
      held = inbox.size() + busy;
    }
    for (const auto& r : rows) send(0, kRow, r);
    if (!err.empty() && !failed) {
      failed = true;
      send(0, kError, err);
    }
    // One id more than threads, so a thread that finishes starts again without a round trip.
    if (!asked && !exhausted && !failed && held < threads + 1) {
      std::string want;
      put_u64(want, threads + 1 - held);
      send(0, kWant, want);
      asked = true;
    }
    if (seconds_since(last_beat) >= kBeatSeconds) {
      send(0, kBeat, "");
      last_beat = Clock::now();
    }
    while (auto m = receive(0)) {
      if (m->tag == kRuns) {
        asked = false;
        if (m->bytes.empty()) exhausted = true;
        std::lock_guard lock(mu);
        for (std::size_t at = 0; at + 8 <= m->bytes.size(); at += 8) inbox.push_back(get_u64(m->bytes, at));
        cv.notify_all();
      } else if (m->tag == kQuit) {
        std::unique_lock lock(mu);
        const bool idle = inbox.empty() && busy == 0;
        if (idle) {
          quit = true;
          cv.notify_all();
          lock.unlock();
          for (auto& t : pool) t.join();
        }
        worker_leave(idle);
      }
    }
    std::this_thread::sleep_for(kPollSleep);
  }
}

[[noreturn]] void serve() {
  std::signal(SIGINT, on_worker_signal);
  std::signal(SIGTERM, on_worker_signal);
  for (;;) {
    if (g_worker_signal) worker_signalled();
    if (auto m = receive(0)) {
      if (m->tag == kStart) work(m->bytes);
      if (m->tag == kQuit) worker_leave(true);
    }
    std::this_thread::sleep_for(kPollSleep);
  }
}

// ---------------------------------------------------------------- rank 0's remote
class Remote final : public SweepRemote {
 public:
  Remote(std::atomic<bool>& stop, std::string partial_file, const char* command)
      : stop_(stop), partial_file_(std::move(partial_file)), command_(command), host_(host_name()) {
    for (int k = 1; k < g_job.size; ++k) ranks_[k].heard = Clock::now();
  }

  bool poll(SweepQueue& q) override {
    if (over_) return false;
    while (auto m = receive(MPI_ANY_SOURCE)) handle(q, *m);
    if (seconds_since(last_watch_) >= kWatchSeconds) {
      last_watch_ = Clock::now();
      for (const auto& [k, r] : ranks_) {
        if (r.pid && process_ended(r.pid))
          lost(q, "rank " + std::to_string(k) + " (process " + std::to_string(r.pid) + ") died");
        if (seconds_since(r.heard) > kSilentSeconds)
          lost(q, "rank " + std::to_string(k) + " has not answered for " + std::to_string(int(kSilentSeconds)) + " s");
      }
    }
    if (!reason_.empty() || q.stopping()) {
      stopped(q, reason_.empty() ? "stopped by a signal" : reason_);
      return false;
    }
    bool out = false;
    for (const auto& [k, r] : ranks_) out = out || !r.out.empty();
    if (!out && q.drained()) {
      // Every id handed out and every row of the other ranks back: let them go.
      for (const auto& [k, r] : ranks_) send(k, kQuit, "");
      g_job.released = true;
      over_ = true;
      return false;
    }
    return true;
  }

 private:
  struct Rank {
    std::set<std::uint64_t> out;  // ids it holds
    Clock::time_point heard;
    std::uint64_t pid = 0;  // when it shares rank 0's host
  };

  void handle(SweepQueue& q, const Message& m) {
    auto it = ranks_.find(m.source);
    if (it == ranks_.end()) return;
    Rank& r = it->second;
    r.heard = Clock::now();
    const std::string who = "rank " + std::to_string(m.source);
    switch (m.tag) {
      case kHello:
        // Watched only when its process is visible here (not in another PID namespace).
        if (m.bytes.size() > 8 && m.bytes.substr(8) == host_ && !process_ended(get_u64(m.bytes, 0)))
          r.pid = get_u64(m.bytes, 0);
        break;
      case kWant: {
        std::string ids;
        for (std::uint64_t n = get_u64(m.bytes, 0); n > 0; --n) {
          const auto id = q.take();
          if (!id) break;
          put_u64(ids, *id);
          r.out.insert(*id);
        }
        send(m.source, kRuns, ids);
        break;
      }
      case kRow: {
        const std::uint64_t id = get_u64(m.bytes, 0);
        if (r.out.erase(id) == 1) q.add(id, m.bytes.substr(16), get_u64(m.bytes, 8));
        break;
      }
      case kBye:
        if (reason_.empty()) reason_ = who + " " + m.bytes;
        break;
      case kError:
        if (reason_.empty()) reason_ = who + ": " + m.bytes;
        break;
      default:
        break;
    }
  }

  void say(const std::string& why, std::uint64_t kept, std::uint64_t total) {
    std::fprintf(stderr, "\nflockscope %s: %s; job stopped: %llu of %llu runs kept in %s (run the same command again to resume)\n",
                 command_, why.c_str(), static_cast<unsigned long long>(kept), static_cast<unsigned long long>(total),
                 partial_file_.c_str());
    std::fflush(stderr);
  }

  // A rank died: say so at once and end the job, before the launcher ends it without a word
  // (the rows in flight are lost; every finished row is in the partial file already).
  [[noreturn]] void lost(SweepQueue& q, const std::string& why) {
    say(why, q.close(), q.total());
    std::fflush(stdout);
    MPI_Abort(MPI_COMM_WORLD, 1);
    std::_Exit(1);
  }

  // Stopped by a signal, a rank's goodbye or a failed run: say so at once (mpirun's SIGKILL
  // follows its SIGTERM within milliseconds), let the other ranks go, and stop the sweep;
  // leave() ends the job.
  void stopped(SweepQueue& q, const std::string& why) {
    over_ = true;
    g_job.broken = true;
    stop_ = true;
    say(why, q.kept(), q.total());
    for (const auto& [k, r] : ranks_) send(k, kQuit, "");
  }

  std::atomic<bool>& stop_;
  std::string partial_file_;
  const char* command_;
  std::string host_;
  std::map<int, Rank> ranks_;
  Clock::time_point last_watch_ = Clock::now();
  std::string reason_;
  bool over_ = false;
};

}  // namespace

// ---------------------------------------------------------------- enter and leave
std::optional<int> enter(int& argc, char**& argv) {
  if (!launcher_rank()) return std::nullopt;
  int provided = 0;
  if (MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    std::fprintf(stderr, "flockscope: launched by an MPI launcher, but MPI_Init failed\n");
    return 2;
  }
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  g_job.active = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &g_job.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_job.size);
  if (g_job.rank != 0) serve();
  return std::nullopt;
}

int leave(int exit_code) {
  if (!g_job.active) return exit_code;
  if (g_job.broken) {
    std::fflush(stdout);
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, exit_code ? exit_code : 1);
  }
  if (!g_job.released)
    for (int k = 1; k < g_job.size; ++k) send(k, kQuit, "");
  // Goodbyes and requests that arrived after the sweep.
  while (receive(MPI_ANY_SOURCE)) {
  }
  MPI_Finalize();
  return exit_code;
}

int ranks() { return g_job.size; }

std::unique_ptr<SweepRemote> sweep_remote(const SweepSpec& s, int jobs, std::atomic<bool>& stop,
                                          const std::string& partial_file, const char* command) {
  if (!g_job.active || g_job.size < 2) return nullptr;
  const std::string start = nlohmann::json{{"spec", spec_to_json(s)}, {"jobs", jobs}}.dump();
  for (int k = 1; k < g_job.size; ++k) send(k, kStart, start);
  return std::make_unique<Remote>(stop, partial_file, command);
}

#else
// ---------------------------------------------------------------- without MPI
std::optional<int> enter(int&, char**&) {
  const auto rank = launcher_rank();
  if (!rank) return std::nullopt;
  const auto size = env_number("OMPI_COMM_WORLD_SIZE");
  if (size && *size == 1) return std::nullopt;
  if (*rank == 0)
    std::fprintf(stderr,
                 "flockscope: launched as an MPI job, but this flockscope was built without MPI (install "
                 "libopenmpi-dev and rebuild); run it alone, or split the sweep with --shard i/n\n");
  return 2;
}
int leave(int exit_code) { return exit_code; }
int ranks() { return 1; }
std::unique_ptr<SweepRemote> sweep_remote(const SweepSpec&, int, std::atomic<bool>&, const std::string&, const char*) {
  return nullptr;
}
#endif

}  // namespace flockscope::experiments::mpi
