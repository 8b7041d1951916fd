// Message <-> frame bytes. Sections: layout constants and the dispatch | validation |
// sizes | writers | parsers | frame level | Encoder | equality and builders.
//
// One function per message for each job (valid, extra_bytes, write, parse, same), reached
// through dispatch(), which message_list.hpp generates: a new row without them fails to
// compile.
//
// The writers and parsers look alike on purpose: each spells its message's layout field by
// field through le:: at the offsets of PROTOCOL.md's layout tables, never a struct copy (the
// wire's byte order and padding are not the compiler's).
#include "flockscope/protocol/codec.hpp"

#include <cstring>
#include <type_traits>

#include "flockscope/protocol/cobs.hpp"
#include "flockscope/protocol/crc32.hpp"
#include "flockscope/protocol/le.hpp"
#include "frame_writer.hpp"

namespace flockscope::protocol {
namespace {

// ---- layout constants -------------------------------------------------------------

// Each payload struct's fixed bytes (fixed_payload_size of its type).
template <class T>
constexpr std::size_t kFixed = 0;
#define FLOCKSCOPE_MSG_FIXED(k, type, code, member, name, fixed) \
  template <>                                                    \
  constexpr std::size_t kFixed<type> = fixed_payload_size(MsgType::k);
FLOCKSCOPE_MESSAGE_LIST(FLOCKSCOPE_MSG_FIXED)
#undef FLOCKSCOPE_MSG_FIXED

constexpr std::size_t kParamEntry = 11;  // id u16, type u8, value 8 bytes
constexpr std::size_t kBoidSize = 8;

constexpr std::size_t group_bytes(std::size_t count) { return (count + 3) / 4; }

static_assert(kFixed<FlockState> + kMaxBoidsPerChunk * kBoidSize + group_bytes(kMaxBoidsPerChunk) <=
              kMaxPayloadSize);
static_assert(kFixed<ParamSet> + kMaxParamsPerFrame * kParamEntry <= kMaxPayloadSize);
static_assert(kFixed<Predators> + kMaxPredators * kBoidSize <= kMaxPayloadSize);
static_assert(kFixed<Log> + kMaxLogText <= kMaxPayloadSize);
constexpr std::size_t kPointSize = 4, kAimSize = 5;
static_assert(kFixed<Surroundings> + kMaxFood * kPointSize + kMaxPredators * kAimSize <= kMaxPayloadSize);

constexpr std::uint8_t u8(MsgType t) { return static_cast<std::uint8_t>(t); }

// Calls f with the payload member that the type names, of each message given (all of the
// same type), and returns what f returns; `unknown` for a type outside the list. The one
// switch over the messages: every per-message function below is reached through it.
template <class R, class F, class... M>
R dispatch(MsgType t, R unknown, F&& f, M&... ms) {
  switch (t) {
#define FLOCKSCOPE_MSG_CASE(k, type, code, member, name, fixed) \
  case MsgType::k:                                              \
    return f(ms.member...);
    FLOCKSCOPE_MESSAGE_LIST(FLOCKSCOPE_MSG_CASE)
#undef FLOCKSCOPE_MSG_CASE
  }
  return unknown;
}

// ---- validation -------------------------------------------------------------------
// Whether encode() accepts the payload: counts within capacity, PROTOCOL.md's range rules.
// parse() holds a received header to the same rules before it trusts its counts.

bool shifts_ok(std::uint8_t pos, std::uint8_t vel) { return pos <= 15 && vel <= 15; }

bool valid(const Hello& h) { return h.name_len <= kMaxNameLen; }
bool valid(const ParamSet& s) {
  return s.count <= kMaxParamsPerFrame && static_cast<std::uint32_t>(s.first) + s.count <= s.total;
}
bool valid(const ParamChange&) { return true; }
bool valid(const Ack&) { return true; }
bool valid(const Command&) { return true; }
// The header's rules alone: parse() checks them before it reads the boids.
bool header_ok(const FlockState& s) {
  if (s.count > kMaxBoidsPerChunk || !shifts_ok(s.pos_shift, s.vel_shift)) return false;
  if ((s.flags & ~kStateFlagGroups) != 0) return false;
  return static_cast<std::uint64_t>(s.offset) + s.count <= s.total;
}
bool valid(const FlockState& s) {
  if (!header_ok(s)) return false;
  if (s.flags & kStateFlagGroups)
    for (std::size_t i = 0; i < s.count; ++i)
      if (s.groups[i] > 3) return false;
  return true;
}
bool valid(const Predators& s) { return s.count <= kMaxPredators && shifts_ok(s.pos_shift, s.vel_shift); }
bool valid(const BoardMetrics&) { return true; }
bool valid(const Stats& s) { return (s.flags & ~(kStatsFlagPaused | kStatsFlagPredators | kStatsFlagGeneralRules)) == 0; }
bool valid(const Log& l) { return l.length <= kMaxLogText; }
bool header_ok(const Surroundings& s) {
  return s.food_count <= kMaxFood && s.aim_count <= kMaxPredators && s.pos_shift <= 15;
}
bool valid(const Surroundings& s) {
  if (!header_ok(s)) return false;
  for (std::size_t i = 0; i < s.aim_count; ++i)
    if ((s.aims[i].flags & ~kAimActive) != 0) return false;
  return true;
}

// ---- sizes --------------------------------------------------------------------------
// The payload's bytes past kFixed<T>.

std::size_t extra_bytes(const Hello& h) { return h.name_len; }
std::size_t extra_bytes(const ParamSet& s) { return s.count * kParamEntry; }
std::size_t extra_bytes(const ParamChange&) { return 0; }
std::size_t extra_bytes(const Ack&) { return 0; }
std::size_t extra_bytes(const Command&) { return 0; }
std::size_t extra_bytes(const FlockState& s) {
  return s.count * kBoidSize + ((s.flags & kStateFlagGroups) ? group_bytes(s.count) : 0);
}
std::size_t extra_bytes(const Predators& s) { return s.count * kBoidSize; }
std::size_t extra_bytes(const BoardMetrics&) { return 0; }
std::size_t extra_bytes(const Stats&) { return 0; }
std::size_t extra_bytes(const Log& l) { return l.length; }
std::size_t extra_bytes(const Surroundings& s) { return s.food_count * kPointSize + s.aim_count * kAimSize; }

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

void write(const Hello& h, std::uint8_t* p) {
  le::put_u8(p, 0, h.protocol_version);
  le::put_u8(p, 1, static_cast<std::uint8_t>(h.role));
  le::put_u8(p, 2, h.sw_major);
  le::put_u8(p, 3, h.sw_minor);
  le::put_u16(p, 4, h.sw_patch);
  le::put_u32(p, 6, h.max_boids);
  le::put_u32(p, 10, h.capabilities);
  le::put_u8(p, 14, h.name_len);
  std::memcpy(p + kFixed<Hello>, h.name, h.name_len);
}

void write(const ParamSet& s, std::uint8_t* p) {
  le::put_u16(p, 0, s.total);
  le::put_u16(p, 2, s.first);
  le::put_u8(p, 4, s.count);
  for (std::size_t i = 0; i < s.count; ++i) {
    const std::size_t o = kFixed<ParamSet> + i * kParamEntry;
    le::put_u16(p, o, s.params[i].id);
    put_value(p, o + 2, s.params[i].value);
  }
}

void write(const ParamChange& c, std::uint8_t* p) {
  le::put_u16(p, 0, c.param.id);
  put_value(p, 2, c.param.value);
}

void write(const Ack& a, std::uint8_t* p) {
  le::put_u16(p, 0, a.ref_seq);
  le::put_u8(p, 2, u8(a.ref_type));
  le::put_u8(p, 3, static_cast<std::uint8_t>(a.status));
  le::put_u16(p, 4, a.subject);
  put_value(p, 6, a.value);
}

void write(const Command& c, std::uint8_t* p) {
  le::put_u8(p, 0, static_cast<std::uint8_t>(c.id));
  le::put_u32(p, 1, c.arg);
}

void write(const FlockState& s, std::uint8_t* p) {
  le::put_u32(p, 0, s.frame);
  le::put_u32(p, 4, s.total);
  le::put_u32(p, 8, s.offset);
  le::put_u16(p, 12, s.count);
  le::put_u8(p, 14, s.pos_shift);
  le::put_u8(p, 15, s.vel_shift);
  le::put_u8(p, 16, s.flags);
  for (std::size_t i = 0; i < s.count; ++i) put_boid(p, kFixed<FlockState> + i * kBoidSize, s.boids[i]);
  if (s.flags & kStateFlagGroups) {
    std::uint8_t* g = p + kFixed<FlockState> + s.count * kBoidSize;
    std::memset(g, 0, group_bytes(s.count));
    for (std::size_t i = 0; i < s.count; ++i)
      g[i / 4] = static_cast<std::uint8_t>(g[i / 4] | ((s.groups[i] & 3u) << (2 * (i % 4))));
  }
}

void write(const Predators& s, std::uint8_t* p) {
  le::put_u32(p, 0, s.frame);
  le::put_u8(p, 4, s.count);
  le::put_u8(p, 5, s.pos_shift);
  le::put_u8(p, 6, s.vel_shift);
  for (std::size_t i = 0; i < s.count; ++i) put_boid(p, kFixed<Predators> + i * kBoidSize, s.predators[i]);
}

void write(const Surroundings& s, std::uint8_t* p) {
  le::put_u32(p, 0, s.frame);
  le::put_u8(p, 4, s.food_count);
  le::put_u8(p, 5, s.aim_count);
  le::put_u8(p, 6, s.pos_shift);
  std::size_t off = kFixed<Surroundings>;
  for (std::size_t i = 0; i < s.food_count; ++i, off += kPointSize) {
    le::put_i16(p, off, s.food[i].x);
    le::put_i16(p, off + 2, s.food[i].y);
  }
  for (std::size_t i = 0; i < s.aim_count; ++i, off += kAimSize) {
    le::put_u8(p, off, s.aims[i].flags);
    le::put_i16(p, off + 1, s.aims[i].x);
    le::put_i16(p, off + 3, s.aims[i].y);
  }
}

void write(const BoardMetrics& m, std::uint8_t* p) {
  le::put_u32(p, 0, m.frame);
  le::put_f32(p, 4, m.diameter);
  le::put_f32(p, 8, m.centroid_x);
  le::put_f32(p, 12, m.centroid_y);
  le::put_f32(p, 16, m.polarisation);
  le::put_f32(p, 20, m.mean_speed);
  le::put_u32(p, 24, m.boids);
}

void write(const Stats& s, std::uint8_t* p) {
  le::put_u32(p, 0, s.frame);
  le::put_f32(p, 4, s.fps);
  le::put_u32(p, 8, s.compute_us);
  le::put_i32(p, 12, s.spare_us);
  le::put_u32(p, 16, s.boid_count);
  le::put_u32(p, 20, s.elapsed_ms);
  le::put_u32(p, 24, s.tx_dropped);
  le::put_u8(p, 28, s.flags);
}

void write(const Log& l, std::uint8_t* p) {
  le::put_u8(p, 0, static_cast<std::uint8_t>(l.level));
  std::memcpy(p + kFixed<Log>, l.text, l.length);
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
  constexpr std::size_t fixed = kFixed<Hello>;
  if (n < fixed) return false;
  const std::uint8_t len = le::get_u8(p, 14);
  if (len > kMaxNameLen) return false;
  if (foreign ? n < fixed + len : n != fixed + len) return false;
  h.protocol_version = le::get_u8(p, 0);
  h.role = static_cast<Role>(le::get_u8(p, 1));
  h.sw_major = le::get_u8(p, 2);
  h.sw_minor = le::get_u8(p, 3);
  h.sw_patch = le::get_u16(p, 4);
  h.max_boids = le::get_u32(p, 6);
  h.capabilities = le::get_u32(p, 10);
  h.name_len = len;
  std::memcpy(h.name, p + fixed, len);
  return true;
}

bool parse(const std::uint8_t* p, std::size_t n, Hello& h) { return parse_hello(p, n, false, h); }

bool parse(const std::uint8_t* p, std::size_t n, ParamSet& s) {
  if (n < kFixed<ParamSet>) return false;
  s.total = le::get_u16(p, 0);
  s.first = le::get_u16(p, 2);
  s.count = le::get_u8(p, 4);
  if (!valid(s) || n != kFixed<ParamSet> + extra_bytes(s)) return false;
  for (std::size_t i = 0; i < s.count; ++i) {
    const std::size_t o = kFixed<ParamSet> + i * kParamEntry;
    s.params[i].id = le::get_u16(p, o);
    s.params[i].value = get_value(p, o + 2);
  }
  return true;
}

bool parse(const std::uint8_t* p, std::size_t n, ParamChange& c) {
  if (n != kFixed<ParamChange>) return false;
  c.param.id = le::get_u16(p, 0);
  c.param.value = get_value(p, 2);
  return true;
}

bool parse(const std::uint8_t* p, std::size_t n, Ack& a) {
  if (n != kFixed<Ack>) return false;
  a.ref_seq = le::get_u16(p, 0);
  a.ref_type = static_cast<MsgType>(le::get_u8(p, 2));
  a.status = static_cast<Status>(le::get_u8(p, 3));
  a.subject = le::get_u16(p, 4);
  a.value = get_value(p, 6);
  return true;
}

bool parse(const std::uint8_t* p, std::size_t n, Command& c) {
  if (n != kFixed<Command>) return false;
  c.id = static_cast<CommandId>(le::get_u8(p, 0));
  c.arg = le::get_u32(p, 1);
  return true;
}

bool parse(const std::uint8_t* p, std::size_t n, FlockState& s) {
  constexpr std::size_t fixed = kFixed<FlockState>;
  if (n < fixed) return false;
  s.frame = le::get_u32(p, 0);
  s.total = le::get_u32(p, 4);
  s.offset = le::get_u32(p, 8);
  s.count = le::get_u16(p, 12);
  s.pos_shift = le::get_u8(p, 14);
  s.vel_shift = le::get_u8(p, 15);
  s.flags = le::get_u8(p, 16);
  if (!header_ok(s) || n != fixed + extra_bytes(s)) return false;
  const bool groups = (s.flags & kStateFlagGroups) != 0;
  for (std::size_t i = 0; i < s.count; ++i) s.boids[i] = get_boid(p, fixed + i * kBoidSize);
  if (groups) {
    const std::uint8_t* g = p + fixed + s.count * kBoidSize;
    for (std::size_t i = 0; i < s.count; ++i)
      s.groups[i] = static_cast<std::uint8_t>((g[i / 4] >> (2 * (i % 4))) & 3u);
    // Pad bits after the last boid must be zero, so a frame has one encoding.
    const std::size_t used = s.count % 4;
    if (used != 0 && (g[s.count / 4] >> (2 * used)) != 0) return false;
  }
  return true;
}

bool parse(const std::uint8_t* p, std::size_t n, Predators& s) {
  if (n < kFixed<Predators>) return false;
  s.frame = le::get_u32(p, 0);
  s.count = le::get_u8(p, 4);
  s.pos_shift = le::get_u8(p, 5);
  s.vel_shift = le::get_u8(p, 6);
  if (!valid(s) || n != kFixed<Predators> + extra_bytes(s)) return false;
  for (std::size_t i = 0; i < s.count; ++i) s.predators[i] = get_boid(p, kFixed<Predators> + i * kBoidSize);
  return true;
}

bool parse(const std::uint8_t* p, std::size_t n, Surroundings& s) {
  if (n < kFixed<Surroundings>) return false;
  s.frame = le::get_u32(p, 0);
  s.food_count = le::get_u8(p, 4);
  s.aim_count = le::get_u8(p, 5);
  s.pos_shift = le::get_u8(p, 6);
  if (!header_ok(s) || n != kFixed<Surroundings> + extra_bytes(s)) return false;
  std::size_t off = kFixed<Surroundings>;
  for (std::size_t i = 0; i < s.food_count; ++i, off += kPointSize)
    s.food[i] = {le::get_i16(p, off), le::get_i16(p, off + 2)};
  for (std::size_t i = 0; i < s.aim_count; ++i, off += kAimSize)
    s.aims[i] = {le::get_u8(p, off), le::get_i16(p, off + 1), le::get_i16(p, off + 3)};
  return valid(s);
}

bool parse(const std::uint8_t* p, std::size_t n, BoardMetrics& m) {
  if (n != kFixed<BoardMetrics>) return false;
  m.frame = le::get_u32(p, 0);
  m.diameter = le::get_f32(p, 4);
  m.centroid_x = le::get_f32(p, 8);
  m.centroid_y = le::get_f32(p, 12);
  m.polarisation = le::get_f32(p, 16);
  m.mean_speed = le::get_f32(p, 20);
  m.boids = le::get_u32(p, 24);
  return true;
}

bool parse(const std::uint8_t* p, std::size_t n, Stats& s) {
  if (n != kFixed<Stats>) return false;
  s.frame = le::get_u32(p, 0);
  s.fps = le::get_f32(p, 4);
  s.compute_us = le::get_u32(p, 8);
  s.spare_us = le::get_i32(p, 12);
  s.boid_count = le::get_u32(p, 16);
  s.elapsed_ms = le::get_u32(p, 20);
  s.tx_dropped = le::get_u32(p, 24);
  s.flags = le::get_u8(p, 28);
  return valid(s);
}

bool parse(const std::uint8_t* p, std::size_t n, Log& l) {
  if (n < kFixed<Log> || n > kFixed<Log> + kMaxLogText) return false;
  l.level = static_cast<LogLevel>(le::get_u8(p, 0));
  l.length = static_cast<std::uint16_t>(n - kFixed<Log>);
  std::memcpy(l.text, p + kFixed<Log>, l.length);
  return true;
}

}  // namespace

// ---- frame level ------------------------------------------------------------------------

bool is_known(MsgType t) {
  switch (t) {
#define FLOCKSCOPE_MSG_KNOWN(k, type, code, member, name, fixed) case MsgType::k:
    FLOCKSCOPE_MESSAGE_LIST(FLOCKSCOPE_MSG_KNOWN)
#undef FLOCKSCOPE_MSG_KNOWN
    return true;
  }
  return false;
}

const char* to_string(MsgType t) {
  switch (t) {
#define FLOCKSCOPE_MSG_NAME(k, type, code, member, name, fixed) \
  case MsgType::k:                                              \
    return name;
    FLOCKSCOPE_MESSAGE_LIST(FLOCKSCOPE_MSG_NAME)
#undef FLOCKSCOPE_MSG_NAME
  }
  return "unknown";
}

bool is_valid(const Message& m) {
  return dispatch(m.type, false, [](const auto& body) { return valid(body); }, m);
}

std::size_t payload_size(const Message& m, bool& ok) {
  ok = is_valid(m);
  if (!ok) return 0;
  return dispatch(
      m.type, std::size_t{0},
      [](const auto& body) { return kFixed<std::remove_cvref_t<decltype(body)>> + extra_bytes(body); }, m);
}

namespace {
void write_payload(const Message& m, std::uint8_t* p) {
  dispatch(m.type, false, [p](const auto& body) { return write(body, p), true; }, m);
}
}  // namespace

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

namespace {
// CRC, COBS and delimiters; out may overlap raw as cobs::encode allows.
std::size_t wire_from_raw(std::uint8_t* raw, std::size_t n, std::uint8_t* out) {
  le::put_u32(raw, n - kCrcSize, crc32(raw, n - kCrcSize));
  const std::size_t stuffed = cobs::encode(out + 1, raw, n);
  out[0] = 0;
  out[1 + stuffed] = 0;
  return stuffed + 2;
}
}  // namespace

std::size_t detail::finish_wire_frame(std::uint8_t* out, std::size_t n) {
  return wire_from_raw(out + raw_offset(n), n, out);
}

void write_frame_header(std::uint8_t* p, MsgType type, std::uint16_t seq) {
  detail::write_header(p, kProtocolVersion, u8(type), seq);
}

std::size_t frame_to_wire(std::uint8_t* raw, std::size_t n, std::uint8_t* out) { return wire_from_raw(raw, n, out); }

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
  const bool parsed = dispatch(out.type, false, [p, len](auto& body) { return parse(p, len, body); }, out);
  return parsed ? FrameResult::kOk : FrameResult::kMalformed;
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

bool same(const Hello& x, const Hello& y) {
  return x.protocol_version == y.protocol_version && x.role == y.role && x.sw_major == y.sw_major &&
         x.sw_minor == y.sw_minor && x.sw_patch == y.sw_patch && x.max_boids == y.max_boids &&
         x.capabilities == y.capabilities && x.name_len == y.name_len && x.name_len <= kMaxNameLen &&
         std::memcmp(x.name, y.name, x.name_len) == 0;
}
bool same(const ParamSet& x, const ParamSet& y) {
  if (x.total != y.total || x.first != y.first || x.count != y.count || x.count > kMaxParamsPerFrame)
    return false;
  for (std::size_t i = 0; i < x.count; ++i)
    if (x.params[i].id != y.params[i].id || !same(x.params[i].value, y.params[i].value)) return false;
  return true;
}
bool same(const ParamChange& x, const ParamChange& y) {
  return x.param.id == y.param.id && same(x.param.value, y.param.value);
}
bool same(const Ack& x, const Ack& y) {
  return x.ref_seq == y.ref_seq && x.ref_type == y.ref_type && x.status == y.status && x.subject == y.subject &&
         same(x.value, y.value);
}
bool same(const Command& x, const Command& y) { return x.id == y.id && x.arg == y.arg; }
bool same(const FlockState& x, const FlockState& y) {
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
bool same(const Predators& x, const Predators& y) {
  if (x.frame != y.frame || x.count != y.count || x.pos_shift != y.pos_shift || x.vel_shift != y.vel_shift ||
      x.count > kMaxPredators)
    return false;
  for (std::size_t i = 0; i < x.count; ++i)
    if (!same(x.predators[i], y.predators[i])) return false;
  return true;
}
bool same(const Surroundings& x, const Surroundings& y) {
  if (x.frame != y.frame || x.food_count != y.food_count || x.aim_count != y.aim_count ||
      x.pos_shift != y.pos_shift || x.food_count > kMaxFood || x.aim_count > kMaxPredators)
    return false;
  for (std::size_t i = 0; i < x.food_count; ++i)
    if (x.food[i].x != y.food[i].x || x.food[i].y != y.food[i].y) return false;
  for (std::size_t i = 0; i < x.aim_count; ++i)
    if (x.aims[i].flags != y.aims[i].flags || x.aims[i].x != y.aims[i].x || x.aims[i].y != y.aims[i].y) return false;
  return true;
}
bool same(const BoardMetrics& x, const BoardMetrics& y) {
  return x.frame == y.frame && same_f(x.diameter, y.diameter) && same_f(x.centroid_x, y.centroid_x) &&
         same_f(x.centroid_y, y.centroid_y) && same_f(x.polarisation, y.polarisation) &&
         same_f(x.mean_speed, y.mean_speed) && x.boids == y.boids;
}
bool same(const Stats& x, const Stats& y) {
  return x.frame == y.frame && same_f(x.fps, y.fps) && x.compute_us == y.compute_us && x.spare_us == y.spare_us &&
         x.boid_count == y.boid_count && x.elapsed_ms == y.elapsed_ms && x.tx_dropped == y.tx_dropped &&
         x.flags == y.flags;
}
bool same(const Log& x, const Log& y) {
  return x.level == y.level && x.length == y.length && x.length <= kMaxLogText &&
         std::memcmp(x.text, y.text, x.length) == 0;
}

// An unknown type: only the header is meaningful.
bool same_body(const Message& a, const Message& b) {
  return dispatch(a.type, true, [](const auto& x, const auto& y) { return same(x, y); }, a, b);
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
