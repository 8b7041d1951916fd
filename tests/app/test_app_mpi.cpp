// `flockscope sweep` as an MPI job, end to end through the real mpirun and the real binary:
// the same runs.csv as one process on any rank and thread count, resume after Ctrl-C, a
// rank killed mid-sweep, and a bad argument reported once.
//
// mpirun refuses to run as root unless told; the test tells it (here only) through
// OMPI_ALLOW_RUN_AS_ROOT*, and --oversubscribe lets three ranks share two cores.
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <thread>
#include "../support/scratch.hpp"
#include "../support/shell.hpp"

extern char** environ;

namespace fs = std::filesystem;

namespace {

fs::path scratch_root() { return testsupport::scratch_root("mpi"); }
struct Environment : testsupport::RemoveAtExit {
  Environment() : RemoveAtExit(scratch_root()) {}
  void SetUp() override {
    setenv("OMPI_ALLOW_RUN_AS_ROOT", "1", 1);
    setenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", 1);
  }
};
const auto* const g_env = ::testing::AddGlobalTestEnvironment(new Environment);

using testsupport::Result;
using testsupport::sh;
using testsupport::slurp;
using testsupport::lines;

const std::string kBin = FLOCKSCOPE_BIN;
std::string mpirun(int ranks) { return std::string(MPIEXEC_BIN) + " --oversubscribe -n " + std::to_string(ranks) + " " + kBin; }

fs::path fresh_dir(const std::string& name) {
  const fs::path d = scratch_root() / name;
  fs::remove_all(d);
  fs::create_directories(d.parent_path());
  return d;
}

std::size_t rows_in(const fs::path& f) {
  const std::string s = slurp(f);
  const auto lines = std::size_t(std::count(s.begin(), s.end(), '\n'));
  return lines > 0 ? lines - 1 : 0;
}

std::size_t occurrences(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// mpirun in the background, its output in a file; the pid is mpirun's own (exec).
struct Job {
  pid_t pid = -1;
  fs::path log;
  int code = -1;

  Job(const std::string& cmd, fs::path log_file) : log(std::move(log_file)) {
    const std::string line = "exec " + cmd + " > '" + log.string() + "' 2>&1";
    const char* argv[] = {"/bin/sh", "-c", line.c_str(), nullptr};
    posix_spawn(&pid, "/bin/sh", nullptr, nullptr, const_cast<char* const*>(argv), environ);
  }
  // Waits for the job to end, at most `seconds` (a hang guard); false if it is still running.
  bool wait(double seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    for (;;) {
      int status = 0;
      if (waitpid(pid, &status, WNOHANG) == pid) {
        code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return true;
      }
      if (std::chrono::steady_clock::now() - t0 > std::chrono::duration<double>(seconds)) return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  ~Job() {
    if (code < 0 && pid > 0) {
      kill(pid, SIGKILL);
      waitpid(pid, nullptr, 0);
    }
  }
};

// Waits until the sweep's partial file holds at least `rows` rows (false after a minute).
bool wait_for_rows(const fs::path& dir, std::size_t rows) {
  for (int i = 0; i < 3000; ++i) {
    if (fs::exists(dir / "runs.partial.csv") && rows_in(dir / "runs.partial.csv") >= rows) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return false;
}

// The process of rank `rank` among mpirun's children (its environment names its rank).
pid_t rank_pid(pid_t launcher, int rank) {
  const std::string want = "OMPI_COMM_WORLD_RANK=" + std::to_string(rank);
  for (const auto& e : fs::directory_iterator("/proc")) {
    const std::string name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    std::ifstream stat(e.path() / "stat");
    std::string line;
    if (!std::getline(stat, line)) continue;
    std::istringstream rest(line.substr(line.rfind(')') + 2));
    char state = 0;
    pid_t ppid = 0;
    rest >> state >> ppid;
    if (ppid != launcher) continue;
    const std::string env = slurp(e.path() / "environ");
    std::istringstream vars(env);
    for (std::string v; std::getline(vars, v, '\0');)
      if (v == want) return std::stoi(name);
  }
  return -1;
}

// Small flocks with a fractional axis (what the ranks get through sweep.json must give back
// the very same doubles).
const std::string kSmall =
    "sweep --preset report-baseline --set boids=24 --grid D_vis=10,inf --grid S_align=0.04,0.06 --reps 3 --steps 40";
// Long enough (about 5 s on three ranks of a quiet 2-core machine) to be stopped in the middle.
const std::string kLong = "sweep --preset report-baseline --set boids=60 --grid D_vis=10,25 --reps 150 --steps 4000 --no-plots --jobs 1";

const std::string& long_reference() {
  static const std::string runs = [] {
    const fs::path d = fresh_dir("long_reference");
    const Result r = sh(kBin + " " + kLong + " --out " + d.string());
    EXPECT_EQ(r.code, 0) << r.output;
    return slurp(d / "runs.csv");
  }();
  return runs;
}

}  // namespace

TEST(CliMpi, SameRunsCsvOnAnyRankAndThreadCount) {
  const fs::path one = fresh_dir("one");
  const Result r1 = sh(kBin + " " + kSmall + " --no-plots --out " + one.string());
  ASSERT_EQ(r1.code, 0) << r1.output;
  const std::string runs = slurp(one / "runs.csv"), summary = slurp(one / "summary.csv");
  ASSERT_EQ(rows_in(one / "runs.csv"), 12u);
  for (int p : {1, 2, 3})
    for (int j : {1, 2}) {
      const std::string pj = "P=" + std::to_string(p) + " J=" + std::to_string(j);
      const fs::path d = fresh_dir(std::to_string(p) + "ranks" + std::to_string(j) + "jobs");
      const Result r = sh(mpirun(p) + " " + kSmall + " --jobs " + std::to_string(j) + " --out " + d.string());
      ASSERT_EQ(r.code, 0) << r.output;
      EXPECT_EQ(slurp(d / "runs.csv"), runs) << pj;
      EXPECT_EQ(slurp(d / "summary.csv"), summary) << pj;
      EXPECT_TRUE(fs::exists(d / "plots" / "final_diameter.png")) << pj;
      EXPECT_FALSE(fs::exists(d / "runs.partial.csv"));
      if (p > 1) {
        EXPECT_NE(r.output.find("on " + std::to_string(p) + " ranks x " + std::to_string(j) + " jobs"), std::string::npos) << r.output;
      }
      // One process writes: one summary line, not P.
      EXPECT_EQ(occurrences(r.output, "12/12 finished"), 1u) << r.output;
    }
}

TEST(CliMpi, TheReportBaselineSweepMatchesOneProcess) {
  const std::string cmd = "sweep --preset report-baseline --grid D_vis=10,25 --reps 4 --steps 300 --out ";
  const fs::path a = fresh_dir("baseline_mpi"), b = fresh_dir("baseline_one");
  const Result ra = sh(mpirun(3) + " " + cmd + a.string());
  ASSERT_EQ(ra.code, 0) << ra.output;
  const Result rb = sh(kBin + " " + cmd + b.string());
  ASSERT_EQ(rb.code, 0) << rb.output;
  EXPECT_EQ(slurp(a / "runs.csv"), slurp(b / "runs.csv"));
  EXPECT_EQ(rows_in(a / "runs.csv"), 8u);
}

TEST(CliMpi, CtrlCLeavesAResumablePartialFile) {
  const std::string& reference = long_reference();
  const fs::path d = fresh_dir("sigint");
  {
    Job job(mpirun(3) + " " + kLong + " --out " + d.string(), scratch_root() / "sigint.log");
    ASSERT_TRUE(wait_for_rows(d, 5));
    kill(job.pid, SIGINT);
    ASSERT_TRUE(job.wait(30)) << "mpirun did not end after SIGINT";
    EXPECT_NE(job.code, 0);
    const std::string log = slurp(job.log);
    EXPECT_NE(log.find("stopped by a signal; job stopped"), std::string::npos) << log;
  }
  ASSERT_TRUE(fs::exists(d / "runs.partial.csv"));
  EXPECT_FALSE(fs::exists(d / "runs.csv"));
  const std::size_t kept = rows_in(d / "runs.partial.csv");
  EXPECT_GE(kept, 5u);
  EXPECT_LT(kept, 300u);
  const Result r = sh(mpirun(2) + " " + kLong + " --out " + d.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find(std::to_string(kept) + " found done"), std::string::npos) << r.output;
  EXPECT_TRUE(slurp(d / "runs.csv") == reference);
}

TEST(CliMpi, AKilledRankEndsTheJobNamingItAndTheRerunFinishes) {
  const std::string& reference = long_reference();
  const fs::path d = fresh_dir("killed");
  std::string log;
  {
    Job job(mpirun(3) + " " + kLong + " --out " + d.string(), scratch_root() / "killed.log");
    ASSERT_TRUE(wait_for_rows(d, 5));
    const pid_t victim = rank_pid(job.pid, 1);
    ASSERT_GT(victim, 0);
    kill(victim, SIGKILL);
    ASSERT_TRUE(job.wait(30)) << "the job hangs after rank 1 died";
    EXPECT_NE(job.code, 0);
    log = slurp(job.log);
  }
  // "rank 1 (process N) died; job stopped: K of 300 runs kept in DIR/runs.partial.csv"
  const std::regex said(R"(rank 1 \(process \d+\) died; job stopped: (\d+) of 300 runs kept in )");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(log, m, said)) << log;
  EXPECT_EQ(rows_in(d / "runs.partial.csv"), std::stoul(m[1].str()));
  EXPECT_FALSE(fs::exists(d / "runs.csv"));
  // Re-run, here as one process: the same folder, the same result as never interrupted.
  const Result r = sh(kBin + " " + kLong + " --out " + d.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(slurp(d / "runs.csv") == reference);
}

TEST(CliMpi, ABadArgumentIsReportedOnce) {
  const fs::path d = fresh_dir("bad");
  struct Case {
    std::string args, expect;
  } cases[] = {
      {"sweep --grid nosuch=1,2 --out " + d.string(), "unknown parameter 'nosuch'"},
      {"sweep --bogus --out " + d.string(), "--bogus"},
      {"sweep --reps 0 --out " + d.string(), "--reps"},
  };
  for (const auto& c : cases) {
    const Result r = sh(mpirun(3) + " " + c.args);
    EXPECT_EQ(r.code, 2) << c.args << "\n" << r.output;
    EXPECT_EQ(occurrences(r.output, c.expect), 1u) << c.args << "\n" << r.output;
  }
  // A folder holding another sweep: only rank 0 looks, and says so once.
  ASSERT_EQ(sh(kBin + " " + kSmall + " --no-plots --out " + d.string()).code, 0);
  std::string other_sweep = kSmall;
  other_sweep.replace(other_sweep.find("--steps 40"), 10, "--steps 41");
  const Result other = sh(mpirun(3) + " " + other_sweep + " --out " + d.string());
  EXPECT_EQ(other.code, 2) << other.output;
  EXPECT_EQ(occurrences(other.output, "holds a different sweep"), 1u) << other.output;
}
