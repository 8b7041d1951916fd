// Incremental frame decoder: feed it whatever byte chunks the link delivers, get
// whole messages back. No heap, no exceptions: the frame is assembled in a
// caller-supplied buffer and never grows past it (or past kMaxFrameSize).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "flockscope/protocol/codec.hpp"
#include "flockscope/protocol/messages.hpp"

namespace flockscope::protocol {

// Every non-empty delimiter-terminated frame is counted in exactly one of the
// frame counters (frames_ok ... version_mismatch), so their sum is the number of
// frames seen; seq_gaps/seq_lost come on top. (An oversize frame is counted when
// the limit is crossed, i.e. possibly before its delimiter has arrived.)
struct DecoderStats {
  std::uint64_t bytes = 0;          // bytes fed in
  std::uint32_t frames_ok = 0;      // delivered, known type, our version
  std::uint32_t bad_crc = 0;
  std::uint32_t bad_framing = 0;    // broken COBS block or runt (< header + CRC)
  std::uint32_t oversize = 0;       // longer than the buffer / kMaxFrameSize: skipped
  std::uint32_t malformed = 0;      // CRC ok, payload layout wrong: dropped
  std::uint32_t unknown_type = 0;   // CRC ok, type unknown: delivered (header only)
  std::uint32_t version_mismatch = 0;  // CRC ok, other version: dropped (hellos delivered)
  std::uint32_t seq_gaps = 0;       // times the sequence number jumped
  std::uint32_t seq_lost = 0;       // sequence numbers skipped (jumps of < 32768)

  std::uint32_t frames() const {
    return frames_ok + bad_crc + bad_framing + oversize + malformed + unknown_type + version_mismatch;
  }
  std::uint32_t errors() const { return bad_crc + bad_framing + oversize + malformed; }
  bool operator==(const DecoderStats&) const = default;
};

class Decoder {
 public:
  // buffer holds one unstuffed frame; frames longer than min(buffer.size(),
  // kMaxFrameSize) are counted as oversize and skipped.
  explicit Decoder(std::span<std::uint8_t> buffer);

  // Pull API. Consumes input up to and including the delimiter of the next frame
  // that yields a message, stores it in out, advances input past the consumed bytes
  // and returns true. Returns false (input empty) when the chunk is used up; a
  // partial frame stays buffered for the next call.
  //   while (dec.next(chunk, msg)) handle(msg);
  // A delivered message may be of unknown type (check is_known(msg.type)) or a
  // hello of another version (msg.version != kProtocolVersion).
  bool next(std::span<const std::uint8_t>& input, Message& out);

  // Push API over next(); scratch holds each message while on_message runs.
  template <class F>
  void feed(std::span<const std::uint8_t> input, Message& scratch, F&& on_message) {
    while (next(input, scratch)) on_message(static_cast<const Message&>(scratch));
  }

  const DecoderStats& stats() const { return stats_; }
  void reset_stats() { stats_ = {}; }
  // Forgets the partial frame and the sequence history (e.g. after reconnecting).
  void reset();
  // True while a frame has started but its delimiter has not arrived.
  bool mid_frame() const { return in_frame_; }

 private:
  void absorb(const std::uint8_t* p, const std::uint8_t* end);
  void note_oversize();
  bool finish_frame(Message& out);
  void track_seq(std::uint16_t seq, bool resync);

  std::uint8_t* buf_;
  std::size_t cap_;
  std::size_t len_ = 0;
  std::size_t block_left_ = 0;  // data bytes still due in the current COBS block
  bool zero_pending_ = false;   // the current block ends with an implied 0x00
  bool in_frame_ = false;
  bool discarding_ = false;     // oversize: skip to the next delimiter
  bool have_seq_ = false;
  std::uint16_t expected_seq_ = 0;
  DecoderStats stats_;
};

namespace detail {
template <std::size_t N>
struct DecoderStorage {
  std::array<std::uint8_t, N> storage{};
};
}  // namespace detail

// A Decoder that owns its frame buffer.
template <std::size_t N = kMaxFrameSize>
class StaticDecoder : private detail::DecoderStorage<N>, public Decoder {
 public:
  StaticDecoder() : Decoder(std::span<std::uint8_t>(this->storage)) {}
  StaticDecoder(const StaticDecoder&) = delete;
  StaticDecoder& operator=(const StaticDecoder&) = delete;
};

}  // namespace flockscope::protocol
