// `flockscope board`: the virtual board. The firmware's own logic (flockscope::board: the
// fixed-point flock, the link, the frame pacing) on a pseudo-terminal, behaving there as
// the Pico does on /dev/ttyACM0: hello on connect, 30 frames per second, state + metrics +
// stats every frame, requests applied at the frame boundary and acknowledged.
//
// The pty: posix_openpt/grantpt/unlockpt, the slave put into raw mode once; we keep no
// slave descriptor ourselves, so the master reports POLLHUP (and read() EIO) while nobody
// has the port open: that is "DTR low", and the board keeps running and polls.
//
// --link PATH: a symlink to the pty. Nothing else at PATH is ever removed: a file, a folder
// or a live link there is refused; only a board's stale link (into /dev/pts, its terminal
// gone) is replaced. At exit the link goes only if it is still the one this board made.
#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <memory>
#include <optional>
#include <poll.h>
#include <stdlib.h>
#include <string>
#include <thread>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "cli_common.hpp"
#include "flockscope/board/board.hpp"
#include "flockscope/board/host_storage.hpp"
#include "flockscope/core/params.hpp"

namespace flockscope::cli {
namespace {

std::atomic<bool> g_stop{false};
void on_signal(int) { g_stop = true; }

std::uint64_t now_us() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return std::uint64_t(ts.tv_sec) * 1000000u + std::uint64_t(ts.tv_nsec) / 1000u;
}

class PtyTransport final : public board::Transport {
 public:
  PtyTransport() {
    fd_ = posix_openpt(O_RDWR | O_NOCTTY | O_NONBLOCK);
    if (fd_ < 0 || grantpt(fd_) != 0 || unlockpt(fd_) != 0) throw std::runtime_error("cannot open a pseudo-terminal");
    const char* name = ptsname(fd_);
    if (!name) throw std::runtime_error("ptsname failed");
    path_ = name;
    // Raw mode on the slave side (no echo, no CR/LF translation, 8-bit clean). The setting
    // lives with the pty, so it holds for whoever opens the slave later.
    const int s = open(path_.c_str(), O_RDWR | O_NOCTTY);
    if (s >= 0) {
      termios t{};
      if (tcgetattr(s, &t) == 0) {
        cfmakeraw(&t);
        tcsetattr(s, TCSANOW, &t);
      }
      close(s);
    }
  }
  ~PtyTransport() {
    if (fd_ >= 0) close(fd_);
  }
  const std::string& path() const { return path_; }
  int fd() const { return fd_; }

  std::size_t read(std::uint8_t* buf, std::size_t cap) override {
    const ssize_t n = ::read(fd_, buf, cap);
    return n > 0 ? std::size_t(n) : 0;  // EAGAIN, or EIO while nobody has the port open
  }
  std::size_t write(const std::uint8_t* buf, std::size_t n) override {
    const ssize_t w = ::write(fd_, buf, n);
    return w > 0 ? std::size_t(w) : 0;
  }
  bool connected() override {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 0) < 0) return false;
    return (p.revents & POLLHUP) == 0;
  }

 private:
  int fd_ = -1;
  std::string path_;
};

// Where the symlink at `path` points, or nothing if `path` is not a symlink.
std::optional<std::string> link_target(const std::string& path) {
  char buf[4096];
  const ssize_t n = ::readlink(path.c_str(), buf, sizeof buf);
  if (n < 0 || std::size_t(n) >= sizeof buf) return std::nullopt;
  return std::string(buf, std::size_t(n));
}

// Makes the link, or says why not (empty: made).
std::string make_link(const std::string& path, const std::string& pty) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    const auto target = link_target(path);
    struct stat t {};
    const bool stale_board_link = S_ISLNK(st.st_mode) && target && target->rfind("/dev/pts/", 0) == 0 &&
                                  ::stat(path.c_str(), &t) != 0;
    if (!stale_board_link)
      return path + " exists and is not a stale board link (" +
             (S_ISLNK(st.st_mode) ? "a link to " + target.value_or("?") + ", in use" : S_ISDIR(st.st_mode) ? "a folder" : "a file") +
             "): not replacing it; remove it or choose another --link";
    if (::unlink(path.c_str()) != 0) return "cannot replace the stale link " + path + ": " + std::strerror(errno);
  }
  if (::symlink(pty.c_str(), path.c_str()) != 0) return "cannot create the link " + path + ": " + std::strerror(errno);
  return {};
}

// Removes the link only if it is still ours (nobody replaced it meanwhile).
void remove_link(const std::string& path, const std::string& pty) {
  if (link_target(path) == pty) ::unlink(path.c_str());
}

struct BoardArgs {
  std::string link;
  std::string preset;
  std::vector<std::string> sets;
  std::uint32_t boids = 0;
  std::uint32_t max_boids = 4000;
  std::uint64_t seed = 1;
  std::uint64_t frames = 0;
  bool quiet = false;
};

int run_board(const BoardArgs& a) {
  board::BoardConfig cfg;
  cfg.role = protocol::Role::kVirtualBoard;
  cfg.name = "virtual-board";
  cfg.limits.max_boids = a.max_boids;
  cfg.seed = a.seed;
  cfg.boids = a.boids;
  board::HostFlockStorage storage(a.max_boids);
  auto b = std::make_unique<board::Board>(cfg, storage.buffers);

  if (!a.preset.empty() || !a.sets.empty()) {
    const Params p = resolve_params(a.preset.empty() ? "cornell-pico-predator" : a.preset, a.sets);
    for (const ParamDef& def : param_table()) {
      if (def.id == board::pid::seed || (def.id == board::pid::boids && a.boids != 0)) continue;
      const double v = get_param(p, def);
      const auto* info = board::find_param(def.id);
      if (!info) continue;
      const protocol::Status st = b->set_param(def.id, board::to_wire(info->kind, v));
      if (!protocol::is_accepted(st) && v != b->params().pending(def.id))
        std::fprintf(stderr, "flockscope board: %s = %s not taken by the board (status 0x%02x), keeping %g\n",
                     std::string(def.name).c_str(), format_param(p, def).c_str(), unsigned(st),
                     b->params().pending(def.id));
    }
    b->reset(a.seed);
  }

  PtyTransport pty;
  if (!a.link.empty()) {
    if (const std::string err = make_link(a.link, pty.path()); !err.empty()) {
      std::fprintf(stderr, "flockscope board: %s\n", err.c_str());
      return 2;
    }
  }
  const auto boids = std::uint32_t(b->params().active(board::pid::boids));
  std::printf("flockscope board: %s%s%s (capacity %u boids, %s)\n", pty.path().c_str(), a.link.empty() ? "" : " <- ",
              a.link.c_str(), a.max_boids,
              boids ? (std::to_string(boids) + " boids").c_str() : "spawning until the frame budget is used");
  std::fflush(stdout);

  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
  std::signal(SIGPIPE, SIG_IGN);
  std::uint64_t last_report = now_us();
  while (!g_stop && (a.frames == 0 || b->pacer().frames() < a.frames)) {
    const std::uint64_t deadline = b->run_frame(pty, now_us);
    // The wait: keep the output flowing. While output waits, a poll for room to write (it
    // wakes as soon as the reader makes some); otherwise a sleep of at most a millisecond,
    // not such a poll: a pseudo-terminal with room, or held open by nobody, answers it at
    // once, and the wait would spin a core.
    for (std::uint64_t t = now_us(); t < deadline && !g_stop; t = now_us()) {
      b->pump(pty);
      const std::uint64_t left_us = std::min<std::uint64_t>(deadline - t, 1000);
      if (b->output_waiting() && b->session()) {
        pollfd p{pty.fd(), POLLOUT, 0};
        ::poll(&p, 1, 1);
        if (p.revents & (POLLHUP | POLLERR)) std::this_thread::sleep_for(std::chrono::microseconds(left_us));
      } else {
        std::this_thread::sleep_for(std::chrono::microseconds(left_us));
      }
    }
    if (!a.quiet && now_us() - last_report >= 10000000) {
      last_report = now_us();
      std::printf("flockscope board: frame %u, %u boids, %.1f fps, compute %u us, link %s, tx dropped %u\n",
                  b->flock().frame(), b->flock().size(), double(b->pacer().fps()), b->pacer().work_us(),
                  b->session() ? "in session" : "waiting for the app", b->counters().tx_dropped);
      std::fflush(stdout);
    }
  }
  if (!a.link.empty()) remove_link(a.link, pty.path());
  return 0;
}

}  // namespace

void add_board_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<BoardArgs>();
  CLI::App* cmd = app.add_subcommand(
      "board", "Run the virtual board: the firmware's logic on a pseudo-terminal, as the Pico on /dev/ttyACM0");
  cmd->add_option("--link", args->link, "Also make a symlink to the pseudo-terminal at PATH");
  cmd->add_option("--preset", args->preset, "Start from this preset (name or .json); the board keeps its 640x480 screen");
  cmd->add_option("--set", args->sets, "Override a parameter: key=value (repeatable)");
  cmd->add_option("--boids", args->boids, "Boid count (0: spawn until the 30 fps budget is used, as the board does)")
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--max-boids", args->max_boids, "Capacity (the two-core Pico's target is 4000)")
      ->capture_default_str()->check(CLI::Range(1, 65535));
  cmd->add_option("--seed", args->seed, "Random seed")->capture_default_str()->check(CLI::Range(0.0, 4294967295.0));
  cmd->add_option("--frames", args->frames, "Stop after this many frames (0: run until killed)");
  cmd->add_flag("--quiet", args->quiet, "No periodic status lines");
  cmd->callback([args, &exit_code] {
    try {
      if (args->boids > args->max_boids) args->max_boids = args->boids;
      exit_code = run_board(*args);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "flockscope board: %s\n", e.what());
      exit_code = 2;
    }
  });
}

}  // namespace flockscope::cli
