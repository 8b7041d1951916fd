// flockscope_link.h over flockscope::protocol: the session of PROTOCOL.md section 11 for a
// board that exposes some of the table's parameters and streams its own arrays.
//
// Memory is static and fixed: a receive frame buffer, one message being received and one
// being sent, one encoded frame, and a transmit ring that the link drains whenever it can
// take bytes. State chunks are encoded only when the ring has room for a whole chunk, so a
// slow or absent host costs the frame nothing but the counting of what was dropped.
//
// Sections: parameter table | state | parameters | session and requests | output | API
#include "flockscope_link.h"

#include <cmath>
#include <cstring>
#include <new>

#include "flockscope/protocol/protocol.hpp"
#include "flockscope/protocol/refusal.hpp"
#include "flockscope/params/param_list.hpp"

namespace {

namespace proto = flockscope::protocol;
using proto::Message;
using proto::MsgType;
using proto::ParamType;
using proto::ParamValue;
using proto::Status;

// ---------------------------------------------------------------- parameter table
// flockscope's one table (params/: param_list.hpp), reduced to what the board needs.
struct TableRow {
  std::uint16_t id;
  const char* name;
  ParamType type;
  double min, max;
};
constexpr ParamType kind_Real = ParamType::kReal, kind_Int = ParamType::kInt, kind_Bool = ParamType::kBool,
                    kind_Choice = ParamType::kChoice;
#define FSL_ROW(id, name, kind, def, min, max, ...) \
  {id, #name, kind_##kind, double(min), double(max)},
constexpr TableRow kTable[] = {FLOCKSCOPE_PARAM_LIST(FSL_ROW)};
#undef FSL_ROW
constexpr std::size_t kTableSize = sizeof kTable / sizeof kTable[0];

const TableRow* row_by_name(const char* name) {
  for (const TableRow& r : kTable)
    if (std::strcmp(r.name, name) == 0) return &r;
  return nullptr;
}

// ---------------------------------------------------------------- state
struct Exposed {
  const TableRow* row;
  void* value;
  fsl_format format;
  fsl_check_fn check;
};

constexpr std::size_t kTxRing = 3072;  // a whole chunk (1031) plus acks, stats and logs
constexpr std::size_t kReadPerPoll = 1024;  // bytes taken from the host per fsl_poll

struct Link {
  fsl_config cfg{};
  fsl_transport io{};
  char name[proto::kMaxNameLen + 1] = {};
  Exposed params[kTableSize] = {};
  std::size_t n_params = 0;

  proto::StaticDecoder<proto::kMaxFrameSize> decoder;
  proto::Encoder encoder;
  Message rx{};
  Message tx{};
  std::uint8_t wire[proto::kMaxWireSize] = {};
  std::uint8_t ring[kTxRing] = {};
  std::size_t ring_head = 0, ring_used = 0;

  bool ready = false;
  bool connected = false;  // the transport says a host has the port
  bool session = false;    // ... and it said hello
  proto::ReasonRateLimit reasons;  // a flood of refusals logs 4 reasons a second
  std::uint32_t streams = 0;
  bool paused = false;

  // This frame's output.
  fsl_state state{};
  bool state_pending = false;
  std::uint32_t out_frame = 0, out_total = 0, out_next = 0, resume_at = 0;
  bool stats_pending = false;
  proto::Stats stats{};

  std::uint64_t busy_acc = 0;  // this frame's busy_us so far
  std::uint32_t frame = 0;
  std::uint64_t last_frame_us = 0, elapsed_us = 0;
  float fps = 0;
  fsl_counters counters{};
};
Link g;

// ---------------------------------------------------------------- parameters
double read_value(const Exposed& p) {
  switch (p.format) {
    case FSL_FIX15: return double(*static_cast<const std::int32_t*>(p.value)) / 32768.0;
    case FSL_FLOAT: return double(*static_cast<const float*>(p.value));
    case FSL_INT: break;
  }
  return double(*static_cast<const std::int32_t*>(p.value));
}

ParamValue to_wire(ParamType t, double v) {
  switch (t) {
    case ParamType::kInt: return ParamValue::of_int(std::int64_t(v));
    case ParamType::kBool: return ParamValue::of_bool(v != 0);
    case ParamType::kChoice: return ParamValue::of_choice(std::uint64_t(v < 0 ? 0 : v));
    case ParamType::kReal: break;
  }
  return ParamValue::of_real(v);
}

ParamValue current(const Exposed& p) { return to_wire(p.row->type, read_value(p)); }

Exposed* exposed(std::uint16_t id) {
  for (std::size_t i = 0; i < g.n_params; ++i)
    if (g.params[i].row->id == id) return &g.params[i];
  return nullptr;
}

// Whether the variable's format can hold v (fix15: |v| < 65536; int: an int32).
bool fits(fsl_format f, double v) {
  switch (f) {
    case FSL_FIX15: return v > -65536.0 && v < 65536.0;
    case FSL_FLOAT: return std::fabs(v) <= 3.4e38;
    case FSL_INT: break;
  }
  return v >= -2147483648.0 && v <= 2147483647.0;
}

void send_log(proto::LogLevel level, const char* text);

// What this board allows on the log, just before the refusal's ack (protocol/refusal.hpp).
void log_allowed_range(const Exposed& p) {
  if (!g.reasons.allow(g.io.now_us(g.io.ctx))) return;
  char line[proto::kReasonLineSize];
  proto::format_allowed_range(line, p.row->name, p.row->min, p.row->max);
  send_log(proto::LogLevel::kWarn, line);
}

// Everything a change must pass before anything is written. `out` gets the value. Without
// `call_check` the firmware's callback is skipped (a param_set's second pass: already asked).
Status check_change(const proto::Param& w, Exposed*& p, double& out, bool call_check = true) {
  p = exposed(w.id);
  if (!p) return Status::kUnknownId;
  if (w.value.type != p->row->type) return Status::kWrongType;
  double v = 0;
  switch (w.value.type) {
    case ParamType::kInt: v = double(w.value.as_int()); break;
    case ParamType::kReal: v = w.value.as_real(); break;
    case ParamType::kBool:
      if (w.value.bits > 1) return Status::kOutOfRange;
      v = w.value.bits ? 1.0 : 0.0;
      break;
    case ParamType::kChoice: v = double(w.value.as_choice()); break;
  }
  if (!(v >= p->row->min && v <= p->row->max)) {  // NaN too
    log_allowed_range(*p);
    return Status::kOutOfRange;
  }
  if (!fits(p->format, v)) return Status::kOutOfRange;
  if (p->check && call_check) {
    const fsl_status s = p->check(p->row->name, v);
    if (s != FSL_OK) return static_cast<Status>(s);
  }
  out = v;
  return Status::kOk;
}

void write_value(const Exposed& p, double v) {
  switch (p.format) {
    case FSL_FIX15: *static_cast<std::int32_t*>(p.value) = std::int32_t(std::lround(v * 32768.0)); return;
    case FSL_FLOAT: *static_cast<float*>(p.value) = float(v); return;
    case FSL_INT: *static_cast<std::int32_t*>(p.value) = std::int32_t(std::lround(v)); return;
  }
}

// ---------------------------------------------------------------- output
std::size_t ring_free() { return kTxRing - g.ring_used; }

void ring_push(const std::uint8_t* p, std::size_t n) {
  const std::size_t tail = (g.ring_head + g.ring_used) % kTxRing;
  const std::size_t first = kTxRing - tail < n ? kTxRing - tail : n;
  std::memcpy(g.ring + tail, p, first);
  std::memcpy(g.ring, p + first, n - first);
  g.ring_used += n;
}

// Encodes g.tx and queues it; counted as dropped when the ring is full.
bool send_tx() {
  if (!g.connected) return false;
  const std::size_t n = g.encoder.encode(g.tx, std::span<std::uint8_t>(g.wire));
  if (n == 0) return false;
  if (n > ring_free()) {
    ++g.counters.tx_dropped;
    return false;
  }
  ring_push(g.wire, n);
  return true;
}

void begin_tx(MsgType t) {
  g.tx.type = t;
  g.tx.version = proto::kProtocolVersion;
}

// true when it moved bytes.
bool drain() {
  bool moved = false;
  while (g.ring_used > 0) {
    const std::size_t contiguous = kTxRing - g.ring_head < g.ring_used ? kTxRing - g.ring_head : g.ring_used;
    const std::size_t w = g.io.write(g.io.ctx, g.ring + g.ring_head, contiguous);
    if (w == 0) return moved;
    moved = true;
    g.ring_head = (g.ring_head + w) % kTxRing;
    g.ring_used -= w;
  }
  return moved;
}

void send_hello() {
  using namespace proto::cap;
  begin_tx(MsgType::kHello);
  auto& h = g.tx.hello;
  h.protocol_version = proto::kProtocolVersion;
#ifdef FSL_HAVE_USB
  h.role = proto::Role::kBoard;
#else
  h.role = proto::Role::kVirtualBoard;
#endif
  h.sw_major = 0, h.sw_minor = 1, h.sw_patch = 0;
  h.max_boids = g.cfg.capacity;
  h.capabilities = kFlockState | kStats | kLog | kParamChange | kParamSet | kCommands;
  const std::size_t len = std::strlen(g.name);
  h.name_len = std::uint8_t(len);
  std::memcpy(h.name, g.name, len);
  send_tx();
}

// The board's parameters: exactly the exposed ones, so the app knows which are on the board.
void send_param_set() {
  begin_tx(MsgType::kParamSet);
  auto& s = g.tx.param_set;
  s.total = std::uint16_t(g.n_params);
  s.first = 0;
  s.count = std::uint8_t(g.n_params);
  // Ascending id, as PROTOCOL.md asks (insertion sort: at most 36 entries, once a session).
  for (std::size_t i = 0; i < g.n_params; ++i) {
    proto::Param e{g.params[i].row->id, current(g.params[i])};
    std::size_t k = i;
    for (; k > 0 && s.params[k - 1].id > e.id; --k) s.params[k] = s.params[k - 1];
    s.params[k] = e;
  }
  send_tx();
}

// A line for the app's log (dropped when nobody listens).
void send_log(proto::LogLevel level, const char* text) {
  if (!g.session || !(g.streams & proto::stream::kLog) || !text) return;
  begin_tx(MsgType::kLog);  // built in place: a Message is too big for a temporary on the stack
  g.tx.log.level = level;
  std::size_t n = std::strlen(text);
  if (n > proto::kMaxLogText) n = proto::kMaxLogText;
  g.tx.log.length = std::uint16_t(n);
  std::memcpy(g.tx.log.text, text, n);
  send_tx();
}

void ack(const Message& req, Status st, std::uint16_t subject, ParamValue v) {
  const std::uint16_t seq = req.seq;
  const MsgType type = req.type;
  ++(proto::is_accepted(st) ? g.counters.accepted : g.counters.rejected);
  begin_tx(MsgType::kAck);
  g.tx.ack = {seq, type, st, subject, v};
  send_tx();
}

void send_stats() {
  g.stats_pending = false;
  if (!g.session || !(g.streams & proto::stream::kStats)) return;
  begin_tx(MsgType::kStats);
  g.tx.stats = g.stats;
  g.tx.stats.tx_dropped = g.counters.tx_dropped;
  send_tx();
}

std::int16_t quantise_fix15(std::int32_t raw, std::uint8_t shift) {
  const int drop = 15 - shift;  // shift <= 15
  const std::uint32_t mag = raw < 0 ? 0u - std::uint32_t(raw) : std::uint32_t(raw);
  const std::uint32_t q = drop == 0 ? mag : (mag + (1u << (drop - 1))) >> drop;
  if (raw < 0) return q >= 32768u ? std::int16_t(-32768) : std::int16_t(-std::int32_t(q));
  return q > 32767u ? std::int16_t(32767) : std::int16_t(q);
}

std::int16_t quantise_at(const void* base, std::size_t stride, std::uint32_t k, fsl_format f, std::uint8_t shift) {
  const auto* p = static_cast<const std::uint8_t*>(base) + std::size_t(k) * stride;
  switch (f) {
    case FSL_FIX15: {
      std::int32_t raw;
      std::memcpy(&raw, p, 4);
      return quantise_fix15(raw, shift);
    }
    case FSL_FLOAT: {
      float v;
      std::memcpy(&v, p, 4);
      return proto::quantise(v, shift);
    }
    case FSL_INT: break;
  }
  std::int32_t v;
  std::memcpy(&v, p, 4);
  const std::int64_t s = std::int64_t(v) * (std::int64_t(1) << shift);
  return std::int16_t(s < -32768 ? -32768 : s > 32767 ? 32767 : s);
}

constexpr std::uint8_t kPosShift = 4, kVelShift = 8;  // PROTOCOL.md's defaults: 1/16 px, 1/256 px/frame

// Encodes the next chunk of the pending frame into the ring; false when it does not fit.
bool next_chunk() {
  const std::uint32_t left = g.out_total - g.out_next;
  const std::uint32_t count = left < proto::kMaxBoidsPerChunk ? left : std::uint32_t(proto::kMaxBoidsPerChunk);
  begin_tx(MsgType::kFlockState);
  auto& s = g.tx.flock_state;
  s.frame = g.out_frame;
  s.total = g.out_total;
  s.offset = g.out_next;
  s.count = std::uint16_t(count);
  s.pos_shift = kPosShift;
  s.vel_shift = kVelShift;
  s.flags = 0;
  const fsl_state& st = g.state;
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t k = g.out_next + i;
    s.boids[i] = {quantise_at(st.x, st.stride, k, st.format, kPosShift),
                  quantise_at(st.y, st.stride, k, st.format, kPosShift),
                  quantise_at(st.vx, st.stride, k, st.format, kVelShift),
                  quantise_at(st.vy, st.stride, k, st.format, kVelShift)};
  }
  const std::size_t n = g.encoder.encode(g.tx, std::span<std::uint8_t>(g.wire));
  if (n == 0 || n > ring_free()) return false;
  ring_push(g.wire, n);
  g.out_next += count;
  return true;
}

// Drains the ring into the link and refills it with state chunks while a whole chunk fits.
// true when it did something.
bool pump() {
  bool worked = false;
  for (;;) {
    worked = drain() || worked;
    bool added = false;
    while (g.state_pending && ring_free() >= proto::kMaxWireSize + 256) {
      if (!next_chunk()) break;
      added = true;
      if (g.out_next >= g.out_total) {
        g.state_pending = false;
        g.resume_at = 0;
        ++g.counters.state_frames;
        send_stats();
      }
    }
    if (!added) return worked;
    worked = true;
  }
}

// The previous frame's state that did not get out: dropped, counted; the next frame's
// chunks start where it stopped, so every boid is refreshed in turn on a slow link.
void cut_frame() {
  if (g.state_pending) {
    const std::uint32_t left = g.out_total - g.out_next;
    g.counters.tx_dropped += std::uint32_t((left + proto::kMaxBoidsPerChunk - 1) / proto::kMaxBoidsPerChunk);
    g.resume_at = g.out_next;
    g.state_pending = false;
  }
  if (g.stats_pending) send_stats();
}

// ---------------------------------------------------------------- session and requests
void handle_command(const Message& m) {
  using proto::CommandId;
  const std::uint32_t arg = m.command.arg;
  const auto id = static_cast<std::uint16_t>(m.command.id);
  switch (m.command.id) {
    case CommandId::kReset:
      if (!g.cfg.on_reset) break;
      g.cfg.on_reset(arg);
      g.frame = 0;
      g.elapsed_us = 0;
      ack(m, Status::kOk, id, ParamValue::of_int(arg));
      return;
    case CommandId::kPause:
    case CommandId::kResume: {
      const bool p = m.command.id == CommandId::kPause;
      g.paused = p;
      if (g.cfg.on_pause) g.cfg.on_pause(p);
      ack(m, Status::kOk, id, ParamValue::of_bool(p));
      return;
    }
    case CommandId::kSetBoidCount:
      if (!g.cfg.on_boid_count) break;
      if (arg > g.cfg.capacity) {
        ack(m, Status::kOutOfRange, id, ParamValue::of_int(g.stats.boid_count));
        return;
      }
      ack(m, Status::kOk, id, ParamValue::of_int(g.cfg.on_boid_count(arg)));
      return;
    case CommandId::kRequestParams:
      ack(m, Status::kOk, id, ParamValue::of_int(std::int64_t(g.n_params)));
      send_param_set();
      return;
    case CommandId::kStreams:
      g.streams = arg & proto::stream::kAll;
      ack(m, Status::kOk, id, ParamValue::of_int(g.streams));
      return;
    case CommandId::kPredators: break;  // no predators on this board
  }
  ack(m, Status::kUnknownId, id, ParamValue::of_int(0));
}

void handle(const Message& m) {
  if (m.version != proto::kProtocolVersion) {
    if (m.type == MsgType::kHello) send_hello();  // a foreign hello learns our version, nothing else
    return;
  }
  if (!proto::is_known(m.type)) {
    ++g.counters.requests;
    ack(m, Status::kUnknownType, 0, ParamValue::of_int(0));
    return;
  }
  switch (m.type) {
    case MsgType::kHello:
      if (m.hello.role != proto::Role::kApp) return;
      send_hello();
      send_param_set();
      g.session = true;
      g.streams = proto::stream::kAll;
      return;
    case MsgType::kParamChange: {
      ++g.counters.requests;
      const proto::Param& w = m.param_change.param;
      Exposed* p = nullptr;
      double v = 0;
      const Status st = check_change(w, p, v);
      if (st != Status::kOk) {
        ack(m, st, w.id, p ? current(*p) : ParamValue::of_int(0));
        return;
      }
      write_value(*p, v);
      ack(m, Status::kOk, w.id, current(*p));
      return;
    }
    case MsgType::kParamSet: {  // all or nothing: everything checked before anything is written
      ++g.counters.requests;
      const auto& s = m.param_set;
      // Two passes over the same checks rather than 64 values kept aside: the RP2040's stack
      // is 2 KiB, shared with the firmware.
      for (std::size_t i = 0; i < s.count; ++i) {
        Exposed* p = nullptr;
        double v = 0;
        const Status st = check_change(s.params[i], p, v);
        if (st != Status::kOk) {
          ack(m, st, s.params[i].id, p ? current(*p) : ParamValue::of_int(0));
          return;
        }
      }
      for (std::size_t i = 0; i < s.count; ++i) {
        Exposed* p = nullptr;
        double v = 0;
        if (check_change(s.params[i], p, v, false) == Status::kOk) write_value(*p, v);
      }
      ack(m, Status::kOk, 0, ParamValue::of_int(s.count));
      return;
    }
    case MsgType::kCommand:
      ++g.counters.requests;
      handle_command(m);
      return;
    // Board -> app messages coming back: ignored. No default: a new message is a -Wswitch
    // error here until the library decides on it (our firmware's board.cpp lists the same
    // cases: each board side decides for itself).
    case MsgType::kAck:
    case MsgType::kFlockState:
    case MsgType::kPredators:
    case MsgType::kMetrics:
    case MsgType::kStats:
    case MsgType::kLog:
      return;
  }
}

void check_connection() {
  const bool conn = g.io.connected(g.io.ctx);
  if (conn && !g.connected) {
    // A host opened the port: a 0x00 closes whatever it holds, then hello (PROTOCOL.md 11).
    g.ring_head = g.ring_used = 0;
    g.decoder.reset();
    g.connected = true;
    const std::uint8_t zero = 0;
    ring_push(&zero, 1);
    send_hello();
  } else if (!conn && g.connected) {
    g.connected = g.session = false;  // port closed (DTR dropped): silent until the next hello
    g.streams = 0;
    g.ring_head = g.ring_used = 0;
    g.state_pending = g.stats_pending = false;
  }
}

}  // namespace

// ---------------------------------------------------------------- API
extern "C" {

bool fsl_init(const fsl_config* config) {
  if (!config || !config->name) return false;
  const fsl_transport* t = config->transport;
#ifdef FSL_HAVE_USB
  if (!t) t = fsl_usb_transport();
#endif
  if (!t || !t->read || !t->write || !t->connected || !t->now_us) return false;
  g.~Link();
  new (&g) Link();
  g.cfg = *config;
  g.io = *t;
  std::strncpy(g.name, config->name, proto::kMaxNameLen);
  g.ready = true;
  return true;
}

bool fsl_param(const char* name, void* value, fsl_format format, fsl_check_fn check) {
  if (!g.ready || !name || !value || format > FSL_INT) return false;
  const TableRow* r = row_by_name(name);
  if (!r || exposed(r->id) || g.n_params >= kTableSize) return false;
  g.params[g.n_params++] = {r, value, format, check};
  return true;
}

void fsl_send_state(const fsl_state* state, std::uint32_t compute_us, std::uint32_t period_us) {
  if (!g.ready) return;
  const std::uint64_t now = g.io.now_us(g.io.ctx);
  g.counters.busy_us = std::uint32_t(g.busy_acc);
  if (g.last_frame_us != 0) {
    const std::uint64_t dt = now - g.last_frame_us;
    if (!g.paused) g.elapsed_us += dt;
    if (dt > 0) g.fps = g.fps == 0 ? 1e6f / float(dt) : 0.9f * g.fps + 0.1f * (1e6f / float(dt));
  }
  g.last_frame_us = now;
  ++g.counters.frames;
  cut_frame();
  if (!g.paused) ++g.frame;
  const std::uint32_t n = state ? state->count : 0;
  g.stats = {};
  g.stats.frame = g.frame;
  g.stats.fps = g.fps;
  g.stats.compute_us = compute_us;
  g.stats.spare_us = std::int32_t(period_us) - std::int32_t(compute_us);
  g.stats.boid_count = n;
  g.stats.elapsed_ms = std::uint32_t(g.elapsed_us / 1000);
  g.stats.flags = g.paused ? proto::kStatsFlagPaused : 0;
  if (!g.session) {
    g.busy_acc = g.io.now_us(g.io.ctx) - now;
    return;
  }
  g.stats_pending = true;
  if (state && (g.streams & proto::stream::kFlockState) && state->format <= FSL_INT) {
    g.state = *state;
    g.out_frame = g.frame;
    g.out_total = n;
    g.out_next = g.resume_at < n ? g.resume_at : 0;
    g.state_pending = n > 0;
    if (n == 0) {  // an empty flock is one chunk of count 0
      next_chunk();
    }
  }
  if (!g.state_pending) send_stats();
  pump();
  g.busy_acc = g.io.now_us(g.io.ctx) - now;
}

void fsl_poll(void) {
  if (!g.ready) return;
  if (g.io.service) g.io.service(g.io.ctx);
  const std::uint64_t t0 = g.io.now_us(g.io.ctx);
  check_connection();
  bool worked = false;
  // Bounded: a flood from the host costs at most kReadPerPoll bytes of decoding per call.
  std::uint8_t buf[256];
  for (std::size_t total = 0; total < kReadPerPoll;) {
    const std::size_t n = g.io.read(g.io.ctx, buf, sizeof buf);
    if (n == 0) break;
    total += n;
    worked = true;
    if (!g.connected) continue;
    std::span<const std::uint8_t> in(buf, n);
    while (g.decoder.next(in, g.rx)) handle(g.rx);
  }
  if (g.connected) worked = pump() || worked;
  if (worked) g.busy_acc += g.io.now_us(g.io.ctx) - t0;
}

void fsl_wait_until(std::uint64_t deadline_us) {
  if (!g.ready) return;
  do fsl_poll();
  while (g.io.now_us(g.io.ctx) < deadline_us);
}

bool fsl_paused(void) { return g.paused; }
bool fsl_host_connected(void) { return g.session; }

void fsl_log(const char* text) { send_log(proto::LogLevel::kInfo, text); }

fsl_counters fsl_get_counters(void) {
  fsl_counters c = g.counters;
  const proto::DecoderStats& d = g.decoder.stats();
  c.rx_errors = d.bad_crc + d.bad_framing + d.oversize + d.malformed;
  return c;
}

}  // extern "C"
