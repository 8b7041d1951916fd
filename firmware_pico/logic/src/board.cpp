// Sections: construction | frame boundary (requests) | commands | output (ring, chunks)
#include "flockscope/board/board.hpp"

#include <cstring>

namespace flockscope::board {

using protocol::Message;
using protocol::MsgType;
using protocol::ParamValue;
using protocol::Status;

// ---------------------------------------------------------------- construction
Board::Board(const BoardConfig& config, const FlockBuffers& buffers)
    : cfg_(config), params_(config.limits), flock_(buffers), pacer_(config.period_us), spawn_(config.spawn) {
  params_.force(pid::seed, double(config.seed));
  params_.force(pid::boids, double(config.boids));
  reset_flock(config.seed);
}

void Board::reset_flock(std::uint64_t seed) {
  params_.apply_pending();
  params_version_ = params_.version();
  const auto want = std::uint32_t(params_.active(pid::boids));
  if (want == 0) {  // the lab: start small, spawn while the budget allows
    spawn_.start();
    flock_.reset(params_, seed, cfg_.spawn.step < flock_.capacity() ? cfg_.spawn.step : flock_.capacity());
  } else {
    spawn_.stop();
    flock_.reset(params_, seed, want);
  }
  elapsed_us_ = 0;
  resume_at_ = 0;
}

Status Board::set_param(std::uint16_t id, const ParamValue& v) {
  double value = 0;
  const Status st = params_.check(id, v, value);
  if (!protocol::is_accepted(st)) return st;
  const Status done = params_.store(id, value);
  if (params_.version() != params_version_) {
    params_version_ = params_.version();
    flock_.configure(params_);
  }
  return done;
}

void Board::reset(std::uint64_t seed) {
  params_.force(pid::seed, double(seed));
  reset_flock(seed);
}

// ---------------------------------------------------------------- frame boundary (requests)
std::uint64_t Board::frame_start(Transport& io, std::uint64_t now) {
  const std::uint64_t deadline = pacer_.begin(now);
  if (!paused_ && last_start_ != 0) elapsed_us_ += now - last_start_;
  last_start_ = now;

  close_frame_output();  // the previous frame's state is history now

  const bool conn = io.connected();
  const bool was = connected_;
  connected_ = conn;
  if (conn && !was) {
    // "On connect it says hello": a 0x00 closes whatever the host holds, then hello.
    ring_head_ = ring_used_ = 0;
    decoder_.reset();
    const std::uint8_t zero = 0;
    ring_push(&zero, 1);
    send_hello();
  }
  if (!conn && was) {
    session_ = false;  // DTR dropped / port closed: streams stop until the next app hello
    streams_ = 0;
    ring_head_ = ring_used_ = 0;
  }

  // Requests that arrived during the last frame, applied now, at the frame boundary. The
  // read is bounded so that a flood from the host cannot stall the flock.
  std::uint8_t buf[512];
  for (std::size_t total = 0; total < 16384;) {
    const std::size_t n = io.read(buf, sizeof buf);
    if (n == 0) break;
    total += n;
    std::span<const std::uint8_t> in(buf, n);
    while (decoder_.next(in, rx_msg_)) handle(rx_msg_);
  }
  if (params_.version() != params_version_) {
    params_version_ = params_.version();
    flock_.configure(params_);
  }
  return deadline;
}

void Board::handle(const Message& m) {
  if (m.version != protocol::kProtocolVersion) {
    if (m.type == MsgType::kHello) send_hello();  // a foreign hello learns our version, nothing else
    return;
  }
  if (!protocol::is_known(m.type)) {
    ++counters_.requests;
    ack(m, Status::kUnknownType, 0, ParamValue::of_int(0));
    return;
  }
  switch (m.type) {
    case MsgType::kHello:
      if (m.hello.role != protocol::Role::kApp) return;
      send_hello();
      send_param_set();
      session_ = true;
      streams_ = protocol::stream::kAll;
      return;
    case MsgType::kParamChange: {
      ++counters_.requests;
      const auto& p = m.param_change.param;
      double v = 0;
      const Status st = params_.check(p.id, p.value, v);
      if (!protocol::is_accepted(st)) {
        // What the board allows, on the log before the ack (protocol/refusal.hpp); the clock
        // is this frame's start, so a refusal reads no timer.
        const ParamInfo* info = find_param(p.id);
        if (info && st == Status::kOutOfRange && reasons_.allow(last_start_)) {
          double lo = 0, hi = 0;
          params_.range(p.id, lo, hi);
          char line[protocol::kReasonLineSize];
          protocol::format_allowed_range(line, info->name, lo, hi);
          log(protocol::LogLevel::kWarn, line);
        }
        const ParamValue cur = info ? params_.reported(p.id) : ParamValue::of_int(0);
        ack(m, st, p.id, cur);
        return;
      }
      const Status done = params_.store(p.id, v);
      ack(m, done, p.id, params_.reported(p.id));
      return;
    }
    case MsgType::kParamSet: {
      ++counters_.requests;
      const auto& s = m.param_set;
      double values[protocol::kMaxParamsPerFrame];
      for (std::size_t i = 0; i < s.count; ++i) {  // all or nothing: check everything first
        const auto& p = s.params[i];
        const Status st = params_.check(p.id, p.value, values[i]);
        if (!protocol::is_accepted(st)) {
          ack(m, st, p.id, find_param(p.id) ? params_.reported(p.id) : ParamValue::of_int(0));
          return;
        }
      }
      for (std::size_t i = 0; i < s.count; ++i) params_.store(s.params[i].id, values[i]);
      ack(m, Status::kOk, 0, ParamValue::of_int(s.count));
      return;
    }
    case MsgType::kCommand:
      ++counters_.requests;
      handle_command(m);
      return;
    // Board -> app messages coming back: ignored. No default: a new message is a -Wswitch
    // error here until the board decides on it (protocol/pico/flockscope_link.cpp lists the
    // same cases: each board side decides for itself).
    case MsgType::kAck:
    case MsgType::kFlockState:
    case MsgType::kPredators:
    case MsgType::kMetrics:
    case MsgType::kStats:
    case MsgType::kLog:
      return;
  }
}

// ---------------------------------------------------------------- commands
void Board::handle_command(const Message& m) {
  using protocol::CommandId;
  const std::uint32_t arg = m.command.arg;
  const auto id = static_cast<std::uint16_t>(m.command.id);
  switch (m.command.id) {
    case CommandId::kReset:
      params_.force(pid::seed, double(arg));
      reset_flock(arg);
      ack(m, Status::kOk, id, ParamValue::of_int(arg));
      return;
    case CommandId::kPause:
      paused_ = true;
      ack(m, Status::kOk, id, ParamValue::of_bool(true));
      return;
    case CommandId::kResume:
      paused_ = false;
      ack(m, Status::kOk, id, ParamValue::of_bool(false));
      return;
    case CommandId::kSetBoidCount:
      if (arg > flock_.capacity()) {
        ack(m, Status::kOutOfRange, id, ParamValue::of_int(flock_.size()));
        return;
      }
      spawn_.stop();
      flock_.set_count(arg);
      params_.force(pid::boids, arg);
      ack(m, Status::kOk, id, ParamValue::of_int(flock_.size()));
      return;
    case CommandId::kPredators:
      if (arg > 1) {
        ack(m, Status::kInvalid, id, ParamValue::of_bool(flock_.predators_on()));
        return;
      }
      flock_.set_predators_on(arg == 1);
      ack(m, Status::kOk, id, ParamValue::of_bool(arg == 1));
      return;
    case CommandId::kRequestParams:
      ack(m, Status::kOk, id, ParamValue::of_int(std::int64_t(kParamCount)));
      send_param_set();
      return;
    case CommandId::kStreams:
      streams_ = arg & protocol::stream::kAll;
      ack(m, Status::kOk, id, ParamValue::of_int(streams_));
      return;
  }
  ack(m, Status::kUnknownId, id, ParamValue::of_int(0));
}

// ---------------------------------------------------------------- output
void Board::ring_push(const std::uint8_t* p, std::size_t n) {
  // At most two contiguous copies (callers check the room first).
  const std::size_t tail = (ring_head_ + ring_used_) % kTxRing;
  const std::size_t first = kTxRing - tail < n ? kTxRing - tail : n;
  std::memcpy(ring_ + tail, p, first);
  std::memcpy(ring_, p + first, n - first);
  ring_used_ += n;
}

void Board::send(Message& m) {
  if (!connected_) return;
  const std::size_t n = encoder_.encode(m, std::span<std::uint8_t>(wire_));
  if (n == 0) return;
  if (n > ring_free()) {
    ++counters_.tx_dropped;
    return;
  }
  ring_push(wire_, n);
}

void Board::log(protocol::LogLevel level, const char* text) {
  if (!session_ || !(streams_ & protocol::stream::kLog)) return;
  msg_ = protocol::make_log(level, text);
  send(msg_);
}

void Board::send_hello() {
  using namespace protocol::cap;
  msg_ = protocol::make_hello(cfg_.role, kSwMajor, kSwMinor, kSwPatch, flock_.capacity(),
                              kFlockState | kPredators | kScoutGroups | kMetrics | kStats | kLog | kParamChange |
                                  kParamSet | kCommands,
                              cfg_.name);
  send(msg_);
}

void Board::send_param_set() {
  msg_ = Message{};
  msg_.type = MsgType::kParamSet;
  msg_.version = protocol::kProtocolVersion;
  auto& s = msg_.param_set;
  s.total = std::uint16_t(kParamCount);
  s.first = 0;
  s.count = std::uint8_t(kParamCount);
  for (std::size_t i = 0; i < kParamCount; ++i) {
    const std::uint16_t id = param_at(i).id;
    s.params[i] = {id, params_.reported(id)};
  }
  send(msg_);
}

void Board::ack(const Message& req, Status st, std::uint16_t subject, ParamValue v) {
  msg_ = protocol::make_ack(req, st, subject, v);
  ++counters_.acks;
  send(msg_);
}

void Board::frame_end(std::uint64_t now, std::uint32_t compute_us) {
  compute_us_ = compute_us;
  pacer_.end_work(now);
  // The lab's spawning, decided on this frame's cost.
  if (!paused_) {
    const std::uint32_t n = spawn_.next_count(compute_us, pacer_.period_us(), flock_.size(), flock_.capacity());
    if (n != flock_.size()) {
      flock_.set_count(n);
    }
  }
  if (!session_) return;
  out_frame_ = flock_.frame();
  out_total_ = flock_.size();
  out_groups_ = params_.active(pid::scouts1) + params_.active(pid::scouts2) > 0;
  out_next_ = resume_at_ < out_total_ ? resume_at_ : 0;
  out_pending_ = (streams_ & protocol::stream::kFlockState) && !paused_;
  tail_pending_ = true;
  if (!out_pending_) send_tail();
}

void Board::close_frame_output() {
  if (out_pending_) {
    // Cut: the rest of that frame's chunks are not sent; the next frame resumes there.
    const std::uint32_t left = out_total_ - out_next_;
    counters_.tx_dropped += std::uint32_t((left + protocol::kMaxBoidsPerChunk - 1) / protocol::kMaxBoidsPerChunk);
    ++counters_.state_cut;
    resume_at_ = out_next_;
    out_pending_ = false;
  }
  if (tail_pending_) send_tail();
}

void Board::send_tail() {
  tail_pending_ = false;
  if (!session_) return;
  if (streams_ & protocol::stream::kPredators) {
    // (msg_ is reused field by field: assigning a whole Message{} would clear and copy all
    // of its union, several KiB, three times a frame.)
    msg_.type = MsgType::kPredators;
    msg_.version = protocol::kProtocolVersion;
    msg_.predators = protocol::Predators{};
    auto& p = msg_.predators;
    p.frame = out_frame_;
    p.count = std::uint8_t(flock_.predator_count());
    p.pos_shift = 4;
    p.vel_shift = 8;
    for (std::uint32_t i = 0; i < p.count; ++i) {
      const BoardPredator& q = flock_.predator(i);
      p.predators[i] = {quantise_fix(q.x, 4), quantise_fix(q.y, 4), quantise_fix(q.vx, 8), quantise_fix(q.vy, 8)};
    }
    send(msg_);
  }
  if (std::uint32_t sample = 0; metrics_wanted(sample)) {
    const FlockMetrics fm = metrics_source_ ? metrics_source_(flock_, sample) : flock_.metrics(sample);
    msg_.type = MsgType::kMetrics;
    msg_.version = protocol::kProtocolVersion;
    msg_.metrics = {out_frame_, fm.diameter, fm.centroid_x, fm.centroid_y, fm.polarisation, fm.mean_speed, fm.boids};
    send(msg_);
  }
  if (streams_ & protocol::stream::kStats) {
    msg_.type = MsgType::kStats;
    msg_.version = protocol::kProtocolVersion;
    msg_.stats = protocol::Stats{};
    auto& s = msg_.stats;
    s.frame = out_frame_;
    s.fps = pacer_.fps();
    s.compute_us = compute_us_;
    s.spare_us = pacer_.spare_us();
    s.boid_count = flock_.size();
    s.elapsed_ms = elapsed_ms();
    s.tx_dropped = counters_.tx_dropped;
    s.flags = std::uint8_t((paused_ ? protocol::kStatsFlagPaused : 0) |
                           (flock_.predators_on() ? protocol::kStatsFlagPredators : 0));
    send(msg_);
  }
}

bool Board::metrics_wanted(std::uint32_t& sample) const {
  if (!session_ || !(streams_ & protocol::stream::kMetrics)) return false;
  // With the state stream on, the app computes exact metrics from the state and the board
  // sends a cheap sample; without it (or paused) the board's message is the app's only
  // source, and the state's encoding is not using the frame's link time: all boids.
  const bool state_on = (streams_ & protocol::stream::kFlockState) && !paused_;
  sample = state_on ? kMetricsSample : 0;
  return true;
}

bool Board::encode_next_chunk() {
  const std::uint32_t count =
      out_total_ - out_next_ < protocol::kMaxBoidsPerChunk ? out_total_ - out_next_ : protocol::kMaxBoidsPerChunk;
  // The frame is written straight from the state (no Message in between) into raw_, which
  // is word-aligned for the CRC and COBS, then stuffed into the ring itself (into wire_ and
  // copied when the ring's free space wraps around its end).
  const std::size_t payload = protocol::flock_state_payload_size(count, out_groups_);
  const std::size_t n = protocol::kHeaderSize + payload + protocol::kCrcSize;
  if (protocol::wire_size_bound(payload) > ring_free()) return false;
  protocol::write_frame_header(raw_, MsgType::kFlockState, encoder_.take_seq());
  const fix *x = &flock_.xs()[out_next_], *y = &flock_.ys()[out_next_];
  const fix *vx = &flock_.vxs()[out_next_], *vy = &flock_.vys()[out_next_];
  protocol::write_flock_state_payload(
      raw_ + protocol::kHeaderSize, out_frame_, out_total_, out_next_, std::uint16_t(count), 4, 8, out_groups_,
      [&](std::size_t i) {
        return protocol::BoidQ{quantise_fix(x[i], 4), quantise_fix(y[i], 4), quantise_fix(vx[i], 8),
                               quantise_fix(vy[i], 8)};
      },
      [this](std::size_t i) { return flock_.group(out_next_ + std::uint32_t(i)); });
  const std::size_t tail = (ring_head_ + ring_used_) % kTxRing;
  if (kTxRing - tail >= protocol::wire_size_bound(payload)) {
    ring_used_ += protocol::frame_to_wire(raw_, n, ring_ + tail);
  } else {
    ring_push(wire_, protocol::frame_to_wire(raw_, n, wire_));
  }
  out_next_ += count;
  return true;
}

void Board::pump(Transport& io) {
  for (;;) {
    // Drain the ring into the transport.
    while (ring_used_ > 0) {
      const std::size_t contiguous = kTxRing - ring_head_ < ring_used_ ? kTxRing - ring_head_ : ring_used_;
      const std::size_t w = io.write(ring_ + ring_head_, contiguous);
      if (w == 0) break;
      ring_head_ = (ring_head_ + w) % kTxRing;
      ring_used_ -= w;
    }
    // Refill with state chunks while a whole chunk (plus room for acks) fits.
    bool added = false;
    while (out_pending_ && ring_free() >= protocol::kMaxWireSize + 512) {
      if (out_next_ >= out_total_ || !encode_next_chunk()) break;
      added = true;
      if (out_next_ >= out_total_) {
        out_pending_ = false;
        resume_at_ = 0;
        ++counters_.state_frames;
        send_tail();
      }
    }
    if (out_pending_ && out_total_ == 0) {  // an empty flock is one chunk of count 0
      encode_next_chunk();
      out_pending_ = false;
      send_tail();
      added = true;
    }
    if (!added) return;
  }
}

std::uint64_t Board::run_frame(Transport& io, std::uint64_t (*now_us)()) {
  const std::uint64_t deadline = frame_start(io, now_us());
  const std::uint64_t t0 = now_us();
  if (running()) flock_.step();
  const std::uint64_t t1 = now_us();
  frame_end(t1, std::uint32_t(t1 - t0));
  pump(io);
  return deadline;
}

}  // namespace flockscope::board
