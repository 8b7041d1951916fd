// flockscope_link.h over flockscope::protocol: the board's session (protocol::BoardSession,
// the same as our firmware's) for a board that exposes some of the table's parameters and
// streams its own arrays.
//
// Memory is static and fixed: the session's (a receive frame buffer, one message being
// received and one being sent, one encoded frame), a transmit ring that the link drains
// whenever it can take bytes, and the frame's snapshot: fsl_send_state quantises the
// caller's arrays into it at once, so the state can go out while the caller's next step
// changes them (no frame mixes two steps). State chunks are encoded only when the ring has
// room for a whole chunk, so a slow or absent host costs the frame nothing but the
// counting of what was dropped.
//
// Two contexts share the link: the caller's loop (every fsl_* call) and the background
// service (fsl_background_service: on the RP2040 a timer interrupt, every millisecond),
// which moves output while the caller steps. They never run at once: the caller's calls
// own the link while they run, and the background service, an interrupt that the caller
// cannot interrupt, does nothing when it finds the link owned. Requests from the host are
// handled only in the caller's calls, so parameters, resets and boid counts change between
// steps, never during one.
//
// Sections: parameter table | state | parameters | commands | output | API
#include "flockscope_link.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <new>

#include "flockscope/params/param_list.hpp"
#include "flockscope/protocol/board_session.hpp"
#include "flockscope/protocol/protocol.hpp"

namespace {

namespace proto = flockscope::protocol;
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

// The boids whose state fsl_send_state copies (8 bytes each); boids past it are read from
// the caller's arrays when their chunk is written. A pico-sdk project can change it:
// target_compile_definitions(flockscope_link PRIVATE FSL_SNAPSHOT_BOIDS=4096).
#ifndef FSL_SNAPSHOT_BOIDS
#define FSL_SNAPSHOT_BOIDS 2048
#endif
constexpr std::uint32_t kSnapshotBoids = FSL_SNAPSHOT_BOIDS;
constexpr std::size_t kReadPerPoll = 1024;  // bytes taken from the host per fsl_poll

// The caller's fsl_transport as the session's byte stream.
struct CTransport final : proto::Transport {
  fsl_transport c{};
  std::size_t read(std::uint8_t* buf, std::size_t cap) override { return c.read(c.ctx, buf, cap); }
  std::size_t write(const std::uint8_t* buf, std::size_t n) override { return c.write(c.ctx, buf, n); }
  bool connected() override { return c.connected(c.ctx); }
  std::uint64_t now_us() { return c.now_us(c.ctx); }
};

// The link: the session (protocol/board_session.hpp, the same as our firmware's) and what
// it asks of this board: the exposed variables, the callbacks, the caller's arrays.
struct Link final : proto::BoardSide {
  fsl_config cfg{};
  CTransport io;
  char name[proto::kMaxNameLen + 1] = {};
  Exposed params[kTableSize] = {};  // ascending id
  std::size_t n_params = 0;

  std::uint8_t ring[kTxRing] = {};
  proto::BoardSession session{*this, ring, 256};  // 256: room for acks and stats
  bool ready = false;

  // This frame's output: the state as the caller's arrays held it at fsl_send_state (the
  // first kSnapshotBoids boids copied, the rest read from the arrays).
  fsl_state state{};
  proto::BoidQ snapshot[kSnapshotBoids] = {};
  proto::Stats stats{};
  const char* checking = nullptr;  // the parameter whose check callback runs (fsl_reason)

  std::uint64_t busy_acc = 0;  // this frame's busy_us so far
  std::uint32_t busy_us = 0;   // the last whole frame's
  std::uint32_t frame = 0;
  std::uint64_t last_frame_us = 0, elapsed_us = 0;
  float fps = 0;
  std::uint32_t frames = 0;

  // proto::BoardSide
  std::size_t param_count() const override { return n_params; }
  proto::Param param_entry(std::size_t index) const override;
  bool param_value(std::uint16_t id, ParamValue& value) const override;
  Status check_param(const proto::Param& w, double& out) override;
  Status store_param(std::uint16_t id, double value) override;
  Status command(proto::CommandId id, std::uint32_t arg, ParamValue& value) override;
  void pause_changed(bool paused) override {
    if (cfg.on_pause) cfg.on_pause(paused);
  }
  bool write_state_chunk(std::uint32_t frame_no, std::uint32_t total, std::uint32_t offset,
                         std::uint16_t count) override;
  void write_frame_tail() override;
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

void write_value(const Exposed& p, double v) {
  switch (p.format) {
    case FSL_FIX15: *static_cast<std::int32_t*>(p.value) = std::int32_t(std::lround(v * 32768.0)); return;
    case FSL_FLOAT: *static_cast<float*>(p.value) = float(v); return;
    case FSL_INT: *static_cast<std::int32_t*>(p.value) = std::int32_t(std::lround(v)); return;
  }
}

proto::Param Link::param_entry(std::size_t index) const { return {params[index].row->id, current(params[index])}; }

bool Link::param_value(std::uint16_t id, ParamValue& value) const {
  const Exposed* p = exposed(id);
  if (p) value = current(*p);
  return p != nullptr;
}

// Everything a change must pass before anything is written: the table's type and range,
// the variable's format, the firmware's own check. `out` gets the value.
Status Link::check_param(const proto::Param& w, double& out) {
  const Exposed* p = exposed(w.id);
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
    session.say_allowed_range(p->row->name, p->row->min, p->row->max);
    return Status::kOutOfRange;
  }
  if (!fits(p->format, v)) return Status::kOutOfRange;
  if (p->check) {
    checking = p->row->name;  // the callback may say why it refuses: fsl_reason
    const fsl_status s = p->check(p->row->name, v);
    checking = nullptr;
    if (s != FSL_OK) return static_cast<Status>(s);
  }
  out = v;
  return Status::kOk;
}

Status Link::store_param(std::uint16_t id, double value) {
  write_value(*exposed(id), value);
  return Status::kOk;
}

// ---------------------------------------------------------------- commands
Status Link::command(proto::CommandId id, std::uint32_t arg, ParamValue& value) {
  using proto::CommandId;
  switch (id) {
    case CommandId::kReset:
      if (!cfg.on_reset) break;
      cfg.on_reset(arg);
      frame = 0;
      elapsed_us = 0;
      value = ParamValue::of_int(arg);
      return Status::kOk;
    case CommandId::kSetBoidCount:
      if (!cfg.on_boid_count) break;
      if (arg > cfg.capacity) {
        value = ParamValue::of_int(stats.boid_count);
        return Status::kOutOfRange;
      }
      value = ParamValue::of_int(cfg.on_boid_count(arg));
      return Status::kOk;
    default: break;  // no predators on this board
  }
  return Status::kUnknownId;
}

// ---------------------------------------------------------------- output
std::int16_t quantise_fix15(std::int32_t raw, std::uint8_t shift) {
  const int drop = 15 - shift;  // shift <= 15
  const std::uint32_t mag = raw < 0 ? 0u - std::uint32_t(raw) : std::uint32_t(raw);
  const std::uint32_t q = drop == 0 ? mag : (mag + (1u << (drop - 1))) >> drop;
  if (raw < 0) return q >= 32768u ? std::int16_t(-32768) : std::int16_t(-std::int32_t(q));
  return q > 32767u ? std::int16_t(32767) : std::int16_t(q);
}

constexpr std::uint8_t kPosShift = 4, kVelShift = 8;  // PROTOCOL.md's defaults: 1/16 px, 1/256 px/frame

// Four bytes of the caller's arrays. Aligned: one load (the Cortex-M0+ faults on an
// unaligned word, and a memcpy call per value would cost more than the conversion).
template <bool Aligned>
std::uint32_t load4(const std::uint8_t* p) {
  std::uint32_t v;
  if constexpr (Aligned)
    std::memcpy(&v, __builtin_assume_aligned(p, 4), 4);
  else
    std::memcpy(&v, p, 4);
  return v;
}

// One value, stored as `F`, as the wire carries it with `Shift` fraction bits.
template <fsl_format F, std::uint8_t Shift>
std::int16_t quantise_bits(std::uint32_t bits) {
  if constexpr (F == FSL_FIX15) {
    return quantise_fix15(std::int32_t(bits), Shift);
  } else if constexpr (F == FSL_FLOAT) {
    float v;
    std::memcpy(&v, &bits, 4);
    return proto::quantise(v, Shift);
  } else {
    const std::int64_t s = std::int64_t(std::int32_t(bits)) * (std::int64_t(1) << Shift);
    return std::int16_t(s < -32768 ? -32768 : s > 32767 ? 32767 : s);
  }
}

template <fsl_format F, bool Aligned>
void quantise_range(const fsl_state& st, std::uint32_t first, std::uint32_t n, proto::BoidQ* out) {
  const std::size_t at = std::size_t(first) * st.stride;
  const auto* x = static_cast<const std::uint8_t*>(st.x) + at;
  const auto* y = static_cast<const std::uint8_t*>(st.y) + at;
  const auto* vx = static_cast<const std::uint8_t*>(st.vx) + at;
  const auto* vy = static_cast<const std::uint8_t*>(st.vy) + at;
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::size_t o = std::size_t(i) * st.stride;
    out[i] = {quantise_bits<F, kPosShift>(load4<Aligned>(x + o)), quantise_bits<F, kPosShift>(load4<Aligned>(y + o)),
              quantise_bits<F, kVelShift>(load4<Aligned>(vx + o)), quantise_bits<F, kVelShift>(load4<Aligned>(vy + o))};
  }
}

// Boids [first, first + n) of the caller's arrays as the wire carries them, the format's
// conversion chosen once for all of them.
void quantise_boids(const fsl_state& st, std::uint32_t first, std::uint32_t n, proto::BoidQ* out) {
  const bool aligned = ((reinterpret_cast<std::uintptr_t>(st.x) | reinterpret_cast<std::uintptr_t>(st.y) |
                         reinterpret_cast<std::uintptr_t>(st.vx) | reinterpret_cast<std::uintptr_t>(st.vy) | st.stride) &
                        3u) == 0;
  switch (st.format) {
    case FSL_FIX15:
      return aligned ? quantise_range<FSL_FIX15, true>(st, first, n, out) : quantise_range<FSL_FIX15, false>(st, first, n, out);
    case FSL_FLOAT:
      return aligned ? quantise_range<FSL_FLOAT, true>(st, first, n, out) : quantise_range<FSL_FLOAT, false>(st, first, n, out);
    case FSL_INT:
      return aligned ? quantise_range<FSL_INT, true>(st, first, n, out) : quantise_range<FSL_INT, false>(st, first, n, out);
  }
}

// A chunk of the frame's state: the snapshot, then the caller's arrays past it.
bool Link::write_state_chunk(std::uint32_t frame_no, std::uint32_t total, std::uint32_t offset, std::uint16_t count) {
  proto::Message& m = session.begin_message(MsgType::kFlockState);
  auto& s = m.flock_state;
  s.frame = frame_no;
  s.total = total;
  s.offset = offset;
  s.count = count;
  s.pos_shift = kPosShift;
  s.vel_shift = kVelShift;
  s.flags = 0;
  const std::uint32_t copied = offset >= kSnapshotBoids ? 0 : std::min<std::uint32_t>(count, kSnapshotBoids - offset);
  if (copied) std::memcpy(s.boids, snapshot + offset, copied * sizeof(proto::BoidQ));
  if (copied < count) quantise_boids(state, offset + copied, count - copied, s.boids + copied);
  return session.queue(m);
}

// The frame's tail: its stats.
void Link::write_frame_tail() {
  if (!(session.streams() & proto::stream::kStats)) return;
  proto::Message& m = session.begin_message(MsgType::kStats);
  m.stats = stats;
  m.stats.tx_dropped = session.counters().tx_dropped;
  session.send(m);
}

// ---------------------------------------------------------------- API
// Who owns the link now (see the top of this file). The caller's calls set it for their
// whole run; the background service, an interrupt on the same core, takes it only when it
// is free, and always gives it back before the caller runs again, so a plain flag is
// enough (the fences keep the compiler from moving the link's work across it).
volatile bool g_owned = false;

class Owned {
 public:
  Owned() : outer_(!g_owned) {
    g_owned = true;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
  }
  ~Owned() {
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (outer_) g_owned = false;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;

 private:
  bool outer_;  // fsl_wait_until's fsl_poll calls run inside its ownership
};

void poll_owned() {
  if (g.io.c.service) g.io.c.service(g.io.c.ctx);
  const std::uint64_t t0 = g.io.now_us();
  // Bounded: a flood from the host costs at most kReadPerPoll bytes of decoding per call.
  bool worked = g.session.read_requests(g.io, t0, kReadPerPoll) > 0;
  if (g.session.connected()) worked = g.session.pump(g.io) || worked;
  if (worked) g.busy_acc += g.io.now_us() - t0;
}

}  // namespace

extern "C" {

bool fsl_init(const fsl_config* config) {
  if (!config || !config->name) return false;
  const fsl_transport* t = config->transport;
#ifdef FSL_HAVE_USB
  if (!t) t = fsl_usb_transport();
#endif
  if (!t || !t->read || !t->write || !t->connected || !t->now_us) return false;
  const Owned own;
  g.~Link();
  new (&g) Link();
  g.cfg = *config;
  g.io.c = *t;
  std::strncpy(g.name, config->name, proto::kMaxNameLen);
  using namespace proto::cap;
  proto::BoardIdentity id;
#ifdef FSL_HAVE_USB
  id.role = proto::Role::kBoard;
#else
  id.role = proto::Role::kVirtualBoard;
#endif
  id.max_boids = config->capacity;
  id.capabilities = kFlockState | kStats | kLog | kParamChange | kParamSet | kCommands;
  id.name = g.name;
  g.session.set_identity(id);
  // After a cut, the next frame starts at its first boid: this board sends no metrics of its
  // own, so the app measures the boids that arrive, and they should be one step's.
  g.session.set_resume_after_cut(false);
  g.ready = true;
  return true;
}

bool fsl_param(const char* name, void* value, fsl_format format, fsl_check_fn check) {
  if (!g.ready || !name || !value || format > FSL_INT) return false;
  const TableRow* r = row_by_name(name);
  if (!r || exposed(r->id) || g.n_params >= kTableSize) return false;
  const Owned own;
  // Kept in ascending id, the order of the board's param_set (PROTOCOL.md).
  std::size_t k = g.n_params++;
  for (; k > 0 && g.params[k - 1].row->id > r->id; --k) g.params[k] = g.params[k - 1];
  g.params[k] = {r, value, format, check};
  return true;
}

void fsl_send_state(const fsl_state* state, std::uint32_t compute_us, std::uint32_t period_us) {
  if (!g.ready) return;
  const Owned own;
  const std::uint64_t now = g.io.now_us();
  g.busy_us = std::uint32_t(g.busy_acc);
  if (g.last_frame_us != 0) {
    const std::uint64_t dt = now - g.last_frame_us;
    if (!g.session.paused()) g.elapsed_us += dt;
    if (dt > 0) g.fps = g.fps == 0 ? 1e6f / float(dt) : 0.9f * g.fps + 0.1f * (1e6f / float(dt));
  }
  g.last_frame_us = now;
  ++g.frames;
  g.session.close_frame_output();
  if (!g.session.paused()) ++g.frame;
  const std::uint32_t n = state ? state->count : 0;
  g.stats = {};
  g.stats.frame = g.frame;
  g.stats.fps = g.fps;
  g.stats.compute_us = compute_us;
  g.stats.spare_us = std::int32_t(period_us) - std::int32_t(compute_us);
  g.stats.boid_count = n;
  g.stats.elapsed_ms = std::uint32_t(g.elapsed_us / 1000);
  g.stats.flags = g.session.paused() ? proto::kStatsFlagPaused : 0;
  if (!g.session.in_session()) {
    g.busy_acc = g.io.now_us() - now;
    return;
  }
  const bool with_state = state && (g.session.streams() & proto::stream::kFlockState) && state->format <= FSL_INT;
  if (with_state) {
    g.state = *state;
    const std::uint32_t copied = n < kSnapshotBoids ? n : kSnapshotBoids;
    quantise_boids(*state, 0, copied, g.snapshot);
  }
  g.session.begin_frame_output(g.frame, n, with_state);
  g.session.pump(g.io);
  g.busy_acc = g.io.now_us() - now;
}

void fsl_poll(void) {
  if (!g.ready) return;
  const Owned own;
  poll_owned();
}

void fsl_wait_until(std::uint64_t deadline_us) {
  if (!g.ready) return;
  const Owned own;
  do poll_owned();
  while (g.io.now_us() < deadline_us);
}

void fsl_background_service(void) {
  if (!g.ready || g_owned) return;
  g_owned = true;
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  if (g.io.c.service) g.io.c.service(g.io.c.ctx);
  if (g.session.connected()) {
    const std::uint64_t t0 = g.io.now_us();
    if (g.session.pump(g.io)) g.busy_acc += g.io.now_us() - t0;
  }
  __atomic_signal_fence(__ATOMIC_SEQ_CST);
  g_owned = false;
}

bool fsl_paused(void) { return g.session.paused(); }
bool fsl_host_connected(void) { return g.session.in_session(); }

void fsl_log(const char* text) {
  const Owned own;
  g.session.log(proto::LogLevel::kInfo, text);
}

void fsl_reason(const char* why) {
  if (!g.checking || !why) return;  // only inside a check callback (the caller's calls own the link)
  char line[proto::kReasonLineSize];
  std::snprintf(line, sizeof line, "%s: %s", g.checking, why);
  g.session.log(proto::LogLevel::kWarn, line);
}

fsl_counters fsl_get_counters(void) {
  const Owned own;
  const proto::SessionCounters& s = g.session.counters();
  return {g.frames,   s.state_frames, s.tx_dropped, s.requests, s.accepted, s.rejected,
          g.session.rx_stats().errors(),  // damaged frames: checksum, framing, size, layout
          g.busy_us};
}

}  // extern "C"
