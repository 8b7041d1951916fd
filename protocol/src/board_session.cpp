// Sections: input (connection, requests) | commands | output (ring, frame output)
#include "flockscope/protocol/board_session.hpp"

#include <cstring>

namespace flockscope::protocol {

namespace {
// A C string's length, at most `max` (memchr: the freestanding functions are all we use).
std::size_t bounded_length(const char* s, std::size_t max) {
  if (!s) return 0;
  const void* end = std::memchr(s, 0, max);
  return end ? std::size_t(static_cast<const char*>(end) - s) : max;
}
}  // namespace

BoardSession::BoardSession(BoardSide& side, std::span<std::uint8_t> ring, std::size_t reserve)
    : side_(side), ring_(ring), reserve_(reserve) {}

// ---------------------------------------------------------------- input (connection, requests)
std::size_t BoardSession::read_requests(Transport& io, std::uint64_t now_us, std::size_t budget) {
  now_us_ = now_us;
  check_connection(io);
  std::uint8_t buf[256];
  std::size_t total = 0;
  while (total < budget) {
    const std::size_t n = io.read(buf, sizeof buf);
    if (n == 0) break;
    total += n;
    if (!connected_) continue;  // bytes from before the port was opened start no session
    std::span<const std::uint8_t> in(buf, n);
    while (decoder_.next(in, rx_)) handle(rx_);
  }
  return total;
}

void BoardSession::check_connection(Transport& io) {
  const bool conn = io.connected();
  if (conn && !connected_) {
    // A host opened the port: a 0x00 closes whatever it holds, then hello (PROTOCOL.md 11).
    ring_head_ = ring_used_ = 0;
    decoder_.reset();
    connected_ = true;
    const std::uint8_t zero = 0;
    ring_push(&zero, 1);
    send_hello();
  } else if (!conn && connected_) {
    // Port closed (DTR dropped): silent until the next app hello.
    connected_ = in_session_ = false;
    streams_ = 0;
    ring_head_ = ring_used_ = 0;
    out_pending_ = tail_pending_ = false;
  }
}

void BoardSession::handle(const Message& m) {
  if (m.version != kProtocolVersion) {
    if (m.type == MsgType::kHello) send_hello();  // a foreign hello learns our version, nothing else
    return;
  }
  if (!is_known(m.type)) {
    ++counters_.requests;
    ack(m, Status::kUnknownType, 0, ParamValue::of_int(0));
    return;
  }
  switch (m.type) {
    case MsgType::kHello:
      if (m.hello.role != Role::kApp) return;
      send_hello();
      send_param_set();
      in_session_ = true;
      streams_ = stream::kAll;
      return;
    case MsgType::kParamChange:
      ++counters_.requests;
      change_param(m);
      return;
    case MsgType::kParamSet:
      ++counters_.requests;
      set_params(m);
      return;
    case MsgType::kCommand:
      ++counters_.requests;
      run_command(m);
      return;
    // Board -> app messages coming back: ignored. No default: a new message is a -Wswitch
    // error here until the board side decides on it.
    case MsgType::kAck:
    case MsgType::kFlockState:
    case MsgType::kPredators:
    case MsgType::kSurroundings:
    case MsgType::kMetrics:
    case MsgType::kStats:
    case MsgType::kLog:
      return;
  }
}

ParamValue BoardSession::value_of(std::uint16_t id) const {
  ParamValue v = ParamValue::of_int(0);  // a parameter the board does not have
  side_.param_value(id, v);
  return v;
}

void BoardSession::change_param(const Message& m) {
  const Param& p = m.param_change.param;
  double v = 0;
  Status st = side_.check_param(p, v);
  if (is_accepted(st)) st = side_.store_param(p.id, v);
  ack(m, st, p.id, value_of(p.id));  // the new value, or the unchanged one
}

// All or nothing: every entry is checked before anything is stored.
void BoardSession::set_params(const Message& m) {
  const ParamSet& s = m.param_set;
  for (std::size_t i = 0; i < s.count; ++i) {
    const Status st = side_.check_param(s.params[i], staged_[i]);
    if (!is_accepted(st)) {
      ack(m, st, s.params[i].id, value_of(s.params[i].id));
      return;
    }
  }
  for (std::size_t i = 0; i < s.count; ++i) side_.store_param(s.params[i].id, staged_[i]);
  ack(m, Status::kOk, 0, ParamValue::of_int(s.count));
}

// ---------------------------------------------------------------- commands
void BoardSession::run_command(const Message& m) {
  const std::uint32_t arg = m.command.arg;
  const auto subject = static_cast<std::uint16_t>(m.command.id);
  switch (m.command.id) {
    case CommandId::kPause:
    case CommandId::kResume:  // always accepted
      paused_ = m.command.id == CommandId::kPause;
      side_.pause_changed(paused_);
      ack(m, Status::kOk, subject, ParamValue::of_bool(paused_));
      return;
    case CommandId::kRequestParams:
      ack(m, Status::kOk, subject, ParamValue::of_int(std::int64_t(side_.param_count())));
      send_param_set();
      return;
    case CommandId::kStreams:
      streams_ = arg & stream::kAll;
      ack(m, Status::kOk, subject, ParamValue::of_int(streams_));
      return;
    case CommandId::kReset:
    case CommandId::kSetBoidCount:
    case CommandId::kPredators: {
      ParamValue v = ParamValue::of_int(0);
      const Status st = side_.command(m.command.id, arg, v);
      ack(m, st, subject, v);
      return;
    }
  }
  ack(m, Status::kUnknownId, subject, ParamValue::of_int(0));  // an id this version does not know
}

// ---------------------------------------------------------------- output
Message& BoardSession::begin_message(MsgType type) {
  tx_.type = type;
  tx_.version = kProtocolVersion;
  return tx_;
}

void BoardSession::send_hello() {
  Hello& h = begin_message(MsgType::kHello).hello;
  h.protocol_version = kProtocolVersion;
  h.role = identity_.role;
  h.sw_major = identity_.sw_major;
  h.sw_minor = identity_.sw_minor;
  h.sw_patch = identity_.sw_patch;
  h.max_boids = identity_.max_boids;
  h.capabilities = identity_.capabilities;
  const std::size_t len = bounded_length(identity_.name, kMaxNameLen);
  h.name_len = std::uint8_t(len);
  if (len) std::memcpy(h.name, identity_.name, len);
  send(tx_);
}

// The board's whole parameter set, in chunks of at most kMaxParamsPerFrame.
void BoardSession::send_param_set() {
  const std::size_t total = side_.param_count();
  std::size_t first = 0;
  do {
    ParamSet& s = begin_message(MsgType::kParamSet).param_set;
    const std::size_t count = total - first < kMaxParamsPerFrame ? total - first : kMaxParamsPerFrame;
    s.total = std::uint16_t(total);
    s.first = std::uint16_t(first);
    s.count = std::uint8_t(count);
    for (std::size_t i = 0; i < count; ++i) s.params[i] = side_.param_entry(first + i);
    send(tx_);
    first += count;
  } while (first < total);
}

void BoardSession::ack(const Message& req, Status st, std::uint16_t subject, ParamValue v) {
  const std::uint16_t seq = req.seq;
  const MsgType type = req.type;
  ++(is_accepted(st) ? counters_.accepted : counters_.rejected);
  begin_message(MsgType::kAck).ack = {seq, type, st, subject, v};
  send(tx_);
}

void BoardSession::log(LogLevel level, const char* text) {
  if (!in_session_ || !(streams_ & stream::kLog) || !text) return;
  Log& l = begin_message(MsgType::kLog).log;
  l.level = level;
  const std::size_t n = bounded_length(text, kMaxLogText);
  l.length = std::uint16_t(n);
  std::memcpy(l.text, text, n);
  send(tx_);
}

bool BoardSession::send(Message& m) {
  if (!connected_) return false;
  const std::size_t n = encoder_.encode(m, std::span<std::uint8_t>(wire_));
  if (n == 0) return false;
  if (n > ring_free()) {
    ++counters_.tx_dropped;
    return false;
  }
  ring_push(wire_, n);
  return true;
}

bool BoardSession::queue(Message& m) {
  const std::size_t n = encoder_.encode(m, std::span<std::uint8_t>(wire_));
  if (n == 0 || n > ring_free()) return false;
  ring_push(wire_, n);
  return true;
}

bool BoardSession::push_frame(std::uint8_t* raw, std::size_t n) {
  const std::size_t bound = wire_size_bound(n - kHeaderSize - kCrcSize);
  if (bound > ring_free()) return false;
  const std::size_t tail = ring_tail();
  if (ring_.size() - tail >= bound) {
    ring_used_ += frame_to_wire(raw, n, ring_.data() + tail);
  } else {  // the free space wraps: stuffed aside, then copied in two pieces
    ring_push(wire_, frame_to_wire(raw, n, wire_));
  }
  return true;
}

std::size_t BoardSession::ring_tail() const {
  const std::size_t t = ring_head_ + ring_used_;
  return t >= ring_.size() ? t - ring_.size() : t;
}

// At most two contiguous copies (callers check the room first).
void BoardSession::ring_push(const std::uint8_t* p, std::size_t n) {
  const std::size_t tail = ring_tail();
  const std::size_t first = ring_.size() - tail < n ? ring_.size() - tail : n;
  std::memcpy(ring_.data() + tail, p, first);
  std::memcpy(ring_.data(), p + first, n - first);
  ring_used_ += n;
}

// true when it moved bytes.
bool BoardSession::drain(Transport& io) {
  bool moved = false;
  while (ring_used_ > 0) {
    const std::size_t contiguous = ring_.size() - ring_head_ < ring_used_ ? ring_.size() - ring_head_ : ring_used_;
    const std::size_t w = io.write(ring_.data() + ring_head_, contiguous);
    if (w == 0) break;
    moved = true;
    ring_head_ += w;
    if (ring_head_ == ring_.size()) ring_head_ = 0;
    ring_used_ -= w;
  }
  return moved;
}

void BoardSession::close_frame_output() {
  if (out_pending_) {
    const std::uint32_t left = out_total_ - out_next_;
    counters_.tx_dropped += std::uint32_t((left + kMaxBoidsPerChunk - 1) / kMaxBoidsPerChunk);
    ++counters_.state_cut;
    resume_at_ = resume_after_cut_ ? out_next_ : 0;
    out_pending_ = false;
  }
  if (tail_pending_) finish_frame_output();
}

void BoardSession::begin_frame_output(std::uint32_t frame, std::uint32_t total, bool with_state) {
  out_frame_ = frame;
  out_total_ = total;
  out_next_ = resume_at_ < total ? resume_at_ : 0;
  out_from_start_ = out_next_ == 0;
  out_pending_ = with_state && total > 0;
  tail_pending_ = true;
  if (with_state && total == 0) side_.write_state_chunk(frame, 0, 0, 0);
  if (!out_pending_) finish_frame_output();
}

void BoardSession::finish_frame_output() {
  tail_pending_ = false;
  if (in_session_) side_.write_frame_tail();
}

bool BoardSession::pump(Transport& io) {
  bool worked = false;
  for (;;) {
    worked = drain(io) || worked;
    bool added = false;
    while (out_pending_ && ring_free() >= kMaxWireSize + reserve_) {
      const std::uint32_t left = out_total_ - out_next_;
      const auto count = std::uint16_t(left < kMaxBoidsPerChunk ? left : kMaxBoidsPerChunk);
      if (!side_.write_state_chunk(out_frame_, out_total_, out_next_, count)) break;
      out_next_ += count;
      added = true;
      if (out_next_ >= out_total_) {
        out_pending_ = false;
        resume_at_ = 0;
        if (out_from_start_) ++counters_.state_frames;  // a resumed frame's tail is not a whole frame
        finish_frame_output();
      }
    }
    if (!added) return worked;
    worked = true;
  }
}

}  // namespace flockscope::protocol
