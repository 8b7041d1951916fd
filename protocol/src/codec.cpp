// Message <-> frame bytes. Sections: layout constants | validation | writers |
// parsers | frame level | Encoder | equality and builders.
//
// Every offset below is the one in PROTOCOL.md's layout tables; fields are put and
// got one by one through le::, never by copying structs.
#include "flockscope/protocol/codec.hpp"

#include <cstring>

#include "flockscope/protocol/cobs.hpp"
#include "flockscope/protocol/crc32.hpp"
#include "flockscope/protocol/le.hpp"
#include "frame_writer.hpp"

namespace flockscope::protocol {
namespace {

// ---- layout constants -------------------------------------------------------------

constexpr std::size_t kHelloFixed = 15;     // + name_len
constexpr std::size_t kParamSetFixed = 5;   // + 11 per parameter
constexpr std::size_t kParamEntry = 11;     // id u16, type u8, value 8 bytes
constexpr std::size_t kParamChangeSize = 11;
constexpr std::size_t kAckSize = 15;
constexpr std::size_t kCommandSize = 5;
constexpr std::size_t kStateFixed = 17;     // + 8 per boid + group bytes
constexpr std::size_t kBoidSize = 8;
constexpr std::size_t kPredatorsFixed = 7;  // + 8 per predator
constexpr std::size_t kMetricsSize = 28;
constexpr std::size_t kStatsSize = 29;
constexpr std::size_t kLogFixed = 1;        // + text

constexpr std::size_t group_bytes(std::size_t count) { return (count + 3) / 4; }

static_assert(kStateFixed + kMaxBoidsPerChunk * kBoidSize + group_bytes(kMaxBoidsPerChunk) <=
              kMaxPayloadSize);
static_assert(kParamSetFixed + kMaxParamsPerFrame * kParamEntry <= kMaxPayloadSize);
static_assert(kPredatorsFixed + kMaxPredators * kBoidSize <= kMaxPayloadSize);
static_assert(kLogFixed + kMaxLogText <= kMaxPayloadSize);

constexpr std::uint8_t u8(MsgType t) { return static_cast<std::uint8_t>(t); }

// ---- validation -------------------------------------------------------------------

bool shifts_ok(std::uint8_t pos, std::uint8_t vel) { return pos <= 15 && vel <= 15; }

bool state_ok(const FlockState& s) {
  if (s.count > kMaxBoidsPerChunk || !shifts_ok(s.pos_shift, s.vel_shift)) return false;
  if ((s.flags & ~kStateFlagGroups) != 0) return false;
  if (static_cast<std::uint64_t>(s.offset) + s.count > s.total) return false;
  if (s.flags & kStateFlagGroups)
    for (std::size_t i = 0; i < s.count; ++i)
      if (s.groups[i] > 3) return false;
  return true;
}

// ---- writers ------------------------------------------------------------------------

void put_value(std::uint8_t* p, std::size_t off, const ParamValue& v) {
  le::put_u8(p, off, static_cast<std::uint8_t>(v.type));
  le::put_u64(p, off + 1, v.bits);
}

void put_boid(std::uint8_t* p, std::size_t off, const BoidQ& b) {
  le::put_i16(p, off, b.x);
  le::put_i16(p, off + 2, b.y);
  le::put_i16(p, off + 4, b.vx);
  le::put_i16(p, off + 6, b.vy);
}

void write_payload(const Message& m, std::uint8_t* p) {
  switch (m.type) {
    case MsgType::kHello: {
      const Hello& h = m.hello;
      le::put_u8(p, 0, h.protocol_version);
      le::put_u8(p, 1, static_cast<std::uint8_t>(h.role));
      le::put_u8(p, 2, h.sw_major);
      le::put_u8(p, 3, h.sw_minor);
      le::put_u16(p, 4, h.sw_patch);
      le::put_u32(p, 6, h.max_boids);
      le::put_u32(p, 10, h.capabilities);
      le::put_u8(p, 14, h.name_len);
      std::memcpy(p + 15, h.name, h.name_len);
      break;
    }
    case MsgType::kParamSet: {
      const ParamSet& s = m.param_set;
      le::put_u16(p, 0, s.total);
      le::put_u16(p, 2, s.first);
      le::put_u8(p, 4, s.count);
      for (std::size_t i = 0; i < s.count; ++i) {
        const std::size_t o = kParamSetFixed + i * kParamEntry;
        le::put_u16(p, o, s.params[i].id);
        put_value(p, o + 2, s.params[i].value);
      }
      break;
    }
    case MsgType::kParamChange:
      le::put_u16(p, 0, m.param_change.param.id);
      put_value(p, 2, m.param_change.param.value);
      break;
    case MsgType::kAck:
      le::put_u16(p, 0, m.ack.ref_seq);
      le::put_u8(p, 2, u8(m.ack.ref_type));
      le::put_u8(p, 3, static_cast<std::uint8_t>(m.ack.status));
      le::put_u16(p, 4, m.ack.subject);
      put_value(p, 6, m.ack.value);
      break;
    case MsgType::kCommand:
      le::put_u8(p, 0, static_cast<std::uint8_t>(m.command.id));
      le::put_u32(p, 1, m.command.arg);
      break;
    case MsgType::kFlockState: {
      const FlockState& s = m.flock_state;
      le::put_u32(p, 0, s.frame);
      le::put_u32(p, 4, s.total);
      le::put_u32(p, 8, s.offset);
      le::put_u16(p, 12, s.count);
      le::put_u8(p, 14, s.pos_shift);
      le::put_u8(p, 15, s.vel_shift);
      le::put_u8(p, 16, s.flags);
      for (std::size_t i = 0; i < s.count; ++i) put_boid(p, kStateFixed + i * kBoidSize, s.boids[i]);
      if (s.flags & kStateFlagGroups) {
        std::uint8_t* g = p + kStateFixed + s.count * kBoidSize;
        std::memset(g, 0, group_bytes(s.count));
        for (std::size_t i = 0; i < s.count; ++i)
          g[i / 4] = static_cast<std::uint8_t>(g[i / 4] | ((s.groups[i] & 3u) << (2 * (i % 4))));
      }
      break;
    }
    case MsgType::kPredators: {
      const Predators& s = m.predators;
      le::put_u32(p, 0, s.frame);
      le::put_u8(p, 4, s.count);
      le::put_u8(p, 5, s.pos_shift);
      le::put_u8(p, 6, s.vel_shift);
      for (std::size_t i = 0; i < s.count; ++i)
        put_boid(p, kPredatorsFixed + i * kBoidSize, s.predators[i]);
      break;
    }
    case MsgType::kMetrics:
      le::put_u32(p, 0, m.metrics.frame);
      le::put_f32(p, 4, m.metrics.diameter);
      le::put_f32(p, 8, m.metrics.centroid_x);
      le::put_f32(p, 12, m.metrics.centroid_y);
      le::put_f32(p, 16, m.metrics.polarisation);
      le::put_f32(p, 20, m.metrics.mean_speed);
      le::put_u32(p, 24, m.metrics.boids);
      break;
    case MsgType::kStats:
      le::put_u32(p, 0, m.stats.frame);
      le::put_f32(p, 4, m.stats.fps);
      le::put_u32(p, 8, m.stats.compute_us);
      le::put_i32(p, 12, m.stats.spare_us);
      le::put_u32(p, 16, m.stats.boid_count);
      le::put_u32(p, 20, m.stats.elapsed_ms);
      le::put_u32(p, 24, m.stats.tx_dropped);
      le::put_u8(p, 28, m.stats.flags);
      break;
    case MsgType::kLog:
      le::put_u8(p, 0, static_cast<std::uint8_t>(m.log.level));
      std::memcpy(p + 1, m.log.text, m.log.length);
      break;
  }
}

// ---- parsers ------------------------------------------------------------------------
// Each checks the exact payload length first, then reads at fixed offsets.

ParamValue get_value(const std::uint8_t* p, std::size_t off) {
  return {static_cast<ParamType>(le::get_u8(p, off)), le::get_u64(p, off + 1)};
}

BoidQ get_boid(const std::uint8_t* p, std::size_t off) {
  return {le::get_i16(p, off), le::get_i16(p, off + 2), le::get_i16(p, off + 4),
          le::get_i16(p, off + 6)};
}

// Hello's layout is frozen across protocol versions so that two ends of different
// versions can still tell each other who they are; a foreign hello may be longer.
bool parse_hello(const std::uint8_t* p, std::size_t n, bool foreign, Hello& h) {
  if (n < kHelloFixed) return false;
  const std::uint8_t len = le::get_u8(p, 14);
  if (len > kMaxNameLen) return false;
  if (foreign ? n < kHelloFixed + len : n != kHelloFixed + len) return false;
  h.protocol_version = le::get_u8(p, 0);
  h.role = static_cast<Role>(le::get_u8(p, 1));
  h.sw_major = le::get_u8(p, 2);
  h.sw_minor = le::get_u8(p, 3);
  h.sw_patch = le::get_u16(p, 4);
  h.max_boids = le::get_u32(p, 6);
  h.capabilities = le::get_u32(p, 10);
  h.name_len = len;
  std::memcpy(h.name, p + kHelloFixed, len);
  return true;
}

bool parse_payload(MsgType type, const std::uint8_t* p, std::size_t n, Message& m) {
  switch (type) {
    case MsgType::kHello:
      return parse_hello(p, n, false, m.hello);
    case MsgType::kParamSet: {
      if (n < kParamSetFixed) return false;
      ParamSet& s = m.param_set;
      s.total = le::get_u16(p, 0);
      s.first = le::get_u16(p, 2);
      s.count = le::get_u8(p, 4);
      if (s.count > kMaxParamsPerFrame || n != kParamSetFixed + s.count * kParamEntry) return false;
      if (static_cast<std::uint32_t>(s.first) + s.count > s.total) return false;
      for (std::size_t i = 0; i < s.count; ++i) {
        const std::size_t o = kParamSetFixed + i * kParamEntry;
        s.params[i].id = le::get_u16(p, o);
        s.params[i].value = get_value(p, o + 2);
      }
      return true;
    }
    case MsgType::kParamChange:
      if (n != kParamChangeSize) return false;
      m.param_change.param.id = le::get_u16(p, 0);
      m.param_change.param.value = get_value(p, 2);
      return true;
    case MsgType::kAck:
      if (n != kAckSize) return false;
      m.ack.ref_seq = le::get_u16(p, 0);
      m.ack.ref_type = static_cast<MsgType>(le::get_u8(p, 2));
      m.ack.status = static_cast<Status>(le::get_u8(p, 3));
      m.ack.subject = le::get_u16(p, 4);
      m.ack.value = get_value(p, 6);
      return true;
    case MsgType::kCommand:
      if (n != kCommandSize) return false;
      m.command.id = static_cast<CommandId>(le::get_u8(p, 0));
      m.command.arg = le::get_u32(p, 1);
      return true;
    case MsgType::kFlockState: {
      if (n < kStateFixed) return false;
      FlockState& s = m.flock_state;
      s.frame = le::get_u32(p, 0);
      s.total = le::get_u32(p, 4);
      s.offset = le::get_u32(p, 8);
      s.count = le::get_u16(p, 12);
      s.pos_shift = le::get_u8(p, 14);
      s.vel_shift = le::get_u8(p, 15);
      s.flags = le::get_u8(p, 16);
      if (s.count > kMaxBoidsPerChunk || !shifts_ok(s.pos_shift, s.vel_shift)) return false;
      if ((s.flags & ~kStateFlagGroups) != 0) return false;
      if (static_cast<std::uint64_t>(s.offset) + s.count > s.total) return false;
      const bool groups = (s.flags & kStateFlagGroups) != 0;
      if (n != kStateFixed + s.count * kBoidSize + (groups ? group_bytes(s.count) : 0)) return false;
      for (std::size_t i = 0; i < s.count; ++i) s.boids[i] = get_boid(p, kStateFixed + i * kBoidSize);
      if (groups) {
        const std::uint8_t* g = p + kStateFixed + s.count * kBoidSize;
        for (std::size_t i = 0; i < s.count; ++i)
          s.groups[i] = static_cast<std::uint8_t>((g[i / 4] >> (2 * (i % 4))) & 3u);
        // Pad bits after the last boid must be zero, so a frame has one encoding.
        const std::size_t used = s.count % 4;
        if (used != 0 && (g[s.count / 4] >> (2 * used)) != 0) return false;
      }
      return true;
    }
    case MsgType::kPredators: {
      if (n < kPredatorsFixed) return false;
      Predators& s = m.predators;
      s.frame = le::get_u32(p, 0);
      s.count = le::get_u8(p, 4);
      s.pos_shift = le::get_u8(p, 5);
      s.vel_shift = le::get_u8(p, 6);
      if (s.count > kMaxPredators || !shifts_ok(s.pos_shift, s.vel_shift)) return false;
      if (n != kPredatorsFixed + s.count * kBoidSize) return false;
      for (std::size_t i = 0; i < s.count; ++i)
        s.predators[i] = get_boid(p, kPredatorsFixed + i * kBoidSize);
      return true;
    }
    case MsgType::kMetrics:
      if (n != kMetricsSize) return false;
      m.metrics.frame = le::get_u32(p, 0);
      m.metrics.diameter = le::get_f32(p, 4);
      m.metrics.centroid_x = le::get_f32(p, 8);
      m.metrics.centroid_y = le::get_f32(p, 12);
      m.metrics.polarisation = le::get_f32(p, 16);
      m.metrics.mean_speed = le::get_f32(p, 20);
      m.metrics.boids = le::get_u32(p, 24);
      return true;
    case MsgType::kStats:
      if (n != kStatsSize) return false;
      m.stats.frame = le::get_u32(p, 0);
      m.stats.fps = le::get_f32(p, 4);
      m.stats.compute_us = le::get_u32(p, 8);
      m.stats.spare_us = le::get_i32(p, 12);
      m.stats.boid_count = le::get_u32(p, 16);
      m.stats.elapsed_ms = le::get_u32(p, 20);
      m.stats.tx_dropped = le::get_u32(p, 24);
      m.stats.flags = le::get_u8(p, 28);
      return (m.stats.flags & ~(kStatsFlagPaused | kStatsFlagPredators)) == 0;
    case MsgType::kLog:
      if (n < kLogFixed || n > kLogFixed + kMaxLogText) return false;
      m.log.level = static_cast<LogLevel>(le::get_u8(p, 0));
      m.log.length = static_cast<std::uint16_t>(n - kLogFixed);
      std::memcpy(m.log.text, p + kLogFixed, m.log.length);
      return true;
  }
  return false;
}

}  // namespace

// ---- frame level ------------------------------------------------------------------------

bool is_known(MsgType t) {
  switch (t) {
    case MsgType::kHello:
    case MsgType::kParamSet:
    case MsgType::kParamChange:
    case MsgType::kAck:
    case MsgType::kCommand:
    case MsgType::kFlockState:
    case MsgType::kPredators:
    case MsgType::kMetrics:
    case MsgType::kStats:
    case MsgType::kLog:
      return true;
  }
  return false;
}

const char* to_string(MsgType t) {
  switch (t) {
    case MsgType::kHello: return "hello";
    case MsgType::kParamSet: return "param_set";
    case MsgType::kParamChange: return "param_change";
    case MsgType::kAck: return "ack";
    case MsgType::kCommand: return "command";
    case MsgType::kFlockState: return "flock_state";
    case MsgType::kPredators: return "predators";
    case MsgType::kMetrics: return "metrics";
    case MsgType::kStats: return "stats";
    case MsgType::kLog: return "log";
  }
  return "unknown";
}

bool is_valid(const Message& m) {
  switch (m.type) {
    case MsgType::kHello: return m.hello.name_len <= kMaxNameLen;
    case MsgType::kParamSet:
      return m.param_set.count <= kMaxParamsPerFrame &&
             static_cast<std::uint32_t>(m.param_set.first) + m.param_set.count <= m.param_set.total;
    case MsgType::kParamChange:
    case MsgType::kAck:
    case MsgType::kCommand:
    case MsgType::kMetrics:
      return true;
    case MsgType::kFlockState: return state_ok(m.flock_state);
    case MsgType::kPredators:
      return m.predators.count <= kMaxPredators &&
             shifts_ok(m.predators.pos_shift, m.predators.vel_shift);
    case MsgType::kStats: return (m.stats.flags & ~(kStatsFlagPaused | kStatsFlagPredators)) == 0;
    case MsgType::kLog: return m.log.length <= kMaxLogText;
  }
  return false;
}

std::size_t payload_size(const Message& m, bool& ok) {
  ok = is_valid(m);
  if (!ok) return 0;
  switch (m.type) {
    case MsgType::kHello: return kHelloFixed + m.hello.name_len;
    case MsgType::kParamSet: return kParamSetFixed + m.param_set.count * kParamEntry;
    case MsgType::kParamChange: return kParamChangeSize;
    case MsgType::kAck: return kAckSize;
    case MsgType::kCommand: return kCommandSize;
    case MsgType::kFlockState: {
      const FlockState& s = m.flock_state;
      return kStateFixed + s.count * kBoidSize +
             ((s.flags & kStateFlagGroups) ? group_bytes(s.count) : 0);
    }
    case MsgType::kPredators: return kPredatorsFixed + m.predators.count * kBoidSize;
    case MsgType::kMetrics: return kMetricsSize;
    case MsgType::kStats: return kStatsSize;
    case MsgType::kLog: return kLogFixed + m.log.length;
  }
  ok = false;
  return 0;
}

void detail::write_header(std::uint8_t* p, std::uint8_t version, std::uint8_t type,
                          std::uint16_t seq) {
  le::put_u8(p, 0, version);
  le::put_u8(p, 1, type);
  le::put_u16(p, 2, seq);
}

std::size_t write_frame(const Message& m, std::uint8_t* frame, std::size_t cap) {
  bool ok = false;
  const std::size_t payload = payload_size(m, ok);
  const std::size_t n = kHeaderSize + payload + kCrcSize;
  if (!ok || n > kMaxFrameSize || n > cap) return 0;
  detail::write_header(frame, m.version, u8(m.type), m.seq);
  write_payload(m, frame + kHeaderSize);
  le::put_u32(frame, n - kCrcSize, crc32(frame, n - kCrcSize));
  return n;
}

std::size_t detail::finish_wire_frame(std::uint8_t* out, std::size_t n) {
  std::uint8_t* raw = out + raw_offset(n);
  le::put_u32(raw, n - kCrcSize, crc32(raw, n - kCrcSize));
  const std::size_t stuffed = cobs::encode(out + 1, raw, n);
  out[0] = 0;
  out[1 + stuffed] = 0;
  return stuffed + 2;
}

std::size_t encode(const Message& m, std::span<std::uint8_t> out) {
  bool ok = false;
  const std::size_t payload = payload_size(m, ok);
  const std::size_t n = kHeaderSize + payload + kCrcSize;
  if (!ok || n > kMaxFrameSize || out.size() < detail::wire_need(n)) return 0;
  std::uint8_t* raw = out.data() + detail::raw_offset(n);
  detail::write_header(raw, m.version, u8(m.type), m.seq);
  write_payload(m, raw + kHeaderSize);
  return detail::finish_wire_frame(out.data(), n);
}

FrameResult parse_frame(const std::uint8_t* frame, std::size_t n, Message& out) {
  if (n < kHeaderSize + kCrcSize) return FrameResult::kRunt;
  if (crc32(frame, n - kCrcSize) != le::get_u32(frame, n - kCrcSize)) return FrameResult::kBadCrc;
  out.version = le::get_u8(frame, 0);
  out.type = static_cast<MsgType>(le::get_u8(frame, 1));
  out.seq = le::get_u16(frame, 2);
  const std::uint8_t* p = frame + kHeaderSize;
  const std::size_t len = n - kHeaderSize - kCrcSize;
  if (out.version != kProtocolVersion) {
    if (out.type == MsgType::kHello && parse_hello(p, len, true, out.hello))
      return FrameResult::kForeignHello;
    return FrameResult::kForeignVersion;
  }
  if (!is_known(out.type)) return FrameResult::kUnknownType;
  return parse_payload(out.type, p, len, out) ? FrameResult::kOk : FrameResult::kMalformed;
}

// ---- Encoder ------------------------------------------------------------------------------

std::size_t Encoder::encode(Message& m, std::span<std::uint8_t> out) {
  m.seq = next_seq_;
  const std::size_t n = protocol::encode(m, out);
  if (n != 0) ++next_seq_;
  return n;
}

// ---- equality and builders --------------------------------------------------------------------

namespace {

bool same(const ParamValue& a, const ParamValue& b) { return a.type == b.type && a.bits == b.bits; }
bool same(const BoidQ& a, const BoidQ& b) {
  return a.x == b.x && a.y == b.y && a.vx == b.vx && a.vy == b.vy;
}
bool same_f(float a, float b) { return std::bit_cast<std::uint32_t>(a) == std::bit_cast<std::uint32_t>(b); }

bool same_body(const Message& a, const Message& b) {
  switch (a.type) {
    case MsgType::kHello: {
      const Hello &x = a.hello, &y = b.hello;
      return x.protocol_version == y.protocol_version && x.role == y.role &&
             x.sw_major == y.sw_major && x.sw_minor == y.sw_minor && x.sw_patch == y.sw_patch &&
             x.max_boids == y.max_boids && x.capabilities == y.capabilities &&
             x.name_len == y.name_len && x.name_len <= kMaxNameLen &&
             std::memcmp(x.name, y.name, x.name_len) == 0;
    }
    case MsgType::kParamSet: {
      const ParamSet &x = a.param_set, &y = b.param_set;
      if (x.total != y.total || x.first != y.first || x.count != y.count || x.count > kMaxParamsPerFrame)
        return false;
      for (std::size_t i = 0; i < x.count; ++i)
        if (x.params[i].id != y.params[i].id || !same(x.params[i].value, y.params[i].value)) return false;
      return true;
    }
    case MsgType::kParamChange:
      return a.param_change.param.id == b.param_change.param.id &&
             same(a.param_change.param.value, b.param_change.param.value);
    case MsgType::kAck:
      return a.ack.ref_seq == b.ack.ref_seq && a.ack.ref_type == b.ack.ref_type &&
             a.ack.status == b.ack.status && a.ack.subject == b.ack.subject &&
             same(a.ack.value, b.ack.value);
    case MsgType::kCommand: return a.command.id == b.command.id && a.command.arg == b.command.arg;
    case MsgType::kFlockState: {
      const FlockState &x = a.flock_state, &y = b.flock_state;
      if (x.frame != y.frame || x.total != y.total || x.offset != y.offset || x.count != y.count ||
          x.pos_shift != y.pos_shift || x.vel_shift != y.vel_shift || x.flags != y.flags ||
          x.count > kMaxBoidsPerChunk)
        return false;
      for (std::size_t i = 0; i < x.count; ++i) {
        if (!same(x.boids[i], y.boids[i])) return false;
        if ((x.flags & kStateFlagGroups) && x.groups[i] != y.groups[i]) return false;
      }
      return true;
    }
    case MsgType::kPredators: {
      const Predators &x = a.predators, &y = b.predators;
      if (x.frame != y.frame || x.count != y.count || x.pos_shift != y.pos_shift ||
          x.vel_shift != y.vel_shift || x.count > kMaxPredators)
        return false;
      for (std::size_t i = 0; i < x.count; ++i)
        if (!same(x.predators[i], y.predators[i])) return false;
      return true;
    }
    case MsgType::kMetrics: {
      const Metrics &x = a.metrics, &y = b.metrics;
      return x.frame == y.frame && same_f(x.diameter, y.diameter) && same_f(x.centroid_x, y.centroid_x) &&
             same_f(x.centroid_y, y.centroid_y) && same_f(x.polarisation, y.polarisation) &&
             same_f(x.mean_speed, y.mean_speed) && x.boids == y.boids;
    }
    case MsgType::kStats: {
      const Stats &x = a.stats, &y = b.stats;
      return x.frame == y.frame && same_f(x.fps, y.fps) && x.compute_us == y.compute_us &&
             x.spare_us == y.spare_us && x.boid_count == y.boid_count &&
             x.elapsed_ms == y.elapsed_ms && x.tx_dropped == y.tx_dropped && x.flags == y.flags;
    }
    case MsgType::kLog:
      return a.log.level == b.log.level && a.log.length == b.log.length &&
             a.log.length <= kMaxLogText && std::memcmp(a.log.text, b.log.text, a.log.length) == 0;
  }
  return true;  // unknown type: only the header is meaningful
}

Message blank(MsgType t) {
  Message m{};
  m.type = t;
  m.version = kProtocolVersion;
  m.seq = 0;
  return m;
}

}  // namespace

bool operator==(const Message& a, const Message& b) {
  return a.type == b.type && a.version == b.version && a.seq == b.seq && same_body(a, b);
}

Message make_hello(Role role, std::uint8_t sw_major, std::uint8_t sw_minor, std::uint16_t sw_patch,
                   std::uint32_t max_boids, std::uint32_t capabilities, const char* name) {
  Message m = blank(MsgType::kHello);
  Hello& h = m.hello;
  h.protocol_version = kProtocolVersion;
  h.role = role;
  h.sw_major = sw_major;
  h.sw_minor = sw_minor;
  h.sw_patch = sw_patch;
  h.max_boids = max_boids;
  h.capabilities = capabilities;
  std::size_t len = 0;
  while (name && name[len] != '\0' && len < kMaxNameLen) ++len;
  h.name_len = static_cast<std::uint8_t>(len);
  if (len) std::memcpy(h.name, name, len);
  return m;
}

Message make_param_change(std::uint16_t id, ParamValue value) {
  Message m = blank(MsgType::kParamChange);
  m.param_change.param = {id, value};
  return m;
}

Message make_command(CommandId id, std::uint32_t arg) {
  Message m = blank(MsgType::kCommand);
  m.command = {id, arg};
  return m;
}

Message make_ack(const Message& answered, Status status, std::uint16_t subject, ParamValue value) {
  Message m = blank(MsgType::kAck);
  m.ack = {answered.seq, answered.type, status, subject, value};
  return m;
}

Message make_log(LogLevel level, const char* text) {
  Message m = blank(MsgType::kLog);
  m.log.level = level;
  std::size_t len = 0;
  while (text && text[len] != '\0' && len < kMaxLogText) ++len;
  m.log.length = static_cast<std::uint16_t>(len);
  if (len) std::memcpy(m.log.text, text, len);
  return m;
}

}  // namespace flockscope::protocol
