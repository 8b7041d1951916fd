// An input's bytes as a board reads them (fuzz_checks.hpp: byte 0 picks the read sizes), and
// the board's output checked as the app decodes it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>

#include "flockscope/protocol/protocol.hpp"

namespace fuzztest {

namespace protocol = flockscope::protocol;

class InputBytes {
 public:
  InputBytes(const std::uint8_t* data, std::size_t size)
      : data_(size > 0 ? data + 1 : data), size_(size > 0 ? size - 1 : 0),
        read_(size > 0 ? std::size_t(data[0] & 63u) + 1 : 64), reads_per_frame_(size > 0 ? std::size_t(data[0] >> 6) * 16 + 1 : 1) {}
  // At most one read's worth of the input; 0 when this frame's reads are used up.
  std::size_t read(std::uint8_t* buf, std::size_t cap) {
    if (reads_left_ == 0) return 0;
    --reads_left_;
    const std::size_t n = std::min({cap, read_, size_ - at_});
    if (n == 0) return 0;  // (an empty input may have no bytes at all: data is null)
    std::memcpy(buf, data_ + at_, n);
    at_ += n;
    return n;
  }
  void next_frame() { reads_left_ = reads_per_frame_; }
  bool done() const { return at_ >= size_; }

 private:
  const std::uint8_t* data_;
  std::size_t size_, at_ = 0;
  std::size_t read_, reads_per_frame_, reads_left_ = 0;
};

// The board's output as the app decodes it: every candidate frame must decode.
class OutputCheck {
 public:
  std::size_t take(const std::uint8_t* buf, std::size_t n) {
    std::span<const std::uint8_t> in(buf, n);
    while (dec_.next(in, *m_)) {
      if (m_->type == protocol::MsgType::kAck) ++acks_;
    }
    return n;
  }
  std::size_t acks() const { return acks_; }
  bool clean(std::string* why) const {
    const auto& s = dec_.stats();
    if (s.bad_crc + s.bad_framing + s.oversize + s.malformed + s.unknown_type + s.version_mismatch == 0) return true;
    if (why)
      *why = "the board's output does not decode: bad_crc " + std::to_string(s.bad_crc) + ", bad_framing " +
             std::to_string(s.bad_framing) + ", oversize " + std::to_string(s.oversize) + ", malformed " +
             std::to_string(s.malformed) + ", unknown_type " + std::to_string(s.unknown_type) + ", version " +
             std::to_string(s.version_mismatch);
    return false;
  }

 private:
  protocol::StaticDecoder<> dec_;
  std::unique_ptr<protocol::Message> m_ = std::make_unique<protocol::Message>();
  std::size_t acks_ = 0;
};

inline bool fail(std::string* why, std::string text) {
  if (why) *why = std::move(text);
  return false;
}

// Frames a board runs for one input: enough to read all of it at one byte a read, bounded.
inline constexpr int kMaxFrames = 4096;

}  // namespace fuzztest
