// Frame encoder and one-frame parser.
//
// A frame before stuffing is  version u8 | type u8 | seq u16 | payload | crc32 u32
// and on the wire it is       0x00 | COBS(frame) | 0x00   (PROTOCOL.md, "Framing").
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "flockscope/protocol/messages.hpp"

namespace flockscope::protocol {

// Payload bytes m would occupy, or 0 with ok=false when m is not valid.
std::size_t payload_size(const Message& m, bool& ok);

// Writes the unstuffed frame (header, payload, CRC) of m into frame[0..cap).
// Returns its length, or 0 if m is invalid or does not fit. Replay files and
// tests use this form; the wire needs encode().
std::size_t write_frame(const Message& m, std::uint8_t* frame, std::size_t cap);

// Encodes m (with m.seq and m.version as given) as wire bytes into out: leading
// 0x00, COBS-stuffed frame, trailing 0x00. Returns the byte count, or 0 if m is
// invalid or out is too small (kMaxWireSize always suffices). Uses only out as
// working memory.
std::size_t encode(const Message& m, std::span<std::uint8_t> out);

// Worst-case wire size of a frame whose payload is n bytes.
inline constexpr std::size_t wire_size_bound(std::size_t payload) {
  const std::size_t f = kHeaderSize + payload + kCrcSize;
  return 1 + f + f / 254 + 1 + 1;
}

// For senders that write a frame's header and payload themselves (the board's state
// chunks): the header at p (this protocol version), and the last step of every encoder:
// raw[0, n) holds header + payload followed by 4 bytes of room for the CRC (n counts
// them); appends the CRC and writes the wire bytes (0x00, COBS, 0x00; at most
// wire_size_bound(n - kHeaderSize - kCrcSize)) to out, which must not overlap raw.
// Returns the wire length. Fastest with raw 4-byte aligned (CRC and COBS take words).
void write_frame_header(std::uint8_t* p, MsgType type, std::uint16_t seq);
std::size_t frame_to_wire(std::uint8_t* raw, std::size_t n, std::uint8_t* out);

// Keeps the sender's sequence counter: every frame sent gets the next number.
class Encoder {
 public:
  explicit Encoder(std::uint16_t first_seq = 0) : next_seq_(first_seq) {}
  // Stamps m.seq with the next sequence number and encodes m. The counter only
  // advances when something was written, so a failed encode leaves no gap.
  std::size_t encode(Message& m, std::span<std::uint8_t> out);
  std::uint16_t next_seq() const { return next_seq_; }
  // For encoders that write frames themselves (encode_flock_state).
  std::uint16_t take_seq() { return next_seq_++; }

 private:
  std::uint16_t next_seq_;
};

enum class FrameResult : std::uint8_t {
  kOk,              // out holds the message
  kRunt,            // shorter than header + CRC
  kBadCrc,
  kForeignVersion,  // CRC ok, header version != ours, not a hello: dropped
  kForeignHello,    // a hello of another protocol version: out holds it
  kUnknownType,     // CRC ok, our version, unknown type: out.type/version/seq are set
  kMalformed,       // CRC ok, payload does not match the type's layout
};

// Parses one unstuffed frame. Never reads outside frame[0..n).
FrameResult parse_frame(const std::uint8_t* frame, std::size_t n, Message& out);

}  // namespace flockscope::protocol
