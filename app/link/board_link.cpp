#include "link/board_link.hpp"
#include "link/ports.hpp"
#include "link/wire_params.hpp"

#include <asio/io_context.hpp>
#include <asio/post.hpp>
#include <asio/serial_port.hpp>
#include <asio/steady_timer.hpp>
#include <asio/write.hpp>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <sys/ioctl.h>
#include <utility>

#include "link/wire_text.hpp"

namespace flockscope::link {

using protocol::Message;
using protocol::MsgType;
using Clock = std::chrono::steady_clock;

const char* to_string(LinkState s) {
  switch (s) {
    case LinkState::kClosed: return "closed";
    case LinkState::kWaiting: return "waiting for the port";
    case LinkState::kHandshake: return "handshake";
    case LinkState::kConnected: return "connected";
    case LinkState::kReconnecting: return "reconnecting";
    case LinkState::kVersionMismatch: return "version mismatch";
  }
  return "?";
}

namespace {
double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}
}  // namespace

// ---------------------------------------------------------------- the worker's state
struct BoardLink::Impl {
  explicit Impl(LinkOptions o) : opt(std::move(o)), port(io), tick(io) {}

  LinkOptions opt;
  asio::io_context io;
  asio::serial_port port;
  asio::steady_timer tick;
  std::thread thread;

  // Worker-only state.
  std::string path;
  LinkState state = LinkState::kClosed;
  std::uint64_t generation = 0;  // bumps on every close: completions of older reads are stale
  std::array<std::uint8_t, 16384> rx{};
  protocol::StaticDecoder<> decoder;
  protocol::DecoderStats rx_before{};  // earlier sessions' counts (the decoder restarts)
  Message msg{};
  protocol::Encoder encoder;
  FrameAssembler assembler;
  std::vector<protocol::Param> param_set;
  std::vector<bool> param_have;
  bool had_session = false;
  bool missing_noted = false;  // the missing path was reported (with the ports found)
  bool params_complete = false;
  std::uint32_t board_caps = 0;  // the last board hello's capabilities
  Clock::time_point last_params_ask{};
  Clock::time_point next_open{}, last_hello{}, last_valid{}, session_start{};
  int hellos_sent = 0;
  std::deque<std::vector<std::uint8_t>> write_queue;
  bool writing = false;
  struct Pending {
    std::uint32_t request;
    Message msg;
    Clock::time_point first, last;
    int attempts;
    int frames_since = 0;  // the board's frames (stats) since it was first sent
  };
  std::vector<Pending> pending;
  std::map<std::uint16_t, std::uint32_t> seq_to_request;  // every attempt's seq
  // Requests reported unanswered, by every attempt's seq, for a minute: a late ack still
  // tells the consumer what the board did.
  struct Expired {
    std::uint32_t request;
    Message msg;
    Clock::time_point first, given_up;
  };
  std::map<std::uint16_t, Expired> expired;
  // The board's pace, for how long an answer may take: the stats' arrival interval (smoothed)
  // and the step time they announce.
  Clock::time_point last_stats{};
  double stats_interval_ms = 0, announced_ms = 0;
  std::string log_before;  // the board's log line, while nothing else has come after it
  Clock::time_point rate_since = Clock::now();
  std::uint64_t rate_bytes = 0;
  std::uint32_t rate_frames = 0;

  // Shared with the consumer (under mu).
  mutable std::mutex mu;
  std::condition_variable cv;
  std::deque<LinkEvent> events;
  std::size_t queued_frames = 0, queued_boids = 0, queued_logs = 0;
  LinkStatus status;
  std::atomic<std::uint32_t> next_request{1};

  // ---- consumer side
  void push(LinkEvent e) {
    {
      std::lock_guard<std::mutex> lock(mu);
      if (const auto* f = std::get_if<MirroredFrame>(&e)) {
        // The consumer is not keeping up: drop its oldest frames, never a reply or a state,
        // so the queue's memory stays bounded whatever the board sends.
        for (auto it = events.begin(); it != events.end() && queued_frames > 0 &&
                                       (queued_frames >= opt.max_queued_frames ||
                                        queued_boids + f->size() > opt.max_queued_boids);) {
          if (const auto* old = std::get_if<MirroredFrame>(&*it)) {
            queued_boids -= old->size();
            --queued_frames;
            ++status.counters.frames_dropped;
            it = events.erase(it);
          } else {
            ++it;
          }
        }
        ++queued_frames;
        queued_boids += f->size();
      } else if (std::holds_alternative<BoardLog>(e)) {
        if (queued_logs >= opt.max_queued_logs) {
          ++status.counters.logs_dropped;
          return;
        }
        ++queued_logs;
      } else if (std::holds_alternative<BoardHello>(e)) {
        // A board repeating its hello: the consumer needs only the newest.
        for (auto& old : events)
          if (std::holds_alternative<BoardHello>(old)) {
            old = std::move(e);
            return;
          }
      }
      events.push_back(std::move(e));
    }
    cv.notify_all();
  }

  template <class F>
  void with_status(F&& f) {
    std::lock_guard<std::mutex> lock(mu);
    f(status);
  }

  // A change of state or of its reason is reported once (an event and the status); the same
  // reason again (a missing port tried every reopen_every_ms) is not.
  void set_state(LinkState s, std::string detail, bool open_failed = false) {
    const bool changed = s != state;
    state = s;
    bool news = changed;
    with_status([&](LinkStatus& st) {
      if (!changed && st.detail == detail) return;
      news = true;
      st.state = s;
      st.detail = detail;
      st.port = path;
    });
    const bool trouble = open_failed || s == LinkState::kReconnecting || s == LinkState::kVersionMismatch;
    if (news) push(StateChanged{s, std::move(detail), trouble});
  }

  void sync_rx_counters() {
    const protocol::DecoderStats& d = decoder.stats();
    with_status([&](LinkStatus& st) {
      auto& r = st.counters.rx;
      r.bytes = rx_before.bytes + d.bytes;
      r.frames_ok = rx_before.frames_ok + d.frames_ok;
      r.bad_crc = rx_before.bad_crc + d.bad_crc;
      r.bad_framing = rx_before.bad_framing + d.bad_framing;
      r.oversize = rx_before.oversize + d.oversize;
      r.malformed = rx_before.malformed + d.malformed;
      r.unknown_type = rx_before.unknown_type + d.unknown_type;
      r.version_mismatch = rx_before.version_mismatch + d.version_mismatch;
      r.seq_gaps = rx_before.seq_gaps + d.seq_gaps;
      r.seq_lost = rx_before.seq_lost + d.seq_lost;
      st.counters.frames = assembler.counters();
    });
  }

  // ---- port
  void close_port() {
    ++generation;
    std::error_code ec;
    if (port.is_open()) port.close(ec);
    write_queue.clear();
    writing = false;
    // Counts of the finished session are kept; the decoder starts afresh.
    const auto& d = decoder.stats();
    rx_before.bytes += d.bytes, rx_before.frames_ok += d.frames_ok, rx_before.bad_crc += d.bad_crc;
    rx_before.bad_framing += d.bad_framing, rx_before.oversize += d.oversize, rx_before.malformed += d.malformed;
    rx_before.unknown_type += d.unknown_type, rx_before.version_mismatch += d.version_mismatch;
    rx_before.seq_gaps += d.seq_gaps, rx_before.seq_lost += d.seq_lost;
    decoder.reset();
    decoder.reset_stats();
    assembler.restart();
    fail_pending(Outcome::kNotConnected);
  }

  void lost(const std::string& why) {
    with_status([](LinkStatus& st) { ++st.counters.port_errors; });
    close_port();
    set_state(had_session ? LinkState::kReconnecting : LinkState::kWaiting, why);
    next_open = Clock::now();  // the next tick tries again at once
  }

  void try_open() {
    const auto now = Clock::now();
    next_open = now + std::chrono::milliseconds(opt.reopen_every_ms);
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) {
      // Named once with the ports there are (listing them again at every retry is the same
      // answer); the link goes on trying the path.
      if (!missing_noted) {
        std::string found;
        for (const auto& p : list_ports()) found += (found.empty() ? "" : ", ") + p.path;
        set_state(state,
                  "no device at " + path + ": no such port; " + (found.empty() ? "no serial ports found" : "ports found: " + found) +
                      " (still trying " + path + ")",
                  true);
        missing_noted = true;
      }
      return;
    }
    missing_noted = false;
    port.open(path, ec);
    if (ec) {
      set_state(state, "cannot open " + path + ": " + ec.message(), true);
      return;
    }
    // Raw 8N1, no flow control (asio's open already turned off the line discipline).
    static_assert(is_safe_baud(kLinkBaud));
    port.set_option(asio::serial_port_base::baud_rate(kLinkBaud), ec);
    port.set_option(asio::serial_port_base::character_size(8), ec);
    port.set_option(asio::serial_port_base::parity(asio::serial_port_base::parity::none), ec);
    port.set_option(asio::serial_port_base::stop_bits(asio::serial_port_base::stop_bits::one), ec);
    port.set_option(asio::serial_port_base::flow_control(asio::serial_port_base::flow_control::none), ec);
    // DTR (and RTS) up: the board's "someone is listening". A pseudo-terminal has no modem
    // lines and refuses the ioctl, which is fine.
    int lines = TIOCM_DTR | TIOCM_RTS;
    (void)::ioctl(port.native_handle(), TIOCMBIS, &lines);
    session_start = last_valid = now;
    hellos_sent = 0;
    param_set.clear();
    param_have.clear();
    start_read();
    set_state(LinkState::kHandshake, "connected to " + path + ", waiting for the board's hello");
    // One extra 0x00 closes whatever partial frame the board holds, then hello.
    const std::uint8_t zero = 0;
    send_raw(&zero, 1);
    send_hello();
  }

  void start_read() {
    const std::uint64_t gen = generation;
    port.async_read_some(asio::buffer(rx), [this, gen](const std::error_code& ec, std::size_t n) {
      if (gen != generation) return;  // the port was closed meanwhile
      if (ec) {
        lost("the port closed: " + ec.message());
        return;
      }
      on_bytes(n);
      if (gen == generation) start_read();
    });
  }

  void send_raw(const std::uint8_t* p, std::size_t n) {
    if (!port.is_open()) return;
    std::size_t queued = 0;
    for (const auto& b : write_queue) queued += b.size();
    if (queued > 65536) return;  // the board is not reading: hellos and requests are re-sent anyway
    write_queue.emplace_back(p, p + n);
    with_status([&](LinkStatus& st) { st.counters.bytes_tx += n; });
    if (!writing) write_next();
  }

  void write_next() {
    if (write_queue.empty()) {
      writing = false;
      return;
    }
    writing = true;
    const std::uint64_t gen = generation;
    asio::async_write(port, asio::buffer(write_queue.front()), [this, gen](const std::error_code& ec, std::size_t) {
      if (gen != generation) return;
      if (ec) {
        lost("cannot write to the port: " + ec.message());
        return;
      }
      write_queue.pop_front();
      write_next();
    });
  }

  std::uint16_t send(Message& m) {
    std::uint8_t wire[protocol::kMaxWireSize];
    const std::uint16_t seq = encoder.next_seq();
    const std::size_t n = encoder.encode(m, wire);
    if (n > 0) send_raw(wire, n);
    return seq;
  }

  void send_hello() {
    Message h = protocol::make_hello(protocol::Role::kApp, 0, 1, 0, 0,
                                     protocol::cap::kFlockState | protocol::cap::kPredators |
                                         protocol::cap::kScoutGroups | protocol::cap::kMetrics |
                                         protocol::cap::kStats | protocol::cap::kLog | protocol::cap::kSurroundings,
                                     opt.app_name.c_str());
    send(h);
    last_hello = Clock::now();
    ++hellos_sent;
  }

  // ---- requests
  void submit(std::uint32_t request, Message m) {
    if (state != LinkState::kConnected) {
      RequestDone d = describe_request(request, m);
      d.outcome = Outcome::kNotConnected;
      push(d);
      return;
    }
    with_status([](LinkStatus& st) { ++st.counters.requests; });
    const auto now = Clock::now();
    const std::uint16_t seq = send(m);
    seq_to_request[seq] = request;
    pending.push_back({request, m, now, now, 1, 0});
  }

  static RequestDone describe_request(std::uint32_t request, const Message& m) {
    RequestDone d;
    d.request = request;
    d.type = m.type;
    if (m.type == MsgType::kParamChange) {
      d.subject = m.param_change.param.id;
      d.sent = m.param_change.param.value;
    } else if (m.type == MsgType::kCommand) {
      d.subject = std::uint16_t(m.command.id);
      d.sent = protocol::ParamValue::of_int(m.command.arg);
    }
    return d;
  }

  void fail_pending(Outcome why) {
    for (const Pending& p : pending) {
      RequestDone d = describe_request(p.request, p.msg);
      d.outcome = why;
      push(d);
    }
    pending.clear();
    seq_to_request.clear();
  }

  // A request's end by the board's ack (and the reason its log gave just before).
  static RequestDone answered(std::uint32_t request, const Message& req, Clock::time_point first,
                              const protocol::Ack& ack, const std::string& reason) {
    RequestDone d = describe_request(request, req);
    d.status = ack.status;
    d.value = ack.value;
    d.reason = reason;
    d.outcome = protocol::is_accepted(ack.status) ? Outcome::kAccepted : Outcome::kRejected;
    d.rtt_ms = ms_between(first, Clock::now());
    return d;
  }

  // The board's frame time as this app sees it (0 before its first stats).
  double board_frame_ms() const { return std::max(stats_interval_ms, announced_ms); }
  double request_timeout_ms() const { return opt.request_timeout_ms + 2 * board_frame_ms(); }
  double silence_ms() const { return std::max(double(opt.silence_ms), 3 * board_frame_ms()); }

  void on_stats(const protocol::Stats& st) {
    const auto now = Clock::now();
    if (last_stats != Clock::time_point{}) {
      const double dt = std::min(ms_between(last_stats, now), 60000.0);
      // Quick to follow a slower board, slow to forget it (one fast frame after a long one).
      stats_interval_ms = dt > stats_interval_ms ? dt : 0.9 * stats_interval_ms + 0.1 * dt;
    }
    last_stats = now;
    announced_ms = std::min(double(st.compute_us) / 1000.0, 60000.0);
    for (Pending& p : pending) ++p.frames_since;
    with_status([&](LinkStatus& s) { s.counters.board_frame_ms = board_frame_ms(); });
  }

  void on_ack(const Message& m) {
    const std::string reason = std::exchange(log_before, {});
    const auto it = seq_to_request.find(m.ack.ref_seq);
    if (it == seq_to_request.end()) {
      on_late_ack(m, reason);
      return;
    }
    const std::uint32_t request = it->second;
    for (auto p = pending.begin(); p != pending.end(); ++p) {
      if (p->request != request) continue;
      const RequestDone d = answered(request, p->msg, p->first, m.ack, reason);
      with_status([&](LinkStatus& st) {
        ++(d.outcome == Outcome::kAccepted ? st.counters.accepted : st.counters.rejected);
        if (d.type == MsgType::kParamChange) st.counters.last_rtt_ms = d.rtt_ms;
      });
      pending.erase(p);
      push(d);
      break;
    }
    for (auto s = seq_to_request.begin(); s != seq_to_request.end();)
      s = s->second == request ? seq_to_request.erase(s) : std::next(s);
  }

  // An ack of a request already reported unanswered (or of an attempt already answered:
  // then nothing).
  void on_late_ack(const Message& m, const std::string& reason) {
    const auto it = expired.find(m.ack.ref_seq);
    if (it == expired.end()) return;
    const Expired e = it->second;
    RequestDone d = answered(e.request, e.msg, e.first, m.ack, reason);
    d.late = true;
    with_status([](LinkStatus& st) { ++st.counters.late_acks; });
    push(d);
    for (auto s = expired.begin(); s != expired.end();)
      s = s->second.request == e.request ? expired.erase(s) : std::next(s);
  }

  void retry_requests(Clock::time_point now) {
    for (auto s = expired.begin(); s != expired.end();)
      s = ms_between(s->second.given_up, now) > 60000 ? expired.erase(s) : std::next(s);
    const double timeout = request_timeout_ms();
    for (auto p = pending.begin(); p != pending.end();) {
      if (ms_between(p->last, now) < timeout) {
        ++p;
        continue;
      }
      if (p->attempts > opt.request_retries) {
        // Unanswered only once the board has had two frames to answer in (a board answers
        // between its steps; before its first stats the app does not know how long those
        // take), or 10 s have passed. A board that sends nothing at all is lost after
        // silence_ms(), which fails every pending request.
        if (p->frames_since < 2 && ms_between(p->first, now) < std::max(10000.0, 3 * board_frame_ms())) {
          ++p;
          continue;
        }
        RequestDone d = describe_request(p->request, p->msg);
        d.outcome = Outcome::kUnanswered;
        with_status([](LinkStatus& st) { ++st.counters.unanswered; });
        push(d);
        for (auto s = seq_to_request.begin(); s != seq_to_request.end();) {
          if (s->second != p->request) {
            ++s;
            continue;
          }
          expired[s->first] = {p->request, p->msg, p->first, now};
          s = seq_to_request.erase(s);
        }
        p = pending.erase(p);
        continue;
      }
      const std::uint16_t seq = send(p->msg);  // a new seq: requests are idempotent
      seq_to_request[seq] = p->request;
      p->last = now;
      ++p->attempts;
      with_status([](LinkStatus& st) { ++st.counters.resent; });
      ++p;
    }
  }

  // ---- incoming
  void on_bytes(std::size_t n) {
    std::span<const std::uint8_t> in(rx.data(), n);
    rate_bytes += n;
    const std::uint64_t gen = generation;
    while (gen == generation && decoder.next(in, msg)) on_message(msg);
    sync_rx_counters();
  }

  void on_message(const Message& m) {
    last_valid = Clock::now();
    if (m.type != MsgType::kLog && m.type != MsgType::kAck) log_before.clear();
    if (m.type == MsgType::kHello) {
      on_hello(m);
      return;
    }
    if (state == LinkState::kVersionMismatch) return;  // nothing of it can be read safely
    switch (m.type) {
      case MsgType::kParamSet: on_param_set(m); break;
      case MsgType::kAck: on_ack(m); break;
      case MsgType::kLog:
        log_before = printable(std::string_view(m.log.text, m.log.length));
        push(BoardLog{m.log.level, log_before});
        break;
      case MsgType::kFlockState:
      case MsgType::kPredators:
      case MsgType::kSurroundings:
      case MsgType::kMetrics:
      case MsgType::kStats:
        if (m.type == MsgType::kStats) on_stats(m.stats);
        assembler.add(m, [this](const MirroredFrame& f) {
          ++rate_frames;
          push(f);
        });
        break;
      // Handled above, or the app's own requests coming back (a loop-back): nothing to do.
      // No default: a new message is a -Wswitch error here until the link decides on it.
      // Unknown types match no case (the decoder has counted them).
      case MsgType::kHello:
      case MsgType::kParamChange:
      case MsgType::kCommand:
        break;
    }
  }

  void on_hello(const Message& m) {
    const protocol::Hello& h = m.hello;
    if (h.role == protocol::Role::kApp) return;  // our own hello echoed (a loop-back): ignore
    const std::string name = printable(std::string_view(h.name, h.name_len));
    with_status([&](LinkStatus& st) {
      st.board = h;
      st.board_name = name;
    });
    push(BoardHello{h, name});
    board_caps = h.capabilities;
    // Chunks claiming more boids than the board says it can simulate are protocol errors.
    assembler.set_capacity(h.max_boids);
    const unsigned theirs = m.version != protocol::kProtocolVersion ? m.version : h.protocol_version;
    if (theirs != protocol::kProtocolVersion) {
      const unsigned ours = protocol::kProtocolVersion;
      set_state(LinkState::kVersionMismatch,
                "the board speaks protocol " + std::to_string(theirs) + ", this app " + std::to_string(ours) + ": " +
                    (theirs > ours ? "update the app (flockscope)" : "update the board's firmware"));
      return;
    }
    if (state == LinkState::kConnected) {
      // A board says hello when the port opens and again in answer to ours: a hello soon
      // after ours is that answer.
      if (ms_between(last_hello, Clock::now()) < opt.hello_every_ms) return;
      // A hello we did not ask for: the board restarted. New session: say hello again; its
      // answer (which we then wait for) brings the parameters afresh.
      with_status([](LinkStatus& st) { ++st.counters.board_restarts; });
      decoder.reset();
      assembler.restart();
      set_state(LinkState::kHandshake, "the board restarted; new handshake");
      send_hello();
      return;
    }
    // The hello we were waiting for.
    with_status([&](LinkStatus& st) {
      ++st.counters.sessions;
      if (had_session) ++st.counters.reconnects;
    });
    had_session = true;
    params_complete = false;
    last_params_ask = Clock::now();  // the set follows the hello; asked again if it does not
    set_state(LinkState::kConnected, "connected to " + name + " on " + path);
  }

  void on_param_set(const Message& m) {
    const auto& s = m.param_set;
    if (s.total == 0 || std::size_t(s.first) + s.count > s.total) return;
    if (param_set.size() != s.total || s.first == 0) {
      param_set.assign(s.total, {});
      param_have.assign(s.total, false);
    }
    for (std::size_t i = 0; i < s.count; ++i) {
      param_set[s.first + i] = s.params[i];
      param_have[s.first + i] = true;
    }
    for (bool b : param_have)
      if (!b) return;
    push(BoardParams{params_it_takes(param_set, board_caps)});
    param_have.assign(param_have.size(), false);
    params_complete = true;
  }

  // ---- the clock: hellos, silence, re-opening, request retries, rates
  void on_tick() {
    const auto now = Clock::now();
    switch (state) {
      case LinkState::kClosed: break;
      case LinkState::kWaiting:
      case LinkState::kReconnecting:
        if (now >= next_open) try_open();
        break;
      case LinkState::kHandshake:
      case LinkState::kVersionMismatch: {
        const int wait = hellos_sent <= 1 ? opt.first_hello_ms : opt.hello_every_ms;
        if (ms_between(last_hello, now) >= wait) send_hello();
        if (ms_between(last_valid, now) >= opt.silence_ms * 2)
          lost("no answer from the board for " + std::to_string(opt.silence_ms * 2 / 1000) + " s");
        break;
      }
      case LinkState::kConnected:
        if (!params_complete && ms_between(last_params_ask, now) >= opt.hello_every_ms) {
          // The parameter set was garbled on the way: ask for it again.
          Message ask = protocol::make_command(protocol::CommandId::kRequestParams);
          send(ask);
          last_params_ask = now;
        }
        if (ms_between(last_valid, now) >= silence_ms()) {
          // Silent board: back to step 1 of the handshake; a port that is gone will also
          // fail its next read and be re-opened.
          fail_pending(Outcome::kUnanswered);
          set_state(LinkState::kHandshake, "no frame from the board for " + std::to_string(int(silence_ms())) + " ms");
          last_valid = now;
          hellos_sent = 0;
          send_hello();
        }
        break;
    }
    retry_requests(now);
    const double since = ms_between(rate_since, now);
    if (since >= 1000) {
      with_status([&](LinkStatus& st) {
        st.counters.bytes_per_s = double(rate_bytes) * 1000.0 / since;
        st.counters.frames_per_s = double(rate_frames) * 1000.0 / since;
      });
      rate_bytes = 0, rate_frames = 0, rate_since = now;
    }
    schedule_tick();
  }

  void schedule_tick() {
    tick.expires_after(std::chrono::milliseconds(20));
    tick.async_wait([this](const std::error_code& ec) {
      if (!ec) on_tick();
    });
  }

  void open_port(const std::string& p) {
    close_port();
    path = p;
    had_session = false;
    missing_noted = false;
    set_state(LinkState::kWaiting, "opening " + p);
    try_open();
  }
};

// ---------------------------------------------------------------- BoardLink
BoardLink::BoardLink(LinkOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  Impl& m = *impl_;
  m.schedule_tick();
  if (!m.opt.port.empty()) asio::post(m.io, [&m] { m.open_port(m.opt.port); });
  m.thread = std::thread([&m] {
    for (;;) {
      try {
        m.io.run();
        return;
      } catch (const std::exception& e) {
        // A handler threw (it should not): report it and keep the link alive.
        m.push(BoardLog{protocol::LogLevel::kError, std::string("link worker: ") + e.what()});
      }
    }
  });
}

BoardLink::~BoardLink() {
  Impl& m = *impl_;
  asio::post(m.io, [&m] {
    m.close_port();
    m.tick.cancel();
    m.io.stop();
  });
  if (m.thread.joinable()) m.thread.join();
}

void BoardLink::open(const std::string& port) {
  asio::post(impl_->io, [m = impl_.get(), port] { m->open_port(port); });
}

void BoardLink::close() {
  asio::post(impl_->io, [m = impl_.get()] {
    m->close_port();
    m->set_state(LinkState::kClosed, "disconnected");
  });
}

std::uint32_t BoardLink::change_param(std::uint16_t id, protocol::ParamValue value) {
  const std::uint32_t r = impl_->next_request++;
  asio::post(impl_->io, [m = impl_.get(), r, msg = protocol::make_param_change(id, value)] { m->submit(r, msg); });
  return r;
}

std::uint32_t BoardLink::command(protocol::CommandId id, std::uint32_t arg) {
  const std::uint32_t r = impl_->next_request++;
  asio::post(impl_->io, [m = impl_.get(), r, msg = protocol::make_command(id, arg)] { m->submit(r, msg); });
  return r;
}

std::vector<LinkEvent> BoardLink::take_events() {
  std::lock_guard<std::mutex> lock(impl_->mu);
  std::vector<LinkEvent> out(std::make_move_iterator(impl_->events.begin()), std::make_move_iterator(impl_->events.end()));
  impl_->events.clear();
  impl_->queued_frames = impl_->queued_boids = impl_->queued_logs = 0;
  return out;
}

bool BoardLink::wait_for_event(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(impl_->mu);
  return impl_->cv.wait_for(lock, timeout, [&] { return !impl_->events.empty(); });
}

LinkStatus BoardLink::status() const {
  std::lock_guard<std::mutex> lock(impl_->mu);
  return impl_->status;
}

}  // namespace flockscope::link
