// `flockscope mirror`: the app's serial link without the window, for scripts and tests.
// Connects to a board (a Pico on /dev/ttyACM0, the virtual board's pseudo-terminal, the
// firmware in the emulator), applies each --set through the protocol (every change must be
// acknowledged, or it exits 1 with the board's reason), mirrors the board for --seconds and
// writes DIR/metrics.csv (the columns of `flockscope run` up to share_left, `source` and
// `metrics_boids`, then the run's later columns: one row per board frame; `source` says
// where its metrics came from: `state` all of the frame's boids, `board` the board's own
// metrics, `partial` the boids that arrived of a partial frame; `metrics_boids` over how
// many boids they were computed) and
// DIR/link.json (the link's counters, the board's hello, each change's round trip).
//
// The board is not trusted: frames are measured one at a time with the clock checked
// between them (so --seconds holds whatever arrives), metrics.csv is written as the frames
// come (memory does not grow with the run), SIGINT or SIGTERM ends the mirror early with
// both files written, and a recording that cannot be written stops with a message while
// the mirror goes on.
//
// Exit status: 0 done (also when a signal ended it early); 1 the board did not answer,
// rejected a change or lacks the parameter (a board may expose only some of the table),
// sent no frames or speaks another protocol version; 2 bad arguments.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "link/board_link.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/core/metrics.hpp"
#include "flockscope/core/recording.hpp"
#include "link/wire_params.hpp"
#include "cli_common.hpp"

namespace flockscope::cli {
namespace {

// A row of the run's columns (header or values) with the mirror's own cells put after
// share_left, where they have always been: the columns the run gained since come after them.
std::string mirror_row(const std::string& run_row, const std::string& mirror_cells) {
  static const std::size_t after = [] {
    const auto& cols = metrics_columns();
    return std::size_t(std::find(cols.begin(), cols.end(), "share_left") - cols.begin()) + 1;
  }();
  std::size_t pos = 0;
  for (std::size_t field = 0; field < after && pos != std::string::npos; ++field) {
    pos = run_row.find(',', pos);
    if (pos != std::string::npos) ++pos;
  }
  if (pos == std::string::npos) return run_row + "," + mirror_cells;  // nothing after share_left
  return run_row.substr(0, pos) + mirror_cells + "," + run_row.substr(pos);
}

// The signal that asked the mirror to stop (0: none). The handler only sets it; the main
// thread looks at it between frames and while it waits for the link.
std::atomic<int> g_stop_signal{0};
extern "C" void on_stop_signal(int sig) { g_stop_signal = sig; }

// One stop request ends the mirror cleanly; the handlers reset themselves, so a second
// Ctrl-C (a mirror that does not stop) ends it at once.
void catch_stop_signals() {
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}
bool stop_requested() { return g_stop_signal != 0; }

// A parameter value as the board sent it, for link.json: a number where JSON has one,
// "inf", "-inf" or "nan" where it has not, a choice or bool outside this app's table as
// its number, a value of the wrong type as its description.
nlohmann::json sent_json(const protocol::ParamValue& v) {
  switch (v.type) {
    case protocol::ParamType::kReal: {
      const double x = v.as_real();
      if (std::isnan(x)) return "nan";
      if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
      return x;
    }
    case protocol::ParamType::kInt: return v.as_int();
    case protocol::ParamType::kBool:
    case protocol::ParamType::kChoice: return v.bits;
    default: return link::describe_wire(v);
  }
}

using Clock = std::chrono::steady_clock;
using link::BoardLink;
using link::LinkEvent;

// How long after --seconds a frame taken in time may still be measured.
constexpr auto kMeasureGrace = std::chrono::milliseconds(1000);

struct MirrorArgs {
  std::string port;
  double seconds = 10;
  std::vector<std::string> sets;
  std::string preset;  // its parameters are pushed first (those the board has and holds otherwise)
  std::string out;
  double connect_timeout = 10;
  std::string record;
  bool quiet = false;
};

// Measures frames on its own thread so that the mirror can stop waiting for one: the
// nearest-neighbour distance and clusters of a crowded flock cost more than the rest of the
// frame, and a board decides how crowded its flock is. A measurement still running at the
// deadline is abandoned (the thread finishes it alone, or the process ends under it).
class Measurer {
 public:
  Measurer() : s_(std::make_shared<Shared>()) {
    std::thread([s = s_] {
      std::unique_lock<std::mutex> lock(s->mu);
      for (;;) {
        s->cv.wait(lock, [&] { return s->frame || s->quit; });
        if (s->quit) return;
        const auto frame = std::move(s->frame);
        const double radius = s->radius;
        lock.unlock();
        const Metrics m = link::metrics_of(*frame, radius);
        lock.lock();
        s->result = m;
        s->cv.notify_all();
      }
    }).detach();
  }
  ~Measurer() {
    std::lock_guard<std::mutex> lock(s_->mu);
    s_->quit = true;
    s_->cv.notify_all();
  }
  Measurer(const Measurer&) = delete;
  Measurer& operator=(const Measurer&) = delete;

  // The frame's metrics, or nothing when `give_up` passed (or a stop was asked) first.
  std::optional<Metrics> measure(std::shared_ptr<const link::MirroredFrame> f, double radius, Clock::time_point give_up,
                                 bool (*stop)()) {
    if (abandoned_) return std::nullopt;
    std::unique_lock<std::mutex> lock(s_->mu);
    s_->result.reset();
    s_->frame = std::move(f);
    s_->radius = radius;
    s_->cv.notify_all();
    while (!s_->result) {
      const auto slice = std::min(give_up, Clock::now() + std::chrono::milliseconds(50));
      s_->cv.wait_until(lock, slice, [&] { return s_->result.has_value(); });
      if (!s_->result && (Clock::now() >= give_up || stop())) {
        abandoned_ = true;
        return std::nullopt;
      }
    }
    return s_->result;
  }

 private:
  struct Shared {
    std::mutex mu;
    std::condition_variable cv;
    std::shared_ptr<const link::MirroredFrame> frame;
    double radius = 0;
    std::optional<Metrics> result;
    bool quit = false;
  };
  std::shared_ptr<Shared> s_;
  bool abandoned_ = false;
};

struct Failure {
  int code;
  std::string text;
};

struct Change {
  std::string name, asked, in_force, status;
  double rtt_ms;
  std::string flagged;  // why the value in force is outside this app's table (empty: it is not)
};

class Mirror {
 public:
  explicit Mirror(const MirrorArgs& a) : args_(a), out_(a.out), link_(link::LinkOptions{.port = a.port}) {}

  // The output folder first, so a bad --out fails before the board is touched.
  void prepare_output() {
    std::error_code ec;
    std::filesystem::create_directories(out_, ec);
    if (ec || !std::filesystem::is_directory(out_))
      throw Failure{2, out_.string() + ": cannot create output folder (" + (ec ? ec.message() : "not a folder") + ")"};
  }

  // Every --set against this app's table before any board is asked: a typo or a value out
  // of range is said at once, with or without a board on the port.
  void check_sets() {
    if (!args_.preset.empty()) {
      try {
        preset_ = resolve_params(args_.preset, {});
      } catch (const std::exception& e) {
        throw Failure{2, "--preset " + args_.preset + ": " + e.what()};
      }
    }
    for (const std::string& s : args_.sets) {
      const auto eq = s.find('=');
      if (eq == std::string::npos || !find_param(std::string_view(s).substr(0, eq))) {
        Params q;
        const auto err = apply_assignment(q, s);  // its message names the closest parameter
        throw Failure{2, "--set " + s + ": " + (err ? *err : std::string("unknown parameter"))};
      }
      Params q;
      if (auto err = apply_assignment(q, s)) throw Failure{2, "--set " + s + ": " + *err};
    }
  }

  // False when a signal stopped the wait.
  bool connect() {
    const auto deadline = Clock::now() + std::chrono::duration<double>(args_.connect_timeout);
    while (!board_params_) {
      if (stop_requested()) return false;
      if (Clock::now() >= deadline) {
        const auto st = link_.status();
        throw Failure{1, "no board answered on " + args_.port + " within " + fmt(args_.connect_timeout) + " s (" +
                             link::to_string(st.state) + ": " + st.detail + ")"};
      }
      pump(std::chrono::milliseconds(50));
    }
    return true;
  }

  // False when a signal stopped it. The preset's values first (each parameter the board has
  // whose value differs from the board's: the board's own defaults and read-only values stay
  // out of it), then --set; if any waits for a reset (ok_at_reset), a reset with the board's
  // seed puts them in force.
  bool apply_sets() {
    std::vector<std::string> sets;
    if (preset_) {
      for (const ParamDef& def : param_table()) {
        if (def.name == "seed" || !on_board_.count(def.id)) continue;
        if (get_param(*preset_, def) == get_param(*board_params_, def)) continue;
        sets.push_back(std::string(def.name) + "=" + format_param(*preset_, def));
      }
    }
    sets.insert(sets.end(), args_.sets.begin(), args_.sets.end());
    bool at_reset = false;
    for (const std::string& s : sets) {
      if (stop_requested()) return false;
      const auto eq = s.find('=');
      const ParamDef* def = eq == std::string::npos ? nullptr : find_param(std::string_view(s).substr(0, eq));
      Params q = *board_params_;
      if (auto err = apply_assignment(q, s)) throw Failure{2, "--set " + s + ": " + *err};
      if (!def) throw Failure{2, "--set " + s + ": unknown parameter"};
      if (!on_board_.count(def->id)) throw Failure{1, "--set " + s + ": " + std::string(def->name) + " is not on this board (it has: " + on_board_names() + ")"};
      const double v = get_param(q, *def);
      const std::uint32_t req = link_.change_param(def->id, link::to_wire(*def, v));
      const link::RequestDone d = wait_for(req);
      Change c{std::string(def->name), format_param(q, *def), link::describe_wire(d.value), "", d.rtt_ms, ""};
      switch (d.outcome) {
        case link::Outcome::kAccepted:
          c.status = link::describe_status(d.status);
          at_reset = at_reset || d.status == protocol::Status::kOkAtReset;
          // The value in force, as the board reports it: outside this app's range it is kept
          // and flagged; not a number of the parameter's kind, it is no acknowledgement.
          if (auto f = link::flag_reported(*def, d.value)) {
            if (!f->usable)
              throw Failure{1, "the board answered " + s + " with " + link::describe_wire(d.value) + " in force (" + f->why +
                                   "): not an acknowledgement"};
            c.flagged = f->why;
          }
          break;
        case link::Outcome::kRejected:
          throw Failure{1, link::describe_refusal(*def, s, d.status, d.value, d.reason)};
        case link::Outcome::kUnanswered:
          if (stop_requested()) return false;
          throw Failure{1, "the board did not acknowledge " + s};
        case link::Outcome::kNotConnected: throw Failure{1, "the link dropped while setting " + s};
      }
      if (auto v2 = link::from_wire(*def, d.value)) (void)set_param(*board_params_, *def, std::clamp(*v2, def->min, def->max));
      changes_.push_back(c);
      if (!args_.quiet)
        std::printf("flockscope mirror: %s = %s acknowledged in %.1f ms%s\n", c.name.c_str(), c.in_force.c_str(), c.rtt_ms,
                    c.flagged.empty() ? "" : (" (outside this app's range: " + c.flagged + ")").c_str());
    }
    if (at_reset) {
      const auto seed = std::uint32_t(board_params_->seed);
      const link::RequestDone d = wait_for(link_.command(protocol::CommandId::kReset, seed));
      if (d.outcome != link::Outcome::kAccepted)
        throw Failure{1, std::string("the board did not acknowledge the reset that puts the reset-only values in force")};
      if (!args_.quiet) std::printf("flockscope mirror: reset (seed %u) acknowledged: the reset-only values in force\n", seed);
    }
    return true;
  }

  // Mirrors for --seconds (less if a signal stops it). Each frame is measured and its row
  // written before the next is looked at, and none is taken after the deadline.
  void run() {
    open_csv();
    if (!args_.record.empty()) {
      std::error_code ec;
      const auto parent = std::filesystem::path(args_.record).parent_path();
      if (!parent.empty()) std::filesystem::create_directories(parent, ec);
      try {
        recorder_ = std::make_unique<RecordingWriter>(args_.record, *board_params_, "serial");
      } catch (const OutputError& e) {  // even the header did not fit: the mirror goes on
        stop_recording(e.what());
      }
    }
    started_ = true;
    start_ = Clock::now();
    end_ = start_ + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(args_.seconds));
    collecting_ = true;
    while (collecting_ && Clock::now() < end_ && !stop_requested()) pump(std::chrono::milliseconds(20));
    collecting_ = false;
    elapsed_ = std::chrono::duration<double>(Clock::now() - start_).count();
  }

  // Ends the run, mirrored or stopped early: the recording closed, metrics.csv and link.json
  // written with everything so far. Then the exit status's verdict.
  void finish() {
    close_recording();
    open_csv();
    csv_.flush();
    if (!csv_) throw std::runtime_error((out_ / "metrics.csv").string() + ": write failed (" + std::strerror(errno) + ")");
    csv_.close();
    write_link_json();
    if (const int sig = g_stop_signal)
      std::fprintf(stderr, "flockscope mirror: stopped by %s after %.1f s of mirroring; %s and %s written\n",
                   sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "a signal", elapsed_,
                   (out_ / "metrics.csv").c_str(), (out_ / "link.json").c_str());
    if (frames_.count == 0)
      throw Failure{1, !started_           ? std::string("no frames: stopped before the mirroring began")
                       : frames_.unmeasured ? "no frame could be measured in " + fmt(args_.seconds) + " s"
                                            : "no frames from the board in " + fmt(elapsed_) + " s"};
  }

  void write_link_json() {
    const link::LinkStatus st = link_.status();
    const auto& c = st.counters;
    nlohmann::json j;
    j["port"] = args_.port;
    j["state"] = link::to_string(st.state);
    if (st.board) {
      const auto& h = *st.board;
      j["board"] = {{"name", st.board_name},
                    {"role", unsigned(h.role)},
                    {"protocol_version", h.protocol_version},
                    {"firmware", std::to_string(h.sw_major) + "." + std::to_string(h.sw_minor) + "." + std::to_string(h.sw_patch)},
                    {"max_boids", h.max_boids}};
    }
    j["seconds"] = elapsed_;
    // This window's frames: the board's frame numbers from first to last, and what came.
    j["frames"] = {{"received", frames_.count},
                   {"complete", frames_.complete},
                   {"partial", frames_.partial},
                   {"unmeasured", frames_.unmeasured},
                   {"first", frames_.first},
                   {"last", frames_.last},
                   {"missed", frames_.missed},
                   {"repeated", frames_.repeated},
                   {"restarts", frames_.restarts},
                   {"per_second", elapsed_ > 0 ? double(frames_.count) / elapsed_ : 0.0},
                   {"boids", frames_.boids},
                   {"board_fps", frames_.board_fps}};
    j["link"] = {{"bytes_rx", c.rx.bytes},
                 {"bytes_tx", c.bytes_tx},
                 {"bytes_per_s", elapsed_ > 0 ? double(c.rx.bytes - bytes_at_start_) / elapsed_ : 0.0},
                 {"frames_ok", c.rx.frames_ok},
                 {"bad_crc", c.rx.bad_crc},
                 {"bad_framing", c.rx.bad_framing},
                 {"oversize", c.rx.oversize},
                 {"malformed", c.rx.malformed},
                 {"unknown_type", c.rx.unknown_type},
                 {"version_mismatch", c.rx.version_mismatch},
                 {"seq_gaps", c.rx.seq_gaps},
                 {"seq_lost", c.rx.seq_lost},
                 {"frames_missed_total", c.frames.missed},
                 {"frames_partial_total", c.frames.partial},
                 {"bad_chunks", c.frames.bad_chunks},
                 {"frames_over_capacity", c.frames.over_capacity},
                 {"frames_dropped_by_app", c.frames_dropped},
                 {"logs_dropped", c.logs_dropped},
                 {"sessions", c.sessions},
                 {"reconnects", c.reconnects},
                 {"board_restarts", c.board_restarts},
                 {"port_errors", c.port_errors},
                 {"requests", c.requests},
                 {"accepted", c.accepted},
                 {"rejected", c.rejected},
                 {"unanswered", c.unanswered},
                 {"resent", c.resent},
                 {"late_acks", c.late_acks},
                 {"board_frame_ms", c.board_frame_ms},
                 {"last_change_rtt_ms", c.last_rtt_ms}};
    nlohmann::json changes = nlohmann::json::array();
    for (const auto& ch : changes_) {
      changes.push_back({{"name", ch.name}, {"asked", ch.asked}, {"in_force", ch.in_force}, {"status", ch.status}, {"rtt_ms", ch.rtt_ms}});
      if (!ch.flagged.empty()) changes.back()["flagged"] = ch.flagged;
    }
    j["changes"] = changes;
    if (board_params_) {
      // The board's parameters as it sent them (only those it has); those this app's table
      // does not allow are kept as sent and named in params_flagged with the reason
      // (PROTOCOL.md section 12).
      nlohmann::json params = params_to_json(*board_params_);
      for (const ParamDef& d : param_table())
        if (!on_board_.count(d.id)) params.erase(std::string(d.name));
      nlohmann::json flagged = nlohmann::json::object();
      for (const link::FlaggedParam& f : flagged_) {
        params[std::string(f.def->name)] = sent_json(f.value);
        flagged[std::string(f.def->name)] = f.why;
      }
      j["params"] = params;
      j["params_flagged"] = flagged;
    }
    if (!args_.record.empty())
      j["recording"] = {{"file", args_.record}, {"frames", recorded_frames_}, {"stopped", record_error_}};
    // The parameters the board has (a board may expose only some of the table).
    nlohmann::json on_board = nlohmann::json::array();
    for (const ParamDef& d : param_table())
      if (on_board_.count(d.id)) on_board.push_back(std::string(d.name));
    j["on_board"] = on_board;
    write_text_file(out_ / "link.json", j.dump(2) + "\n");
  }

  const std::string& summary_line() {
    char buf[256];
    const auto c = link_.status().counters;
    std::snprintf(buf, sizeof buf, "flockscope mirror: %llu frames in %.1f s (%llu complete), %u bad checksums, %u sequence gaps",
                  (unsigned long long)frames_.count, elapsed_, (unsigned long long)frames_.complete, c.rx.bad_crc, c.rx.seq_gaps);
    summary_ = buf;
    return summary_;
  }

 private:
  static std::string fmt(double s) {
    char b[32];
    std::snprintf(b, sizeof b, "%.3g", s);
    return b;
  }

  std::string on_board_names() const {
    std::string out;
    for (const ParamDef& d : param_table())
      if (on_board_.count(d.id)) out += (out.empty() ? "" : ", ") + std::string(d.name);
    return out;
  }

  void pump(std::chrono::milliseconds wait) {
    link_.wait_for_event(wait);
    for (LinkEvent& e : link_.take_events()) handle(e);
  }

  link::RequestDone wait_for(std::uint32_t request) {
    // The worker answers every request (ack, unanswered after its retries, which wait as
    // long as the board's frame time asks, or link lost); this only bounds a worker that
    // would not.
    const auto deadline = Clock::now() + std::chrono::minutes(5);
    while (Clock::now() < deadline && !stop_requested()) {
      link_.wait_for_event(std::chrono::milliseconds(50));
      for (LinkEvent& e : link_.take_events()) {
        if (auto* d = std::get_if<link::RequestDone>(&e); d && d->request == request) return *d;
        handle(e);
      }
    }
    link::RequestDone d;
    d.outcome = link::Outcome::kUnanswered;
    return d;
  }

  void handle(LinkEvent& e) {
    if (auto* s = std::get_if<link::StateChanged>(&e)) {
      if (!args_.quiet) std::printf("flockscope mirror: %s (%s)\n", link::to_string(s->state), s->detail.c_str());
      if (s->state == link::LinkState::kVersionMismatch) throw Failure{1, s->detail};
    } else if (auto* p = std::get_if<link::BoardParams>(&e)) {
      flagged_.clear();
      board_params_ = link::params_from_wire(p->params, Params{}, &flagged_);
      on_board_.clear();
      for (const protocol::Param& w : p->params) on_board_.insert(w.id);
      if (!flagged_.empty() && !args_.quiet)
        std::printf("flockscope mirror: the board reports values outside this app's ranges: %s\n", link::describe(flagged_).c_str());
    } else if (auto* f = std::get_if<link::MirroredFrame>(&e)) {
      if (collecting_) take_frame(std::make_shared<const link::MirroredFrame>(std::move(*f)));
    } else if (auto* l = std::get_if<link::BoardLog>(&e)) {
      if (!args_.quiet) std::printf("board: %s\n", l->text.c_str());
    }
  }

  void take_frame(std::shared_ptr<const link::MirroredFrame> frame) {
    if (!board_params_) return;
    // The clock between frames: a backlog never holds the mirror past its deadline.
    if (stop_requested() || Clock::now() >= end_) {
      collecting_ = false;
      return;
    }
    const link::MirroredFrame& f = *frame;
    if (frames_.count > 0 && f.frame == frames_.last) {
      ++frames_.repeated;  // a paused board sends its frame again: one row per step
      return;
    }
    const auto m = measurer_.measure(frame, cluster_radius(*board_params_), end_ + kMeasureGrace, stop_requested);
    if (!m) {
      // One frame's metrics outlasted the run: it is left out, and the run ends here.
      ++frames_.unmeasured;
      collecting_ = false;
      std::fprintf(stderr,
                   "flockscope mirror: frame %u (%zu boids) was still being measured %.1f s after the end; left out\n",
                   f.frame, f.size(), std::chrono::duration<double>(kMeasureGrace).count());
      return;
    }
    if (frames_.count == 0) {
      frames_.first = f.frame;
      bytes_at_start_ = link_.status().counters.rx.bytes;
    } else if (f.frame > frames_.last) {
      frames_.missed += f.frame - frames_.last - 1;
    } else {
      ++frames_.restarts;  // the board's numbering started again (a reset)
    }
    frames_.last = f.frame;
    ++frames_.count;
    ++(f.state_complete ? frames_.complete : frames_.partial);
    frames_.boids = f.size();
    if (f.has_stats) frames_.board_fps = f.stats.fps;
    // source: state, board or partial (link::MetricsSource).
    csv_ << mirror_row(metrics_row(f.frame, double(f.frame) * board_params_->dt, *m),
                       std::string(link::to_string(link::metrics_source(f))) + "," +
                           std::to_string(link::metrics_boids(f)))
         << '\n';
    if (Clock::now() - last_flush_ >= std::chrono::seconds(1)) {
      csv_.flush();
      last_flush_ = Clock::now();
    }
    if (!csv_) throw std::runtime_error((out_ / "metrics.csv").string() + ": write failed (" + std::strerror(errno) + ")");
    if (recorder_) {
      try {
        recorder_->write_frame(f.frame, double(f.frame) * board_params_->dt, *m, link::view_of(f), nullptr, f.predators);
        ++recorded_frames_;
      } catch (const std::exception& e) {
        stop_recording(e.what());
      }
    }
  }

  void stop_recording(const std::string& why) {
    record_error_ = why;
    recorder_.reset();
    std::fprintf(stderr, "flockscope mirror: the recording stopped after %llu frames: %s; mirroring goes on\n",
                 (unsigned long long)recorded_frames_, why.c_str());
  }

  void close_recording() {
    if (!recorder_) return;
    recorder_->close();
    // The last buffered bytes go out at close, which cannot say it failed: compare sizes.
    std::error_code ec;
    const auto path = std::filesystem::path(args_.record);
    if (std::filesystem::is_regular_file(path, ec)) {
      const auto size = std::filesystem::file_size(path, ec);
      if (!ec && size != recorder_->bytes())
        stop_recording(args_.record + ": " + std::to_string(size) + " of " + std::to_string(recorder_->bytes()) +
                       " bytes written (disk full?)");
    }
    recorder_.reset();
  }

  // metrics.csv: the header at once, the rows as the frames come.
  void open_csv() {
    if (csv_.is_open() || csv_opened_) return;
    csv_opened_ = true;
    const auto file = out_ / "metrics.csv";
    csv_.open(file, std::ios::binary | std::ios::trunc);
    if (!csv_) throw std::runtime_error(file.string() + ": cannot write (" + std::strerror(errno) + ")");
    std::string head;
    for (const auto& c : metrics_columns()) head += (head.empty() ? "" : ",") + c;
    csv_ << mirror_row(head, "source,metrics_boids") << '\n';
    last_flush_ = Clock::now();
  }

  MirrorArgs args_;
  std::filesystem::path out_;
  BoardLink link_;
  std::optional<Params> board_params_;
  std::vector<link::FlaggedParam> flagged_;
  std::set<std::uint16_t> on_board_;  // ids of the board's parameter set
  std::optional<Params> preset_;      // --preset's values
  std::vector<Change> changes_;
  std::ofstream csv_;
  bool csv_opened_ = false;
  Clock::time_point last_flush_{}, start_{}, end_{};
  std::unique_ptr<RecordingWriter> recorder_;
  std::uint64_t recorded_frames_ = 0;
  std::string record_error_;
  bool collecting_ = false, started_ = false;
  double elapsed_ = 0;
  std::uint64_t bytes_at_start_ = 0;
  Measurer measurer_;
  struct {
    std::uint64_t count = 0, complete = 0, partial = 0, unmeasured = 0;
    std::uint64_t missed = 0, repeated = 0, restarts = 0;  // frame numbers skipped, sent again, restarted
    std::uint32_t first = 0, last = 0;
    std::size_t boids = 0;
    double board_fps = 0;
  } frames_;
  std::string summary_;
};

}  // namespace

void add_mirror_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<MirrorArgs>();
  CLI::App* cmd = app.add_subcommand("mirror", "Mirror a board over its serial port without the window: metrics.csv + link.json");
  cmd->add_option("--port", args->port, "Serial port: /dev/ttyACM0, a /dev/serial/by-id link, the virtual board's --link")->required();
  cmd->add_option("--seconds", args->seconds, "How long to mirror")->capture_default_str()->check(CLI::Range(0.0, 1e7));
  cmd->add_option("--preset", args->preset,
                  "Push this preset's parameters (name or .json) first: each the board has and holds otherwise must be "
                  "acknowledged; a reset follows if one waits for it");
  cmd->add_option("--set", args->sets, "Change a parameter on the board first: key=value (repeatable; each must be acknowledged)");
  cmd->add_option("--out", args->out, "Output folder for metrics.csv and link.json")->required();
  cmd->add_option("--connect-timeout", args->connect_timeout, "Seconds to wait for the board's hello and parameters")
      ->capture_default_str()->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--record", args->record, "Also record the session (.flkrec, the window's replay format)");
  cmd->add_flag("--quiet", args->quiet, "Print only errors and the summary");
  cmd->callback([args, &exit_code] {
    try {
      Mirror m(*args);
      m.check_sets();
      m.prepare_output();
      catch_stop_signals();
      if (m.connect() && m.apply_sets()) m.run();
      m.finish();
      std::printf("%s\n", m.summary_line().c_str());
      exit_code = 0;
    } catch (const Failure& f) {
      std::fprintf(stderr, "flockscope mirror: %s\n", f.text.c_str());
      exit_code = f.code;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "flockscope mirror: %s\n", e.what());
      exit_code = 2;
    }
  });
}

}  // namespace flockscope::cli
