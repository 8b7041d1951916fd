// `flockscope mirror`: the app's serial link without the window, for scripts and tests.
// Connects to a board (a Pico on /dev/ttyACM0, the virtual board's pseudo-terminal, the
// firmware in the emulator), applies each --set through the protocol (every change must be
// acknowledged, or it exits 1 with the board's reason), mirrors the board for --seconds and
// writes DIR/metrics.csv (the columns of `flockscope run` and `source`, one row per board
// frame; `source` says whether its metrics came from all of the frame's boids) and
// DIR/link.json (the link's counters, the board's hello, each change's round trip).
//
// Exit status: 0 done; 1 the board did not answer, rejected a change, sent no frames or
// speaks another protocol version; 2 bad arguments.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "board_link.hpp"
#include "flockscope/core/io.hpp"
#include "flockscope/core/metrics.hpp"
#include "flockscope/core/recording.hpp"
#include "wire_params.hpp"

namespace flockscope::cli {
namespace {

using Clock = std::chrono::steady_clock;
using link::BoardLink;
using link::LinkEvent;

struct MirrorArgs {
  std::string port;
  double seconds = 10;
  std::vector<std::string> sets;
  std::string out;
  double connect_timeout = 10;
  std::string record;
  bool quiet = false;
};

struct Failure {
  int code;
  std::string text;
};

struct Change {
  std::string name, asked, in_force, status;
  double rtt_ms;
};

class Mirror {
 public:
  explicit Mirror(const MirrorArgs& a) : args_(a), link_(link::LinkOptions{.port = a.port}) {}

  void connect() {
    const auto deadline = Clock::now() + std::chrono::duration<double>(args_.connect_timeout);
    while (!board_params_) {
      if (Clock::now() >= deadline) {
        const auto st = link_.status();
        throw Failure{1, "no board answered on " + args_.port + " within " + fmt(args_.connect_timeout) + " s (" +
                             link::to_string(st.state) + ": " + st.detail + ")"};
      }
      pump(std::chrono::milliseconds(50));
    }
  }

  void apply_sets() {
    for (const std::string& s : args_.sets) {
      const auto eq = s.find('=');
      const ParamDef* def = eq == std::string::npos ? nullptr : find_param(std::string_view(s).substr(0, eq));
      Params q = *board_params_;
      if (auto err = apply_assignment(q, s)) throw Failure{2, "--set " + s + ": " + *err};
      if (!def) throw Failure{2, "--set " + s + ": unknown parameter"};
      const double v = get_param(q, *def);
      const std::uint32_t req = link_.change_param(def->id, link::to_wire(*def, v));
      const link::RequestDone d = wait_for(req);
      Change c{std::string(def->name), format_param(q, *def), link::describe_wire(d.value), "", d.rtt_ms};
      switch (d.outcome) {
        case link::Outcome::kAccepted: c.status = link::describe_status(d.status); break;
        case link::Outcome::kRejected:
          throw Failure{1, "the board rejected " + s + ": " + link::describe_status(d.status) + " (it keeps " +
                               link::describe_wire(d.value) + ")"};
        case link::Outcome::kUnanswered: throw Failure{1, "the board did not acknowledge " + s};
        case link::Outcome::kNotConnected: throw Failure{1, "the link dropped while setting " + s};
      }
      if (auto v2 = link::from_wire(*def, d.value)) (void)set_param(*board_params_, *def, *v2);
      changes_.push_back(c);
      if (!args_.quiet) std::printf("flockscope mirror: %s = %s acknowledged in %.1f ms\n", c.name.c_str(), c.in_force.c_str(), c.rtt_ms);
    }
  }

  void run() {
    if (!args_.record.empty()) {
      std::error_code ec;
      const auto parent = std::filesystem::path(args_.record).parent_path();
      if (!parent.empty()) std::filesystem::create_directories(parent, ec);
      recorder_ = std::make_unique<RecordingWriter>(args_.record, *board_params_, "serial");
    }
    rows_.clear();
    const auto start = Clock::now();
    const auto end = start + std::chrono::duration<double>(args_.seconds);
    collecting_ = true;
    while (Clock::now() < end) pump(std::chrono::milliseconds(20));
    collecting_ = false;
    elapsed_ = std::chrono::duration<double>(Clock::now() - start).count();
    if (recorder_) recorder_->close();
    if (rows_.empty()) throw Failure{1, "no frames from the board in " + fmt(args_.seconds) + " s"};
  }

  void write(const std::filesystem::path& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || !std::filesystem::is_directory(dir))
      throw Failure{2, dir.string() + ": cannot create output folder (" + ec.message() + ")"};
    std::string csv;
    for (const auto& c : metrics_columns()) csv += (csv.empty() ? "" : ",") + c;
    csv += ",source\n";
    for (const auto& r : rows_) csv += r + "\n";
    write_text_file(dir / "metrics.csv", csv);

    const link::LinkStatus st = link_.status();
    const auto& c = st.counters;
    nlohmann::json j;
    j["port"] = args_.port;
    j["state"] = link::to_string(st.state);
    if (st.board) {
      const auto& h = *st.board;
      j["board"] = {{"name", std::string(h.name, h.name_len)},
                    {"role", unsigned(h.role)},
                    {"protocol_version", h.protocol_version},
                    {"firmware", std::to_string(h.sw_major) + "." + std::to_string(h.sw_minor) + "." + std::to_string(h.sw_patch)},
                    {"max_boids", h.max_boids}};
    }
    j["seconds"] = elapsed_;
    // This window's frames: the board's frame numbers from first to last, and what came.
    const std::uint64_t span = frames_.count ? std::uint64_t(frames_.last - frames_.first) + 1 : 0;
    j["frames"] = {{"received", frames_.count},
                   {"complete", frames_.complete},
                   {"partial", frames_.partial},
                   {"first", frames_.first},
                   {"last", frames_.last},
                   {"missed", span >= frames_.count ? span - frames_.count : 0},
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
                 {"frames_dropped_by_app", c.frames_dropped},
                 {"sessions", c.sessions},
                 {"reconnects", c.reconnects},
                 {"board_restarts", c.board_restarts},
                 {"port_errors", c.port_errors},
                 {"requests", c.requests},
                 {"accepted", c.accepted},
                 {"rejected", c.rejected},
                 {"unanswered", c.unanswered},
                 {"resent", c.resent},
                 {"last_change_rtt_ms", c.last_rtt_ms}};
    nlohmann::json changes = nlohmann::json::array();
    for (const auto& ch : changes_)
      changes.push_back({{"name", ch.name}, {"asked", ch.asked}, {"in_force", ch.in_force}, {"status", ch.status}, {"rtt_ms", ch.rtt_ms}});
    j["changes"] = changes;
    if (board_params_) j["params"] = params_to_json(*board_params_);
    write_text_file(dir / "link.json", j.dump(2) + "\n");
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
    std::snprintf(b, sizeof b, "%g", s);
    return b;
  }

  void pump(std::chrono::milliseconds wait) {
    link_.wait_for_event(wait);
    for (LinkEvent& e : link_.take_events()) handle(e);
  }

  link::RequestDone wait_for(std::uint32_t request) {
    // Retries are the worker's (250 ms x 4); this only bounds a link that never answers.
    const auto deadline = Clock::now() + std::chrono::seconds(5);
    while (Clock::now() < deadline) {
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
      std::string flagged;
      board_params_ = link::params_from_wire(p->params, Params{}, &flagged);
      if (!flagged.empty() && !args_.quiet)
        std::printf("flockscope mirror: the board reports values outside this app's ranges: %s\n", flagged.c_str());
    } else if (auto* f = std::get_if<link::MirroredFrame>(&e)) {
      if (collecting_) take_frame(*f);
    } else if (auto* l = std::get_if<link::BoardLog>(&e)) {
      if (!args_.quiet) std::printf("board: %s\n", l->text.c_str());
    }
  }

  void take_frame(const link::MirroredFrame& f) {
    if (!board_params_) return;
    if (frames_.count == 0) {
      frames_.first = f.frame;
      bytes_at_start_ = link_.status().counters.rx.bytes;
    }
    frames_.last = f.frame;
    ++frames_.count;
    ++(f.state_complete ? frames_.complete : frames_.partial);
    frames_.boids = f.size();
    if (f.has_stats) frames_.board_fps = f.stats.fps;
    const Metrics m = link::metrics_of(f, cluster_radius(*board_params_));
    // source: `state` (computed from every boid of the frame) or `board` (the board's own
    // metrics stood in: the state stream off, a chunk lost).
    rows_.push_back(metrics_row(f.frame, double(f.frame) * board_params_->dt, m) +
                    (link::metrics_from_state(f) ? ",state" : ",board"));
    if (recorder_)
      recorder_->write_frame(f.frame, double(f.frame) * board_params_->dt, m, link::view_of(f), nullptr, f.predators);
  }

  MirrorArgs args_;
  BoardLink link_;
  std::optional<Params> board_params_;
  std::vector<Change> changes_;
  std::vector<std::string> rows_;
  std::unique_ptr<RecordingWriter> recorder_;
  bool collecting_ = false;
  double elapsed_ = 0;
  std::uint64_t bytes_at_start_ = 0;
  struct {
    std::uint64_t count = 0, complete = 0, partial = 0;
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
  cmd->add_option("--set", args->sets, "Change a parameter on the board first: key=value (repeatable; each must be acknowledged)");
  cmd->add_option("--out", args->out, "Output folder for metrics.csv and link.json")->required();
  cmd->add_option("--connect-timeout", args->connect_timeout, "Seconds to wait for the board's hello and parameters")
      ->capture_default_str()->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--record", args->record, "Also record the session (.flkrec, the window's replay format)");
  cmd->add_flag("--quiet", args->quiet, "Print only errors and the summary");
  cmd->callback([args, &exit_code] {
    try {
      Mirror m(*args);
      m.connect();
      m.apply_sets();
      m.run();
      m.write(args->out);
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
