#include "test_support.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace ptest {

using namespace fsp;

HexFile read_hex_file(const std::string& path) {
  HexFile f;
  std::ifstream in(path);
  if (!in) return f;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty()) continue;
    if (line[0] == '#') {
      std::size_t s = 1;
      while (s < line.size() && line[s] == ' ') ++s;
      f.comments.push_back(line.substr(s));
      continue;
    }
    std::istringstream ls(line);
    std::string tok;
    while (ls >> tok) {
      if (tok.size() != 2) return f;
      char* end = nullptr;
      const long v = std::strtol(tok.c_str(), &end, 16);
      if (*end != '\0') return f;
      f.bytes.push_back(static_cast<std::uint8_t>(v));
    }
  }
  f.ok = true;
  return f;
}

std::string to_hex(std::span<const std::uint8_t> bytes, std::size_t per_line) {
  std::string s;
  char b[4];
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    std::snprintf(b, sizeof b, "%02X", bytes[i]);
    s += b;
    s += ((i + 1) % per_line == 0 || i + 1 == bytes.size()) ? '\n' : ' ';
  }
  return s;
}

// ---- JSON -----------------------------------------------------------------------------

namespace {

// Shortest text that reads back to the same value (std::to_chars), always with a
// '.' or exponent so JSON readers see a real; inf/nan as Python's json writes them.
template <class F>
std::string real_text(F v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Infinity" : "-Infinity";
  char b[64];
  const auto r = std::to_chars(b, b + sizeof b, v);
  std::string s(b, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}
std::string num(double v) { return real_text(v); }
std::string num(float v) { return real_text(v); }
std::string num(std::int64_t v) { return std::to_string(v); }
std::string num(std::uint64_t v) { return std::to_string(v); }

std::string str(const char* s, std::size_t n) {
  std::string o = "\"";
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      o += '\\';
      o += static_cast<char>(c);
    } else if (c < 0x20) {
      char b[8];
      std::snprintf(b, sizeof b, "\\u%04x", c);
      o += b;
    } else {
      o += static_cast<char>(c);
    }
  }
  return o + "\"";
}

const char* role_name(Role r) {
  switch (r) {
    case Role::kApp: return "app";
    case Role::kBoard: return "board";
    case Role::kVirtualBoard: return "virtual_board";
  }
  return nullptr;
}
const char* status_name(Status s) {
  switch (s) {
    case Status::kOk: return "ok";
    case Status::kOkAtReset: return "ok_at_reset";
    case Status::kOutOfRange: return "out_of_range";
    case Status::kUnknownId: return "unknown_id";
    case Status::kReadOnly: return "read_only";
    case Status::kWrongType: return "wrong_type";
    case Status::kBusy: return "busy";
    case Status::kUnknownType: return "unknown_type";
    case Status::kInvalid: return "invalid";
    case Status::kOther: return "other";
  }
  return nullptr;
}
const char* command_name(CommandId c) {
  switch (c) {
    case CommandId::kReset: return "reset";
    case CommandId::kPause: return "pause";
    case CommandId::kResume: return "resume";
    case CommandId::kSetBoidCount: return "set_boid_count";
    case CommandId::kPredators: return "predators";
    case CommandId::kRequestParams: return "request_params";
    case CommandId::kStreams: return "streams";
  }
  return nullptr;
}

std::string quoted(const char* name) {
  std::string q = "\"";
  q += name;
  q += '"';
  return q;
}
// A known enum value by name, an unknown one as its number.
template <class E>
std::string enum_json(E e, const char* name) {
  return name ? quoted(name) : std::to_string(static_cast<unsigned>(e));
}
std::string type_json(MsgType t) { return enum_json(t, is_known(t) ? to_string(t) : nullptr); }

// [kind, value] (kind by name when known); param_set entries are [id, kind, value].
std::string value_json(const ParamValue& v, const std::string& prefix = "") {
  std::string o = "[";
  o += prefix;
  switch (v.type) {
    case ParamType::kInt: o += "\"int\","; o += num(v.as_int()); break;
    case ParamType::kReal: o += "\"real\","; o += num(v.as_real()); break;
    case ParamType::kBool: o += "\"bool\","; o += num(v.bits); break;
    case ParamType::kChoice: o += "\"choice\","; o += num(v.bits); break;
    default: o += std::to_string(static_cast<unsigned>(v.type)); o += ','; o += num(v.bits); break;
  }
  o += ']';
  return o;
}

std::string boid_json(const BoidQ& b) {
  std::string o = "[";
  o += std::to_string(b.x);
  o += ',';
  o += std::to_string(b.y);
  o += ',';
  o += std::to_string(b.vx);
  o += ',';
  o += std::to_string(b.vy);
  o += ']';
  return o;
}

template <class T, class F>
std::string list_json(std::size_t n, const T* items, F&& item) {
  std::string o = "[";
  for (std::size_t i = 0; i < n; ++i) {
    if (i) o += ',';
    o += item(items[i]);
  }
  o += ']';
  return o;
}

struct Obj {
  std::string s = "{";
  void add(const char* key, const std::string& v) {
    if (s.size() > 1) s += ',';
    s += '"';
    s += key;
    s += "\":";
    s += v;
  }
  void add(const char* key, std::uint64_t v) { add(key, std::to_string(v)); }
  void add(const char* key, std::int64_t v) { add(key, std::to_string(v)); }
  void addf(const char* key, float v) { add(key, num(v)); }
  std::string done() { return s + "}"; }
};

}  // namespace

std::string to_json(const Message& m) {
  Obj o;
  o.add("type", type_json(m.type));
  o.add("version", std::uint64_t{m.version});
  o.add("seq", std::uint64_t{m.seq});
  switch (m.type) {
    case MsgType::kHello: {
      const Hello& h = m.hello;
      o.add("protocol_version", std::uint64_t{h.protocol_version});
      o.add("role", enum_json(h.role, role_name(h.role)));
      o.add("sw_major", std::uint64_t{h.sw_major});
      o.add("sw_minor", std::uint64_t{h.sw_minor});
      o.add("sw_patch", std::uint64_t{h.sw_patch});
      o.add("max_boids", std::uint64_t{h.max_boids});
      o.add("capabilities", std::uint64_t{h.capabilities});
      o.add("name", str(h.name, h.name_len));
      break;
    }
    case MsgType::kParamSet: {
      const ParamSet& p = m.param_set;
      o.add("total", std::uint64_t{p.total});
      o.add("first", std::uint64_t{p.first});
      o.add("params", list_json(p.count, p.params, [](const Param& q) {
              std::string id = std::to_string(q.id);
              id += ',';
              return value_json(q.value, id);
            }));
      break;
    }
    case MsgType::kParamChange:
      o.add("id", std::uint64_t{m.param_change.param.id});
      o.add("value", value_json(m.param_change.param.value));
      break;
    case MsgType::kAck:
      o.add("ref_seq", std::uint64_t{m.ack.ref_seq});
      o.add("ref_type", type_json(m.ack.ref_type));
      o.add("status", enum_json(m.ack.status, status_name(m.ack.status)));
      o.add("subject", std::uint64_t{m.ack.subject});
      o.add("value", value_json(m.ack.value));
      break;
    case MsgType::kCommand:
      o.add("command", enum_json(m.command.id, command_name(m.command.id)));
      o.add("arg", std::uint64_t{m.command.arg});
      break;
    case MsgType::kFlockState: {
      const FlockState& f = m.flock_state;
      o.add("frame", std::uint64_t{f.frame});
      o.add("total", std::uint64_t{f.total});
      o.add("offset", std::uint64_t{f.offset});
      o.add("pos_shift", std::uint64_t{f.pos_shift});
      o.add("vel_shift", std::uint64_t{f.vel_shift});
      o.add("boids", list_json(f.count, f.boids, boid_json));
      if (f.flags & kStateFlagGroups)
        o.add("groups", list_json(f.count, f.groups, [](std::uint8_t g) { return std::to_string(g); }));
      break;
    }
    case MsgType::kPredators: {
      const Predators& f = m.predators;
      o.add("frame", std::uint64_t{f.frame});
      o.add("pos_shift", std::uint64_t{f.pos_shift});
      o.add("vel_shift", std::uint64_t{f.vel_shift});
      o.add("predators", list_json(f.count, f.predators, boid_json));
      break;
    }
    case MsgType::kMetrics:
      o.add("frame", std::uint64_t{m.metrics.frame});
      o.addf("diameter", m.metrics.diameter);
      o.addf("centroid_x", m.metrics.centroid_x);
      o.addf("centroid_y", m.metrics.centroid_y);
      o.addf("polarisation", m.metrics.polarisation);
      o.addf("mean_speed", m.metrics.mean_speed);
      o.add("boids", std::uint64_t{m.metrics.boids});
      break;
    case MsgType::kStats:
      o.add("frame", std::uint64_t{m.stats.frame});
      o.addf("fps", m.stats.fps);
      o.add("compute_us", std::uint64_t{m.stats.compute_us});
      o.add("spare_us", std::int64_t{m.stats.spare_us});
      o.add("boid_count", std::uint64_t{m.stats.boid_count});
      o.add("elapsed_ms", std::uint64_t{m.stats.elapsed_ms});
      o.add("tx_dropped", std::uint64_t{m.stats.tx_dropped});
      o.add("flags", std::uint64_t{m.stats.flags});
      break;
    case MsgType::kSurroundings: {
      const Surroundings& s = m.surroundings;
      o.add("frame", std::uint64_t{s.frame});
      o.add("pos_shift", std::uint64_t{s.pos_shift});
      o.add("food", list_json(s.food_count, s.food, [](const PointQ& q) {
        return "[" + std::to_string(q.x) + "," + std::to_string(q.y) + "]";
      }));
      o.add("aims", list_json(s.aim_count, s.aims, [](const AimQ& a) {
        return "[" + std::to_string(a.flags) + "," + std::to_string(a.x) + "," + std::to_string(a.y) + "]";
      }));
      break;
    }
    case MsgType::kLog:
      o.add("level", std::uint64_t{static_cast<std::uint8_t>(m.log.level)});
      o.add("text", str(m.log.text, m.log.length));
      break;
  }
  return o.done();
}

// ---- random messages ------------------------------------------------------------------------

namespace {

template <class T>
T rnd(std::mt19937& r) {
  if constexpr (sizeof(T) <= 4) {
    return static_cast<T>(r());
  } else {
    return static_cast<T>((static_cast<std::uint64_t>(r()) << 32) | r());
  }
}
std::size_t upto(std::mt19937& r, std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n)(r); }

// Floats: mostly ordinary values, sometimes bit patterns (NaN, inf, denormals).
float rfloat(std::mt19937& r) {
  if (r() % 8 == 0) return std::bit_cast<float>(static_cast<std::uint32_t>(r()));
  return std::uniform_real_distribution<float>(-1000.f, 1000.f)(r);
}
ParamValue rvalue(std::mt19937& r) {
  switch (r() % 5) {
    case 0: return ParamValue::of_int(rnd<std::int64_t>(r));
    case 1: return ParamValue::of_real(std::uniform_real_distribution<double>(-1e6, 1e6)(r));
    case 2: return ParamValue::of_bool(r() & 1);
    case 3: return ParamValue::of_choice(r() % 3);
    default: return {static_cast<ParamType>(r()), rnd<std::uint64_t>(r)};  // raw, as decoded
  }
}
BoidQ rboid(std::mt19937& r) {
  return {rnd<std::int16_t>(r), rnd<std::int16_t>(r), rnd<std::int16_t>(r), rnd<std::int16_t>(r)};
}

constexpr MsgType kAllTypes[] = {MsgType::kHello,      MsgType::kParamSet,  MsgType::kParamChange,
                                 MsgType::kAck,        MsgType::kCommand,   MsgType::kFlockState,
                                 MsgType::kPredators,  MsgType::kMetrics,   MsgType::kStats,
                                 MsgType::kLog,        MsgType::kSurroundings};

}  // namespace

Message random_message(std::mt19937& r) {
  return random_message(r, kAllTypes[r() % std::size(kAllTypes)]);
}

Message random_message(std::mt19937& r, MsgType type) {
  Message m{};
  m.type = type;
  m.version = kProtocolVersion;
  m.seq = rnd<std::uint16_t>(r);
  switch (type) {
    case MsgType::kHello: {
      Hello& h = m.hello;
      h.protocol_version = rnd<std::uint8_t>(r);
      h.role = static_cast<Role>(r() % 4);
      h.sw_major = rnd<std::uint8_t>(r);
      h.sw_minor = rnd<std::uint8_t>(r);
      h.sw_patch = rnd<std::uint16_t>(r);
      h.max_boids = rnd<std::uint32_t>(r);
      h.capabilities = rnd<std::uint32_t>(r);
      h.name_len = static_cast<std::uint8_t>(upto(r, kMaxNameLen));
      for (std::size_t i = 0; i < h.name_len; ++i) h.name[i] = static_cast<char>(r());
      break;
    }
    case MsgType::kParamSet: {
      ParamSet& p = m.param_set;
      p.count = static_cast<std::uint8_t>(upto(r, kMaxParamsPerFrame));
      p.first = static_cast<std::uint16_t>(upto(r, 200));
      p.total = static_cast<std::uint16_t>(p.first + p.count + upto(r, 50));
      for (std::size_t i = 0; i < p.count; ++i) p.params[i] = {rnd<std::uint16_t>(r), rvalue(r)};
      break;
    }
    case MsgType::kParamChange: m.param_change.param = {rnd<std::uint16_t>(r), rvalue(r)}; break;
    case MsgType::kAck:
      m.ack = {rnd<std::uint16_t>(r), static_cast<MsgType>(r()), static_cast<Status>(r()),
               rnd<std::uint16_t>(r), rvalue(r)};
      break;
    case MsgType::kCommand: m.command = {static_cast<CommandId>(r()), rnd<std::uint32_t>(r)}; break;
    case MsgType::kFlockState: {
      FlockState& f = m.flock_state;
      f.frame = rnd<std::uint32_t>(r);
      f.count = static_cast<std::uint16_t>(upto(r, kMaxBoidsPerChunk));
      f.offset = static_cast<std::uint32_t>(upto(r, 100000));
      f.total = f.offset + f.count + static_cast<std::uint32_t>(upto(r, 1000));
      f.pos_shift = static_cast<std::uint8_t>(upto(r, 15));
      f.vel_shift = static_cast<std::uint8_t>(upto(r, 15));
      f.flags = (r() & 1) ? kStateFlagGroups : 0;
      for (std::size_t i = 0; i < f.count; ++i) {
        f.boids[i] = rboid(r);
        f.groups[i] = static_cast<std::uint8_t>(r() % 4);
      }
      break;
    }
    case MsgType::kPredators: {
      Predators& p = m.predators;
      p.frame = rnd<std::uint32_t>(r);
      p.count = static_cast<std::uint8_t>(upto(r, kMaxPredators));
      p.pos_shift = static_cast<std::uint8_t>(upto(r, 15));
      p.vel_shift = static_cast<std::uint8_t>(upto(r, 15));
      for (std::size_t i = 0; i < p.count; ++i) p.predators[i] = rboid(r);
      break;
    }
    case MsgType::kMetrics:
      m.metrics = {rnd<std::uint32_t>(r), rfloat(r), rfloat(r), rfloat(r), rfloat(r), rfloat(r), rnd<std::uint32_t>(r)};
      break;
    case MsgType::kStats:
      m.stats = {rnd<std::uint32_t>(r), rfloat(r),           rnd<std::uint32_t>(r), rnd<std::int32_t>(r),
                 rnd<std::uint32_t>(r), rnd<std::uint32_t>(r), rnd<std::uint32_t>(r),
                 static_cast<std::uint8_t>(r() % 4)};
      break;
    case MsgType::kSurroundings: {
      Surroundings& s = m.surroundings;
      s.frame = rnd<std::uint32_t>(r);
      s.food_count = static_cast<std::uint8_t>(upto(r, kMaxFood));
      s.aim_count = static_cast<std::uint8_t>(upto(r, kMaxPredators));
      s.pos_shift = static_cast<std::uint8_t>(upto(r, 15));
      for (std::size_t i = 0; i < s.food_count; ++i) s.food[i] = {rnd<std::int16_t>(r), rnd<std::int16_t>(r)};
      for (std::size_t i = 0; i < s.aim_count; ++i)
        s.aims[i] = {static_cast<std::uint8_t>(r() & 1), rnd<std::int16_t>(r), rnd<std::int16_t>(r)};
      break;
    }
    case MsgType::kLog:
      m.log.level = static_cast<LogLevel>(r() % 5);
      m.log.length = static_cast<std::uint16_t>(upto(r, kMaxLogText));
      for (std::size_t i = 0; i < m.log.length; ++i) m.log.text[i] = static_cast<char>(r());
      break;
  }
  return m;
}

// ---- streams ----------------------------------------------------------------------------

std::vector<std::uint8_t> encode_one(const Message& m) {
  std::vector<std::uint8_t> out(kMaxWireSize);
  out.resize(encode(m, out));
  return out;
}

std::vector<std::uint8_t> encode_stream(std::vector<Message>& msgs, std::uint16_t first_seq) {
  Encoder enc(first_seq);
  std::vector<std::uint8_t> out;
  std::vector<std::uint8_t> buf(kMaxWireSize);
  for (Message& m : msgs) {
    const std::size_t n = enc.encode(m, buf);
    out.insert(out.end(), buf.begin(), buf.begin() + static_cast<std::ptrdiff_t>(n));
  }
  return out;
}

Decoded decode_all(std::span<const std::uint8_t> bytes, std::size_t chunk, std::uint32_t rng_seed,
                   std::size_t buffer_size) {
  Decoded d;
  std::vector<std::uint8_t> buffer(buffer_size);
  Decoder dec(buffer);
  Message msg{};
  std::mt19937 rng(rng_seed);
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    std::size_t n = bytes.size() - pos;
    if (chunk == SIZE_MAX)
      n = std::min(n, std::uniform_int_distribution<std::size_t>(1, 3000)(rng));
    else if (chunk != 0)
      n = std::min(n, chunk);
    std::span<const std::uint8_t> in = bytes.subspan(pos, n);
    while (dec.next(in, msg)) d.msgs.push_back(msg);
    pos += n;
  }
  d.stats = dec.stats();
  return d;
}

std::vector<Span> frame_spans(std::span<const std::uint8_t> s) {
  std::vector<Span> v;
  std::size_t i = 0;
  while (i < s.size()) {
    if (s[i] != 0) {
      ++i;
      continue;
    }
    // s[i] is a leading delimiter if a non-zero byte follows
    if (i + 1 < s.size() && s[i + 1] != 0) {
      std::size_t j = i + 1;
      while (j < s.size() && s[j] != 0) ++j;
      v.push_back({i, std::min(j + 1, s.size())});
      i = j;
    } else {
      ++i;
    }
  }
  return v;
}

}  // namespace ptest
