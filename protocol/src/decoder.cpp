// Incremental receiver. The hot path per chunk is: memchr for the next 0x00, then
// per COBS block one memcpy into the frame buffer; the CRC runs once per frame
// over the decoded bytes. Unstuffing as bytes arrive (instead of buffering the
// stuffed frame) means the buffer bound applies to the decoded size and a frame is
// touched once before its CRC check.
#include "flockscope/protocol/decoder.hpp"

#include <cstring>

namespace flockscope::protocol {

Decoder::Decoder(std::span<std::uint8_t> buffer)
    : buf_(buffer.data()), cap_(buffer.size() < kMaxFrameSize ? buffer.size() : kMaxFrameSize) {}

void Decoder::reset() {
  len_ = 0;
  block_left_ = 0;
  zero_pending_ = false;
  in_frame_ = false;
  discarding_ = false;
  have_seq_ = false;
}

// Unstuffs [p, end), which contains no 0x00, into the frame buffer.
void Decoder::absorb(const std::uint8_t* p, const std::uint8_t* end) {
  in_frame_ = true;
  while (p < end) {
    if (block_left_ == 0) {
      const std::uint8_t code = *p++;  // never 0: the segment holds no delimiter
      if (zero_pending_) {
        if (len_ == cap_) return note_oversize();
        buf_[len_++] = 0;
      }
      block_left_ = static_cast<std::size_t>(code) - 1;
      zero_pending_ = code != 0xFF;
    } else {
      const std::size_t avail = static_cast<std::size_t>(end - p);
      const std::size_t k = block_left_ < avail ? block_left_ : avail;
      if (k > cap_ - len_) return note_oversize();
      std::memcpy(buf_ + len_, p, k);
      len_ += k;
      p += k;
      block_left_ -= k;
    }
  }
}

// Counted once, when noticed; the rest of the frame is skipped unbuffered.
void Decoder::note_oversize() {
  ++stats_.oversize;
  discarding_ = true;
}

void Decoder::track_seq(std::uint16_t seq, bool resync) {
  if (have_seq_ && !resync && seq != expected_seq_) {
    ++stats_.seq_gaps;
    const auto skipped = static_cast<std::uint16_t>(seq - expected_seq_);
    if (skipped < 0x8000u) stats_.seq_lost += skipped;
  }
  have_seq_ = true;
  expected_seq_ = static_cast<std::uint16_t>(seq + 1);
}

bool Decoder::finish_frame(Message& out) {
  bool delivered = false;
  if (discarding_) {
    // already counted as oversize
  } else if (block_left_ != 0) {
    ++stats_.bad_framing;  // a COBS block promised more bytes than arrived
  } else {
    switch (parse_frame(buf_, len_, out)) {
      case FrameResult::kOk:
        ++stats_.frames_ok;
        // A hello may follow a restart of the peer, whose counter starts over.
        track_seq(out.seq, out.type == MsgType::kHello);
        delivered = true;
        break;
      case FrameResult::kRunt: ++stats_.bad_framing; break;
      case FrameResult::kBadCrc: ++stats_.bad_crc; break;
      case FrameResult::kForeignVersion: ++stats_.version_mismatch; break;
      case FrameResult::kForeignHello:
        ++stats_.version_mismatch;
        have_seq_ = false;
        delivered = true;
        break;
      case FrameResult::kUnknownType:
        ++stats_.unknown_type;
        track_seq(out.seq, false);
        delivered = true;
        break;
      case FrameResult::kMalformed:
        ++stats_.malformed;
        track_seq(out.seq, false);
        break;
    }
  }
  len_ = 0;
  block_left_ = 0;
  zero_pending_ = false;
  in_frame_ = false;
  discarding_ = false;
  return delivered;
}

bool Decoder::next(std::span<const std::uint8_t>& input, Message& out) {
  const std::uint8_t* const begin = input.data();
  const std::uint8_t* p = begin;
  const std::uint8_t* const end = begin + input.size();
  while (p < end) {
    const void* z = std::memchr(p, 0, static_cast<std::size_t>(end - p));
    const std::uint8_t* seg_end = z ? static_cast<const std::uint8_t*>(z) : end;
    if (seg_end != p) {
      if (discarding_)
        in_frame_ = true;
      else
        absorb(p, seg_end);
    }
    if (!z) break;
    p = seg_end + 1;
    if (in_frame_ && finish_frame(out)) {
      const auto used = static_cast<std::size_t>(p - begin);
      stats_.bytes += used;
      input = input.subspan(used);
      return true;
    }
  }
  stats_.bytes += input.size();
  input = input.subspan(input.size());
  return false;
}

}  // namespace flockscope::protocol
