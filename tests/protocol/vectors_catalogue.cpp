#include "vectors_catalogue.hpp"

#include <cmath>
#include <cstring>
#include <limits>

#include "flockscope/protocol/le.hpp"

namespace ptest {

using namespace flockscope::protocol;

namespace {

Message with_seq(Message m, std::uint16_t seq) {
  m.seq = seq;
  return m;
}

Message base(MsgType t, std::uint16_t seq) {
  Message m{};
  m.type = t;
  m.version = kProtocolVersion;
  m.seq = seq;
  return m;
}

// The table's defaults (params/include/flockscope/params/param_list.hpp), frozen
// here as the board would report them.
Message default_param_set() {
  Message m = base(MsgType::kParamSet, 1);
  const auto R = ParamValue::of_real;
  const auto I = ParamValue::of_int;
  const auto B = ParamValue::of_bool;
  const Param params[] = {
      {1, R(640)},       {2, R(480)},       {3, I(1000)},     {4, I(0)},        {5, I(1)},
      {6, ParamValue::of_choice(0)},        {7, R(40)},       {8, R(8)},        {9, R(0.0005)},
      {10, R(0.05)},     {11, R(0.05)},     {12, R(0.2)},     {13, R(100)},     {14, R(100)},
      {15, R(100)},      {16, R(100)},      {17, R(6)},       {18, R(3)},       {19, R(100)},
      {20, R(0.5)},      {21, I(0)},        {22, I(0)},       {23, R(0.001)},   {24, B(false)},
      {25, R(0.01)},     {26, R(0.00004)},  {27, R(4)},       {28, R(0.04)},    {29, R(0.075)},
      {30, R(1)},        {31, R(0)},        {32, R(10)},      {33, R(1)},       {34, B(true)},
      {35, B(true)},     {36, B(true)},
  };
  m.param_set.total = static_cast<std::uint16_t>(std::size(params));
  m.param_set.first = 0;
  m.param_set.count = static_cast<std::uint8_t>(std::size(params));
  for (std::size_t i = 0; i < std::size(params); ++i) m.param_set.params[i] = params[i];
  return m;
}

Message state_chunk(std::uint16_t seq, std::uint32_t frame, std::uint32_t total, std::uint32_t offset,
                    std::initializer_list<BoidQ> boids, std::initializer_list<std::uint8_t> groups) {
  Message m = base(MsgType::kFlockState, seq);
  FlockState& f = m.flock_state;
  f.frame = frame;
  f.total = total;
  f.offset = offset;
  f.count = static_cast<std::uint16_t>(boids.size());
  f.pos_shift = 4;
  f.vel_shift = 8;
  f.flags = groups.size() ? kStateFlagGroups : 0;
  std::size_t i = 0;
  for (const BoidQ& b : boids) f.boids[i++] = b;
  i = 0;
  for (std::uint8_t g : groups) f.groups[i++] = g;
  return m;
}

// 120 boids (a full chunk), deterministic, spread over a 640x480 screen; the
// velocities include zeros so the COBS blocks vary in length.
Message full_chunk() {
  Message m = base(MsgType::kFlockState, 20);
  FlockState& f = m.flock_state;
  f.frame = 1000;
  f.total = 2000;
  f.offset = 1800;
  f.count = kMaxBoidsPerChunk;
  f.pos_shift = 4;
  f.vel_shift = 8;
  f.flags = kStateFlagGroups;
  for (std::size_t i = 0; i < kMaxBoidsPerChunk; ++i) {
    const int k = static_cast<int>(i);
    f.boids[i] = {static_cast<std::int16_t>(((k * 53) % 640) * 16 + k % 16),
                  static_cast<std::int16_t>(((k * 31) % 480) * 16 + (k * 7) % 16),
                  static_cast<std::int16_t>((k % 13 - 6) * 256 + (k % 3) * 17),
                  static_cast<std::int16_t>((k % 7 - 3) * 200)};
    f.groups[i] = static_cast<std::uint8_t>(k % 10 == 0 ? 1 : (k % 10 == 5 ? 2 : 0));
  }
  return m;
}

std::vector<std::uint8_t> stuff(const std::uint8_t* raw, std::size_t n) {
  std::vector<std::uint8_t> out(cobs::max_encoded_size(n) + 2);
  out[0] = 0;
  const std::size_t k = cobs::encode(out.data() + 1, raw, n);
  out[1 + k] = 0;
  out.resize(k + 2);
  return out;
}

// A frame with a correct CRC around arbitrary header and payload bytes.
std::vector<std::uint8_t> raw_frame(std::uint8_t version, std::uint8_t type, std::uint16_t seq,
                                    const std::vector<std::uint8_t>& payload) {
  std::vector<std::uint8_t> f(kHeaderSize + payload.size() + kCrcSize);
  f[0] = version;
  f[1] = type;
  le::put_u16(f.data(), 2, seq);
  std::copy(payload.begin(), payload.end(), f.begin() + kHeaderSize);
  le::put_u32(f.data(), f.size() - kCrcSize, crc32(f.data(), f.size() - kCrcSize));
  return stuff(f.data(), f.size());
}

std::vector<std::uint8_t> wire(const Message& m) {
  std::vector<std::uint8_t> out(kMaxWireSize);
  out.resize(encode(m, out));
  return out;
}

}  // namespace

std::vector<GoodVector> good_vectors() {
  std::vector<GoodVector> v;
  v.push_back({"hello_app", "hello from the app (role 0), flockscope 0.1.0, can display 100000 boids, "
                            "consumes every stream",
               make_hello(Role::kApp, 0, 1, 0, 100000,
                          cap::kFlockState | cap::kPredators | cap::kScoutGroups | cap::kMetrics |
                              cap::kStats | cap::kLog,
                          "flockscope")});
  v.push_back({"hello_board", "hello from the board (role 1), firmware 0.1.0, up to 2000 boids, "
                              "every capability (0x1FF)",
               make_hello(Role::kBoard, 0, 1, 0, 2000, 0x1FF, "pico-vga")});
  v.push_back({"param_set", "full parameter set, one chunk: the core table's parameters ids 1..36 at their "
                            "defaults (a board sends every row of its table, 39 today, in the same layout)",
               default_param_set()});
  v.push_back({"param_change", "param_change visualRange (id 7) := 40.0, seq 7: the worked example of "
                               "PROTOCOL.md",
               with_seq(make_param_change(7, ParamValue::of_real(40.0)), 7)});
  v.push_back({"param_change_int", "param_change boids (id 3) := 2000 (int)",
               with_seq(make_param_change(3, ParamValue::of_int(2000)), 8)});
  v.push_back({"param_change_inf", "param_change D_vis (id 31) := +infinity (real)",
               with_seq(make_param_change(31, ParamValue::of_real(std::numeric_limits<double>::infinity())), 9)});
  v.push_back({"param_change_seed_max", "param_change seed (id 5) := 4294967295 (int)",
               with_seq(make_param_change(5, ParamValue::of_int(4294967295LL)), 10)});

  Message answered = make_param_change(7, ParamValue::of_real(40.0));
  answered.seq = 7;
  v.push_back({"ack_ok", "ack of the param_change with seq 7: accepted, visualRange is now 40.0",
               with_seq(make_ack(answered, Status::kOk, 7, ParamValue::of_real(40.0)), 3)});
  answered = make_param_change(8, ParamValue::of_real(20000.0));
  answered.seq = 11;
  v.push_back({"ack_out_of_range", "rejection of seq 11 (protectedRange := 20000): out of range (0x10), "
                                   "value unchanged at 8.0",
               with_seq(make_ack(answered, Status::kOutOfRange, 8, ParamValue::of_real(8.0)), 4)});
  answered = make_param_change(99, ParamValue::of_int(1));
  answered.seq = 12;
  v.push_back({"ack_unknown_id", "rejection of seq 12 (parameter 99): unknown id (0x11)",
               with_seq(make_ack(answered, Status::kUnknownId, 99, ParamValue::of_int(0)), 5)});
  answered = make_param_change(1, ParamValue::of_real(800.0));
  answered.seq = 13;
  v.push_back({"ack_read_only", "rejection of seq 13 (width := 800 on a VGA board): read-only (0x12), "
                                "width stays 640",
               with_seq(make_ack(answered, Status::kReadOnly, 1, ParamValue::of_real(640.0)), 6)});
  answered = make_command(CommandId::kSetBoidCount, 1500);
  answered.seq = 14;
  v.push_back({"ack_command", "ack of the command with seq 14 (set boid count 1500): ok, count now 1500",
               with_seq(make_ack(answered, Status::kOk, static_cast<std::uint16_t>(CommandId::kSetBoidCount),
                                 ParamValue::of_int(1500)),
                        7)});

  v.push_back({"command_reset", "command reset (1) with seed 12345",
               with_seq(make_command(CommandId::kReset, 12345), 20)});
  v.push_back({"command_pause", "command pause (2)", with_seq(make_command(CommandId::kPause), 21)});
  v.push_back({"command_resume", "command resume (3)", with_seq(make_command(CommandId::kResume), 22)});
  v.push_back({"command_set_boid_count", "command set boid count (4) to 1500",
               with_seq(make_command(CommandId::kSetBoidCount, 1500), 14)});
  v.push_back({"command_predators_on", "command predators (5) on",
               with_seq(make_command(CommandId::kPredators, 1), 23)});
  v.push_back({"command_predators_off", "command predators (5) off",
               with_seq(make_command(CommandId::kPredators, 0), 24)});
  v.push_back({"command_request_params", "command request params (6)",
               with_seq(make_command(CommandId::kRequestParams), 25)});
  v.push_back({"command_streams", "command streams (7): metrics and stats only (0x0C)",
               with_seq(make_command(CommandId::kStreams, stream::kMetrics | stream::kStats), 26)});

  v.push_back({"flock_state_head", "flock state frame 42 of 5 boids, chunk 1 of 2: offset 0, 3 boids in "
                                   "1/16 px and 1/256 px/frame, groups none/scouts1/scouts2",
               state_chunk(10, 42, 5, 0,
                           {{5120, 3840, 768, 0}, {160, 7664, -1536, 256}, {10224, 16, 1, -1}}, {0, 1, 2})});
  v.push_back({"flock_state_tail", "flock state frame 42, chunk 2 of 2: offset 3, 2 boids, groups "
                                   "scouts2/none",
               state_chunk(11, 42, 5, 3, {{-32768, 32767, 32767, -32768}, {0, 0, 0, 0}}, {2, 0})});
  v.push_back({"flock_state_plain", "flock state frame 7 of 2 boids in one chunk, no scout groups",
               state_chunk(12, 7, 2, 0, {{100, 200, 300, -400}, {-1, -2, -3, -4}}, {})});
  v.push_back({"flock_state_full", "flock state frame 1000 of 2000 boids, last chunk: offset 1800, 120 "
                                   "boids (the largest chunk), with groups",
               full_chunk()});

  Message pred = base(MsgType::kPredators, 13);
  pred.predators.frame = 42;
  pred.predators.count = 2;
  pred.predators.pos_shift = 4;
  pred.predators.vel_shift = 8;
  pred.predators.predators[0] = {4800, 2400, 512, -512};
  pred.predators.predators[1] = {800, 6400, -256, 0};
  v.push_back({"predators", "predators of frame 42: two, same quantisation as the flock", pred});
  Message nopred = base(MsgType::kPredators, 14);
  nopred.predators = {43, 0, 4, 8, {}};
  v.push_back({"predators_none", "predators of frame 43: none (predators off)", nopred});

  Message sur = base(MsgType::kSurroundings, 24);
  sur.surroundings.frame = 42;
  sur.surroundings.food_count = 2;
  sur.surroundings.aim_count = 2;
  sur.surroundings.pos_shift = 4;
  sur.surroundings.food[0] = {2400, 1600};
  sur.surroundings.food[1] = {8000, 6720};
  sur.surroundings.aims[0] = {kAimActive, 5120, 3840};
  sur.surroundings.aims[1] = {0, 0, 0};
  v.push_back({"surroundings", "surroundings of frame 42: food at (150, 100) and (500, 420); the first "
                               "predator aims at (320, 240), the second sees no boid",
               sur});
  Message nosur = base(MsgType::kSurroundings, 25);
  nosur.surroundings = {43, 0, 0, 4, {}, {}};
  v.push_back({"surroundings_none", "surroundings of frame 43: no food, no predators", nosur});

  Message met = base(MsgType::kMetrics, 15);
  met.metrics = {42, 37.5f, 320.25f, 240.5f, 0.875f, 4.5f, 2000};
  v.push_back({"metrics", "metrics of frame 42: diameter 37.5 px, centroid (320.25, 240.5), polarisation "
                          "0.875, mean speed 4.5 px/frame, computed over 2000 boids",
               met});
  Message st = base(MsgType::kStats, 16);
  st.stats = {42, 30.0f, 21000, 12333, 2000, 1400, 0, kStatsFlagPredators};
  v.push_back({"stats", "stats of frame 42: 30 fps, 21000 us compute, 12333 us spare, 2000 boids, 1.4 s "
                        "elapsed, nothing dropped, predators on",
               st});
  Message late = base(MsgType::kStats, 17);
  late.stats = {43, 24.5f, 40000, -6667, 2400, 1433, 3, kStatsFlagPaused};
  v.push_back({"stats_late", "stats of frame 43: over budget (spare -6667 us), 3 frames dropped, paused", late});

  v.push_back({"log", "log, level info (1): \"hello from pico\"",
               with_seq(make_log(LogLevel::kInfo, "hello from pico"), 18)});
  v.push_back({"log_empty", "log, level error (3), empty text", with_seq(make_log(LogLevel::kError, ""), 19)});
  return v;
}

std::vector<BadVector> bad_vectors() {
  std::vector<BadVector> v;
  Message none{};

  {
    std::vector<std::uint8_t> b = wire(with_seq(make_param_change(7, ParamValue::of_real(40.0)), 7));
    // Flip one bit of the CRC's last byte (found after unstuffing, restuffed so the
    // framing stays valid).
    std::vector<std::uint8_t> raw(kMaxFrameSize);
    const std::size_t n = cobs::decode(raw.data(), raw.size(), b.data() + 1, b.size() - 2);
    raw[n - 1] ^= 0x01;
    v.push_back({"err_bad_crc", "the param_change example with one bit of its CRC flipped", stuff(raw.data(), n),
                 "bad_crc", false, none});
  }
  {
    std::vector<std::uint8_t> b = wire(with_seq(make_command(CommandId::kPause), 21));
    // Cut the frame short: the last COBS block then promises more than arrives.
    b.erase(b.end() - 4, b.end() - 1);
    v.push_back({"err_truncated", "command pause with its last 3 stuffed bytes lost", b, "bad_framing", false,
                 none});
  }
  v.push_back({"err_runt", "a 3-byte frame, shorter than header + CRC", {0x00, 0x04, 0x01, 0x02, 0x03, 0x00},
               "bad_framing", false, none});
  {
    std::vector<std::uint8_t> payload(1100);
    for (std::size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<std::uint8_t>(i * 7 + 1);
    v.push_back({"err_oversize", "a well-formed log frame with a 1100-byte payload: above the 1024-byte "
                                 "maximum",
                 raw_frame(kProtocolVersion, static_cast<std::uint8_t>(MsgType::kLog), 30, payload), "oversize",
                 false, none});
  }
  v.push_back({"err_malformed", "param_change whose payload is 10 bytes instead of 11 (CRC correct)",
               raw_frame(kProtocolVersion, static_cast<std::uint8_t>(MsgType::kParamChange), 31,
                         {0x07, 0x00, 0x01, 0, 0, 0, 0, 0, 0x44, 0x40}),
               "malformed", false, none});
  {
    Message u{};
    u.type = static_cast<MsgType>(0x7F);
    u.version = kProtocolVersion;
    u.seq = 32;
    v.push_back({"err_unknown_type", "a frame of type 0x7F with a 3-byte payload (CRC correct): delivered with "
                                     "its header so a board can reject it",
                 raw_frame(kProtocolVersion, 0x7F, 32, {0x01, 0x02, 0x03}), "unknown_type", true, u});
  }
  v.push_back({"err_version", "command pause in protocol version 3: dropped",
               raw_frame(3, static_cast<std::uint8_t>(MsgType::kCommand), 33, {0x02, 0, 0, 0, 0}),
               "version_mismatch", false, none});
  {
    Message h = make_hello(Role::kBoard, 2, 0, 0, 4000, 0x1FF, "pico2");
    h.version = 3;
    h.hello.protocol_version = 3;
    h.seq = 0;
    std::vector<std::uint8_t> p = {3, 1, 2, 0, 0, 0, 0xA0, 0x0F, 0, 0, 0xFF, 0x01, 0, 0, 5,
                                   'p', 'i', 'c', 'o', '2', 0xAA, 0xBB, 0xCC};
    v.push_back({"err_foreign_hello", "a hello in protocol version 3 with 3 bytes more than v2's layout: "
                                      "delivered (hello's layout is frozen) and counted",
                 raw_frame(3, static_cast<std::uint8_t>(MsgType::kHello), 0, p), "version_mismatch", true, h});
  }
  return v;
}

}  // namespace ptest
