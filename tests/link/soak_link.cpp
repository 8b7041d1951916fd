// A long mirror under use: the app's link (link::BoardLink, as the window holds it) on a
// board for --seconds, pushing a parameter change every second, pausing and resuming every
// 20 s, resetting every 45 s, and unplugging the board every minute (the board's process is
// killed, as a Pico loses power with its cable, and started again 2 s later). Then it says
// what came through:
//   frames   received against sent, outside the replug gaps: the board numbers its frames,
//            so what it sent while plugged is the span of numbers between the first and the
//            last frame received in each stretch (a reset or a replug starts a new one);
//   acks     changes answered against changes sent (those in flight when the board went
//            away are left out);
//   memory   this process's resident memory after the first minute and at the end;
//   wraps    any link counter that went backwards (a counter wrapping) between two looks.
//
//   soak_link --board virtual|emulator [--seconds S] [--json FILE]
//
// Exit status 0 when no frame was lost outside the gaps, every change sent while plugged was
// answered, memory grew by less than 1 MiB and no counter wrapped; 1 otherwise; 2 bad usage.
// scripts/soak.sh runs it for 30 minutes; the slow tier for a short time (link.soak_*).
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <variant>
#include <vector>

#include "../board/emulator_process.hpp"
#include "../board/vboard_process.hpp"
#include "link/board_link.hpp"

namespace {

using Clock = std::chrono::steady_clock;
namespace link = flockscope::link;
namespace proto = flockscope::protocol;

// This process's resident memory now, in bytes (/proc/self/statm).
std::size_t resident_bytes() {
  std::ifstream f("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  f >> pages >> resident;
  return resident * std::size_t(sysconf(_SC_PAGESIZE));
}

// The board under test: started, killed and started again.
class Board {
 public:
  Board(std::string kind, std::string link_path) : kind_(std::move(kind)), link_(std::move(link_path)) { start(); }
  void start() {
    if (kind_ == "virtual")
      vb_ = std::make_unique<vbtest::VirtualBoard>(std::vector<std::string>{"--boids", "300"}, link_);
    else
      emu_ = std::make_unique<emutest::Emulator>(emutest::elf_path());
  }
  void unplug() {
    if (vb_) vb_->stop(SIGKILL), vb_.reset(), std::filesystem::remove(link_);
    emu_.reset();
  }
  std::string port() const { return emu_ ? emu_->link : link_; }

 private:
  std::string kind_, link_;
  std::unique_ptr<vbtest::VirtualBoard> vb_;
  std::unique_ptr<emutest::Emulator> emu_;
};

// Frames of one stretch of the board's numbering (between replugs and resets).
struct Stretch {
  std::uint32_t first = 0, last = 0;
  std::uint64_t received = 0;
  std::uint64_t sent() const { return std::uint64_t(last - first) + 1; }
};

}  // namespace

int main(int argc, char** argv) {
  std::string kind, json_file;
  double seconds = 1800;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--board" && i + 1 < argc) kind = argv[++i];
    else if (a == "--seconds" && i + 1 < argc) seconds = std::atof(argv[++i]);
    else if (a == "--json" && i + 1 < argc) json_file = argv[++i];
    else kind = "?";
  }
  if ((kind != "virtual" && kind != "emulator") || !(seconds > 0)) {
    std::fprintf(stderr, "usage: soak_link --board virtual|emulator [--seconds S] [--json FILE]\n");
    return 2;
  }
  if (kind == "emulator" && !std::filesystem::exists(emutest::elf_path())) {
    std::fprintf(stderr, "soak_link: no %s: run firmware_pico/build.sh\n", emutest::elf_path().c_str());
    return 2;
  }
  const std::string link_path =
      (std::filesystem::temp_directory_path() / ("flockscope-soak-" + std::to_string(getpid()))).string();
  Board board(kind, link_path);
  link::BoardLink l(link::LinkOptions{.port = board.port()});

  const auto t0 = Clock::now();
  const auto since = [&](Clock::time_point t) { return std::chrono::duration<double>(t - t0).count(); };
  const double boot_s = kind == "emulator" ? 30 : 3;  // a board's start, before it can answer
  std::vector<Stretch> stretches;
  bool new_stretch = true;
  std::uint64_t repeated = 0, changes_sent = 0, changes_answered = 0, changes_in_gaps = 0, unplugs = 0, wraps = 0;
  std::vector<std::string> wrapped;
  struct Sent {
    std::uint32_t request;
    double at;
  };
  std::vector<Sent> in_flight;
  std::vector<double> gaps;  // unplug times
  std::size_t rss_start = 0, rss_end = 0;
  link::LinkCounters last_counters{};
  bool connected = false, paused = false;
  double next_change = 1, next_pause = 20, next_resume = 1e300, next_reset = 45, next_unplug = 60, next_look = 1;
  double replug_at = 1e300;
  int value = 0;

  const auto near_gap = [&](double at) {
    for (const double g : gaps)
      if (at > g - 5 && at < g + boot_s + 5) return true;
    return false;
  };

  while (since(Clock::now()) < seconds) {
    l.wait_for_event(std::chrono::milliseconds(20));
    for (link::LinkEvent& e : l.take_events()) {
      if (const auto* s = std::get_if<link::StateChanged>(&e)) {
        connected = s->state == link::LinkState::kConnected;
        if (!connected) new_stretch = true;
      } else if (const auto* f = std::get_if<link::MirroredFrame>(&e)) {
        if (new_stretch || stretches.empty() || f->frame < stretches.back().last) {
          stretches.push_back({f->frame, f->frame, 0});
          new_stretch = false;
        } else if (f->frame == stretches.back().last && stretches.back().received > 0) {
          ++repeated;  // paused: the same frame again
          continue;
        }
        stretches.back().last = f->frame;
        ++stretches.back().received;
      } else if (const auto* d = std::get_if<link::RequestDone>(&e)) {
        for (auto it = in_flight.begin(); it != in_flight.end(); ++it) {
          if (it->request != d->request) continue;
          const bool answered = d->outcome == link::Outcome::kAccepted || d->outcome == link::Outcome::kRejected;
          if (answered) ++changes_answered;
          else if (near_gap(it->at)) ++changes_in_gaps;
          in_flight.erase(it);
          break;
        }
      }
    }
    const double now = since(Clock::now());
    if (now >= replug_at) {
      board.start();  // at the same path: the link, which keeps trying it, finds it again
      replug_at = 1e300;
    }
    if (now >= next_unplug) {
      board.unplug();
      gaps.push_back(now);
      ++unplugs;
      new_stretch = true;
      replug_at = now + 2;
      next_unplug += 60;
    }
    if (!connected) continue;
    if (now >= next_change) {
      value = (value + 1) % 20;
      in_flight.push_back({l.change_param(7, proto::ParamValue::of_real(30.0 + value)), now});
      ++changes_sent;
      next_change += 1;
    }
    if (now >= next_pause) {
      l.command(proto::CommandId::kPause);
      paused = true;
      next_resume = now + 2;
      next_pause += 20;
    }
    if (paused && now >= next_resume) {
      l.command(proto::CommandId::kResume);
      paused = false;
    }
    if (now >= next_reset) {
      l.command(proto::CommandId::kReset, 7);  // the board's numbering starts again: a new stretch
      next_reset += 45;
    }
    if (now >= next_look) {
      const link::LinkCounters c = l.status().counters;
      const std::pair<const char*, std::pair<std::uint64_t, std::uint64_t>> monotone[] = {
          {"rx.bytes", {last_counters.rx.bytes, c.rx.bytes}},
          {"rx.frames_ok", {last_counters.rx.frames_ok, c.rx.frames_ok}},
          {"bytes_tx", {last_counters.bytes_tx, c.bytes_tx}},
          {"frames.frames", {last_counters.frames.frames, c.frames.frames}},
          {"frames.missed", {last_counters.frames.missed, c.frames.missed}},
          {"requests", {last_counters.requests, c.requests}},
          {"accepted", {last_counters.accepted, c.accepted}},
          {"sessions", {last_counters.sessions, c.sessions}}};
      for (const auto& [name, v] : monotone)
        if (v.second < v.first) ++wraps, wrapped.push_back(name);
      last_counters = c;
      if (rss_start == 0 && now >= 60) rss_start = resident_bytes();
      next_look += 1;
    }
  }
  rss_end = resident_bytes();
  if (rss_start == 0) rss_start = rss_end;

  std::uint64_t sent = 0, received = 0;
  for (const Stretch& s : stretches) sent += s.sent(), received += s.received;
  const std::uint64_t unanswered = changes_sent - changes_answered - changes_in_gaps - in_flight.size();
  const long long growth = (long long)rss_end - (long long)rss_start;
  nlohmann::json j = {{"board", kind},
                      {"seconds", seconds},
                      {"unplugs", unplugs},
                      {"frames", {{"sent", sent}, {"received", received}, {"lost", sent - received},
                                  {"repeated_while_paused", repeated}, {"stretches", stretches.size()}}},
                      {"changes", {{"sent", changes_sent}, {"answered", changes_answered},
                                   {"in_replug_gaps", changes_in_gaps}, {"still_in_flight", in_flight.size()},
                                   {"unanswered", unanswered}}},
                      {"memory", {{"rss_start", rss_start}, {"rss_end", rss_end}, {"growth", growth}}},
                      {"wraps", wrapped},
                      // Where lost frames went: never whole off the wire (missed), damaged, or
                      // dropped because this consumer did not take them in time.
                      {"link", {{"frames_missed", last_counters.frames.missed},
                                {"frames_partial", last_counters.frames.partial},
                                {"frames_dropped_by_app", last_counters.frames_dropped},
                                {"bad_crc", last_counters.rx.bad_crc},
                                {"bad_framing", last_counters.rx.bad_framing},
                                {"seq_lost", last_counters.rx.seq_lost},
                                {"reconnects", last_counters.reconnects}}}};
  const std::string text = j.dump(2);
  std::printf("%s\n", text.c_str());
  if (!json_file.empty()) std::ofstream(json_file) << text << "\n";
  const bool ok = sent == received && unanswered == 0 && growth < (1 << 20) && wraps == 0 && received > 0;
  std::printf("soak_link: %s\n", ok ? "ok" : "FAILED");
  return ok ? 0 : 1;
}
