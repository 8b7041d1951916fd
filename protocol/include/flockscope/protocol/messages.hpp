// The messages of the flockscope wire protocol, version 1, as plain structs.
// PROTOCOL.md is the normative description (byte layouts, who sends what, what a
// receiver does on errors); this header mirrors it. The list of messages itself is
// message_list.hpp.
//
// Sections: constants | enums | payload structs | Message | helpers
//
// Everything here is fixed-capacity (no heap) so a Message can live in static
// storage on the RP2040. A Message is a tagged union; only the member named by
// `type` is meaningful, and inside it only the first `count` array elements.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>

#include "flockscope/protocol/message_list.hpp"

namespace flockscope::protocol {

// ---- constants --------------------------------------------------------------

inline constexpr std::uint8_t kProtocolVersion = 2;

inline constexpr std::size_t kHeaderSize = 4;  // version u8, type u8, seq u16
inline constexpr std::size_t kCrcSize = 4;     // CRC-32/ISO-HDLC, little-endian
// Largest frame before COBS stuffing: header + payload + CRC. Every receiver must
// accept frames up to this size; larger ones are discarded and counted.
inline constexpr std::size_t kMaxFrameSize = 1024;
inline constexpr std::size_t kMaxPayloadSize = kMaxFrameSize - kHeaderSize - kCrcSize;  // 1016
// Largest frame on the wire: leading 0x00, stuffed frame, trailing 0x00.
inline constexpr std::size_t kMaxWireSize = 1 + (kMaxFrameSize + kMaxFrameSize / 254 + 1) + 1;  // 1031

inline constexpr std::size_t kMaxNameLen = 32;          // hello board/app name
inline constexpr std::size_t kMaxParamsPerFrame = 64;   // parameter set chunk
inline constexpr std::size_t kMaxBoidsPerChunk = 120;   // flock state chunk (1007-byte payload)
inline constexpr std::size_t kMaxPredators = 16;
inline constexpr std::size_t kMaxFood = 16;
inline constexpr std::size_t kMaxLogText = 255;

// ---- enums ------------------------------------------------------------------

// One enumerator per row of message_list.hpp, with its type code.
enum class MsgType : std::uint8_t {
#define FLOCKSCOPE_MSG_ENUM(k, type, code, member, name, fixed) k = code,
  FLOCKSCOPE_MESSAGE_LIST(FLOCKSCOPE_MSG_ENUM)
#undef FLOCKSCOPE_MSG_ENUM
};
bool is_known(MsgType t);
const char* to_string(MsgType t);  // "hello", "param_set", ...; "unknown" otherwise
// A payload's bytes without its variable part (names, entries, boids, text); 0 for a type
// outside the list.
constexpr std::size_t fixed_payload_size(MsgType t) {
  switch (t) {
#define FLOCKSCOPE_MSG_FIXED_SIZE(k, type, code, member, name, fixed) \
  case MsgType::k:                                                    \
    return fixed;
    FLOCKSCOPE_MESSAGE_LIST(FLOCKSCOPE_MSG_FIXED_SIZE)
#undef FLOCKSCOPE_MSG_FIXED_SIZE
  }
  return 0;
}

enum class Role : std::uint8_t { kApp = 0, kBoard = 1, kVirtualBoard = 2 };

// Hello.capabilities bits: what the sender can produce (board) or consume (app).
namespace cap {
inline constexpr std::uint32_t kFlockState = 1u << 0;
inline constexpr std::uint32_t kPredators = 1u << 1;
inline constexpr std::uint32_t kScoutGroups = 1u << 2;
inline constexpr std::uint32_t kMetrics = 1u << 3;
inline constexpr std::uint32_t kStats = 1u << 4;
inline constexpr std::uint32_t kLog = 1u << 5;
inline constexpr std::uint32_t kParamChange = 1u << 6;
inline constexpr std::uint32_t kParamSet = 1u << 7;
inline constexpr std::uint32_t kCommands = 1u << 8;
// Board: runs the lab's extensions with state of their own (takes predator_mode,
// predator_vision, predator_steer, the perch_* and food* parameters) and sends
// `surroundings`. App: consumes `surroundings`. A board without it lacks those extensions,
// whatever its parameter set lists.
inline constexpr std::uint32_t kSurroundings = 1u << 9;
}  // namespace cap

// A parameter value is a type tag plus 8 bytes, so a receiver can decode it without
// the parameter table. Tags follow the core table's kinds, and the 8 bytes hold the
// core's own representation (int64, binary64) so a value survives app -> board ->
// app unchanged: 4-byte values would turn seed 4294967295 negative and 0.0005 into
// 0.000500000024.
enum class ParamType : std::uint8_t { kInt = 0, kReal = 1, kBool = 2, kChoice = 3 };

// Ack.status. Below 0x10: accepted. 0x10 and up: rejected, nothing changed.
enum class Status : std::uint8_t {
  kOk = 0x00,
  kOkAtReset = 0x01,     // accepted, takes effect at the next reset
  kOutOfRange = 0x10,
  kUnknownId = 0x11,     // unknown parameter id or command id
  kReadOnly = 0x12,
  kWrongType = 0x13,     // value's type tag does not match the parameter
  kBusy = 0x14,
  kUnknownType = 0x15,   // message type not supported by the receiver
  kInvalid = 0x16,       // well-formed but inconsistent (e.g. set boid count above max)
  kOther = 0x1F,
};
inline constexpr bool is_accepted(Status s) { return static_cast<std::uint8_t>(s) < 0x10; }

enum class CommandId : std::uint8_t {
  kReset = 1,          // arg: seed (u32); restart the flock from this seed
  kPause = 2,          // arg: 0
  kResume = 3,         // arg: 0
  kSetBoidCount = 4,   // arg: boid count
  kPredators = 5,      // arg: 0 off, 1 on
  kRequestParams = 6,  // arg: 0; the board answers with its full parameter set
  kStreams = 7,        // arg: stream bits (below); which periodic messages to send
};
namespace stream {
inline constexpr std::uint32_t kFlockState = 1u << 0;
inline constexpr std::uint32_t kPredators = 1u << 1;
inline constexpr std::uint32_t kMetrics = 1u << 2;
inline constexpr std::uint32_t kStats = 1u << 3;
inline constexpr std::uint32_t kLog = 1u << 4;
inline constexpr std::uint32_t kAll = 0x1F;
}  // namespace stream

enum class LogLevel : std::uint8_t { kDebug = 0, kInfo = 1, kWarn = 2, kError = 3 };

inline constexpr std::uint8_t kStateFlagGroups = 0x01;  // FlockState carries group bits
inline constexpr std::uint8_t kStatsFlagPaused = 0x01;
inline constexpr std::uint8_t kStatsFlagPredators = 0x02;
// The frame's rules ran on the board's general path (its fast path does not cover the
// parameters in force).
inline constexpr std::uint8_t kStatsFlagGeneralRules = 0x04;

// Scout group of a boid (2 bits on the wire).
inline constexpr std::uint8_t kGroupNone = 0;
inline constexpr std::uint8_t kGroupScouts1 = 1;  // biased right
inline constexpr std::uint8_t kGroupScouts2 = 2;  // biased left

// ---- payload structs ----------------------------------------------------------

struct ParamValue {
  ParamType type;
  std::uint64_t bits;  // int64 two's complement, binary64 bit pattern, 0/1, or choice index

  static constexpr ParamValue of_int(std::int64_t v) {
    return {ParamType::kInt, static_cast<std::uint64_t>(v)};
  }
  static constexpr ParamValue of_real(double v) {
    return {ParamType::kReal, std::bit_cast<std::uint64_t>(v)};
  }
  static constexpr ParamValue of_bool(bool v) { return {ParamType::kBool, v ? 1u : 0u}; }
  static constexpr ParamValue of_choice(std::uint64_t v) { return {ParamType::kChoice, v}; }
  constexpr std::int64_t as_int() const { return static_cast<std::int64_t>(bits); }
  constexpr double as_real() const { return std::bit_cast<double>(bits); }
  constexpr bool as_bool() const { return bits != 0; }
  constexpr std::uint64_t as_choice() const { return bits; }
};

struct Param {
  std::uint16_t id;  // stable id from the parameter table, params/ (PROTOCOL.md lists them)
  ParamValue value;
};

struct Hello {
  std::uint8_t protocol_version;
  Role role;
  std::uint8_t sw_major, sw_minor;
  std::uint16_t sw_patch;
  std::uint32_t max_boids;
  std::uint32_t capabilities;
  std::uint8_t name_len;
  char name[kMaxNameLen];  // UTF-8, not NUL-terminated
};

struct ParamSet {  // one chunk of the sender's full parameter set
  std::uint16_t total;  // parameters in the whole set
  std::uint16_t first;  // index of params[0] within the set
  std::uint8_t count;
  Param params[kMaxParamsPerFrame];
};

struct ParamChange {
  Param param;
};

struct Ack {
  std::uint16_t ref_seq;  // seq of the frame answered
  MsgType ref_type;       // its type
  Status status;
  std::uint16_t subject;  // parameter id or command id concerned (0 if none)
  ParamValue value;       // value now in effect (rejections: the unchanged value)
};

struct Command {
  CommandId id;
  std::uint32_t arg;
};

// One boid, quantised: position in units of 2^-pos_shift px, velocity in units
// of 2^-vel_shift px/frame (see FlockState), saturated to int16.
struct BoidQ {
  std::int16_t x, y, vx, vy;
};

struct FlockState {  // one chunk of one simulation frame
  std::uint32_t frame;
  std::uint32_t total;   // boids in the whole frame
  std::uint32_t offset;  // index of boids[0] within the frame
  std::uint16_t count;
  std::uint8_t pos_shift;  // 0..15
  std::uint8_t vel_shift;  // 0..15
  std::uint8_t flags;      // kStateFlagGroups
  BoidQ boids[kMaxBoidsPerChunk];
  std::uint8_t groups[kMaxBoidsPerChunk];  // 0..3, meaningful if flags & kStateFlagGroups
};

struct Predators {
  std::uint32_t frame;
  std::uint8_t count;
  std::uint8_t pos_shift;
  std::uint8_t vel_shift;
  BoidQ predators[kMaxPredators];
};

// A frame's food sources and each predator's aim (the lab's extensions).
struct PointQ {
  std::int16_t x, y;
};
inline constexpr std::uint8_t kAimActive = 0x01;  // AimQ::flags: the predator steers toward (x, y)
struct AimQ {
  std::uint8_t flags;  // kAimActive, or 0: a random predator, or one that sees no boid
  std::int16_t x, y;
};
struct Surroundings {
  std::uint32_t frame;
  std::uint8_t food_count;  // 0..kMaxFood
  std::uint8_t aim_count;   // 0..kMaxPredators
  std::uint8_t pos_shift;   // 0..15, as the flock state's
  PointQ food[kMaxFood];
  AimQ aims[kMaxPredators];
};

// The sender's own metrics of a frame (the metrics message). Named apart from core's
// Metrics, which the app computes from every boid of the state.
struct BoardMetrics {
  std::uint32_t frame;
  float diameter;      // mean distance to the centroid, px
  float centroid_x;    // px
  float centroid_y;    // px
  float polarisation;  // |mean unit heading|, 0..1
  float mean_speed;    // px/frame
  std::uint32_t boids; // how many boids diameter, polarisation and mean speed were computed over
};

struct Stats {
  std::uint32_t frame;
  float fps;                // measured frame rate
  std::uint32_t compute_us; // simulation time of the last frame
  std::int32_t spare_us;    // frame budget minus frame time; negative when late
  std::uint32_t boid_count;
  std::uint32_t elapsed_ms; // since the last reset
  std::uint32_t tx_dropped; // frames the sender could not send (link busy)
  std::uint8_t flags;       // kStatsFlagPaused | kStatsFlagPredators | kStatsFlagGeneralRules
};

struct Log {
  LogLevel level;
  std::uint16_t length;
  char text[kMaxLogText];  // UTF-8, not NUL-terminated
};

// ---- Message ------------------------------------------------------------------

struct Message {
  MsgType type;
  std::uint8_t version;  // header version; kProtocolVersion unless a foreign hello
  std::uint16_t seq;     // sender's frame counter (the encoder's Encoder stamps it)
  union {
#define FLOCKSCOPE_MSG_MEMBER(k, type, code, member, name, fixed) type member;
    FLOCKSCOPE_MESSAGE_LIST(FLOCKSCOPE_MSG_MEMBER)
#undef FLOCKSCOPE_MSG_MEMBER
  };
};

// ---- helpers --------------------------------------------------------------------

// Field-wise equality of the meaningful part (arrays up to their count). Floats
// compare by bit pattern, so NaNs compare equal to themselves.
bool operator==(const Message& a, const Message& b);

// Whether every count/length is within its capacity and every range rule of
// PROTOCOL.md holds, i.e. whether encode() will accept it.
bool is_valid(const Message& m);

// Builders for the common cases; they set type and version, seq = 0.
Message make_hello(Role role, std::uint8_t sw_major, std::uint8_t sw_minor, std::uint16_t sw_patch,
                   std::uint32_t max_boids, std::uint32_t capabilities, const char* name);
Message make_param_change(std::uint16_t id, ParamValue value);
Message make_command(CommandId id, std::uint32_t arg = 0);
Message make_ack(const Message& answered, Status status, std::uint16_t subject, ParamValue value);
Message make_log(LogLevel level, const char* text);  // truncated to kMaxLogText bytes

}  // namespace flockscope::protocol
